// Draw the whole table from S.view (the person's view) and the engine's extras in S: the
// header, the seats, the centre, the hand and choices, the status, the side panel, game over.

import { el } from "../dom.js";
import { S } from "../state.js";
import { t, gameName, eventHTML } from "../words.js";
import { seatBox } from "./seats.js";
import { renderCenter } from "./centre.js";
import { renderHand } from "./hand.js";
import { renderStatus } from "./status.js";
import { renderSide } from "./side.js";
import { renderGameOver } from "./game-over.js";
import { renderAids } from "../aids.js";
import { restoreFocus } from "./keys.js";

// what happened last, read out to screen readers (#announce, aria-live): a bot's move, a trick
let announced = "";
function announce(v) {
  const log = Array.isArray(v.log) ? v.log : [];
  if (!log.length) return;
  let text;
  try {
    const div = document.createElement("div");
    div.innerHTML = eventHTML(log[log.length - 1]);
    text = div.textContent.trim();
  } catch (_) { return; }
  const key = `${v.deal_no}|${log.length}|${text}`;
  if (key === announced) return;
  announced = key;
  let node = document.getElementById("announce");
  if (!node) {
    node = document.createElement("div");
    node.id = "announce";
    node.className = "sr-only";
    node.setAttribute("aria-live", "polite");
    node.dataset.testid = "announce";
    document.body.appendChild(node);
  }
  node.textContent = text;
}

export function render() {
  const v = S.view;
  if (!v) return;
  el.table.hidden = false;
  document.body.classList.toggle("playing", true);
  const mine = !v.is_over && v.to_move === S.seat && !S.busy;
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
  el.center.innerHTML = renderCenter(v);
  renderHand(v, mine);
  renderStatus(v);
  renderSide(v);
  renderGameOver(v);
  renderAids();
  if (S.shownDeal && v.deal_no > S.shownDeal && !v.is_over) {
    // a new deal: the deal number in the top bar lights up (#dealNo is aria-live); nothing is
    // laid over the trick or the last trick's caption
    el.dealNo.classList.remove("flash");
    void el.dealNo.offsetWidth;          // restart the animation
    el.dealNo.classList.add("flash");
  }
  S.shownDeal = v.deal_no;
  announce(v);
  restoreFocus();
}
