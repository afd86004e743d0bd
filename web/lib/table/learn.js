// Learn to play (docs/PAGE.md "Learn to play"): the guide of a lesson, a panel below the hand
// (never over the cards).  At each step it says what the other players just did (the new
// events of the person's log, in the log's words), what is happening (the phase), what the
// person may do with the rules that govern it (each id a button opening the rules panel, its
// first sentence from web/rules/<game>.<lang>.json), and the suggested move with its reason and
// a button that plays it.  When the lesson's deal is over: the score walk-through (score-walk.js)
// with the scores before and after, "Next lesson" and "Play a real game".  Which phase, which
// rules, which move: all of it comes from Python (op learn_step, atut.learn), from the person's
// own view only; this module only words it.  Read out to screen readers (aria-live).

import { esc } from "../../cards.js";
import { h, el, belowHand } from "../dom.js";
import { S } from "../state.js";
import { t, raw, rich, eventHTML, actionLabel, past, gameName, seatName } from "../words.js";
import { request } from "../worker-client.js";
import { canonical } from "../canonical.js";
import { showError } from "../notice.js";
import { ruleButton, walkHTML } from "./score-walk.js";
import { ruleTexts, ruleWords } from "./coach.js";
import { setLessonGuide, lessonOver } from "../play.js";

const KEEP = 8;                 // the bots' moves told at most (the latest)

let box = null;
let asked = null;               // the view whose step was asked for last
let guided = null;              // the view the lesson's guide belongs to
let said = { key: null, n: 0, lines: [] };   // the others' moves since the person's last one
let drawn = "";

function place() {
  if (box && document.contains(box)) return box;
  box = h("section", { class: "learn", "data-testid": "learn", hidden: "" });
  box.addEventListener("click", (e) => {
    const b = e.target.closest("[data-learn-go]");
    if (b) location.hash = b.dataset.learnGo;
  });
  return belowHand(box);
}

function hide() {
  if (box) { box.hidden = true; box.innerHTML = ""; }
  drawn = "";
}

/** The others' moves since the person's last one: the log's new events in its own words. */
function listen(v) {
  const key = `${S.gen}:${v.deal_no}`;
  const log = Array.isArray(v.log) ? v.log : [];
  if (said.key !== key || said.n > log.length) said = { key, n: 0, lines: [] };
  for (const ev of log.slice(said.n)) {
    if (!ev || ev.type === "hand" || ev.type === "deal") continue;
    if (ev.type === "action" && ev.seat === S.seat) { said.lines = []; continue; }
    let html;
    // (cards of the current deal's log: drawn as the log draws them, data-card and all)
    try { html = eventHTML(ev); } catch (_) { html = ""; }
    if (html) said.lines.push(html);
  }
  said.lines = said.lines.slice(-KEEP);
  said.n = log.length;
}

function rulesHTML(ids) {
  return (ids || []).map((id) => ruleButton(id)).join("");
}

function ruleList(ids) {
  const rows = (ids || []).map((id) => {
    const w = ruleWords(S.game, S.lang, id);
    return `<li data-testid="learn-rule" data-rule="${esc(id)}">${ruleButton(id)} <span class="learn-rule-words">${esc(w)}</span></li>`;
  }).join("");
  return rows ? `<ul class="learn-rules">${rows}</ul>` : "";
}

function reasonHTML(sg) {
  if (sg.reason && sg.reason.key && raw("reason." + sg.reason.key) !== undefined) return rich("reason." + sg.reason.key, sg.reason);
  return esc(t(sg.only ? "ui.learn.why.only" : "ui.learn.why.rules"));
}

/** The suggestion (or whose turn it is) first: on a short screen it is what must be in sight.
 *  {live: what is read out as it changes (the suggestion, the phase, the others' moves), rest:
 *  what the person may do and the rules, read on demand}. */
function stepHTML(g) {
  const now = `<p class="learn-now" data-testid="learn-step" data-phase="${esc(g.phase)}"><b>${esc(t("ui.learn.now"))}</b> ${esc(t("learn.phase." + g.phase))}</p>`;
  if (!g.turn) return { live: `<p class="learn-wait">${esc(t("ui.learn.waiting", { seat: seatName(g.to_move) }))}</p>${now}${botsHTML()}`, rest: "" };
  const sg = g.suggest;
  const key = canonical(sg.action);
  const may = g.may.map((m) => `<li data-kind="${esc(m.kind)}">${esc(t("learn.may." + m.kind, { n: m.n }))}${rulesHTML(m.rules)}</li>`).join("");
  const ids = [...new Set([...g.rules, ...sg.rules])];
  return {
    live: `<div class="learn-suggest" data-testid="learn-suggest" data-suggest="${esc(key)}"><p><b>${esc(t("ui.learn.suggest"))}</b> ${actionLabel(sg.action, "html")}${rulesHTML(sg.rules)}. <span class="learn-reason" data-testid="learn-reason">${reasonHTML(sg)}</span></p>
    <button type="button" class="primary learn-play" data-testid="learn-play" data-action="${esc(key)}" ${S.busy ? "disabled" : ""}>${esc(t("ui.learn.play"))}</button></div>
    ${now}${botsHTML()}`,
    rest: `<div class="learn-may" data-testid="learn-may"><b>${esc(t("ui.learn.may"))}</b><ul>${may}</ul></div>
    <details class="learn-why" data-testid="learn-rules"${short() ? "" : " open"}><summary>${esc(t("ui.learn.rules"))}</summary>${ruleList(ids)}</details>`,
  };
}

/** The others' moves since the person's last one. */
function botsHTML() {
  if (!said.lines.length) return "";
  return `<div class="learn-bots" data-testid="learn-bots"><b>${esc(t("ui.learn.bots"))}</b><ul>${said.lines.map((x) => `<li data-testid="learn-bot">${x}</li>`).join("")}</ul></div>`;
}

// a wide screen up to full HD: the rules' sentences folded (their ids stay), as the coach does
const short = () => window.matchMedia("(min-width: 761px) and (max-height: 1100px)").matches;

function endHTML(g, v) {
  const end = g.end || {};
  const ev = end.event;
  const n = v.players;
  const after = end.after || v.scores;
  const before = end.before || after.map(() => 0);
  const rows = Array.from({ length: n }, (_, s) => `<li data-testid="learn-score" data-seat="${s}" data-before="${esc(before[s])}" data-after="${esc(after[s])}">${esc(seatName(s))}: ${esc(before[s])} → <b>${esc(after[s])}</b></li>`).join("");
  const L = S.lesson;
  const info = g.lesson;
  const next = info.number + 1 < info.count
    ? `<button type="button" class="primary" data-testid="learn-next" data-learn-go="${esc(`learn=${L.game}&lesson=${info.number + 1}&lang=${S.lang}`)}">${esc(t("ui.learn.next"))}</button>` : "";
  const real = `<button type="button" class="${next ? "ghost" : "primary"}" data-testid="learn-real" data-learn-go="${esc(`game=${L.game}&players=${n}&lang=${S.lang}`)}">${esc(t("ui.learn.real"))}</button>`;
  return `<div class="learn-end" data-testid="learn-end"><p class="learn-now" data-testid="learn-step" data-phase="over"><b>${esc(t("ui.learn.done"))}</b> ${esc(t("learn.phase.over"))}${rulesHTML(g.score_rules)}</p>
    ${ev ? past(() => walkHTML(ev, n)) : ""}
    <div class="learn-scores"><b>${esc(t("ui.learn.scores"))}</b><ul>${rows}</ul></div>
    <div class="learn-buttons">${next}${real}</div></div>`;
}

function draw(v) {
  const L = S.lesson;
  const g = guided === v ? L.guide : null;
  const info = (g || L.guide || {}).lesson || { id: "", number: L.number, count: 1 };
  const head = `<h2 class="learn-title"><span class="learn-badge">${esc(t("ui.learn.title"))}</span> ${esc(gameName())} · ${esc(t("ui.learn.lesson", { n: info.number + 1, count: info.count }))}</h2>`;
  // what the lesson shows: open until the person's first move, then folded
  const moved = (v.log || []).some((e) => e && e.type === "action" && e.seat === S.seat) || v.deal_no !== L.deal_no;
  const words = info.id ? `${esc(t("learn.lesson." + info.id))}${rulesHTML((L.guide || {}).count_rules)}` : "";
  const intro = !words ? "" : moved
    ? `<details class="learn-about"><summary>${esc(t("ui.learn.about"))}</summary><p class="learn-intro" data-testid="learn-intro">${words}</p></details>`
    : `<p class="learn-intro" data-testid="learn-intro">${words}</p>`;
  let body = { live: `<p class="learn-wait">${esc(t("ui.learn.thinking"))}</p>`, rest: "" };
  if (g) body = g.done ? { live: endHTML(g, v), rest: "" } : stepHTML(g);
  const html = `${head}<div class="learn-live" aria-live="polite" role="status">${body.live}</div>${body.rest}${intro}`;
  if (html === drawn) return;
  drawn = html;
  box.innerHTML = html;
  box.setAttribute("lang", S.lang);
  box.setAttribute("aria-label", t("ui.learn.title"));
  box.dataset.phase = g ? g.phase : "";
  box.dataset.done = g && g.done ? "1" : "";
  box.hidden = false;
  // the table scrolls inside its board (a wide screen): the suggestion or the end is brought
  // into sight; the cards of the hand stay above it
  const board = box.parentNode;
  const target = box.querySelector("[data-testid=learn-play], [data-testid=learn-end]");
  if (target && board && board.scrollHeight > board.clientHeight && getComputedStyle(board).overflowY === "auto") {
    const b = board.getBoundingClientRect();
    const r = target.getBoundingClientRect();
    if (r.bottom > b.bottom) board.scrollTop += Math.min(r.bottom - b.bottom + 8, r.top - b.top);
  }
}

async function ask(v) {
  const gen = S.gen;
  let g;
  try {
    g = await request("learn_step");
  } catch (err) {
    if (gen === S.gen) showError(t("ui.engine_error", { message: err.message }));
    return;
  }
  if (gen !== S.gen || S.view !== v || !S.lesson) return;
  guided = v;
  setLessonGuide(g);                   // the table redraws itself (render.js)
}

/** After each picture of the table: the guide of the lesson on show (none without one). */
export function renderLearn(v) {
  if (!v || !S.lesson) { hide(); return; }
  place();
  if (!lessonOver(v) || !said.key) listen(v);
  // the rules' words: drawn again once loaded (coach.js keeps them)
  const loading = ruleTexts(S.game, S.lang);
  if (loading instanceof Promise) loading.then(() => { drawn = ""; if (S.view && S.lesson) draw(S.view); });
  if (asked !== v) { asked = v; ask(v); }
  draw(v);
  // the suggested move is marked on the table too (as a hint's is: aids.js)
  const g = guided === v ? S.lesson.guide : null;
  const key = g && g.turn && g.suggest ? canonical(g.suggest.action) : null;
  for (const b of document.querySelectorAll("#table [data-action]")) {
    if (key && b.dataset.action === key && !b.closest("[data-testid=learn]")) b.classList.add("hinted");
  }
  // the lesson's deal is over: the status line says so (the next deal is not played)
  if (lessonOver(v) && el.status) el.status.textContent = t("ui.learn.done");
}
