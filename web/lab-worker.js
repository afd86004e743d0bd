// The bot lab's worker: a module Web Worker of its own running Pyodide + web/lab_bridge.py.  A
// student's code runs here (the editor's checks, the arena, watching) or in a box of its own
// (at the table and in tournament games: web/lib/box.js), never in the table's worker
// (web/worker.js): when it loops, the page ends this worker (the per-decision limit, or Stop)
// and starts a fresh one.  Tournament games (ops game_start, game_send) run here with no bot
// file's code: the page's driver answers their requests with boxes (web/lib/lab/games.js).
//
// The page sends {id, op, args} and gets {id, ok, result | error, bot_error}; besides answers
// the worker posts {type: "ready"}, {type: "error", message} and, as JSON text from Python,
// {type: "tick", n, on} around each run of the student's code (the page's watchdog) and
// {type: "progress", done, total, dps, point} during an arena.  The op "install" takes
// {name, bytes}: a pure-Python wheel the person picked, installed by micropip from the bytes.
//
// atut is installed by micropip from the site's own wheel (the Pyodide convention); micropip
// itself ships in web/pyodide/.  Everything is fetched relative to this file.  The tournament's
// ops (tournament_*: its board is atut.tournament.board, OpenSkill ratings) first install the
// openskill wheel the build put beside atut's (build.json's "openskill"), once, by micropip from
// its bytes: no index is reached.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;

async function fetchOk(url, kind) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not load ${url.split("/").pop()}: HTTP ${r.status}`);
  return kind === "json" ? r.json() : kind === "text" ? r.text() : r.arrayBuffer();
}

let pyodide = null;
let handle = null;
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
  self.postMessage({ type: "ready", version: manifest.version });
}

const booted = boot().then(() => true, (err) => {
  self.postMessage({ type: "error", message: String(err && err.message ? err.message : err) });
  return false;
});

const WHEEL = /^[A-Za-z0-9_.]+-[A-Za-z0-9_.+!]+(-[0-9][A-Za-z0-9_]*)?-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+\.whl$/;

async function install({ name, bytes }) {
  if (typeof name !== "string" || !WHEEL.test(name)) {
    return { ok: false, error: `${name} is not a wheel file name (name-version-py3-none-any.whl)` };
  }
  pyodide.FS.writeFile("/lab/wheels/" + name, new Uint8Array(bytes));
  const bridge = pyodide.pyimport("atut_lab_bridge");
  try {
    const r = await bridge.install_wheel("/lab/wheels/" + name);
    return { ok: true, result: r.toJs({ dict_converter: Object.fromEntries }) };
  } catch (err) {
    const msg = String(err && err.message ? err.message : err).trim().split("\n").pop();
    return { ok: false, error: msg };
  }
}

self.onmessage = async (e) => {
  const { id, op, args } = e.data || {};
  if (!(await booted)) {
    self.postMessage({ id, ok: false, error: "the lab's Python did not load" });
    return;
  }
  let reply;
  try {
    if (String(op).startsWith("tournament_")) await openskill();
    reply = op === "install" ? await install(args || {}) : JSON.parse(handle(String(op), args));
  } catch (err) {
    reply = { ok: false, error: String(err && err.message ? err.message : err) };
  }
  self.postMessage({ id, ...reply });
};
