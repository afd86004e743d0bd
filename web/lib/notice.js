// The loading bar (the engine's progress, its failure) and the error bar.

import { el } from "./dom.js";
import { t } from "./words.js";

let shownPct = 0;

export function showProgress(pct, stage) {
  shownPct = Math.max(shownPct, pct | 0);
  el.loader.setAttribute("aria-valuenow", String(shownPct));
  el.loaderFill.style.width = shownPct + "%";
  el.loaderText.textContent = `${t("ui.loading." + stage)} ${shownPct}%`;
  el.loaderText.dataset.stage = stage;
}

/** The loading text again, in the current language. */
export function relabelProgress() {
  el.loaderText.textContent = `${t("ui.loading." + (el.loaderText.dataset.stage || "runtime"))} ${shownPct}%`;
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
