"""CPython and Pyodide agree (docs/RESULTS.md): the same seed and the same level-3 bots (strict, the
time cap lifted, as the arena plays: ``atut.soak.bots_for``) give the same actions, event
record (its SHA-256), scores and winner in both, for every game and player count.

Pyodide runs in Node (``scripts/pyodide_agree.mjs``, from ``node_modules/pyodide``) on the built
wheel (``$ATUT_DIST/web/wheels`` or ``dist/web/wheels``) when its sources are those of
``engine/atut``, else on a zip of ``engine/atut`` itself (a build older than the sources would
test old code).  Level-3 games are slow in Pyodide (about four times CPython), so the suite
plays whole games of sixty_six (every player count) and of imperial for 2, and the first deal
of every other setting; ``ATUT_AGREE_FULL=1`` plays a whole game of every setting (tens of
minutes).  Each setting's time in Pyodide is printed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

import atut
from atut import soak

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "pyodide_agree.mjs"
FULL = os.environ.get("ATUT_AGREE_FULL") == "1"
SEED = 3
WHOLE = {("sixty_six", 2), ("sixty_six", 3), ("sixty_six", 4), ("imperial", 2)}


def settings() -> list[dict]:
    out = []
    for g in atut.built_games():
        for p in atut.game_class(g).PLAYERS:
            whole = FULL or (g, p) in WHOLE
            out.append({"game_id": g, "players": p, "seed": SEED, "level": 3,
                        "deals": None if whole else 1})
    return out


def _sources() -> dict[str, bytes]:
    src = ROOT / "engine" / "atut"
    return {"atut/" + p.relative_to(src).as_posix(): p.read_bytes() for p in src.rglob("*.py")
            if "__pycache__" not in p.parts}


def archive(tmp: Path) -> tuple[Path, str]:
    """The wheel when it holds exactly the engine's sources, else a zip of them."""
    sources = _sources()
    dist = Path(os.environ.get("ATUT_DIST") or ROOT / "dist")
    for whl in sorted((dist / "web" / "wheels").glob("atut-*.whl")):
        with zipfile.ZipFile(whl) as z:
            shipped = {n: z.read(n) for n in z.namelist() if n.endswith(".py")}
        if shipped == sources:
            return whl, "the built wheel " + str(whl)
    out = tmp / "atut-sources.zip"
    with zipfile.ZipFile(out, "w") as z:
        for name, data in sorted(sources.items()):
            z.writestr(name, data)
    return out, "a zip of engine/atut (no built wheel holds the current sources)"


def test_cpython_and_pyodide_play_the_same_games(tmp_path, capsys):
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "Node is needed to run Pyodide (and build.py needs it too)"
    assert (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists(), "run npm ci"
    path, what = archive(tmp_path)
    specs = settings()
    proc = subprocess.Popen([node, str(SCRIPT), str(path), json.dumps(specs)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        want = [soak.record(**s) for s in specs]          # CPython, while Pyodide plays
        out, err = proc.communicate()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-2000:]
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    runtime = lines[0]["runtime"]
    got = lines[1:]
    assert runtime["platform"] == "emscripten" and runtime["python"].startswith("3.")
    assert len(got) == len(specs), (out[-1000:], err[-1000:])
    report = [f"Pyodide {runtime['python']} ({what}) against CPython, level 3, seed {SEED}:"]
    for w, g in zip(want, got):
        ms = g.pop("ms")
        name = f"{w['game']} {w['players']} players " + ("whole game" if w["deals"] is None
                                                         else "first deal")
        report.append(f"  {name:<34}{len(w['actions']):>5} actions {ms / 1000:>7.1f} s")
        if g != w:
            first = next((i for i, (a, b) in enumerate(zip(w["actions"], g["actions"])) if a != b),
                         min(len(w["actions"]), len(g["actions"])))
            pytest.fail(f"{name}: CPython and Pyodide differ from action {first} "
                        f"(CPython {w['actions'][first:first + 1]}, "
                        f"Pyodide {g['actions'][first:first + 1]}); scores {w['scores']} / "
                        f"{g['scores']}")
        assert w["deals"] is not None or w["over"]
    with capsys.disabled():
        print("\n" + "\n".join(report))
