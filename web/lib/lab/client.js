// The page's side of the lab's worker (web/lab-worker.js): requests {id, op, args} answered by
// {id, ok, result | error, bot_error}.  No bot file's code runs in that worker (its decisions are
// the boxes', web/lib/box.js, each with its own time limit and Stop), so it is never ended.

export class LabWorker {
  constructor({ onState = () => {} } = {}) {
    this.onState = onState;          // ("loading" | "ready" | "failed", message)
    this.pending = new Map();
    this.nextId = 1;
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
    if (m.type === "ready") { this.state = "ready"; this.onState("ready"); this.markReady(true); return; }
    if (m.type === "error") { this.fail(m.message); return; }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else {
      const err = new Error(m.error || "unknown error");
      err.botError = m.bot_error || null;
      p.reject(err);
    }
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
