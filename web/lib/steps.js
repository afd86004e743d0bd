// One step of a finished deal with every hand open, as HTML: the move, the trick on the table,
// every hand, and the four step buttons.  The deal review (review.js) and a tournament game's
// review (lab/tournament.js) draw their steps with it; each brings its own words, seat names
// and button attribute.  Every card here is of a finished deal: drawn as a past card.

import { chip, esc } from "../cards.js";
import { t, tc, actionLabel, past } from "./words.js";

const card = (code) => chip(code, tc, true);

/** "Step k of n: <seat> — <action>", or "" when there is no step. `who(seat)` is HTML. */
export function moveHTML(st, at, stepText, who, testid = "") {
  if (!st) return "";
  const id = testid ? ` data-testid="${testid}"` : "";
  return `<p class="review-move"${id} data-step-index="${at}">${esc(stepText)}: <b>${who(st.seat)}</b> — ${past(() => actionLabel(st.action, "html"))}</p>`;
}

/** The trick on the table and every hand, the seat to move marked. */
export function tableHTML(st, who) {
  if (!st) return "";
  const trick = st.trick.length ? `<div class="review-trick">${esc(t("ui.review.trick"))} ${st.trick.map((x) => (x && x.card ? card(x.card) : "")).join(" ")}</div>` : "";
  const hands = st.hands.map((cs, s) => `<div class="review-hand${s === st.seat ? " on" : ""}"><b>${who(s)}</b> ${cs.map(card).join(" ")}</div>`).join("");
  return `${trick}<div class="review-hands">${hands}</div>`;
}

/** First, previous, next and last: buttons carrying `attr`="first" (and so on), each with its
 * label (`labels.first`...) and, where given, its test id (`testids.first`...). */
export function navHTML(at, n, attr, labels, testids = {}) {
  const btn = (k, text, off) => `<button type="button" class="ghost" ${attr}="${k}" aria-label="${esc(labels[k])}"${testids[k] ? ` data-testid="${testids[k]}"` : ""}${off ? " disabled" : ""}>${text}</button>`;
  return `<div class="review-nav">${btn("first", "|◀", at === 0)}${btn("prev", "◀", at === 0)}${btn("next", "▶", at >= n - 1)}${btn("last", "▶|", at >= n - 1)}</div>`;
}

/** The step a key or button names, from `at` among `n` steps. */
export function stepTo(k, at, n) {
  const last = Math.max(0, n - 1);
  return k === "first" ? 0 : k === "last" ? last : k === "prev" ? Math.max(0, at - 1) : Math.min(last, at + 1);
}
