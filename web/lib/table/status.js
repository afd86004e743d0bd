// The status line above the hand: whose turn it is, the phase, and why the card the person
// tapped cannot be played (S.refusal: in English the engine's reason, in other languages a
// sentence naming the rule id, so that no text appears in one language only).

import { esc } from "../../cards.js";
import { el } from "../dom.js";
import { S } from "../state.js";
import { t, raw, seatName } from "../words.js";
import { statusFor } from "./outside.js";

function refusalHTML(r) {
  const text = t(r.rule ? "ui.refused.rule" : "ui.refused", { rule: r.rule || "", reason: r.reason || "" });
  return `<span class="refusal" data-testid="refusal" role="alert" data-refused-card="${esc(r.card)}"${r.rule ? ` data-rule="${esc(r.rule)}" data-open-rule="${esc(r.rule)}"` : ""} title="${esc(r.rule ? text + " — " + t("ui.rules.open_rule", { rule: r.rule }) : text)}">${esc(text)}</span>`;
}

export function renderStatus(v) {
  let text;
  let cls = "";
  const told = statusFor(v);           // watching a student's bot (lab/table.js)
  if (told) ({ text, cls } = told);
  else if (v.is_over) { text = t("ui.game_over"); cls = "over"; }
  else if (v.to_move === S.seat) {
    const onlyPlays = (v.legal_actions || []).every((a) => a.type === "play");
    text = t(onlyPlays ? "ui.your_turn.play" : "ui.your_turn"); cls = "mine";
  } else if (typeof v.to_move === "number") { text = t("ui.thinking", { seat: seatName(v.to_move) }); cls = "bot"; }
  else text = "";
  const phase = raw("phase." + v.phase);
  const refusal = S.refusal && !v.is_over && v.to_move === S.seat ? refusalHTML(S.refusal) : "";
  el.status.className = "status " + cls + (refusal ? " refused" : "");
  el.status.innerHTML = `<span class="msg">${esc(text)}</span>${phase !== undefined && !v.is_over ? `<span class="phase">${esc(phase)}</span>` : ""}${refusal}`;
}
