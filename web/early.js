// Loaded by index.html before the page's own modules (async, no imports): the engine worker
// starts at once, so that Python loads while the rest of the page is fetched (docs/PAGE.md).  Its
// messages wait here until lib/worker-client.js takes the worker over (take()).

const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
const debug = hash.get("debug") === "1";
const url = new URL("./worker.js", import.meta.url);
if (debug) url.searchParams.set("debug", "1");
try {
  const worker = new Worker(url, { type: "module" });
  const queue = [];
  const keep = (e) => queue.push(e);
  worker.addEventListener("message", keep);
  worker.addEventListener("error", keep);
  globalThis.atutEarlyWorker = {
    worker, debug,
    take() {
      worker.removeEventListener("message", keep);
      worker.removeEventListener("error", keep);
      return queue;
    },
  };
} catch (_) { /* lib/worker-client.js starts the worker itself and says why it cannot */ }
