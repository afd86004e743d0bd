/* global console */
// The decision benchmark of tools/bench_bots.py, in Pyodide (in Node, from node_modules/pyodide):
//
//   node tools/bench_bots.mjs <atut wheel or zip> '<JSON list of settings>'
//
// A setting is {"game_id", "players", "level", "seeds"}, the arguments of
// atut.arena.decision_times.  Each decision is timed in CPU seconds of the Node process
// (process.cpuUsage(), user + system): time.process_time in Pyodide is the wall clock
// (Emscripten's clock()), so other load on the machine would count.  The first line is
// {"runtime": ...}; then one JSON object per setting, the setting with decision_times' result,
// printed as soon as it is done.  The package is unpacked into site-packages as the page's
// worker does (pyodide.unpackArchive with the bytes as a Uint8Array).
import { args, pyodideWithAtut } from "../scripts/pyodide_node.mjs";

const { archive, settings } = args("node tools/bench_bots.mjs <wheel or zip> '<JSON settings>'");
const py = await pyodideWithAtut(archive);
const run = py.runPython(`
import json, sys
import js
import atut
from atut.arena import decision_times

def _cpu():
    u = js.process.cpuUsage()
    return (u.user + u.system) / 1e6

def _run(spec):
    s = json.loads(spec)
    s.update(decision_times(s["game_id"], s["players"], s["level"], tuple(s["seeds"]), _cpu))
    return json.dumps(s)

print(json.dumps({"runtime": {"python": sys.version.split()[0], "platform": sys.platform,
                              "atut": atut.__file__}}), flush=True)
_run
`);
for (const s of settings) {
  console.log(run(JSON.stringify(s)));
}
run.destroy();
