// Atut's page: the menu, the table and the conversation with the engine worker.
//
// The page knows no rule of any game.  It renders the generic keys of view(seat) (see
// docs/ENGINE.md "The view") and sends back one of view.legal_actions.  Every legal action of
// the person is one enabled control carrying data-action = the action's canonical JSON; every
// card the person can see carries data-card.  All words come from web/i18n.

import { lookup, fillText, loadGameDicts, LANGS } from "./i18n.js";
import { cardSVG, chip, cardName, suitIcon, back, esc, isCard, parseCard, SUITS } from "./cards.js";

const GAME_IDS = ["cesarz", "euchre", "imperial", "tysiac1001", "sixty_six"];
const DEFAULT_DELAY = 700;
const DEFAULT_LEVEL = 3;
const DELAYS = [0, 300, 700, 1500];
const SEAT_KEYS = new Set(["seat", "winner", "winners", "leader", "dealer", "to", "from", "player",
  "declarer", "maker", "partner", "caller", "taker", "loser", "seats", "out", "sitting_out"]);

// ---------------------------------------------------------------------------------------------
// state

const hashAtLoad = parseHash();
const S = {
  lang: pickLang(hashAtLoad.lang),
  debug: hashAtLoad.debug === "1",
  info: null,                // from the worker: games, built, classes {players, options}
  ready: false,
  view: null,                // the person's view: the only game data the page holds
  game: null, players: 0, seat: 0, seed: 0, levels: [], delay: DEFAULT_DELAY, options: {},
  gen: 0,                    // bumps on every new game: stale bot loops stop
  busy: false,
  menu: { game: "sixty_six", players: null, seat: 0, levels: [], options: {}, delay: DEFAULT_DELAY, seed: "" },
};

function pickLang(fromHash) {
  if (LANGS.includes(fromHash)) return fromHash;
  try {
    const saved = localStorage.getItem("atut.lang");
    if (LANGS.includes(saved)) return saved;
  } catch (_) { /* storage may be off */ }
  return (navigator.language || "en").toLowerCase().startsWith("pl") ? "pl" : "en";
}

// ---------------------------------------------------------------------------------------------
// words

// while true, cards are drawn without data-card: they belong to a finished deal (the "last deal"
// panel), and data-card marks only cards of the current view
let pastCards = false;
function past(fn) {
  pastCards = true;
  try { return fn(); } finally { pastCards = false; }
}

const raw = (key, game = S.game) => lookup(key, S.lang, game);

/** Plain text of a key with plain parameters. */
function t(key, params = {}, game = S.game) {
  const tpl = raw(key, game);
  return fillText(tpl === undefined ? key : tpl, params);
}
const tc = (key, params) => t(key, params);     // for cards.js (current game's words)

function seatName(s, mid = false) {
  if (typeof s !== "number") return String(s);
  if (s === S.seat && S.view) {
    // "you" inside a sentence (English); a language without ui.you.mid keeps ui.you
    const m = mid ? raw("ui.you.mid") : undefined;
    return m !== undefined ? m : t("ui.you");
  }
  return t("ui.seat", { n: s });
}

function joinNames(list) {
  if (list.length <= 1) return list.join("");
  return list.slice(0, -1).join(", ") + t("ui.and") + list[list.length - 1];
}

/** A parameter value as HTML (mode "html") or text (mode "text"); `mid`: the value stands
 *  inside a sentence, not at its start. */
function fmtValue(name, v, mode, mid = false) {
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
function fill(tpl, params, mode) {
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
function pick(keys, who, params) {
  const suffixes = variants(who, params);
  for (const k of keys) {
    for (const sfx of suffixes) {
      const v = raw(k + sfx);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

function rich(key, params = {}, who = whoOf(params)) {
  const tpl = pick([key], who, params);
  return fill(tpl === undefined ? key : tpl, params, "html");
}

function actionKeys(a) {
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
function actionLabel(a, mode = "html") {
  if (!a || typeof a !== "object") return mode === "html" ? esc(String(a)) : String(a);
  const tpl = pick(actionKeys(a));
  if (tpl !== undefined) return fill(tpl, a, mode);
  const type = String(a.type || "?").replace(/_/g, " ");
  const rest = Object.keys(a).filter((k) => k !== "type").sort()
    .map((k) => (isCard(a[k]) ? fmtValue(k, a[k], mode) : `${mode === "html" ? esc(k) : k} ${fmtValue(k, a[k], mode)}`));
  const head = type.charAt(0).toUpperCase() + type.slice(1);
  return [mode === "html" ? esc(head) : head, ...rest].join(" ");
}

function eventHTML(ev) {
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

// ---------------------------------------------------------------------------------------------
// canonical JSON, equal to Python's json.dumps(x, sort_keys=True, separators=(",", ":"))

export function canonical(x) {
  if (x === null || typeof x !== "object") {
    if (typeof x === "string") {
      return JSON.stringify(x).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
    }
    if (typeof x === "number" && Number.isInteger(x)) return String(x);
    return JSON.stringify(x);
  }
  if (Array.isArray(x)) return "[" + x.map(canonical).join(",") + "]";
  return "{" + Object.keys(x).sort().map((k) => canonical(k) + ":" + canonical(x[k])).join(",") + "}";
}

// ---------------------------------------------------------------------------------------------
// the worker

const pending = new Map();
let nextId = 1;
let worker = null;

function startWorker() {
  const url = new URL("./worker.js", import.meta.url);
  if (S.debug) url.searchParams.set("debug", "1");
  try {
    worker = new Worker(url, { type: "module" });
  } catch (err) {
    engineFailed(String(err && err.message ? err.message : err));
    return;
  }
  worker.onmessage = (e) => {
    const m = e.data || {};
    if (m.type === "progress") return showProgress(m.pct, m.stage);
    if (m.type === "ready") { window.atutTimings = m.timings; return engineReady(m.info); }
    if (m.type === "error") return engineFailed(m.message);
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(new Error(m.error || "unknown error"));
  };
  worker.onerror = (e) => engineFailed(e.message || "the worker failed to start");
}

function request(op, args = {}) {
  return new Promise((resolve, reject) => {
    if (!worker) return reject(new Error("the engine is not running"));
    const id = nextId++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, op, args });
  });
}

// ---------------------------------------------------------------------------------------------
// DOM helpers

const $ = (sel, root = document) => root.querySelector(sel);
const el = {};
function h(tag, attrs = {}, html = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  if (html) e.innerHTML = html;
  return e;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// loading

let shownPct = 0;
function showProgress(pct, stage) {
  shownPct = Math.max(shownPct, pct | 0);
  el.loader.setAttribute("aria-valuenow", String(shownPct));
  el.loaderFill.style.width = shownPct + "%";
  el.loaderText.textContent = `${t("ui.loading." + stage)} ${shownPct}%`;
  el.loaderText.dataset.stage = stage;
}

function engineReady(info) {
  S.info = info;
  S.ready = true;
  showProgress(100, "ready");
  performance.mark("atut-engine-ready");
  document.body.dataset.engine = "ready";
  el.loader.classList.add("done");
  renderMenu();
  if (hashAtLoad.game !== undefined) startFromHash(hashAtLoad);
}

function engineFailed(message) {
  if (document.body.dataset.engine === "error") return;
  document.body.dataset.engine = "error";
  el.loader.classList.add("failed");
  el.loaderText.textContent = t("ui.load_error", { message });
  showError(t("ui.load_error", { message }));
}

function showError(msg) {
  el.error.hidden = !msg;
  el.errorText.textContent = msg || "";
}

// ---------------------------------------------------------------------------------------------
// URL hash

function parseHash() {
  const q = new URLSearchParams(location.hash.replace(/^#/, ""));
  const out = { options: {} };
  for (const [k, v] of q) {
    if (k.startsWith("opt_")) {
      let val = v;
      try { val = JSON.parse(v); } catch (_) { /* a plain string */ }
      out.options[k.slice(4)] = val;
    } else out[k] = v;
  }
  return out;
}

function parseIntStrict(s, what) {
  if (!/^-?\d+$/.test(String(s).trim())) throw new Error(`${what} must be a whole number, not "${s}"`);
  return parseInt(s, 10);
}

const LEVEL_NAMES = { random: 1, rules: 2, search: 3, strong: 4 };

function parseBots(s) {
  if (s === undefined || s === "") return [DEFAULT_LEVEL];
  return String(s).split(",").map((x) => {
    x = x.trim().toLowerCase();
    if (Object.prototype.hasOwnProperty.call(LEVEL_NAMES, x)) return LEVEL_NAMES[x];
    if (/^[1-4]$/.test(x)) return parseInt(x, 10);
    throw new Error(`bots must be 1 to 4 or random, rules, search, strong (or a comma list of them), not "${s}"`);
  });
}

/** Settings from a hash; throws Error with a readable message for a malformed value. */
function settingsFromHash(p) {
  const game = p.game;
  if (!GAME_IDS.includes(game)) throw new Error(t("ui.unknown_game", { game }));
  const cls = S.info && S.info.classes[game];
  const out = {
    game,
    players: p.players !== undefined ? parseIntStrict(p.players, "players") : (cls ? cls.players[0] : null),
    seed: p.seed !== undefined ? parseIntStrict(p.seed, "seed") : randomSeed(),
    seat: p.seat !== undefined ? parseIntStrict(p.seat, "seat") : 0,
    levels: parseBots(p.bots),
    delay: p.delay !== undefined ? parseIntStrict(p.delay, "delay") : DEFAULT_DELAY,
    options: p.options || {},
  };
  if (out.delay < 0) throw new Error(`delay must be 0 or more milliseconds, not ${out.delay}`);
  return out;
}

const randomSeed = () => Math.floor(Math.random() * 1000000);

function writeHash() {
  const q = new URLSearchParams();
  q.set("game", S.game);
  q.set("players", String(S.players));
  q.set("seed", String(S.seed));
  q.set("seat", String(S.seat));
  const lv = S.levels;
  q.set("bots", lv.every((x) => x === lv[0]) ? String(lv[0]) : lv.join(","));
  q.set("delay", String(S.delay));
  q.set("lang", S.lang);
  for (const [k, v] of Object.entries(S.options)) q.set("opt_" + k, typeof v === "string" ? v : JSON.stringify(v));
  if (S.debug) q.set("debug", "1");
  const hash = "#" + q.toString().replace(/%2C/g, ",");
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

// ---------------------------------------------------------------------------------------------
// starting a game

async function startGame(cfg) {
  const gen = ++S.gen;
  showError("");
  let view;
  try {
    view = await request("new_game", {
      game: cfg.game, players: cfg.players, seed: cfg.seed, seat: cfg.seat,
      levels: cfg.levels, options: cfg.options,
    });
  } catch (err) {
    if (gen !== S.gen) return;
    showError(t("ui.bad_link", { message: err.message }));
    openMenu();
    if (S.view) run(gen);                       // the old table goes on
    return;
  }
  if (gen !== S.gen) return;
  Object.assign(S, {
    game: cfg.game, players: view.players, seat: cfg.seat, seed: cfg.seed,
    levels: expandLevels(cfg.levels, view.players), delay: cfg.delay, options: view.options || {},
    view, busy: false, trickSeen: 0, shownDeal: 0, lastDeal: null,
  });
  writeHash();
  closeMenu();
  run(gen);
}

function expandLevels(levels, players) {
  const n = players - 1;
  if (levels.length === 1) return Array(n).fill(levels[0]);
  return levels.slice(0, n);
}

function startFromHash(p) {
  let cfg;
  try {
    cfg = settingsFromHash(p);
  } catch (err) {
    showError(t("ui.bad_link", { message: err.message }));
    openMenu();
    return;
  }
  if (S.info && !S.info.built.includes(cfg.game)) {
    showError(t("ui.bad_link", { message: `${cfg.game}: ${t("ui.not_built")}` }));
    openMenu();
    return;
  }
  S.lang = pickLang(p.lang || S.lang);
  applyLang();
  startGame(cfg);
}

/** The game loop: bots move (with the visible delay) until it is the person's turn. */
async function run(gen) {
  while (gen === S.gen) {
    const v = S.view;
    render();
    if (v.is_over || v.to_move === null || v.to_move === undefined) return;
    if (v.to_move === S.seat) return;                       // wait for a click
    if (S.delay > 0) await sleep(S.delay);
    if (gen !== S.gen) return;
    try {
      const nv = await request("bot_step");
      if (gen !== S.gen) return;
      const done = await finishedDeal(v, nv);
      if (gen !== S.gen) return;
      S.view = nv;
      if (done) S.lastDeal = done;
    } catch (err) {
      if (gen !== S.gen) return;
      showError(t("ui.engine_error", { message: err.message }));
      render();
      return;
    }
  }
}

/** When a step moved the table to a new deal (the engine deals the next one inside the step
 *  that ends a deal), what the person saw of the finished deal: its log from the worker, the view
 *  before the step and the new one.  The "last deal" panel and the centre show it. */
async function finishedDeal(prev, next) {
  if (!prev || !next || next.deal_no === prev.deal_no || next.is_over) return null;
  let f = null;
  try { f = await request("finished_deal"); } catch (_) { /* the panel is a nicety */ }
  if (!f || !Array.isArray(f.log)) return null;
  const log = f.log;
  let ti = -1;
  for (let i = log.length - 1; i >= 0; i--) if (log[i].type === "trick" || log[i].type === "interrupted") { ti = i; break; }
  const trick = ti >= 0 ? log[ti] : null;
  // the result: what followed the last trick, and what the new deal's log says before its cards
  const results = (ti >= 0 ? log.slice(ti + 1) : []).filter((e) => e.type !== "action" && e.type !== "hand");
  for (const e of next.log || []) {
    if (e.type === "hand" || e.type === "action") break;
    if (!["new_deal", "deal", "sits_out"].includes(e.type)) results.push(e);
  }
  // the final trick as it lay on the table: the cards before the step plus the last card
  let center = null;
  const before = Array.isArray(prev.trick) ? prev.trick : [];
  if (trick && f.last_play && typeof f.last_play.card === "string") {
    center = { cards: [...before, f.last_play], winner: trick.winner };
  }
  return { deal_no: f.deal_no, trick, results, center, scoresBefore: prev.scores || [], scoresAfter: next.scores || [], newDeal: next.deal_no };
}

/** The person acts: validated by the engine; an illegal action shows an error and changes nothing. */
async function act(action) {
  if (!S.view) { showError(t("ui.engine_error", { message: "no game" })); return false; }
  if (S.busy) return false;
  S.busy = true;
  for (const b of document.querySelectorAll("[data-action]")) b.disabled = true;
  const gen = S.gen;
  let ok = true;
  try {
    const v = await request("act", { action });
    if (gen !== S.gen) return false;
    const done = await finishedDeal(S.view, v);
    if (gen !== S.gen) return false;
    S.view = v;
    if (done) S.lastDeal = done;
    showError("");
  } catch (err) {
    ok = false;
    showError(t("ui.error", { message: err.message }));
  } finally {
    S.busy = false;
  }
  if (gen === S.gen) run(gen);
  return ok;
}

// ---------------------------------------------------------------------------------------------
// the table

const POSITIONS = {
  2: ["me", "top"],
  3: ["me", "left", "right"],
  4: ["me", "left", "top", "right"],
  5: ["me", "left", "tl", "tr", "right"],
  6: ["me", "left", "tl", "top", "tr", "right"],
};
function posOf(seat) {
  const n = S.players;
  const rel = ((seat - S.seat) % n + n) % n;
  const table = POSITIONS[n] || POSITIONS[4];
  return table[rel] || "top";
}

function levelOf(seat) {
  const others = [];
  for (let s = 0; s < S.players; s++) if (s !== S.seat) others.push(s);
  return S.levels[others.indexOf(seat)];
}

function cardButton(code, { action = null, cls = "", label = null } = {}) {
  const name = esc(label || cardName(code, tc));
  if (pastCards && !action) {
    return `<span class="card past ${cls}" data-past-card="" role="img" aria-label="${name}">${cardSVG(code, tc)}</span>`;
  }
  if (action) {
    return `<button type="button" class="card legal ${cls}" data-card="${esc(code)}" data-action="${esc(canonical(action))}" aria-label="${name}">${cardSVG(code, tc)}</button>`;
  }
  return `<span class="card ${cls}" data-card="${esc(code)}" role="img" aria-label="${name}">${cardSVG(code, tc)}</span>`;
}

function seatBox(seatInfo, v) {
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
  if (seatInfo.sitting_out) stats.push(`<span class="badge">${esc(t("ui.sitting_out"))}</span>`);
  let backs = "";
  if (!me && typeof seatInfo.cards === "number") {
    const k = Math.min(seatInfo.cards, 12);
    backs = `<div class="backs" aria-label="${esc(seatInfo.cards + " " + t("ui.cards"))}">${Array.from({ length: k }, () => back()).join("")}<span class="count">${seatInfo.cards}</span></div>`;
  }
  const dealer = v.dealer === s ? `<span class="dealer" title="${esc(t("ui.dealer"))}" aria-label="${esc(t("ui.dealer"))}">${esc(t("ui.dealer.short"))}</span>` : "";
  const lvl = me ? "" : `<span class="lvl">${esc(t("ui.bot", { level: levelOf(s) ?? "?" }))}</span>`;
  const thinking = toMove && !me ? `<div class="thinking"><span class="dots"><i></i><i></i><i></i></span></div>` : "";
  return `<div class="seat pos-${posOf(s)}${me ? " me" : ""}${toMove ? " to-move" : ""}${seatInfo.sitting_out ? " out" : ""}" data-seat="${s}">
    <div class="seat-head"><span class="name">${esc(seatName(s))}</span>${dealer}${lvl}</div>
    ${backs}<div class="stats">${stats.join("")}</div>${thinking}</div>`;
}

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

function renderCenter(v) {
  let trickHTML = "";
  let caption = "";
  const trick = Array.isArray(v.trick) ? v.trick : [];
  if (trick.length) {
    // only the cards new since the last picture drop in
    const seen = S.trickSeen || 0;
    trickHTML = trick.map((e, i) => trickEntry(e, i >= seen ? "fresh" : "")).join("");
  } else if (v.last_trick && Array.isArray(v.last_trick.cards) && v.last_trick.cards.length) {
    trickHTML = v.last_trick.cards.map((e) => trickEntry(e, e.seat === v.last_trick.winner ? "won" : "done")).join("");
    if (typeof v.last_trick.winner === "number") {
      caption = `<div class="tcaption">${rich("ui.took_trick", { winner: v.last_trick.winner }, v.last_trick.winner)}</div>`;
    }
  } else if (S.lastDeal && S.lastDeal.center && S.lastDeal.newDeal === v.deal_no && !S.lastDeal.dismissed) {
    // a new deal with nothing played yet: the previous deal's final trick stays in sight
    const c = S.lastDeal.center;
    trickHTML = past(() => c.cards.map((e) => trickEntry(e, e.seat === c.winner ? "won" : "done")).join(""));
    caption = `<div class="tcaption">${rich("ui.took_last_trick", { winner: c.winner, deal: S.lastDeal.deal_no }, c.winner)}</div>`;
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
  S.trickSeen = trick.length;
  return `<div class="deckarea">${trump}${deck.join("")}</div>
    <div class="trick" data-testid="trick" aria-label="${esc(t("ui.trick"))}">${trickHTML}${caption}</div>`;
}

function groupActions(legal, hand) {
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

function renderActions(legal, hand) {
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

function renderHand(v, mine) {
  const hand = Array.isArray(v.hand) ? v.hand : [];
  const legal = mine ? v.legal_actions || [] : [];
  const { html, plain, groups } = renderActions(legal, hand);
  const grouped = new Set([...groups.values()].map((acts) => acts[0].card));
  const cardTurn = legal.some((a) => typeof a.card === "string" && hand.includes(a.card));
  const cards = hand.map((c) => {
    if (mine && plain.has(c)) return cardButton(c, { action: plain.get(c) });
    if (mine && grouped.has(c)) {
      return `<button type="button" class="card options" data-card="${esc(c)}" data-options="${esc(c)}" aria-label="${esc(cardName(c, tc) + " — " + t("ui.choose_with"))}">${cardSVG(c, tc)}</button>`;
    }
    return cardButton(c, { cls: mine && cardTurn ? "disabled" : "" });
  });
  el.hand.innerHTML = cards.join("");
  fitHand();
  el.hand.classList.toggle("mine", !!mine);
  el.hand.setAttribute("aria-label", t("ui.hand"));
  el.actions.innerHTML = html;
  el.actions.hidden = !html;
  // choices that are not cards (bids, passes) come before the hand; card choices after it
  el.actions.parentElement.classList.toggle("actions-first", !!html && !cardTurn);
}

/** Overlap the hand's cards (never more than 40%, so each card's middle stays clickable) when
 *  one row would not fit; beyond that, balanced rows of overlapping cards. */
function fitHand() {
  const cards = [...el.hand.children];
  const n = cards.length;
  el.hand.style.setProperty("--overlap", "0");
  el.hand.style.maxWidth = "";
  for (const c of cards) c.classList.remove("row-start");
  if (n < 2) return;
  const cw = cards[0].getBoundingClientRect().width;
  const cs = getComputedStyle(el.hand);
  const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
  const width = el.hand.clientWidth - pad - 2;
  if (!cw || width <= 0) return;
  const gap = parseFloat(cs.columnGap) || 0;
  let rows = 1;
  let k = n;
  let overlap = 0;
  for (;;) {
    k = Math.ceil(n / rows);
    const need = k > 1 ? (k * cw + (k - 1) * gap - width) / ((k - 1) * cw) : 0;
    if (need <= 0.4 || k === 1) { overlap = need > 0 ? Math.min(0.4, need + 0.02) : 0; break; }
    rows += 1;
  }
  el.hand.style.setProperty("--overlap", overlap.toFixed(3));
  if (rows > 1) {
    const rowWidth = k * cw - (k - 1) * overlap * cw + (k - 1) * gap;
    el.hand.style.maxWidth = Math.ceil(rowWidth + pad + 4) + "px";
    cards.forEach((c, i) => { if (i % k === 0) c.classList.add("row-start"); });
  }
}

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
  const scores = d.scoresAfter.map((sc, s) => {
    const was = d.scoresBefore[s];
    return `<span class="${s === S.seat ? "me" : ""}">${esc(seatName(s))}: ${was !== undefined && was !== sc ? `${esc(was)} → ` : ""}<b>${esc(sc)}</b></span>`;
  }).join("");
  return `<section class="panel lastdeal" data-testid="last-deal" aria-live="polite"><h2>${esc(t("ui.last_deal", { deal: d.deal_no }))}
      <button type="button" class="dismiss" data-testid="last-deal-close" title="${esc(t("ui.close_panel"))}" aria-label="${esc(t("ui.close_panel"))}">×</button></h2>
    <ul>${lines.join("")}</ul><div class="dealscores">${scores}</div></section>`;
}

function summaryHTML(item) {
  const { key, ...params } = item || {};
  if (raw("summary." + key) !== undefined) return rich("summary." + key, params);
  const rest = Object.entries(params).map(([k, x]) => `${esc(k)}: ${fmtValue(k, x, "html")}`).join(", ");
  return `<i>${esc(String(key))}</i>${rest ? " — " + rest : ""}`;
}

function renderSide(v) {
  renderScores(v);
  const parts = [lastDealPanel(v)];
  if (Array.isArray(v.summary) && v.summary.length) {
    parts.push(`<section class="panel summary"><h2>${esc(t("ui.summary"))}</h2><ul>${v.summary.map((s) => `<li>${summaryHTML(s)}</li>`).join("")}</ul></section>`);
  }
  if (v.last_trick && Array.isArray(v.last_trick.cards) && v.last_trick.cards.length) {
    parts.push(`<section class="panel lasttrick"><h2>${esc(t("ui.last_trick"))}</h2><div class="mini">${v.last_trick.cards.map((e) =>
      `<span class="lt${e.seat === v.last_trick.winner ? " won" : ""}">${chip(e.card, tc)}${e.companion ? chip(e.companion, tc) : ""}<small>${esc(seatName(e.seat))}</small></span>`).join("")}</div></section>`);
  }
  if (v.score_sheet && Array.isArray(v.score_sheet.columns)) {
    // short headings (the full name is the title) so that the sheet fits the side panel
    const cols = v.score_sheet.columns.map((c) => {
      const full = typeof c === "number" ? seatName(c) : t("column." + c);
      const short = typeof c === "number" ? (c === S.seat ? t("ui.you.short") : t("ui.seat.short", { n: c }))
        : (raw(`column.${c}.short`) ?? full);
      return `<th scope="col" title="${esc(full)}"${short !== full ? ` aria-label="${esc(full)}"` : ""}>${esc(short)}</th>`;
    }).join("");
    const rows = (v.score_sheet.rows || []).map((r) => `<tr>${(r || []).map((c) => `<td>${c === null || c === undefined ? "" : esc(typeof c === "object" ? JSON.stringify(c) : c)}</td>`).join("")}</tr>`).join("");
    parts.push(`<section class="panel sheet"><h2>${esc(t("ui.score_sheet"))}</h2><div class="scroll"><table><thead><tr>${cols}</tr></thead><tbody>${rows}</tbody></table></div></section>`);
  }
  const log = Array.isArray(v.log) ? v.log : [];
  parts.push(`<section class="panel log"><h2>${esc(t("ui.log"))}</h2><ol class="loglist">${log.map((ev) => {
    try { return `<li>${eventHTML(ev)}</li>`; } catch (err) { return `<li>${esc(JSON.stringify(ev))}</li>`; }
  }).join("")}</ol></section>`);
  el.sideRest.innerHTML = parts.join("");
  const list = $(".loglist", el.sideRest);
  if (list) list.scrollTop = list.scrollHeight;
}

function renderStatus(v) {
  let text;
  let cls = "";
  if (v.is_over) { text = t("ui.game_over"); cls = "over"; }
  else if (v.to_move === S.seat) {
    const onlyPlays = (v.legal_actions || []).every((a) => a.type === "play");
    text = t(onlyPlays ? "ui.your_turn.play" : "ui.your_turn"); cls = "mine";
  } else if (typeof v.to_move === "number") { text = t("ui.thinking", { seat: seatName(v.to_move) }); cls = "bot"; }
  else text = "";
  const phase = raw("phase." + v.phase);
  el.status.className = "status " + cls;
  el.status.innerHTML = `<span class="msg">${esc(text)}</span>${phase !== undefined && !v.is_over ? `<span class="phase">${esc(phase)}</span>` : ""}`;
}

function renderGameOver(v) {
  const old = $("[data-testid=game-over]");
  if (!v.is_over) { if (old) (old.closest(".overlay") || old).remove(); return; }
  const w = v.winner;
  let head;
  if (w === S.seat || (Array.isArray(w) && w.includes(S.seat))) head = t("ui.you_win");
  else if (Array.isArray(w)) head = t("ui.winners", { winner: joinNames(w.map(seatName)) });
  else if (typeof w === "number") head = t("ui.winner", { winner: seatName(w) });
  else head = t("ui.game_over");
  const lastEv = (v.log || []).filter((e) => e.type === "deal_over" || e.type === "game_over").pop();
  const detail = lastEv ? `<p class="detail">${eventHTML(lastEv)}</p>` : "";
  const names = Array.isArray(w) ? w : (typeof w === "number" ? [w] : []);
  const seats = Array.isArray(v.seats) ? v.seats : [];
  const final = seats.filter((x) => typeof x.points === "number").map((x) =>
    `<span class="${names.includes(x.seat) ? "win" : ""}">${esc(seatName(x.seat))}: ${esc(x.points)} ${esc(t("ui.points"))}</span>`).join("");
  const box = h("div", { class: "gameover", "data-testid": "game-over", role: "dialog", "aria-live": "polite", "data-winner": names.join(",") },
    `<div class="trophy" aria-hidden="true">${suitIcon("H", "big")}${suitIcon("S", "big")}</div><h2>${esc(head)}</h2>
     <p class="winner-name">${esc(t("ui.game_over"))}</p>${detail}${final ? `<div class="final">${final}</div>` : ""}`);
  const again = h("button", { type: "button", class: "primary", "data-testid": "play-again" }, esc(t("ui.play_again")));
  again.addEventListener("click", () => openMenu());
  box.appendChild(again);
  const wrap = h("div", { class: "overlay" });
  wrap.appendChild(box);
  const oldWrap = old && old.closest(".overlay");
  if (oldWrap) oldWrap.replaceWith(wrap); else el.felt.appendChild(wrap);
}

function render() {
  const v = S.view;
  if (!v) return;
  el.table.hidden = false;
  document.body.classList.toggle("playing", true);
  const mine = !v.is_over && v.to_move === S.seat && !S.busy;
  el.gameTitle.textContent = t("name") !== "name" ? t("name") : t("game." + S.game);
  document.title = `${el.gameTitle.textContent} · Atut`;
  el.dealNo.textContent = v.deal_no ? t("ui.deal", { deal: v.deal_no }) : "";
  const seats = Array.isArray(v.seats) ? v.seats : Array.from({ length: v.players }, (_, s) => ({ seat: s }));
  el.opponents.innerHTML = seats.filter((x) => x.seat !== S.seat).map((x) => seatBox(x, v)).join("");
  el.felt.dataset.players = String(v.players);
  el.mySeat.innerHTML = seatBox(seats[S.seat] || { seat: S.seat }, v);
  el.center.innerHTML = renderCenter(v);
  renderHand(v, mine);
  renderStatus(v);
  renderSide(v);
  renderGameOver(v);
  if (S.shownDeal && v.deal_no > S.shownDeal && !v.is_over) {       // a new deal: say so
    const toast = h("div", { class: "dealtoast", "aria-live": "polite" }, esc(t("ui.deal", { deal: v.deal_no })));
    el.felt.appendChild(toast);
    setTimeout(() => toast.remove(), 1800);
  }
  S.shownDeal = v.deal_no;
}

// ---------------------------------------------------------------------------------------------
// the menu

function menuGame() {
  const m = S.menu;
  if (S.info && !S.info.built.includes(m.game)) m.game = S.info.built.includes("sixty_six") ? "sixty_six" : S.info.built[0];
  return m.game;
}

function renderMenu() {
  const m = S.menu;
  const game = menuGame();
  const cls = S.info && S.info.classes[game];
  const counts = cls ? cls.players : [];
  if (!counts.includes(m.players)) m.players = counts[0] ?? null;
  const n = m.players || 0;
  if (m.seat >= n) m.seat = 0;
  const nb = Math.max(0, n - 1);
  m.levels = Array.from({ length: nb }, (_, i) => m.levels[i] ?? DEFAULT_LEVEL);
  const tiles = GAME_IDS.map((g) => {
    // (the rules line is clamped to a few lines; the whole text is its title)
    const built = S.info ? S.info.built.includes(g) : g === "sixty_six";
    const name = t("name", {}, g) !== "name" ? t("name", {}, g) : t("game." + g);
    const rules = raw("rules", g);
    return `<label class="tile${built ? "" : " off"}${g === game ? " on" : ""}">
      <input type="radio" name="game" value="${g}" ${g === game ? "checked" : ""} ${built && S.ready ? "" : "disabled"}>
      <span class="tname">${esc(name)}</span>${built ? (rules ? `<span class="trules" title="${esc(rules)}">${esc(rules)}</span>` : "") : `<span class="trules soon">${esc(t("ui.not_built"))}</span>`}</label>`;
  }).join("");
  const opt = (value, label, sel) => `<option value="${esc(value)}" ${sel ? "selected" : ""}>${esc(label)}</option>`;
  const seatOpts = Array.from({ length: n }, (_, s) => opt(s, t("ui.seat", { n: s }), s === m.seat)).join("");
  const others = Array.from({ length: n }, (_, s) => s).filter((s) => s !== m.seat);
  const bots = others.map((s, i) => `<label class="field"><span>${esc(t("ui.bot_level", { n: s }))}</span>
      <select data-level="${i}">${[1, 2, 3, 4].map((l) => opt(l, t("ui.level." + l), l === m.levels[i])).join("")}</select></label>`).join("");
  const options = cls ? Object.entries(cls.options).map(([k, vals]) => {
    const cur = m.options[k] !== undefined ? m.options[k] : vals[0];
    return `<label class="field"><span>${esc(t("option." + k, {}, game))}</span><select data-option="${esc(k)}">${vals.map((val, i) =>
      opt(i, raw(`option.${k}.${val}`, game) ?? String(val), canonical(val) === canonical(cur))).join("")}</select></label>`;
  }).join("") : "";
  el.menu.innerHTML = `<div class="menu-card">
    <h2>${esc(t("ui.menu.title"))}</h2><p class="sub">${esc(t("ui.menu.subtitle"))}</p>
    <fieldset class="games"><legend>${esc(t("ui.game"))}</legend><div class="tiles">${tiles}</div></fieldset>
    <div class="fields">
      <label class="field"><span>${esc(t("ui.players"))}</span><select data-k="players" ${counts.length ? "" : "disabled"}>${counts.map((c) => opt(c, c, c === m.players)).join("")}</select></label>
      <label class="field"><span>${esc(t("ui.your_seat"))}</span><select data-k="seat" ${n ? "" : "disabled"}>${seatOpts}</select></label>
      ${bots}${options ? `${options}` : ""}
      <label class="field"><span>${esc(t("ui.delay"))}</span><select data-k="delay">${DELAYS.map((d) => opt(d, t("ui.delay." + d), d === m.delay)).join("")}</select></label>
      <label class="field"><span>${esc(t("ui.seed"))}</span><input data-k="seed" inputmode="numeric" placeholder="${esc(t("ui.seed.random"))}" value="${esc(m.seed)}"></label>
    </div>
    <div class="menu-buttons">
      <button type="button" class="primary" data-testid="new-game" ${S.ready ? "" : "disabled"}>${esc(t("ui.start"))}</button>
      ${S.view ? `<button type="button" class="ghost" data-close>${esc(t("ui.close"))}</button>` : ""}
    </div></div>`;
  el.menu.querySelectorAll("input[name=game]").forEach((r) => r.addEventListener("change", () => { m.game = r.value; m.options = {}; renderMenu(); }));
  el.menu.querySelectorAll("select[data-k]").forEach((s) => s.addEventListener("change", () => {
    const k = s.dataset.k;
    m[k] = parseInt(s.value, 10);
    renderMenu();
  }));
  el.menu.querySelectorAll("select[data-level]").forEach((s) => s.addEventListener("change", () => { m.levels[+s.dataset.level] = parseInt(s.value, 10); }));
  el.menu.querySelectorAll("select[data-option]").forEach((s) => s.addEventListener("change", () => {
    m.options[s.dataset.option] = cls.options[s.dataset.option][parseInt(s.value, 10)];
  }));
  $("input[data-k=seed]", el.menu).addEventListener("input", (e) => { m.seed = e.target.value; });
  $("[data-testid=new-game]", el.menu).addEventListener("click", () => {
    let seed;
    const sv = String(m.seed).trim();
    if (sv === "") seed = randomSeed();
    else if (/^\d+$/.test(sv)) seed = parseInt(sv, 10);
    else { showError(t("ui.bad_link", { message: `seed must be a whole number, not "${sv}"` })); return; }
    startGame({ game, players: m.players, seed, seat: m.seat, levels: m.levels.length ? m.levels : [DEFAULT_LEVEL], delay: m.delay, options: { ...m.options } });
  });
  const close = $("[data-close]", el.menu);
  if (close) close.addEventListener("click", closeMenu);
}

function openMenu() {
  if (S.view) {                    // start from the current settings
    Object.assign(S.menu, { game: S.game, players: S.players, seat: S.seat, levels: [...S.levels], options: { ...S.options }, delay: S.delay });
  }
  renderMenu();
  el.menu.hidden = false;
  document.body.classList.add("menu-open");
}

function closeMenu() {
  el.menu.hidden = true;
  document.body.classList.remove("menu-open");
}

// ---------------------------------------------------------------------------------------------
// language, save and load

function applyLang() {
  document.documentElement.lang = S.lang;
  try { localStorage.setItem("atut.lang", S.lang); } catch (_) { /* ignore */ }
  for (const b of document.querySelectorAll("[data-lang]")) b.setAttribute("aria-pressed", String(b.dataset.lang === S.lang));
  el.btnMenu.textContent = t("ui.menu");
  el.btnSave.textContent = t("ui.save");
  el.btnLoad.textContent = t("ui.load");
  if (!S.ready && document.body.dataset.engine === "loading") {
    el.loaderText.textContent = `${t("ui.loading." + (el.loaderText.dataset.stage || "runtime"))} ${shownPct}%`;
  }
  document.title = S.view ? `${t("name") !== "name" ? t("name") : t("game." + S.game)} · Atut` : "Atut";
}

function setLang(lang) {
  if (!LANGS.includes(lang) || lang === S.lang) return;
  S.lang = lang;
  applyLang();
  if (!el.menu.hidden || !S.view) renderMenu();
  if (S.view) { render(); writeHash(); }
}

async function saveGame() {
  if (!S.view) return;
  try {
    // the engine's save file plus the person's seat and the bots' levels (load_game ignores them)
    const data = JSON.parse(await request("save"));
    data.seat = S.seat;
    data.bots = S.levels;
    const text = JSON.stringify(data);
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = h("a", { href: url, download: `atut-${S.game}-${S.seed}.json` });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (err) {
    if (gen !== S.gen) return;
    showError(t("ui.engine_error", { message: err.message }));
    if (S.view) run(gen);                       // the old table goes on
  }
}

async function loadGame(file) {
  const text = await file.text();
  let seat = 0;
  let levels = [DEFAULT_LEVEL];
  try {
    const d = JSON.parse(text);
    if (Number.isInteger(d.seat)) seat = d.seat;
    if (Array.isArray(d.bots) && d.bots.length && d.bots.every((x) => [1, 2, 3, 4].includes(x))) levels = d.bots;
  } catch (_) { /* the engine says what is wrong with the file */ }
  const gen = ++S.gen;
  try {
    const r = await request("load", { text, seat, levels });
    if (gen !== S.gen) return;
    Object.assign(S, { game: r.game, players: r.players, seed: r.seed, options: r.options || {}, view: r.view, busy: false, trickSeen: 0, shownDeal: 0, lastDeal: null });
    S.seat = r.view.seat;
    S.levels = expandLevels(levels, r.players);
    writeHash();
    closeMenu();
    showError("");
    run(gen);
  } catch (err) {
    if (gen !== S.gen) return;
    showError(t("ui.engine_error", { message: err.message }));
    if (S.view) run(gen);                       // the old table goes on
  }
}

// ---------------------------------------------------------------------------------------------
// boot

function bind() {
  for (const id of ["loader", "table", "menu", "felt", "opponents", "center", "hand", "actions", "status", "scores", "error", "gameTitle", "dealNo", "mySeat", "btnMenu", "btnSave", "btnLoad", "fileInput"]) {
    el[id] = document.getElementById(id);
  }
  el.loaderFill = $(".fill", el.loader);
  el.loaderText = $(".text", el.loader);
  el.errorText = $(".text", el.error);
  el.sideRest = document.getElementById("sideRest");
  $(".close", el.error).addEventListener("click", () => showError(""));
  el.btnMenu.addEventListener("click", () => (el.menu.hidden ? openMenu() : (S.view ? closeMenu() : null)));
  el.btnSave.addEventListener("click", saveGame);
  el.btnLoad.addEventListener("click", () => el.fileInput.click());
  el.fileInput.addEventListener("change", () => { if (el.fileInput.files[0]) loadGame(el.fileInput.files[0]); el.fileInput.value = ""; });
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => setLang(b.dataset.lang));
  // one listener for every control of the table
  document.getElementById("table").addEventListener("click", (e) => {
    const b = e.target.closest("[data-action]");
    if (b && !b.disabled) {
      let a;
      try { a = JSON.parse(b.dataset.action); } catch (_) { return; }
      act(a);
      return;
    }
    const o = e.target.closest("[data-options]");
    if (o) {
      const g = el.actions.querySelector(`[data-group-card="${CSS.escape(o.dataset.options)}"]`);
      if (g) { g.classList.remove("flash"); void g.offsetWidth; g.classList.add("flash"); const first = g.querySelector("button"); if (first) first.focus(); }
    }
  });
  el.sideRest.addEventListener("click", (e) => {
    if (e.target.closest("[data-testid=last-deal-close]") && S.lastDeal) {
      S.lastDeal.dismissed = true;
      render();
    }
  });
  window.addEventListener("resize", () => { if (S.view) fitHand(); });
  window.addEventListener("hashchange", () => {
    const p = parseHash();
    if (p.lang && LANGS.includes(p.lang) && p.lang !== S.lang) setLang(p.lang);
    if (p.game !== undefined && S.ready) startFromHash(p);
  });
}

async function boot() {
  bind();
  applyLang();
  renderMenu();                                  // first paint: the menu, before Python loads
  if (hashAtLoad.game === undefined) { el.menu.hidden = false; document.body.classList.add("menu-open"); }
  else { el.status.textContent = t("ui.waiting"); }
  showProgress(1, "runtime");
  startWorker();
  await loadGameDicts(GAME_IDS);
  applyLang();
  if (S.ready) { if (!el.menu.hidden) renderMenu(); if (S.view) render(); }
  else renderMenu();
}

// the contract's hooks for tests and classroom use: the person's own actions and view only
window.atutPage = {
  act: (action) => act(action),
  get view() { return S.view ? JSON.parse(JSON.stringify(S.view)) : null; },
  get seat() { return S.seat; },
  canonical,
  request: (op, args) => (S.debug ? request(op, args) : Promise.reject(new Error("open the page with debug=1"))),
  // test-only: the text of the log line the page would show for an event (debug=1)
  logLine: (ev) => debugText(eventHTML(ev)),
  summaryLine: (item) => debugText(summaryHTML(item)),
};

function debugText(html) {
  if (!S.debug) throw new Error("open the page with debug=1");
  const d = document.createElement("div");
  d.innerHTML = html;
  for (const c of d.querySelectorAll("[data-card]")) c.textContent = `[${c.dataset.card}]`;
  return d.textContent;
}

boot();
