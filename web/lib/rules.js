// The rules panel: a game's rules in the page's language, from
// web/rules/<game>.<lang>.json (generated at build time from docs/rules/<game>.md by
// tools/rules_html.py): the summary, every rule under its id, the worked examples, and a plain
// mark where our reading departs from a common variant.  Opened from the top bar's Rules
// button, the menu (the chosen game) and the key "?"; a refusal's rule id opens it at that rule.
// Esc or × closes it and gives the focus back.  The page renders what the file holds; it knows
// no rule.

import { esc } from "../cards.js";
import { h, $ } from "./dom.js";
import { S } from "./state.js";
import { t } from "./words.js";

const cache = new Map();
let panel = null;
let before = null;                  // the element focused before the panel opened
let shown = null;                   // {game, rule}

function load(game, lang) {
  const key = `${game}.${lang}`;
  if (!cache.has(key)) {
    cache.set(key, fetch(new URL(`../rules/${key}.json`, import.meta.url)).then((r) => {
      if (!r.ok) throw new Error(`rules/${key}.json: HTTP ${r.status}`);
      return r.json();
    }).catch((e) => { cache.delete(key); throw e; }));
  }
  return cache.get(key);
}

function entryHTML(e, lang) {
  const other = e.lang !== lang ? ` lang="${esc(e.lang)}"` : "";
  const departs = e.departs ? `<span class="departs" data-testid="departs">${esc(t("ui.rules.departs"))}</span>` : "";
  const notes = e.notes.map((n) => `<li class="note note-${esc(n.kind.toLowerCase().replace(/\s+/g, "-"))}"><b>${esc(n.label)}:</b> ${n.html}</li>`).join("");
  return `<li class="rule${e.departs ? " departs" : ""}" id="rule-${esc(e.id)}" data-rule="${esc(e.id)}"${other}>
    <span class="rid">${esc(e.id)}</span> ${e.html}${departs}${notes ? `<ul class="notes">${notes}</ul>` : ""}</li>`;
}

function panelHTML(d, lang) {
  const english = d.parts.some((p) => p.groups.some((g) => g.entries.some((e) => e.lang !== lang)));
  const parts = d.parts.map((p) => `<section class="rules-part"><h3>${esc(p.title)}</h3>${p.groups.map((g) =>
    `${g.title ? `<h4>${esc(g.title)}</h4>` : ""}<ul class="rules-list">${g.entries.map((e) => entryHTML(e, lang)).join("")}</ul>`).join("")}</section>`).join("");
  return `<div class="rules-head"><h2 id="rules-title">${esc(t("ui.rules.title", { game: d.title }))}</h2>
      <button type="button" class="close" data-testid="rules-close" aria-label="${esc(t("ui.close_panel"))}" title="${esc(t("ui.close_panel"))}">×</button></div>
    <div class="rules-body" tabindex="-1">
      <div class="rules-summary"${d.summary_lang !== lang ? ` lang="${esc(d.summary_lang)}"` : ""}>${d.summary}</div>
      <p class="rules-legend">${esc(t("ui.rules.legend"))}</p>
      ${english ? `<p class="rules-english" data-testid="rules-english">${esc(t("ui.rules.english"))}</p>` : ""}
      ${parts}</div>`;
}

export function rulesOpen() { return !!panel; }

/** Open the rules of `game` (the table's, else the menu's choice), at `rule` if given. */
export async function openRules(game = null, rule = null) {
  game = game || S.game || (S.menu && S.menu.game);
  if (!game) return;
  const lang = S.lang;
  let d;
  try { d = await load(game, lang); } catch (e) { console.warn("rules:", e); return; }
  if (!panel) {
    before = document.activeElement;
    panel = h("div", { class: "rules-panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "rules-title", "data-testid": "rules" });
    panel.addEventListener("click", (e) => { if (e.target.closest("[data-testid=rules-close]")) closeRules(); });
    document.body.appendChild(panel);
  }
  panel.dataset.game = game;
  panel.setAttribute("lang", lang);
  panel.innerHTML = panelHTML(d, lang);
  shown = { game, rule };
  const target = rule ? panel.querySelector(`#rule-${CSS.escape(rule)}`) : null;
  if (target) {
    target.classList.add("pointed");
    target.setAttribute("tabindex", "-1");
    target.scrollIntoView({ block: "center" });
    target.focus({ preventScroll: true });
  } else {
    $(".rules-body", panel).focus();
  }
}

export function closeRules() {
  if (!panel) return;
  panel.remove();
  panel = null;
  shown = null;
  if (before && document.contains(before) && typeof before.focus === "function") before.focus();
  before = null;
}

/** The language changed: the open panel follows it; the top bar's button is relabelled. */
export function relabelRules() {
  const b = document.getElementById("btnRules");
  if (b) { b.textContent = t("ui.rules"); b.title = t("ui.rules.key"); }
  if (panel && shown) openRules(shown.game, shown.rule);
}

/** The top bar's button, the key "?" and Esc; a refusal's rule id opens that rule. */
export function initRules() {
  const b = document.getElementById("btnRules");
  if (b) b.addEventListener("click", () => (panel ? closeRules() : openRules()));
  document.addEventListener("keydown", (e) => {
    const typing = e.target && e.target.closest && e.target.closest("input, select, textarea");
    if (e.key === "Escape" && panel) { e.preventDefault(); closeRules(); return; }
    if (e.key === "?" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      if (panel) closeRules(); else openRules();
    }
  });
  document.addEventListener("click", (e) => {
    const r = e.target.closest && e.target.closest("[data-open-rule]");
    if (r) { e.preventDefault(); openRules(null, r.dataset.openRule); }
    const m = e.target.closest && e.target.closest("[data-testid=menu-rules]");
    if (m) { e.preventDefault(); openRules(m.dataset.game || null); }
  });
  relabelRules();
}
