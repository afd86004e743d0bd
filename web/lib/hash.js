// The URL hash: parsed into raw values at once (the language and debug are needed before the
// engine is ready), validated against the engine's `info` (games, seat counts, bot level names)
// when a game starts from it, and written back as a shareable link of the table.

import { S, DEFAULT_DELAY, DEFAULT_LEVEL, levelNames, levelNumbers } from "./state.js";
import { t } from "./words.js";

/** The raw keys of the hash ({game, players, …, options: {key: value}}), nothing checked. */
export function parseHash() {
  const q = new URLSearchParams(location.hash.replace(/^#/, ""));
  const out = { options: {} };
  for (const [k, v] of q) {
    if (k.startsWith("opt_")) {
      let val = v;
      try { val = JSON.parse(v); } catch (_) { /* a plain string */ }
      out.options[k.slice(4)] = val;
    } else out[k] = v;
  }
  return out;
}

function parseIntStrict(s, what) {
  if (!/^-?\d+$/.test(String(s).trim())) throw new Error(`${what} must be a whole number, not "${s}"`);
  return parseInt(s, 10);
}

function parseBots(s) {
  if (s === undefined || s === "") return [DEFAULT_LEVEL];
  const names = levelNames();
  const numbers = levelNumbers();
  return String(s).split(",").map((x) => {
    x = x.trim().toLowerCase();
    if (Object.prototype.hasOwnProperty.call(names, x)) return names[x];
    if (numbers.map(String).includes(x)) return parseInt(x, 10);
    throw new Error(`bots must be ${numbers[0]} to ${numbers[numbers.length - 1]} or ${Object.keys(names).join(", ")} (or a comma list of them), not "${s}"`);
  });
}

export const randomSeed = () => Math.floor(Math.random() * 1000000);

/** Settings from a parsed hash; throws Error with a readable message for a malformed value. */
export function settingsFromHash(p) {
  const game = p.game;
  if (!S.info.games.includes(game)) throw new Error(t("ui.unknown_game", { game }));
  const cls = S.info.classes[game];
  const out = {
    game,
    players: p.players !== undefined ? parseIntStrict(p.players, "players") : (cls ? cls.players[0] : null),
    seed: p.seed !== undefined ? parseIntStrict(p.seed, "seed") : randomSeed(),
    seat: p.seat !== undefined ? parseIntStrict(p.seat, "seat") : 0,
    levels: parseBots(p.bots),
    delay: p.delay !== undefined ? parseIntStrict(p.delay, "delay") : DEFAULT_DELAY,
    options: p.options || {},
    teach: p.open === "1",            // teaching mode: every hand open (bridge.py)
  };
  if (out.delay < 0) throw new Error(`delay must be 0 or more milliseconds, not ${out.delay}`);
  return out;
}

/** The table's settings as the hash (replacing the history entry, not adding one). */
export function writeHash() {
  const q = new URLSearchParams();
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
