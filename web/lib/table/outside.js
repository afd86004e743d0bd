// A student's bot seated at the table (lab/table.js seats it, play.js keeps it in S.outside):
// the tag of the seats it plays (table/seats.js) and the status line while the person watches
// it play their seat (table/status.js).

import { S } from "../state.js";
import { t } from "../words.js";

export const FALLBACK_LEVEL = 2;            // the level that plays the bot's seats once it fails

/** The bot seated in the game now on the table, or null. */
export function liveBot() {
  const b = S.outside;
  return b && b.gen === S.gen ? b : null;
}

/** The tag of a seat the bot sits in: its name, or after a failure the level that plays it;
 *  null for any other seat. */
export function seatTag(s) {
  const b = liveBot();
  const name = b && b.seats[s];
  if (!name) return null;
  const text = b.fallen ? t("lab.table.seat_fallen", { name, level: FALLBACK_LEVEL }) : t("lab.table.seat_bot", { name });
  return { name, text, fallen: !!b.fallen };
}

/** Watching: at the person's seat the bot thinks, it is not "your move"; null otherwise. */
export function statusFor(v) {
  const b = liveBot();
  if (!b || b.mode !== "watch" || !v || v.is_over || v.to_move !== S.seat) return null;
  return { text: t("lab.table.watch_thinking", { name: b.fallen ? t("lab.table.level2") : b.name }), cls: "bot" };
}
