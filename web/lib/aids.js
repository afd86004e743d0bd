// Play aids: Hint (the engine's analysis of the person's view, bridge.py op "hint": every legal
// action's value as a small bar chart, the suggested action marked on the table) and Undo (the
// person's last decision of the deal taken back with the bots' replies, op "undo").  Both are on
// the person's turn only, both may be turned off in the menu (kept in localStorage), keys H
// and U.  The hint runs in the worker: the table stays live and says that it is thinking.
// The hint on show is this module's own; the undo itself, and counting the aids used in the
// kept record, are play.js's (given by app.js: initAids).

import { esc, chip } from "../cards.js";
import { canonical } from "./canonical.js";
import { el, h } from "./dom.js";
import { S } from "./state.js";
import { t, tc, actionLabel, seatName, rich } from "./words.js";
import { request } from "./worker-client.js";
import { showError } from "./notice.js";
import { canReview, openReview, reviewOpen, closeReview, bindReviewKeys } from "./review.js";
import { optionsHTML, beliefsHTML } from "./why.js";

const KEYS = { hints: "atut.hints", undo: "atut.undo" };
const SLOW_MS = 300;               // a hint still computing after this shows its progress

/** Whether an aid ("hints" or "undo") is on (the default) or turned off in the menu. */
export function aidOn(name) {
  try { return localStorage.getItem(KEYS[name]) !== "off"; } catch (_) { return true; }
}

export function setAid(name, on) {
  try { localStorage.setItem(KEYS[name], on ? "on" : "off"); } catch (_) { /* storage off */ }
  if (!on && name === "hints") shown = null;
  renderAids();
}

/** The menu's two checkboxes (HTML) and their wiring (call bindAidSettings(root) after). */
export function aidSettingsHTML() {
  const box = (name, label) => `<label class="field check"><input type="checkbox" data-aid="${name}" ${aidOn(name) ? "checked" : ""}><span>${esc(t(label))}</span></label>`;
  return box("hints", "ui.aid.hints") + box("undo", "ui.aid.undo");
}

export function bindAidSettings(root) {
  for (const c of root.querySelectorAll("input[data-aid]")) {
    c.addEventListener("change", () => setAid(c.dataset.aid, c.checked));
  }
}

let aidsNode = null;
let shown = null;                  // the hint of the view on the table: {view, pending, slow, started, result}
let table = { undo: async () => false, countHint: () => {} };

function myTurn() {
  const v = S.view;
  return !!v && !v.is_over && v.to_move === S.seat;
}

function node() {
  if (!aidsNode) {
    aidsNode = h("div", { id: "aids", class: "aids", "data-testid": "aids" });
    el.status.insertAdjacentElement("afterend", aidsNode);
    aidsNode.addEventListener("click", (e) => {
      if (e.target.closest("[data-testid=hint]")) hint();
      else if (e.target.closest("[data-testid=undo]")) undo();
      else if (e.target.closest("[data-testid=review]")) openReview();
      else if (e.target.closest("[data-hint-close]")) { shown = null; renderAids(); }
    });
  }
  return aidsNode;
}

function bars(result) {
  const vals = result.actions.map((a) => a.value).filter((x) => typeof x === "number");
  const hi = Math.max(...vals), lo = Math.min(...vals);
  const span = hi - lo || 1;
  const best = canonical(result.best);
  return result.actions.map((a) => {
    const key = canonical(a.action);
    const pct = typeof a.value === "number" ? Math.round(8 + 92 * (a.value - lo) / span) : 0;
    const win = typeof a.win === "number" ? ` · ${esc(t("ui.hint.win", { pct: Math.round(a.win * 100) }))}` : "";
    const num = typeof a.value === "number" ? a.value.toFixed(Math.abs(a.value) >= 10 ? 1 : 2) : "–";
    return `<li class="hint-row${key === best ? " best" : ""}" data-hint-action="${esc(key)}" data-value="${typeof a.value === "number" ? a.value : 0}">
      <span class="hint-label">${actionLabel(a.action, "html")}</span>
      <span class="hint-bar" aria-hidden="true"><span style="width:${pct}%"></span></span>
      <span class="hint-num">${esc(num)}${win}</span></li>`;
  }).join("");
}

/** Teaching mode (the person asked to see everything): each bot's open hand and, beside its
 *  last move of this deal, its own search: the values of its options and what it believed. */
function teachHTML() {
  const o = S.open;
  if (!o) return "";
  const deal = S.view ? S.view.deal_no : null;
  const rows = o.hands.map((cs, s) => {
    if (s === S.seat) return "";
    const note = o.notes[String(s)];
    if (!cs.length && !note) return "";                  // no hand and no move: nothing to show
    let why = "";
    if (note && (note.deal_no === undefined || note.deal_no === deal)) {
      why = `<div class="teach-why" data-testid="teach-note" data-seat="${s}">${optionsHTML(note)}</div>${beliefsHTML(note.beliefs, s)}`;
    }
    return `<div class="teach-seat" data-seat="${s}"><div class="teach-hand"><b>${esc(seatName(s))}</b> ${cs.map((c) => chip(c, tc)).join(" ")}</div>${why}</div>`;
  }).join("");
  return `<div class="teach-panel" data-testid="teach-panel"><span class="teach-badge">${esc(t("ui.teach.on"))}</span><div class="teach-seats">${rows}</div></div>`;
}

/** Draw the aids' bar (after each render of the table) and mark the suggested action. */
export function renderAids() {
  if (!el.status) return;
  const n = node();
  const mine = myTurn();
  if (shown && shown.view !== S.view) shown = null;
  const hintBtn = mine && aidOn("hints")
    ? `<button type="button" class="ghost aid" data-testid="hint" aria-keyshortcuts="H" ${shown && shown.pending ? "disabled" : ""}>${esc(t("ui.hint"))}</button>` : "";
  const undoBtn = mine && aidOn("undo") && S.canUndo
    ? `<button type="button" class="ghost aid" data-testid="undo" aria-keyshortcuts="U" ${S.busy ? "disabled" : ""}>${esc(t("ui.undo"))}</button>` : "";
  if (reviewOpen() && !canReview()) closeReview();
  const reviewBtn = canReview()
    ? `<button type="button" class="ghost aid" data-testid="review">${esc(t("ui.review"))}</button>` : "";
  let panel = "";
  if (shown && mine) {
    // a hint that takes longer than SLOW_MS says so: an indeterminate bar and the seconds
    panel = shown.pending
      ? (shown.slow ? `<div class="hint-panel hint-wait" data-testid="hint-progress" aria-live="polite" role="status">${esc(t("ui.hint.thinking"))} <span class="hint-secs">${esc(t("ui.hint.seconds", { s: ((performance.now() - shown.started) / 1000).toFixed(1) }))}</span><span class="hint-spin" aria-hidden="true"><span></span></span></div>` : "")
      : `<div class="hint-panel" data-testid="hint-panel" aria-live="polite">
          <div class="hint-head"><b>${esc(t("ui.hint.title"))}</b> <span class="sub">${esc(t("ui.hint.measure", { n: shown.result.actions[0] ? shown.result.actions[0].samples : 0 }))}</span>
          <button type="button" class="close" data-hint-close aria-label="${esc(t("ui.close_panel"))}">×</button></div>
          ${shown.result.reason ? `<p class="hint-reason" data-testid="hint-reason" data-reason="${esc(shown.result.reason.key)}">${rich("reason." + shown.result.reason.key, shown.result.reason)}</p>` : ""}
          <ol class="hint-bars">${bars(shown.result)}</ol></div>`;
  }
  const teach = teachHTML();
  n.innerHTML = hintBtn || undoBtn || reviewBtn || panel || teach ? `<div class="aid-buttons">${hintBtn}${undoBtn}${reviewBtn}</div>${panel}${teach}` : "";
  n.hidden = !n.innerHTML;
  for (const b of document.querySelectorAll(".hinted")) b.classList.remove("hinted");
  if (shown && shown.result && mine) {
    const key = canonical(shown.result.best);
    for (const b of el.table.querySelectorAll("[data-action]")) {
      if (b.dataset.action === key) b.classList.add("hinted");
    }
  }
}

/** Ask the engine for a hint on the person's turn. */
export async function hint() {
  if (!myTurn() || !aidOn("hints") || S.busy || (shown && shown.view === S.view)) return;
  const v = S.view;
  const gen = S.gen;
  const mine = { view: v, pending: true, slow: false, started: performance.now() };
  shown = mine;
  renderAids();
  // the search runs in the worker (counted budget, no clock): the table stays live meanwhile,
  // the person may still play; after SLOW_MS the panel shows that it is thinking
  const tick = setInterval(() => {
    if (shown !== mine || !mine.pending) { clearInterval(tick); return; }
    const ms = performance.now() - mine.started;
    if (ms < SLOW_MS) return;
    if (!mine.slow) { mine.slow = true; renderAids(); return; }
    const secs = aidsNode && aidsNode.querySelector(".hint-secs");      // only the seconds change
    if (secs) secs.textContent = t("ui.hint.seconds", { s: (ms / 1000).toFixed(1) });
  }, 100);
  let r;
  try {
    r = await request("hint");
  } catch (err) {
    clearInterval(tick);
    if (shown && shown.view === v) shown = null;
    if (gen === S.gen) showError(t("ui.engine_error", { message: err.message }));
    renderAids();
    return;
  }
  clearInterval(tick);
  if (gen !== S.gen || S.view !== v || shown !== mine) return;
  shown = { view: v, pending: false, result: r };
  table.countHint();
  renderAids();
}

/** Take back the person's last decision of the deal (play.js does it). */
export async function undo() {
  if (!myTurn() || !aidOn("undo") || S.busy || !S.canUndo) return;
  if (await table.undo()) shown = null;
}

/** Keys H and U (not while typing or in the menu); `undo` and `countHint` from play.js. */
export function initAids({ undo: undoTable, countHint }) {
  table = { undo: undoTable, countHint };
  bindReviewKeys();
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    const tag = (e.target && e.target.tagName) || "";
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(tag) || (e.target && e.target.isContentEditable)) return;
    if (el.menu && !el.menu.hidden) return;
    const k = e.key.toLowerCase();
    if (k === "h") { e.preventDefault(); hint(); } else if (k === "u") { e.preventDefault(); undo(); }
  });
}
