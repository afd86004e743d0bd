// A bot's analysis drawn for the person (atut.analyse: the values of its options and what it
// believed): beside each bot's move in teaching mode (aids.js), and in the deal's review once
// the deal is over, "Why?" at a bot's move (review.js).  Never during a deal outside teaching
// mode: it would tell the person about the bot's cards.

import { esc, chip, suitIcon } from "../cards.js";
import { canonical } from "./canonical.js";
import { t, tc, actionLabel, seatName } from "./words.js";

const num = (x) => (typeof x === "number" ? x.toFixed(Math.abs(x) >= 10 ? 1 : 2) : "–");
const LIKELY = 4;                  // the most likely cards shown per seat believed about

/** What a bot believed about the other seats when it chose its move (analyse()["beliefs"]):
 *  per seat, the cards it surely holds, the suits it is void in, the most likely other cards
 *  with their share of the samples. */
export function beliefsHTML(beliefs, s) {
  const rows = Object.keys(beliefs || {}).map(Number).sort((a, b) => a - b).map((o) => {
    const b = beliefs[String(o)] || {};
    if (!Object.keys(b.p || {}).length) return "";     // a seat with no cards (sitting out)
    const holds = b.holds || [];
    const sure = new Set(holds);
    const likely = Object.entries(b.p || {}).filter(([c, p]) => !sure.has(c) && p > 0)
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, LIKELY);
    const parts = [];
    if (holds.length) parts.push(`<span class="bel-sure">${esc(t("ui.teach.sure"))} ${holds.map((c) => chip(c, tc)).join(" ")}</span>`);
    if ((b.void || []).length) parts.push(`<span class="bel-void">${esc(t("ui.teach.void"))} ${b.void.map((u) => `<span class="bel-suit" role="img" aria-label="${esc(t("suit." + u))}">${suitIcon(u)}</span>`).join(" ")}</span>`);
    if (likely.length) parts.push(`<span class="bel-likely">${esc(t("ui.teach.likely"))} ${likely.map(([c, p]) => `<span class="bel-card">${chip(c, tc)}<small>${Math.round(p * 100)}%</small></span>`).join(" ")}</span>`);
    if (!parts.length) parts.push(`<span class="bel-none">${esc(t("ui.teach.nothing"))}</span>`);
    return `<li data-about="${o}"><b>${esc(seatName(o))}:</b> ${parts.join(" · ")}</li>`;
  }).join("");
  if (!rows) return "";
  return `<div class="teach-beliefs" data-testid="teach-beliefs" data-seat="${s}"><span class="teach-k">${esc(t("ui.teach.believed"))}</span><ul>${rows}</ul></div>`;
}

/** The analysis' options, best first (up to four, then how many more), the best marked. */
export function optionsHTML(note, max = 4) {
  const best = canonical(note.best);
  const top = note.actions.slice(0, max).map((a) => `<span class="teach-opt${canonical(a.action) === best ? " best" : ""}">${actionLabel(a.action, "html")} <b>${esc(num(a.value))}</b></span>`).join(" ");
  const more = note.actions.length > max ? ` <span class="teach-more">+${note.actions.length - max}</span>` : "";
  return `<span class="teach-k">${esc(t("ui.teach.options"))}</span> ${top}${more}`;
}
