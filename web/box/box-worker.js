// A bot's box (docs/LAB.md, "Boxes"): this module runs as a Worker made from a blob inside
// web/box/box.html, a sandboxed iframe in an opaque origin whose Content-Security-Policy forbids
// every request.  It fetches nothing: the page hands Pyodide's files in as bytes, and an
// in-memory fetch serves them to Pyodide.  Then the student's file is loaded (atut.lab.StudentBot,
// through atut.box.answer: the same code as the command line's process box) and each request
// that comes over the port is answered: {n, req} -> {n, answer}, where req is one of the box
// protocol's requests ({op: "load" | "fresh" | "reset" | "choose", ...}).  Only the engine's side
// reads the answers, and it trusts none of them.

const files = new Map();

function memFetch(url) {
  const name = String(url && url.url ? url.url : url).split("?")[0].split("/").pop();
  const data = files.get(name);
  if (!data) return Promise.resolve(new Response(null, { status: 404 }));
  const type = name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
  return Promise.resolve(new Response(data, { status: 200, headers: { "Content-Type": type } }));
}

async function start(init) {
  for (const [name, buf] of Object.entries(init.files)) files.set(name, buf);
  const realFetch = globalThis.fetch;
  globalThis.fetch = memFetch;                        // Pyodide's files while it starts
  const mod = (name) => URL.createObjectURL(new Blob([files.get(name)], { type: "text/javascript" }));
  const urls = [mod("pyodide.mjs"), mod("pyodide.asm.mjs")];
  const { loadPyodide } = await import(urls[0]);
  const asm = (await import(urls[1])).default;
  urls.forEach((u) => URL.revokeObjectURL(u));
  const decoder = new TextDecoder();
  const py = await loadPyodide({
    indexURL: "box:pyodide/",                    // no such place: every file is in memory
    createPyodideModule: asm,
    lockFileContents: decoder.decode(files.get("pyodide-lock.json")),
    packages: [],
    stdout: () => {},
    stderr: () => {},
  });
  // The atut wheel is pure Python: unpacked into site-packages (no micropip, no index).
  py.FS.writeFile("/tmp/atut.whl", new Uint8Array(files.get(init.wheel)));
  py.runPython(`
import sysconfig, zipfile
zipfile.ZipFile("/tmp/atut.whl").extractall(sysconfig.get_paths()["purelib"])
import atut.box, atut.lab
`);
  // The student's own pure-Python wheels (the lab's "Add a wheel"), the same way.
  py.FS.mkdirTree("/tmp/wheels");
  for (const [name, buf] of files) {
    if (!name.endsWith(".whl") || name === init.wheel || name.includes("/")) continue;
    py.FS.writeFile("/tmp/wheels/" + name, new Uint8Array(buf));
    py.runPython(`
import sysconfig, zipfile
zipfile.ZipFile("/tmp/wheels/" + ${JSON.stringify(name)}).extractall(sysconfig.get_paths()["purelib"])
`);
  }
  files.clear();                                     // the bytes are not needed any more
  globalThis.fetch = realFetch;                      // (its requests are refused by the policy)
  const fns = py.runPython(`
import json
from atut.box import answer as _answer
_state = {}
def _box_answer(text):
    try:
        out = _answer(_state, json.loads(text))
    except BaseException as e:                       # SystemExit, KeyboardInterrupt and the like
        out = {"error": {"kind": "exception", "messages": {
            "en": f"the bot ended with {type(e).__name__}",
            "pl": f"bot zakończył się wyjątkiem {type(e).__name__}"}}}
    try:
        return json.dumps(out, separators=(",", ":"))
    except (TypeError, ValueError) as e:
        return json.dumps({"error": {"kind": "not_dict", "messages": {
            "en": f"choose returned something that is not JSON: {e}",
            "pl": f"choose zwróciło coś, co nie jest JSON: {e}"}}})
_seats = {}
def _box_table(seat, text):
    """At the table (docs/LAB.md): the action for the view of this seat, each seat with a
    fresh namespace of the bot, checked like the lab's own; or the failure's kind, line and
    exception type only (what the page may be told)."""
    from atut.lab import BotError, check_action
    view = json.loads(text)
    out = {"ok": True}
    if seat not in _seats:
        _seats[seat] = {"bot": _state.get("bot")}
        out = _answer(_seats[seat], {"op": "fresh"})
    if "ok" in out:
        out = _answer(_seats[seat], {"op": "choose", "view": view})
    if "ok" in out:
        try:
            return json.dumps({"action": check_action(view, out["ok"], _state["bot"].name)})
        except BotError as e:
            out = {"error": e.to_dict()}
    err = out["error"]
    exc = None
    tb = str(err.get("traceback") or "").strip()
    if err.get("kind") in ("exception", "load") and tb:
        exc = tb.splitlines()[-1].split(":", 1)[0].strip()[:80] or None
    return json.dumps({"failed": {"kind": err.get("kind"), "line": err.get("line"),
                                  "name": err.get("name"), "exception": exc}})
(_box_answer, _box_table)
`);
  const [answer, table] = fns.toJs ? fns.toJs({ depth: 1 }) : fns;
  return { answer: (req) => answer(JSON.stringify(req)), answerText: (text) => answer(text), table };
}

function crashText(err) {
  const m = String(err && err.message ? err.message : err).slice(0, 200);
  return JSON.stringify({ error: { kind: "crash", messages: {
    en: `the bot's box failed: ${m}`, pl: `pudełko bota zawiodło: ${m}` } } });
}

// For the lab's worker (its games' decisions, web/lab-worker.js): {n, text} over the port the
// page handed in, text a request of the box protocol as JSON; the answer {n, text} goes back
// on the same port.  The lab's worker times each decision itself.
function serveLab(lport, fns) {
  lport.onmessage = (e) => {
    const m = e.data;
    if (!m || typeof m !== "object" || typeof m.n !== "number" || typeof m.text !== "string") return;
    let text;
    try {
      text = fns.answerText(m.text);
    } catch (err) {
      text = crashText(err);
    }
    lport.postMessage({ n: m.n, text });
  };
}

// At the table: the table's worker sends {n, seat, name, view} over its port (handed in by the
// page, which never reads it) and gets {n, action} or {n, failed: kind}; {refused: seat} says
// it refused the action.  The page is told {tick} around each decision (its watchdog) and
// {notice: {seat, failed: {kind, line, name, exception}}}: never a view or an action.
function serveTable(tport, ctl, fns) {
  tport.onmessage = (e) => {
    const m = e.data;
    if (!m || typeof m !== "object") return;
    if (m.refused !== undefined) {
      ctl.postMessage({ notice: { seat: m.refused, failed: { kind: "refused", line: null, name: null, exception: null } } });
      return;
    }
    if (typeof m.n !== "number") return;
    let r;
    ctl.postMessage({ tick: true });
    try {
      r = JSON.parse(fns.table(m.seat, JSON.stringify(m.view)));
    } catch (_) {
      r = { failed: { kind: "gone", line: null, name: null, exception: null } };
    }
    ctl.postMessage({ tick: false });
    if (r.action) { tport.postMessage({ n: m.n, action: r.action }); return; }
    tport.postMessage({ n: m.n, failed: r.failed.kind });
    ctl.postMessage({ notice: { seat: m.seat, failed: r.failed } });
  };
}

self.onmessage = (e) => {
  const init = e.data;
  if (!init || init.type !== "init" || !(init.port instanceof MessagePort)) return;
  self.onmessage = null;                             // one init only
  const port = init.port;
  const ready = start(init).then(
    (fn) => { port.postMessage({ ready: true }); return fn; },
    (err) => { port.postMessage({ ready: false, error: String(err && err.message ? err.message : err) }); return null; });
  port.onmessage = async (m) => {
    const { n, req, table, lab } = m.data || {};
    const fns = await ready;
    if (!fns) return;
    if (table instanceof MessagePort) { serveTable(table, port, fns); return; }
    if (lab instanceof MessagePort) { serveLab(lab, fns); return; }
    if (typeof n !== "number") return;
    let text;
    try {
      text = fns.answer(req);
    } catch (err) {
      text = crashText(err);
    }
    port.postMessage({ n, answer: text });
  };
};
