// A bot file in a box of its own in the browser (docs/LAB.md, "Boxes"): a Worker inside a
// sandboxed iframe (web/box/box.html: no allow-same-origin, so an opaque origin with no storage
// of the app; its Content-Security-Policy forbids every request), running its own Pyodide from
// bytes this page hands in.  The box receives nothing but the requests of the box protocol
// (atut.box.answer: load, fresh, reset, choose with one seat's view) and answers over a
// MessageChannel; the engine's side checks every answer.
//
//   const box = await BotBox.open({ source, name, timeLimit: 1, wheels: [{name, bytes}] });
//   await box.request({ op: "fresh" });           // a fresh namespace for a seat of a game
//   const a = await box.choose(view);             // {ok: action, seconds} | {error: {kind, messages}}
//   box.close();
//
// A decision over its time limit, a crash or a worker out of memory ends that box only: the
// iframe is removed (its worker with it) and every later request answers {error: {kind: "gone"}}.

import { failure, readAnswer, startMessages } from "./box-failures.js";

const here = (path) => new URL(path, import.meta.url).href;
export const START_LIMIT = 120;               // seconds for a box to start and load its file
const FRAME_LIMIT = 10;                       // seconds for the box's page to say it loaded

let filesP = null;

async function fetchOk(url, kind) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not load ${url.split("/").pop()}: HTTP ${r.status}`);
  return kind === "json" ? r.json() : kind === "text" ? r.text() : r.arrayBuffer();
}

/** Pyodide's files, the atut wheel and the box's worker source, fetched once by the page. */
export function boxFiles() {
  if (!filesP) {
    filesP = (async () => {
      const manifest = await fetchOk(here("../build.json"), "json");
      const names = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
        "pyodide-lock.json"];
      const wheel = manifest.wheel.split("/").pop();
      const [frameHTML, workerSource, wheelBytes, ...bufs] = await Promise.all([
        fetchOk(here("../box/box.html"), "text"),
        fetchOk(here("../box/box-worker.js"), "text"),
        fetchOk(here("../" + manifest.wheel), "buffer"),
        ...names.map((n) => fetchOk(here("../pyodide/" + n), "buffer")),
      ]);
      const files = Object.fromEntries(names.map((n, i) => [n, bufs[i]]));
      files[wheel] = wheelBytes;
      return { frameHTML, workerSource, files, wheel };
    })();
    filesP.catch(() => { filesP = null; });
  }
  return filesP;
}

export { startMessages };

export class BotBox {
  static uids = 0;

  /** A started box with the file loaded; the load's own error (syntax, no choose…) is in
   * ``box.loadError`` (the box is usable only when it is null).  ``wheels``: the student's
   * pure-Python wheels ({name, bytes}), unpacked into the box's own site-packages. */
  static async open({ source, name, timeLimit = 1, wheels = [], parent = document.body }) {
    const box = new BotBox(timeLimit);
    await box._start(parent, wheels);
    if (!box.dead) {
      const r = await box.request({ op: "load", source, name }, START_LIMIT);
      box.loadError = r.error || null;
    }
    return box;
  }

  constructor(timeLimit) {
    this.uid = ++BotBox.uids;
    this.timeLimit = timeLimit;
    this.dead = null;                           // the kind that ended it
    this.loadError = null;
    this.pending = new Map();
    this.n = 0;
    this.stats = { decisions: 0, seconds: 0, max_seconds: 0 };
  }

  async _start(parent, wheels = []) {
    const base = await boxFiles();
    const { frameHTML, workerSource, wheel } = base;
    const files = wheels.length ? { ...base.files, ...Object.fromEntries(wheels.map((w) => [w.name, w.bytes])) } : base.files;
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "allow-scripts");
    frame.setAttribute("aria-hidden", "true");
    frame.setAttribute("tabindex", "-1");
    frame.dataset.testid = "bot-box";
    frame.style.cssText = "position:absolute;width:0;height:0;border:0;visibility:hidden";
    this.frame = frame;
    const loaded = new Promise((res) => { frame.onload = res; });
    let saidHere = null;
    const hello = new Promise((res) => { saidHere = res; });
    this.onWindowMessage = (e) => {
      if (e.source !== frame.contentWindow || !e.data) return;
      if (e.data.box === "here") saidHere(true);
      if (e.data.box === "dead") this.kill("crash");
    };
    window.addEventListener("message", this.onWindowMessage);
    // the frame's page is given as text (srcdoc), not loaded from the site: a sandboxed frame's
    // page would never come from the service worker's offline copy.  A srcdoc page keeps the
    // app's policy (index.html: blob: and the frame script's hash are there for it) and adds its
    // own, stricter one (box.html: no request at all).
    frame.srcdoc = frameHTML;
    parent.appendChild(frame);
    await loaded;
    // the frame's page says so when its script ran; a page whose script a policy refused says
    // nothing
    const ok = await Promise.race([hello, new Promise((res) => setTimeout(() => res(false), FRAME_LIMIT * 1000))]);
    if (!ok) { this.kill("start", "frame"); return; }
    const ch = new MessageChannel();
    this.port = ch.port1;
    const ready = new Promise((res) => {
      this.onReady = res;
    });
    this.port.onmessage = (e) => this._onAnswer(e.data);
    frame.contentWindow.postMessage({ type: "init", workerSource, files, wheel, port: ch.port2 }, "*", [ch.port2]);
    const timer = setTimeout(() => this.kill("start", "timeout"), START_LIMIT * 1000);
    const r = await ready;
    clearTimeout(timer);
    if (!r.ready) this.kill("start", r.error);
  }

  _onAnswer(m) {
    if (!m || typeof m !== "object") return;
    if (this.onReady && typeof m.ready === "boolean") {
      const f = this.onReady;
      this.onReady = null;
      f(m);
      return;
    }
    if (this.table && typeof m.tick === "boolean") {
      this.table.since = m.tick ? performance.now() : null;
      return;
    }
    if (this.table && m.notice && typeof m.notice === "object") {
      const f = m.notice.failed && typeof m.notice.failed === "object" ? m.notice.failed : {};
      this.table.onNotice({ seat: m.notice.seat, failed: { kind: String(f.kind), line: Number.isInteger(f.line) ? f.line : null, name: typeof f.name === "string" ? f.name : null, exception: typeof f.exception === "string" ? f.exception : null } });
      return;
    }
    const p = this.pending.get(m.n);
    if (!p) return;                              // not a pending request: ignored
    this.pending.delete(m.n);
    clearTimeout(p.timer);
    const a = readAnswer(m.answer);
    p.resolve(a);
    if (a.error && a.error.kind === "crash") this.kill("crash");      // its Python is gone
  }

  /** One request of the box protocol; over ``limit`` seconds the box is ended. */
  request(req, limit = this.timeLimit) {
    if (this.dead) return Promise.resolve(failure("gone"));
    const n = ++this.n;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(n);
        resolve(failure("timeout", limit));
        this.kill("timeout");
      }, limit * 1000);
      this.pending.set(n, { resolve, timer });
      this.port.postMessage({ n, req });
    });
  }

  /** The bot's answer to one seat's view: {ok: action, seconds} or {error, seconds}. */
  async choose(view) {
    const t0 = performance.now();
    const r = await this.request({ op: "choose", view });
    const seconds = (performance.now() - t0) / 1000;
    this.stats.decisions += 1;
    this.stats.seconds += seconds;
    this.stats.max_seconds = Math.max(this.stats.max_seconds, seconds);
    return { ...r, seconds };
  }

  /** For the lab's worker (``lab``: web/lib/lab/client.js's LabWorker): a port of a
   * MessageChannel between the box and that worker, once per box (the box's end transferred
   * through this box's port, the worker's end through the worker's own channel), so that the
   * worker asks the box for its decisions itself and the views never pass through the page.
   * The worker times each decision and says when one went over its limit; the page then ends
   * the box, and tells the worker when a box ends for any other reason. */
  connectLab(lab) {
    if (this.lab === lab || this.dead) return;
    const ch = new MessageChannel();
    this.port.postMessage({ lab: ch.port1 }, [ch.port1]);
    lab.addBox(this.uid, ch.port2, this);
    this.lab = lab;
  }

  /** At the table (docs/LAB.md): the port of the table's worker goes into the box
   * (transferred: the page never reads the views on it).  A decision longer than ``limitMs``
   * ends the box; ``onStopped(kind)`` ("timeout" | "gone") when the box ends, ``onNotice({seat,
   * failed})`` when the bot failed a decision. */
  seatTable(tablePort, limitMs, { onNotice, onStopped }) {
    this.table = { since: null, onNotice, onStopped };
    this.watchdog = setInterval(() => {
      const since = this.table && this.table.since;
      if (since !== null && performance.now() - since > limitMs) this.kill("timeout");
    }, 100);
    this.port.postMessage({ table: tablePort }, [tablePort]);
  }

  /** Ends the box: its iframe and worker are gone; pending requests answer the failure. */
  kill(kind = "gone", arg) {
    if (this.dead) return;
    this.dead = kind;
    if (kind === "start") this.startError = String(arg);
    if (this.onReady) {
      const f = this.onReady;
      this.onReady = null;
      f({ ready: false, error: String(arg || kind) });
    }
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve(kind === "timeout" ? failure("timeout", this.timeLimit) : kind === "start" ? failure("start", arg) : kind === "closed" ? failure("gone") : failure("crash"));
    }
    this.pending.clear();
    if (this.onWindowMessage) window.removeEventListener("message", this.onWindowMessage);
    if (this.port) this.port.close();
    if (this.frame) this.frame.remove();
    if (this.lab) this.lab.boxEnded(this.uid, kind);
    if (this.watchdog) clearInterval(this.watchdog);
    if (this.table) {
      const stopped = this.table.onStopped;
      this.table = null;
      if (kind !== "closed") stopped(kind === "timeout" ? "timeout" : "gone");
    }
  }

  close() {
    this.kill("closed");
  }
}
