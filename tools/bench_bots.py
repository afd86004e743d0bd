#!/usr/bin/env python3
"""Bot decision times in Pyodide (in Node) beside CPython (docs/BOTS.md, "Speed").

    python3 build.py bench-bots [options]          builds dist/ first, then runs this
    .venv/bin/python tools/bench_bots.py [options] on the wheel already in dist/

    --games g1,g2       games (default: every built game)
    --players 2,3       player counts (default: every count of each game)
    --levels 3,4        bot levels (default 3,4)
    --seeds 1,2         the seeds whose first deal is played (default 1,2)
    --runtime R         pyodide, cpython or both (default both)
    --parallel          run the two runtimes at the same time (default: one after the other,
                        so that they do not share the machine's cores)
    --wheel PATH        the atut wheel for Pyodide (default: dist/web/wheels/atut-*.whl when it
                        holds exactly the sources of engine/atut, else a zip of those sources)

The setting (``atut.arena.decision_times``): the bot of each level asked in seat 0 against
level-2 bots, the first deal of each seed, the time cap lifted so that the whole counted search
is timed; only decisions with more than one legal action count; one decision of a warm-up deal
first.  Times are CPU time of the deciding process: ``time.process_time`` in CPython,
``process.cpuUsage()`` of Node in Pyodide (whose ``time.process_time`` is the wall clock).

Per game, player count and level the table gives the decisions, the CPU milliseconds per
decision (mean, p50, p99, max) in each runtime, the ratio of the means (Pyodide / CPython),
whether Pyodide's p99 is within 80% of the page's budget (each level's time cap in
``bots/catalogue.py``: 300 ms at level 3, 1000 ms at levels 4 and 5), and whether both
runtimes made the same decisions (a hash of every action).
Rows are printed when both runtimes have finished; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))

import atut  # noqa: E402
from atut.arena import decision_times  # noqa: E402
from atut.bots.catalogue import LEVEL_TABLE, NUMBERS  # noqa: E402

# the page's time per decision of each search level: its time cap (bots/catalogue.py)
BUDGET_MS = {lv.number: 1000 * lv.budget["time_cap"] for lv in LEVEL_TABLE
             if "time_cap" in lv.budget}
SHARE = 0.8
NODE_SCRIPT = ROOT / "tools" / "bench_bots.mjs"


def settings(games, players, levels, seeds) -> list[dict]:
    out = []
    for g in games:
        counts = atut.game_class(g).PLAYERS
        for p in (players or counts):
            if p not in counts:
                continue
            for lv in levels:
                out.append({"game_id": g, "players": p, "level": lv, "seeds": list(seeds)})
    return out


def stats(times: list[float]) -> dict:
    """mean, p50, p99, max in milliseconds (nearest rank); empty when there are no times."""
    ts = sorted(1000 * t for t in times)
    if not ts:
        return {}

    def rank(q):
        return ts[max(0, math.ceil(q * len(ts)) - 1)]

    return {"n": len(ts), "mean": sum(ts) / len(ts), "p50": rank(0.5), "p99": rank(0.99),
            "max": ts[-1]}


def _sources() -> dict[str, bytes]:
    src = ROOT / "engine" / "atut"
    return {"atut/" + p.relative_to(src).as_posix(): p.read_bytes() for p in src.rglob("*.py")
            if "__pycache__" not in p.parts}


def archive(tmp: Path, wheel: str | None) -> Path:
    """The package for Pyodide: ``wheel``, or the built wheel when it holds exactly the
    engine's sources, else a zip of the sources (a stale build would time old code)."""
    if wheel:
        return Path(wheel)
    sources = _sources()
    for whl in sorted((ROOT / "dist" / "web" / "wheels").glob("atut-*.whl")):
        with zipfile.ZipFile(whl) as z:
            if {n: z.read(n) for n in z.namelist() if n.endswith(".py")} == sources:
                return whl
    print("bench-bots: dist/ is older than engine/atut: timing a zip of the sources "
          "(python3 build.py bench-bots builds first)", file=sys.stderr)
    out = tmp / "atut-sources.zip"
    with zipfile.ZipFile(out, "w") as z:
        for name, data in sorted(sources.items()):
            z.writestr(name, data)
    return out


def start_pyodide(specs: list[dict], pkg: Path) -> subprocess.Popen:
    return subprocess.Popen(["node", str(NODE_SCRIPT), str(pkg), json.dumps(specs)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)


def read_pyodide(proc: subprocess.Popen) -> dict:
    out = {}
    for line in proc.stdout:
        r = json.loads(line)
        if "runtime" in r:
            print(f"bench-bots: Pyodide {r['runtime']['python']} ({r['runtime']['platform']})",
                  file=sys.stderr)
            continue
        out[key(r)] = r
        _progress("pyodide", r)
    if proc.wait() != 0:
        raise RuntimeError(f"node tools/bench_bots.mjs failed (exit {proc.returncode})")
    return out


def run_cpython(specs: list[dict]) -> dict:
    out = {}
    for s in specs:
        r = dict(s, **decision_times(s["game_id"], s["players"], s["level"], tuple(s["seeds"])))
        out[key(r)] = r
        _progress("cpython", r)
    return out


def key(r: dict) -> tuple:
    return r["game_id"], r["players"], r["level"]


def _progress(runtime: str, r: dict) -> None:
    st = stats(r["times"])
    print(f"  {runtime:<7} {r['game_id']} {r['players']}p L{r['level']}: "
          f"{st.get('n', 0)} decisions, mean {st.get('mean', 0):.0f} ms, p99 "
          f"{st.get('p99', 0):.0f} ms, max {st.get('max', 0):.0f} ms", file=sys.stderr,
          flush=True)


def table(specs: list[dict], pyo: dict, cpy: dict) -> str:
    def cells(st):
        if not st:
            return f"{'-':>6} {'-':>6} {'-':>6} {'-':>6}"
        return " ".join(f"{st[k]:>6.0f}" for k in ("mean", "p50", "p99", "max"))

    head = (f"{'game':<11} {'pl':>2} {'lv':>2} {'dec':>4} | "
            f"{'Pyodide ms: mean':>16} {'p50':>6} {'p99':>6} {'max':>6} | "
            f"{'CPython ms: mean':>16} {'p50':>6} {'p99':>6} {'max':>6} | "
            f"{'ratio':>5} {'p99<=80%':>8} {'same':>4}")
    lines = [head, "-" * len(head)]
    for s in specs:
        k = key(s)
        p, c = pyo.get(k), cpy.get(k)
        sp, sc = stats(p["times"]) if p else {}, stats(c["times"]) if c else {}
        n = (sp or sc).get("n", 0)
        ratio = f"{sp['mean'] / sc['mean']:>5.2f}" if sp and sc and sc["mean"] else f"{'-':>5}"
        limit = SHARE * BUDGET_MS.get(s["level"], math.inf)
        within = ("yes" if sp["p99"] <= limit else "NO") if sp else "-"
        same = ("yes" if p["hash"] == c["hash"] else "NO") if p and c else "-"
        lines.append(f"{s['game_id']:<11} {s['players']:>2} {s['level']:>2} {n:>4} | "
                     f"{'':>10}{cells(sp)} | {'':>10}{cells(sc)} | "
                     f"{ratio} {within:>8} {same:>4}")
    lines.append(f"CPU ms per decision with more than one legal action; p99<=80%: Pyodide's "
                 f"p99 within {SHARE:.0%} of the budget ("
                 + ", ".join(f"level {k}: {SHARE * v:.0f} ms" for k, v in BUDGET_MS.items())
                 + "); same: both runtimes made the same decisions")
    return "\n".join(lines)


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="tools/bench_bots.py",
                                 description="Bot decision times in Pyodide and CPython.")
    ap.add_argument("--games", default=None)
    ap.add_argument("--players", default=None)
    ap.add_argument("--levels", default="3,4")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--runtime", choices=("pyodide", "cpython", "both"), default="both")
    ap.add_argument("--parallel", action="store_true")
    ap.add_argument("--wheel", default=None)
    a = ap.parse_args(argv)
    try:
        games = a.games.split(",") if a.games else list(atut.built_games())
        for g in games:
            atut.game_class(g)
        players = _ints(a.players) if a.players else None
        levels = _ints(a.levels)
        seeds = _ints(a.seeds)
        if not levels or not seeds or any(lv not in NUMBERS for lv in levels):
            raise ValueError(f"--levels takes levels {NUMBERS[0]}-{NUMBERS[-1]} and --seeds at "
                             "least one seed")
    except ValueError as e:
        print(f"bench-bots: {e}", file=sys.stderr)
        return 2
    specs = settings(games, players, levels, seeds)
    if not specs:
        print("bench-bots: no game is played by those player counts", file=sys.stderr)
        return 2
    pyo: dict = {}
    cpy: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        proc = None
        if a.runtime in ("pyodide", "both"):
            proc = start_pyodide(specs, archive(Path(tmp), a.wheel))
            if not a.parallel:
                pyo = read_pyodide(proc)
        if a.runtime in ("cpython", "both"):
            cpy = run_cpython(specs)
        if proc is not None and a.parallel:
            pyo = read_pyodide(proc)
    print(table(specs, pyo, cpy))
    return 0


if __name__ == "__main__":
    sys.exit(main())
