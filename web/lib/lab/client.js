// The page's side of the lab's worker (web/lab-worker.js): requests {id, op, args} answered by
// {id, ok, result | error, bot_error}, and the watchdog.  The worker says when the student's
// code starts and ends running (tick messages); a run longer than the time limit, or Stop, ends
// the worker (Worker.terminate: the page's thread is never blocked by it) and a fresh one starts.
// Every request still waiting then rejects with an Error whose `stopped` is "timeout" or "stop".

export class LabWorker {
  constructor({ onState = () => {}, onProgress = () => {}, onStopped = () => {} } = {}) {
    this.onState = onState;          // ("loading" | "ready" | "failed", message)
    this.onProgress = onProgress;    // ({done, total, dps, point})
    this.onStopped = onStopped;      // (why, what): the worker was ended ("timeout" | "stop")
    this.limitMs = 2000;
    this.pending = new Map();
    this.nextId = 1;
    this.running = null;             // {n, since, what}: the student's code is running
    this.timer = setInterval(() => this.watch(), 100);
    this.start();
  }

  start() {
    this.state = "loading";
    this.onState("loading");
    this.ready = new Promise((resolve) => { this.markReady = resolve; });
    try {
      this.worker = new Worker(new URL("../../lab-worker.js", import.meta.url), { type: "module" });
    } catch (err) {
      this.fail(String(err && err.message ? err.message : err));
      return;
    }
    this.worker.onmessage = (e) => this.message(e.data);
    this.worker.onerror = (e) => this.fail(e.message || "the lab's worker failed to start");
  }

  fail(message) {
    this.state = "failed";
    this.onState("failed", message);
    this.markReady(false);
  }

  message(data) {
    let m = data;
    if (typeof data === "string") {
      try { m = JSON.parse(data); } catch (_) { return; }
    }
    if (!m) return;
    if (m.type === "tick") {
      this.running = m.on ? { n: m.n, since: performance.now(), what: m.what } : null;
      return;
    }
    if (m.type === "progress") { this.onProgress(m); return; }
    if (m.type === "ready") { this.state = "ready"; this.onState("ready"); this.markReady(true); return; }
    if (m.type === "error") { this.fail(m.message); return; }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    this.running = null;
    if (m.ok) p.resolve(m.result);
    else {
      const err = new Error(m.error || "unknown error");
      err.botError = m.bot_error || null;
      p.reject(err);
    }
  }

  watch() {
    const r = this.running;
    if (r && performance.now() - r.since > this.limitMs) this.stop("timeout", r.what);
  }

  /** End the worker (what: "timeout" | "stop"), reject what waits, start a fresh one. */
  stop(why = "stop", what = "") {
    if (this.worker) this.worker.terminate();
    this.running = null;
    for (const p of this.pending.values()) {
      const err = new Error(why);
      err.stopped = why;
      err.what = what;
      p.reject(err);
    }
    this.pending.clear();
    this.start();
    this.onStopped(why, what);
  }

  /** One request: resolves with its result, rejects with an Error (botError, stopped). */
  async request(op, args = {}, transfer = []) {
    const ok = await this.ready;
    if (!ok) throw new Error("the lab's Python did not start");
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args }, transfer);
    });
  }
}
