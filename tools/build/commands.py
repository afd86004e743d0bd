"""The commands beside the build: lint (ruff, eslint), the test suite, and the benchmarks and
soak runs (scripts in tests/browser/ and tools/, run in .venv/ on a freshly built dist/).  Each
takes the command's arguments and a ``build`` that makes dist/, and returns an exit code."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .common import ROOT, log
from .setup import ensure_chromium, ensure_npm_packages, ensure_venv

Build = Callable[[], Path]
ESLINT_PATHS = ["web", "tools/build"]


def lint() -> int:
    """ruff on the Python (pyproject.toml's [tool.ruff]), eslint on the page and the build's
    Node programs (eslint.config.js)."""
    py = ensure_venv()
    ensure_npm_packages()
    failed = []
    log("ruff check .")
    if subprocess.run([str(py), "-m", "ruff", "check", "."], cwd=ROOT).returncode != 0:
        failed.append("ruff")
    log("eslint " + " ".join(ESLINT_PATHS))
    eslint = ROOT / "node_modules" / ".bin" / "eslint"
    if subprocess.run([str(eslint), *ESLINT_PATHS], cwd=ROOT).returncode != 0:
        failed.append("eslint")
    if failed:
        print(f"build.py: {' and '.join(failed)} found problems (see above)", file=sys.stderr)
        return 1
    return 0


def _pytest(py: Path, args: list[str], env: dict) -> int:
    log(" ".join(["pytest", *args]))
    r = subprocess.run([str(py), "-m", "pytest", *args], cwd=ROOT, env=env)
    if r.returncode == 5:
        print("build.py test: pytest collected no tests: that is a failure", file=sys.stderr)
        return 1
    return r.returncode


def test(args: list[str], build: Build) -> int:
    """Set up .venv, node_modules and Chromium, lint, build, then pytest on tests/.

    Without arguments the engine's tests run first, a file per process on as many processes
    as the machine has cores (pytest-xdist, ``--dist loadfile``: a file's tests share one
    process, as its counting tests need), then the browser tests one at a time (each drives
    Chromium, whose timing the other tests would disturb).  The 30 slowest of each part are
    named at the end.  With arguments, one pytest run on tests/ with them."""
    py = ensure_venv()
    ensure_npm_packages()
    ensure_chromium()
    if lint() != 0:
        return 1
    build()
    env = dict(os.environ, ATUT_DIST_BUILT="1")
    if args:
        return _pytest(py, ["tests", "-q", *args], env)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = max(1, min(cores or 1, 4))
    engine = _pytest(py, ["tests", "-q", "--ignore=tests/browser", "--durations=30",
                          "-n", str(cores), "--dist", "loadfile"], env)
    browser = _pytest(py, ["tests/browser", "-q", "--durations=30"], env)
    return engine or browser


# `python3 build.py <command>` -> the script it runs, and whether it needs Chromium
SCRIPTS = {
    "bench-page": ("tests/browser/bench_page.py", True),
    "soak-page": ("tests/browser/soak_page.py", True),
    "bench-aids": ("tests/browser/bench_aids.py", True),
    "bench-lab": ("tests/browser/bench_lab.py", True),
    "bench-pool": ("tests/browser/bench_pool.py", True),
    "bench-boxes-page": ("tests/browser/bench_boxes.py", True),
    "bench-backup": ("tests/browser/bench_backup.py", True),
    "bench-tournament-page": ("tests/browser/bench_tournament.py", True),
    # bot decision times in Pyodide (Node) and CPython side by side (see its docstring)
    "bench-bots": ("tools/bench_bots.py", False),
}


def run_script(name: str, args: list[str], build: Build) -> int:
    """Build dist/, then run the script of command ``name`` in .venv (dist/ marked built)."""
    script, browser = SCRIPTS[name]
    py = ensure_venv()
    ensure_npm_packages()
    if browser:
        ensure_chromium()
    build()
    return subprocess.run([str(py), str(ROOT / script), *args], cwd=ROOT,
                          env=dict(os.environ, ATUT_DIST_BUILT="1")).returncode
