"""What every build step shares: the repository's paths, the log, BuildError, running a tool
or one of the Node programs of this folder, and the hash that names a cache entry."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CACHE = ROOT / ".cache"
NODE_MODULES = ROOT / "node_modules"


class BuildError(Exception):
    pass


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def node() -> str | None:
    """The Node executable, or None (then the steps that need it are left out or fail)."""
    return shutil.which("node") or shutil.which("nodejs")


def run_node(script: str, *args: str) -> subprocess.CompletedProcess:
    """Run tools/build/<script> (an ES module) with Node; output captured as text."""
    return subprocess.run([node() or "node", str(HERE / script), *args], cwd=ROOT,
                          capture_output=True, text=True)


def run_tool(cmd: list[str], env: dict, what: str) -> None:
    """Run ``cmd``; on failure a BuildError with the last lines it printed."""
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        lines = [x for x in (r.stderr + r.stdout).splitlines()
                 if x.strip() and not x.startswith("WARNING: Location")]
        raise BuildError(f"{what} failed: " + " | ".join(lines[-5:]))


def tail(r: subprocess.CompletedProcess, n: int) -> str:
    """The last ``n`` short lines a process printed (its errors), joined by ' | '."""
    lines = [ln for ln in (r.stderr or r.stdout).strip().splitlines() if len(ln) < 400]
    return " | ".join(lines[-n:])


def tree_hash(*paths: Path) -> str:
    """A short hash of files and folders (names and bytes; byte code left out)."""
    h = hashlib.sha256()
    for base in paths:
        files = [base] if base.is_file() else sorted(
            p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and p.suffix not in (".pyc", ".pyo"))
        for p in files:
            h.update(str(p.relative_to(base.parent)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:20]


def new_cache_entry(kind: str, key: str, keep: int = 3) -> Path:
    """An empty .cache/<kind>/<key>/ to fill.  Of the other entries of .cache/<kind>/ the
    ``keep`` newest stay (the builds of other branches or worktrees may be using them)."""
    out = CACHE / kind / key
    shutil.rmtree(out, ignore_errors=True)
    if out.parent.exists():
        others = sorted((p for p in out.parent.iterdir() if p.is_dir()),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        for p in others[keep:]:
            shutil.rmtree(p, ignore_errors=True)
    out.mkdir(parents=True)
    return out


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
