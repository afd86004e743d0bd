// Autosave: every step of the game kept in the browser (saved-games.js), and the kept games
// listed (the state's `saved` part, which this module owns) and resumed.  After each step (the
// person's action or a bot's; play.js calls keep() through app.js) the worker's save file and
// the table's settings (seat, bot levels, delay; no language) go to the store.  The worker
// writes the save itself (its `keep` op; the page sends the settings record, `meta`, and never
// sees the save, which would tell it the other hands).  A reload with the same link, or
// "Continue" in the menu, resumes the game where it was.  Finished games stay for the history
// and the statistics (menu-history.js).  A record that cannot be read is set aside with a
// notice and can be downloaded; the page goes on.
// A student's bot at the table (docs/LAB.md, lib/lab/table.js) adds `outside` ({seat: bot
// name}), `watch`, `outside_mode`, `outside_fallen` and `outside_limit` to the record (its
// `levels` have level 2 there, as the link has); resuming takes the bot from the saved bots by
// name.
// One writer per game (lib/writer.js): an unfinished game is resumed only by the tab that holds
// it; another tab says so and offers to take it over.  Each step is kept by the worker itself as
// soon as it is applied (web/worker.js keepStep), before its reply comes: keep() here binds the
// table to its record and adds the page's own fields (aids used, the deal's panel closed, a lab
// bot).  After the first finished game the browser is asked to keep the storage (storage.js).

import { S, claim } from "./state.js";
import { request } from "./worker-client.js";
import { showNotice, hideNotice } from "./notice.js";
import { t } from "./words.js";
import { canonical } from "./canonical.js";
import * as play from "./play.js";
import * as store from "./saved-games.js";
import { liveBot } from "./table/outside.js";
import * as writer from "./writer.js";
import { askPersist } from "./storage.js";

const saved = claim("saved");
let chain = Promise.resolve();
let storeNotice = null;             // the notice last shown about storing: "off" | "full" | "error"

const finished = new Set();          // the ids of games kept with their result: never kept again

/** Open the store; say so when it refuses data; list the kept games; set aside bad ones. */
export async function initAutosave() {
  const r = await store.open();
  if (!r.ok) {
    saved.set({ saved: [] });
    noteStore("off");
    return;
  }
  await refreshSaved();
}

/** Re-read the kept games (S.saved) and show the notice of any record set aside. */
export async function refreshSaved() {
  if (store.state() !== "ok") { saved.set({ saved: [] }); return; }
  const { games } = await store.list();
  saved.set({ saved: games });
  await showBad();
}

async function showBad() {
  const bad = await store.badRecords();
  if (!bad.length) { hideNotice("bad"); return; }
  const parts = [];
  if (bad.some((b) => b.fault === "old")) parts.push(t("store.old"));
  if (bad.some((b) => b.fault !== "old")) parts.push(t("store.bad", { count: bad.filter((b) => b.fault !== "old").length }));
  showNotice("bad", parts.join(" "), [
    { label: t("store.download"), testid: "bad-download", onClick: () => downloadBad(bad) },
    { label: t("store.discard"), testid: "bad-discard", onClick: async () => { for (const b of bad) await store.dropBad(b.key); hideNotice("bad"); } },
  ]);
}

function downloadBad(bad) {
  const text = JSON.stringify(bad.map((b) => ({ id: b.id, fault: b.fault, when: b.when, content: b.content })), null, 1);
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = "atut-unreadable-games.json";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function noteStore(kind, message) {
  storeNotice = kind;
  const text = kind === "off" ? t("store.off") : kind === "full" ? t("store.full") : t("store.error", { message: message || "" });
  showNotice("store", text, kind === "off" ? [] : [{ label: t("ui.close_panel"), testid: "store-close", onClick: () => hideNotice("store") }]);
}

/** The page's language changed: the notices again in the new language. */
export function relabelAutosave() {
  if (storeNotice === "off") noteStore("off");
  else if (storeNotice) hideNotice("store");
  if (store.state() === "ok") showBad();
}

/** The kept record's fields of a student's bot at the table: {outside, watch, outside_mode,
 *  outside_fallen, outside_limit}, or none. */
function outsideFields() {
  const b = liveBot();
  if (!b) return {};
  return { outside: { ...b.seats }, watch: b.mode === "watch", outside_mode: b.mode, outside_fallen: !!b.fallen, outside_limit: b.limitMs };
}

function metaNow() {
  const rec = S.record;
  const meta = {
    format: store.FORMAT, id: rec.id, game: S.game, players: S.players, seed: S.seed, seat: S.seat,
    levels: [...S.levels], delay: S.delay, options: { ...S.options },
    started: rec.started, last_deal: S.lastDeal || null, aids: rec.aids || { hints: 0, undo: 0 },
    version: S.info ? S.info.version : null,
  };
  // a student's bot at the table: its seats by name (the hash has level 2 there)
  Object.assign(meta, outsideFields());
  // the progress and result, as the worker's keepStep makes them
  return store.stepMeta(meta, { view: S.view });
}

/** Keep the table as it is now: the save is asked for at once (so that it is this step's),
 *  the write waits for the writes before it. */
export function keep() {
  if (!S.record || !S.view || store.state() !== "ok") return;
  if (finished.has(S.record.id)) return;             // kept already, with its result
  if (!writer.mayKeep(S.record.id)) return;           // another tab plays it now
  const meta = metaNow();
  if (meta.finished) finished.add(meta.id);
  else writer.holdNew(meta.id);
  if (meta.finished) askPersist();
  const kept = request("keep", { meta });             // the worker takes this step's save now
  kept.catch(() => {});
  chain = chain.then(async () => {
    let r;
    try { r = await kept; } catch (_) { return; }
    if (!r.stored) {
      if (r.name === "HeldElsewhere") return;           // writer.js says so (the worker told it)
      if (r.name === "QuotaExceededError") noteStore("full");
      else noteStore("error", r.error);
      return;
    }
    if (storeNotice === "full" || storeNotice === "error") { storeNotice = null; hideNotice("store"); }
    saved.set({ saved: [meta, ...(S.saved || []).filter((g) => g.id !== meta.id)] });
    if (meta.finished) await store.prune(S.saved);
    if (meta.finished) await refreshSaved();
  });
}

/** Resolves when every write asked for so far is done. */
export const flush = () => chain.then(() => true);

const fullOptions = (game, options) => {
  const cls = S.info && S.info.classes[game];
  const out = {};
  for (const [k, vals] of Object.entries((cls && cls.options) || {})) out[k] = options && options[k] !== undefined ? options[k] : vals[0];
  return canonical(out);
};

/** The newest unfinished kept game with these settings (a reload's link), or null. */
export function findInProgress(cfg, levels) {
  const same = (S.saved || []).filter((m) => !m.finished && m.game === cfg.game && m.players === cfg.players &&
    m.seed === cfg.seed && m.seat === cfg.seat && canonical(m.levels) === canonical(levels) &&
    fullOptions(m.game, m.options) === fullOptions(cfg.game, cfg.options));
  return same[0] || null;
}

/** Resume a kept game; false (after a notice) when it cannot be read.  An unfinished game
 *  another tab holds is not resumed: the notice offers to take it over (true: nothing else is
 *  to start). */
export async function resume(meta, delay) {
  await flush();
  if (!meta.finished) {
    if (await writer.holdGame(meta.id) === "elsewhere") { writer.showElsewhere(meta.id); return true; }
    meta = (await store.getMeta(meta.id)) || meta;  // the newest step (another tab played on)
  } else writer.letGo();
  // a student's bot at the table: taken from the saved bots by name (lib/lab/table.js)
  let lab = null;
  let prep = null;
  let levels = meta.levels;
  if (meta.outside && typeof meta.outside === "object" && Object.keys(meta.outside).length && !meta.finished) {
    try {
      lab = await import("./lab/table.js");
      prep = await lab.prepareResume(meta);
      levels = prep.levels;
    } catch (err) {
      console.warn("lab bot:", err);
      lab = null;
    }
  }
  if (meta.finished) finished.add(meta.id);
  const r = await play.resumeGame(meta, { delay, levels });
  if (r.fault) {
    await refreshSaved();
    return false;
  }
  if (r.stale) return true;
  if (lab) await lab.afterResume(prep, r.gen, play);
  play.run(r.gen);
  return true;
}

/** A take-over (writer.js): the game `id` resumed at its newest kept step; true when it is on
 *  the table. */
export async function resumeKept(id) {
  await refreshSaved();
  const meta = keptGame(id);
  return meta ? resume(meta) : false;
}

/** A kept game by its id (finished: only a finished one), or null. */
export function keptGame(id, { finished: done = false } = {}) {
  return (S.saved || []).find((m) => m.id === id && (!done || m.finished)) || null;
}

/** "Remove" in the menu: an unfinished game forgotten. */
export async function forgetGame(id) {
  await store.remove(id);
  saved.set({ saved: (S.saved || []).filter((m) => m.id !== id) });
}
