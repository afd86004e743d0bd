// The bot lab (#lab=GAME): a Python editor (CodeMirror, web/lab/editor.js, bundled by build.py)
// holding the student's bot, the game's example bots, a help panel of the view's fields (from
// the engine: atut.lab.view_help), bots kept in the browser by name (saved.js), .py export and
// import, a pure-Python wheel added from a file, and the arena: the student's bot against
// levels 1-4 or another saved bot on duplicate deals, with a progress bar, the command line's
// report, a uPlot chart of the running win share and CSV export.  The student's code runs only
// in boxes of its own (docs/LAB.md, "Boxes": web/lib/box.js, a box a seat, games.js's BoxPool):
// the lab's worker (client.js) holds the games and our levels (atut.arena.deal_steps, the watch
// ops) and checks every answer; the page hands each decision to the seat's box.  The lab's tab
// (editor or tournament) is in the link: #lab=GAME&tab=tournament.
//
// Page hooks (CONTRACT.md): [data-testid=lab-editor] (the editor), lab-run, lab-results,
// lab-error; also lab-stop, lab-save, lab-name, lab-saved, lab-export, lab-import, lab-wheel,
// lab-opponent, lab-players, lab-deals, lab-limit, lab-progress, lab-csv, lab-chart, lab-help;
// at the table (table.js): lab-play-against (with lab-against-seats: one or every other
// seat), lab-partner (euchre), lab-table-watch; the tabs lab-tab-editor and lab-tab-tournament
// (the class tournament: tournament.js).

import { S, builtGames } from "../state.js";
import { fillText } from "../../i18n.js";
import words from "../../i18n/lab.js";
import { esc, chip } from "../../cards.js";
import { gameName, t as tWord } from "../words.js";
import { LabWorker } from "./client.js";
import { download, readBot } from "./files.js";
import { BoxPool, boxError, openSeat, playArena } from "./games.js";
import * as saved from "./saved.js";

const L = (key, params = {}) => {
  const tpl = (words[S.lang] && words[S.lang][key]) ?? words.en[key] ?? key;
  return fillText(tpl, params);
};
const DEFAULT_LEVELS = { random: 1, rules: 2, search: 3, strong: 4 };
const gameTitle = (g) => gameName(g);

const lab = {
  root: null, editor: null, game: null, name: "bot.py", client: null, info: {}, classes: null,
  tab: "editor", result: null, chart: null, watchGen: 0, open: false, play: null, series: null, wheels: [], kit: null, busy: false, error: null,
  pool: null, held: new Set(), stopGen: 0, tabSeq: 0,
};
const TABS = ["editor", "tournament"];
// the boxes kept between runs: the arena's seats (a bot in up to every seat) and the opponent's
const MAX_BOXES = 10;

function node(sel) { return lab.root.querySelector(sel); }

function link(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  const l = document.createElement("link");
  l.rel = "stylesheet";
  l.href = href;
  document.head.appendChild(l);
}

async function classes() {
  if (lab.classes) return lab.classes;
  try {
    const r = await fetch(new URL("../../build.json", import.meta.url));
    const m = await r.json();
    lab.classes = m.classes || {};
    lab.built = Array.isArray(m.built) ? m.built : [];
  } catch (_) {
    lab.classes = {};
    lab.built = [];
  }
  return lab.classes;
}

function skeleton() {
  const s = document.createElement("section");
  s.id = "lab";
  s.className = "lab";
  s.dataset.testid = "lab";
  s.innerHTML = `
  <div class="lab-head">
    <div><h2 data-l="lab.title"></h2><p class="sub" data-l="lab.subtitle"></p></div>
    <label class="field inline"><span data-l="lab.game"></span><select data-testid="lab-game"></select></label>
    <span class="lab-state" data-testid="lab-state" aria-live="polite"></span>
    <button type="button" class="ghost" data-testid="lab-back" data-l="lab.back"></button>
  </div>
  <div class="lab-tabs" role="tablist">
    <button type="button" role="tab" id="lab-tab-editor" aria-controls="lab-pane-editor" aria-selected="true" data-testid="lab-tab-editor" data-tab="editor" data-l="lab.tab.editor"></button>
    <button type="button" role="tab" id="lab-tab-tournament" aria-controls="lab-pane-tournament" aria-selected="false" tabindex="-1" data-testid="lab-tab-tournament" data-tab="tournament" data-l="lab.tab.tournament"></button>
  </div>
  <div class="lab-pane" id="lab-pane-tournament" role="tabpanel" aria-labelledby="lab-tab-tournament" hidden></div>
  <div class="lab-grid" id="lab-pane-editor" role="tabpanel" aria-labelledby="lab-tab-editor">
    <div class="lab-code panel">
      <div class="lab-tools">
        <label class="field inline"><span data-l="lab.name"></span><input data-testid="lab-name" spellcheck="false" autocomplete="off"></label>
        <button type="button" data-testid="lab-save" data-l="lab.save"></button>
        <button type="button" data-testid="lab-export" data-l="lab.export"></button>
        <button type="button" data-testid="lab-import" data-l="lab.import"></button>
        <input type="file" data-testid="lab-import-file" accept=".py,text/x-python,text/plain" hidden>
        <button type="button" data-testid="lab-wheel" data-l="lab.wheel"></button>
        <input type="file" data-testid="lab-wheel-file" accept=".whl" hidden>
        <select data-testid="lab-examples"></select>
      </div>
      <div class="lab-table-row" data-testid="lab-table">
        <span class="lab-table-title" data-l="lab.table.title"></span>
        <button type="button" data-testid="lab-play-against" data-l="lab.table.against"></button>
        <select data-testid="lab-against-seats"><option value="one" data-l="lab.table.one"></option><option value="all" data-l="lab.table.all"></option></select>
        <button type="button" data-testid="lab-partner" data-l="lab.table.partner"></button>
        <button type="button" data-testid="lab-table-watch" data-l="lab.table.watch"></button>
      </div>
      <div class="lab-editor" data-testid="lab-editor"></div>
      <div class="lab-error" data-testid="lab-error" role="alert" hidden></div>
      <div class="lab-note" data-testid="lab-note" aria-live="polite"></div>
      <section class="lab-saved"><h3 data-l="lab.saved_list"></h3><ul data-testid="lab-saved"></ul></section>
    </div>
    <div class="lab-side">
      <section class="panel lab-arena">
        <h2 data-l="lab.arena"></h2>
        <div class="fields">
          <label class="field"><span data-l="lab.opponent"></span><select data-testid="lab-opponent"></select></label>
          <label class="field"><span data-l="lab.players"></span><select data-testid="lab-players"></select></label>
          <label class="field"><span data-l="lab.deals"></span><input data-testid="lab-deals" type="number" min="1" max="100000" value="20"></label>
          <label class="field"><span data-l="lab.seed"></span><input data-testid="lab-seed" type="number" min="0" value="1"></label>
          <label class="field"><span data-l="lab.limit"></span><input data-testid="lab-limit" type="number" min="0.1" max="600" step="0.1" value="2"></label>
        </div>
        <div class="menu-buttons">
          <button type="button" class="primary" data-testid="lab-run" data-l="lab.run" disabled></button>
          <button type="button" class="ghost" data-testid="lab-check" data-l="lab.check" disabled></button>
          <button type="button" class="ghost" data-testid="lab-stop" data-l="lab.stop"></button>
        </div>
        <div class="lab-progress" data-testid="lab-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0" hidden>
          <div class="bar"><div class="fill"></div></div><span class="text"></span>
        </div>
        <div class="lab-results" data-testid="lab-results" aria-live="polite"></div>
        <div class="lab-chart" data-testid="lab-chart" hidden></div>
      </section>
      <section class="panel lab-watch">
        <h2 data-l="lab.watch"></h2>
        <p class="sub" data-l="lab.watch.intro"></p>
        <div class="menu-buttons">
          <label class="field inline"><span data-l="lab.speed"></span><select data-testid="lab-speed">
            <option value="0"></option><option value="300"></option><option value="700" selected></option><option value="1500"></option></select></label>
          <button type="button" class="ghost" data-testid="lab-watch" data-l="lab.watch.start" disabled></button>
          <button type="button" class="ghost" data-testid="lab-watch-pause" data-l="lab.watch.pause"></button>
        </div>
        <div class="lab-watch-board" data-testid="lab-watch-board"></div>
      </section>
      <details class="panel lab-help" data-testid="lab-help" open><summary data-l="lab.help"></summary><div class="body"></div></details>
    </div>
  </div>`;
  document.querySelector("main").appendChild(s);
  return s;
}

// --- the Tournament tab: lib/lab/tournament.js, loaded when first shown ----------------------

/** The lab's link: its game, its tab (the editor's is the default) and the language. */
function writeLink() {
  if (!lab.open) return;
  history.replaceState(null, "", `#lab=${lab.game}${lab.tab === "editor" ? "" : "&tab=" + lab.tab}&lang=${S.lang}`);
}

async function showTab(tab) {
  lab.tabSeq++;
  lab.tab = TABS.includes(tab) ? tab : "editor";
  tab = lab.tab;
  writeLink();
  for (const b of lab.root.querySelectorAll("[data-tab]")) {
    const on = b.dataset.tab === tab;
    b.setAttribute("aria-selected", on ? "true" : "false");
    b.tabIndex = on ? 0 : -1;
  }
  node("#lab-pane-editor").hidden = tab !== "editor";
  node("#lab-pane-tournament").hidden = tab !== "tournament";
  if (tab === "tournament") {
    const m = await import("./tournament.js");
    m.showTournament(node("#lab-pane-tournament"), { game: lab.game, classes: lab.classes, kit: lab.kit });
  }
}

function paintWords() {
  for (const e of lab.root.querySelectorAll("[data-l]")) e.textContent = L(e.dataset.l);
  node(".lab-tabs").setAttribute("aria-label", L("lab.tab.label"));
  if (lab.tab === "tournament") import("./tournament.js").then((m) => m.relabelTournament());
  node(".lab-editor").setAttribute("aria-label", L("lab.editor"));
  if (lab.editor) lab.editor.setLabel(L("lab.editor"));
  const gs = node("[data-testid=lab-game]");
  gs.innerHTML = (builtGames().length ? builtGames() : lab.built || []).map((g) => `<option value="${esc(g)}" ${g === lab.game ? "selected" : ""}>${esc(gameTitle(g))}</option>`).join("");
  for (const o of node("[data-testid=lab-speed]").options) o.textContent = L("lab.speed." + o.value);
  paintState();
  paintTable();
  paintExamples();
  paintSaved();
  paintOpponents();
  paintHelp();
  paintResults();
  paintError();
}

function paintState() {
  const st = lab.client ? lab.client.state : "loading";
  node("[data-testid=lab-state]").textContent = st === "ready" ? L("lab.ready") : st === "failed" ? L("lab.failed", { message: lab.failMessage || "" }) : L("lab.loading");
  node("[data-testid=lab-state]").dataset.state = st;
  node("[data-testid=lab-run]").disabled = st !== "ready" || lab.busy;
  node("[data-testid=lab-check]").disabled = st !== "ready" || lab.busy;
  node("[data-testid=lab-watch]").disabled = st !== "ready" || lab.busy;
}

function note(text) { node("[data-testid=lab-note]").textContent = text; }

// --- your bot at the table: lib/lab/table.js -----------------------------------------------

function paintTable() {
  const cls = (lab.classes || {})[lab.game] || (S.info && S.info.classes && S.info.classes[lab.game]);
  node("[data-testid=lab-partner]").hidden = !(cls && cls.partners);   // GameSpec.partners
  node("[data-testid=lab-against-seats]").setAttribute("aria-label", L("lab.table.seats"));
  for (const b of lab.root.querySelectorAll("[data-testid=lab-table] button")) b.disabled = lab.seating;
}

async function seatBot(mode) {
  const name = currentName();
  if (bad(name)) { lab.error = { text: L("lab.bad_name", { name }) }; paintError(); return; }
  if (!S.ready) { note(L("lab.table.not_ready")); return; }
  lab.name = name;
  const source = lab.editor ? lab.editor.getText() : "";
  // kept under its name: a reload resumes the game with the bot taken from the saved bots
  if (saved.save(name, source, lab.game)) { paintSaved(); paintOpponents(); }
  lab.error = null;
  paintError();
  lab.seating = true;
  paintTable();
  note(L("lab.table.starting", { name }));
  try {
    const table = await import("./table.js");
    const players = parseInt(node("[data-testid=lab-players]").value, 10);
    const seed = parseInt(node("[data-testid=lab-seed]").value, 10);
    const ok = await table.seatAtTable({
      mode, game: lab.game, players, name, source, limitMs: limitMs(),
      delay: mode === "watch" ? parseInt(node("[data-testid=lab-speed]").value, 10) || 0 : S.menu.delay,
      against: node("[data-testid=lab-against-seats]").value,
      seed: Number.isSafeInteger(seed) && seed >= 0 ? seed : undefined,      // the lab's seed deals
    }, lab.play);
    note("");
    if (ok) closeLab();
  } catch (err) {
    note("");
    showFailure(err);
  } finally {
    lab.seating = false;
    paintTable();
  }
}

function paintExamples() {
  const ex = lab.info[lab.game] ? lab.info[lab.game].examples : {};
  node("[data-testid=lab-examples]").innerHTML = `<option value="">${esc(L("lab.example_pick"))}</option>` +
    Object.keys(ex).map((n) => `<option value="${esc(n)}">${esc(n)}</option>`).join("");
}

function paintSaved() {
  const items = saved.list();
  node("[data-testid=lab-saved]").innerHTML = items.length ? items.map((b) => `<li data-bot="${esc(b.name)}">
      <span class="what">${esc(b.name)}</span><span class="when">${esc(b.game || "")}</span>
      <button type="button" data-open="${esc(b.name)}">${esc(L("lab.open_saved"))}</button>
      <button type="button" data-delete="${esc(b.name)}">${esc(L("lab.delete"))}</button></li>`).join("")
    : `<li class="none">${esc(L("lab.saved_none"))}</li>`;
}

function levelNames() { return (S.info && S.info.levels) || DEFAULT_LEVELS; }

function paintOpponents() {
  const sel = node("[data-testid=lab-opponent]");
  const cur = sel.value || "level:1";
  const levels = Object.entries(levelNames()).filter(([n]) => !/^\d+$/.test(n)).sort((a, b) => a[1] - b[1]);
  const bots = saved.list();
  sel.innerHTML = levels.map(([n, v]) => `<option value="level:${v}">${esc(L("lab.level", { n: v, name: n }))}</option>`).join("") +
    bots.map((b) => `<option value="bot:${esc(b.name)}">${esc(b.name)}</option>`).join("");
  sel.value = [...sel.options].some((o) => o.value === cur) ? cur : "level:1";
  const ps = node("[data-testid=lab-players]");
  const counts = (lab.classes && lab.classes[lab.game] && lab.classes[lab.game].players) || [];
  const pcur = parseInt(ps.value, 10);
  ps.innerHTML = counts.map((c) => `<option value="${c}">${c}</option>`).join("");
  if (counts.includes(pcur)) ps.value = String(pcur);
}

function paintHelp() {
  const body = node(".lab-help .body");
  const info = lab.info[lab.game];
  if (!info) { body.textContent = L("lab.loading"); return; }
  const h = info.help;
  if (h.error) { body.textContent = h.error; return; }
  const rows = Object.entries(h.fields).map(([k, d]) => `<tr><th scope="row"><code>${esc(k)}</code></th><td>${esc(d[S.lang] || d.en)}</td></tr>`).join("");
  const phases = Object.entries(h.phases || {}).map(([p, keys]) => `<li><b>${esc(p)}</b>: ${keys.map((k) => `<code>${esc(k)}</code>`).join(", ")}</li>`).join("");
  body.innerHTML = `<p>${esc(L("lab.help.intro"))}</p><table class="lab-fields">${rows}</table>
    ${phases ? `<h3>${esc(L("lab.help.phases"))}</h3><ul class="lab-phases">${phases}</ul>` : ""}
    <h3>${esc(L("lab.help.example"))}</h3><pre class="lab-view" data-testid="lab-example-view">${esc(JSON.stringify(h.example, null, 1))}</pre>`;
}

const fmt = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "∞");
const signed = (x, d = 0) => (Number.isFinite(x) ? (x >= 0 ? "+" : "") + x.toFixed(d) : "∞");

function paintResults() {
  const box = node("[data-testid=lab-results]");
  const out = lab.result;
  if (!out) { box.innerHTML = `<p class="sub">${esc(L("lab.no_results"))}</p>`; return; }
  const r = out.result;
  const rows = r.bots.map((b, i) => `<tr${i === 0 ? ' class="you"' : ""}><th scope="row">${esc(i === 0 ? L("lab.you", { name: b.name }) : b.name)}</th>
    <td>${b.seats}</td><td data-share="${b.share}">${fmt(b.share)}<br><small>[${fmt(Math.max(0, b.share - b.share_ci))}, ${fmt(Math.min(1, b.share + b.share_ci))}]</small></td>
    <td>${fmt(b.fair)}</td><td>${signed(b.margin, 2)}<br><small>± ${fmt(b.margin_ci, 2)}</small></td><td>${signed(b.elo)}<br><small>[${signed(b.elo_lo)}, ${signed(b.elo_hi)}]</small></td></tr>`).join("");
  box.innerHTML = `<h3>${esc(L("lab.results"))}</h3>
    <p class="sub">${esc(L("lab.summary", { deals: r.deals, players: r.players, seed: r.seed, seconds: r.seconds.toFixed(1), dps: r.deals_per_second.toFixed(1) }))}</p>
    <div class="lab-table-wrap"><table class="lab-report"><thead><tr><th>${esc(L("lab.col.bot"))}</th><th>${esc(L("lab.col.seats"))}</th><th>${esc(L("lab.col.share"))}<br><small>${esc(L("lab.col.ci"))}</small></th>
    <th>${esc(L("lab.col.fair"))}</th><th>${esc(L("lab.col.margin"))}</th><th>${esc(L("lab.col.elo"))}</th></tr></thead><tbody>${rows}</tbody></table></div>
    <pre class="lab-cli" data-testid="lab-report">${esc(out.report)}</pre>
    <button type="button" class="ghost" data-testid="lab-csv">${esc(L("lab.csv"))}</button>`;
}

function paintError() {
  const box = node("[data-testid=lab-error]");
  const e = lab.error;
  box.hidden = !e;
  if (!e) { if (lab.editor) lab.editor.markLine(null); return; }
  const msg = e.bot ? (e.bot.messages[S.lang] || e.bot.messages.en) : e.text;
  const line = e.bot && e.bot.line ? ` (${L("lab.line", { line: e.bot.line })})` : "";
  box.innerHTML = `<strong>${esc(L("lab.error"))}${esc(line)}</strong><p class="msg">${esc(msg)}</p>` +
    (e.bot && e.bot.traceback ? `<pre>${esc(e.bot.traceback)}</pre>` : "");
  if (e.bot && e.bot.line) box.dataset.line = String(e.bot.line);
  else delete box.dataset.line;
  if (lab.editor && e.bot && e.bot.name === lab.name) lab.editor.markLine(e.bot.line);
  box.scrollIntoView({ block: "nearest" });
}

function showFailure(err) {
  const b = err.botError;
  if (err.stopped === "stop") { lab.error = null; note(L("lab.stopped")); }
  else if (b && b.kind === "timeout") lab.error = { text: L("lab.timeout", { name: b.name || lab.name, limit: limitMs() / 1000 }) };
  else if (b) lab.error = { bot: b };
  else lab.error = { text: err.message };
  paintError();
}

// --- the boxes: the student's code runs only there (docs/LAB.md, "Boxes") --------------------

function pool() {
  if (!lab.pool) lab.pool = new BoxPool(limitMs() / 1000, { maxBoxes: MAX_BOXES });
  lab.pool.wheels = lab.wheels;
  lab.pool.setLimit(limitMs() / 1000);
  return lab.pool;
}

/** Stop: every box in use is ended (a bot deep in a long decision included), and the run that
 * holds them ends at its next step. */
function stopRun() {
  lab.stopGen++;
  lab.watchGen++;
  for (const b of lab.held) b.kill("closed");
  lab.held.clear();
}

/** The stop check of a run started now. */
function stopper() {
  const gen = lab.stopGen;
  return () => gen !== lab.stopGen;
}

/** A box's own failure at the start (its file's error, or the box did not start) as the error
 * the lab shows. */
function boxFailure(box, name) {
  const err = new Error("box");
  const e = boxError(box);
  const prefix = (m) => (m.startsWith(name + ": ") ? m : `${name}: ${m}`);
  err.botError = { ...e, name: e.name || name, messages: { en: prefix(e.messages.en), pl: prefix(e.messages.pl || e.messages.en) } };
  return err;
}

// --- watching a game with open hands ------------------------------------------------------------

const card = (c) => chip(c, (k) => tWord(k), true);

function paintWatch(st) {
  const box = node("[data-testid=lab-watch-board]");
  if (!st) { box.innerHTML = ""; return; }
  const trick = Array.isArray(st.trick) ? st.trick : [];
  const seats = st.hands.map((h, s) => {
    const who = s === 0 ? L("lab.you", { name: lab.name }) : L("lab.watch.seat", { n: s });
    const played = trick.filter((x) => x && x.seat === s && typeof x.card === "string").map((x) => card(x.card)).join("");
    const last = st.last && st.last.seat === s ? `<code class="act">${esc(JSON.stringify(st.last.action))}</code>` : "";
    return `<li class="${st.to_move === s && !st.is_over ? "to-move" : ""}" data-watch-seat="${s}"><b>${esc(who)}</b>
      <span class="cards">${h.map(card).join("")}</span>${played ? `<span class="played">${played}</span>` : ""}${last}</li>`;
  }).join("");
  box.innerHTML = `<p class="sub" data-testid="lab-watch-status" data-steps="${st.steps}" data-over="${st.is_over ? 1 : 0}">${esc(L(st.is_over ? "lab.watch.over" : "lab.watch.status", { deal: st.deal_no ?? "", scores: (st.scores || []).join(" : "), steps: st.steps }))}</p><ul class="lab-watch-seats">${seats}</ul>`;
}

async function watch() {
  const name = currentName();
  if (bad(name)) { lab.error = { text: L("lab.bad_name", { name }) }; paintError(); return; }
  lab.name = name;
  const gen = ++lab.watchGen;
  lab.error = null;
  paintError();
  const players = parseInt(node("[data-testid=lab-players]").value, 10);
  const seed = parseInt(node("[data-testid=lab-seed]").value, 10);
  const specs = [{ source: lab.editor.getText(), name }, opponentSpec()];
  const boxes = {};                        // a box a bot file's seat, a fresh namespace each
  const p = pool();
  try {
    let st = await lab.client.request("watch", { game: lab.game, players, seed: Number.isFinite(seed) ? seed : 1, bots: specs.map((sp) => (sp.source !== undefined ? { name: sp.name, file: true } : { level: sp.level })) });
    while (gen === lab.watchGen) {
      paintWatch(st);
      if (st.is_over) return;
      const ms = parseInt(node("[data-testid=lab-speed]").value, 10) || 0;
      await new Promise((r) => setTimeout(r, ms));
      if (gen !== lab.watchGen) return;
      let answer = null;
      if (st.ask) {
        const { seat, entry, view } = st.ask;
        if (!boxes[seat]) {
          const { box, err } = await openSeat(p, specs[entry], true);
          boxes[seat] = box;
          lab.held.add(box);
          if (box.loadError || box.dead) throw boxFailure(box, specs[entry].name);
          if (err) answer = { error: err };
        }
        if (gen !== lab.watchGen) return;
        if (!answer) answer = await boxes[seat].choose(view);
      }
      if (gen !== lab.watchGen) return;
      st = await lab.client.request("watch_step", { answer });
    }
  } catch (err) {
    if (gen === lab.watchGen) showFailure(err);
  } finally {
    for (const b of Object.values(boxes)) { lab.held.delete(b); p.release(b); }
  }
}

// --- the chart ------------------------------------------------------------------------------

function drawChart(points, fair) {
  const box = node("[data-testid=lab-chart]");
  if (!lab.kit || !points.length) { box.hidden = true; return; }
  box.hidden = false;
  const xs = points.map((p) => p.deals);
  const clip = (v) => Math.max(0, Math.min(1, v));
  const data = [xs, points.map((p) => p.share), points.map((p) => clip(p.lo)), points.map((p) => clip(p.hi)), xs.map(() => fair)];
  const width = Math.max(240, (node(".lab-arena").clientWidth || 420) - 32);
  if (lab.chart) { lab.chart.destroy(); lab.chart = null; }
  box.innerHTML = `<p class="sub">${esc(L("lab.chart"))}</p>`;
  const { uPlot } = lab.kit;
  lab.chart = new uPlot({
    width, height: 220,
    scales: { x: { time: false }, y: { range: [0, 1] } },
    axes: [{}, {}],
    series: [
      {},
      { label: L("lab.chart.share"), stroke: "#1d4ed8", width: 2 },
      { label: L("lab.chart.lo"), stroke: "#93a9e8", dash: [4, 4] },
      { label: L("lab.chart.hi"), stroke: "#93a9e8", dash: [4, 4] },
      { label: L("lab.chart.fair"), stroke: "#c9962a", width: 1 },
    ],
    bands: [{ series: [3, 2], fill: "rgba(29, 78, 216, .12)" }],
    legend: { show: true },
  }, data, box);
}

// --- actions --------------------------------------------------------------------------------

function bad(name) { return !saved.NAME.test(name); }

function currentName() {
  const n = node("[data-testid=lab-name]").value.trim();
  return n;
}

function setCode(name, source) {
  lab.name = name;
  node("[data-testid=lab-name]").value = name;
  if (lab.editor) lab.editor.setText(source);
  lab.error = null;
  paintError();
  saved.keepDraft(lab.game, name, source);
}

function opponentSpec() {
  const v = node("[data-testid=lab-opponent]").value;
  if (v.startsWith("bot:")) {
    const b = saved.get(v.slice(4));
    if (b) return { source: b.source, name: b.name === currentName() ? "opponent_" + b.name : b.name };
  }
  return { level: parseInt(v.slice(6), 10) || 1 };
}

function limitMs() {
  const s = parseFloat(node("[data-testid=lab-limit]").value);
  return Number.isFinite(s) && s > 0 ? Math.round(s * 1000) : 2000;
}

function setBusy(on) {
  lab.busy = on;
  paintState();
}

function progress(m) {
  const bar = node("[data-testid=lab-progress]");
  bar.hidden = false;
  const pct = Math.round((100 * m.done) / Math.max(1, m.total));
  bar.setAttribute("aria-valuenow", String(pct));
  bar.querySelector(".fill").style.width = pct + "%";
  bar.querySelector(".text").textContent = L("lab.running", { done: m.done, total: m.total, dps: m.dps.toFixed(1) });
  if (m.point) {
    lab.series.push(m.point);
    drawChart(lab.series, lab.fair);
  }
}

async function runArena() {
  const name = currentName();
  if (bad(name)) { lab.error = { text: L("lab.bad_name", { name }) }; paintError(); return; }
  lab.name = name;
  const players = parseInt(node("[data-testid=lab-players]").value, 10);
  const deals = parseInt(node("[data-testid=lab-deals]").value, 10);
  const seed = parseInt(node("[data-testid=lab-seed]").value, 10);
  lab.error = null;
  paintError();
  note("");
  lab.result = null;
  paintResults();
  lab.series = [];
  lab.fair = 1 / players;
  node("[data-testid=lab-chart]").hidden = true;
  setBusy(true);
  const stopped = stopper();
  try {
    const out = await playArena(lab.client, {
      game: lab.game, players, deals: Number.isFinite(deals) ? deals : 20, seed: Number.isFinite(seed) ? seed : 1,
    }, [{ source: lab.editor.getText(), name }, opponentSpec()], pool(), { onDeal: (m) => { if (!stopped()) progress(m); }, hold: lab.held, stopped });
    lab.result = out;
    lab.fair = out.result.bots[0].fair;
    paintResults();
    drawChart(out.result.running[0], lab.fair);
  } catch (err) {
    showFailure(err);
  } finally {
    node("[data-testid=lab-progress]").hidden = true;
    setBusy(false);
  }
}

async function check() {
  const name = currentName();
  if (bad(name)) { lab.error = { text: L("lab.bad_name", { name }) }; paintError(); return; }
  lab.name = name;
  lab.error = null;
  paintError();
  setBusy(true);
  const p = pool();
  let box = null;
  try {
    // loaded in a box of its own, as the arena will (its file's error is the box's answer)
    box = await p.take({ source: lab.editor.getText(), name });
    if (box.loadError || box.dead) throw boxFailure(box, name);
    note(L("lab.check_ok"));
  } catch (err) {
    showFailure(err);
  } finally {
    if (box) p.release(box);
    setBusy(false);
  }
}

const WHEEL = /^[A-Za-z0-9_.]+-[A-Za-z0-9_.+!]+(-[0-9][A-Za-z0-9_]*)?-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+\.whl$/;

/** A pure-Python wheel of the student's, kept in the page and unpacked by every box started
 * afterwards (the boxes kept so far are ended: they do not have it). */
function addWheel(w) {
  if (!WHEEL.test(w.name)) { note(L("lab.wheel_failed", { message: w.name })); return false; }
  if (!w.name.endsWith("-none-any.whl")) { note(L("lab.wheel_failed", { message: L("lab.wheel_not_pure", { name: w.name }) })); return false; }
  lab.wheels = lab.wheels.filter((x) => x.name !== w.name).concat([w]);
  if (lab.pool) { lab.pool.close(); lab.pool = null; }
  note(L("lab.wheel_done", { name: w.name }));
  return true;
}

function bind() {
  const r = lab.root;
  node("[data-testid=lab-back]").addEventListener("click", () => {
    history.replaceState(null, "", location.pathname + location.search);
    closeLab();
    if (lab.onBack) lab.onBack();
  });
  node("[data-testid=lab-game]").addEventListener("change", (e) => { location.hash = "lab=" + e.target.value + (lab.tab === "editor" ? "" : "&tab=" + lab.tab); });
  const tabs = node(".lab-tabs");
  tabs.addEventListener("click", (e) => { const b = e.target.closest("[data-tab]"); if (b) showTab(b.dataset.tab); });
  tabs.addEventListener("keydown", (e) => {              // the tab pattern: arrows move between tabs
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const next = lab.tab === "tournament" ? "editor" : "tournament";
    e.preventDefault();
    showTab(next).then(() => node(`[data-tab=${next}]`).focus());
  });
  node("[data-testid=lab-run]").addEventListener("click", runArena);
  node("[data-testid=lab-check]").addEventListener("click", check);
  node("[data-testid=lab-watch]").addEventListener("click", watch);
  node("[data-testid=lab-watch-pause]").addEventListener("click", () => { lab.watchGen++; });
  node("[data-testid=lab-stop]").addEventListener("click", stopRun);
  node("[data-testid=lab-play-against]").addEventListener("click", () => seatBot("against"));
  node("[data-testid=lab-partner]").addEventListener("click", () => seatBot("partner"));
  node("[data-testid=lab-table-watch]").addEventListener("click", () => seatBot("watch"));
  node("[data-testid=lab-save]").addEventListener("click", () => {
    const name = currentName();
    if (bad(name)) { note(L("lab.bad_name", { name })); return; }
    lab.name = name;
    note(saved.save(name, lab.editor.getText(), lab.game) ? L("lab.saved", { name }) : L("lab.storage_off"));
    paintSaved();
    paintOpponents();
  });
  node("[data-testid=lab-name]").addEventListener("change", () => saved.keepDraft(lab.game, currentName(), lab.editor.getText()));
  node("[data-testid=lab-export]").addEventListener("click", () => {
    const name = bad(currentName()) ? "bot.py" : currentName();
    download(name, lab.editor.getText(), "text/x-python");
  });
  const pyFile = node("[data-testid=lab-import-file]");
  node("[data-testid=lab-import]").addEventListener("click", () => pyFile.click());
  pyFile.addEventListener("change", async () => {
    const f = pyFile.files[0];
    pyFile.value = "";
    if (!f) return;
    const b = await readBot(f);
    setCode(b.name, b.source);
    note(L("lab.imported", { name: f.name }));
  });
  const whl = node("[data-testid=lab-wheel-file]");
  node("[data-testid=lab-wheel]").addEventListener("click", () => whl.click());
  whl.addEventListener("change", async () => {
    const f = whl.files[0];
    whl.value = "";
    if (!f) return;
    addWheel({ name: f.name, bytes: await f.arrayBuffer() });
  });
  node("[data-testid=lab-examples]").addEventListener("change", (e) => {
    const n = e.target.value;
    e.target.value = "";
    const ex = lab.info[lab.game] && lab.info[lab.game].examples[n];
    if (ex !== undefined) setCode(n, ex);
  });
  node("[data-testid=lab-saved]").addEventListener("click", (e) => {
    const o = e.target.closest("[data-open]");
    if (o) { const b = saved.get(o.dataset.open); if (b) setCode(b.name, b.source); return; }
    const d = e.target.closest("[data-delete]");
    if (d) { saved.remove(d.dataset.delete); note(L("lab.deleted", { name: d.dataset.delete })); paintSaved(); paintOpponents(); }
  });
  r.addEventListener("click", (e) => {
    if (e.target.closest("[data-testid=lab-csv]") && lab.result) {
      download(lab.name.replace(/\.py$/, "") + "-arena.csv", lab.result.csv, "text/csv");
    }
  });
}

async function loadInfo(game) {
  if (lab.info[game]) return lab.info[game];
  const info = await lab.client.request("info", { game });
  lab.info[game] = info;
  return info;
}

async function showGame(game) {
  lab.game = game;
  await classes();
  paintWords();
  const d = saved.draft(game);
  if (d) setCode(d.name, d.source);
  else if (lab.editor) setCode("bot.py", "");
  try {
    const info = await loadInfo(game);
    if (lab.game !== game) return;
    if (!d) {
      const [first] = Object.keys(info.examples);
      setCode("bot.py", info.examples[first] || "");
    }
    paintExamples();
    paintHelp();
  } catch (err) {
    note(err.message);
  }
}

/** Open the lab on `game` (hides the menu and the table; the table's game goes on).  From
 *  app.js: `onBack` (the lab's Back button), `play` (play.js's functions, for your bot at the
 *  table). */
export async function openLab(game, { onBack, play, tab } = {}) {
  const seq = lab.tabSeq;
  if (onBack) lab.onBack = onBack;
  if (play) lab.play = play;
  lab.open = true;
  await classes();
  const games = builtGames().length ? builtGames() : lab.built;
  if (!games.includes(game)) game = games.includes("sixty_six") ? "sixty_six" : games[0];
  document.body.classList.add("lab-open");
  link(new URL("../../lab/lab.css", import.meta.url).href);
  link(new URL("../../lab/editor.css", import.meta.url).href);
  if (!lab.root) {
    lab.root = skeleton();
    bind();
    lab.client = new LabWorker({
      onState: (st, message) => {
        lab.failMessage = message || "";
        if (lab.root) paintState();
      },
    });
    paintWords();
    try {
      lab.kit = await import("../../lab/editor.js");
      lab.editor = lab.kit.createEditor(node("[data-testid=lab-editor]"), "", {
        label: L("lab.editor"),
        onChange: (text) => saved.keepDraft(lab.game, lab.name, text),
      });
    } catch (err) {
      note(String(err && err.message ? err.message : err));
    }
  }
  lab.root.hidden = false;
  if (lab.game !== game) await showGame(game);
  else paintWords();
  // the link's tab, unless a tab was picked while the lab opened
  if (lab.tabSeq === seq) await showTab(TABS.includes(tab) ? tab : "editor");
  else writeLink();
}

/** A language switch repaints the lab; the table's link written meanwhile gives way to the lab's. */
export function relabelLab() {
  if (!lab.root) return;
  paintWords();
  writeLink();
}

export function closeLab() {
  if (lab.root) lab.root.hidden = true;
  lab.open = false;
  document.body.classList.remove("lab-open");
}

// for tests: the lab's worker and state
window.atutLab = {
  get state() { return lab.client ? lab.client.state : "none"; },
  get text() { return lab.editor ? lab.editor.getText() : null; },
  setText: (s) => lab.editor && lab.editor.setText(s),
  get result() { return lab.result ? lab.result.result : null; },
};
