// The conversation with the engine worker (web/worker.js): requests {id, op, args} answered by
// {id, ok, result | error}; besides answers the worker posts progress, ready and error messages,
// handed to the callbacks given to startWorker().

const pending = new Map();
let nextId = 1;
let worker = null;

/** Start the worker; the callbacks: progress(pct, stage), ready(info, timings), failed(message),
 *  poolWanted() (the first level-4 search: the search workers may start now), writerLost(id)
 *  (another tab took over the game `id`: the worker keeps nothing more of it). */
export function startWorker({ debug, progress, ready, failed, poolWanted = () => {}, writerLost = () => {} }) {
  // the worker web/early.js started before the page's modules loaded, with its messages so far
  const early = globalThis.atutEarlyWorker;
  globalThis.atutEarlyWorker = null;
  let queued = [];
  if (early && early.debug === !!debug) {
    worker = early.worker;
    queued = early.take();
  } else {
    if (early) early.worker.terminate();
    const url = new URL("../worker.js", import.meta.url);
    if (debug) url.searchParams.set("debug", "1");
    try {
      worker = new Worker(url, { type: "module" });
    } catch (err) {
      failed(String(err && err.message ? err.message : err));
      return;
    }
  }
  let started = false;
  worker.onmessage = (e) => {
    const m = e.data;
    if (!m || typeof m !== "object") return;             // no message of the protocol: ignored
    // progress and ready only before the engine is ready, once (a stray one changes nothing)
    if (m.type === "progress") { if (!started) progress(m.pct, m.stage); return; }
    if (m.type === "ready") {
      if (started) return;
      if (!m.info || typeof m.info !== "object") return failed("the engine sent no game list");
      started = true;
      return ready(m.info, m.timings, m.build);
    }
    if (m.type === "pool_wanted") return poolWanted();
    if (m.type === "writer_lost") return writerLost(typeof m.id === "string" ? m.id : null);
    if (m.type === "error") return failed(typeof m.message === "string" ? m.message : "the engine failed");
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    // a reply is {ok: true, result} or {ok: false, error: "message"}; anything else is an error
    if (m.ok === true && "result" in m) p.resolve(m.result);
    else if (m.ok === false && typeof m.error === "string" && m.error) p.reject(new Error(m.error));
    else p.reject(new Error("the engine sent a malformed reply"));
  };
  worker.onerror = (e) => failed(e.message || "the worker failed to start");
  for (const e of queued) (e.type === "error" ? worker.onerror : worker.onmessage)(e);
}

/** One request to the engine: resolves with its result, rejects with its error message.
 *  `transfer`: objects moved to the worker with the request (the search pool's MessagePorts). */
export function request(op, args = {}, transfer = []) {
  return new Promise((resolve, reject) => {
    if (!worker) return reject(new Error("the engine is not running"));
    if (typeof op !== "string") return reject(new Error(`a request's op must be a string, not ${typeof op}`));
    const id = nextId++;
    try {
      worker.postMessage({ id, op, args }, transfer);
    } catch (err) {                                     // e.g. a function among the arguments
      return reject(new Error(`the request could not be sent to the engine: ${err && err.message ? err.message : err}`));
    }
    pending.set(id, { resolve, reject });
  });
}
