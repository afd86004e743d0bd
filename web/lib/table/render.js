// Draw the whole table from S.view (the person's view) and the engine's extras in S: the
// header, the seats, the centre, the hand and choices, the status, the side panel, game over.
// The table draws itself when the state changes (initTable() subscribes to the table's part
// and to the page's language and words): the changes of one step are drawn once, on the
// next microtask, before the browser paints.

import { el } from "../dom.js";
import { S, subscribe } from "../state.js";
import { t, gameName, eventHTML, seatName, past } from "../words.js";
import { seatBox } from "./seats.js";
import { renderCenter } from "./centre.js";
import { renderHand } from "./hand.js";
import { renderStatus } from "./status.js";
import { renderSide } from "./side.js";
import { renderGameOver, onPlayAgain } from "./game-over.js";
import { renderAids } from "../aids.js";
import { restoreFocus } from "./keys.js";
import { capture, animate } from "../motion.js";
import { renderPace } from "./pace.js";
import { renderCoach } from "./coach.js";
import { renderLearn } from "./learn.js";
import { lessonOver } from "../play.js";

// what happened, read out to screen readers (#announce, aria-live, in the page's language): the
// events new since the last picture (a bot's card, a trick taken) with the cards' spoken names,
// then whose turn it is
let announced = { gen: -1, deal: null, n: 0, turn: "", text: "" };

// what the last picture showed: the trick's cards (only newer ones drop in) and the deal number
// (a new one lights up); set anew with the table (S.reset: a new game, a resume, an undo)
let drawn = { reset: -1, trick: 0, deal: 0 };

/** The plain text of a sentence's HTML, every card (a chip or a card picture) by its spoken name. */
export function spoken(html) {
  const div = document.createElement("div");
  div.innerHTML = html;
  for (const c of div.querySelectorAll("[role=img][aria-label]")) c.replaceWith(document.createTextNode(c.getAttribute("aria-label")));
  return div.textContent.replace(/\s+/g, " ").trim();
}

function turnText(v) {
  if (v.is_over) return t("ui.game_over");
  if (typeof v.to_move !== "number") return "";
  if (v.to_move === S.seat) {
    const onlyPlays = (v.legal_actions || []).every((a) => a.type === "play");
    return t(onlyPlays ? "ui.your_turn.play" : "ui.your_turn");
  }
  return t("ui.announce.turn", { seat: seatName(v.to_move) });
}

function announce(v) {
  const log = Array.isArray(v.log) ? v.log : [];
  const same = announced.gen === S.gen && announced.deal === v.deal_no && announced.n <= log.length;
  const fresh = same ? log.slice(announced.n) : log.slice(-6);
  const html = [];
  const d = S.lastDeal;
  if (!same && announced.gen === S.gen && d && d.new_deal === v.deal_no) {
    // a new deal: first how the last one ended (its final trick, the result)
    for (const e of [d.trick, ...(d.results || [])]) if (e) { try { html.push(past(() => eventHTML(e))); } catch (_) { /* skip */ } }
  }
  for (const ev of fresh) {
    if (!ev || ev.type === "hand") continue;               // the whole hand: it is on the screen
    try { html.push(eventHTML(ev)); } catch (_) { /* skip */ }
  }
  const turn = turnText(v);
  if (same && !html.length && turn === announced.turn) return;
  const lines = html.map(spoken).filter(Boolean);
  if (turn) lines.push(turn);
  const text = lines.map((x) => (/[.!?…:]$/.test(x) ? x : x + ".")).join(" ");
  announced = { gen: S.gen, deal: v.deal_no, n: log.length, turn, text };
  let node = document.getElementById("announce");
  if (!node) {
    node = document.createElement("div");
    node.id = "announce";
    node.className = "sr-only";
    node.setAttribute("aria-live", "polite");
    node.dataset.testid = "announce";
    document.body.appendChild(node);
  }
  node.setAttribute("lang", S.lang);
  if (text && node.textContent !== text) node.textContent = text;
}

export function render() {
  const v = S.view;
  if (!v) return;
  if (S.reset.n !== drawn.reset) drawn = { reset: S.reset.n, trick: S.reset.seen, deal: 0 };
  const before = capture();             // the old picture, for the cards' moves (motion.js)
  el.table.hidden = false;
  document.body.classList.toggle("playing", true);
  const mine = !v.is_over && v.to_move === S.seat && !S.busy && !lessonOver(v);
  // a lesson's deal is over: the next deal's cards are not for playing (learn.js)
  el.table.classList.toggle("lesson-over", lessonOver(v));
  el.gameTitle.textContent = gameName();
  document.title = `${el.gameTitle.textContent} · Atut`;
  el.dealNo.textContent = v.deal_no ? t("ui.deal", { deal: v.deal_no }) : "";
  const seats = Array.isArray(v.seats) ? v.seats : Array.from({ length: v.players }, (_, s) => ({ seat: s }));
  el.opponents.innerHTML = seats.filter((x) => x.seat !== S.seat).map((x) => seatBox(x, v)).join("");
  el.felt.dataset.players = String(v.players);
  // teaching mode (every hand open): marked on the table itself
  if (S.teach) el.felt.dataset.teach = t("ui.teach.mark");
  else delete el.felt.dataset.teach;
  el.mySeat.innerHTML = seatBox(seats[S.seat] || { seat: S.seat }, v);
  el.center.innerHTML = renderCenter(v, drawn.trick);
  drawn.trick = Array.isArray(v.trick) ? v.trick.length : 0;
  renderHand(v, mine);
  renderStatus(v);
  renderSide(v);
  renderGameOver(v);
  renderAids();
  if (drawn.deal && v.deal_no > drawn.deal && !v.is_over) {
    // a new deal: the deal number in the top bar lights up (#dealNo is aria-live); nothing is
    // laid over the trick or the last trick's caption
    el.dealNo.classList.remove("flash");
    void el.dealNo.offsetWidth;          // restart the animation
    el.dealNo.classList.add("flash");
  }
  drawn.deal = v.deal_no;
  renderPace(v);
  renderCoach(v);
  renderLearn(v);
  animate(before);
  announce(v);
  restoreFocus();
}

// --- drawing on change ------------------------------------------------------------------------

// the table's fields that change no picture: the kept record (counts of the aids used)
const UNDRAWN = new Set(["record"]);
let queued = null;                 // the fields changed since the last picture

function draw() {
  const changed = queued;
  queued = null;
  if (!changed || !S.view) return;
  const fields = [...changed].filter((k) => !UNDRAWN.has(k));
  if (!fields.length) return;
  // why a tapped card cannot be played: the status line only
  if (fields.every((k) => k === "refusal")) renderStatus(S.view);
  else render();
}

/** The changes of one step (several fields set one after the other) are drawn once, on the
 *  next microtask; `now`: at once (a new language: the page reads back in it at once). */
function changed(fields, now = false) {
  if (!queued) { queued = new Set(); if (!now) queueMicrotask(draw); }
  for (const k of fields) queued.add(k);
  if (now) draw();
}

/** Draw the table whenever its state changes; `playAgain`: the game-over box's button. */
export function initTable({ playAgain }) {
  onPlayAgain(playAgain);
  subscribe("table", (fields) => changed(fields));
  subscribe("page", (fields) => { if (fields.has("lang") || fields.has("words")) changed(["lang"], true); });
}
