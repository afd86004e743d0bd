// The bot lab's worker: a module Web Worker of its own running Pyodide + web/lab_bridge.py.  No
// bot file's code runs here (docs/LAB.md, "Boxes"): the lab's arena, its watch mode and the
// tournament's games are exchanges in which this worker holds the game and our levels (ops
// arena_start, watch, watch_step, game_start, game_send) and the page answers each decision of a
// bot file with the bot's own box (web/lib/box.js, web/lib/lab/games.js).  Never the table's
// worker (web/worker.js) either.
//
// The page sends {id, op, args} and gets {id, ok, result | error, bot_error}; besides answers
// the worker posts {type: "ready"} and {type: "error", message}.
//
// atut is installed by micropip from the site's own wheel (the Pyodide convention); micropip
// itself ships in web/pyodide/.  Everything is fetched relative to this file.  The tournament's
// ops (tournament_*: its board is atut.tournament.board, OpenSkill ratings) first install the
// openskill wheel the build put beside atut's (build.json's "openskill"), once, by micropip from
// its bytes: no index is reached.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;

async function fetchOk(url, kind) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not load ${url.split("/").pop()}: HTTP ${r.status}`);
  return kind === "json" ? r.json() : kind === "text" ? r.text() : r.arrayBuffer();
}

let pyodide = null;
let handle = null;
let manifest = null;
let openskillP = null;

function openskill() {
  if (!openskillP) {
    openskillP = (async () => {
      if (!manifest.openskill) throw new Error("this build has no openskill wheel");
      const name = manifest.openskill.split("/").pop();
      pyodide.FS.writeFile("/lab/wheels/" + name, new Uint8Array(await fetchOk(here("./" + manifest.openskill), "buffer")));
      await pyodide.runPythonAsync(`
import micropip
await micropip.install("emfs:/lab/wheels/${name}", deps=False, index_urls=[])
`);
    })();
    openskillP.catch(() => { openskillP = null; });
  }
  return openskillP;
}

async function boot() {
  const manifestP = fetchOk(here("./build.json"), "json");
  const bridgeP = fetchOk(here("./lab_bridge.py"), "text");
  const wheelP = manifestP.then((m) => fetchOk(here("./" + m.wheel), "buffer"));
  for (const p of [manifestP, bridgeP, wheelP]) p.catch(() => {});
  pyodide = await loadPyodide({
    indexURL: here("./pyodide/"),
    lockFileURL: here("./pyodide/pyodide-lock.json"),
    cdnUrl: here("./pyodide/"),                 // never fall back to a CDN
    packages: [],
    stdout: (s) => console.log(s),
    stderr: (s) => console.warn(s),
  });
  await pyodide.loadPackage("micropip", { messageCallback: () => {} });
  manifest = await manifestP;
  const wheelName = manifest.wheel.split("/").pop();
  pyodide.FS.mkdirTree("/lab/wheels");
  pyodide.FS.writeFile("/lab/wheels/" + wheelName, new Uint8Array(await wheelP));
  await pyodide.runPythonAsync(`
import micropip
await micropip.install("emfs:/lab/wheels/${wheelName}", deps=False, index_urls=[])
`);
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  pyodide.FS.writeFile(sitePackages + "/atut_lab_bridge.py", await bridgeP);
  const bridge = pyodide.pyimport("atut_lab_bridge");
  const h = bridge.handle;
  handle = (op, args) => h(op, JSON.stringify(args ?? {}));
  self.postMessage({ type: "ready", version: manifest.version });
}

const booted = boot().then(() => true, (err) => {
  self.postMessage({ type: "error", message: String(err && err.message ? err.message : err) });
  return false;
});

self.onmessage = async (e) => {
  const { id, op, args } = e.data || {};
  if (!(await booted)) {
    self.postMessage({ id, ok: false, error: "the lab's Python did not load" });
    return;
  }
  let reply;
  try {
    if (String(op).startsWith("tournament_")) await openskill();
    reply = JSON.parse(handle(String(op), args));
  } catch (err) {
    reply = { ok: false, error: String(err && err.message ? err.message : err) };
  }
  self.postMessage({ id, ...reply });
};
