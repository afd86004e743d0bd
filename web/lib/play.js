// Playing: the one module that changes the table's part of the state (state.js).  A new game,
// a resumed or loaded one, the bot loop (bots move with the visible delay until it is the
// person's turn), the person's actions, undo, asking the engine why a tapped card cannot be
// played, the pace (a finished trick kept on show, the only card played by itself), and a
// student's bot seated at the table (lab/table.js asks).  Every reply of the engine
// ({view, finished, result}, see bridge.py Table.reply) lands in the state here; the table
// redraws itself when the state changes (table/render.js subscribes).
//
// What happens around a step is given by app.js (connectPlay): keeping the game in the
// browser (autosave.js), opening and closing the menu.  This module imports none of them.

import { S, claim } from "./state.js";
import { sleep } from "./dom.js";
import { request } from "./worker-client.js";
import { showError } from "./notice.js";
import { t } from "./words.js";
import { writeHash } from "./hash.js";
import { pregrade, dropPregrade } from "./review.js";
import { canonical } from "./canonical.js";
import { paceOn } from "./settings.js";
import { playSound } from "./sound.js";

const table = claim("table");

// what app.js wires in: after each step (keep it), a table shown (close the menu), a start that
// failed (open the menu)
let hooks = { stepped: () => {}, shown: () => {}, failed: () => {} };

/** Set what happens after each step of the game ({stepped, shown, failed}: functions). */
export function connectPlay(given) { hooks = { ...hooks, ...given }; }

// --- pace (docs/ENGINE.md "The view"): what a step did (a card played, a trick taken, a deal
// ended), read from the engine's views only; the sounds of it; the finished trick kept on the
// table until a key or a click (option); the only legal card played by itself after a short
// pause (option) ---------------------------------------------------------------------------

const trickKey = (lt) => (lt && Array.isArray(lt.cards) ? lt.cards.map((e) => `${e.seat}:${e.card}`).join(",") : "");
const hasSeat = (w, s) => w === s || (Array.isArray(w) && w.includes(s));

let hold = false;              // the step just made finished a trick that waits for the person
let holdGo = null;             // ends the wait (a key, a click, the option turned off)

/** What the step from view `before` to reply `r` showed: {card: seat or null, trick: the
 *  taker's seat or null, deal: a deal ended, won: the person won it (the engine's event or
 *  the game's winner says so)}. */
export function whatHappened(before, r) {
  const v = r && r.view;
  const out = { card: null, trick: null, deal: false, won: false };
  if (!before || !v) return out;
  const bt = Array.isArray(before.trick) ? before.trick : [];
  const nt = Array.isArray(v.trick) ? v.trick : [];
  const sameDeal = before.deal_no === v.deal_no;
  if (sameDeal && nt.length === bt.length + 1) out.card = nt[nt.length - 1].seat;
  const lk = trickKey(v.last_trick);
  if (sameDeal && lk && !nt.length && lk !== trickKey(before.last_trick)) {
    out.trick = v.last_trick.winner;
    out.card = v.last_trick.cards[v.last_trick.cards.length - 1].seat;
  }
  const c = r.finished && r.finished.center;
  if (c && Array.isArray(c.cards) && c.cards.length) { out.trick = c.winner; out.card = c.cards[c.cards.length - 1].seat; }
  if (r.finished || (v.is_over && !before.is_over)) {
    out.deal = true;
    const ends = r.finished ? [r.finished.trick, ...(r.finished.results || [])] : [];
    out.won = v.is_over ? hasSeat(v.winner, S.seat)
      : ends.some((e) => e && e.type === "deal_over" && hasSeat(e.winner, S.seat));
  }
  return out;
}

function afterStep(before, r) {
  const w = whatHappened(before, r);
  if (w.card !== null) playSound("card");
  if (typeof w.trick === "number") playSound(w.trick === S.seat ? "trick_you" : "trick");
  if (w.deal) playSound(w.won ? "deal_you" : "deal");
  // a finished trick (a deal's last one too) waits on the table for a key or a click
  hold = w.trick !== null && w.trick !== undefined && paceOn("keeptrick") && !r.view.is_over;
}

/** The person's only legal action when it is a card play (the view's data says so: one legal
 *  action, and it carries a card), else null.  Never a bid, a call or any other choice. */
export function onlyCard(v) {
  const la = (v && v.legal_actions) || [];
  return la.length === 1 && la[0] && typeof la[0].card === "string" ? la[0] : null;
}

// a lesson's bots wait this long between moves (the guide says what each did)
export const LESSON_DELAY = 1500;

const autoPause = () => Math.max(450, Math.min(900, S.delay || 0));

async function autoPlay(gen, v, a) {
  await sleep(autoPause());
  if (gen !== S.gen || S.view !== v || S.busy || !paceOn("autoplay")) return;
  document.body.dataset.autoPlayed = String((parseInt(document.body.dataset.autoPlayed, 10) || 0) + 1);
  act(a);
}

function panelOpen() {
  return !!document.querySelector("[data-testid=rules], [data-testid=settings]") || (S.view && document.body.classList.contains("menu-open"));
}

/** Wait, the finished trick on show, until a key or a click on the table. */
function holdTrick(gen) {
  return new Promise((resolve) => {
    holdGo = () => { holdGo = null; hold = false; resolve(); };
    table.set({ held: true });
  }).then(() => { if (gen === S.gen) table.set({ held: false }); });
}

const NOT_KEYS = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "CapsLock", "Escape", "?"]);
document.addEventListener("keydown", (e) => {
  if (!holdGo || NOT_KEYS.has(e.key) || e.ctrlKey || e.metaKey || e.altKey || panelOpen()) return;
  if (e.target && e.target.closest && e.target.closest("input, select, textarea")) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  holdGo();
}, true);
document.addEventListener("click", (e) => {
  if (holdGo && e.target.closest && e.target.closest("#table")) holdGo();
}, true);

/** An option of the pace changed during the game: a kept trick goes on, the only card plays. */
export function paceChanged(name, on) {
  if (name === "keeptrick" && !on && holdGo) holdGo();
  const v = S.view;
  if (name === "autoplay" && v && !v.is_over && v.to_move === S.seat && !S.busy) run(S.gen);
}

// --- the engine's replies ---------------------------------------------------------------------

/** The state's fields of an engine reply: the new view, how the game ended, the finished
 *  deal's items. */
function fromReply(r) {
  const patch = {
    view: r.view, result: r.result || null, refusal: null, canUndo: !!r.can_undo,
    open: r.open || null, teach: !!r.open,
  };
  if (r.finished) patch.lastDeal = { ...r.finished, dismissed: false };
  return patch;
}

/** Set the table's part with a reply in it; a deal that ended with it (the game's last one
 *  too) starts the review's grading in the background. */
function commit(patch, r) {
  const wasOver = !!(S.view && S.view.is_over);
  table.set(patch);
  if (r.finished || (r.view && r.view.is_over && !wasOver)) pregrade();
}

/** Take an engine reply (a bot's step, the person's action) and go on. */
function takeStep(before, r) {
  commit(fromReply(r), r);
  afterStep(before, r);
  hooks.stepped();
}

/** One level per bot seat from a hash's or a file's list (one level: every bot). */
export function expandLevels(levels, players) {
  const n = players - 1;
  if (levels.length === 1) return Array(n).fill(levels[0]);
  return levels.slice(0, n);
}

const newId = () => Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);

/** A new table: its settings, the first reply, a new gen (stale loops stop). */
function setTable(settings, r, { seen = 0, record, lastDeal, lesson = null } = {}) {
  hold = false;
  holdGo = null;
  const patch = {
    ...settings, ...fromReply(r), busy: false, held: false, auto: null, lesson,
    reset: { n: S.reset.n + 1, seen },
    record: record || { id: newId(), started: Date.now(), aids: { hints: 0, undo: 0 } },
  };
  patch.lastDeal = lastDeal || (r.finished ? patch.lastDeal : null);
  commit(patch, r);
}

const bumpGen = () => { const gen = S.gen + 1; table.set({ gen }); return gen; };

/** Start a game from settings {game, players, seed, seat, levels, delay, options, teach}. */
export async function startGame(cfg) {
  const gen = bumpGen();
  showError("");
  let r;
  try {
    r = await request("new_game", {
      game: cfg.game, players: cfg.players, seed: cfg.seed, seat: cfg.seat,
      levels: cfg.levels, options: cfg.options, teach: !!cfg.teach,
    });
  } catch (err) {
    if (gen !== S.gen) return;
    showError(t("ui.bad_link", { message: err.message }));
    hooks.failed();
    if (S.view) run(gen);                       // the old table goes on
    return;
  }
  if (gen !== S.gen) return;
  dropPregrade();
  setTable({
    game: cfg.game, players: r.view.players, seat: cfg.seat, seed: cfg.seed,
    levels: expandLevels(cfg.levels, r.view.players), delay: cfg.delay, options: r.view.options || {},
  }, r);
  writeHash();
  hooks.shown();
  run(gen);
}

/** Start lesson `number` of `game` (learn to play, web/lib/table/learn.js): the engine's op
 *  learn_start seats the person at seat 0 and level-2 bots; the bots wait `delay` ms between
 *  moves; the lesson's deal is played to its end and the table stops there (run). */
export async function startLesson(game, number = 0, delay = LESSON_DELAY) {
  const gen = bumpGen();
  showError("");
  let r;
  try {
    r = await request("learn_start", { game, lesson: number });
  } catch (err) {
    if (gen !== S.gen) return;
    showError(t("ui.bad_link", { message: err.message }));
    hooks.failed();
    return;
  }
  if (gen !== S.gen) return;
  dropPregrade();
  const seat = r.view.seat;
  setTable({
    game, players: r.view.players, seat, seed: 0, levels: [2], delay, options: r.view.options || {},
  }, r, { lesson: { game, number, deal_no: r.view.deal_no, guide: r.learn } });
  writeHash();
  hooks.shown();
  run(gen);
}

/** The lesson's deal is over: its table takes no more steps. */
export const lessonOver = (v = S.view) => !!(S.lesson && v && (v.is_over || v.deal_no !== S.lesson.deal_no));

/** The guide's words of the current step (learn.js asks the engine after each step). */
export function setLessonGuide(guide) {
  if (S.lesson) table.set({ lesson: { ...S.lesson, guide } });
}

/** Resume a kept game (its meta record, autosave.js): the worker loads its save.  `levels`:
 *  the bots to load with (a student's bot's markers, lab/table.js); `delay`: the link's, else
 *  the record's.  Resolves {gen} once the table is set, {fault} when the save cannot be read,
 *  {stale: true} when another table was asked for meanwhile. */
export async function resumeGame(meta, { delay, levels = meta.levels } = {}) {
  const gen = bumpGen();
  let r;
  try {
    // the worker reads the save and loads it; one it cannot read it sets aside
    r = await request("resume", { meta, seat: meta.seat, levels });
  } catch (_) {
    r = { fault: "bad" };
  }
  if (r.fault) return { fault: r.fault };
  if (gen !== S.gen) return { stale: true };
  const trick = r.view.trick;
  setTable({
    game: r.game, players: r.players, seed: r.seed, seat: r.view.seat,
    levels: expandLevels(meta.levels, r.players), delay: delay === undefined ? meta.delay : delay,
    options: r.options || {},
  }, r, {
    seen: Array.isArray(trick) ? trick.length : 0,
    lastDeal: meta.last_deal || null,
    record: { id: meta.id, started: meta.started, aids: meta.aids || { hints: 0, undo: 0 } },
  });
  writeHash();
  hooks.shown();
  showError("");
  return { gen };
}

/** Load a save file's text (game-file.js read it) with the person's seat and the bots' levels. */
export async function loadGame({ text, seat, levels }) {
  const gen = bumpGen();
  try {
    const r = await request("load", { text, seat, levels });
    if (gen !== S.gen) return;
    setTable({
      game: r.game, players: r.players, seed: r.seed, options: r.options || {},
      seat: r.view.seat, levels: expandLevels(levels, r.players),
    }, r);
    hooks.stepped();
    writeHash();
    hooks.shown();
    showError("");
    run(gen);
  } catch (err) {
    if (gen !== S.gen) return;
    showError(t("ui.engine_error", { message: err.message }));
    if (S.view) run(gen);                       // the old table goes on
  }
}

/** A bot's step: the engine's reply taken (false when the table changed or the engine failed).
 *  `paced`: its sound and a finished trick kept on show (not for a watched lab bot's step). */
export async function botStep(gen, { paced = true } = {}) {
  try {
    const before = S.view;
    const r = await request("bot_step");
    if (gen !== S.gen) return false;
    if (paced) takeStep(before, r);
    else { commit(fromReply(r), r); hooks.stepped(); }
    return true;
  } catch (err) {
    if (gen !== S.gen) return false;
    showError(t("ui.engine_error", { message: err.message }));
    return false;
  }
}

/** The game loop: bots move (with the visible delay) until it is the person's turn. */
export async function run(gen) {
  while (gen === S.gen) {
    const v = S.view;
    const mine = !v.is_over && v.to_move === S.seat;
    // (a lesson plays nothing by itself: the guide explains even the only card)
    const only = mine && paceOn("autoplay") && !S.lesson ? onlyCard(v) : null;
    const auto = only ? { view: v, action: canonical(only) } : null;
    if (mine) hold = false;                   // the trick stays in sight until the person plays
    table.set({ auto });
    if (v.is_over || v.to_move === null || v.to_move === undefined || lessonOver(v)) return;
    if (mine) { if (only) autoPlay(gen, v, only); return; }   // else wait for a click
    if (hold) { await holdTrick(gen); if (gen !== S.gen) return; }
    if (S.delay > 0) await sleep(S.delay);
    if (gen !== S.gen) return;
    if (!(await botStep(gen))) return;
  }
}

/** The person acts: validated by the engine; an illegal action shows an error and changes nothing. */
export async function act(action) {
  if (!S.view) { showError(t("ui.engine_error", { message: "no game" })); return false; }
  if (S.busy || lessonOver()) return false;
  table.set({ busy: true });
  const gen = S.gen;
  let ok = true;
  try {
    const before = S.view;
    const r = await request("act", { action });
    if (gen !== S.gen) return false;
    takeStep(before, r);
    showError("");
  } catch (err) {
    ok = false;
    if (gen === S.gen) showError(t("ui.error", { message: err.message }));   // else the table is gone
  } finally {
    if (gen === S.gen) table.set({ busy: false });
  }
  if (gen === S.gen) run(gen);
  return ok;
}

/** The person tapped a card of the hand that is no legal action: say why, in the status line.
 *  Nothing of the game changes. */
export async function explainCard(card) {
  const v = S.view;
  if (!v || v.is_over || v.to_move !== S.seat || S.busy) return;
  const gen = S.gen;
  let r;
  try {
    r = await request("explain", { action: { type: "play", card } });
  } catch (err) {
    if (gen === S.gen) showError(t("ui.engine_error", { message: err.message }));
    return;
  }
  if (gen !== S.gen || S.view !== v || r.legal) return;
  table.set({ refusal: { card, rule: r.rule, reason: r.reason } });
}

/** Take back the person's last decision of the deal (aids.js: Undo, key U).  False when the
 *  engine refused (shown) or the table changed. */
export async function undo() {
  if (S.busy || !S.canUndo) return false;
  table.set({ busy: true });
  const gen = S.gen;
  let r;
  try {
    r = await request("undo");
  } catch (err) {
    if (gen === S.gen) { table.set({ busy: false }); showError(t("ui.error", { message: err.message })); }
    return false;
  }
  if (gen !== S.gen) return false;
  const record = S.record ? { ...S.record, aids: { ...S.record.aids, undo: S.record.aids.undo + 1 } } : null;
  const seen = Array.isArray(r.view.trick) ? r.view.trick.length : 0;
  commit({ ...fromReply(r), busy: false, record, reset: { n: S.reset.n + 1, seen } }, r);
  hooks.stepped();
  showError("");
  run(gen);
  return true;
}

/** The game went to another tab (lib/writer.js): the bots stop and the person's controls are
 *  off; the table stays in sight until a resume or a new game sets another. */
export function stopTable() {
  bumpGen();
  hold = false;
  if (holdGo) holdGo();
  table.set({ busy: true, auto: null, held: false });
}

/** A hint was shown (aids.js): counted in the kept record. */
export function countHint() {
  if (S.record) table.set({ record: { ...S.record, aids: { ...S.record.aids, hints: S.record.aids.hints + 1 } } });
}

/** The finished deal's panel closed (its × or the key N). */
export function dismissLastDeal() {
  if (S.lastDeal) table.set({ lastDeal: { ...S.lastDeal, dismissed: true } });
}

/** The bots' speed changed (settings): the next move waits `delay` ms; the link says so. */
export function setDelay(delay) {
  if (!S.view) return;
  table.set({ delay });
  writeHash();
}

// --- a student's bot at the table (lab/table.js) -------------------------------------------

/** Seat a student's bot at the table of `gen`: {name, mode, seats, limitMs, fallen}; `levels`
 *  the page's levels (level 2 where the bot sits).  Watching: the person's controls stay off. */
export function seatOutside(gen, bot, levels) {
  if (gen !== S.gen) return;
  const patch = { outside: { gen, ...bot, seats: { ...bot.seats }, fallen: !!bot.fallen } };
  if (levels) patch.levels = [...levels];
  if (bot.mode === "watch") patch.busy = true;            // the person only watches
  table.set(patch);
  if (levels) writeHash();                                 // the link: level 2 where the bot sits
}

/** The seated bot failed: its seats are played by level 2 from now on. */
export function outsideFell() {
  if (S.outside && !S.outside.fallen) table.set({ outside: { ...S.outside, fallen: true } });
}

/** The watched bot plays the person's seat: the person's controls stay off. */
export function watchTurn() {
  if (!S.busy) table.set({ busy: true });
}
