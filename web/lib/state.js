// The page's shared state, in one explicit object `S`, and the page-wide settings (default bot
// level and delay, the delays the menu offers).  Every other module reads and writes the table's
// state only through `S`; the DOM nodes the page draws into are in dom.js (`el`).
//
// What the page knows of the games comes from the engine: `S.info` (the worker's `info` reply:
// games, built games, seat counts, options, bot level names) once the engine is ready, and
// before that `S.boot` (web/build.json: the worker's info written at build time), so that the
// menu works at once; the worker's own reply wins when it comes.

import { LANGS } from "../i18n.js";

export const DEFAULT_DELAY = 700;
export const DEFAULT_LEVEL = 3;
export const DELAYS = [0, 300, 700, 1500];

export const S = {
  lang: "en",
  debug: false,
  boot: { built: [] },        // web/build.json's info, read at start-up
  info: null,                 // from the worker: games, built, classes {players, options}, levels
  ready: false,
  view: null,                 // the person's view: the only game data the page holds
  result: null,               // once the game is over: the event that tells how it ended
  lastDeal: null,             // the finished deal's items (bridge.py _last_deal) + dismissed
  refusal: null,              // why the card the person tapped cannot be played ({card, rule, reason})
  game: null, players: 0, seat: 0, seed: 0, levels: [], delay: DEFAULT_DELAY, options: {},
  gen: 0,                     // bumps on every new game: stale bot loops stop
  busy: false,                // an action of the person is on its way to the engine
  canUndo: false,             // the person has a decision of this deal to take back (bridge reply)
  hint: null,                 // the hint of the view on the table: {view, pending, result}
  trickSeen: 0,               // trick cards already drawn (only newer ones drop in)
  shownDeal: 0,               // the deal number drawn last (a new one shows a toast)
  record: null,               // the kept record of the game on the table: {id, started, aids, finished}
  saved: [],                  // the kept games' meta records, newest first (keep.js, store.js)
  seatTag: null,              // lab/table.js: seat -> {name, text, fallen} of a student's bot there
  statusFor: null,            // lab/table.js: the status line while watching a student's bot
  engineBuild: null,          // the build id the worker loaded (web/build.json of its own fetch)
  menu: { game: "sixty_six", players: null, seat: 0, levels: [], options: {}, delay: DEFAULT_DELAY, seed: "" },
};

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
