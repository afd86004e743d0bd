/* global console, performance */
// Plays seeded bot games in Pyodide (in Node, from node_modules/pyodide) and prints what
// atut.soak.record() gives for each, one JSON object per line, as soon as it is done.
//
//   node scripts/pyodide_agree.mjs <atut wheel or zip> '<JSON list of settings>'
//
// A setting is {"game_id", "players", "seed", "level", "deals"} (deals: null for the whole
// game), the arguments of atut.soak.record.  tests/test_pyodide_agree.py runs this and compares
// each line with the same call in CPython.  The first line is {"runtime": ...}: the Python and
// Pyodide versions.  The package is unpacked into site-packages as the page's worker does
// (pyodide.unpackArchive with the bytes as a Uint8Array).
import { args, pyodideWithAtut } from "./pyodide_node.mjs";

const { archive, settings } = args("node scripts/pyodide_agree.mjs <wheel or zip> '<JSON settings>'");
const py = await pyodideWithAtut(archive);
const record = py.runPython(`
import json, sys
import atut
from atut import soak
def _record(spec):
    return json.dumps(soak.record(**json.loads(spec)))
print(json.dumps({"runtime": {"python": sys.version.split()[0], "platform": sys.platform,
                              "atut": atut.__file__}}), flush=True)
_record
`);
for (const s of settings) {
  const t0 = performance.now();
  const line = JSON.parse(record(JSON.stringify(s)));
  line.ms = Math.round(performance.now() - t0);
  console.log(JSON.stringify(line));
}
record.destroy();
