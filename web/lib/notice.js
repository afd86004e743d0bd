// The loading bar (the engine's progress, its failure) and the error bar.

import { el } from "./dom.js";
import { t } from "./words.js";

let shownPct = 0;

let waiting = false;               // a game was asked for before the engine was ready

const loadingText = () => `${t("ui.loading." + (el.loaderText.dataset.stage || "runtime"))} ${shownPct}%`
  + (waiting ? ` · ${t("ui.loading.wait_game")}` : "");

export function showProgress(pct, stage) {
  shownPct = Math.max(shownPct, pct | 0);
  el.loader.setAttribute("aria-valuenow", String(shownPct));
  el.loaderFill.style.width = shownPct + "%";
  el.loaderText.dataset.stage = stage;
  el.loaderText.textContent = loadingText();
}

/** The loading text again, in the current language. */
export function relabelProgress() {
  if (document.body.dataset.engine !== "error") el.loaderText.textContent = loadingText();
}

/** True while a game waits for the engine. */
export const isWaiting = () => waiting;

/** A game waits for the engine (the first New game while Python loads): the loading bar says
 *  so until the engine is ready (on = false). */
export function showWaiting(on) {
  waiting = !!on;
  el.loader.classList.toggle("waiting", waiting);
  if (document.body.dataset.engine === "loading") relabelProgress();
}

export function engineFailed(message) {
  if (document.body.dataset.engine === "error") return;
  document.body.dataset.engine = "error";
  el.loader.classList.add("failed");
  el.loaderText.textContent = t("ui.load_error", { message });
  showError(t("ui.load_error", { message }));
}

/** The error bar: a message, or "" to hide it. */
export function showError(msg) {
  el.error.hidden = !msg;
  el.errorText.textContent = msg || "";
}

/** A notice bar of its own (#notices): `id` names it (data-testid="notice-<id>"); `buttons`
 *  [{label, testid, onClick}] are shown after the text.  Showing an id again replaces it. */
export function showNotice(id, text, buttons = []) {
  const box = document.getElementById("notices");
  if (!box) return;
  let n = box.querySelector(`[data-notice="${id}"]`);
  if (!n) {
    n = document.createElement("div");
    n.className = "notice";
    n.dataset.notice = id;
    n.dataset.testid = "notice-" + id;
    n.setAttribute("role", "status");
    box.appendChild(n);
  }
  n.textContent = "";
  const span = document.createElement("span");
  span.className = "text";
  span.textContent = text;
  n.appendChild(span);
  for (const b of buttons) {
    const e = document.createElement("button");
    e.type = "button";
    e.textContent = b.label;
    if (b.testid) e.dataset.testid = b.testid;
    e.addEventListener("click", b.onClick);
    n.appendChild(e);
  }
}

export function hideNotice(id) {
  const box = document.getElementById("notices");
  const n = box && box.querySelector(`[data-notice="${id}"]`);
  if (n) n.remove();
}
