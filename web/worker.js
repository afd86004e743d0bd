// The engine worker: a module Web Worker that loads Pyodide, installs the atut wheel and owns
// the game.  The page talks to it with requests {id, op, args} and gets back
// {id, ok: true, result} or {id, ok: false, error}.  Besides answers it posts
// {type: "progress", pct, stage}, {type: "ready", info} and {type: "error", message}.
//
// The page only ever receives view(seat) of the person's seat (see bridge.py).  The save file,
// which names the seed and every action (another seat's hand follows from them), never goes to
// the page: the worker keeps it in the browser's store itself (ops `keep` and `resume`, the
// store of lib/store.js), and a save downloaded as a file is a blob URL made here (`save_file`).
// Everything is fetched relative to this file: nothing comes from any other origin.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import * as store from "./lib/store.js";

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

// --- the ops of the worker itself: the store, and a save as a file -------------------------

const py = (op, args) => {
  const r = JSON.parse(handle(op, args));
  if (!r.ok) throw new Error(r.error);
  return r.result;
};
let writes = Promise.resolve();    // the store's writes, in the order they were asked for
let storeFull = false;             // debug=1 only: a full storage simulated (debug_store_full)
const isObject = (x) => x && typeof x === "object" && !Array.isArray(x);

const own = {
  /** Keep the table's game: {meta} from the page, the save text taken now (this step's), the
   *  write queued after the earlier ones.  Result {stored: true} or {stored: false, name, error}. */
  keep(args) {
    if (!isObject(args) || !isObject(args.meta) || typeof args.meta.id !== "string") throw new Error("keep needs {meta} with an id");
    const text = py("save", {});
    const p = writes.then(async () => {
      const opened = await store.open();
      if (!opened.ok) return { stored: false, name: "off", error: opened.error };
      if (storeFull) return { stored: false, name: "QuotaExceededError", error: "quota exceeded" };
      const r = await store.put(args.meta, text);
      return r.ok ? { stored: true } : { stored: false, name: r.name, error: r.error };
    });
    writes = p.catch(() => {});
    return p;
  },
  /** Resume a kept game at the table: {meta, seat, levels}.  Result: the `load` reply, or
   *  {fault: "old" | "bad" | "missing", error} after setting the record aside. */
  async resume(args) {
    if (!isObject(args) || !isObject(args.meta) || typeof args.meta.id !== "string") throw new Error("resume needs {meta} with an id");
    const { meta, seat, levels } = args;
    await writes;
    const opened = await store.open();
    if (!opened.ok) return { fault: "missing", error: opened.error || "no store" };
    const s = await store.getSave(meta.id);
    if (!s.ok) {
      const fault = s.fault === "old" ? "old" : "bad";
      await store.setAsideRecord(meta.id, fault, { meta, save: s.record || null });
      return { fault, error: s.fault };
    }
    try {
      return py("load", { text: s.text, seat, levels });
    } catch (err) {
      await store.setAsideRecord(meta.id, "bad", { meta, save: s.text, error: err.message });
      return { fault: "bad", error: err.message };
    }
  },
  /** The save as a file: a blob URL of its text (with the person's seat and the bots' levels,
   *  which load_game ignores and the page's Load reads). */
  save_file(args) {
    const data = JSON.parse(py("save", {}));
    if (isObject(args)) {
      if (Number.isInteger(args.seat)) data.seat = args.seat;
      if (Array.isArray(args.bots)) data.bots = args.bots;
    }
    return { url: URL.createObjectURL(new Blob([JSON.stringify(data)], { type: "application/json" })) };
  },
  forget_url(args) {
    if (isObject(args) && typeof args.url === "string" && args.url.startsWith("blob:")) URL.revokeObjectURL(args.url);
    return true;
  },
  debug_store_full(args) {
    if (!debug) throw new Error("debug_store_full needs the page opened with debug=1");
    storeFull = !!(isObject(args) && args.full);
    return storeFull;
  },
};

self.onmessage = async (e) => {
  const { id, op, args } = e.data || {};
  if (!(await booted)) {
    self.postMessage({ id, ok: false, error: "the engine did not load" });
    return;
  }
  let reply;
  try {
    if (typeof op === "string" && Object.hasOwn(own, op)) reply = { ok: true, result: await own[op](args) };
    else reply = JSON.parse(handle(String(op), args));
  } catch (err) {
    reply = { ok: false, error: String(err && err.message ? err.message : err) };
  }
  self.postMessage({ id, ...reply });
};
