// Each player's place at the table: name, dealer mark, bot level, card backs, tricks, points,
// bid, team, badges (view.seats), and the "thinking" dots of the bot to move.

import { back, esc } from "../../cards.js";
import { S } from "../state.js";
import { t, seatName, fmtValue } from "../words.js";
import { posOf } from "./card.js";
import { placeOf } from "../seat-names.js";
import { seatTag } from "./outside.js";

function levelOf(seat) {
  const others = [];
  for (let s = 0; s < S.players; s++) if (s !== S.seat) others.push(s);
  return S.levels[others.indexOf(seat)];
}

export function seatBox(seatInfo, v) {
  const s = seatInfo.seat;
  const me = s === S.seat;
  const toMove = v.to_move === s && !v.is_over;
  const stats = [];
  if (typeof seatInfo.tricks === "number") stats.push(`<span class="stat">${esc(t("ui.tricks"))} <b>${seatInfo.tricks}</b></span>`);
  if (Object.prototype.hasOwnProperty.call(seatInfo, "points")) {
    const pts = seatInfo.points === null || seatInfo.points === undefined ? t("ui.points_hidden") : String(seatInfo.points);
    stats.push(`<span class="stat">${esc(t("ui.points_col"))} <b>${esc(pts)}</b></span>`);
  }
  if (seatInfo.bid !== undefined && seatInfo.bid !== null) stats.push(`<span class="stat">${esc(t("ui.bid", { bid: fmtValue("bid", seatInfo.bid, "text") }))}</span>`);
  if (seatInfo.team !== undefined && seatInfo.team !== null) stats.push(`<span class="stat">${esc(t("ui.team", { team: seatInfo.team }))}</span>`);
  for (const b of seatInfo.badges || []) stats.push(`<span class="badge">${esc(t("badge." + b))}</span>`);
  if (seatInfo.sitting_out) stats.push(`<span class="badge out-badge" data-testid="sitting-out">${esc(t("ui.sitting_out"))}</span>`);
  let backs = "";
  if (!me && typeof seatInfo.cards === "number") {
    const k = Math.min(seatInfo.cards, 12);
    backs = `<div class="backs" aria-label="${esc(seatInfo.cards + " " + t("ui.cards"))}">${Array.from({ length: k }, () => back()).join("")}<span class="count">${seatInfo.cards}</span></div>`;
  }
  const dealer = v.dealer === s ? `<span class="dealer" title="${esc(t("ui.dealer"))}" aria-label="${esc(t("ui.dealer"))}">${esc(t("ui.dealer.short"))}</span>` : "";
  const tag = seatTag(s);              // a student's bot sits here (lab/table.js)
  const lvl = tag ? `<span class="lvl seat-bot${tag.fallen ? " fallen" : ""}" data-testid="seat-bot" data-bot="${esc(tag.name)}">${esc(tag.text)}</span>`
    : me ? "" : `<span class="lvl">${esc(t("ui.bot", { level: levelOf(s) ?? "?" }))}</span>`;
  const thinking = toMove && !me ? `<div class="thinking"><span class="dots"><i></i><i></i><i></i></span></div>` : "";
  const place = placeOf(s);
  return `<div class="seat pos-${posOf(s)}${me ? " me" : ""}${toMove ? " to-move" : ""}${seatInfo.sitting_out ? " out" : ""}${place === "partner" ? " partner" : ""}" data-seat="${s}" data-place="${esc(place || "")}">
    <div class="seat-head"><span class="name" title="${esc(t("ui.place.seat", { n: s }))}">${esc(seatName(s))}</span>${dealer}${lvl}</div>
    ${backs}<div class="stats">${stats.join("")}</div>${thinking}</div>`;
}
