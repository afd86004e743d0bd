// The pool of search workers: N extra engine workers (web/worker.js started with the name
// "atut-search") that run the shards of level 4's search for the table's worker.  The page only
// wires them: one MessageChannel per search worker, one end to it, the other ends to the table's
// worker (`pool_ports`).  The jobs (a bot's view) and their results go worker to worker over
// these ports and never pass through the page.  N comes from the setting "Search workers"
// (kept in the browser); 1 means no pool: the table's worker searches alone.  The pool starts
// when the table's worker first needs it (its "pool_wanted" message: a level-4 bot's move, a
// review grade, why a bot played): a person who plays level 3 never pays for it.

import { request } from "./worker-client.js";
import { S } from "./state.js";

const KEY = "atut.pool";
export const POOL_CHOICES = ["auto", "1", "2", "3", "4"];

function get() { try { return localStorage.getItem(KEY); } catch (_) { return null; } }
function put(v) { try { localStorage.setItem(KEY, v); } catch (_) { /* storage off */ } }

/** The kept choice: "auto" or "1".."4". */
export function poolChoice() {
  const v = get();
  return POOL_CHOICES.includes(v) ? v : "auto";
}

/** Auto: one search worker per core beside the page's, at most 4 (1: no pool). */
export function autoPoolSize() {
  const cores = Number(navigator.hardwareConcurrency) || 1;
  return Math.max(1, Math.min(cores - 1, 4));
}

export function poolSize(choice = poolChoice()) {
  return choice === "auto" ? autoPoolSize() : parseInt(choice, 10);
}

let workers = [];
let started = false;

/** Start (or restart) the pool with the kept size: the old workers end. */
export function startPool() {
  started = true;
  for (const w of workers) w.terminate();
  workers = [];
  const n = poolSize();
  const ports = [];
  for (let i = 0; n >= 2 && i < n; i++) {
    const url = new URL("../worker.js", import.meta.url);
    if (S.debug) url.searchParams.set("debug", "1");
    let w;
    try {
      w = new Worker(url, { type: "module", name: "atut-search" });
    } catch (err) {
      console.warn("search worker:", err && err.message ? err.message : err);
      break;
    }
    w.onmessage = (e) => {
      const m = e.data;
      if (m && typeof m === "object" && m.type === "error") console.warn("search worker:", m.message);
    };
    w.onerror = (e) => { console.warn("search worker:", e.message || "failed"); e.preventDefault(); };
    const ch = new MessageChannel();
    w.postMessage({ type: "port" }, [ch.port1]);
    ports.push(ch.port2);
    workers.push(w);
  }
  return request("pool_ports", { ports }, ports).catch((err) => {
    console.warn("search pool:", err && err.message ? err.message : err);
    return { workers: 0, on: false };
  });
}

/** The pool, started if it is not yet (once: the table's worker asked for it). */
export function ensurePool() {
  return started ? null : startPool();
}

/** The setting changed: kept, and a running pool restarted with the new size. */
export function setPoolChoice(choice) {
  if (!POOL_CHOICES.includes(choice)) return null;
  put(choice);
  return started ? startPool() : null;
}

// debug=1: the tests' hooks (a search worker that dies)
export function poolDebugHooks() {
  return {
    get size() { return workers.length; },
    kill(i) { if (workers[i]) workers[i].terminate(); },
    get started() { return started; },
    start: () => ensurePool(),
    restart: () => startPool(),
  };
}
