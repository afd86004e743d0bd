// The URL hash: parsed into raw values at once (the language and debug are needed before the
// engine is ready), validated against the engine's `info` (games, seat counts, bot level names)
// when a game starts from it, and written back as a shareable link of the table.

import { S, DEFAULT_DELAY, DEFAULT_LEVEL, levelNames, levelNumbers } from "./state.js";
import { t } from "./words.js";
import { canonical } from "./canonical.js";

/** The raw keys of the hash ({game, players, …, options: {key: value}}), nothing checked. */
export function parseHash() {
  const q = new URLSearchParams(location.hash.replace(/^#/, ""));
  const out = { options: Object.create(null) };
  for (const [k, v] of q) {
    if (k.startsWith("opt_")) {
      let val = v;
      try { val = JSON.parse(v); } catch (_) { /* a plain string */ }
      out.options[k.slice(4)] = val;
    } else if (!Object.prototype.hasOwnProperty.call(out, k)) out[k] = v;   // the first wins
  }
  return out;
}

// The page's limits of a link's numbers: a seed that JavaScript holds exactly (the link must
// replay the same game) and a bot delay of at most a minute.
export const MAX_SEED = Number.MAX_SAFE_INTEGER;
export const MAX_DELAY = 60000;
const SHOWN = 40;                       // a junk value is shown cut to this many characters

/** A value of the link as the notice shows it: quoted, cut short. */
const shown = (v) => {
  const s = String(v);
  return s.length > SHOWN ? s.slice(0, SHOWN) + "…" : s;
};

/** An Error whose message is the i18n key's sentence (the page's language). */
const bad = (key, params = {}) => new Error(t(key, params));

function wholeNumber(s, key, params = {}) {
  if (!/^-?\d+$/.test(String(s))) throw bad(key, { value: shown(s), ...params });
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw bad(key, { value: shown(s), ...params });
  return n;
}

function parseBots(s, bots) {
  const names = levelNames();
  const numbers = levelNumbers();
  const params = { value: shown(s), levels: [...numbers, ...Object.keys(names)].join(", ") };
  if (s === undefined) return [DEFAULT_LEVEL];
  const levels = String(s).split(",").map((x) => {
    x = x.toLowerCase();
    if (Object.prototype.hasOwnProperty.call(names, x)) return names[x];
    if (numbers.map(String).includes(x)) return parseInt(x, 10);
    throw bad("ui.hash.bots", params);
  });
  if (levels.length !== 1 && levels.length !== bots) {
    throw bad("ui.hash.bots_count", { n: bots, count: levels.length, value: shown(s) });
  }
  return levels;
}

function parseOptions(options, game, cls) {
  const known = (cls && cls.options) || {};
  const out = {};
  for (const [k, v] of Object.entries(options || {})) {
    if (!Object.prototype.hasOwnProperty.call(known, k)) {
      throw bad("ui.hash.option", { key: shown(k), game: shown(game), keys: Object.keys(known).join(", ") || "—" });
    }
    const c = canonical(v);
    const value = known[k].find((x) => canonical(x) === c);
    if (value === undefined) {
      throw bad("ui.hash.option_value", { key: k, value: shown(typeof v === "string" ? v : JSON.stringify(v)), values: known[k].map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(", ") });
    }
    out[k] = value;
  }
  return out;
}

export const randomSeed = () => Math.floor(Math.random() * 1000000);

/** Settings from a parsed hash; throws Error with a readable message (in the page's language)
 *  for a malformed value: an unknown game, a seat count the game is not played by, a seat
 *  outside the table, a seed JavaScript cannot hold exactly, a bot level the engine does not
 *  know (or a list of the wrong length), a negative or huge delay, an unknown option or value.
 *  Keys the page does not know are ignored. */
export function settingsFromHash(p) {
  const game = p.game;
  if (typeof game !== "string" || !S.info.games.includes(game)) throw bad("ui.unknown_game", { game: shown(game) });
  const cls = S.info.classes[game];
  const counts = cls ? cls.players : [];
  let players = cls ? counts[0] : null;
  if (p.players !== undefined) {
    const params = { counts: counts.join(", ") };
    players = wholeNumber(p.players, "ui.hash.players", params);
    if (cls && !counts.includes(players)) throw bad("ui.hash.players", { value: shown(p.players), ...params });
  }
  const seats = players || 0;
  let seat = 0;
  if (p.seat !== undefined) {
    const params = { max: Math.max(0, seats - 1) };
    seat = wholeNumber(p.seat, "ui.hash.seat", params);
    if (seat < 0 || (cls && seat >= seats)) throw bad("ui.hash.seat", { value: shown(p.seat), ...params });
  }
  let delay = DEFAULT_DELAY;
  if (p.delay !== undefined) {
    delay = wholeNumber(p.delay, "ui.hash.delay", { max: MAX_DELAY });
    if (delay < 0 || delay > MAX_DELAY) throw bad("ui.hash.delay", { value: shown(p.delay), max: MAX_DELAY });
  }
  return {
    game,
    players,
    seed: p.seed !== undefined ? wholeNumber(p.seed, "ui.hash.seed", { max: MAX_SEED }) : randomSeed(),
    seat,
    levels: parseBots(p.bots, Math.max(1, seats - 1)),
    delay,
    options: parseOptions(p.options, game, cls),
    teach: p.open === "1",            // teaching mode: every hand open (bridge.py)
  };
}

/** The table's settings as the hash (replacing the history entry, not adding one). */
export function writeHash() {
  const q = new URLSearchParams();
  if (S.lesson) {                     // a lesson (learn to play): its own link
    q.set("learn", S.lesson.game);
    q.set("lesson", String(S.lesson.number));
    q.set("delay", String(S.delay));
    q.set("lang", S.lang);
    if (S.debug) q.set("debug", "1");
    if (location.hash !== "#" + q) history.replaceState(null, "", "#" + q);
    return;
  }
  q.set("game", S.game);
  q.set("players", String(S.players));
  q.set("seed", String(S.seed));
  q.set("seat", String(S.seat));
  const lv = S.levels;
  q.set("bots", lv.every((x) => x === lv[0]) ? String(lv[0]) : lv.join(","));
  q.set("delay", String(S.delay));
  q.set("lang", S.lang);
  for (const [k, v] of Object.entries(S.options)) q.set("opt_" + k, typeof v === "string" ? v : JSON.stringify(v));
  if (S.teach) q.set("open", "1");
  if (S.debug) q.set("debug", "1");
  const hash = "#" + q.toString().replace(/%2C/g, ",");
  if (location.hash !== hash) history.replaceState(null, "", hash);
}
