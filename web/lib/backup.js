// Backup and move (docs/PAGE.md "Backup file"): the Settings panel's "Backup" section.
// *Export to a file* downloads everything this browser keeps as one file
// (atut-backup-YYYY-MM-DD.json): the kept games with their saves (read out of IndexedDB by the
// worker, which never sends a save to the page: the file is a blob URL made there), the lab's
// saved bots and the settings (localStorage, sent by the page).  *Import a file…* (or a file
// dropped onto the panel) reads a file as strict UTF-8 and hands its text to the worker, where
// atut.backup checks it whole before anything is written and plans the merge by game id; the
// worker writes the games in one IndexedDB transaction, the page then the bots and (when asked)
// the settings.  The result is said in the page's language: games added, updated, here already,
// kept both; bots added; settings taken or not; or the reason a file was refused (nothing
// changed).

import { esc } from "../cards.js";
import { $ } from "./dom.js";
import { t } from "./words.js";
import { request } from "./worker-client.js";
import { state as storeState } from "./saved-games.js";

const MAX_BYTES = 32 * 1024 * 1024;        // atut.backup.MAX_BYTES
const BOTS_KEY = "atut.lab.bots";          // lib/lab/saved.js
// the settings a backup carries: what lib/settings.js, aids.js, sound.js, pool.js and the lab's
// drafts keep; any other key of a file is left alone.  Not the language: it is this browser's
// (and the link's), and an import never switches the page it is read in to another language.
const SETTING = /^atut\.(delay|sound|pool|hints|undo|look\.(large|projector|four)|pace\.(autoplay|keeptrick)|lab\.draft\.[a-z0-9_]{1,40})$/;
const TAKE_KEY = "atut.backup.take";       // the panel's "take the settings too" (on unless off)

let last = null;                           // the last outcome: {outcome, code, lines: [[key, params]]}
let seq = 0;
let busy = false;
let panel = null;
let on = { refresh: async () => {}, applied: () => {} };

function lsGet(key) { try { return localStorage.getItem(key); } catch (_) { return null; } }
function lsPut(key, v) { localStorage.setItem(key, v); }

const takeSettings = () => lsGet(TAKE_KEY) !== "off";

/** {name: {source, game, saved}} of the lab's saved bots (lib/lab/saved.js's store). */
function botStore() {
  try {
    const d = JSON.parse(lsGet(BOTS_KEY) || "{}");
    return d && typeof d === "object" && !Array.isArray(d) ? d : {};
  } catch (_) {
    return {};
  }
}

function keptBots() {
  const d = botStore();
  return Object.keys(d).filter((n) => d[n] && typeof d[n].source === "string").map((n) => {
    const b = { name: n, game: d[n].game, source: d[n].source };
    if (Number.isFinite(d[n].saved)) b.saved = d[n].saved;
    return b;
  });
}

function keptSettings() {
  const out = {};
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (SETTING.test(k)) out[k] = localStorage.getItem(k);
    }
  } catch (_) { /* storage off */ }
  return out;
}

/** The Settings panel's "Backup" section (HTML). */
export function backupHTML() {
  return `<fieldset class="backup" data-testid="backup"><legend>${esc(t("backup.title"))}</legend>
      <p class="settings-note">${esc(t("backup.note"))}</p>
      <div class="backup-buttons">
        <button type="button" class="primary" data-testid="backup-export">${esc(t("backup.export"))}</button>
        <button type="button" class="ghost" data-testid="backup-import">${esc(t("backup.import"))}</button>
        <input type="file" accept=".json,application/json" data-testid="backup-file" hidden>
      </div>
      <label class="field check"><input type="checkbox" data-testid="backup-take-settings" ${takeSettings() ? "checked" : ""}><span>${esc(t("backup.take_settings"))}</span></label>
      <p class="settings-note">${esc(t("backup.drop"))}</p>
      <div class="backup-result" data-testid="backup-result" role="status" aria-live="polite"></div></fieldset>`;
}

function renderResult() {
  const box = panel && $("[data-testid=backup-result]", panel);
  if (!box) return;
  box.dataset.seq = String(seq);
  box.dataset.outcome = last ? last.outcome : "";
  box.dataset.code = last && last.code ? last.code : "";
  box.innerHTML = last ? last.lines.map(([key, params]) => `<p>${esc(t(key, params))}</p>`).join("") : "";
}

function show(outcome, lines, code = "") {
  last = { outcome, code, lines };
  seq += 1;
  renderResult();
}

/** Wire the section in `root` (the panel).  `given.refresh()`: the kept games were written (the
 *  menu reads them again; app.js); `given.applied({settings})`: settings were taken. */
export function bindBackup(root, given = {}) {
  panel = root;
  on = { ...on, ...given };
  const input = $("[data-testid=backup-file]", root);
  $("[data-testid=backup-export]", root).addEventListener("click", () => exportBackup());
  $("[data-testid=backup-import]", root).addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const f = input.files && input.files[0];
    input.value = "";
    if (f) importFile(f);
  });
  $("[data-testid=backup-take-settings]", root).addEventListener("change", (e) => {
    try { lsPut(TAKE_KEY, e.target.checked ? "on" : "off"); } catch (_) { /* storage off */ }
  });
  root.addEventListener("dragover", (e) => {
    if (!e.dataTransfer || ![...e.dataTransfer.types].includes("Files")) return;
    e.preventDefault();
    root.classList.add("dropping");
  });
  root.addEventListener("dragleave", () => root.classList.remove("dropping"));
  root.addEventListener("drop", (e) => {
    root.classList.remove("dropping");
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    importFile(f);
  });
  renderResult();
}

/** The panel is gone. */
export function unbindBackup() { panel = null; }

function setBusy(b) {
  busy = b;
  if (!panel) return;
  for (const x of panel.querySelectorAll("[data-testid=backup-export], [data-testid=backup-import]")) x.disabled = b;
  if (b) {
    const box = $("[data-testid=backup-result]", panel);
    if (box) { box.dataset.outcome = "working"; box.textContent = t("backup.working"); }
  }
}

const today = () => {
  const d = new Date();
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
};

/** Export everything kept to a downloaded file. */
export async function exportBackup() {
  if (busy) return;
  if (storeState() === "off") { show("error", [["backup.off", {}]], "off"); return; }
  setBusy(true);
  try {
    const r = await request("backup_export", { bots: keptBots(), settings: keptSettings() });
    const file = `atut-backup-${today()}.json`;
    const a = document.createElement("a");
    a.href = r.url;
    a.download = file;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => request("forget_url", { url: r.url }).catch(() => {}), 60000);
    const lines = [["backup.exported", { file, games: r.games, bots: r.bots, settings: r.settings }]];
    if (r.skipped.length) lines.push(["backup.exported.skipped", { count: r.skipped.length }]);
    show("exported", lines);
  } catch (err) {
    show("error", [["backup.error", { message: err.message }]], "error");
  } finally {
    setBusy(false);
  }
}

function refused(code, where) {
  const reason = t("backup.reason." + code);
  show("refused", [[where ? "backup.refused" : "backup.refused.whole", { reason, where }]], code);
}

/** Import a backup file (a File or Blob: from the picker or dropped). */
export async function importFile(file) {
  if (busy) return;
  if (storeState() === "off") { show("error", [["backup.off", {}]], "off"); return; }
  if (file.size > MAX_BYTES) { refused("size", ""); return; }
  setBusy(true);
  try {
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await file.arrayBuffer());
    } catch (err) {
      refused(err instanceof TypeError ? "json" : "read", "");
      return;
    }
    const r = await request("backup_import", { text, bots: keptBots() });
    if (r.refused) { refused(r.refused.code, r.refused.where); return; }
    await imported(file.name || "", r);
  } catch (err) {
    show("error", [["backup.error", { message: err.message }]], "error");
  } finally {
    setBusy(false);
  }
}

/** The worker wrote the games: the bots and the settings here, then the report. */
async function imported(name, r) {
  const rep = r.report;
  const lines = [["backup.imported", { file: name }]];
  let changed = rep.added + rep.updated + rep.conflicts.length;
  let botsLost = false;
  if (r.bots.length) {
    const d = botStore();
    for (const b of r.bots) d[b.name] = { source: b.source, game: b.game, saved: Number.isFinite(b.saved) ? b.saved : Date.now() };
    try {
      lsPut(BOTS_KEY, JSON.stringify(d));        // one write: all the bots or (it throws) none
      changed += r.bots.length;
    } catch (_) {
      botsLost = true;
    }
  }
  const sets = Object.entries(r.settings).filter(([k]) => SETTING.test(k));
  let taken = 0;
  if (sets.length && takeSettings()) {
    for (const [k, v] of sets) {
      try { if (lsGet(k) !== v) { lsPut(k, v); taken += 1; } } catch (_) { /* storage full: kept as it was */ }
    }
  }
  lines.push(["backup.games", { added: rep.added, updated: rep.updated, same: rep.same, kept_newer: rep.kept_newer, conflicts: rep.conflicts.length }]);
  if (rep.conflicts.length) lines.push(["backup.conflicts", {}]);
  if (botsLost) lines.push(["backup.bots.failed", { count: r.bots.length }]);
  else {
    lines.push(["backup.bots", { added: rep.bots_added, same: rep.bots_same, renamed: rep.bots_renamed.length }]);
    for (const [from, to] of rep.bots_renamed) lines.push(["backup.bots.renamed", { from, to }]);
  }
  if (!sets.length) lines.push(["backup.settings.none", {}]);
  else if (!takeSettings()) lines.push(["backup.settings.not_taken", {}]);
  else lines.push(["backup.settings.taken", { count: taken }]);
  if (!changed && !taken) lines.push(["backup.nothing", {}]);
  // the menu's kept games, history and statistics read again
  try { await on.refresh(); } catch (err) { console.warn("backup:", err); }
  show("imported", lines);
  on.applied({ settings: taken > 0 });
}
