// The lab's Tournament tab (docs/LAB.md, "Tournament"): a class tournament of many bot files
// and our levels in the browser, the command line's `python -m atut tournament` played on
// boxes.  The page knows no rule: the engine (atut.tournament, in a lab worker of the
// tournament's own: web/lab_bridge.py's tournament_* ops) names the entries, gives the
// schedule, the self-play check's task, the board (OpenSkill), the export and the review of a
// game; the games are played by games.js's playGame, each bot file in a box (web/lib/box.js),
// as many games at once as the machine has cores.
//
// Page hooks: [data-testid=tny] (the tab), tny-files (the file picker, multiple), tny-drop,
// tny-saved + tny-add-saved, tny-level + tny-add-level, tny-entries (li[data-entry] with
// data-status "ok" | "out" and a remove button), tny-players, tny-deals, tny-limit, tny-seed,
// tny-start, tny-pause, tny-stop, tny-progress (data-done, data-total), tny-state (data-state:
// idle | checking | running | paused | stopped | done | opened), tny-board (tr[data-entry]),
// tny-excluded, tny-errors, tny-pairwise, tny-chart, tny-game + tny-review (a game's review:
// tny-review-panel), tny-json, tny-csv, tny-open (+ tny-open-file).

import { S, levelNames, levelNumbers } from "../state.js";
import { fillText } from "../../i18n.js";
import words from "../../i18n/lab.js";
import { esc } from "../../cards.js";
import { LabWorker } from "./client.js";
import { moveHTML, tableHTML, navHTML, stepTo } from "../steps.js";
import { download, readBot } from "./files.js";
import { BoxPool, playGame } from "./games.js";
import * as saved from "./saved.js";

const L = (key, params = {}) => fillText((words[S.lang] && words[S.lang][key]) ?? words.en[key] ?? key, params);
// our levels and their names as the engine's level table gives them (info.levels), as
// atut.tournament names them
const FALLBACK_LEVELS = { random: 1, rules: 2, search: 3, strong: 4 };
const levelTable = () => (Object.keys(levelNames()).length ? levelNames() : FALLBACK_LEVELS);
const LEVELS = () => (levelNumbers().length ? levelNumbers() : Object.values(FALLBACK_LEVELS));
const levelWord = (v) => Object.keys(levelTable()).find((k) => levelTable()[k] === v) || String(v);
const STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000];   // whole table-deals on the x axis
const COLORS = ["#1d4ed8", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#be185d", "#4d7c0f", "#334155"];

const T = {
  root: null, game: null, classes: {}, kit: null, worker: null, entries: [], nextId: 1,
  state: "idle", done: 0, total: 0, started: 0, board: null, games: [], excluded: [],
  review: null, paused: false, stopped: false, resume: null, chart: null, opened: null, note: "", problems: [],
};

const node = (sel) => T.root.querySelector(sel);
const msg = (m) => (m && (m[S.lang] || m.en)) || "";

function skeleton(parent) {
  const s = document.createElement("section");
  s.className = "tny";
  s.dataset.testid = "tny";
  s.setAttribute("aria-labelledby", "tny-title");
  s.innerHTML = `
  <div class="tny-grid">
    <section class="panel tny-entries-panel" data-testid="tny-drop">
      <h2 id="tny-title" data-l="lab.tny.title"></h2>
      <p class="sub" data-l="lab.tny.intro"></p>
      <div class="tny-add">
        <button type="button" data-testid="tny-add-files" data-l="lab.tny.add_files"></button>
        <input type="file" data-testid="tny-files" accept=".py,text/x-python,text/plain" multiple hidden>
        <span class="tny-drop-hint" data-l="lab.tny.drop"></span>
      </div>
      <div class="tny-add">
        <label class="field inline"><span data-l="lab.tny.saved"></span><select data-testid="tny-saved"></select></label>
        <button type="button" data-testid="tny-add-saved" data-l="lab.tny.add"></button>
        <button type="button" data-testid="tny-add-all-saved" data-l="lab.tny.add_all"></button>
      </div>
      <div class="tny-add">
        <label class="field inline"><span data-l="lab.tny.level"></span><select data-testid="tny-level"></select></label>
        <button type="button" data-testid="tny-add-level" data-l="lab.tny.add"></button>
      </div>
      <h3 data-l="lab.tny.entries"></h3>
      <ol class="tny-entries" data-testid="tny-entries"></ol>
      <div class="fields tny-settings">
        <label class="field"><span data-l="lab.players"></span><select data-testid="tny-players"></select></label>
        <label class="field"><span data-l="lab.tny.deals"></span><input data-testid="tny-deals" type="number" min="1" max="100000" value="2"></label>
        <label class="field"><span data-l="lab.tny.limit"></span><input data-testid="tny-limit" type="number" min="0.1" max="600" step="0.1" value="1"></label>
        <label class="field"><span data-l="lab.seed"></span><input data-testid="tny-seed" type="number" min="0" value="1"></label>
      </div>
      <p class="sub tny-format" data-testid="tny-format"></p>
      <div class="menu-buttons">
        <button type="button" class="primary" data-testid="tny-start" data-l="lab.tny.start"></button>
        <button type="button" class="ghost" data-testid="tny-pause"></button>
        <button type="button" class="ghost" data-testid="tny-stop" data-l="lab.tny.stop"></button>
      </div>
      <p class="tny-state" data-testid="tny-state" aria-live="polite"></p>
      <div class="lab-progress" data-testid="tny-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0" hidden>
        <div class="bar"><div class="fill"></div></div><span class="text"></span>
      </div>
      <div class="tny-files-row">
        <button type="button" data-testid="tny-json" data-l="lab.tny.json" disabled></button>
        <button type="button" data-testid="tny-csv" data-l="lab.tny.csv" disabled></button>
        <button type="button" data-testid="tny-open" data-l="lab.tny.open"></button>
        <input type="file" data-testid="tny-open-file" accept=".json,application/json" hidden>
      </div>
      <p class="tny-note" data-testid="tny-note" role="status"></p>
    </section>
    <section class="panel tny-board-panel">
      <h2 data-l="lab.tny.board"></h2>
      <div data-testid="tny-board-wrap"></div>
      <div class="tny-chart" data-testid="tny-chart" hidden></div>
      <div data-testid="tny-pairwise-wrap"></div>
      <div data-testid="tny-excluded-wrap"></div>
      <div data-testid="tny-errors-wrap"></div>
      <div class="tny-review-row">
        <label class="field inline"><span data-l="lab.tny.game"></span><input data-testid="tny-game" type="number" min="1" value="1"></label>
        <button type="button" data-testid="tny-review" data-l="lab.tny.review"></button>
      </div>
      <div data-testid="tny-review-wrap"></div>
    </section>
  </div>`;
  parent.appendChild(s);
  return s;
}

// --- words -------------------------------------------------------------------------------------

function paintWords() {
  for (const e of T.root.querySelectorAll("[data-l]")) e.textContent = L(e.dataset.l);
  const lv = node("[data-testid=tny-level]");
  const cur = lv.value || "2";
  lv.innerHTML = LEVELS().map((v) => `<option value="${v}">${esc(L("lab.level", { n: v, name: levelWord(v) }))}</option>`).join("");
  lv.value = cur;
  paintSaved();
  paintPlayers();
  paintAll();
}

function paintAll() {
  paintEntries();
  paintFormat();
  paintControls();
  paintBoard();
  paintReview();
}

function paintSaved() {
  const sel = node("[data-testid=tny-saved]");
  const bots = saved.list();
  sel.innerHTML = bots.length ? bots.map((b) => `<option value="${esc(b.name)}">${esc(b.name)}${b.game ? ` (${esc(b.game)})` : ""}</option>`).join("")
    : `<option value="">${esc(L("lab.saved_none"))}</option>`;
  node("[data-testid=tny-add-saved]").disabled = !bots.length;
  node("[data-testid=tny-add-all-saved]").disabled = !bots.length;
}

function paintPlayers() {
  const ps = node("[data-testid=tny-players]");
  const counts = (T.classes[T.game] && T.classes[T.game].players) || [];
  const cur = parseInt(ps.value, 10);
  ps.innerHTML = counts.map((c) => `<option value="${c}">${c}</option>`).join("");
  if (counts.includes(cur)) ps.value = String(cur);
}

// --- entries -----------------------------------------------------------------------------------

const busy = () => ["checking", "running", "paused"].includes(T.state);

function addEntry(e) {
  if (busy()) { note(L("lab.tny.busy")); return; }
  T.entries.push({ id: T.nextId++, ...e, status: null, error: null });
  paintEntries();
  paintFormat();
}

async function addFiles(files) {
  const bad = [];
  for (const f of files) {
    if (!/\.py$/i.test(f.name)) { bad.push(f.name); continue; }
    addEntry({ ...(await readBot(f)), level: null });
  }
  note(bad.length ? L("lab.tny.not_py", { names: bad.join(", ") }) : "");
}

function paintEntries() {
  const ol = node("[data-testid=tny-entries]");
  if (!T.entries.length) { ol.innerHTML = `<li class="none">${esc(L("lab.tny.no_entries"))}</li>`; return; }
  ol.innerHTML = T.entries.map((e) => {
    const kind = e.level ? L("lab.tny.kind_level") : L("lab.tny.kind_file");
    const st = e.status === "ok" ? `<span class="tny-ok">${esc(L("lab.tny.check_ok"))}</span>`
      : e.status === "out" ? `<span class="tny-out">${esc(L("lab.tny.left_out", { reason: msg(e.error.messages) }))}</span>`
        : e.status === "checking" ? `<span class="sub">${esc(L("lab.tny.checking_one"))}</span>` : "";
    return `<li data-entry="${e.id}" data-name="${esc(e.shown || e.name)}" ${e.status ? `data-status="${e.status}"` : ""}>
      <span class="what">${esc(e.shown || e.name)}</span> <span class="kind">${esc(kind)}</span> ${st}
      <button type="button" data-remove="${e.id}" aria-label="${esc(L("lab.tny.remove_named", { name: e.shown || e.name }))}" ${busy() ? "disabled" : ""}>${esc(L("lab.tny.remove"))}</button></li>`;
  }).join("");
}

function settings() {
  const num = (sel) => Number(node(sel).value);
  return { players: parseInt(node("[data-testid=tny-players]").value, 10), deals: num("[data-testid=tny-deals]"), limit: num("[data-testid=tny-limit]"), seed: num("[data-testid=tny-seed]") };
}

function badSettings(s) {
  if (!Number.isInteger(s.deals) || s.deals < 1 || s.deals > 100000) return L("lab.tny.bad_deals");
  if (!Number.isFinite(s.limit) || s.limit < 0.1 || s.limit > 600) return L("lab.tny.bad_limit");
  if (!Number.isInteger(s.seed) || s.seed < 0 || s.seed > 2147483647) return L("lab.tny.bad_seed");
  return null;
}

function paintFormat() {
  const s = settings();
  const cls = T.classes[T.game] || {};
  const k = cls.partners && s.players === 4 ? 2 : s.players;
  node("[data-testid=tny-format]").textContent = k === 2 ? L("lab.tny.format_pairs", { deals: s.deals || 0 }) : L("lab.tny.format_tables", { k, deals: s.deals || 0 });
}

// --- running ---------------------------------------------------------------------------------

function note(text) { T.note = text; node("[data-testid=tny-note]").textContent = text; }

function setState(st) {
  T.state = st;
  paintControls();
  paintEntries();
}

function paintControls() {
  const st = node("[data-testid=tny-state]");
  st.dataset.state = T.state;
  st.textContent = T.state === "opened" ? L("lab.tny.state.opened", { name: T.opened || "" }) : L("lab.tny.state." + T.state);
  node("[data-testid=tny-start]").disabled = busy();
  const pause = node("[data-testid=tny-pause]");
  pause.disabled = !["running", "paused"].includes(T.state);
  pause.textContent = L(T.state === "paused" ? "lab.tny.resume" : "lab.tny.pause");
  pause.setAttribute("aria-pressed", T.state === "paused" ? "true" : "false");
  node("[data-testid=tny-stop]").disabled = !busy();
  const have = !!T.board && !busy();
  node("[data-testid=tny-json]").disabled = !have;
  node("[data-testid=tny-csv]").disabled = !have;
  node("[data-testid=tny-open]").disabled = busy();
  node("[data-testid=tny-review]").disabled = !T.games.length;
  for (const sel of ["tny-players", "tny-deals", "tny-limit", "tny-seed", "tny-add-files", "tny-add-level"]) node(`[data-testid=${sel}]`).disabled = busy();
  paintProgress();
}

function clock(seconds) {
  if (!Number.isFinite(seconds)) return "…";
  const s = Math.round(seconds);
  return s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min` : s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

function paintProgress() {
  const bar = node("[data-testid=tny-progress]");
  if (!T.total) { bar.hidden = true; return; }
  bar.hidden = false;
  const pct = Math.round((100 * T.done) / T.total);
  bar.setAttribute("aria-valuenow", String(pct));
  bar.dataset.done = String(T.done);
  bar.dataset.total = String(T.total);
  bar.querySelector(".fill").style.width = pct + "%";
  const spent = (performance.now() - T.started) / 1000;
  const left = T.state === "running" && T.done ? (spent / T.done) * (T.total - T.done) : NaN;
  bar.querySelector(".text").textContent = T.state === "running" ? L("lab.tny.progress", { done: T.done, total: T.total, left: clock(left) }) : L("lab.tny.progress_done", { done: T.done, total: T.total });
}

function worker() {
  if (!T.worker) T.worker = new LabWorker();
  return T.worker;
}

/** Waits while paused; false once stopped. */
async function gate() {
  while (T.paused && !T.stopped) await T.pauseP;
  return !T.stopped;
}

/** Run ``fn`` on each item, ``lanes`` at a time (in the items' order), while not stopped. */
async function lanes(items, n, fn) {
  let next = 0;
  const lane = async () => {
    while (next < items.length && await gate()) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, lane));
}

/** The schedule's game indices in runs of one table (its deals and rotations). */
function byTable(schedule) {
  const runs = [];
  schedule.forEach(([table], i) => {
    const last = runs[runs.length - 1];
    if (last && String(schedule[last[0]][0]) === String(table)) last.push(i);
    else runs.push([i]);
  });
  return runs;
}

async function start() {
  if (busy()) return;
  const s = settings();
  const bad = badSettings(s);
  if (bad) { note(bad); return; }
  const cls = T.classes[T.game] || {};
  const k = cls.partners && s.players === 4 ? 2 : s.players;
  if (T.entries.length < k) { note(L("lab.tny.too_few", { k })); return; }
  note("");
  const w = worker();
  const cores = Math.max(1, Math.min(16, navigator.hardwareConcurrency || 2));
  // boxes kept for reuse (each a Pyodide of about 130 MB, docs/RESULTS.md): at least a game's
  // seats per lane and one more table, more while 40% of the memory the browser reports
  // (navigator.deviceMemory, GB, at most 8 in Chromium) holds them, so that a class's files
  // keep their boxes from one pairing to the next instead of starting new ones
  const byMemory = Math.floor(((navigator.deviceMemory || 2) * 1024 * 0.4) / 130);
  T.pool = new BoxPool(s.limit, { maxBoxes: Math.max(cores * s.players + s.players, byMemory) });
  T.stopped = false;
  T.paused = false;
  T.board = null;
  T.games = [];
  T.review = null;
  T.opened = null;
  T.done = T.total = 0;
  T.excluded = [];
  T.problems = [];
  for (const e of T.entries) { e.status = null; e.error = null; e.shown = null; }
  setState("checking");
  paintBoard();
  paintReview();
  const wall = performance.now();
  try {
    const plan = await w.request("tournament_plan", {
      game: T.game, players: s.players, deals: s.deals, seed: s.seed, time_limit: s.limit,
      entries: T.entries.map((e) => (e.level ? { level: e.level } : { name: e.name, source: e.source })),
    });
    const specs = T.entries.map((e, i) => ({ name: plan.entries[i].name, level: e.level || null, source: e.level ? null : e.source, sha256: plan.entries[i].sha256 }));
    T.entries.forEach((e, i) => { e.shown = plan.entries[i].name; });
    // the self-play check: each file one deal against itself, a box a seat
    await lanes(T.entries.map((e, i) => i).filter((i) => plan.entries[i].check), cores, async (i) => {
      const e = T.entries[i];
      e.status = "checking";
      paintEntries();
      const task = [...plan.entries[i].check];
      task[2] = [specs[i]];
      const rec = await playGame(w, task, T.pool);
      e.status = rec.error ? "out" : "ok";
      e.error = rec.error;
      paintEntries();
    });
    if (T.stopped) { setState("stopped"); return; }
    T.entries.forEach((e) => { if (e.level) e.status = "ok"; });
    const playing = specs.filter((sp, i) => T.entries[i].status === "ok");
    T.excluded = specs.map((sp, i) => [sp, T.entries[i]]).filter(([, e]) => e.status === "out")
      .map(([sp, e]) => ({ name: sp.name, sha256: sp.sha256, error: e.error }));
    if (playing.length < k) { note(L("lab.tny.too_few_passed", { n: playing.length, k })); setState("idle"); paintBoard(); return; }
    const begin = await w.request("tournament_begin", {
      game: T.game, players: s.players, deals: s.deals, seed: s.seed, time_limit: s.limit,
      entries: playing.map((sp) => ({ name: sp.name, level: sp.level, sha256: sp.sha256 })), excluded: T.excluded,
    });
    T.names = playing.map((sp) => sp.name);
    T.total = begin.schedule.length;
    T.started = performance.now();
    setState("running");
    let buffer = [];
    let last = 0;
    let boardMs = 0;
    let flushing = null;
    const flush = async (force) => {
      if (flushing) { if (!force) return; await flushing; }
      if (!buffer.length && !force) return;
      const batch = buffer;
      buffer = [];
      const t0 = performance.now();
      flushing = w.request("tournament_add", { games: batch, board: true }).then((r) => {
        boardMs = performance.now() - t0;
        last = performance.now();
        T.board = r.board;
        T.rated = r.rated;
        paintBoard();
      });
      try { await flushing; } finally { flushing = null; }
    };
    const play = async (i) => {
      const [table, seats, d] = begin.schedule[i];
      const task = [T.game, s.players, playing, table, seats, d, s.seed, begin.mode];
      const rec = await playGame(w, task, T.pool);
      T.games[i] = { table, seats, deal: d, ranks: rec.ranks, error: rec.error };
      buffer.push([i, rec]);
      T.done += 1;
      paintProgress();
      if (performance.now() - last > Math.max(1500, 4 * boardMs)) await flush(false);
    };
    // a lane a table while there are enough tables (each lane then needs one box a file,
    // reused for all of its table's games), else a lane a game; the board rates the games
    // in the schedule's order whatever order they end in
    const runs = byTable(begin.schedule);
    if (runs.length >= cores) {
      await lanes(runs, cores, async (run) => { for (const i of run) { if (!(await gate())) return; await play(i); } });
    } else {
      await lanes(begin.schedule.map((x, i) => i), cores, play);
    }
    await flush(true);
    T.seconds = (performance.now() - wall) / 1000;
    setState(T.stopped ? "stopped" : "done");
  } catch (err) {
    T.stopped = true;                     // the other lanes start no new game
    unpause();
    note(L("lab.tny.failed", { message: err.message || String(err) }));
    setState("idle");
  } finally {
    if (T.pool) { T.pool.close(); T.pool = null; }
    paintAll();
  }
}

function unpause() {
  T.paused = false;
  const r = T.resume;
  T.resume = null;
  if (r) r();
}

function pause() {
  if (T.state === "running") {
    T.paused = true;
    T.pauseP = new Promise((r) => { T.resume = r; });
    setState("paused");
  } else if (T.state === "paused") {
    unpause();
    setState("running");
  }
}

function stop() {
  if (!busy()) return;
  T.stopped = true;
  unpause();
  note(L("lab.tny.stopping"));
}

// --- the board -------------------------------------------------------------------------------

const fix = (x, d = 2) => (x === null || x === undefined ? "–" : Number(x).toFixed(d));
const signed = (x, d = 2) => (x === null || x === undefined ? "–" : (x >= 0 ? "+" : "") + Number(x).toFixed(d));

function paintBoard() {
  const wrap = node("[data-testid=tny-board-wrap]");
  const b = T.board;
  paintExcluded();
  if (!b) {
    wrap.innerHTML = `<p class="sub">${esc(L("lab.tny.no_board"))}</p>`;
    node("[data-testid=tny-pairwise-wrap]").innerHTML = "";
    node("[data-testid=tny-errors-wrap]").innerHTML = "";
    node("[data-testid=tny-chart]").hidden = true;
    return;
  }
  const head = ["place", "bot", "rating", "ci", "games", "wins", "margin", "errors", "timeouts", "ms"].map((c) => `<th scope="col">${esc(L("lab.tny.col." + c))}</th>`).join("");
  const rows = b.order.map((e, place) => {
    const x = b.rows[e];
    return `<tr data-entry="${e}" data-name="${esc(x.name)}" data-errors="${x.errors}" data-timeouts="${x.timeouts}"><td>${place + 1}</td><th scope="row">${esc(x.name)}</th>
      <td data-mu="${x.mu}">${fix(x.mu)}</td><td>[${fix(x.lo)}, ${fix(x.hi)}]</td><td>${x.games}</td><td>${fix(x.wins, 1)}</td>
      <td>${signed(x.margin)}</td><td>${x.errors}</td><td>${x.timeouts}</td><td>${fix(x.ms, 1)}</td></tr>`;
  }).join("");
  const rated = T.rated !== undefined && T.rated < T.total ? ` ${L("lab.tny.rated", { n: T.rated })}` : "";
  wrap.innerHTML = `<p class="sub">${esc(L("lab.tny.rating") + rated)}</p><div class="lab-table-wrap"><table class="lab-report tny-board" data-testid="tny-board"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
  // pairwise: the share of their games in which the row ranked above the column
  const names = b.rows.map((r) => r.name);
  const ph = names.map((n, j) => `<th scope="col" title="${esc(n)}">${j + 1}</th>`).join("");
  const pr = b.pairwise.map((row, i) => `<tr><th scope="row">${i + 1}. ${esc(names[i])}</th>${row.map((v, j) => `<td data-i="${i}" data-j="${j}">${i === j ? "—" : v === null ? "" : Math.round(100 * v) + "%"}</td>`).join("")}</tr>`).join("");
  node("[data-testid=tny-pairwise-wrap]").innerHTML = `<h3>${esc(L("lab.tny.pairwise"))}</h3><p class="sub">${esc(L("lab.tny.pairwise_note"))}</p>
    <div class="lab-table-wrap"><table class="lab-report tny-pairwise" data-testid="tny-pairwise"><thead><tr><th></th>${ph}</tr></thead><tbody>${pr}</tbody></table></div>`;
  paintErrors();
  drawChart(b);
}

function paintExcluded() {
  const w = node("[data-testid=tny-excluded-wrap]");
  if (!T.excluded.length) { w.innerHTML = ""; return; }
  w.innerHTML = `<h3>${esc(L("lab.tny.excluded"))}</h3><ul class="tny-excluded" data-testid="tny-excluded">${T.excluded.map((x) =>
    `<li data-name="${esc(x.name)}" data-kind="${esc(x.error.kind)}"><b>${esc(x.name)}</b>: ${esc(msg(x.error.messages).replace(x.name + ": ", ""))}</li>`).join("")}</ul>`;
}

function paintErrors() {
  const w = node("[data-testid=tny-errors-wrap]");
  const errs = T.games.map((g, i) => [g, i]).filter(([g]) => g && g.error);
  if (!errs.length) { w.innerHTML = ""; return; }
  const names = T.board ? T.board.rows.map((r) => r.name) : [];
  const shown = errs.slice(0, 50).map(([g, i]) => `<li data-game="${i}" data-name="${esc(names[g.error.entry] || "")}" data-kind="${esc(g.error.kind)}">
    <button type="button" class="link" data-review-game="${i}" aria-label="${esc(L("lab.tny.review_n", { n: i + 1 }))}">${esc(L("lab.tny.game_n", { n: i + 1 }))}</button>
    <b>${esc(names[g.error.entry] || "")}</b> (${esc(L("lab.tny.kind." + g.error.kind))}): ${esc(msg(g.error.messages).split("\n")[0])}</li>`).join("");
  const more = errs.length > 50 ? `<li>${esc(L("lab.tny.more_errors", { n: errs.length - 50 }))}</li>` : "";
  w.innerHTML = `<h3>${esc(L("lab.tny.errors", { n: errs.length }))}</h3><ul class="tny-errors" data-testid="tny-errors">${shown}${more}</ul>`;
}

function drawChart(b) {
  const box = node("[data-testid=tny-chart]");
  const n = b.history.length ? b.history[0].length : 0;
  if (!T.kit || n < 1) { box.hidden = true; return; }
  box.hidden = false;
  const xs = Array.from({ length: n }, (_, i) => i + 1);
  const width = Math.max(260, (node(".tny-board-panel").clientWidth || 480) - 40);
  const big = document.body.classList.contains("look-projector");
  if (T.chart) { T.chart.destroy(); T.chart = null; }
  box.innerHTML = `<h3>${esc(L("lab.tny.chart"))}</h3>`;
  const { uPlot } = T.kit;
  T.chart = new uPlot({
    width, height: big ? 360 : 240,
    scales: { x: { time: false } },
    axes: big ? [{ label: L("lab.tny.chart_x"), incrs: STEPS, font: "16px system-ui, sans-serif", labelFont: "bold 16px system-ui, sans-serif", size: 60, labelSize: 36 }, { font: "16px system-ui, sans-serif", size: 60 }]
      : [{ label: L("lab.tny.chart_x"), incrs: STEPS }, {}],
    series: [{ label: L("lab.tny.chart_x") }, ...b.rows.map((r, i) => ({ label: r.name, stroke: COLORS[i % COLORS.length], width: big ? 3 : 2 }))],
    legend: { show: true },
  }, [xs, ...b.history], box);
}

// --- a game's review, every hand open ------------------------------------------------------

async function openReview(i) {
  if (!Number.isInteger(i) || i < 0 || i >= T.games.length || !T.games[i]) { note(L("lab.tny.no_game", { n: i + 1 })); return; }
  try {
    const r = await worker().request("tournament_review", { index: i });
    T.review = { ...r, index: i, at: 0 };
    note("");
    paintReview();
    const p = node("[data-testid=tny-review-panel]");
    if (p) p.focus();
  } catch (err) {
    note(L("lab.tny.failed", { message: err.message }));
  }
}

function paintReview() {
  const wrap = node("[data-testid=tny-review-wrap]");
  const R = T.review;
  if (!R) { wrap.innerHTML = ""; return; }
  const n = R.steps.length;
  const st = R.steps[R.at];
  const who = (s) => `${esc(L("lab.tny.seat", { n: s + 1 }))} · ${esc(R.names[s])}`;
  const labels = Object.fromEntries(["first", "prev", "next", "last"].map((k) => [k, L("lab.tny." + k)]));
  const err = R.error ? `<p class="tny-out">${esc(L("lab.tny.review_error", { name: R.names[R.error.seat] || "", reason: msg(R.error.messages).split("\n")[0] }))}</p>` : "";
  wrap.innerHTML = `<div class="tny-review review-inline" data-testid="tny-review-panel" data-game="${R.index}" data-steps="${n}" tabindex="-1" role="region" aria-label="${esc(L("lab.tny.review_title", { n: R.index + 1, deal: R.deal + 1 }))}">
    <div class="review-head"><b>${esc(L("lab.tny.review_title", { n: R.index + 1, deal: R.deal + 1 }))}</b>
      <button type="button" class="close" data-tclose aria-label="${esc(L("lab.tny.close"))}">×</button></div>
    <p class="sub">${esc(L("lab.tny.review_scores", { scores: R.scores.join(" : ") }))}</p>${err}
    ${st ? moveHTML(st, R.at, L("lab.tny.step", { k: R.at + 1, n }), who) : `<p>${esc(L("lab.tny.no_steps"))}</p>`}
    ${tableHTML(st, who)}
    ${navHTML(R.at, n, "data-tstep", labels)}</div>`;
}

function step(k) {
  const R = T.review;
  if (!R) return;
  R.at = stepTo(k, R.at, R.steps.length);
  paintReview();
  const b = node(`[data-tstep="${k}"]`);
  if (b && !b.disabled) b.focus(); else { const p = node("[data-testid=tny-review-panel]"); if (p) p.focus(); }
}

// --- export and import -------------------------------------------------------------------------

async function exportAs(kind) {
  try {
    const r = await worker().request("tournament_results", { seconds: T.seconds || 0 });
    if (kind === "json") download(`tournament-${T.game}.json`, r.json, "application/json");
    else download(`tournament-${T.game}.csv`, r.csv, "text/csv");
    note(r.complete ? "" : L("lab.tny.partial"));
  } catch (err) {
    note(L("lab.tny.failed", { message: err.message }));
  }
}

async function openFile(f) {
  if (busy()) return;
  note(L("lab.tny.reading", { name: f.name }));
  try {
    const r = await worker().request("tournament_open", { text: await f.text() });
    T.board = r.board;
    T.rated = undefined;
    T.games = r.games;
    T.excluded = r.excluded;
    T.total = T.done = r.games.length;
    T.seconds = r.seconds || 0;
    T.review = null;
    T.opened = f.name;
    T.problems = r.problems;
    if (r.game !== T.game) location.hash = "lab=" + r.game;        // the board stays: T is kept
    node("[data-testid=tny-players]").value = String(r.players);
    node("[data-testid=tny-deals]").value = String(r.deals);
    node("[data-testid=tny-seed]").value = String(r.seed);
    if (r.time_limit) node("[data-testid=tny-limit]").value = String(r.time_limit);
    note(r.problems.length ? L("lab.tny.problems", { n: r.problems.length, first: r.problems[0] }) : L("lab.tny.verified", { n: r.games.length }));
    setState("opened");
    paintAll();
  } catch (err) {
    note(L("lab.tny.bad_file", { name: f.name, message: err.message }));
  }
}

// --- wiring ------------------------------------------------------------------------------------

let resizeTimer = null;

function bind() {
  const r = T.root;
  window.addEventListener("resize", () => {        // the chart is drawn to the panel's width
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (T.board && T.root && T.root.offsetParent) drawChart(T.board); }, 200);
  });
  const files = node("[data-testid=tny-files]");
  node("[data-testid=tny-add-files]").addEventListener("click", () => files.click());
  files.addEventListener("change", async () => { const fs = [...files.files]; files.value = ""; await addFiles(fs); });
  const drop = node("[data-testid=tny-drop]");        // files dropped anywhere on the tab
  r.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  r.addEventListener("dragleave", (e) => { if (!r.contains(e.relatedTarget)) drop.classList.remove("over"); });
  r.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer && e.dataTransfer.files.length) addFiles([...e.dataTransfer.files]);
  });
  node("[data-testid=tny-add-saved]").addEventListener("click", () => {
    const b = saved.get(node("[data-testid=tny-saved]").value);
    if (b) addEntry({ name: b.name, source: b.source, level: null });
  });
  node("[data-testid=tny-add-all-saved]").addEventListener("click", () => {
    for (const b of saved.list()) addEntry({ name: b.name, source: b.source, level: null });
  });
  node("[data-testid=tny-add-level]").addEventListener("click", () => {
    const v = parseInt(node("[data-testid=tny-level]").value, 10);
    if (LEVELS().includes(v)) addEntry({ name: `${v} ${levelWord(v)}`, source: null, level: v });
  });
  node("[data-testid=tny-entries]").addEventListener("click", (e) => {
    const b = e.target.closest("[data-remove]");
    if (!b || busy()) return;
    const i = T.entries.findIndex((x) => String(x.id) === b.dataset.remove);
    if (i >= 0) T.entries.splice(i, 1);
    paintEntries();
    paintFormat();
    const next = node("[data-testid=tny-entries] [data-remove]");
    (next || node("[data-testid=tny-add-files]")).focus();
  });
  for (const sel of ["tny-players", "tny-deals"]) node(`[data-testid=${sel}]`).addEventListener("input", paintFormat);
  node("[data-testid=tny-start]").addEventListener("click", start);
  node("[data-testid=tny-pause]").addEventListener("click", pause);
  node("[data-testid=tny-stop]").addEventListener("click", stop);
  node("[data-testid=tny-json]").addEventListener("click", () => exportAs("json"));
  node("[data-testid=tny-csv]").addEventListener("click", () => exportAs("csv"));
  const open = node("[data-testid=tny-open-file]");
  node("[data-testid=tny-open]").addEventListener("click", () => open.click());
  open.addEventListener("change", () => { const f = open.files[0]; open.value = ""; if (f) openFile(f); });
  node("[data-testid=tny-review]").addEventListener("click", () => openReview(parseInt(node("[data-testid=tny-game]").value, 10) - 1));
  r.addEventListener("click", (e) => {
    const g = e.target.closest("[data-review-game]");
    if (g) { openReview(Number(g.dataset.reviewGame)); return; }
    const s = e.target.closest("[data-tstep]");
    if (s) { step(s.dataset.tstep); return; }
    if (e.target.closest("[data-tclose]")) { T.review = null; paintReview(); node("[data-testid=tny-review]").focus(); }
  });
  node("[data-testid=tny-review-wrap]").addEventListener("keydown", (e) => {
    const k = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (k) { e.preventDefault(); step(k); } else if (e.key === "Escape" && T.review) { T.review = null; paintReview(); node("[data-testid=tny-review]").focus(); }
  });
}

function link(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  const l = document.createElement("link");
  l.rel = "stylesheet";
  l.href = href;
  document.head.appendChild(l);
}

/** Show the tab in ``parent`` for ``game`` (lab.js's hook; ``classes``: build.json's game
 *  classes, ``kit``: the lab's bundle with uPlot, when loaded). */
export function showTournament(parent, { game, classes, kit }) {
  link(new URL("../../lab/tournament.css", import.meta.url).href);
  T.classes = classes || {};
  if (kit) T.kit = kit;
  if (!T.root) {
    T.root = skeleton(parent);
    bind();
  }
  if (T.game !== game && !busy()) {
    const keep = T.state === "opened" && T.board;       // a file just opened switched the game
    T.game = game;
    if (!keep) { T.board = null; T.games = []; T.excluded = []; T.total = T.done = 0; T.review = null; T.state = "idle"; }
  }
  paintWords();
}

/** The page's language changed. */
export function relabelTournament() {
  if (T.root) paintWords();
}

// for tests: the tournament's state
window.atutTournament = {
  get state() { return T.state; },
  get board() { return T.board; },
};
