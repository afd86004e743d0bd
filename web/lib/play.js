// Playing: a new game, the bot loop (bots move with the visible delay until it is the person's
// turn), the person's actions, and asking the engine why a tapped card cannot be played.  Every
// reply of the engine ({view, finished, result}, see bridge.py Table.reply) lands in `S` here.

import { S } from "./state.js";
import { sleep } from "./dom.js";
import { request } from "./worker-client.js";
import { showError } from "./notice.js";
import { t } from "./words.js";
import { writeHash } from "./hash.js";
import { openMenu, closeMenu } from "./menu.js";
import { render } from "./table/render.js";
import { renderStatus } from "./table/status.js";
import { keep, newRecord } from "./keep.js";
import { bindAidKeys, onUndoReply } from "./aids.js";
import { pregrade, dropPregrade } from "./review.js";
import { canonical } from "./canonical.js";
import { paceOn, onPaceChange } from "./settings.js";
import { playSound } from "./sound.js";

// --- pace (#17): what a step did (a card played, a trick taken, a deal ended), read from the
// engine's views only; the sounds of it; the finished trick kept on the table until a key or a
// click (option); the only legal card played by itself after a short pause (option) ---------

const trickKey = (lt) => (lt && Array.isArray(lt.cards) ? lt.cards.map((e) => `${e.seat}:${e.card}`).join(",") : "");
const hasSeat = (w, s) => w === s || (Array.isArray(w) && w.includes(s));

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
  S.hold = w.trick !== null && w.trick !== undefined && paceOn("keeptrick") && !r.view.is_over;
}

/** The person's only legal action when it is a card play (the view's data says so: one legal
 *  action, and it carries a card), else null.  Never a bid, a call or any other choice. */
export function onlyCard(v) {
  const la = (v && v.legal_actions) || [];
  return la.length === 1 && la[0] && typeof la[0].card === "string" ? la[0] : null;
}

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
    S.holdGo = () => { S.holdGo = null; S.hold = false; resolve(); };
    render();
  }).then(() => { if (gen === S.gen) render(); });
}

const NOT_KEYS = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "CapsLock", "Escape", "?"]);
document.addEventListener("keydown", (e) => {
  if (!S.holdGo || NOT_KEYS.has(e.key) || e.ctrlKey || e.metaKey || e.altKey || panelOpen()) return;
  if (e.target && e.target.closest && e.target.closest("input, select, textarea")) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  S.holdGo();
}, true);
document.addEventListener("click", (e) => {
  if (S.holdGo && e.target.closest && e.target.closest("#table")) S.holdGo();
}, true);

/** Take an engine reply: the new view, how the game ended, the finished deal's items. */
export function takeReply(r) {
  const wasOver = !!(S.view && S.view.is_over);
  S.view = r.view;
  S.result = r.result || null;
  S.refusal = null;
  S.canUndo = !!r.can_undo;
  S.open = r.open || null;              // teaching mode only: every hand, the bots' analyses
  S.teach = !!r.open;
  if (r.finished) S.lastDeal = { ...r.finished, dismissed: false };
  // a deal ended (the game's last one ends the game): the review's grades, in the background
  if (r.finished || (r.view && r.view.is_over && !wasOver)) pregrade();
}

/** One level per bot seat from a hash's or a file's list (one level: every bot). */
export function expandLevels(levels, players) {
  const n = players - 1;
  if (levels.length === 1) return Array(n).fill(levels[0]);
  return levels.slice(0, n);
}

/** Start a game from settings {game, players, seed, seat, levels, delay, options}. */
export async function startGame(cfg) {
  const gen = ++S.gen;
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
    openMenu();
    if (S.view) run(gen);                       // the old table goes on
    return;
  }
  if (gen !== S.gen) return;
  const view = r.view;
  Object.assign(S, {
    game: cfg.game, players: view.players, seat: cfg.seat, seed: cfg.seed,
    levels: expandLevels(cfg.levels, view.players), delay: cfg.delay, options: view.options || {},
    busy: false, trickSeen: 0, shownDeal: 0, lastDeal: null, hold: false, holdGo: null, auto: null,
  });
  dropPregrade();
  takeReply(r);
  newRecord();
  writeHash();
  closeMenu();
  run(gen);
}

/** The game loop: bots move (with the visible delay) until it is the person's turn. */
export async function run(gen) {
  while (gen === S.gen) {
    const v = S.view;
    const mine = !v.is_over && v.to_move === S.seat;
    const only = mine && paceOn("autoplay") ? onlyCard(v) : null;
    S.auto = only ? { view: v, action: canonical(only) } : null;
    if (mine) S.hold = false;                 // the trick stays in sight until the person plays
    render();
    if (v.is_over || v.to_move === null || v.to_move === undefined) return;
    if (mine) { if (only) autoPlay(gen, v, only); return; }   // else wait for a click
    if (S.hold) { await holdTrick(gen); if (gen !== S.gen) return; }
    if (S.delay > 0) await sleep(S.delay);
    if (gen !== S.gen) return;
    try {
      const before = S.view;
      const r = await request("bot_step");
      if (gen !== S.gen) return;
      takeReply(r);
      afterStep(before, r);
      keep();
    } catch (err) {
      if (gen !== S.gen) return;
      showError(t("ui.engine_error", { message: err.message }));
      render();
      return;
    }
  }
}

/** The person acts: validated by the engine; an illegal action shows an error and changes nothing. */
export async function act(action) {
  if (!S.view) { showError(t("ui.engine_error", { message: "no game" })); return false; }
  if (S.busy) return false;
  S.busy = true;
  for (const b of document.querySelectorAll("[data-action]")) b.disabled = true;
  const gen = S.gen;
  let ok = true;
  try {
    const before = S.view;
    const r = await request("act", { action });
    if (gen !== S.gen) return false;
    takeReply(r);
    afterStep(before, r);
    keep();
    showError("");
  } catch (err) {
    ok = false;
    showError(t("ui.error", { message: err.message }));
  } finally {
    S.busy = false;
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
  S.refusal = { card, rule: r.rule, reason: r.reason };
  renderStatus(v);
}

// an option changed during the game: a kept trick goes on, the only card plays itself
onPaceChange((name, on) => {
  if (name === "keeptrick" && !on && S.holdGo) S.holdGo();
  const v = S.view;
  if (name === "autoplay" && v && !v.is_over && v.to_move === S.seat && !S.busy) run(S.gen);
});

// the play aids (aids.js): keys H and U; an undo's reply lands here like any other
bindAidKeys();
onUndoReply((r, gen) => { takeReply(r); keep(); showError(""); run(gen); });
