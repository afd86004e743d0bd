// The engine worker: a module Web Worker that loads Pyodide, installs the atut wheel and owns
// the game.  The page talks to it with requests {id, op, args} and gets back
// {id, ok: true, result} or {id, ok: false, error}.  Besides answers it posts
// {type: "progress", pct, stage}, {type: "ready", info} and {type: "error", message}.
//
// What the worker does not handle itself (the `own` ops below) goes to Python as it is:
// bridge.py's handle(op, args, caller), where the table session (atut.table) checks that the
// caller may ask for that op.  The caller is named here by where the request came from: the
// page ("page"), a search worker's port ("pool"), the lab's worker ("lab"), or this worker's
// own bookkeeping ("worker").
//
// The page only ever receives view(seat) of the person's seat (see atut.table.session).  The save file,
// which names the seed and every action (another seat's hand follows from them), never goes to
// the page: the worker keeps it in the browser's store itself, each step as soon as it is
// applied (ops `keep`, `release` and `resume`, the store of lib/saved-games.js), and a save
// downloaded as a file is a blob URL made here (`save_file`).
// Everything is fetched relative to this file: nothing comes from any other origin.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import * as store from "./lib/saved-games.js";

const here = (path) => new URL(path, import.meta.url).href;
const debug = new URL(import.meta.url).searchParams.get("debug") === "1";
// A worker started with the name "atut-search" (lib/pool.js) is a search worker of the pool:
// it boots like the table's, then only runs the shards of a search that the table's
// worker sends it over a MessagePort.  The name, not a URL parameter: the service worker
// precaches worker.js by its exact URL.
const SEARCH_ROLE = self.name === "atut-search";

function progress(pct, stage) {
  self.postMessage({ type: "progress", pct, stage });
}

async function fetchOk(url, kind) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not load ${url.split("/").pop()}: HTTP ${r.status}`);
  return kind === "json" ? r.json() : kind === "text" ? r.text() : r.arrayBuffer();
}

let handle = null;                 // the Python bridge's handle(op, args, caller) -> reply object
const RUNTIME_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const LOAD_TIMEOUT_MS = 240000;    // a runtime that neither starts nor fails: give up and say so

self.addEventListener("unhandledrejection", (e) => {
  if (!handle) {
    self.postMessage({ type: "error", message: String(e.reason && e.reason.message ? e.reason.message : e.reason) });
  }
});

const timings = {};                // ms since the worker started, per loading stage
const mark = (name) => { timings[name] = Math.round(performance.now()); };

/** The SHA-256 of a text, in hex ("" where the browser offers no crypto.subtle). */
async function sha256(text) {
  if (!self.crypto || !crypto.subtle) return "";
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The files of a zip (the atut wheel, made by build.py: no zip64) written under `dir` in
 *  Pyodide's file system, inflated by the browser (DecompressionStream) rather than by Python's
 *  zipfile: no Python runs for it. */
async function unzipInto(FS, buf, dir) {
  const u8 = new Uint8Array(buf);
  const dv = new DataView(buf);
  let end = u8.length - 22;
  while (end >= 0 && dv.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("the wheel is not a zip file");
  const names = new TextDecoder();
  const files = [];
  for (let i = 0, p = dv.getUint32(end + 16, true); i < dv.getUint16(end + 10, true); i++) {
    if (dv.getUint32(p, true) !== 0x02014b50) throw new Error("the wheel's zip directory is damaged");
    const method = dv.getUint16(p + 10, true);
    const size = dv.getUint32(p + 20, true);
    const n = dv.getUint16(p + 28, true);
    const local = dv.getUint32(p + 42, true);
    const name = names.decode(u8.subarray(p + 46, p + 46 + n));
    p += 46 + n + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true);
    if (name.endsWith("/")) continue;
    if (method !== 0 && method !== 8) throw new Error(`${name}: zip method ${method} is not supported`);
    const at = local + 30 + dv.getUint16(local + 26, true) + dv.getUint16(local + 28, true);
    const raw = u8.subarray(at, at + size);
    files.push((method === 0 ? Promise.resolve(raw) : new Response(new Blob([raw]).stream()
      .pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer().then((b) => new Uint8Array(b)))
      .then((bytes) => [name, bytes]));
  }
  for (const [name, bytes] of await Promise.all(files)) {
    const path = `${dir}/${name}`;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, bytes);
  }
}

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
  // the build's snapshot of Python started with atut imported (build.py write_snapshot) is
  // restored instead of starting Python: fetched and unzipped while the runtime loads
  const manifest = await manifestP;
  const snap = manifest.snapshot && manifest.snapshot.wheel_sha256 === manifest.wheel_sha256
    && typeof DecompressionStream === "function"
    ? fetch(here("./" + manifest.snapshot.file)).then((r) => {
      if (!r.ok) throw new Error(`could not load ${manifest.snapshot.file}: HTTP ${r.status}`);
      return new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    }) : null;
  if (snap) snap.catch(() => {});
  let pct = 5;
  const timer = setInterval(() => {              // the runtime gives no byte progress: ease on
    pct = Math.min(70, pct + (72 - pct) * 0.08);
    progress(Math.round(pct), "runtime");
  }, 100);
  const start = (snapshot) => Promise.race([
    loadPyodide({
      indexURL: here("./pyodide/"),
      lockFileURL: here("./pyodide/pyodide-lock.json"),
      cdnUrl: here("./pyodide/"),               // never fall back to a CDN
      packages: [],
      stdout: (s) => console.log(s),
      stderr: (s) => console.warn(s),
      ...(snapshot ? { _loadSnapshot: snapshot } : {}),
    }),
    missing.then(() => new Promise(() => {})),  // only its failure ends the race
  ]);
  let pyodide;
  let restored = !!snap;
  try {
    try {
      pyodide = await start(snap);
    } catch (err) {
      if (!snap) throw err;
      console.warn("snapshot:", err && err.message ? err.message : err);   // start afresh
      restored = false;
      pyodide = await start(null);
    }
  } finally {
    clearInterval(timer);
  }
  mark("runtime");
  timings.snapshot = restored;
  progress(75, "python");
  const sitePackages = restored ? manifest.snapshot.site
    : pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  await unzipInto(pyodide.FS, await wheelP, sitePackages);
  mark("wheel");
  progress(85, "games");
  const bridgeText = await bridgeP;
  pyodide.FS.writeFile(sitePackages + "/atut_bridge.py", bridgeText);
  if (restored) {
    pyodide.runPython("import random; random.seed()");   // not the snapshot's state
    // a bridge that is not the one in the snapshot is imported afresh from its file
    if (await sha256(bridgeText) !== manifest.snapshot.bridge_sha256) pyodide.runPython("import sys; sys.modules.pop('atut_bridge', None)");
  }
  const bridge = pyodide.pyimport("atut_bridge");
  bridge.DEBUG = debug;
  const h = bridge.handle;
  handle = (op, args, caller) => JSON.parse(h(op, JSON.stringify(args ?? {}), caller));
  // the games' seat counts and options come from the build (build.json): the game modules are
  // imported only when a game starts
  const info = handle("info", manifest.classes ? { built: manifest.built, classes: manifest.classes } : {}, "worker");
  if (!info.ok) throw new Error(info.error);
  mark("games");
  const kept = handle("kept_ops", {}, "worker").result;
  STEP_OPS = new Set(kept.step);
  TABLE_OPS = new Set(kept.table);
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

// --- the ops of the worker itself: the store, a save as a file, the ports --------------------

/** A Python op of this worker's own bookkeeping: its result, or its error thrown. */
const py = (op, args, caller = "worker") => {
  const r = handle(op, args, caller);
  if (!r.ok) throw new Error(r.error);
  return r.result;
};
let storeFull = false;             // debug=1 only: a full storage simulated (debug_store_full)
const isObject = (x) => x && typeof x === "object" && !Array.isArray(x);
const needsDebug = (op) => { if (!debug) throw new Error(`${op} needs the page opened with debug=1`); };

// --- the store: every step kept here, as soon as it is applied --------------------------------
// (docs/PAGE.md "One writer, crashes and persistent storage")  The table's game is bound to its
// kept record once the page names it (`keep`, or `resume`); from then on each step the page asks
// for (`act`, `bot_step`, `undo`) is written by this worker before its reply goes back: the
// save text and the meta record in one IndexedDB transaction (saved-games.js put), so a browser
// that dies loses at most the move being made, and a record is never half written.  Each write
// names this worker (WRITER, a token of this page) and is refused when another page's worker
// claimed the game meanwhile (a take-over in another tab): then the page is told
// ({type: "writer_lost", id}) and this table writes nothing more.
const WRITER = (self.crypto && crypto.randomUUID) ? crypto.randomUUID()
  : Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
// the ops after which a step is kept, and those that start a new table (not bound until
// `keep`): Python's op registry says which (kept_ops), so that this file names no page op
let STEP_OPS = new Set();
let TABLE_OPS = new Set();
let writes = Promise.resolve();    // the store's writes, in the order they were asked for
let bound = null;                  // {meta, kept}: the table's kept record and the save text last kept
let released = null;               // the id of a game handed to another tab (`release`, or lost)

/** Write meta (and the save text, unless unchanged) after the writes before it; the result
 *  {stored: true} or {stored: false, name, error}; a refusal by the writer check ends the
 *  binding and tells the page. */
function write(meta, text) {
  const b = bound;
  const p = writes.then(async () => {
    const opened = await store.open();
    if (!opened.ok) return { stored: false, name: "off", error: opened.error };
    if (storeFull) return { stored: false, name: "QuotaExceededError", error: "quota exceeded" };
    const same = b && b.kept === text;
    const r = await store.put(meta, same ? undefined : text, WRITER);
    if (r.ok) { if (b) b.kept = text; return { stored: true }; }
    if (r.name === "HeldElsewhere") {
      if (bound === b) bound = null;
      released = meta.id;
      self.postMessage({ type: "writer_lost", id: meta.id });
    }
    return { stored: false, name: r.name, error: r.error };
  });
  writes = p.catch(() => {});
  return p;
}

/** After a page's op: a step of the bound game is kept now (before the reply is posted). */
async function keepStep(op, reply) {
  if (TABLE_OPS.has(op) && reply.ok) { bound = null; released = null; return; }
  if (!STEP_OPS.has(op) || !reply.ok || !bound || !isObject(reply.result)) return;
  const b = bound;
  b.meta = store.stepMeta(b.meta, reply.result);
  await write(b.meta, py("save", {}));
}


// --- the backup file (docs/PAGE.md "Backup file", atut.backup): ops backup_export and
// backup_import below.  The worker reads every kept game (record and save) out of the store;
// Python makes the file (backup_make: a kept game that would not load is left out) or checks a
// file whole and plans its merge (backup_plan); nothing of a refused file is written, and a
// plan is written in one IndexedDB transaction.  The lab's bots and the settings live in the
// page's localStorage: the page sends them and writes what the plan gives back.

/** A connection of our own to the store's database (store.open() made it and its stores),
 *  closed after use so that it never holds up a newer version of the database. */
async function backupDb() {
  const opened = await store.open();
  if (!opened.ok) throw new Error(opened.error || "the browser keeps no data");
  return new Promise((resolve, reject) => {
    const r = indexedDB.open("atut");
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error || new Error("indexedDB.open failed"));
    r.onblocked = () => reject(new Error("the database is blocked"));
  });
}

const idbDone = (tx) => new Promise((resolve, reject) => {
  tx.oncomplete = () => resolve();
  tx.onabort = () => reject(tx.error || new Error("transaction aborted"));
});

/** Every kept game as {meta, save} (a record without a readable save is left out). */
async function keptGames(db) {
  const tx = db.transaction(["meta", "saves"]);
  const get = (name) => new Promise((resolve, reject) => {
    const r = tx.objectStore(name).getAll();
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const [metas, saves] = await Promise.all([get("meta"), get("saves")]);
  const text = new Map(saves.filter((s) => s && s.format === store.FORMAT && typeof s.text === "string").map((s) => [s.id, s.text]));
  return metas.filter((m) => isObject(m) && text.has(m.id)).map((m) => ({ meta: m, save: text.get(m.id) }));
}

/** The plan's games written at once: every record and save, or (an error) none. */
async function writeGames(db, games) {
  const tx = db.transaction(["meta", "saves"], "readwrite");
  const meta = tx.objectStore("meta");
  const saves = tx.objectStore("saves");
  for (const g of games) {
    meta.put(g.meta);
    saves.put({ id: g.meta.id, format: store.FORMAT, text: g.save });
  }
  await idbDone(tx);
}

const backupOps = {
  /** The backup file of everything kept: {bots, settings} from the page (its localStorage).
   *  Result {url (a blob URL of the file), games, bots, settings, skipped}. */
  async backup_export(args) {
    if (!isObject(args) || !Array.isArray(args.bots) || !isObject(args.settings)) throw new Error("backup_export needs {bots, settings}");
    await writes;
    const db = await backupDb();
    let games;
    try { games = await keptGames(db); } finally { db.close(); }
    const made = py("backup_make", { games, bots: args.bots, settings: args.settings, made: Date.now() });
    const url = URL.createObjectURL(new Blob([made.text], { type: "application/json" }));
    return { url, games: made.games, bots: made.bots, settings: made.settings, skipped: made.skipped };
  },
  /** Import a backup file's text: {text, bots} (bots: the lab's saved bots, {name, source}).
   *  Result {refused: {code, where, message}} (nothing written), or {report, bots, settings}:
   *  the games are written, the bots and settings are the page's to write. */
  backup_import(args) {
    if (!isObject(args) || typeof args.text !== "string" || !Array.isArray(args.bots)) throw new Error("backup_import needs {text, bots}");
    const p = writes.then(async () => {
      const db = await backupDb();
      try {
        const plan = py("backup_plan", { text: args.text, kept: await keptGames(db), bots: args.bots });
        if (plan.refused) return { refused: plan.refused };
        if (plan.games.length) await writeGames(db, plan.games);
        return { report: plan.report, bots: plan.bots, settings: plan.settings };
      } finally {
        db.close();
      }
    });
    writes = p.catch(() => {});
    return p;
  },
};

const own = {
  ...backupOps,
  /** Keep the table's game: {meta} from the page (it binds the table to this record), the save
   *  text taken now (this step's), the write queued after the earlier ones.  Result
   *  {stored: true} or {stored: false, name, error}. */
  keep(args) {
    if (!isObject(args) || !isObject(args.meta) || typeof args.meta.id !== "string") throw new Error("keep needs {meta} with an id");
    if (released === args.meta.id) return { stored: false, name: "HeldElsewhere", error: "the game is kept by another tab" };
    const text = py("save", {});
    const meta = { ...args.meta };
    delete meta.writer;
    if (!bound || bound.meta.id !== meta.id) bound = { meta, kept: null };
    else bound.meta = meta;
    return write(meta, text);
  },
  /** Hand the game {id} to another tab: the writes asked for so far are done, then this
   *  worker keeps nothing more of it (and refuses its steps) until a new table or a resume. */
  async release(args) {
    const id = isObject(args) && typeof args.id === "string" ? args.id : null;
    if (bound && (id === null || bound.meta.id === id)) bound = null;
    if (id !== null) released = id;
    await writes;
    return { released: true };
  },
  /** Resume a kept game at the table: {meta, seat, levels}.  This worker becomes its writer.
   *  Result: the `load` reply, or {fault: "old" | "bad" | "missing", error} after setting the
   *  record aside. */
  async resume(args) {
    if (!isObject(args) || !isObject(args.meta) || typeof args.meta.id !== "string") throw new Error("resume needs {meta} with an id");
    const { meta, seat, levels } = args;
    await writes;
    const opened = await store.open();
    if (!opened.ok) return { fault: "missing", error: opened.error || "no store" };
    await store.claim(meta.id, WRITER);
    const s = await store.getSave(meta.id);
    if (!s.ok) {
      const fault = s.fault === "old" ? "old" : "bad";
      await store.setAsideRecord(meta.id, fault, { meta, save: s.record || null });
      return { fault, error: s.fault };
    }
    let r;
    try {
      r = py("load", { text: s.text, seat, levels });
    } catch (err) {
      await store.setAsideRecord(meta.id, "bad", { meta, save: s.text, error: err.message });
      return { fault: "bad", error: err.message };
    }
    const m = { ...((await store.getMeta(meta.id)) || meta) };
    delete m.writer;
    bound = { meta: m, kept: s.text };
    released = null;
    return r;
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
    needsDebug("debug_store_full");
    storeFull = !!(isObject(args) && args.full);
    return storeFull;
  },
  /** A port for the lab's worker (the page hands it on): outside seats are asked over it. */
  outside_port() {
    if (outside) { stale(); outside.port.close(); }
    const ch = new MessageChannel();
    outside = { port: ch.port1, n: 0, wait: null };
    ch.port1.onmessage = (e) => {
      const m = e.data;
      const w = outside && outside.port === ch.port1 ? outside.wait : null;
      if (w && m && typeof m === "object" && m.n === w.n) { outside.wait = null; w.resolve(m); }
    };
    return ch.port2;               // transferred to the page, which passes it on
  },
  /** The page: the lab's worker was ended (time-out) or is gone. */
  outside_fail(args) {
    const kind = isObject(args) && typeof args.kind === "string" ? args.kind : "gone";
    if (outside && outside.wait) { const w = outside.wait; outside.wait = null; w.resolve({ n: w.n, failed: kind }); }
    else py("outside_drop", {}, "lab");
    return true;
  },
  /** The page's ports to the search workers (replacing any earlier ones); [] ends the pool. */
  pool_ports(args) {
    const ports = isObject(args) && Array.isArray(args.ports) ? args.ports.filter((p) => p instanceof MessagePort) : [];
    setPorts(ports);
    return { workers: pool.ports.length, on: pool.on };
  },
  /** debug=1: the pool's state and counts; {timeout_ms} sets how long a search worker may take
   *  per job (the tests' dead worker; null: the default). */
  debug_pool(args) {
    needsDebug("debug_pool");
    if (isObject(args) && "timeout_ms" in args) {
      const ms = args.timeout_ms;
      pool.timeoutMs = Number.isFinite(ms) && ms > 0 ? ms : JOB_TIMEOUT_MS;
    }
    return { timeout_ms: pool.timeoutMs, workers: pool.ports.length, ready: readyPorts().length,
      on: pool.on, idle: pool.idle, wanted: pool.wanted, ...pool.counts };
  },
  /** debug=1: each search worker's memory (debug_memory there). */
  async debug_pool_memory() {
    needsDebug("debug_pool_memory");
    return Promise.all(pool.ports.map((e) => portRequest(e, "debug_memory", {}).catch((err) => ({ error: err.message }))));
  },
};
// the own ops that touch no table: they never wait for an op that waits for the pool
const UNQUEUED = new Set(["outside_port", "outside_fail", "pool_ports", "debug_pool", "debug_pool_memory"]);

// --- what an op asks for before it decides (atut.table.exchange) ------------------------------
// Python answers an op with {ok: true, result}, or with what it needs first: {jobs} (the shards
// of a level-4 search, handed out while the pool is on) or {ask} (the move of a student's bot at
// an outside seat).  The op then waits, the table unchanged; the answer goes back with
// `search_results` or `outside_answer` and Python decides.

/** A request for Python, its needs answered: the final reply object. */
async function pyRequest(op, args, caller) {
  if (pool.idle && !pool.on) poolMode(true);
  let r = handle(op, args, caller);
  while (r.ok === true && !("result" in r)) {
    if (Array.isArray(r.jobs)) r = await answerJobs(r.jobs);
    else if (isObject(r.ask)) r = await answerAsk(r.ask);
    else return { ok: false, error: "the engine sent a malformed reply" };
  }
  return r;
}

// --- outside seats: a student's bot seated at the table, played in the lab's worker ----------
// The page asks for a port (`outside_port`) and hands it to the lab's worker: a MessageChannel
// between the two workers, which the page never listens to.  When an outside seat is to move,
// Python asks for its move ({ask}: that seat's view(seat)); it goes over the port and the answer
// back to Python (`outside_answer`: the usual legality check).  A failure (an error the lab's
// worker reports, an action Python refuses, `outside_fail` from the page after a time-out or the
// lab's worker gone, no port) drops the outside bots: this move and the rest of the game are
// played by the seats' level-2 bots.

let outside = null;                // {port, n, wait: {n, resolve}} once the page asked for a port

function stale() {                 // a wait of a table that is gone ends (its reply is dropped)
  const w = outside && outside.wait;
  if (w) { outside.wait = null; w.resolve({ n: w.n, stale: true }); }
}

async function answerAsk(ask) {
  let answer = { failed: "gone" };
  if (outside) {
    const n = ++outside.n;
    stale();
    answer = await new Promise((resolve) => {
      outside.wait = { n, resolve };
      outside.port.postMessage({ n, seat: ask.seat, name: ask.name, view: ask.view });
    });
    if (answer.stale) return { ok: false, error: "the table changed meanwhile" };
  }
  const r = handle("outside_answer", { answer: answer.failed ? { failed: answer.failed } : { action: answer.action } }, "lab");
  if (Number.isInteger(r.refused)) {          // the lab's worker tells the page
    if (outside) outside.port.postMessage({ n: answer.n, refused: r.refused });
    delete r.refused;
  }
  return r;
}

// --- the pool of search workers ---------------------------------------------------------------
// Level 4's search (a level-4 bot's move, review grades, why a bot played) is split into shards:
// independent searches with their own seeds, merged in shard order (atut.bots.shards).  With
// ports to search workers (`pool_ports`, from lib/pool.js) Python is in pool mode: an op that
// searches hands out its jobs ({jobs}: the bot seat's view, never sent to the page, only over the
// ports); they run in the search workers, round-robin and all at once, and their results go back
// with `search_results`.  A search worker that fails or does not answer in time: the results are
// null and Python runs the same shards here, one after the other; a worker that timed out is
// dropped.  The pool starts when it is first needed: until the page has sent its ports Python is
// in pool mode all the same, and the first op that hands out jobs posts {type: "pool_wanted"} to
// the page (once) and has them run here.  A search worker gets jobs once it says it is ready (its
// engine booted); until one is, jobs run here.

const JOB_TIMEOUT_MS = 60000;
const pool = { ports: [], n: 0, timeoutMs: JOB_TIMEOUT_MS, supported: true, on: false, busy: null,
  idle: true, wanted: false, counts: { asked: 0, jobs: 0, fallbacks: 0, capped: 0, here: 0 } };

/** Pool mode while the page may still start the pool, or while it has search workers. */
const keepPoolMode = () => pool.idle || pool.ports.length > 0;
const readyPorts = () => pool.ports.filter((e) => e.ready);

function poolMode(on) {
  on = !!on && pool.supported;
  if (on === pool.on && on) return;
  try {
    pool.on = !!py("pool", { on }).on;
  } catch (_) {                  // a bridge without the pool: the table searches alone
    pool.supported = false;
    pool.on = false;
  }
}

function dropPort(entry, why) {
  const i = pool.ports.indexOf(entry);
  if (i >= 0) pool.ports.splice(i, 1);
  entry.port.onmessage = null;
  entry.port.close();
  for (const w of entry.waits.values()) { clearTimeout(w.timer); w.reject(new Error(why)); }
  entry.waits.clear();
  if (!keepPoolMode()) poolMode(false);
}

function setPorts(ports) {
  pool.idle = false;
  for (const e of pool.ports.slice()) dropPort(e, "the pool was restarted");
  for (const port of ports) {
    const entry = { port, waits: new Map(), ready: false };
    port.onmessage = (e) => {
      const m = e.data;
      if (m && typeof m === "object" && "ready" in m && !("n" in m)) {   // the worker booted, or not
        if (m.ready === true) entry.ready = true;
        else dropPort(entry, "a search worker has no engine");
        return;
      }
      const w = m && typeof m === "object" ? entry.waits.get(m.n) : null;
      if (!w) return;
      entry.waits.delete(m.n);
      clearTimeout(w.timer);
      if (m.ok === true && "result" in m) w.resolve(m.result);
      else {
        w.reject(new Error(typeof m.error === "string" ? m.error : "a search worker sent a malformed reply"));
        if (m.dead) dropPort(entry, "a search worker has no engine");
      }
    };
    port.onmessageerror = () => dropPort(entry, "a search worker's message could not be read");
    pool.ports.push(entry);
  }
  poolMode(pool.ports.length > 0);
}

/** One request to a search worker over its port (`args`: an object);
 *  `ahead` requests wait before it there. */
function portRequest(entry, op, args, ahead = 0) {
  return new Promise((resolve, reject) => {
    const n = ++pool.n;
    const timer = setTimeout(() => dropPort(entry, "a search worker did not answer in time"), pool.timeoutMs * (ahead + 1));
    entry.waits.set(n, { resolve, reject, timer });
    try {
      entry.port.postMessage({ n, op, args });
    } catch (err) {
      entry.waits.delete(n);
      clearTimeout(timer);
      reject(err);
    }
  });
}

/** The jobs run in the pool: their results, in job order.  (A job's seeds have 53 bits,
 *  atut.bots.shards: exact as JS numbers.) */
function runShards(jobs) {
  const ports = readyPorts();
  if (!ports.length) return Promise.reject(new Error("no search worker"));
  // a worker running several shards of the decision shares the decision's time cap (a safety
  // net: the counted budget normally ends a shard long before it) among them
  const each = Math.ceil(jobs.length / ports.length);
  return Promise.all(jobs.map((job, i) => portRequest(ports[i % ports.length], "shard_run",
    { job, time_cap: job.budget.time_cap / each }, Math.floor(i / ports.length))));
}

/** The jobs an op handed out, run in the pool (or null: Python runs them); Python's reply. */
async function answerJobs(jobs) {
  if (!readyPorts().length) {      // no search worker yet: run here, and start the pool
    if (pool.idle && !pool.wanted) {
      pool.wanted = true;
      self.postMessage({ type: "pool_wanted" });
    }
    pool.counts.here++;
    return handle("search_results", { results: null }, "worker");
  }
  let done;
  const busy = new Promise((resolve) => { done = resolve; });
  pool.busy = busy;                // the other requests wait until this op has its answer
  pool.counts.asked++;
  pool.counts.jobs += jobs.length;
  let results = null;
  try {
    results = await runShards(jobs);
    pool.counts.capped += results.filter((x) => x && x.capped).length;
  } catch (err) {
    console.warn("search pool:", err && err.message ? err.message : err);
    pool.counts.fallbacks++;       // the pool failed: the same shards run here
  }
  try {
    return handle("search_results", { results }, "worker");
  } finally {
    if (pool.busy === busy) pool.busy = null;
    done();
  }
}

// --- a search worker: jobs on its port, nothing else -----------------------------------------

function serveSearch(port) {
  port.onmessage = async (e) => {
    const m = e.data;
    if (!m || typeof m !== "object" || !Number.isInteger(m.n)) return;
    let reply;
    if (!(await booted)) reply = { ok: false, error: "the engine did not load", dead: true };
    else {
      try {
        reply = handle(String(m.op), isObject(m.args) ? m.args : {}, "pool");
      } catch (err) {
        reply = { ok: false, error: String(err && err.message ? err.message : err) };
      }
    }
    port.postMessage({ n: m.n, ...reply });
  };
}

let searchPort = null;

function searchMessage(e) {
  const m = e.data;
  if (!m || typeof m !== "object") return;
  if (m.type === "port" && e.ports && e.ports[0]) {
    if (searchPort) searchPort.close();
    searchPort = e.ports[0];
    serveSearch(searchPort);       // no answer: the page has nothing to wait for
    // the table's worker sends jobs once the engine here is up (or drops this worker)
    const port = searchPort;
    booted.then((ok) => { if (port === searchPort) port.postMessage({ ready: ok }); });
  } else if (m.id !== undefined) {
    self.postMessage({ id: m.id, ok: false, error: "a search worker only serves its port" });
  }
}

// --- the table's worker: requests from the page ----------------------------------------------

async function tableMessage(e) {
  const { id, op, args } = e.data || {};
  if (!(await booted)) {
    self.postMessage({ id, ok: false, error: "the engine did not load" });
    return;
  }
  const mine = typeof op === "string" && Object.hasOwn(own, op);
  // while an op waits for the pool, the others wait their turn (as while Python computes)
  while (pool.busy && !(mine && UNQUEUED.has(op))) await pool.busy;
  let reply;
  const transfer = [];
  try {
    if (mine) {
      const result = await own[op](args);
      if (result instanceof MessagePort) transfer.push(result);
      reply = { ok: true, result };
    } else {
      if (STEP_OPS.has(op) && released !== null && !bound) throw new Error("this game is now played in another tab");
      reply = await pyRequest(String(op), args, "page");
      await keepStep(op, reply);
    }
  } catch (err) {
    reply = { ok: false, error: String(err && err.message ? err.message : err) };
  }
  self.postMessage({ id, ...reply }, transfer);
}

self.onmessage = SEARCH_ROLE ? searchMessage : tableMessage;
