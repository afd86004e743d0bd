// The engine worker: a module Web Worker that loads Pyodide, installs the atut wheel and owns
// the game.  The page talks to it with requests {id, op, args} and gets back
// {id, ok: true, result} or {id, ok: false, error}.  Besides answers it posts
// {type: "progress", pct, stage}, {type: "ready", info} and {type: "error", message}.
//
// The page only ever receives view(seat) of the person's seat (see bridge.py).
// Everything is fetched relative to this file: nothing comes from any other origin.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;
const debug = new URL(import.meta.url).searchParams.get("debug") === "1";

function progress(pct, stage) {
  self.postMessage({ type: "progress", pct, stage });
}

async function fetchOk(url, kind) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not load ${url.split("/").pop()}: HTTP ${r.status}`);
  return kind === "json" ? r.json() : kind === "text" ? r.text() : r.arrayBuffer();
}

let handle = null;                 // the Python bridge's handle(op, args_json) -> json text
const RUNTIME_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const LOAD_TIMEOUT_MS = 240000;    // a runtime that neither starts nor fails: give up and say so

self.addEventListener("unhandledrejection", (e) => {
  if (!handle) {
    self.postMessage({ type: "error", message: String(e.reason && e.reason.message ? e.reason.message : e.reason) });
  }
});

const timings = {};                // ms since the worker started, per loading stage
const mark = (name) => { timings[name] = Math.round(performance.now()); };

async function boot() {
  mark("start");
  progress(3, "runtime");
  // Everything starts at once: the manifest, the wheel, the bridge and the runtime.  The
  // runtime hangs instead of failing when one of its files is missing, so HEAD requests look
  // for them meanwhile (in parallel, not before: no extra round trip) and stop the wait.
  const manifestP = fetchOk(here("./build.json"), "json");
  const missing = Promise.all(RUNTIME_FILES.map(async (f) => {
    const r = await fetch(here("./pyodide/" + f), { method: "HEAD" });
    if (!r.ok) throw new Error(`could not load ${f}: HTTP ${r.status}`);
  }));
  const wheelP = manifestP.then((m) => fetchOk(here("./" + m.wheel), "buffer"));
  const bridgeP = fetchOk(here("./bridge.py"), "text");
  for (const p of [manifestP, wheelP, bridgeP, missing]) p.catch(() => {});   // raced below
  let pct = 5;
  const timer = setInterval(() => {              // the runtime gives no byte progress: ease on
    pct = Math.min(70, pct + (72 - pct) * 0.08);
    progress(Math.round(pct), "runtime");
  }, 100);
  let pyodide;
  try {
    pyodide = await Promise.race([
      loadPyodide({
        indexURL: here("./pyodide/"),
        lockFileURL: here("./pyodide/pyodide-lock.json"),
        cdnUrl: here("./pyodide/"),               // never fall back to a CDN
        packages: [],
        stdout: (s) => console.log(s),
        stderr: (s) => console.warn(s),
      }),
      missing.then(() => new Promise(() => {})),  // only its failure ends the race
      manifestP.then(() => new Promise(() => {})),
    ]);
  } finally {
    clearInterval(timer);
  }
  mark("runtime");
  progress(75, "python");
  const manifest = await manifestP;
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  pyodide.unpackArchive(await wheelP, "wheel", { extractDir: sitePackages });
  mark("wheel");
  progress(85, "games");
  pyodide.FS.writeFile(sitePackages + "/atut_bridge.py", await bridgeP);
  const bridge = pyodide.pyimport("atut_bridge");
  bridge.DEBUG = debug;
  const h = bridge.handle;
  handle = (op, args) => h(op, JSON.stringify(args ?? {}));
  // the games' seat counts and options come from the build (build.json): the game modules are
  // imported only when a game starts
  const info = JSON.parse(handle("info", manifest.classes ? { built: manifest.built, classes: manifest.classes } : {}));
  if (!info.ok) throw new Error(info.error);
  mark("games");
  progress(100, "ready");
  self.postMessage({ type: "ready", info: info.result, timings, build: manifest.build || null });
}

const withTimeout = (p) => Promise.race([p, new Promise((_, reject) => setTimeout(
  () => reject(new Error(`the Python runtime did not start within ${LOAD_TIMEOUT_MS / 1000} s`)), LOAD_TIMEOUT_MS))]);

const booted = withTimeout(boot()).then(() => true, (err) => {
  const message = String(err && err.message ? err.message : err);
  self.postMessage({ type: "error", message });
  return false;
});

self.onmessage = async (e) => {
  const { id, op, args } = e.data || {};
  if (!(await booted)) {
    self.postMessage({ id, ok: false, error: "the engine did not load" });
    return;
  }
  let reply;
  try {
    reply = JSON.parse(handle(String(op), args));
  } catch (err) {
    reply = { ok: false, error: String(err && err.message ? err.message : err) };
  }
  self.postMessage({ id, ...reply });
};
