// Every move kept: after each step of the game (the person's action or a bot's) the worker's
// save file and the table's settings (seat, bot levels, delay; no language) go to the store
// (store.js).  The worker writes the save itself (its `keep` op; the page sends the settings
// record, `meta`, and never sees the save, which would tell it the other hands).  A reload with the same link, or "Continue" in the menu, resumes the game where
// it was.  Finished games stay for the history and the statistics (history.js).  A record that
// cannot be read is set aside with a notice and can be downloaded; the page goes on.
// A student's bot at the table (#15, lib/lab/table.js) adds `outside` ({seat: bot name}),
// `watch`, `outside_mode`, `outside_fallen` and `outside_limit` to the record (its `levels`
// have level 2 there, as the link has); resuming takes the bot from the saved bots by name.

import { S } from "./state.js";
import { request } from "./worker-client.js";
import { showError, showNotice, hideNotice } from "./notice.js";
import { t } from "./words.js";
import { writeHash } from "./hash.js";
import { closeMenu, openMenu, renderMenu } from "./menu.js";
import { canonical } from "./canonical.js";
import { el } from "./dom.js";
import { run, takeReply, expandLevels } from "./play.js";
import * as store from "./store.js";
import { openReview } from "./review.js";

let chain = Promise.resolve();
let storeNotice = null;             // the notice last shown about storing: "off" | "full" | "error"

const newId = () => Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);

/** Open the store; say so when it refuses data; list the kept games; set aside bad ones. */
export async function initKeep() {
  const r = await store.open();
  if (!r.ok) {
    S.saved = [];
    noteStore("off");
    return;
  }
  await refreshSaved();
}

/** Re-read the kept games (S.saved) and show the notice of any record set aside. */
export async function refreshSaved() {
  if (store.state() !== "ok") { S.saved = []; return; }
  const { games } = await store.list();
  S.saved = games;
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
export function relabelKeep() {
  if (storeNotice === "off") noteStore("off");
  else if (storeNotice) hideNotice("store");
  if (store.state() === "ok") showBad();
  if (S.labBot && S.labBot.relabel) S.labBot.relabel();     // the bot at the table's notice (#15)
}

/** A new record for the game now on the table (written at its first step). */
export function newRecord() {
  S.record = { id: newId(), started: Date.now(), aids: { hints: 0, undo: 0 }, finished: false };
}

function metaNow() {
  const v = S.view;
  const rec = S.record;
  const meta = {
    format: store.FORMAT, id: rec.id, game: S.game, players: S.players, seed: S.seed, seat: S.seat,
    levels: [...S.levels], delay: S.delay, options: { ...S.options },
    started: rec.started, updated: Date.now(), finished: !!v.is_over,
    deal_no: v.deal_no || 0, scores: Array.isArray(v.scores) ? [...v.scores] : [],
    last_deal: S.lastDeal || null, aids: rec.aids || { hints: 0, undo: 0 },
    version: S.info ? S.info.version : null, result: null,
  };
  // a student's bot at the table (#15): its seats by name (the hash has level 2 there)
  if (S.labBot && S.labBot.gen === S.gen && S.labBot.record) Object.assign(meta, S.labBot.record());
  if (v.is_over) {
    const w = v.winner;
    const won = w === S.seat || (Array.isArray(w) && w.includes(S.seat));
    meta.result = { winner: w === undefined ? null : w, won, score: Array.isArray(v.scores) ? v.scores[S.seat] : null };
  }
  return meta;
}

/** Keep the table as it is now: the save is asked for at once (so that it is this step's),
 *  the write waits for the writes before it. */
export function keep() {
  if (!S.record || !S.view || store.state() !== "ok") return;
  if (S.record.finished) return;                     // kept already, with its result
  const meta = metaNow();
  if (meta.finished) S.record.finished = true;
  const kept = request("keep", { meta });             // the worker takes this step's save now
  kept.catch(() => {});
  chain = chain.then(async () => {
    let r;
    try { r = await kept; } catch (_) { return; }
    if (!r.stored) {
      if (r.name === "QuotaExceededError") noteStore("full");
      else noteStore("error", r.error);
      return;
    }
    if (storeNotice === "full" || storeNotice === "error") { storeNotice = null; hideNotice("store"); }
    S.saved = [meta, ...(S.saved || []).filter((g) => g.id !== meta.id)];
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

/** Resume a kept game; false (after a notice) when it cannot be read. */
export async function resume(meta, delay) {
  await flush();
  // a student's bot at the table (#15): taken from the saved bots by name (lib/lab/table.js)
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
  const gen = ++S.gen;
  let r;
  try {
    // the worker reads the save and loads it; one it cannot read it sets aside
    r = await request("resume", { meta, seat: meta.seat, levels });
  } catch (_) {
    r = { fault: "bad" };
  }
  if (r.fault) {
    await refreshSaved();
    return false;
  }
  if (gen !== S.gen) return true;
  const trick = r.view.trick;
  Object.assign(S, {
    game: r.game, players: r.players, seed: r.seed, seat: r.view.seat,
    levels: expandLevels(meta.levels, r.players), delay: delay === undefined ? meta.delay : delay,
    options: r.options || {}, busy: false, trickSeen: Array.isArray(trick) ? trick.length : 0,
    shownDeal: r.view.deal_no || 0, lastDeal: meta.last_deal || null,
  });
  takeReply(r);
  if (meta.last_deal) S.lastDeal = meta.last_deal;
  S.record = { id: meta.id, started: meta.started, aids: meta.aids || { hints: 0, undo: 0 }, finished: !!meta.finished };
  writeHash();
  closeMenu();
  showError("");
  if (lab) await lab.afterResume(prep, gen);
  run(gen);
  return true;
}

/** "Continue" in the menu. */
export async function continueGame(id) {
  const meta = (S.saved || []).find((m) => m.id === id);
  if (!meta) return;
  if (!(await resume(meta))) { openMenu(); }
}

/** "Review" of a finished game in the history: its save loaded (as "Continue" does) and the
 *  review of its last deal opened. */
export async function reviewGame(id) {
  const meta = (S.saved || []).find((m) => m.id === id && m.finished);
  if (!meta) return;
  if (!(await resume(meta))) { openMenu(); return; }
  await openReview();
}

/** "Remove" in the menu: an unfinished game forgotten. */
export async function forgetGame(id) {
  await store.remove(id);
  S.saved = (S.saved || []).filter((m) => m.id !== id);
  if (!el.menu.hidden) renderMenu();
}
