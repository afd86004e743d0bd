"""The Python runtime of the page, web/pyodide/: Pyodide's files from node_modules/pyodide,
micropip (its wheel from the Python package index, cached in .cache/micropip/, and a lock entry
that points at it, so that it loads offline) and byte code.  Also the openskill wheel for the
lab's tournament board (``openskill_wheel``: the pure-Python wheel of the version
requirements-dev.txt pins, cached in .cache/openskill/; the lab's worker installs it with
micropip from the site's own copy).

Pyodide's python_stdlib.zip holds only .py sources, so every module Python imports while it
starts (about 200) would be compiled from source in the browser: most of the start-up time on a
slow machine.  precompile.mjs runs the very same Pyodide in Node once and compiles the standard
library and the atut package to byte code; the site ships them next to the sources.  Cached in
.cache/pyc/ by the inputs' hash; without Node the site ships the plain sources (a slower start,
the same behaviour)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
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

PYODIDE_VERSION = "314.0.7"
NODE_PYODIDE = NODE_MODULES / "pyodide"
# micropip as pinned by Pyodide 314.0.7's own pyodide-lock.json (0.11.1); the wheel comes from
# the Python package index through pip and is cached in .cache/micropip/.
MICROPIP_VERSION = "0.11.1"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.mjs.map", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")


def pyodide_ok() -> bool:
    """node_modules/pyodide is there, at PYODIDE_VERSION."""
    pkg = NODE_PYODIDE / "package.json"
    if not pkg.exists():
        return False
    try:
        return json.loads(pkg.read_text())["version"] == PYODIDE_VERSION
    except (ValueError, KeyError):
        return False


def _pure_wheel(name: str, version: str) -> Path:
    """``name``'s pure-Python wheel (py3-none-any) at ``version``, downloaded by pip once into
    .cache/<name>/ (the same wheel whatever machine builds)."""
    cache = CACHE / name
    path = cache / f"{name}-{version}-py3-none-any.whl"
    if path.exists():
        return path
    cache.mkdir(parents=True, exist_ok=True)
    log(f"downloading {name} {version} into .cache/{name} (pip download)")
    r = subprocess.run([sys.executable, "-m", "pip", "download", f"{name}=={version}",
                        "--no-deps", "--only-binary=:all:", "--python-version", "3.13",
                        "--implementation", "py", "--abi", "none", "--platform", "any",
                        "-d", str(cache), "-q"], cwd=ROOT)
    if r.returncode != 0 or not path.exists():
        raise BuildError(f"could not download {name} {version}'s pure-Python wheel with pip")
    return path


def micropip_wheel() -> Path:
    return _pure_wheel("micropip", MICROPIP_VERSION)


def _pinned(name: str) -> str:
    """The version requirements-dev.txt pins for ``name`` (``name==X``)."""
    for line in (ROOT / "requirements-dev.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.lower().startswith(name + "=="):
            return line.split("==", 1)[1].strip()
    raise BuildError(f"requirements-dev.txt pins no version of {name}")


def openskill_version() -> str:
    """The openskill version requirements-dev.txt pins (the one the build ships)."""
    return _pinned("openskill")


def openskill_wheel() -> Path:
    """openskill's wheel at requirements-dev.txt's pin (the tournament's board:
    atut.tournament.board)."""
    return _pure_wheel("openskill", openskill_version())


def precompile() -> tuple[Path, Path] | None:
    """(python_stdlib.zip with .pyc added, folder of atut/**/__pycache__/*.pyc), or None when
    Node cannot make them (then the site ships the plain sources)."""
    src = ROOT / "engine" / "atut"
    stdlib = NODE_PYODIDE / "python_stdlib.zip"
    key = tree_hash(stdlib, src, NODE_PYODIDE / "pyodide.asm.wasm",
                    HERE / "precompile.mjs") + f"-{PYODIDE_VERSION}"
    out = CACHE / "pyc" / key
    zip_out, pyc_dir = out / "python_stdlib.zip", out / "atut"
    if (out / "ok").exists():
        return zip_out, pyc_dir
    if node() is None:
        log("node is missing: the site ships the Python sources only (a slower start)")
        return None
    new_cache_entry("pyc", key)
    pyc_dir.mkdir()
    log("compiling the standard library and atut to byte code with Pyodide in Node "
        "(cached in .cache/pyc/)")
    r = run_node("precompile.mjs", (NODE_PYODIDE / "pyodide.mjs").as_uri(),
                 str(NODE_PYODIDE) + "/", str(stdlib), str(zip_out), str(src), str(pyc_dir))
    if r.returncode != 0 or not zip_out.exists():
        log("byte-code step failed, shipping the sources only: " + tail(r, 3))
        shutil.rmtree(out, ignore_errors=True)
        return None
    (out / "ok").write_text("ok\n")
    return zip_out, pyc_dir


def copy_runtime(pyo: Path) -> tuple[tuple[Path, Path] | None, Path]:
    """Pyodide's files into ``pyo`` (the byte-compiled python_stdlib.zip when Node made one),
    micropip's wheel and a pyodide-lock.json whose micropip entry names that wheel (its hash
    differs from the one Pyodide built), so that `pyodide.loadPackage("micropip")` works
    offline.  Returns (precompile()'s result, the micropip wheel)."""
    for f in PYODIDE_FILES:
        if not (NODE_PYODIDE / f).exists():
            raise BuildError(f"node_modules/pyodide/{f} is missing: run `npm ci`")
    pyo.mkdir(parents=True)
    compiled = precompile()
    for f in PYODIDE_FILES:
        if f == "python_stdlib.zip" and compiled:
            shutil.copy2(compiled[0], pyo / f)
        elif f != "pyodide-lock.json":
            shutil.copy2(NODE_PYODIDE / f, pyo / f)
    mp = micropip_wheel()
    shutil.copy2(mp, pyo / mp.name)
    lock = json.loads((NODE_PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))
    entry = lock["packages"].get("micropip", {"name": "micropip", "imports": ["micropip"],
                                              "depends": [], "install_dir": "site",
                                              "package_type": "package"})
    entry.update(file_name=mp.name, version=MICROPIP_VERSION,
                 sha256=hashlib.sha256(mp.read_bytes()).hexdigest())
    lock["packages"]["micropip"] = entry
    (pyo / "pyodide-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    return compiled, mp
