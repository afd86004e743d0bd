// The bot lab's worker: a module Web Worker of its own running Pyodide + web/lab_bridge.py.  No
// bot file's code runs here (docs/LAB.md, "Boxes"): the lab's arena, its watch mode and the
// tournament's games are exchanges in which this worker holds the game and our levels (ops
// arena_start, watch, watch_step, game_start, game_send) and the page answers each decision of a
// bot file with the bot's own box (web/lib/box.js, web/lib/lab/games.js).  Never the table's
// worker (web/worker.js) either.
//
// The page sends {id, op, args} and gets {id, ok, result | error, bot_error}; besides answers
// the worker posts {type: "ready"} and {type: "error", message}.
//
// The games' decisions go to the boxes straight from here (op game_run): the page hands this
// worker a port to each box it opens ({type: "box_port", uid, port}), and this worker sends the
// box the seat's view and times its answer against the game's time limit.  Over the limit the
// answer is a time-out and the page is told ({type: "box_end", uid, kind}) so that it ends the
// box; the page says when a box ended for another reason ({type: "box_end", uid}).  So the views
// never pass through the page, and a decision costs two messages between two threads.
//
// atut is installed by micropip from the site's own wheel (the Pyodide convention); micropip
// itself ships in web/pyodide/.  Everything is fetched relative to this file.  The tournament's
// ops (tournament_*: its board is atut.tournament.board, OpenSkill ratings) first install the
// openskill wheel the build put beside atut's (build.json's "openskill"), once, by micropip from
// its bytes: no index is reached.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import { failure, readAnswer } from "./lib/box-failures.js";

const here = (path) => new URL(path, import.meta.url).href;

async function fetchOk(url, kind) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not load ${url.split("/").pop()}: HTTP ${r.status}`);
  return kind === "json" ? r.json() : kind === "text" ? r.text() : r.arrayBuffer();
}

let pyodide = null;
let handle = null;
let runStep = null;
let manifest = null;
let openskillP = null;

function openskill() {
  if (!openskillP) {
    openskillP = (async () => {
      if (!manifest.openskill) throw new Error("this build has no openskill wheel");
      const name = manifest.openskill.split("/").pop();
      pyodide.FS.writeFile("/lab/wheels/" + name, new Uint8Array(await fetchOk(here("./" + manifest.openskill), "buffer")));
      await pyodide.runPythonAsync(`
import micropip
await micropip.install("emfs:/lab/wheels/${name}", deps=False, index_urls=[])
`);
    })();
    openskillP.catch(() => { openskillP = null; });
  }
  return openskillP;
}

async function boot() {
  const manifestP = fetchOk(here("./build.json"), "json");
  const bridgeP = fetchOk(here("./lab_bridge.py"), "text");
  const wheelP = manifestP.then((m) => fetchOk(here("./" + m.wheel), "buffer"));
  for (const p of [manifestP, bridgeP, wheelP]) p.catch(() => {});
  pyodide = await loadPyodide({
    indexURL: here("./pyodide/"),
    lockFileURL: here("./pyodide/pyodide-lock.json"),
    cdnUrl: here("./pyodide/"),                 // never fall back to a CDN
    packages: [],
    stdout: (s) => console.log(s),
    stderr: (s) => console.warn(s),
  });
  await pyodide.loadPackage("micropip", { messageCallback: () => {} });
  manifest = await manifestP;
  const wheelName = manifest.wheel.split("/").pop();
  pyodide.FS.mkdirTree("/lab/wheels");
  pyodide.FS.writeFile("/lab/wheels/" + wheelName, new Uint8Array(await wheelP));
  await pyodide.runPythonAsync(`
import micropip
await micropip.install("emfs:/lab/wheels/${wheelName}", deps=False, index_urls=[])
`);
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  pyodide.FS.writeFile(sitePackages + "/atut_lab_bridge.py", await bridgeP);
  const bridge = pyodide.pyimport("atut_lab_bridge");
  const h = bridge.handle;
  handle = (op, args) => h(op, JSON.stringify(args ?? {}));
  runStep = bridge.game_run_step;
  self.postMessage({ type: "ready", version: manifest.version });
}

const booted = boot().then(() => true, (err) => {
  self.postMessage({ type: "error", message: String(err && err.message ? err.message : err) });
  return false;
});

// --- the boxes' ports (web/lib/box.js connectLab) -----------------------------------------

const boxes = new Map();           // uid -> {port, n, waits: Map n -> {settle(answer), limit}}

function addBox(uid, port) {
  const b = { port, n: 0, waits: new Map() };
  port.onmessage = (e) => {
    const m = e.data;
    if (!m || typeof m !== "object" || typeof m.n !== "number") return;
    const w = b.waits.get(m.n);
    if (!w) return;
    const a = readAnswer(m.text);
    w.settle(a);
    if (a.error && a.error.kind === "crash") {           // its Python is gone: the page ends it
      self.postMessage({ type: "box_end", uid, kind: "crash" });
      endBox(uid, "crash");
    }
  };
  boxes.set(uid, b);
}

/** The box ``uid`` has ended: its waiting decision answers the failure. */
function endBox(uid, kind) {
  const b = boxes.get(uid);
  if (!b) return;
  boxes.delete(uid);
  for (const w of b.waits.values()) w.settle(failure(kind === "timeout" ? "timeout" : kind === "crash" ? "crash" : "gone", w.limit));
  b.waits.clear();
  b.port.close();
}

/** The box's answer to one request of the box protocol (JSON ``text``), with the seconds it
 * took: over ``limit`` seconds a time-out (the watchdog below), and the page is told to end the
 * box. */
function ask(uid, text, limit) {
  const b = boxes.get(uid);
  if (!b) return Promise.resolve({ ...failure("gone"), seconds: 0 });
  const n = ++b.n;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const settle = (a) => {
      if (!b.waits.delete(n)) return;
      resolve({ ...a, seconds: (performance.now() - t0) / 1000 });
    };
    b.waits.set(n, { settle, limit, due: t0 + limit * 1000 });
    b.port.postMessage({ n, text });
    watch();
  });
}

// One timer for every waiting decision (a timer a decision costs more than the decision's
// messages): every 50 ms while any waits, the decisions past their limit time out.
let watchdog = null;

function watch() {
  if (watchdog !== null) return;
  watchdog = setInterval(() => {
    const now = performance.now();
    let waiting = 0;
    for (const [uid, b] of [...boxes]) {
      const waits = [...b.waits.values()];
      if (waits.every((w) => now < w.due)) { waiting += waits.length; continue; }
      self.postMessage({ type: "box_end", uid, kind: "timeout" });
      endBox(uid, "timeout");                             // (its decision answers the time-out)
    }
    if (!waiting) { clearInterval(watchdog); watchdog = null; }
  }, 50);
}

/** op game_run ``{id, answer, seats: {seat: uid}, limit}``: the game's exchange goes on from
 * this answer; each decision of a seat is asked of that seat's box here, and the first other
 * request (a box for seats, an arena's progress) or the end goes back to the page: the reply's
 * JSON text, as ``handle`` gives it. */
async function gameRun({ id, answer, seats, limit }) {
  let out = runStep(id, JSON.stringify(answer ?? null));
  while (out.startsWith("choose ")) {
    const sp = out.indexOf(" ", 7);
    const uid = seats ? seats[out.slice(7, sp)] : undefined;
    const a = await ask(uid, out.slice(sp + 1), Number(limit) > 0 ? Number(limit) : 1);
    out = runStep(id, JSON.stringify(a));
  }
  return out;
}

self.onmessage = async (e) => {
  const data = e.data || {};
  if (data.type === "box_port" && data.port instanceof MessagePort) { addBox(data.uid, data.port); return; }
  if (data.type === "box_end") { endBox(data.uid, data.kind); return; }
  const { id, op, args } = data;
  if (!(await booted)) {
    self.postMessage({ id, ok: false, error: "the lab's Python did not load" });
    return;
  }
  let reply;
  try {
    if (String(op).startsWith("tournament_")) await openskill();
    reply = JSON.parse(op === "game_run" ? await gameRun(args ?? {}) : handle(String(op), args));
  } catch (err) {
    reply = { ok: false, error: String(err && err.message ? err.message : err) };
  }
  self.postMessage({ id, ...reply });
};
