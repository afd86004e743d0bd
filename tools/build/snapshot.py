"""web/pyodide/snapshot.bin.gz: a memory snapshot of Pyodide with Python started and the bridge
(the wheel's atut, every game and bot) imported, made in Node by snapshot.mjs with the same
runtime files as the page.  The page's worker restores it instead of starting Python.  Two runs
with the same inputs give different bytes (and so another build id): it is cached in
.cache/snapshot/ by the hash of its inputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .common import CACHE, HERE, file_sha256, log, new_cache_entry, node, run_node, tail, tree_hash
from .pyodide import PYODIDE_FILES


def write_snapshot(pyo: Path, wheel: Path, bridge: Path) -> dict | None:
    """The snapshot into ``pyo`` (the runtime folder of dist/), made with ``wheel`` and
    ``bridge``.  Returns build.json's `snapshot` entry, or None without Node or on failure (the
    worker then starts Python from scratch)."""
    if node() is None:
        return None
    key = tree_hash(*(pyo / f for f in PYODIDE_FILES if f != "pyodide.mjs.map"), wheel, bridge,
                    HERE / "snapshot.mjs")
    out = CACHE / "snapshot" / key
    if not (out / "ok").exists():
        new_cache_entry("snapshot", key)
        log("making the start-up snapshot of Python with Pyodide in Node "
            "(cached in .cache/snapshot/)")
        r = run_node("snapshot.mjs", (pyo / "pyodide.mjs").as_uri(), str(pyo) + "/", str(wheel),
                     str(bridge), str(out / "snapshot.bin.gz"))
        if r.returncode != 0 or not (out / "snapshot.bin.gz").exists():
            log("snapshot step failed, the page starts Python from scratch: " + tail(r, 3))
            shutil.rmtree(out, ignore_errors=True)
            return None
        (out / "meta.json").write_text(r.stdout, encoding="utf-8")
        (out / "ok").write_text("ok\n")
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    shutil.copy2(out / "snapshot.bin.gz", pyo / "snapshot.bin.gz")
    # what the snapshot holds: the worker checks them against the wheel and bridge it loads
    return {"file": "pyodide/snapshot.bin.gz", "site": meta["site"], "size": meta["size"],
            "wheel_sha256": file_sha256(wheel), "bridge_sha256": file_sha256(bridge)}
