// The start-up snapshot (tools/build/snapshot.py runs it with Node):
//
//   node snapshot.mjs <pyodide.mjs URL> <runtime folder/> <atut wheel> <bridge.py> <out .gz>
//
// Pyodide starts Python, unpacks the wheel into site-packages, imports the bridge (as
// atut_bridge), every game and every level's bot, and writes its memory, gzipped, to <out .gz>.
// Prints {"site": site-packages, "size": bytes before gzip}.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
const [pyodideMjs, index, wheel, bridge, out] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideMjs);
const py = await loadPyodide({ indexURL: index, _makeSnapshot: true, stdout: () => {},
                               stderr: (s) => process.stderr.write(s + "\n") });
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
py.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: site });
py.FS.writeFile(site + "/atut_bridge.py", readFileSync(bridge, "utf8"));
// every game's rules and bots imported too: the first New game imports nothing
py.runPython(`import atut_bridge, atut, atut.analysis
for g in atut.built_games():
    for level in (1, 2, 3, 4):
        atut.make_bot(g, level)`);
const snap = py.makeMemorySnapshot();
writeFileSync(out, gzipSync(snap, { level: 6 }));
process.stdout.write(JSON.stringify({ site, size: snap.length }));
