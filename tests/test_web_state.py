"""The page's store (web/lib/state.js), run in Node: each part has one owner (a second claim
throws), set() takes declared fields and data only, subscribers hear which fields changed, and
S reads every part but cannot be written."""

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
const st = await import(process.argv[1]);
const out = {};
const err = (fn) => { try { fn(); return null; } catch (e) { return e.message; } };
const table = st.claim("table");
out.secondClaim = err(() => st.claim("table"));
out.noPart = err(() => st.claim("nothing"));
const heard = [];
const stop = st.subscribe("table", (changed) => heard.push([...changed].sort()));
const before = st.get("table");
table.set({ seat: 2, busy: false });            // busy unchanged: only seat is heard
table.set({ seat: 2 });                         // nothing changed: nobody is called
table.update((old) => ({ gen: old.gen + 1, view: { to_move: 1 } }));
out.heard = heard;
out.oldKept = before.seat;                      // the old object is not changed
out.reads = [st.S.seat, st.S.gen, st.S.view.to_move, st.S.menu.game, st.S.lang];
out.unknown = err(() => table.set({ nonsense: 1 }));
out.fn = err(() => table.set({ auto: () => 1 }));
out.writeS = err(() => { st.S.seat = 5; });
out.writePart = err(() => { st.get("table").seat = 5; });
stop();
table.set({ seat: 3 });
out.afterStop = heard.length;
console.log(JSON.stringify(out));
"""


def test_the_store_keeps_its_rules():
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "Node is needed (build.py needs it too)"
    proc = subprocess.run([node, "--input-type=module", "-e", SCRIPT, "--",
                           (ROOT / "web" / "lib" / "state.js").as_uri()],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert "owner already" in out["secondClaim"]
    assert 'no part "nothing"' in out["noPart"]
    assert out["heard"] == [["seat"], ["gen", "view"]]
    assert out["oldKept"] == 0
    assert out["reads"] == [2, 1, 1, "sixty_six", "en"]
    assert 'no field "nonsense"' in out["unknown"]
    assert "cannot hold a function" in out["fn"]
    assert out["writeS"] and out["writePart"]          # TypeErrors: read only
    assert out["afterStop"] == 2
