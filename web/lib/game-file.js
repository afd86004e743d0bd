// The game file: the engine's save file (plus the person's seat and the bots' levels, which
// load_game ignores) downloaded as JSON (made by the worker), and a chosen file read for
// play.js's loadGame (app.js hands it on) to resume at the same table.

import { S, DEFAULT_LEVEL, levelNumbers } from "./state.js";
import { h } from "./dom.js";
import { request } from "./worker-client.js";
import { showError } from "./notice.js";
import { t } from "./words.js";

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

/** A chosen file's text, and the seat and bot levels it names (else seat 0 and the default
 *  level): {text, seat, levels}.  What is wrong with the file the engine says when it loads. */
export async function readGameFile(file) {
  const text = await file.text();
  let seat = 0;
  let levels = [DEFAULT_LEVEL];
  try {
    const d = JSON.parse(text);
    if (Number.isInteger(d.seat)) seat = d.seat;
    if (Array.isArray(d.bots) && d.bots.length && d.bots.every((x) => levelNumbers().includes(x))) levels = d.bots;
  } catch (_) { /* the engine says what is wrong with the file */ }
  return { text, seat, levels };
}
