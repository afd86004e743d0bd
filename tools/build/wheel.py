"""The atut wheel: engine/atut as a pure wheel (py3-none-any), made by the backend that
pyproject.toml names (`pip wheel` in .venv/, no index reached), with fixed timestamps so that
the same sources give the same bytes; optionally with byte code for Pyodide's Python added."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .common import ROOT, BuildError, run_tool
from .setup import ensure_venv

# 2024-01-01: fixed timestamps, so that the same sources give the same wheel
SOURCE_DATE_EPOCH = "1704067200"


def project_version() -> str:
    text = (ROOT / "engine" / "atut" / "__init__.py").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    raise BuildError("engine/atut/__init__.py has no __version__")


def build_wheel(out_dir: Path, pyc_dir: Path | None = None) -> Path:
    """The wheel, written into ``out_dir``; with ``pyc_dir`` (from pyodide.precompile()) the
    `wheel` tool unpacks it, adds atut/**/__pycache__/*.pyc and packs it again, which rewrites
    RECORD."""
    py = ensure_venv()
    env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, PYTHONDONTWRITEBYTECODE="1")
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="atut-wheel-") as tmp:
        # a clean copy of the sources, so that no build/ or egg-info of an older tree leaks in
        src = Path(tmp) / "src"
        shutil.copytree(ROOT / "engine" / "atut", src / "engine" / "atut",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo"))
        for f in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / f, src / f)
        built = Path(tmp) / "built"
        run_tool([str(py), "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
                  "--no-index", "-q", "-w", str(built)], env, "pip wheel")
        wheels = sorted(built.glob("atut-*-py3-none-any.whl"))
        if len(wheels) != 1:
            raise BuildError(f"pip wheel made {[w.name for w in built.iterdir()]}, not one pure "
                             "atut wheel")
        if pyc_dir is None:
            target = out_dir / wheels[0].name
            shutil.copy2(wheels[0], target)
            return target
        unpacked = Path(tmp) / "unpacked"
        run_tool([str(py), "-m", "wheel", "unpack", str(wheels[0]), "-d", str(unpacked)], env,
                 "wheel unpack")
        (tree,) = unpacked.iterdir()
        for path in sorted(pyc_dir.rglob("*.pyc")):
            dest = tree / "atut" / path.relative_to(pyc_dir)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
        run_tool([str(py), "-m", "wheel", "pack", str(tree), "-d", str(out_dir)], env,
                 "wheel pack")
        return out_dir / wheels[0].name
