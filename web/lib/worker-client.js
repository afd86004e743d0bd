// The conversation with the engine worker (web/worker.js): requests {id, op, args} answered by
// {id, ok, result | error}; besides answers the worker posts progress, ready and error messages,
// handed to the callbacks given to startWorker().

const pending = new Map();
let nextId = 1;
let worker = null;

/** Start the worker; the callbacks: progress(pct, stage), ready(info, timings), failed(message). */
export function startWorker({ debug, progress, ready, failed }) {
  const url = new URL("../worker.js", import.meta.url);
  if (debug) url.searchParams.set("debug", "1");
  try {
    worker = new Worker(url, { type: "module" });
  } catch (err) {
    failed(String(err && err.message ? err.message : err));
    return;
  }
  worker.onmessage = (e) => {
    const m = e.data || {};
    if (m.type === "progress") return progress(m.pct, m.stage);
    if (m.type === "ready") return ready(m.info, m.timings, m.build);
    if (m.type === "error") return failed(m.message);
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(new Error(m.error || "unknown error"));
  };
  worker.onerror = (e) => failed(e.message || "the worker failed to start");
}

/** One request to the engine: resolves with its result, rejects with its error message. */
export function request(op, args = {}) {
  return new Promise((resolve, reject) => {
    if (!worker) return reject(new Error("the engine is not running"));
    const id = nextId++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, op, args });
  });
}
