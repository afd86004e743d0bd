"""The bot lab's editor and chart: web/lab/editor-entry.js (CodeMirror 6 and uPlot from
node_modules) bundled by esbuild (lab.mjs, run by Node) into web/lab/ as editor.js (an ES
module, minified), editor.css and THIRD-PARTY-LICENSES.txt (the bundled packages' licences).
Cached in .cache/lab/ by the entry's, the lock file's and lab.mjs's hash."""

from __future__ import annotations

import shutil
from pathlib import Path

from .common import (
    CACHE,
    HERE,
    NODE_MODULES,
    ROOT,
    BuildError,
    log,
    new_cache_entry,
    node,
    run_node,
    tail,
    tree_hash,
)

FILES = ("editor.js", "editor.css", "THIRD-PARTY-LICENSES.txt")


def bundle_lab(dest: Path) -> None:
    entry = ROOT / "web" / "lab" / "editor-entry.js"
    (dest / entry.name).unlink(missing_ok=True)          # bare npm imports: not for the page
    out = CACHE / "lab" / tree_hash(entry, ROOT / "package-lock.json", HERE / "lab.mjs")
    if not (out / "editor.js").exists():
        if node() is None or not (NODE_MODULES / "esbuild").is_dir():
            log("node or node_modules/esbuild is missing: no bot lab editor")
            return
        new_cache_entry("lab", out.name)
        log("bundling the bot lab's editor (esbuild; cached in .cache/lab/)")
        r = run_node("lab.mjs", str(entry), str(out), str(NODE_MODULES))
        if r.returncode != 0 or not (out / "editor.js").exists():
            shutil.rmtree(out, ignore_errors=True)
            raise BuildError("esbuild could not bundle web/lab/editor-entry.js: " + tail(r, 5))
    dest.mkdir(parents=True, exist_ok=True)
    for f in FILES:
        shutil.copy2(out / f, dest / f)
