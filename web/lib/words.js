// Words: t() and the rich (HTML) text of values, events, actions and summary items, all from
// web/i18n.  Which sentence an event gets is chosen by its type and fields (words, not rules):
// event.<type>, event.action.<type>+<fields>, with ".you" variants for the person.

import { lookup, fillText } from "../i18n.js";
import { chip, cardName, suitIcon, esc, isCard, SUITS } from "../cards.js";
import { S } from "./state.js";
import { placeOf } from "./seat-names.js";

const SEAT_KEYS = new Set(["seat", "winner", "winners", "leader", "dealer", "to", "from", "player",
  "declarer", "maker", "partner", "caller", "taker", "loser", "seats", "out", "sitting_out"]);

// while true, cards are drawn without data-card: they belong to a finished deal (the "last deal"
// panel), and data-card marks only cards of the current view
let pastCards = false;
export function past(fn) {
  pastCards = true;
  try { return fn(); } finally { pastCards = false; }
}
export const isPast = () => pastCards;

/** The raw template of a key (current language, then English), or undefined. */
export const raw = (key, game = S.game) => lookup(key, S.lang, game);

/** Plain text of a key with plain parameters. */
export function t(key, params = {}, game = S.game) {
  const tpl = raw(key, game);
  return fillText(tpl === undefined ? key : tpl, params);
}
export const tc = (key, params) => t(key, params);     // for cards.js (current game's words)

/** The current game's name. */
export const gameName = (game = S.game) => (t("name", {}, game) !== "name" ? t("name", {}, game) : t("game." + game));

export function seatName(s, mid = false) {
  if (typeof s !== "number") return String(s);
  if (s === S.seat && S.view) {
    // "you" inside a sentence (English); a language without ui.you.mid keeps ui.you
    const m = mid ? raw("ui.you.mid") : undefined;
    return m !== undefined ? m : t("ui.you");
  }
  // the others by their place at the table (Left, Across, Partner, Right …: lib/seat-names.js)
  const place = S.view ? placeOf(s) : null;
  if (place && place !== "you" && raw("ui.place." + place) !== undefined) return t("ui.place." + place);
  return t("ui.seat", { n: s });
}

/** A seat's short name (score sheet headings). */
export function seatShort(s) {
  if (s === S.seat) return t("ui.you.short");
  const place = S.view ? placeOf(s) : null;
  if (place && raw("ui.place." + place) !== undefined) {
    const short = raw(`ui.place.${place}.short`);
    return short !== undefined ? short : t("ui.place." + place);
  }
  return t("ui.seat.short", { n: s });
}

export function joinNames(list) {
  if (list.length <= 1) return list.join("");
  return list.slice(0, -1).join(", ") + t("ui.and") + list[list.length - 1];
}

/** A parameter value as HTML (mode "html") or text (mode "text"); `mid`: the value stands
 *  inside a sentence, not at its start. */
export function fmtValue(name, v, mode, mid = false) {
  const H = mode === "html";
  if (v === null || v === undefined) return "–";
  if (SEAT_KEYS.has(name)) {
    if (typeof v === "number") return H ? `<b class="who">${esc(seatName(v, mid))}</b>` : seatName(v, mid);
    if (Array.isArray(v) && v.every((x) => typeof x === "number")) {
      const s = joinNames(v.map((x, i) => seatName(x, mid || i > 0)));
      return H ? `<b class="who">${esc(s)}</b>` : s;
    }
  }
  if (typeof v === "string") {
    if (isCard(v)) return H ? chip(v, tc, pastCards) : cardName(v, tc);
    if ((name === "suit" || name === "trump") && SUITS.includes(v)) {
      return H ? `<span class="suitname">${suitIcon(v)}${esc(t("suit." + v))}</span>` : t("suit." + v);
    }
    const k = raw(`${name}.${v}`);
    const s = k !== undefined ? k : v;
    return H ? esc(s) : s;
  }
  if (typeof v === "boolean") return t(v ? "ui.yes" : "ui.no");
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) {
    if (v.length && v.every((x) => isCard(x))) return v.map((c) => fmtValue(name, c, mode)).join(H ? "" : ", ");
    if (v.length && v.every((x) => x && typeof x === "object" && isCard(x.card))) {
      return v.map((x) => fmtValue("card", x.card, mode)).join(H ? "" : ", ");
    }
    return v.map((x) => fmtValue(name, x, mode)).join(", ");
  }
  if (typeof v === "object") {
    if (name === "action" && typeof v.type === "string") return actionLabel(v, mode);
    if (isCard(v.card)) return fmtValue("card", v.card, mode);
    const s = Object.entries(v).map(([k, x]) => `${k}: ${fmtValue(k, x, "text")}`).join(", ");
    return H ? esc(s) : s;
  }
  return H ? esc(String(v)) : String(v);
}

/** Fill a template (already looked up) with formatted parameters. */
export function fill(tpl, params, mode) {
  const parts = String(tpl).split(/(\{\w+\})/);
  let before = "";
  return parts.map((p) => {
    const m = /^\{(\w+)\}$/.exec(p);
    // a seat name after other words (not after a colon or a full stop) is inside the sentence
    const mid = before.trim() !== "" && !/[:.!?]\s*$/.test(before);
    before += p;
    if (m && Object.prototype.hasOwnProperty.call(params, m[1])) return fmtValue(m[1], params[m[1]], mode, mid);
    return mode === "html" ? esc(p) : p;
  }).join("");
}

// the fields that can name the seat a sentence is about, in order of preference
const WHO_KEYS = ["seat", "winner", "declarer", "maker", "dealer"];
const whoOf = (params) => WHO_KEYS.map((k) => params[k]).find((x) => typeof x === "number");

/** The variant suffixes to try for a sentence about `who` (the seat it is about) and `params`:
 *  ".you" when `who` is the person; ".to_you" / ".winner_you" when the person is another seat
 *  of the sentence (given something, taking a trick); the plain key last. */
function variants(who, params = {}) {
  const me = S.view ? S.seat : null;
  const out = [];
  const you = typeof who === "number" && who === me;
  for (const k of ["to", "winner"]) {
    if (typeof params[k] === "number" && params[k] === me && !(you && params[k] === who)) {
      if (you) out.push(`.you.${k}_you`);
      out.push(`.${k}_you`);
    }
  }
  if (you) out.push(".you");
  out.push("");
  return out.filter((x, i) => out.indexOf(x) === i);
}

/** Look up the first existing key, most specific key first, and for each key its "you"
 *  variants first (see variants()). */
export function pick(keys, who, params) {
  const suffixes = variants(who, params);
  for (const k of keys) {
    for (const sfx of suffixes) {
      const v = raw(k + sfx);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

export function rich(key, params = {}, who = whoOf(params)) {
  const tpl = pick([key], who, params);
  return fill(tpl === undefined ? key : tpl, params, "html");
}

export function actionKeys(a) {
  const fields = Object.keys(a).filter((k) => k !== "type").sort();
  const keys = [];
  if (fields.length === 1 && (a[fields[0]] === null || typeof a[fields[0]] !== "object")) {
    keys.push(`action.${a.type}.${a[fields[0]]}`);
  }
  if (fields.length) keys.push(`action.${a.type}+${fields.join("+")}`);
  keys.push(`action.${a.type}`);
  return keys;
}

/** The label of an action, e.g. "AH + marriage (KH)" / "Licytuj 110"; never throws. */
export function actionLabel(a, mode = "html") {
  if (!a || typeof a !== "object") return mode === "html" ? esc(String(a)) : String(a);
  const tpl = pick(actionKeys(a));
  if (tpl !== undefined) return fill(tpl, a, mode);
  const type = String(a.type || "?").replace(/_/g, " ");
  const rest = Object.keys(a).filter((k) => k !== "type").sort()
    .map((k) => (isCard(a[k]) ? fmtValue(k, a[k], mode) : `${mode === "html" ? esc(k) : k} ${fmtValue(k, a[k], mode)}`));
  const head = type.charAt(0).toUpperCase() + type.slice(1);
  return [mode === "html" ? esc(head) : head, ...rest].join(" ");
}

/** The sentence of a log event, as HTML. */
export function eventHTML(ev) {
  const params = {};
  for (const [k, v] of Object.entries(ev)) if (k !== "type" && k !== "visible_to") params[k] = v;
  const who = whoOf(ev);          // the seat the sentence is about (its .you variant)
  if (ev.type === "action" && ev.action && typeof ev.action === "object") {
    // the sentence is chosen by the action's type and fields, like a button label:
    // event.action.play+card+companion, event.action.alone.true, event.action.play, event.action
    const p = { ...ev.action, seat: ev.seat, action: ev.action };
    const tpl = pick([...actionKeys(ev.action).map((k) => "event." + k), "event.action"], ev.seat, p);
    return fill(tpl, p, "html");
  }
  const tpl = pick([`event.${ev.type}`], who, params);
  if (tpl !== undefined) return fill(tpl, params, "html");
  const rest = Object.entries(params).map(([k, v]) => `${esc(k)}: ${fmtValue(k, v, "html")}`).join(", ");
  return `<i>${esc(String(ev.type).replace(/_/g, " "))}</i>${rest ? " — " + rest : ""}`;
}

/** The sentence of a view's summary item ({key, ...params}), as HTML. */
export function summaryHTML(item) {
  const { key, ...params } = item || {};
  if (raw("summary." + key) !== undefined) return rich("summary." + key, params);
  const rest = Object.entries(params).map(([k, x]) => `${esc(k)}: ${fmtValue(k, x, "html")}`).join(", ");
  return `<i>${esc(String(key))}</i>${rest ? " — " + rest : ""}`;
}
