// The rule coach: in ordinary play, the first time in a game that an event names a rule (the
// engine's "rule" field: a marriage declared, the stock gone, the emperor's interrupt, a contract
// …) or that a rule keeps cards of the person's hand from being played (the view's "limits":
// following suit, trumping, playing over), one short callout below the hand, never over the
// cards: the event's sentence (or that not every card may be played), the rule's words from the
// rules panel's data (web/rules/<game>.<lang>.json, from docs/rules/<game>.md) and its id as a
// button that opens the rules at it.  Never twice for the same rule in a game; read
// out to screen readers (aria-live).  The page knows no rule: which events name which rule comes
// from Python.
//
// The setting (Settings → Play): "auto" (the default: on for a person's first COACH_GAMES games
// of each game, then off by itself), "on" or "off", kept in the browser.

import { esc } from "../../cards.js";
import { h, belowHand } from "../dom.js";
import { S } from "../state.js";
import { t, eventHTML, past } from "../words.js";
import { ruleButton } from "./score-walk.js";

export const COACH_GAMES = 3;
const KEY = "atut.coach";                  // "on" | "off" | absent: auto
const GAMES = "atut.coach.games.";         // + game id: the ids of the games counted (JSON list)
const SEEN = "atut.coach.seen";            // {game key: [rule ids shown]} of the latest games

function get(key) { try { return localStorage.getItem(key); } catch (_) { return null; } }
function put(key, v) { try { localStorage.setItem(key, v); } catch (_) { /* storage off */ } }
function json(key, empty) {
  try { const v = JSON.parse(get(key)); return v && typeof v === "object" ? v : empty; } catch (_) { return empty; }
}

/** The kept choice: "auto", "on" or "off". */
export function coachChoice() {
  const v = get(KEY);
  return v === "on" || v === "off" ? v : "auto";
}
export function setCoachChoice(v) { put(KEY, v === "on" || v === "off" ? v : "auto"); }

// the game being played, the same across a reload (the kept record's id)
const gameKey = () => (S.record && S.record.id ? String(S.record.id) : `${S.game}:${S.seed}:${S.gen}`);

/** Whether the coach speaks in this game: counts the game among its game's first ones. */
export function coachOn(game = S.game) {
  const choice = coachChoice();
  if (choice !== "auto") return choice === "on";
  const counted = json(GAMES + game, []);
  const list = Array.isArray(counted) ? counted : [];
  const key = gameKey();
  if (list.includes(key)) return list.indexOf(key) < COACH_GAMES;
  if (list.length >= COACH_GAMES) return false;
  list.push(key);
  put(GAMES + game, JSON.stringify(list));
  return true;
}

// --- the rule's words, from the rules panel's data ---------------------------------------------

const texts = new Map();          // "game.lang" -> {id: plain text}, or a promise of it
/** The plain text of every rule of a game in a language ({id: text}), or a promise of it. */
export function ruleTexts(game, lang) {
  const k = `${game}.${lang}`;
  if (!texts.has(k)) {
    texts.set(k, fetch(new URL(`../../rules/${k}.json`, import.meta.url)).then((r) => (r.ok ? r.json() : null)).then((d) => {
      const out = {};
      const div = document.createElement("div");
      for (const p of (d && d.parts) || []) for (const g of p.groups || []) for (const e of g.entries || []) {
        div.innerHTML = e.html;
        out[e.id] = div.textContent.trim();
      }
      texts.set(k, out);
      return out;
    }).catch(() => { texts.delete(k); return {}; }));
  }
  return texts.get(k);
}

/** A rule's words, once ruleTexts has them (else ""): the first sentence. */
export function ruleWords(game, lang, id) {
  const all = texts.get(`${game}.${lang}`);
  return all && !(all instanceof Promise) ? firstSentence(all[id] || "") : "";
}

/** The first sentence of a rule's text (the callout stays short; the rules panel has it all). */
export function firstSentence(text) {
  const m = /^(.{20,}?[.;:])(\s|$)/.exec(text || "");
  return m ? m[1] : (text || "");
}

// --- the callout -------------------------------------------------------------------------------

let shown = { key: null, rules: new Set() };
let box = null;
let boxDeal = null;               // the game and deal the callout on show belongs to

function seenFor(key) {
  if (shown.key !== key) {
    const all = json(SEEN, {});
    shown = { key, rules: new Set(Array.isArray(all[key]) ? all[key] : []) };
  }
  return shown.rules;
}

function remember(key, rule) {
  seenFor(key).add(rule);
  const all = json(SEEN, {});
  all[key] = [...shown.rules];
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - 8))) delete all[k];   // the latest games
  put(SEEN, JSON.stringify(all));
}

function place() {
  if (box && document.contains(box)) return box;
  box = h("div", { class: "coach", "data-testid": "coach", role: "status", "aria-live": "polite", hidden: "" });
  box.addEventListener("click", (e) => { if (e.target.closest("[data-testid=coach-close]")) hideCoach(); });
  return belowHand(box);
}

export function hideCoach() {
  if (box) { box.hidden = true; box.innerHTML = ""; delete box.dataset.rule; }
}

/** After each picture: the first event of the log naming a rule not yet shown in this game. */
export function renderCoach(v) {
  // (a lesson's guide says every rule itself: learn.js)
  if (!v || !S.game || S.lesson || !coachOn(S.game)) { hideCoach(); return; }
  const key = gameKey();
  // a callout belongs to its deal: a new deal (or another game) takes it away
  if (boxDeal !== `${key}:${v.deal_no}`) hideCoach();
  const seen = seenFor(key);
  const log = Array.isArray(v.log) ? v.log : [];
  let ev = log.find((e) => e && typeof e.rule === "string" && !Array.isArray(e.lines) && !seen.has(e.rule));
  // else a rule that now keeps cards of the hand from being played (the view's "limits":
  // following suit, trumping, playing over), the first time it does
  const limit = ev ? null : (Array.isArray(v.limits) ? v.limits : []).find((r) => typeof r === "string" && !seen.has(r));
  if (limit) ev = { rule: limit };
  if (!ev) return;
  remember(key, ev.rule);
  const game = S.game;
  const lang = S.lang;
  const el = place();
  let said = "";
  // the cards in a callout are words about the log, drawn without data-card (words.js past)
  if (limit) said = esc(t("ui.coach.limit"));
  else try { said = past(() => eventHTML(ev)); } catch (_) { said = ""; }
  boxDeal = `${key}:${v.deal_no}`;
  const draw = (words) => {
    el.innerHTML = `<span class="coach-mark" aria-hidden="true">?</span><span class="coach-text"><b>${esc(t("ui.coach.title", { rule: ev.rule }))}</b> ${said}${words ? ` <span class="coach-rule">${esc(words)}</span>` : ""}</span>${ruleButton(ev.rule)}<button type="button" class="coach-close" data-testid="coach-close" aria-label="${esc(t("ui.close_panel"))}" title="${esc(t("ui.close_panel"))}">×</button>`;
    el.dataset.rule = ev.rule;
    el.setAttribute("lang", lang);
    el.hidden = false;
  };
  draw("");
  Promise.resolve(ruleTexts(game, lang)).then((all) => {
    if (el.dataset.rule === ev.rule && S.lang === lang) draw(firstSentence(all[ev.rule]));
  });
}

/** The setting's control (Settings → Play) and its binding. */
export function coachSettingHTML() {
  const c = coachChoice();
  const opt = (v) => `<option value="${v}" ${v === c ? "selected" : ""}>${esc(t("ui.coach." + v, { n: COACH_GAMES }))}</option>`;
  return `<label class="field"><span>${esc(t("ui.coach"))}</span><select data-testid="settings-coach">${["auto", "on", "off"].map(opt).join("")}</select></label>`;
}
export function bindCoachSetting(panel) {
  const s = panel.querySelector("[data-testid=settings-coach]");
  if (s) s.addEventListener("change", () => { setCoachChoice(s.value); if (S.view) renderCoach(S.view); if (coachChoice() === "off") hideCoach(); });
}
