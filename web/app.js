// Atut's page: the entry that wires the modules of web/lib together (start-up, the listeners of
// the fixed page, the language switch, starting a game from the URL hash) and the contract's
// window.atutPage hooks.
//
// The page knows no rule of any game.  It renders the generic keys of view(seat) (see
// docs/ENGINE.md "The view") and what the engine hands with it (web/bridge.py), and sends back
// one of view.legal_actions.  Every legal action of the person is one enabled control carrying
// data-action = the action's canonical JSON; every card the person can see carries data-card.
// All words come from web/i18n.
//
//   lib/state.js          the state (S) and its owners  lib/words.js     t() and rich text
//   lib/worker-client.js  requests to the worker        lib/hash.js      the URL hash
//   lib/play.js           the game: start, bots, acts   lib/menu.js      the menu
//   lib/game-file.js      save and load files           lib/notice.js    loading and error bars
//   lib/lang.js           language of the fixed parts   lib/table/*.js   the table (redraws on change)
//   lib/saved-games.js    IndexedDB: kept games         lib/autosave.js  every step kept, resume
//   lib/menu-history.js   the menu's kept games         lib/offline.js   the service worker
//   lib/writer.js         one tab writes a game         lib/storage.js   persistent storage
//
// This is the composition root: the modules that need another's functions (the menu's buttons,
// the kept games' Continue and Review, the lab's table, play.js's steps kept) get them here as
// callbacks, so that no module of web/ imports one that imports it back
// (tests/test_web_imports.py).  The page's part of the state is written here only.

import { loadGameDicts, addGameDict, LANGS } from "./i18n.js";
import { S, claim, pickLang, gameIds } from "./lib/state.js";
import { el, $, bindNodes } from "./lib/dom.js";
import { canonical } from "./lib/canonical.js";
import { startWorker, request } from "./lib/worker-client.js";
import { parseHash, settingsFromHash, writeHash, MAX_DELAY } from "./lib/hash.js";
import { t, eventHTML, summaryHTML } from "./lib/words.js";
import { showProgress, engineFailed, showError, showWaiting } from "./lib/notice.js";
import { applyLang } from "./lib/lang.js";
import { renderMenu, openMenu, closeMenu, initMenu, setMenuDelay } from "./lib/menu.js";
import * as play from "./lib/play.js";
import { initAutosave, findInProgress, resume, resumeKept, flush, relabelAutosave, keep, keptGame, forgetGame, refreshSaved } from "./lib/autosave.js";
import { initWriter, writerLost, relabelWriter } from "./lib/writer.js";
import { initStorage } from "./lib/storage.js";
import { startOffline, checkForUpdate, relabelUpdate } from "./lib/offline.js";
import { saveGame, readGameFile } from "./lib/game-file.js";
import { initTable } from "./lib/table/render.js";
import { fitHand } from "./lib/table/hand.js";
import { initRules, relabelRules } from "./lib/rules.js";
import { initSettings, relabelSettings } from "./lib/settings.js";
import { initKeys } from "./lib/table/keys.js";
import { initAids } from "./lib/aids.js";
import { openReview } from "./lib/review.js";
import { ensurePool, poolDebugHooks } from "./lib/pool.js";

const page = claim("page");
const hashAtLoad = parseHash();
page.set({ lang: pickLang(hashAtLoad.lang), debug: hashAtLoad.debug === "1" });

let kept = Promise.resolve();             // the store opened and its games listed
let pendingStart = null;                  // the start asked for while the engine loads
let hashAtReady = false;                  // no static info (build.json): the hash waits

/** Run `go` (a game's start) now if the engine is ready, else once it is: the menu works
 *  while Python loads, and the last start asked for is the one made. */
function whenReady(go) {
  if (S.ready) return go();
  pendingStart = go;
  showWaiting(true);
  if (!el.menu.hidden) renderMenu();
  return undefined;
}

const loadedDicts = new Set();
function loadDicts(ids) {
  const todo = ids.filter((id) => !loadedDicts.has(id));
  todo.forEach((id) => loadedDicts.add(id));
  // the table redraws itself with the new words (table/render.js)
  return loadGameDicts(todo).then((r) => { if (todo.length) page.update((p) => ({ words: p.words + 1 })); return r; });
}

function engineReady(info, timings, build) {
  window.atutTimings = timings;
  // the worker's info: it wins over build.json's
  page.set({ engineBuild: build || null, info, ready: true });
  showProgress(100, "ready");
  performance.mark("atut-engine-ready");
  document.body.dataset.engine = "ready";
  el.loader.classList.add("done");
  const go = pendingStart;
  pendingStart = null;
  showWaiting(false);
  if (!el.menu.hidden || !S.view) renderMenu();
  if (gameIds().some((id) => !loadedDicts.has(id))) {
    loadDicts(gameIds()).then(() => { if (!el.menu.hidden) renderMenu(); });
  }
  if (hashAtReady) startFromHash(hashAtLoad);
  else if (go) go();
  kept.then(() => { if (!el.menu.hidden) renderMenu(); });
  startOffline();
}

/** Start the game a hash names (or resume it, when a game with these settings is in
 *  progress: a reload); a malformed hash shows why and opens the menu. */
async function startFromHash(p) {
  let cfg;
  try {
    cfg = settingsFromHash(p);
  } catch (err) {
    showError(t("ui.bad_link", { message: err.message }));
    openMenu();
    return;
  }
  if (!S.info.built.includes(cfg.game)) {
    showError(t("ui.bad_link", { message: `${cfg.game}: ${t("ui.not_built")}` }));
    openMenu();
    return;
  }
  page.set({ lang: pickLang(p.lang || S.lang) });
  applyLang();
  whenReady(async () => {
    await kept;
    const going = findInProgress(cfg, play.expandLevels(cfg.levels, cfg.players || 0));
    if (going && await resume(going, cfg.delay)) return;
    play.startGame(cfg);
  });
}

/** A lesson (learn to play) for a hash with `learn=GAME` (and `lesson=N`, `delay=MS`). */
function learnFromHash(p) {
  if (p.learn === undefined) return false;
  const game = String(p.learn);
  const number = /^\d{1,2}$/.test(p.lesson || "0") ? parseInt(p.lesson || "0", 10) : -1;
  const delay = /^\d{1,5}$/.test(p.delay || "") ? Math.min(parseInt(p.delay, 10), MAX_DELAY) : play.LESSON_DELAY;
  page.set({ lang: pickLang(p.lang || S.lang) });
  applyLang();
  whenReady(() => play.startLesson(game, number, delay));
  return true;
}

function setLang(lang) {
  if (!LANGS.includes(lang) || lang === S.lang) return;
  page.set({ lang });                      // the table redraws itself (table/render.js)
  applyLang();
  if (!el.menu.hidden || !S.view) renderMenu();
  if (S.view) writeHash();
  relabelRules();
  relabelSettings();
  relabelAutosave();
  relabelWriter();
  relabelUpdate();
  if (S.outside) import("./lib/lab/table.js").then((m) => m.relabel());    // the bot at the table's notice
  if (labLoaded) import("./lib/lab/lab.js").then((m) => m.relabelLab());
}

// --- the kept games' buttons in the menu (menu-history.js) --------------------------------------

/** "Continue": the kept game resumed (the menu again when it cannot be read). */
async function continueGame(id) {
  const meta = keptGame(id);
  if (!meta) return;
  if (!(await resume(meta))) openMenu();
}

/** "Review" of a finished game in the history: its save loaded (as "Continue" does) and the
 *  review of its last deal opened. */
async function reviewGame(id) {
  const meta = keptGame(id, { finished: true });
  if (!meta) return;
  if (!(await resume(meta))) { openMenu(); return; }
  await openReview();
}

/** "Remove": an unfinished game forgotten. */
async function forget(id) {
  await forgetGame(id);
  if (!el.menu.hidden) renderMenu();
}

let labLoaded = false;                    // lib/lab/lab.js was loaded (the lab opened once)

/** The bot lab (lib/lab/lab.js, loaded on first use) for a hash with `lab=GAME`; true if so.
 *  Another hash closes it. */
function labFromHash(p) {
  if (p.lab === undefined) {
    if (S.labOpen) { page.set({ labOpen: false }); import("./lib/lab/lab.js").then((m) => m.closeLab()); }
    return false;
  }
  page.set({ labOpen: true });
  labLoaded = true;
  import("./lib/lab/lab.js").then((m) => m.openLab(p.lab, { onBack: openMenu, play, tab: p.tab }))
    .catch((err) => showError(String(err && err.message ? err.message : err)));
  return true;
}

function bind() {
  bindNodes();
  $(".close", el.error).addEventListener("click", () => showError(""));
  el.btnMenu.addEventListener("click", () => (el.menu.hidden ? openMenu() : (S.view ? closeMenu() : null)));
  el.btnSave.addEventListener("click", saveGame);
  el.btnLoad.addEventListener("click", () => el.fileInput.click());
  el.fileInput.addEventListener("change", () => {
    if (el.fileInput.files[0]) readGameFile(el.fileInput.files[0]).then(play.loadGame);
    el.fileInput.value = "";
  });
  for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => setLang(b.dataset.lang));
  // one listener for every control of the table
  el.table.addEventListener("click", (e) => {
    const b = e.target.closest("[data-action]");
    if (b && !b.disabled) {
      let a;
      try { a = JSON.parse(b.dataset.action); } catch (_) { return; }
      play.act(a);
      return;
    }
    const o = e.target.closest("[data-options]");
    if (o) {
      const g = el.actions.querySelector(`[data-group-card="${CSS.escape(o.dataset.options)}"]`);
      if (g) { g.classList.remove("flash"); void g.offsetWidth; g.classList.add("flash"); const first = g.querySelector("button"); if (first) first.focus(); }
      return;
    }
    // a card of the hand that is no legal action: the engine says why
    const c = e.target.closest("[data-card]");
    if (c && !b && el.hand.contains(c)) play.explainCard(c.dataset.card);
  });
  el.sideRest.addEventListener("click", (e) => {
    if (e.target.closest("[data-testid=last-deal-close]")) play.dismissLastDeal();
  });
  window.addEventListener("resize", () => { if (S.view) fitHand(); });
  window.addEventListener("hashchange", () => {
    const p = parseHash();
    if (p.lang && LANGS.includes(p.lang) && p.lang !== S.lang) setLang(p.lang);
    if (labFromHash(p)) return;
    if (learnFromHash(p)) return;
    if (p.game !== undefined && S.info) startFromHash(p);
  });
  connectPlay();
  initMenu({ start: (cfg) => whenReady(() => play.startGame(cfg)), continueGame, reviewGame, forgetGame: forget });
  initTable({ playAgain: openMenu });
  initRules();
  initSettings({
    delay: (d) => { setMenuDelay(d); play.setDelay(d); },
    pace: play.paceChanged,
    // an import of a backup file wrote games (lib/backup.js): the menu's lists and statistics
    backup: async () => { await refreshSaved(); if (!el.menu.hidden) renderMenu(); },
  });
  initKeys();
  initAids({ undo: play.undo, countHint: play.countHint });
}

/** What play.js does around a step: each step kept (autosave.js), the menu closed when a table
 *  is shown, opened when a start failed. */
function connectPlay() {
  // a table shown is kept at once: the worker then keeps each of its steps itself
  // a lesson is not kept among the games (learn.js)
  play.connectPlay({ stepped: () => { if (!S.lesson) keep(); }, shown: () => { if (!S.lesson) keep(); closeMenu(); }, failed: openMenu });
  initWriter({ stop: play.stopTable, resumeId: resumeKept, elsewhere: openMenu });
}

/** The games, seat counts, options and bot levels from web/build.json (written by the build,
 *  the same as the engine's `info` reply), so that the menu works before the engine is ready;
 *  the engine's `info` replaces it when it comes. */
async function readBuild() {
  try {
    const r = await fetch(new URL("./build.json", import.meta.url));
    if (r.ok) {
      const m = await r.json();
      if (Array.isArray(m.built)) page.set({ boot: { built: m.built, build: m.build || null } });
      const i = m.info;
      if (!S.info && i && typeof i === "object" && Array.isArray(i.games) && Array.isArray(i.built)
          && i.classes && typeof i.classes === "object" && i.levels && typeof i.levels === "object") page.set({ info: i });
    }
  } catch (_) { /* the engine's info comes later */ }
}

async function boot() {
  bind();
  applyLang();
  kept = initAutosave().catch((err) => console.warn("store:", err));
  const build = readBuild();
  showProgress(1, "runtime");
  labFromHash(hashAtLoad);
  startWorker({ debug: S.debug, progress: showProgress, ready: engineReady, failed: (message) => {
    pendingStart = null;                           // nothing will start: the error says why
    showWaiting(false);
    engineFailed(message);
    if (!el.menu.hidden) renderMenu();
  }, poolWanted: ensurePool,                 // the search workers boot when first needed
  writerLost });                             // another tab took the game over (lib/writer.js)
  initStorage();
  await build;
  if (!S.ready) renderMenu();                    // first paint: the menu, before Python loads
  if (hashAtLoad.game === undefined && hashAtLoad.learn === undefined) { el.menu.hidden = false; document.body.classList.add("menu-open"); }
  else if (!S.view) { el.status.textContent = t("ui.waiting"); }
  await loadDicts(gameIds());
  applyLang();
  if (S.ready) { if (!el.menu.hidden) renderMenu(); }
  else renderMenu();
  // a lesson link starts once the engine is ready (whenReady)
  if (hashAtLoad.learn !== undefined) learnFromHash(hashAtLoad);
  // a game link starts (or waits for the engine) now, with what build.json says of the games
  else if (hashAtLoad.game !== undefined) {
    if (S.info) startFromHash(hashAtLoad);
    else hashAtReady = true;
  }
}

// the contract's hooks for tests and classroom use: the person's own actions and view only
window.atutPage = {
  act: (action) => play.act(action),
  get view() { return S.view ? JSON.parse(JSON.stringify(S.view)) : null; },
  get seat() { return S.seat; },
  canonical,
  // every step of the game so far is in the browser's store (resolves true)
  flush: () => flush(),
  checkForUpdate: () => checkForUpdate(),
  get build() { return S.boot.build || null; },
  get engineBuild() { return S.engineBuild || null; },
  request: (op, args) => (S.debug ? request(op, args) : Promise.reject(new Error("open the page with debug=1"))),
  // test-only: the text of the log line the page would show for an event (debug=1)
  logLine: (ev) => debugText(eventHTML(ev)),
  summaryLine: (item) => debugText(summaryHTML(item)),
  // test-only (debug=1): a game module's source joins the engine, its words and the menu
  registerGame: async (name, source) => {
    if (!S.debug) throw new Error("open the page with debug=1");
    const r = await request("debug_register_game", { name, source });
    addGameDict(r.game, r.words);
    loadedDicts.add(r.game);
    page.set({ info: r.info });
    if (!el.menu.hidden) renderMenu();
    return r.game;
  },
};
if (S.debug) window.atutPool = poolDebugHooks();   // test-only: the search workers (lib/pool.js)

function debugText(html) {
  if (!S.debug) throw new Error("open the page with debug=1");
  const d = document.createElement("div");
  d.innerHTML = html;
  for (const c of d.querySelectorAll("[data-card]")) c.textContent = `[${c.dataset.card}]`;
  return d.textContent;
}

boot();
