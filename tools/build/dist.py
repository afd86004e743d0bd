"""dist/, the static site, from all the parts (relative URLs only, so it works under any
sub-path of any static host):

    index.html                      the app
    web/                            page code, styles, i18n, icons, worker, bridge.py (copied)
    web/pyodide/                    the Pyodide runtime + micropip (pyodide.py)
    web/pyodide/snapshot.bin.gz     Python started with atut imported (snapshot.py)
    web/wheels/atut-<version>-py3-none-any.whl                                    (wheel.py)
    web/wheels/openskill-<pin>-py3-none-any.whl     the tournament board's ratings (pyodide.py)
    web/lab/                        the bot lab's editor bundle (lab.py) and lab.css
    web/rules/<game>.<lang>.json    the in-app rules from docs/rules/<game>.md (tools/rules_html.py)
    web/build.json                  names of the wheel and the runtime files, the build id, and
                                    the engine's info (games, seats, options, levels) for the menu
    manifest.webmanifest            the web app manifests (manifest.py)
    sw.js                           the service worker (sw.py)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from . import lab, manifest, pyodide, snapshot, sw
from .common import ROOT, BuildError, file_sha256, log
from .setup import ensure_npm_packages
from .wheel import build_wheel, project_version


def build(dist: Path, quiet: bool = False) -> Path:
    """Make ``dist`` (emptied first) from the sources; returns it."""
    ensure_npm_packages()
    if not (ROOT / "index.html").exists():
        raise BuildError("index.html is missing")
    if dist.exists():
        shutil.rmtree(dist)
    dist.mkdir()
    shutil.copy2(ROOT / "index.html", dist / "index.html")
    shutil.copytree(ROOT / "web", dist / "web",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
    lab.bundle_lab(dist / "web" / "lab")
    pyo = dist / "web" / "pyodide"
    compiled, mp = pyodide.copy_runtime(pyo)
    wheel = build_wheel(dist / "web" / "wheels", compiled[1] if compiled else None)
    osk = pyodide.openskill_wheel()
    shutil.copy2(osk, dist / "web" / "wheels" / osk.name)
    info = static_info()
    snap = snapshot.write_snapshot(pyo, wheel, dist / "web" / "bridge.py")
    meta = {
        "version": project_version(),
        "built": info["built"],
        "classes": info["classes"],
        "info": info,                                   # the menu's, before the engine loads
        "wheel": "wheels/" + wheel.name,
        "wheel_sha256": file_sha256(wheel),
        "pyodide": pyodide.PYODIDE_VERSION,
        "micropip": "pyodide/" + mp.name,
        "openskill": "wheels/" + osk.name,
    }
    if snap:
        meta["snapshot"] = snap
    (dist / "web" / "build.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    write_rules_pages(dist / "web" / "rules")
    manifest.write_manifests(dist)
    done = sw.write_service_worker(dist)
    if not quiet:
        size = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
        log(f"{dist.name}/ built ({size / 1e6:.1f} MB): {wheel.name}, Pyodide "
            f"{pyodide.PYODIDE_VERSION}, micropip {pyodide.MICROPIP_VERSION}; "
            + (f"service worker precaches {done['count']} files" if done else "no service worker"))
    return dist


def static_info() -> dict:
    """What the menu needs before Python has loaded: the table's `info` reply (games, built
    games, seat counts, options, bot levels, version; ``atut.table.info``), computed in a fresh
    CPython on engine/.  build.json carries it; the worker's own reply replaces it."""
    code = ("import json, sys; sys.path[:0] = [sys.argv[1]]; import atut.table; "
            "print(json.dumps(atut.table.info()))")
    r = subprocess.run([sys.executable, "-c", code, str(ROOT / "engine")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["?"])[-1]
        raise BuildError("could not list the games: " + last)
    return json.loads(r.stdout)


def write_rules_pages(dest: Path) -> list[Path]:
    """The in-app rules, web/rules/<game>.<lang>.json, from docs/rules/<game>.md
    (tools/rules_html.py; rendered by web/lib/rules.js)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import rules_html
    finally:
        sys.path.pop(0)
    return rules_html.write_rules(ROOT / "docs" / "rules", dest)
