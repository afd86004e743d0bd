// The menu's kept games (S.saved, see autosave.js): "Continue" for the unfinished ones, and for
// the finished ones the statistics (per game, players and bot levels: played, won, the person's
// average score) and the list of recent games, each with "Review" (the game loaded and the
// review of its last deal opened).  What the buttons do is given by the menu (from app.js).

import { esc } from "../cards.js";
import { S } from "./state.js";
import { t, gameName } from "./words.js";
import { state as storeState } from "./saved-games.js";

const RECENT = 20;

const levelsText = (lv) => (lv.every((x) => x === lv[0]) ? String(lv[0]) : lv.join(","));

function when(ms) {
  try {
    return new Date(ms).toLocaleString(S.lang === "pl" ? "pl-PL" : "en-GB", { dateStyle: "short", timeStyle: "short" });
  } catch (_) { return ""; }
}

/** Statistics rows {game, players, levels, played, won, avg, aids} of finished games. */
export function statistics(games) {
  const rows = new Map();
  for (const g of games) {
    if (!g.finished || !g.result) continue;
    const key = `${g.game}|${g.players}|${levelsText(g.levels)}`;
    let r = rows.get(key);
    if (!r) { r = { game: g.game, players: g.players, levels: levelsText(g.levels), played: 0, won: 0, total: 0, scored: 0, aids: 0 }; rows.set(key, r); }
    r.played += 1;
    if (g.result.won) r.won += 1;
    if (typeof g.result.score === "number") { r.total += g.result.score; r.scored += 1; }
    if (g.aids && (g.aids.hints || g.aids.undo)) r.aids += 1;
  }
  return [...rows.values()].map((r) => ({ ...r, avg: r.scored ? Math.round((r.total / r.scored) * 10) / 10 : null }))
    .sort((a, b) => (a.game < b.game ? -1 : a.game > b.game ? 1 : a.players - b.players || (a.levels < b.levels ? -1 : 1)));
}

/** The kept games' part of the menu: the unfinished ones into `top`, the history into `box`;
 *  the buttons call on.continueGame(id), on.reviewGame(id) and on.forgetGame(id). */
export function renderSaved(top, box, on) {
  if (!box || !top) return;
  const games = S.saved || [];
  const current = S.record && S.record.id;
  const open = games.filter((g) => !g.finished && g.id !== current);
  const done = games.filter((g) => g.finished);
  let html = "";
  if (storeState() === "off") html += `<p class="sub store-off" data-testid="store-off">${esc(t("store.off"))}</p>`;
  if (open.length) {
    html += `<section class="menu-card saved" data-testid="unfinished"><h2>${esc(t("ui.continue.title"))}</h2><ul class="saved-list">${open.map((g) =>
      `<li data-record="${esc(g.id)}"><span class="what"><b>${esc(gameName(g.game))}</b> · ${esc(t("ui.saved.players", { n: g.players }))} · ${esc(t("ui.saved.bots", { levels: levelsText(g.levels) }))}${g.deal_no ? ` · ${esc(t("ui.deal", { deal: g.deal_no }))}` : ""} · <span class="when">${esc(when(g.updated))}</span></span>
        <button type="button" class="primary" data-testid="continue" data-continue="${esc(g.id)}">${esc(t("ui.continue"))}</button>
        <button type="button" class="ghost" data-testid="forget" data-forget="${esc(g.id)}">${esc(t("ui.forget"))}</button></li>`).join("")}</ul></section>`;
  }
  top.innerHTML = html;
  html = "";
  const stats = statistics(done);
  html += `<details class="menu-card history" data-testid="history"><summary>${esc(t("ui.history"))} (${done.length})</summary>`;
  if (!done.length) html += `<p class="sub">${esc(t("ui.history.empty"))}</p>`;
  else {
    html += `<div class="stats-wrap"><table class="stats-table" data-testid="stats"><thead><tr><th>${esc(t("ui.game"))}</th><th>${esc(t("ui.stats.players"))}</th><th>${esc(t("ui.bots"))}</th><th>${esc(t("ui.stats.played"))}</th><th>${esc(t("ui.stats.won"))}</th><th>${esc(t("ui.stats.avg"))}</th></tr></thead><tbody>${stats.map((r) =>
      `<tr data-game="${esc(r.game)}" data-players="${r.players}" data-levels="${esc(r.levels)}" data-played="${r.played}" data-won="${r.won}" data-avg="${r.avg === null ? "" : r.avg}"><td>${esc(gameName(r.game))}</td><td>${r.players}</td><td>${esc(r.levels)}</td><td>${r.played}</td><td>${r.won}</td><td>${r.avg === null ? "–" : esc(r.avg)}</td></tr>`).join("")}</tbody></table></div>`;
    html += `<h3>${esc(t("ui.history.recent"))}</h3><ul class="saved-list recent" data-testid="recent">${done.slice(0, RECENT).map((g) =>
      `<li data-record="${esc(g.id)}"><span class="what"><b>${esc(gameName(g.game))}</b> · ${esc(t("ui.saved.players", { n: g.players }))} · ${esc(t("ui.saved.bots", { levels: levelsText(g.levels) }))} · ${esc(t(g.result && g.result.won ? "ui.history.won" : "ui.history.lost"))}${g.result && typeof g.result.score === "number" ? ` · ${esc(t("ui.history.score", { score: g.result.score }))}` : ""} · <span class="when">${esc(when(g.updated))}</span></span>
        <button type="button" class="ghost" data-testid="history-review" data-review-game="${esc(g.id)}">${esc(t("ui.history.review"))}</button></li>`).join("")}</ul>`;
  }
  html += `</details>`;
  box.innerHTML = html;
  top.querySelectorAll("[data-continue]").forEach((b) => b.addEventListener("click", () => on.continueGame(b.dataset.continue)));
  box.querySelectorAll("[data-review-game]").forEach((b) => b.addEventListener("click", () => on.reviewGame(b.dataset.reviewGame)));
  top.querySelectorAll("[data-forget]").forEach((b) => b.addEventListener("click", () => on.forgetGame(b.dataset.forget)));
}
