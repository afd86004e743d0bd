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
    busy: false, trickSeen: 0, shownDeal: 0, lastDeal: null,
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
    render();
    if (v.is_over || v.to_move === null || v.to_move === undefined) return;
    if (v.to_move === S.seat) return;                       // wait for a click
    if (S.delay > 0) await sleep(S.delay);
    if (gen !== S.gen) return;
    try {
      const r = await request("bot_step");
      if (gen !== S.gen) return;
      takeReply(r);
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
    const r = await request("act", { action });
    if (gen !== S.gen) return false;
    takeReply(r);
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

// the play aids (aids.js): keys H and U; an undo's reply lands here like any other
bindAidKeys();
onUndoReply((r, gen) => { takeReply(r); keep(); showError(""); run(gen); });
