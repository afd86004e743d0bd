// The page's side of the lab's worker (web/lab-worker.js): requests {id, op, args} answered by
// {id, ok, result | error, bot_error}.  No bot file's code runs in that worker (its decisions are
// the boxes', web/lib/box.js, each with its own time limit and Stop), so it is never ended.

export class LabWorker {
  constructor({ onState = () => {} } = {}) {
    this.onState = onState;          // ("loading" | "ready" | "failed", message)
    this.pending = new Map();
    this.boxes = new Map();          // uid -> a BotBox whose port the worker holds
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
    if (m.type === "box_end") {      // the worker timed a box's decision out, or it crashed
      const box = this.boxes.get(m.uid);
      if (box) box.kill(m.kind === "timeout" ? "timeout" : "crash");
      return;
    }
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

  /** A box's port for the worker (box.js's connectLab): the worker asks the box itself. */
  addBox(uid, port, box) {
    this.boxes.set(uid, box);
    this.worker.postMessage({ type: "box_port", uid, port }, [port]);
  }

  /** A box the worker holds a port of has ended (``kind``: timeout, crash, gone, closed…). */
  boxEnded(uid, kind) {
    if (!this.boxes.delete(uid)) return;
    this.worker.postMessage({ type: "box_end", uid, kind });
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
