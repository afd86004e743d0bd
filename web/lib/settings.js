// All the settings in one panel, in the page's language, kept in the browser
// (localStorage): the language, the bots' speed (changed at once, also during a game; it is in
// the shareable hash as `delay`, like the rest of what changes the game), the hint and undo aids
// (lib/aids.js keeps them), the pace (the only legal card played by itself, a finished trick kept
// until a key or a click, sounds: lib/sound.js), the search workers (lib/pool.js), and the look: large print, projector mode and the four-colour deck (body classes; not in
// the hash, they change nothing of the game).  Opened from the top bar's Settings button; Esc or
// × closes it.

import { esc } from "../cards.js";
import { h, $ } from "./dom.js";
import { S, DELAYS } from "./state.js";
import { t } from "./words.js";
import { aidSettingsHTML, bindAidSettings } from "./aids.js";
import { soundOn, setSound, initSound, relabelSound, onSoundChange } from "./sound.js";
import { POOL_CHOICES, poolChoice, autoPoolSize, setPoolChoice } from "./pool.js";
import { backupHTML, bindBackup, unbindBackup } from "./backup.js";
import { storageHTML, bindStorage } from "./storage.js";
import { coachSettingHTML, bindCoachSetting } from "./table/coach.js";

const LOOKS = { large: "atut.look.large", projector: "atut.look.projector", four: "atut.look.four" };
const DELAY_KEY = "atut.delay";
// the pace of the table: kept in the browser, not in the hash (they change no move)
const PACE = { autoplay: "atut.pace.autoplay", keeptrick: "atut.pace.keeptrick" };

function get(key) { try { return localStorage.getItem(key); } catch (_) { return null; } }
function put(key, v) { try { localStorage.setItem(key, v); } catch (_) { /* storage off */ } }

export function lookOn(name) { return get(LOOKS[name]) === "on"; }

/** A pace option ("autoplay": the only legal card plays itself; "keeptrick": a finished trick
 *  waits for a key or a click), off unless turned on. */
export function paceOn(name) { return get(PACE[name]) === "on"; }

/** The look classes on <body> from what the browser keeps. */
export function applyLooks() {
  for (const name of Object.keys(LOOKS)) document.body.classList.toggle("look-" + name, lookOn(name));
}

/** The kept bot speed (ms) for new games, or null. */
export function keptDelay() {
  const v = parseInt(get(DELAY_KEY), 10);
  return DELAYS.includes(v) ? v : null;
}

let panel = null;
let before = null;

function panelHTML() {
  const cur = S.view ? S.delay : S.menu.delay;
  const opt = (d) => `<option value="${d}" ${d === cur ? "selected" : ""}>${esc(t("ui.delay." + d))}</option>`;
  const look = (name) => `<label class="field check"><input type="checkbox" data-look="${name}" ${lookOn(name) ? "checked" : ""}><span>${esc(t("ui.look." + name))}</span></label>`;
  const pace = (name) => `<label class="field check"><input type="checkbox" data-pace="${name}" ${paceOn(name) ? "checked" : ""}><span>${esc(t("ui.pace." + name))}</span></label>`;
  const poolOpt = (c) => `<option value="${c}" ${c === poolChoice() ? "selected" : ""}>${esc(
    c === "auto" ? t("ui.pool.auto", { n: autoPoolSize() }) : c === "1" ? t("ui.pool.one") : c)}</option>`;
  const lang = (l, label) => `<label class="field check"><input type="radio" name="settings-lang" value="${l}" ${S.lang === l ? "checked" : ""}><span>${label}</span></label>`;
  return `<div class="rules-head"><h2 id="settings-title">${esc(t("ui.settings"))}</h2>
      <button type="button" class="close" data-testid="settings-close" aria-label="${esc(t("ui.close_panel"))}" title="${esc(t("ui.close_panel"))}">×</button></div>
    <div class="settings-body">
      <fieldset><legend>${esc(t("ui.settings.language"))}</legend>${lang("pl", "Polski")}${lang("en", "English")}</fieldset>
      <fieldset><legend>${esc(t("ui.settings.play"))}</legend>
        <label class="field"><span>${esc(t("ui.delay"))}</span><select data-testid="settings-delay">${DELAYS.map(opt).join("")}</select></label>
        ${pace("autoplay")}${pace("keeptrick")}
        <label class="field check"><input type="checkbox" data-sound ${soundOn() ? "checked" : ""}><span>${esc(t("ui.sound.setting"))}</span></label>
        ${aidSettingsHTML()}
        ${coachSettingHTML()}
        <label class="field"><span>${esc(t("ui.pool"))}</span><select data-testid="settings-pool">${POOL_CHOICES.map(poolOpt).join("")}</select></label>
        <p class="settings-note">${esc(t("ui.pool.note"))}</p></fieldset>
      <fieldset><legend>${esc(t("ui.settings.look"))}</legend>${look("large")}${look("projector")}${look("four")}</fieldset>
      ${storageHTML(esc)}
      <p class="settings-note">${esc(t("ui.settings.note"))}</p>
      ${backupHTML()}</div>`;
}

function bind() {
  panel.addEventListener("click", (e) => { if (e.target.closest("[data-testid=settings-close]")) closeSettings(); });
  $("[data-testid=settings-delay]", panel).addEventListener("change", (e) => {
    const d = parseInt(e.target.value, 10);
    put(DELAY_KEY, String(d));
    on.delay(d);                                    // the bots' next move already waits d
  });
  $("[data-testid=settings-pool]", panel).addEventListener("change", (e) => setPoolChoice(e.target.value));
  bindCoachSetting(panel);
  for (const c of panel.querySelectorAll("input[data-look]")) {
    c.addEventListener("change", () => { put(LOOKS[c.dataset.look], c.checked ? "on" : "off"); applyLooks(); window.dispatchEvent(new Event("resize")); });
  }
  for (const c of panel.querySelectorAll("input[data-pace]")) {
    c.addEventListener("change", () => { put(PACE[c.dataset.pace], c.checked ? "on" : "off"); paceChanged(c.dataset.pace, c.checked); });
  }
  $("input[data-sound]", panel).addEventListener("change", (e) => setSound(e.target.checked));
  for (const r of panel.querySelectorAll("input[name=settings-lang]")) {
    r.addEventListener("change", () => { const b = document.querySelector(`[data-lang="${r.value}"]`); if (b) b.click(); });
  }
  bindAidSettings(panel);
  bindStorage(panel);                               // the storage line: persistent or not, space used
  bindBackup(panel, { applied: backupApplied, refresh: () => on.backup() });
}

// --- Backup (lib/backup.js): settings taken from an imported file apply at once -------------
function backupApplied({ settings }) {
  if (!settings) return;
  applyLooks();
  const d = keptDelay();
  if (d !== null) on.delay(d);
  relabelSound();                                   // sound.js reads the kept setting as it plays
  if (panel) relabelSettings();
  window.dispatchEvent(new Event("resize"));
}

// what app.js gives (initSettings): the bots' speed changed (the menu's and the table's), a pace
// option changed (play.js: a kept trick goes on when the option is turned off, the only card
// plays)
let on = { delay: () => {}, pace: () => {}, backup: async () => {} };
function paceChanged(name, value) { on.pace(name, value); }

export function settingsOpen() { return !!panel; }

export function openSettings() {
  if (!panel) {
    before = document.activeElement;
    panel = h("div", { class: "rules-panel settings-panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "settings-title", "data-testid": "settings" });
    document.body.appendChild(panel);
  }
  panel.innerHTML = panelHTML();
  panel.setAttribute("lang", S.lang);
  bind();
  const first = $("input, select", panel);
  if (first) first.focus();
}

export function closeSettings() {
  if (!panel) return;
  panel.remove();
  panel = null;
  unbindBackup();
  if (before && document.contains(before) && typeof before.focus === "function") before.focus();
  before = null;
}

/** The language changed: relabel the button, redraw an open panel. */
export function relabelSettings() {
  const b = document.getElementById("btnSettings");
  if (b) { b.textContent = t("ui.settings"); }
  // the top bar's buttons drawn as icons on a phone keep their words as a tooltip
  for (const [id, key] of [["btnMenu", "ui.menu"], ["btnSave", "ui.save"], ["btnLoad", "ui.load"], ["btnSettings", "ui.settings"]]) {
    const x = document.getElementById(id);
    if (x) x.title = t(key);
  }
  relabelSound();
  if (panel) {
    const focusLang = document.activeElement && document.activeElement.name === "settings-lang";
    const p = panel; panel = null; p.remove();
    const keep = before;
    openSettings();
    before = keep;
    if (focusLang) { const r = $(`input[name=settings-lang][value="${S.lang}"]`, panel); if (r) r.focus(); }
  }
}

/** The panel's button and keys; `delay(ms)` and `pace(name, on)` are told of changes, `backup()`
 *  of games written by an import (lib/backup.js). */
export function initSettings(given) {
  on = { ...on, ...given };
  applyLooks();
  const d = keptDelay();
  if (d !== null) on.delay(d);
  const b = document.getElementById("btnSettings");
  if (b) b.addEventListener("click", () => (panel ? closeSettings() : openSettings()));
  initSound();
  onSoundChange((on) => { const c = panel && $("input[data-sound]", panel); if (c) c.checked = on; });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && panel) { e.preventDefault(); closeSettings(); } });
  relabelSettings();
}
