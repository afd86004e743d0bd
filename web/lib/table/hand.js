// The person's hand: a legal plain play is the card itself (an enabled button with data-action),
// a card with variants opens its group in the action panel (data-options), any other card is a
// picture with data-card only (dimmed on a card turn; tapping it asks why, see play.js).  Also
// the action panel under it, and fitting the cards into the width.

import { cardSVG, cardName, esc } from "../../cards.js";
import { el } from "../dom.js";
import { t, tc } from "../words.js";
import { cardButton } from "./card.js";
import { renderActions } from "./actions.js";

export function renderHand(v, mine) {
  const hand = Array.isArray(v.hand) ? v.hand : [];
  const legal = mine ? v.legal_actions || [] : [];
  const { html, plain, groups } = renderActions(legal, hand);
  const grouped = new Set([...groups.values()].map((acts) => acts[0].card));
  const cardTurn = legal.some((a) => typeof a.card === "string" && hand.includes(a.card));
  const cards = hand.map((c) => {
    if (mine && plain.has(c)) return cardButton(c, { action: plain.get(c) });
    if (mine && grouped.has(c)) {
      return `<button type="button" class="card options" data-card="${esc(c)}" data-options="${esc(c)}" aria-label="${esc(cardName(c, tc) + " — " + t("ui.choose_with"))}">${cardSVG(c, tc)}</button>`;
    }
    return cardButton(c, { cls: mine && cardTurn ? "disabled" : "" });
  });
  el.hand.innerHTML = cards.join("");
  fitHand();
  el.hand.classList.toggle("mine", !!mine);
  el.hand.setAttribute("aria-label", t("ui.hand"));
  el.actions.innerHTML = html;
  el.actions.hidden = !html;
  // choices that are not cards (bids, passes) come before the hand; card choices after it
  el.actions.parentElement.classList.toggle("actions-first", !!html && !cardTurn);
}

/** Overlap the hand's cards (never more than 40%, so each card's middle stays clickable) when
 *  one row would not fit; beyond that, balanced rows of overlapping cards. */
export function fitHand() {
  const cards = [...el.hand.children];
  const n = cards.length;
  el.hand.style.setProperty("--overlap", "0");
  el.hand.style.maxWidth = "";
  for (const c of cards) c.classList.remove("row-start");
  if (n < 2) return;
  const cw = cards[0].getBoundingClientRect().width;
  const cs = getComputedStyle(el.hand);
  const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
  const width = el.hand.clientWidth - pad - 2;
  if (!cw || width <= 0) return;
  const gap = parseFloat(cs.columnGap) || 0;
  let rows = 1;
  let k;
  let overlap;
  for (;;) {
    k = Math.ceil(n / rows);
    const need = k > 1 ? (k * cw + (k - 1) * gap - width) / ((k - 1) * cw) : 0;
    if (need <= 0.4 || k === 1) { overlap = need > 0 ? Math.min(0.4, need + 0.02) : 0; break; }
    rows += 1;
  }
  el.hand.style.setProperty("--overlap", overlap.toFixed(3));
  if (rows > 1) {
    const rowWidth = k * cw - (k - 1) * overlap * cw + (k - 1) * gap;
    el.hand.style.maxWidth = Math.ceil(rowWidth + pad + 4) + "px";
    cards.forEach((c, i) => { if (i % k === 0) c.classList.add("row-start"); });
  }
}
