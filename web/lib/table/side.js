// The side panel: the scores, the finished deal ("last deal", items from the engine), the
// summary, the last trick, the score sheet and the deal's log.

import { chip, esc } from "../../cards.js";
import { el, $ } from "../dom.js";
import { S } from "../state.js";
import { t, raw, tc, seatName, seatShort, eventHTML, summaryHTML, past } from "../words.js";
import { walkHTML, linesEvent, ruleButton } from "./score-walk.js";

function renderScores(v) {
  const seats = Array.isArray(v.seats) ? v.seats : null;
  const rows = (v.scores || []).map((sc, s) => {
    const info = seats && seats[s];
    const pts = info && Object.prototype.hasOwnProperty.call(info, "points")
      ? `<td class="pts">${info.points === null || info.points === undefined ? "?" : esc(info.points)}</td>` : "";
    const win = v.is_over && (v.winner === s || (Array.isArray(v.winner) && v.winner.includes(s)));
    return `<tr class="${s === S.seat ? "me" : ""}${win ? " win" : ""}${v.to_move === s ? " turn" : ""}"><th scope="row">${esc(seatName(s))}</th>${pts}<td class="score">${esc(sc)}</td></tr>`;
  });
  const showPts = seats && seats.some((x) => Object.prototype.hasOwnProperty.call(x, "points"));
  const target = typeof v.target === "number" ? `<div class="target">${esc(t("target", { target: v.target }))}</div>` : "";
  el.scores.innerHTML = `<h2>${esc(t("ui.scores"))}</h2>${target}
    <table><thead><tr><th></th>${showPts ? `<th>${esc(t("ui.points_col"))}</th>` : ""}<th>${esc(t("ui.score"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function lastDealPanel(v) {
  const d = S.lastDeal;
  if (!d || d.dismissed || v.is_over) return "";
  const lines = [];
  if (d.trick) lines.push(`<li>${past(() => eventHTML(d.trick))}</li>`);
  for (const e of d.results) {
    try { lines.push(`<li>${past(() => eventHTML(e))}</li>`); } catch (_) { /* skip */ }
  }
  const scores = d.scores_after.map((sc, s) => {
    const was = d.scores_before[s];
    return `<span class="${s === S.seat ? "me" : ""}">${esc(seatName(s))}: ${was !== undefined && was !== sc ? `${esc(was)} → ` : ""}<b>${esc(sc)}</b></span>`;
  }).join("");
  return `<section class="panel lastdeal" data-testid="last-deal" aria-live="polite"><h2>${esc(t("ui.last_deal", { deal: d.deal_no }))}
      <button type="button" class="dismiss" data-testid="last-deal-close" title="${esc(t("ui.close_panel"))}" aria-label="${esc(t("ui.close_panel"))}">×</button></h2>
    <ul>${lines.join("")}</ul><div class="dealscores">${scores}</div>${past(() => walkHTML(linesEvent([d.trick, ...d.results]), v.players))}</section>`;
}

function scoreSheet(sheet) {
  // short headings (the full name is the title) so that the sheet fits the side panel
  const cols = sheet.columns.map((c) => {
    const full = typeof c === "number" ? seatName(c) : t("column." + c);
    const short = typeof c === "number" ? seatShort(c)
      : (raw(`column.${c}.short`) ?? full);
    return `<th scope="col" title="${esc(full)}"${short !== full ? ` aria-label="${esc(full)}"` : ""}>${esc(short)}</th>`;
  }).join("");
  const rows = (sheet.rows || []).map((r) => `<tr>${(r || []).map((c) => `<td>${c === null || c === undefined ? "" : esc(typeof c === "object" ? JSON.stringify(c) : c)}</td>`).join("")}</tr>`).join("");
  return `<section class="panel sheet"><h2>${esc(t("ui.score_sheet"))}</h2><div class="scroll"><table><thead><tr>${cols}</tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

export function renderSide(v) {
  renderScores(v);
  const parts = [lastDealPanel(v)];
  if (Array.isArray(v.summary) && v.summary.length) {
    parts.push(`<section class="panel summary"><h2>${esc(t("ui.summary"))}</h2><ul>${v.summary.map((s) => `<li>${summaryHTML(s)}</li>`).join("")}</ul></section>`);
  }
  if (v.last_trick && Array.isArray(v.last_trick.cards) && v.last_trick.cards.length) {
    parts.push(`<section class="panel lasttrick"><h2>${esc(t("ui.last_trick"))}</h2><div class="mini">${v.last_trick.cards.map((e) =>
      `<span class="lt${e.seat === v.last_trick.winner ? " won" : ""}">${chip(e.card, tc)}${e.companion ? chip(e.companion, tc) : ""}<small>${esc(seatName(e.seat))}</small></span>`).join("")}</div></section>`);
  }
  if (v.score_sheet && Array.isArray(v.score_sheet.columns)) parts.push(scoreSheet(v.score_sheet));
  const log = Array.isArray(v.log) ? v.log : [];
  parts.push(`<section class="panel log"><h2>${esc(t("ui.log"))}</h2><ol class="loglist">${log.map((ev) => {
    // an event a rule produced names it: a button opening the rules at it
    const why = ev && typeof ev.rule === "string" ? ruleButton(ev.rule, "ui.walk.event_rule") : "";
    try { return `<li>${eventHTML(ev)}${why}</li>`; } catch (_) { return `<li>${esc(JSON.stringify(ev))}</li>`; }
  }).join("")}</ol></section>`);
  el.sideRest.innerHTML = parts.join("");
  const list = $(".loglist", el.sideRest);
  if (list) list.scrollTop = list.scrollHeight;
}
