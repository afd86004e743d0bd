// The language of the page's fixed parts (top buttons, title, loading text) and the choice kept
// in localStorage.  Redrawing the menu and the table in the new language is app.js's setLang().

import { S } from "./state.js";
import { el } from "./dom.js";
import { t, gameName } from "./words.js";
import { relabelProgress } from "./notice.js";

export function applyLang() {
  document.documentElement.lang = S.lang;
  const manifest = document.querySelector("link[rel=manifest]");       // the app's name, installed
  if (manifest) manifest.setAttribute("href", S.lang === "pl" ? "manifest.pl.webmanifest" : "manifest.webmanifest");
  try { localStorage.setItem("atut.lang", S.lang); } catch (_) { /* ignore */ }
  for (const b of document.querySelectorAll("[data-lang]")) b.setAttribute("aria-pressed", String(b.dataset.lang === S.lang));
  el.btnMenu.textContent = t("ui.menu");
  el.btnSave.textContent = t("ui.save");
  el.btnLoad.textContent = t("ui.load");
  if (!S.ready && document.body.dataset.engine === "loading") relabelProgress();
  document.title = S.view ? `${gameName()} · Atut` : "Atut";
}
