// The menu: pick a game (tiles of the engine's games), the number of players, the person's
// seat, each bot's level (the engine's level numbers), the game's rule options, the delay and
// a seed; "New game" hands the settings to the function given by app.js (initMenu), as do the
// kept games' buttons (menu-history.js).  The chosen settings are the state's `menu` part,
// which this module owns.

import { esc } from "../cards.js";
import { canonical } from "./canonical.js";
import { el, $ } from "./dom.js";
import { S, claim, DEFAULT_LEVEL, DELAYS, gameIds, builtGames, levelNumbers } from "./state.js";
import { t, raw, gameName } from "./words.js";
import { showError, isWaiting } from "./notice.js";
import { randomSeed } from "./hash.js";
import { renderSaved } from "./menu-history.js";
import { aidSettingsHTML, bindAidSettings } from "./aids.js";

const menu = claim("menu");
let on = { start: () => {}, continueGame: () => {}, reviewGame: () => {}, forgetGame: () => {} };

/** Set what the menu's buttons do: {start(settings), continueGame(id), reviewGame(id),
 *  forgetGame(id)}. */
export function initMenu(given) { on = { ...on, ...given }; }

/** The bots' speed chosen in the settings: the next game's. */
export function setMenuDelay(delay) { menu.set({ delay }); }

function menuGame() {
  const m = S.menu;
  if (S.info && !S.info.built.includes(m.game)) menu.set({ game: S.info.built.includes("sixty_six") ? "sixty_six" : S.info.built[0] });
  return S.menu.game;
}

/** "Learn to play": a guided first deal of each built game (a link #learn=GAME). */
function learnHTML(built) {
  const links = gameIds().filter((g) => built.includes(g)).map((g) => `<li><a class="learn-link" data-testid="learn-link" data-game="${esc(g)}" href="#learn=${encodeURIComponent(g)}&amp;lang=${esc(S.lang)}">${esc(t("ui.learn.link", { game: gameName(g) }))}</a></li>`).join("");
  return links ? `<nav class="learn-menu" data-testid="menu-learn" aria-label="${esc(t("ui.learn.title"))}"><h3>${esc(t("ui.learn.menu"))}</h3><ul>${links}</ul></nav>` : "";
}

export function renderMenu() {
  const game = menuGame();
  const cls = S.info && S.info.classes[game];
  const counts = cls ? cls.players : [];
  menu.update((m) => {
    const players = counts.includes(m.players) ? m.players : counts[0] ?? null;
    const n = players || 0;
    const levels = Array.from({ length: Math.max(0, n - 1) }, (_, i) => m.levels[i] ?? DEFAULT_LEVEL);
    return { players, seat: m.seat >= n ? 0 : m.seat, levels: canonical(levels) === canonical(m.levels) ? m.levels : levels };
  });
  const m = S.menu;
  const n = m.players || 0;
  const built = builtGames();
  const waiting = isWaiting() && !S.ready;     // New game was clicked while Python loads
  const tiles = gameIds().map((g) => {
    // (the rules line is clamped to a few lines; the whole text is its title)
    const on = built.includes(g);
    const rules = raw("rules", g);
    return `<label class="tile${on ? "" : " off"}${g === game ? " on" : ""}">
      <input type="radio" name="game" value="${esc(g)}" ${g === game ? "checked" : ""} ${on && S.info ? "" : "disabled"}>
      <span class="tname">${esc(gameName(g))}</span>${on ? (rules ? `<span class="trules" title="${esc(rules)}">${esc(rules)}</span>` : "") : `<span class="trules soon">${esc(t("ui.not_built"))}</span>`}</label>`;
  }).join("");
  const opt = (value, label, sel) => `<option value="${esc(value)}" ${sel ? "selected" : ""}>${esc(label)}</option>`;
  const seatOpts = Array.from({ length: n }, (_, s) => opt(s, t("ui.seat", { n: s }), s === m.seat)).join("");
  const others = Array.from({ length: n }, (_, s) => s).filter((s) => s !== m.seat);
  const bots = others.map((s, i) => `<label class="field"><span>${esc(t("ui.bot_level", { n: s }))}</span>
      <select data-level="${i}">${levelNumbers().map((l) => opt(l, t("ui.level." + l), l === m.levels[i])).join("")}</select></label>`).join("");
  const options = cls ? Object.entries(cls.options).map(([k, vals]) => {
    const cur = m.options[k] !== undefined ? m.options[k] : vals[0];
    return `<label class="field"><span>${esc(t("option." + k, {}, game))}</span><select data-option="${esc(k)}">${vals.map((val, i) =>
      opt(i, raw(`option.${k}.${val}`, game) ?? String(val), canonical(val) === canonical(cur))).join("")}</select></label>`;
  }).join("") : "";
  el.menu.innerHTML = `<div class="saved-box" data-saved-open></div><div class="menu-card">
    <h2>${esc(t("ui.menu.title"))}</h2><p class="sub">${esc(t("ui.menu.subtitle"))}</p>
    <fieldset class="games"><legend>${esc(t("ui.game"))}</legend><div class="tiles">${tiles}</div></fieldset>
    ${learnHTML(built)}
    <div class="fields">
      <label class="field"><span>${esc(t("ui.players"))}</span><select data-k="players" ${counts.length ? "" : "disabled"}>${counts.map((c) => opt(c, c, c === m.players)).join("")}</select></label>
      <label class="field"><span>${esc(t("ui.your_seat"))}</span><select data-k="seat" ${n ? "" : "disabled"}>${seatOpts}</select></label>
      ${bots}${options ? `${options}` : ""}
      <label class="field"><span>${esc(t("ui.delay"))}</span><select data-k="delay">${DELAYS.map((d) => opt(d, t("ui.delay." + d), d === m.delay)).join("")}</select></label>
      <label class="field"><span>${esc(t("ui.seed"))}</span><input data-k="seed" inputmode="numeric" placeholder="${esc(t("ui.seed.random"))}" value="${esc(m.seed)}"></label>
      ${aidSettingsHTML()}
      <label class="field check"><input type="checkbox" data-k-teach ${m.teach ? "checked" : ""}><span>${esc(t("ui.teach"))}</span></label>
    </div>
    <div class="menu-buttons">
      <button type="button" class="primary" data-testid="new-game" ${S.info ? "" : "disabled"}${waiting ? ' aria-busy="true" data-waiting' : ""}>${esc(t(waiting ? "ui.start.waiting" : "ui.start"))}</button>
      <button type="button" class="ghost" data-testid="open-lab">${esc(t("ui.lab"))}</button>
      <button type="button" class="ghost" data-testid="menu-rules" data-game="${esc(game)}" aria-keyshortcuts="?">${esc(t("ui.rules"))}</button>
      ${S.view ? `<button type="button" class="ghost" data-close>${esc(t("ui.close"))}</button>` : ""}
    </div></div><div class="saved-box" data-saved-done></div>`;
  // the games and their settings come from build.json before the engine is ready
  if (S.info && !performance.getEntriesByName("atut-menu-usable").length) performance.mark("atut-menu-usable");
  renderSaved($("[data-saved-open]", el.menu), $("[data-saved-done]", el.menu), on);
  bindAidSettings(el.menu);
  $("input[data-k-teach]", el.menu).addEventListener("change", (e) => { menu.set({ teach: e.target.checked }); });
  el.menu.querySelectorAll("input[name=game]").forEach((r) => r.addEventListener("change", () => { menu.set({ game: r.value, options: {} }); renderMenu(); }));
  el.menu.querySelectorAll("select[data-k]").forEach((s) => s.addEventListener("change", () => {
    menu.set({ [s.dataset.k]: parseInt(s.value, 10) });
    renderMenu();
  }));
  el.menu.querySelectorAll("select[data-level]").forEach((s) => s.addEventListener("change", () => {
    menu.update((old) => { const levels = [...old.levels]; levels[+s.dataset.level] = parseInt(s.value, 10); return { levels }; });
  }));
  el.menu.querySelectorAll("select[data-option]").forEach((s) => s.addEventListener("change", () => {
    menu.update((old) => ({ options: { ...old.options, [s.dataset.option]: cls.options[s.dataset.option][parseInt(s.value, 10)] } }));
  }));
  $("input[data-k=seed]", el.menu).addEventListener("input", (e) => { menu.set({ seed: e.target.value }); });
  $("[data-testid=new-game]", el.menu).addEventListener("click", () => {
    const m = S.menu;
    let seed;
    const sv = String(m.seed).trim();
    if (sv === "") seed = randomSeed();
    else if (/^\d+$/.test(sv)) seed = parseInt(sv, 10);
    else { showError(t("ui.bad_link", { message: `seed must be a whole number, not "${sv}"` })); return; }
    on.start({ game, players: m.players, seed, seat: m.seat, levels: m.levels.length ? m.levels : [DEFAULT_LEVEL], delay: m.delay, options: { ...m.options }, teach: !!m.teach });
  });
  $("[data-testid=open-lab]", el.menu).addEventListener("click", () => { location.hash = "lab=" + game; });
  const close = $("[data-close]", el.menu);
  if (close) close.addEventListener("click", closeMenu);
}

export function openMenu() {
  if (S.view) {                    // start from the current settings
    menu.set({ game: S.game, players: S.players, seat: S.seat, levels: [...S.levels], options: { ...S.options }, delay: S.delay, teach: !!S.teach });
  }
  renderMenu();
  el.menu.hidden = false;
  document.body.classList.add("menu-open");
}

export function closeMenu() {
  el.menu.hidden = true;
  document.body.classList.remove("menu-open");
}
