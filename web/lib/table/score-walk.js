// The score walk-through: how a finished deal scored, one line per score line the engine gave
// (the deal-end event's "lines", docs/ENGINE.md): the line's words (`line.<key>` in
// web/i18n/<game>.js) filled with its numbers, its rule id as a button that opens the rules
// panel at that rule (rules.js: [data-open-rule]), what it adds to the score, and per seat the
// deal's total (the lines' sum: the change of the scores shown).  The page knows no rule: the
// lines, their rule ids and their numbers all come from Python.

import { esc } from "../../cards.js";
import { t, rich, seatName } from "../words.js";

/** The event of a deal's log that carries its score lines (the last one), or null. */
export function linesEvent(events) {
  const list = Array.isArray(events) ? events : [];
  for (let i = list.length - 1; i >= 0; i--) {
    const e = list[i];
    if (e && Array.isArray(e.lines) && e.lines.length) return e;
  }
  return null;
}

/** A rule id as a small button opening the rules panel at it. */
export function ruleButton(rule, key = "ui.walk.rule") {
  const label = t(key, { rule });
  return `<button type="button" class="rid-btn" data-open-rule="${esc(rule)}" data-testid="rule-id" title="${esc(label)}" aria-label="${esc(label)}">${esc(rule)}</button>`;
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function lineHTML(line) {
  const seats = Array.isArray(line.seats) ? line.seats : [];
  const params = { ...(line.args || {}), seat: seats.length === 1 ? seats[0] : seats };
  const scored = typeof line.score === "number";
  const words = rich(`line.${line.key}`, params);
  return `<li class="walk-line${scored ? " scored" : ""}" data-testid="walk-line" data-key="${esc(line.key)}" data-rule="${esc(line.rule)}" data-seats="${esc(seats.join(","))}"${scored ? ` data-score="${esc(line.score)}"` : ""}>
    <span class="walk-words">${words}</span>${ruleButton(line.rule)}${scored ? `<b class="walk-score">${esc(signed(line.score))}</b>` : ""}</li>`;
}

/** The walk-through of a deal-end event as HTML ("" without lines). */
export function walkHTML(ev, players) {
  if (!ev || !Array.isArray(ev.lines) || !ev.lines.length) return "";
  const sums = Array.from({ length: players }, () => 0);
  for (const line of ev.lines) {
    if (typeof line.score !== "number") continue;
    for (const s of line.seats || []) if (s >= 0 && s < players) sums[s] += line.score;
  }
  const totals = sums.map((n, s) => `<span class="walk-total" data-testid="walk-total" data-seat="${s}" data-total="${n}">${esc(seatName(s))}: <b>${esc(signed(n))}</b></span>`).join("");
  return `<div class="scorewalk" data-testid="score-walk" data-rule="${esc(ev.rule || "")}">
    <h3>${esc(t("ui.walk.title"))}${ev.rule ? ruleButton(ev.rule) : ""}</h3>
    <ol class="walk-lines">${ev.lines.map(lineHTML).join("")}</ol>
    <div class="walk-totals"><span class="walk-head">${esc(t("ui.walk.total"))}:</span> ${totals}</div></div>`;
}
