// Seats named by their place at the table, seen from the person: You, Left,
// Across (Partner in a team game), Right; with five players Far left and Far right; with two
// the Opponent.  The words are in web/i18n/core.js (ui.place.<id>, ui.place.<id>.short); the
// number stays in the seat's data-seat and in the menu's seat choice.  Teams come from the view
// (view.seats[s].team), never from a rule the page knows.

import { S } from "./state.js";

// the places by distance clockwise from the person, per number of players
const PLACES = {
  2: ["you", "opponent"],
  3: ["you", "left", "right"],
  4: ["you", "left", "across", "right"],
  5: ["you", "left", "far_left", "far_right", "right"],
  6: ["you", "left", "far_left", "across", "far_right", "right"],
};

function teamOf(s) {
  const seats = S.view && Array.isArray(S.view.seats) ? S.view.seats : null;
  const x = seats && seats[s];
  return x && x.team !== undefined && x.team !== null ? x.team : null;
}

/** The place id of a seat ("you", "left", "across", "partner", …), or null when the table is
 *  not known (no view yet, a seat outside it). */
export function placeOf(s) {
  const n = S.players;
  if (typeof s !== "number" || !n || s < 0 || s >= n || typeof S.seat !== "number") return null;
  const rel = ((s - S.seat) % n + n) % n;
  const place = (PLACES[n] || [])[rel] || null;
  if (place && place !== "you") {
    const mine = teamOf(S.seat);
    if (mine !== null && teamOf(s) === mine) return "partner";
  }
  return place;
}
