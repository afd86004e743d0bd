// The person's choices that are not a plain card of the hand: buttons (pass, order up …), rows
// of number buttons (bids), and groups of one card's variants (a card with a meld, a joker with
// its companion).  Each is an enabled control with data-action = the action's canonical JSON.

import { cardSVG, chip, esc, isCard } from "../../cards.js";
import { canonical } from "../canonical.js";
import { raw, fill, fmtValue, pick, actionKeys, actionLabel, tc } from "../words.js";

/** Split the legal actions: plain plays of a hand card (the card is the control), groups of a
 *  card's variants, and the other buttons. */
export function groupActions(legal, hand) {
  const plain = new Map();          // card -> action (a plain play of a card in the hand)
  const groups = new Map();         // "type|card" -> [actions]
  const buttons = [];
  const handSet = new Set(hand);
  for (const a of legal) {
    const keys = Object.keys(a).filter((k) => k !== "type");
    if (a.type === "play" && keys.length === 1 && keys[0] === "card" && handSet.has(a.card) && !plain.has(a.card)) {
      plain.set(a.card, a);
    } else if (typeof a.card === "string" && keys.length > 1) {
      const k = a.type + "|" + a.card;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(a);
    } else {
      buttons.push(a);
    }
  }
  return { plain, groups, buttons };
}

function withLabel(a, mode) {
  const fields = Object.keys(a).filter((k) => k !== "type" && k !== "card").sort();
  return fields.map((f) => {
    const tpl = raw("with." + f);
    return tpl !== undefined ? fill(tpl, a, mode) : `${mode === "html" ? esc(f) : f} ${fmtValue(f, a[f], mode)}`;
  }).join(" + ");
}

function actButton(a, inner, cls = "act") {
  return `<button type="button" class="${cls}" data-action="${esc(canonical(a))}" aria-label="${esc(actionLabel(a, "text"))}">${inner}</button>`;
}

/** The action panel's HTML, and the plain plays and groups for the hand. */
export function renderActions(legal, hand) {
  const { plain, groups, buttons } = groupActions(legal, hand);
  const out = [];
  // many actions of one type that differ only by a number (bids, announcements): one row of
  // number buttons under the type's label
  const byType = new Map();
  for (const a of buttons) {
    const keys = Object.keys(a).filter((k) => k !== "type");
    const numeric = keys.length === 1 && typeof a[keys[0]] === "number";
    const k = numeric ? a.type + "|" + keys[0] : null;
    if (k) { if (!byType.has(k)) byType.set(k, []); byType.get(k).push(a); }
  }
  const rows = new Set([...byType].filter(([, acts]) => acts.length > 4).map(([k]) => k));
  const done = new Set();
  for (const a of buttons) {
    const keys = Object.keys(a).filter((k) => k !== "type");
    const k = keys.length === 1 ? a.type + "|" + keys[0] : null;
    if (k && rows.has(k)) {
      if (done.has(k)) continue;
      done.add(k);
      const acts = byType.get(k);
      const field = keys[0];
      const headTpl = raw("group." + a.type);
      const head = headTpl !== undefined ? fill(headTpl, {}, "html")
        : esc((pick(actionKeys(a)) || a.type).replace(/\s*\{\w+\}\s*/g, " ").trim() || a.type);
      out.push(`<div class="group numbers" data-group-type="${esc(a.type)}"><span class="ghead">${head}</span><span class="gitems">${acts.map((x) => actButton(x, esc(String(x[field])), "act num")).join("")}</span></div>`);
      continue;
    }
    out.push(actButton(a, actionLabel(a, "html")));
  }
  for (const [key, acts] of groups) {
    const [type, card] = [key.slice(0, key.indexOf("|")), acts[0].card];
    const headTpl = raw("group." + type);
    const head = headTpl !== undefined ? fill(headTpl, { card }, "html") : `${esc(type)} ${chip(card, tc)}`;
    const items = acts.map((a) => {
      const fields = Object.keys(a).filter((k) => k !== "type" && k !== "card");
      const aria = esc(actionLabel(a, "text"));
      if (fields.length === 1 && fields[0] === "companion" && isCard(a.companion)) {
        return `<button type="button" class="act cardbtn" data-action="${esc(canonical(a))}" data-card="${esc(a.companion)}" aria-label="${aria}">${cardSVG(a.companion, tc)}</button>`;
      }
      return `<button type="button" class="act" data-action="${esc(canonical(a))}" aria-label="${aria}">${withLabel(a, "html")}</button>`;
    });
    out.push(`<div class="group" data-group-card="${esc(card)}"><span class="ghead">${head}</span><span class="gitems">${items.join("")}</span></div>`);
  }
  return { html: out.join(""), plain, groups };
}
