#!/usr/bin/env python3
"""Build, serve and test Atut.

    python3 build.py                    build the wheel and the static site in dist/
    python3 build.py serve [--port N]   build, then serve dist/ on http://localhost:N (8000)
    python3 build.py test [pytest args] set up .venv, npm packages and Chromium, lint, run all tests
    python3 build.py lint               ruff (Python) and eslint (the page, the build's Node code)
    python3 build.py bench-page         cold-cache page timings in headless Chromium
    python3 build.py soak-page          50 whole games in one page, worker memory curve (Chromium)
    python3 build.py bench-bots         bot decision times: Pyodide (in Node) beside CPython
    python3 build.py bench-lab          bot lab arena deals/s in Chromium beside CPython, per game
    python3 build.py bench-aids         hint and review grading times in Chromium
    python3 build.py bench-pool         level-4 move and grade times with 1, 2, 4 search workers
    python3 build.py bench-boxes-page   memory per bot box, decisions/s through a box (Chromium)
    python3 build.py bench-tournament-page   the lab's tournament tab: deals/s of a round robin
    python3 build.py bench-backup       export and import times of a 200-game backup (Chromium)

Standard library only.  The first run sets up .venv/ (requirements-dev.txt), node_modules/
(npm ci) and .cache/ (micropip, byte code); after that the build needs no network.  The steps
live in tools/build/ (its __init__.py lists them; dist.py shows what dist/ holds).
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager
from pathlib import Path

from tools.build import commands, dist, serve
from tools.build.common import ROOT, BuildError
from tools.build.dist import static_info
from tools.build.pyodide import MICROPIP_VERSION, PYODIDE_FILES, PYODIDE_VERSION
from tools.build.serve import serve_in_thread
from tools.build.setup import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ensure_chromium,
    ensure_npm_packages,
    ensure_venv,
    launch_chromium,
)
from tools.build.sw import build_id, write_service_worker
from tools.build.wheel import build_wheel, project_version

# Where the site is built and what the tests serve: set it to use another folder (the browser
# tests' conftest.py does, from ATUT_DIST).
DIST = ROOT / "dist"

__all__ = ["BuildError", "CHROMIUM", "CHROMIUM_ARGS", "DIST", "MICROPIP_VERSION",
           "PYODIDE_FILES", "PYODIDE_VERSION", "ROOT", "build", "build_id", "build_wheel",
           "ensure_chromium", "ensure_npm_packages", "ensure_venv", "launch_chromium",
           "project_version", "serve_in_thread", "served_dist", "static_info",
           "write_service_worker"]


def build(quiet: bool = False) -> Path:
    """Build the site into DIST."""
    return dist.build(DIST, quiet)


def served_dist() -> AbstractContextManager[str]:
    """DIST (or ATUT_DIST), built unless ATUT_DIST_BUILT says so, served on a free localhost port
    while the ``with`` block runs; gives its base URL."""
    return serve.served_dist(DIST, lambda: build(quiet=True))


def _serve(args: list[str]) -> int:
    if len(args) == 1 and args[0].startswith("--port="):
        args = ["--port", args[0].split("=", 1)[1]]
    if args and not (args[0] == "--port" and len(args) == 2 and args[1].isdigit()):
        print("usage: python3 build.py serve [--port N]", file=sys.stderr)
        return 2
    serve.serve_forever(build(), int(args[1]) if args else 8000)
    return 0


def main(argv: list[str]) -> int:
    cmd, args = (argv[0], argv[1:]) if argv else ("build", [])
    try:
        if cmd == "build":
            build()
        elif cmd == "serve":
            return _serve(args)
        elif cmd == "test":
            return commands.test(args, build)
        elif cmd == "lint":
            return commands.lint()
        elif cmd in commands.SCRIPTS:
            return commands.run_script(cmd, args, build)
        elif cmd in ("-h", "--help", "help"):
            print(__doc__)
        else:
            print(f"unknown command {cmd!r}\n{__doc__}", file=sys.stderr)
            return 2
        return 0
    except BuildError as e:
        print(f"build.py: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
