"""Offline: the build id (the hash of every file of dist/) into web/build.json, then sw.js, the
service worker made by workbox-build's generateSW (sw.mjs, run by Node), which precaches all of
dist/ under a cache named by the build id, each file with its sha-384 as integrity, so that a
cache never holds files of two builds."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .common import NODE_MODULES, BuildError, log, node, run_node, tail


def build_id(dist: Path) -> str:
    """The hash of every file of dist/ but build.json and sw.js (which carry it)."""
    h = hashlib.sha256()
    for p in sorted(x for x in dist.rglob("*") if x.is_file()):
        rel = p.relative_to(dist).as_posix()
        if rel in ("web/build.json", "sw.js"):
            continue
        h.update(rel.encode() + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()[:16]


def write_service_worker(dist: Path) -> dict | None:
    """The build id into ``dist``/web/build.json, then ``dist``/sw.js.  Returns generateSW's
    counts, or None without Node (the site then works online only)."""
    info_path = dist / "web" / "build.json"
    info = json.loads(info_path.read_text(encoding="utf-8"))
    (dist / "sw.js").unlink(missing_ok=True)
    info["build"] = build_id(dist)
    info_path.write_text(json.dumps(info, indent=1), encoding="utf-8")
    if node() is None or not (NODE_MODULES / "workbox-build").is_dir():
        log("node or node_modules/workbox-build is missing: no service worker (online only)")
        return None
    r = run_node("sw.mjs", str(dist), "atut-" + info["build"], str(NODE_MODULES))
    if r.returncode != 0:
        raise BuildError("workbox-build generateSW failed: " + tail(r, 5))
    out = json.loads(r.stdout)
    if out.get("warnings"):
        raise BuildError("generateSW warnings: " + "; ".join(out["warnings"]))
    return out
