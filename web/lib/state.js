// The page's state: one store in four parts, each changed by one module only (its owner claims
// the part once, at start-up), read by any module, watched by subscribers.
//
//   part    owner                what it holds
//   page    app.js               language, debug, the engine's info and readiness, the lab open
//   menu    menu.js              the settings chosen in the menu (the next game's)
//   table   play.js              the game on the table: its settings, the engine's last reply,
//                                the person's turn in progress, the kept record, a lab bot seated
//   saved   autosave.js          the kept games' records, newest first (IndexedDB, saved-games.js)
//
// Reading: `S.view`, `S.seat`, … (S is a read-only view of every part's fields; `S.menu` is the
// menu part) or get("table").  Writing: `const table = claim("table")` in the owner, then
// table.set({view, result}) or table.update((old) => patch).  A set() replaces the part with a
// new frozen object and calls each subscriber of the part with the names of the fields that
// changed; subscribe("table", fn) returns the function that ends the subscription.  Fields are
// declared here (a set() of an unknown field throws) and hold data only (a function throws).
//
// What the page knows of the games comes from the engine: `S.info` (the worker's `info` reply:
// games, built games, seat counts, options, bot level names) once the engine is ready, and
// before that `S.boot` (web/build.json: the worker's info written at build time), so that the
// menu works at once; the worker's own reply wins when it comes.

import { LANGS } from "../i18n.js";

export const DEFAULT_DELAY = 700;
export const DEFAULT_LEVEL = 3;
export const DELAYS = [0, 300, 700, 1500];

const INITIAL = {
  page: {
    lang: "en",
    debug: false,
    boot: { built: [] },        // web/build.json's info, read at start-up
    info: null,                 // from the worker: games, built, classes {players, options}, levels
    ready: false,               // the engine answers
    engineBuild: null,          // the build id the worker loaded (web/build.json of its own fetch)
    words: 0,                   // bumps when more games' words (web/i18n/<game>.js) are loaded
    labOpen: false,             // the bot lab (lib/lab/lab.js) is on the screen
  },
  menu: {
    game: "sixty_six", players: null, seat: 0, levels: [], options: {}, delay: DEFAULT_DELAY, seed: "", teach: false,
  },
  table: {
    // the game's settings (as in the hash)
    game: null, players: 0, seat: 0, seed: 0, levels: [], delay: DEFAULT_DELAY, options: {},
    teach: false,               // teaching mode: every hand open (bridge.py)
    gen: 0,                     // bumps on every new table: stale bot loops stop
    // the engine's last reply (bridge.py Table.reply)
    view: null,                 // the person's view: the only game data the page holds
    result: null,               // once the game is over: the event that tells how it ended
    lastDeal: null,             // the finished deal's items (bridge.py _last_deal) + dismissed
    canUndo: false,             // the person has a decision of this deal to take back
    open: null,                 // teaching mode: every hand and the bots' analyses
    refusal: null,              // why the card the person tapped cannot be played ({card, rule, reason})
    // the person's turn and the pace (play.js)
    busy: false,                // an action of the person is on its way (or a lab bot plays the seat)
    held: false,                // a finished trick stays on show until a key or a click
    auto: null,                 // the only legal card that will play itself: {view, action}
    reset: { n: 0, seen: 0 },   // the table set anew (n bumps): `seen` trick cards are not new
    // kept in the browser (autosave.js): {id, started, aids: {hints, undo}}
    record: null,
    // a student's bot at the table (lab/table.js): {gen, name, mode, seats, limitMs, fallen}
    outside: null,
    lesson: null,               // a lesson (learn to play): {game, number, deal_no, guide}; else null
  },
  saved: {
    saved: [],                  // the kept games' meta records, newest first
  },
};

const parts = {};
const owners = new Set();
const listeners = {};
for (const [part, fields] of Object.entries(INITIAL)) {
  parts[part] = Object.freeze({ ...fields });
  listeners[part] = new Set();
}

function known(part) {
  if (!Object.prototype.hasOwnProperty.call(parts, part)) throw new Error(`state: no part "${part}"`);
}

/** A part of the state (a frozen object; its fields' own objects are not copied). */
export function get(part) {
  known(part);
  return parts[part];
}

/** Call fn(changed: Set of field names) after each change of a part; returns the unsubscribe. */
export function subscribe(part, fn) {
  known(part);
  listeners[part].add(fn);
  return () => listeners[part].delete(fn);
}

function setPart(part, patch) {
  const old = parts[part];
  const changed = new Set();
  for (const [k, v] of Object.entries(patch)) {
    if (!Object.prototype.hasOwnProperty.call(old, k)) throw new Error(`state: ${part} has no field "${k}"`);
    if (typeof v === "function") throw new Error(`state: ${part}.${k} cannot hold a function`);
    if (old[k] !== v) changed.add(k);
  }
  if (!changed.size) return changed;
  parts[part] = Object.freeze({ ...old, ...patch });
  for (const fn of [...listeners[part]]) fn(changed);
  return changed;
}

/** The writer of a part, given once: {set(patch), update(fn: old -> patch)}.  A second claim of
 *  the same part throws: each part has one owner (the table above). */
export function claim(part) {
  known(part);
  if (owners.has(part)) throw new Error(`state: the part "${part}" has an owner already`);
  owners.add(part);
  return {
    set: (patch) => setPart(part, patch),
    update: (fn) => setPart(part, fn(parts[part])),
  };
}

/** Every field of the page, table and saved parts read by name (S.view, S.lang …), and the menu
 *  part as S.menu.  Read only: an assignment throws (modules are strict). */
export const S = {};
for (const part of ["page", "table", "saved"]) {
  for (const k of Object.keys(INITIAL[part])) {
    Object.defineProperty(S, k, { get: () => parts[part][k], enumerable: true });
  }
}
Object.defineProperty(S, "menu", { get: () => parts.menu, enumerable: true });
Object.freeze(S);

/** The language: from the hash, else the one chosen before, else the browser's. */
export function pickLang(fromHash) {
  if (LANGS.includes(fromHash)) return fromHash;
  try {
    const saved = localStorage.getItem("atut.lang");
    if (LANGS.includes(saved)) return saved;
  } catch (_) { /* storage may be off */ }
  return (navigator.language || "en").toLowerCase().startsWith("pl") ? "pl" : "en";
}

/** Every game id (built or not), the engine's when it is ready. */
export const gameIds = () => (S.info ? S.info.games : S.boot.built);

/** The built game ids. */
export const builtGames = () => (S.info ? S.info.built : S.boot.built);

/** The bot levels {name: number} (random: 1 … strong: 4), from the engine. */
export const levelNames = () => (S.info && S.info.levels) || {};

/** The bot level numbers, lowest first. */
export const levelNumbers = () => [...new Set(Object.values(levelNames()))].sort((a, b) => a - b);
