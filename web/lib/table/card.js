// One card on the table: an enabled button when it is a legal action (data-action), otherwise a
// picture with data-card (a card of the current view) or, inside past(), without it (a card of a
// finished deal).  Also where each seat sits around the table.

import { cardSVG, cardName, esc } from "../../cards.js";
import { canonical } from "../canonical.js";
import { S } from "../state.js";
import { tc, isPast } from "../words.js";

export function cardButton(code, { action = null, cls = "", label = null } = {}) {
  const name = esc(label || cardName(code, tc));
  if (isPast() && !action) {
    return `<span class="card past ${cls}" data-past-card="" role="img" aria-label="${name}">${cardSVG(code, tc)}</span>`;
  }
  if (action) {
    return `<button type="button" class="card legal ${cls}" data-card="${esc(code)}" data-action="${esc(canonical(action))}" aria-label="${name}">${cardSVG(code, tc)}</button>`;
  }
  return `<span class="card ${cls}" data-card="${esc(code)}" role="img" aria-label="${name}">${cardSVG(code, tc)}</span>`;
}

const POSITIONS = {
  2: ["me", "top"],
  3: ["me", "left", "right"],
  4: ["me", "left", "top", "right"],
  5: ["me", "left", "tl", "tr", "right"],
  6: ["me", "left", "tl", "top", "tr", "right"],
};

/** The place of a seat around the table, the person at the bottom ("me"). */
export function posOf(seat) {
  const n = S.players;
  const rel = ((seat - S.seat) % n + n) % n;
  const table = POSITIONS[n] || POSITIONS[4];
  return table[rel] || "top";
}
