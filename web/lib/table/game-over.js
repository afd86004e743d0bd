// The game-over box: who won, the event that tells how the game ended (S.result, picked by the
// engine), the final points, and "play again" (what it does is given by app.js: the menu opens).

import { suitIcon, esc } from "../../cards.js";
import { el, h, $ } from "../dom.js";
import { S } from "../state.js";
import { t, seatName, joinNames, eventHTML } from "../words.js";
import { walkHTML, linesEvent } from "./score-walk.js";

let playAgain = () => {};

/** Set what "play again" does. */
export function onPlayAgain(fn) { playAgain = fn; }

export function renderGameOver(v) {
  const old = $("[data-testid=game-over]");
  if (!v.is_over) { if (old) (old.closest(".overlay") || old).remove(); return; }
  const w = v.winner;
  let head;
  if (w === S.seat || (Array.isArray(w) && w.includes(S.seat))) head = t("ui.you_win");
  else if (Array.isArray(w)) head = t("ui.winners", { winner: joinNames(w.map(seatName)) });
  else if (typeof w === "number") head = t("ui.winner", { winner: seatName(w) });
  else head = t("ui.game_over");
  const detail = S.result ? `<p class="detail">${eventHTML(S.result)}</p>` : "";
  const names = Array.isArray(w) ? w : (typeof w === "number" ? [w] : []);
  const seats = Array.isArray(v.seats) ? v.seats : [];
  const final = seats.filter((x) => typeof x.points === "number").map((x) =>
    `<span class="${names.includes(x.seat) ? "win" : ""}">${esc(seatName(x.seat))}: ${esc(x.points)} ${esc(t("ui.points"))}</span>`).join("");
  const box = h("div", { class: "gameover", "data-testid": "game-over", role: "dialog", "aria-live": "polite", "data-winner": names.join(",") },
    `<div class="trophy" aria-hidden="true">${suitIcon("H", "big")}${suitIcon("S", "big")}</div><h2>${esc(head)}</h2>
     <p class="winner-name">${esc(t("ui.game_over"))}</p>${detail}${final ? `<div class="final">${final}</div>` : ""}${walkHTML(linesEvent(v.log), v.players)}`);
  const again = h("button", { type: "button", class: "primary", "data-testid": "play-again" }, esc(t("ui.play_again")));
  again.addEventListener("click", () => playAgain());
  box.appendChild(again);
  const wrap = h("div", { class: "overlay" });
  wrap.appendChild(box);
  const oldWrap = old && old.closest(".overlay");
  if (oldWrap) oldWrap.replaceWith(wrap); else el.felt.appendChild(wrap);
}
