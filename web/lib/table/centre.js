// The middle of the table: the trick in play (or the last trick, or the finished deal's final
// trick at the start of a new deal), the trump, the stock and the turned trump card, the piles.

import { back, esc } from "../../cards.js";
import { S } from "../state.js";
import { t, raw, fill, fmtValue, rich, seatName, past } from "../words.js";
import { cardButton, posOf } from "./card.js";

function trickEntry(e, cls = "") {
  const extra = [];
  let second = "";
  if (e.companion) second = `<div class="companion">${cardButton(e.companion)}</div>`;
  if (e.meld) extra.push(fill(raw("with.meld") || "{meld}", { meld: e.meld }, "html"));
  if (e.counts_as) extra.push(fill(raw("with.counts_as") || "= {counts_as}", { counts_as: e.counts_as }, "html"));
  return `<div class="tcard pos-${posOf(e.seat)} ${cls}" data-seat="${e.seat}">
     <div class="tstack">${cardButton(e.card)}${second}</div>
     <div class="tlabel">${esc(seatName(e.seat))}${extra.length ? " · " + extra.join(" · ") : ""}</div></div>`;
}

function takenAttrs(winner, deal, cards) {
  const key = `${deal}|${cards.map((e) => e.seat + ":" + e.card).join(",")}`;
  return ` data-taken="${esc(winner)}" data-taken-key="${esc(key)}"`;
}

/** The centre's HTML; `seen`: the trick's cards already drawn (only newer ones drop in). */
export function renderCenter(v, seen = 0) {
  let trickHTML = "";
  let caption = "";
  let taken = "";                 // a finished trick on show: who took it (motion.js moves it there)
  const trick = Array.isArray(v.trick) ? v.trick : [];
  const d = S.lastDeal;
  if (trick.length) {
    // only the cards new since the last picture drop in
    trickHTML = trick.map((e, i) => trickEntry(e, i >= seen ? "fresh" : "")).join("");
  } else if (v.last_trick && Array.isArray(v.last_trick.cards) && v.last_trick.cards.length) {
    // the trick just finished: its last card is the one new since the last picture
    const cards = v.last_trick.cards;
    const last = seen > 0 && seen === cards.length - 1 ? cards.length - 1 : -1;
    trickHTML = cards.map((e, i) => trickEntry(e, (e.seat === v.last_trick.winner ? "won" : "done") + (i === last ? " fresh" : ""))).join("");
    if (typeof v.last_trick.winner === "number") {
      caption = `<div class="tcaption">${rich("ui.took_trick", { winner: v.last_trick.winner }, v.last_trick.winner)}</div>`;
      taken = takenAttrs(v.last_trick.winner, v.deal_no, v.last_trick.cards);
    }
  } else if (d && d.center && d.new_deal === v.deal_no && !d.dismissed) {
    // a new deal with nothing played yet: the previous deal's final trick stays in sight
    const c = d.center;
    const last = seen > 0 && seen === c.cards.length - 1 ? c.cards.length - 1 : -1;
    trickHTML = past(() => c.cards.map((e, i) => trickEntry(e, (e.seat === c.winner ? "won" : "done") + (i === last ? " fresh" : ""))).join(""));
    caption = `<div class="tcaption">${rich("ui.took_last_trick", { winner: c.winner, deal: d.deal_no }, c.winner)}</div>`;
    if (typeof c.winner === "number") taken = takenAttrs(c.winner, d.deal_no, c.cards);
  }
  const deck = [];
  if (v.trump_card || (typeof v.stock === "number" && v.stock > 0)) {
    const stock = typeof v.stock === "number" && v.stock > 0
      ? `<div class="stockpile">${back("big")}<span class="count">${v.stock}</span></div>` : "";
    const tc = v.trump_card ? `<div class="trumpcard">${cardButton(v.trump_card)}</div>` : "";
    deck.push(`<div class="deck" aria-label="${esc(t("ui.stock"))}">${tc}${stock}</div>
      <div class="decklabel">${typeof v.stock === "number" ? esc(t("ui.stock")) + ": " + esc(t("ui.stock.count", { count: v.stock })) : ""}</div>`);
  }
  for (const p of Array.isArray(v.piles) ? v.piles : []) {
    const label = esc(t("pile." + p.id));
    if (Array.isArray(p.cards)) {
      deck.push(`<div class="pile" data-pile="${esc(p.id)}"><div class="pilelabel">${label}</div><div class="pilecards">${p.cards.map((c) => cardButton(c, { cls: "small" })).join("")}</div></div>`);
    } else {
      const k = Math.min(p.count || 0, 6);
      deck.push(`<div class="pile" data-pile="${esc(p.id)}"><div class="pilelabel">${label}</div><div class="backs">${Array.from({ length: k }, () => back()).join("")}<span class="count">${p.count ?? 0}</span></div></div>`);
    }
  }
  const trump = `<div class="trumpinfo">${esc(t("ui.trump"))}: ${v.trump ? fmtValue("trump", v.trump, "html") : esc(t("ui.no_trump"))}</div>`;
  return `<div class="deckarea">${trump}${deck.join("")}</div>
    <div class="trick" data-testid="trick"${taken} aria-label="${esc(t("ui.trick"))}">${trickHTML}${caption}</div>`;
}
