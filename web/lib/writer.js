// One writer per game (docs/PAGE.md "One writer, crashes and persistent storage").  The tab
// that plays an unfinished kept game holds it: a Web Lock named `atut-game:<id>` for as long as
// the game is on its table.  Another tab (or window, or the installed app) that opens the same
// game finds the lock taken: it says so in the page's language and offers to take the game
// over.  Taking over asks the holder on a BroadcastChannel ("atut-games", {type: "take", id}):
// the holder stops its table, lets its worker finish the writes asked for so far (the worker's
// `release` op: nothing more of that game is written there), shows that the game went to another
// tab with a button to take it back, and lets the lock go; the taking tab gets the lock and
// resumes the game from the newest kept step.  A holder that does not answer in TAKE_WAIT_MS
// has its lock stolen; its worker's later writes are refused by the store all the same (the
// writer check of saved-games.js put), and the worker tells the page (writerLost).
// The table is stopped and the game resumed through app.js (initWriter): this module imports no
// module that plays.

import { request } from "./worker-client.js";
import { showNotice, hideNotice } from "./notice.js";
import { t } from "./words.js";

const LOCKS = typeof navigator !== "undefined" && navigator.locks && typeof navigator.locks.request === "function"
  ? navigator.locks : null;
const TAKE_WAIT_MS = 3000;
const lockName = (id) => "atut-game:" + id;
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("atut-games") : null;

let held = null;                   // {id, release()}: the game this tab holds
let shown = null;                  // the notice on show: {kind: "elsewhere" | "lost" | "taking" | "failed", id}
const lostIds = new Set();         // games this tab handed over: nothing of them is kept here
let taking = null;                 // the id a take-over is under way for
let on = { stop: () => {}, resumeId: async () => false, elsewhere: () => {} };

/** What app.js gives: stop() the table (play.js stopTable), resumeId(id) the kept game resumed
 *  from the store (autosave.js; true when it is on the table), elsewhere() after the notice
 *  that another tab holds the game (the menu opens: another game can be played here). */
export function initWriter(given) {
  on = { ...on, ...given };
  if (channel) channel.onmessage = (e) => heard(e.data);
}

const mark = (state) => { document.body.dataset.writer = state; };

/** True while this tab may keep game `id` (it holds it, or the browser has no locks). */
export const mayKeep = (id) => !lostIds.has(id);

/** Take a lock: true once held, false when it is taken (ifAvailable) or the wait ended. */
function acquire(id, options) {
  if (!LOCKS) return Promise.resolve(true);
  return new Promise((resolve) => {
    const entry = { id, release: () => {} };
    let got = false;
    LOCKS.request(lockName(id), options, (lock) => {
      if (!lock) { resolve(false); return undefined; }
      got = true;
      if (held && held !== entry) held.release();
      held = entry;
      resolve(true);
      return new Promise((r) => { entry.release = () => { if (held === entry) held = null; r(); }; });
    }).catch(() => {
      if (!got) { resolve(false); return; }
      // the lock was stolen by a tab that took the game over (it did not hear us answer)
      if (held === entry) { held = null; lose(id, { told: false }); }
    });
  });
}

/** Hold game `id` before it is played here: "held", or "elsewhere" when another tab has it. */
export async function holdGame(id) {
  if (held && held.id === id) return "held";
  // the game held now is let go only once this one is held (acquire), not when it is elsewhere
  const ok = await acquire(id, { ifAvailable: true });
  if (!ok) return "elsewhere";
  lostIds.delete(id);
  mark("held");
  if (shown && shown.kind !== "taking") { shown = null; hideNotice("writer"); }
  return "held";
}

/** Another table that needs no writer (a finished game's review): the game held is let go. */
export function letGo() {
  if (held) held.release();
}

/** A new game on the table (its id new): held here, any other let go. */
export function holdNew(id) {
  if (held && held.id === id) return;
  holdGame(id);
}

/** Another tab holds `id`: say so, and offer to take it over (`open`: the menu opens). */
export function showElsewhere(id, { open = true } = {}) {
  shown = { kind: "elsewhere", id };
  mark("elsewhere");
  showNotice("writer", t("writer.elsewhere"), [
    { label: t("writer.take"), testid: "writer-take", onClick: () => takeOver(id) },
  ]);
  if (open) on.elsewhere();
}

function showLost(id) {
  shown = { kind: "lost", id };
  mark("lost");
  showNotice("writer", t("writer.lost"), [
    { label: t("writer.take_back"), testid: "writer-take-back", onClick: () => takeOver(id) },
  ]);
}

/** The language changed: the notice again in the new language. */
export function relabelWriter() {
  if (!shown) return;
  if (shown.kind === "elsewhere") showElsewhere(shown.id, { open: false });
  else if (shown.kind === "lost") showLost(shown.id);
  else if (shown.kind === "taking") showNotice("writer", t("writer.taking"));
  else showFailed(shown.id);
}

function showFailed(id) {
  shown = { kind: "failed", id };
  mark("failed");
  showNotice("writer", t("writer.failed"), [
    { label: t("writer.take"), testid: "writer-take", onClick: () => takeOver(id) },
  ]);
}

/** This tab lost game `id` (handed over, its lock stolen, or a write refused): the table
 *  stops and the worker keeps nothing more of it; `told`: the worker knows already. */
async function lose(id, { told }) {
  lostIds.add(id);
  on.stop();
  if (!told) await request("release", { id }).catch(() => {});
  if (held && held.id === id) held.release();
  showLost(id);
}

/** The worker's write was refused: another tab is the game's writer now. */
export function writerLost(id) {
  if (id && !lostIds.has(id)) lose(id, { told: true });
}

/** Another tab's message: a take-over of the game held here is answered by handing it over. */
async function heard(m) {
  if (!m || typeof m !== "object" || m.type !== "take" || typeof m.id !== "string") return;
  if (!held || held.id !== m.id || taking === m.id) return;
  lostIds.add(m.id);
  on.stop();                                        // no new step is asked for
  await request("release", { id: m.id }).catch(() => {});   // the steps asked for are kept
  if (held && held.id === m.id) held.release();     // now the other tab gets the lock
  showLost(m.id);
}

/** Take game `id` over from the tab that holds it (or take it back): the holder is asked to
 *  let go; one that does not answer in time loses the lock; then the newest kept step is
 *  resumed here. */
export async function takeOver(id) {
  if (taking) return false;
  taking = id;
  shown = { kind: "taking", id };
  mark("taking");
  showNotice("writer", t("writer.taking"));
  try {
    if (channel) channel.postMessage({ type: "take", id });
    let ok = LOCKS ? await acquire(id, { signal: AbortSignal.timeout(TAKE_WAIT_MS) }) : true;
    if (!ok) ok = await acquire(id, { steal: true });
    if (!ok) throw new Error("no lock");
    lostIds.delete(id);
    if (!(await on.resumeId(id))) throw new Error("not resumed");
    if (shown && shown.id === id) { shown = null; hideNotice("writer"); }
    mark("held");
    return true;
  } catch (_) {
    showFailed(id);
    return false;
  } finally {
    taking = null;
  }
}
