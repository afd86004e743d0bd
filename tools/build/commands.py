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


def test(args: list[str], build: Build) -> int:
    """Set up .venv, node_modules and Chromium, lint, build, then pytest on tests/."""
    py = ensure_venv()
    ensure_npm_packages()
    ensure_chromium()
    if lint() != 0:
        return 1
    build()
    env = dict(os.environ, ATUT_DIST_BUILT="1")
    # the slowest tests are named at the end, so that a suite growing slow shows where
    args = [*args] if any(a.startswith("--durations") for a in args) else ["--durations=30", *args]
    log(" ".join(["pytest", "tests", "-q", *args]))
    r = subprocess.run([str(py), "-m", "pytest", "tests", "-q", *args], cwd=ROOT, env=env)
    if r.returncode == 5:
        print("build.py test: pytest collected no tests: that is a failure", file=sys.stderr)
        return 1
    return r.returncode


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
