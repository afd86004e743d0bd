// Storage that stays (docs/PAGE.md "One writer, crashes and persistent storage"): the browser
// may clear a site's data when space runs low unless the site's storage is persistent.  The page
// asks for it (navigator.storage.persist()) at moments that make sense: after a finished game
// (autosave.js) and when the app is installed (or runs installed); Settings shows whether the
// storage is persistent and how much of it the page uses (navigator.storage.estimate()), and
// says plainly when it is not, with a button to ask again.

import { S } from "./state.js";
import { t } from "./words.js";

const SM = typeof navigator !== "undefined" && navigator.storage ? navigator.storage : null;
let asked = null;                  // the answer of this page's persist() request, once asked

/** {supported, persisted (true | false | null: unknown), usage, quota (bytes or null)}. */
export async function storageState() {
  const out = { supported: !!(SM && typeof SM.persisted === "function"), persisted: null, usage: null, quota: null };
  if (!SM) return out;
  try { if (typeof SM.persisted === "function") out.persisted = !!(await SM.persisted()); } catch (_) { /* unknown */ }
  try {
    if (typeof SM.estimate === "function") {
      const e = await SM.estimate();
      if (Number.isFinite(e.usage)) out.usage = e.usage;
      if (Number.isFinite(e.quota)) out.quota = e.quota;
    }
  } catch (_) { /* unknown */ }
  return out;
}

/** Ask the browser to keep the storage (once per page unless `again`): true when it is
 *  persistent now.  Never throws. */
export async function askPersist({ again = false } = {}) {
  if (!SM || typeof SM.persist !== "function") return false;
  if (asked !== null && !again) return asked;
  try {
    if (typeof SM.persisted === "function" && await SM.persisted()) { asked = true; return true; }
    asked = !!(await SM.persist());
  } catch (_) {
    asked = false;
  }
  return asked;
}

/** A size in bytes in the page's language: "12 kB", "1,4 MB". */
export function formatBytes(n) {
  const units = ["B", "kB", "MB", "GB"];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  const num = new Intl.NumberFormat(S.lang === "pl" ? "pl-PL" : "en-GB", { maximumFractionDigits: i ? 1 : 0 }).format(v);
  return `${num} ${units[i]}`;
}

/** The sentence of Settings for a state (storageState()). */
export function storageText(st) {
  const parts = [];
  if (st.persisted === true) parts.push(t("storage.persistent"));
  else if (st.persisted === false) parts.push(t("storage.not_persistent"));
  else parts.push(t("storage.unknown"));
  if (st.usage !== null) {
    parts.push(st.quota ? t("storage.used_of", { used: formatBytes(st.usage), quota: formatBytes(st.quota) })
      : t("storage.used", { used: formatBytes(st.usage) }));
  }
  return parts.join(" ");
}

/** Settings' section (settings.js): the line is filled in by bindStorage once the browser
 *  answers. */
export function storageHTML(esc) {
  return `<fieldset data-testid="settings-storage"><legend>${esc(t("storage.title"))}</legend>
      <p class="storage-line" data-testid="storage-line" aria-live="polite">${esc(t("storage.checking"))}</p>
      <button type="button" class="ghost storage-ask" data-testid="storage-persist" hidden>${esc(t("storage.ask"))}</button></fieldset>`;
}

/** Fill Settings' storage line of `panel`, and its button (shown while not persistent). */
export async function bindStorage(panel) {
  const line = panel.querySelector("[data-testid=storage-line]");
  const button = panel.querySelector("[data-testid=storage-persist]");
  if (!line) return;
  const fill = async () => {
    const st = await storageState();
    if (!line.isConnected) return;
    line.textContent = storageText(st);
    line.dataset.persisted = st.persisted === null ? "unknown" : String(st.persisted);
    line.dataset.usage = st.usage === null ? "" : String(st.usage);
    if (button) button.hidden = !(st.persisted === false && SM && typeof SM.persist === "function");
    line.dataset.ready = "1";
  };
  if (button) {
    button.addEventListener("click", async () => {
      const ok = await askPersist({ again: true });
      await fill();
      if (!line.isConnected) return;
      if (!ok) line.textContent += " " + t("storage.refused");
      line.dataset.asked = ok ? "granted" : "refused";
    });
  }
  await fill();
}

/** Installed: ask at once (an installed app is where games are meant to stay). */
export function initStorage() {
  if (typeof window === "undefined") return;
  window.addEventListener("appinstalled", () => { askPersist(); });
  try {
    if (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches) askPersist();
  } catch (_) { /* no media queries */ }
}
