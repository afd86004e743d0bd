// Save and load: the engine's save file (plus the person's seat and the bots' levels, which
// load_game ignores) downloaded as JSON (made by the worker), and a chosen file resumed at the
// same table.

import { S, DEFAULT_LEVEL, levelNumbers } from "./state.js";
import { h } from "./dom.js";
import { request } from "./worker-client.js";
import { showError } from "./notice.js";
import { t } from "./words.js";
import { writeHash } from "./hash.js";
import { closeMenu } from "./menu.js";
import { expandLevels, run, takeReply } from "./play.js";
import { keep, newRecord } from "./keep.js";

export async function saveGame() {
  if (!S.view) return;
  try {
    // the file is made in the worker: the page passes on its blob URL, never the save's text
    // (which would tell it the other hands)
    const { url } = await request("save_file", { seat: S.seat, bots: S.levels });
    const a = h("a", { href: url, download: `atut-${S.game}-${S.seed}.json` });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => request("forget_url", { url }).catch(() => {}), 60000);
  } catch (err) {
    showError(t("ui.engine_error", { message: err.message }));   // the table goes on
  }
}

export async function loadGame(file) {
  const text = await file.text();
  let seat = 0;
  let levels = [DEFAULT_LEVEL];
  try {
    const d = JSON.parse(text);
    if (Number.isInteger(d.seat)) seat = d.seat;
    if (Array.isArray(d.bots) && d.bots.length && d.bots.every((x) => levelNumbers().includes(x))) levels = d.bots;
  } catch (_) { /* the engine says what is wrong with the file */ }
  const gen = ++S.gen;
  try {
    const r = await request("load", { text, seat, levels });
    if (gen !== S.gen) return;
    Object.assign(S, { game: r.game, players: r.players, seed: r.seed, options: r.options || {}, busy: false, trickSeen: 0, shownDeal: 0, lastDeal: null });
    takeReply(r);
    S.seat = r.view.seat;
    S.levels = expandLevels(levels, r.players);
    newRecord();
    keep();
    writeHash();
    closeMenu();
    showError("");
    run(gen);
  } catch (err) {
    if (gen !== S.gen) return;
    showError(t("ui.engine_error", { message: err.message }));
    if (S.view) run(gen);                       // the old table goes on
  }
}
