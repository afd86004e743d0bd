// Your bot at the table (docs/LAB.md): the student's bot seated in the table's game.  Three modes,
// started from the lab: play against it (the bot in one or all other seats, level 3 in the
// rest), partner it in euchre (the bot across from the person), watch it (the bot in seat 0,
// the person's "you" position, level 3 elsewhere, teaching mode's open hands, the bot speed
// setting; the person only watches).
//
// The student's code runs only in a box of its own (web/lib/box.js: a worker in a sandboxed
// iframe, docs/LAB.md "Boxes"); the table's game stays in the table's worker.  The page asks the
// table's worker for a port of a MessageChannel (`outside_port`) and hands it on into the box
// (transferred, so the page keeps no end of it): the table's worker sends the view of the bot's
// seat over it and applies the answer (web/worker.js, web/bridge.py `outside_*`).  The page
// never receives that view.
// A failure (an exception, an illegal answer, a decision over the time limit, the lab worker
// gone) is told here as a notice; that move and the rest of the game are played by the seat's
// level-2 bot.
//
// The markers: `{"outside": "mybot.py"}` in place of a level in the new_game request (a list
// one entry per seat, the person's own marked, when watching); S.levels keeps the level that
// plays the seat when the bot fails (2), so the shareable hash is written with level 2 (a
// link cannot carry a bot's code); the kept record adds `outside` ({seat: name}), `watch`,
// `outside_fallen` and `outside_limit` (autosave.js), and a resumed game takes the bot from the
// saved bots by name (or seats level 2 and says so).
//
// The bot seated is the table's state (S.outside): play.js sets it, given here as `play` (the
// lab and autosave.js hand it on from app.js); table/outside.js draws its seats' tags.

import { S } from "../state.js";
import { sleep } from "../dom.js";
import { request } from "../worker-client.js";
import { showNotice, hideNotice } from "../notice.js";
import { t } from "../words.js";
import { randomSeed } from "../hash.js";
import { liveBot, FALLBACK_LEVEL } from "../table/outside.js";
import { BotBox } from "../box.js";
import * as saved from "./saved.js";

export { FALLBACK_LEVEL };
export const OPPONENT_LEVEL = 3;
const marker = (name) => ({ outside: name });
export const isMarker = (x) => !!x && typeof x === "object" && typeof x.outside === "string";

let box = null;                    // the box that plays the bot at the table
let notice = null;                 // the notice shown last: {key, params} (again on relabel)
let table = null;                  // play.js's functions (given with the seating or the resume)


// --- the notice ----------------------------------------------------------------------------

const KINDS = ["exception", "load", "syntax", "no_choose", "not_dict", "illegal", "timeout", "refused", "gone", "missing"];

function say(key, params) {
  notice = { key, params };
  showNotice("labbot", t(key, params), [{ label: t("ui.close_panel"), testid: "labbot-close", onClick: () => { notice = null; hideNotice("labbot"); } }]);
}

/** The page's language changed: the notice again in the new one (the table redraws itself). */
export function relabel() {
  if (notice) say(notice.key, notice.params);
  if (!liveBot()) { delete document.body.dataset.labbot; delete document.body.dataset.labbotKind; }
}

/** The bot failed (kind, and what the lab worker tells: line, exception type): the table's
 *  worker plays its seats by the level-2 rules from now on. */
function fail(kind, info = {}) {
  const b = liveBot();
  if (!b || b.fallen) return;
  if (table) table.outsideFell();
  const k = KINDS.includes(kind) ? kind : "gone";
  if (k === "timeout" || k === "gone") request("outside_fail", { kind: k }).catch(() => {});
  const params = { name: b.name, line: info.line ?? "", exception: info.exception || "", limit: (b.limitMs / 1000).toString() };
  const withLine = info.line ? ".line" : "";
  say(`lab.table.failed.${k}${k === "exception" || k === "load" || k === "syntax" ? withLine : ""}`, params);
  document.body.dataset.labbot = "fallen";
  document.body.dataset.labbotKind = k;
}

// --- seating ---------------------------------------------------------------------------------

/** The bot's seats for a mode: {seat: name} with the person in seat 0. */
export function seatsFor(mode, players, name, against = "one") {
  if (mode === "watch") return { 0: name };
  if (mode === "partner") return { 2: name };
  if (against === "all") return Object.fromEntries(Array.from({ length: players - 1 }, (_, i) => [i + 1, name]));
  return { 1: name };
}

/** The new_game / load levels with the markers: one per other seat, or one per seat (the
 *  person's own marked) when the bot plays the person's seat. */
export function markedLevels(players, seat, plain, seats) {
  const others = [];
  for (let s = 0; s < players; s++) if (s !== seat) others.push(s);
  const lv = others.map((s, i) => (seats[s] ? marker(seats[s]) : plain[i] ?? OPPONENT_LEVEL));
  if (!seats[seat]) return lv;
  lv.splice(seat, 0, marker(seats[seat]));
  return lv;
}

/** The seat's levels as the page keeps them (S.levels): level 2 where the bot sits. */
function plainLevels(players, seat, plain, seats) {
  const out = [];
  let i = 0;
  for (let s = 0; s < players; s++) {
    if (s === seat) continue;
    out.push(seats[s] ? FALLBACK_LEVEL : plain[i] ?? OPPONENT_LEVEL);
    i++;
  }
  return out;
}

/** The bot loaded in a box of its own, and the table's port handed into it.  `wait`: resolve
 *  once the bot is loaded (its errors as an Error with botError); else in the background. */
async function connect({ name, source, limitMs }, wait) {
  if (box) box.close();
  // the port first: the table's worker may ask at once (a resumed game); the question waits in
  // the port until the box has started and takes it
  const port = await request("outside_port");
  const seated = (async () => {
    const b = await BotBox.open({ source, name });
    box = b;
    if (b.dead) throw new Error(b.startError || "the bot's box did not start");
    if (b.loadError) {
      b.close();
      const err = new Error(b.loadError.messages ? b.loadError.messages.en : "the bot did not load");
      err.botError = b.loadError;
      throw err;
    }
    b.seatTable(port, limitMs, {
      onNotice: (m) => fail(m.failed.kind, m.failed),
      onStopped: (why) => fail(why),
    });
  })();
  if (wait) { await seated; return; }
  seated.catch((err) => fail(err.botError ? err.botError.kind : "gone", err.botError || {}));
}

function adopt(gen, { name, mode, seats, limitMs, fallen = false }, levels) {
  table.seatOutside(gen, { name, mode, seats, limitMs, fallen }, levels);
  delete document.body.dataset.labbotKind;
  document.body.dataset.labbot = fallen ? "fallen" : mode;
}

/** Seat the bot at the table: {mode: "against" | "partner" | "watch", game, players, name,
 *  source, limitMs, delay, against: "one" | "all", seed}; `play`: play.js's functions.
 *  Resolves true when the game started; rejects with the bot's load error (err.botError). */
export async function seatAtTable({ mode, game, players, name, source, limitMs = 2000, delay = 700, against = "one", seed = randomSeed() }, play) {
  table = play;
  if (mode === "partner") players = 4;
  const seats = seatsFor(mode, players, name, against);
  notice = null;
  hideNotice("labbot");
  await connect({ game, name, source, limitMs }, true);
  const levels = markedLevels(players, 0, [], seats);
  await table.startGame({ game, players, seed, seat: 0, levels, delay, options: {}, teach: mode === "watch" });
  if (!S.view || S.game !== game || !S.levels.some(isMarker)) return false;      // refused (shown)
  const gen = S.gen;
  // the page's levels (and the link): level 2 where the bot sits
  adopt(gen, { name, mode, seats, limitMs }, plainLevels(players, 0, [], seats));
  if (mode === "watch") drive(gen);
  return true;
}

/** The bot watched in the person's seat: its moves (run() in play.js plays the others and
 *  stops at the person's turn); the person's controls stay disabled (S.busy). */
async function drive(gen) {
  while (gen === S.gen) {
    const v = S.view;
    if (!v || v.is_over || v.to_move === null || v.to_move === undefined) return;
    if (v.to_move !== S.seat) { await sleep(40); continue; }
    table.watchTurn();
    if (S.delay > 0) await sleep(S.delay);
    if (gen !== S.gen) return;
    if (!(await table.botStep(gen, { paced: false }))) return;
    await table.run(gen);
  }
}

// --- kept games ------------------------------------------------------------------------------

/** Before a kept game with a student's bot is resumed: the bot from the saved bots by name,
 *  connected; the levels to load with (markers).  A bot no longer saved: level 2, said so. */
export async function prepareResume(meta) {
  const seats = {};
  for (const [s, n] of Object.entries(meta.outside || {})) if (typeof n === "string") seats[Number(s)] = n;
  const name = Object.values(seats)[0];
  const bot = name ? saved.get(name) : null;
  const limitMs = Number.isFinite(meta.outside_limit) && meta.outside_limit > 0 ? meta.outside_limit : 2000;
  const mode = meta.outside_mode || (meta.watch ? "watch" : "against");
  const prep = { seats, name, limitMs, mode, fallen: !!meta.outside_fallen || !bot, missing: !bot };
  prep.levels = markedLevels(meta.players, meta.seat, meta.levels || [], seats);
  if (!prep.fallen) {
    try {
      await connect({ game: meta.game, name, source: bot.source, limitMs }, false);
    } catch (_) {
      prep.fallen = true;
    }
  }
  return prep;
}

/** After the resume's load: the bot's seats named, a bot that failed before (or is gone) left
 *  to level 2, the watched bot driven; `play`: play.js's functions. */
export async function afterResume(prep, gen, play) {
  table = play;
  if (gen !== S.gen) return;
  if (prep.fallen) await request("outside_fail", { kind: "gone" }).catch(() => {});
  adopt(gen, { name: prep.name, mode: prep.mode, seats: prep.seats, limitMs: prep.limitMs, fallen: prep.fallen });
  if (prep.missing) say("lab.table.missing", { name: prep.name, level: FALLBACK_LEVEL });
  if (prep.mode === "watch") drive(gen);
}

// for tests: the state of the bot at the table (no view, no card)
window.atutLabTable = {
  get bot() { const b = liveBot(); return b ? { name: b.name, mode: b.mode, seats: { ...b.seats }, fallen: !!b.fallen } : null; },
  get notice() { return notice ? notice.key : null; },
};
