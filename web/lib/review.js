// The deal review: once a deal has ended, [data-testid=review] opens a step-through replay of it
// with every hand open (bridge.py op "review": the deal is over, nothing is hidden any more).
// First, previous, next, last and the arrow keys (Home/End too, Escape closes).  Each decision
// of the person is graded against a level-4 analysis (op "review_grade", one request after the
// other in the worker, so the grades appear as they arrive); the better action is shown and the
// deal's accuracy summed up.  Grading starts in the background as soon as a deal ends
// (pregrade(), from play.js), one request at a time so that the next deal's moves wait for at
// most one grade; the review, when opened, shows the grades found so far and the rest as they
// come.  Every card here is of a finished deal: drawn as a past card
// (no data-card).

import { esc } from "../cards.js";
import { h } from "./dom.js";
import { S } from "./state.js";
import { t, seatName, actionLabel, past } from "./words.js";
import { request } from "./worker-client.js";
import { showError } from "./notice.js";
import { optionsHTML, beliefsHTML } from "./why.js";
import { moveHTML, tableHTML, navHTML, stepTo } from "./steps.js";

let R = null;                 // {deal_no, steps, at, grades: {i: grade}, token}
let token = 0;
let box = null;
let pre = null;               // the background grading: {key, grades, running}
let preToken = 0;

const dealKey = (dealNo) => `${S.record ? S.record.id : ""}:${dealNo}`;

/** A deal has just ended: grade the person's decisions in it in the background. */
export function pregrade() {
  const my = ++preToken;
  pre = null;
  (async () => {
    let r;
    try { r = await request("review"); } catch (_) { return; }
    if (my !== preToken) return;
    const p = { key: dealKey(r.deal_no), grades: {}, running: true };
    pre = p;
    document.body.dataset.pregrade = "running";     // for tests: "running", then "done"
    if (!(await gradeInto(r.steps, p.grades, () => my === preToken))) return;
    p.running = false;
    document.body.dataset.pregrade = "done";
  })();
}

/** Grade the person's decisions among `steps` not yet in `grades`, one request after the
 *  other, while live() holds; an open review showing these grades is redrawn as each comes.
 *  False when it stopped because live() no longer held. */
async function gradeInto(steps, grades, live) {
  for (const st of steps.filter((x) => x.mine && !grades[x.i])) {
    let g;
    try {
      g = await request("review_grade", { i: st.i });
    } catch (err) {
      g = { grade: "error", error: err.message };
    }
    if (!live()) return false;
    grades[st.i] = g;
    if (R && R.grades === grades) draw();
  }
  return true;
}

/** A new table: the background grading of the old one is dropped. */
export function dropPregrade() {
  preToken++;
  pre = null;
  delete document.body.dataset.pregrade;
}

const label = (a) => past(() => actionLabel(a, "html"));

/** Whether a finished deal can be reviewed now. */
export function canReview() {
  return !!S.view && (!!S.lastDeal || !!S.view.is_over);
}

export function reviewOpen() { return !!R; }

export async function openReview() {
  if (!canReview()) return;
  const my = ++token;
  let r;
  try {
    r = await request("review");
  } catch (err) {
    showError(t("ui.error", { message: err.message }));
    return;
  }
  if (my !== token) return;
  const p = pre && pre.key === dealKey(r.deal_no) ? pre : null;
  R = { ...r, at: 0, grades: p ? p.grades : {}, why: {}, token: my };
  draw();
  // what the background has not graded (or all)
  if (!p || !p.running) gradeInto(R.steps, R.grades, () => my === token && !!R);
}

export function closeReview() {
  token++;
  R = null;
  if (box) { box.remove(); box = null; }
}

async function why(i) {
  if (!R || R.why[i]) return;
  const my = R.token;
  R.why[i] = { pending: true };
  draw();
  let w;
  try {
    w = await request("review_bot", { i });
  } catch (err) {
    w = { error: err.message };
  }
  if (!R || R.token !== my) return;
  R.why[i] = w;
  draw();
}

function summary() {
  const mine = R.steps.filter((x) => x.mine);
  const done = mine.map((x) => R.grades[x.i]).filter((g) => g && g.grade !== "error");
  if (!mine.length) return esc(t("ui.review.nothing"));
  const good = done.filter((g) => g.grade === "best" || g.grade === "good").length;
  const pct = done.length ? Math.round(100 * good / done.length) : 0;
  const head = esc(t("ui.review.accuracy", { pct, done: done.length, all: mine.length }));
  const counts = ["best", "good", "inaccuracy", "mistake", "blunder"].map((k) => {
    const n = done.filter((g) => g.grade === k).length;
    return n ? `<span class="grade ${k}">${esc(t("ui.grade." + k))} ${n}</span>` : "";
  }).join(" ");
  return `${head} ${counts}`;
}

function draw() {
  if (!R) return;
  if (!box) {
    box = h("div", { class: "review", "data-testid": "review-panel", role: "dialog", "aria-modal": "false" });
    document.body.appendChild(box);
    box.addEventListener("click", (e) => {
      const b = e.target.closest("[data-step]");
      const w = e.target.closest("[data-why]");
      if (b) step(b.dataset.step);
      else if (w) why(Number(w.dataset.why));
      else if (e.target.closest("[data-review-close]")) closeReview();
    });
  }
  const n = R.steps.length;
  const st = R.steps[R.at];
  const g = st && st.mine ? R.grades[st.i] : null;
  let verdict = "";
  if (st && st.mine) {
    if (!g) verdict = `<p class="review-grade pending">${esc(t("ui.review.grading"))}</p>`;
    else if (g.grade === "error") verdict = `<p class="review-grade">${esc(g.error)}</p>`;
    else {
      const better = g.grade === "best" ? "" : ` · ${esc(t("ui.review.better"))} ${label(g.best)}`;
      verdict = `<p class="review-grade" data-grade="${esc(g.grade)}"><span class="grade ${esc(g.grade)}">${esc(t("ui.grade." + g.grade))}</span>${better}</p>`;
    }
  }
  if (st && st.bot) {
    // "Why?" at a bot's move: its own search of its view then (the deal is over)
    const w = R.why[st.i];
    if (!w) verdict = `<p class="review-why"><button type="button" class="ghost" data-why="${st.i}" data-testid="review-why">${esc(t("ui.review.why"))}</button></p>`;
    else if (w.pending) verdict = `<p class="review-why pending">${esc(t("ui.review.thinking"))}</p>`;
    else if (w.error) verdict = `<p class="review-why">${esc(w.error)}</p>`;
    else {
      // a bot below level 3 plays by rules and searches nothing: a level-3 search is shown
      const note = w.bot_level !== undefined && w.bot_level < 3 ? `<p class="review-why-note">${esc(t("ui.review.rulebot"))}</p>` : "";
      verdict = `<div class="review-why" data-testid="review-why-panel">${note}<p class="teach-why">${optionsHTML(w)}</p>${beliefsHTML(w.beliefs, st.seat)}</div>`;
    }
  }
  const who = (s) => esc(seatName(s));
  const labels = Object.fromEntries(["first", "prev", "next", "last"].map((k) => [k, t("ui.review." + k)]));
  const testids = Object.fromEntries(["first", "prev", "next", "last"].map((k) => [k, "review-" + k]));
  box.innerHTML = `<div class="review-head"><b>${esc(t("ui.review.title", { deal: R.deal_no }))}</b>
      <button type="button" class="close" data-review-close aria-label="${esc(t("ui.close_panel"))}">×</button></div>
    <p class="review-summary" data-testid="review-summary">${summary()}</p>
    ${moveHTML(st, R.at, t("ui.review.step", { k: R.at + 1, n }), who, "review-step")}
    ${verdict}${tableHTML(st, who)}
    ${navHTML(R.at, n, "data-step", labels, testids)}`;
}

function step(k) {
  if (!R) return;
  R.at = stepTo(k, R.at, R.steps.length);
  draw();
}

/** Arrow keys, Home, End and Escape while the review is open. */
export function bindReviewKeys() {
  document.addEventListener("keydown", (e) => {
    if (!R) return;
    const k = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (k) { e.preventDefault(); e.stopPropagation(); step(k); } else if (e.key === "Escape") closeReview();
  }, true);
}
