"""tools/bench_bots.py (``python3 build.py bench-bots``): the decision benchmark of issue 18 runs
and prints its table.  CPython only and one cheap setting here (Pyodide in Node takes long);
the figures themselves are printed by the tool, never asserted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from atut.arena import decision_times

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import bench_bots  # noqa: E402


def test_table_for_one_setting(capsys):
    assert bench_bots.main(["--games", "sixty_six", "--players", "2", "--levels", "3",
                            "--seeds", "1", "--runtime", "cpython"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["game", "pl", "lv", "dec"]
    rows = [ln for ln in lines if ln.startswith("sixty_six")]
    assert len(rows) == 1
    cols = rows[0].replace("|", " ").split()
    assert cols[:3] == ["sixty_six", "2", "3"]
    assert int(cols[3]) > 0
    pyodide, cpython, rest = cols[4:8], cols[8:12], cols[12:]
    assert pyodide == ["-"] * 4                       # not run
    mean, p50, p99, mx = (float(x) for x in cpython)
    assert 0 <= p50 <= p99 <= mx and mean <= mx
    assert rest == ["-", "-", "-"]                    # ratio, within budget, same decisions


def test_decisions_are_seeded_and_only_choices_count():
    a = decision_times("sixty_six", 2, 3, seeds=(1,))
    b = decision_times("sixty_six", 2, 3, seeds=(1,), warmup=0)
    assert a["hash"] == b["hash"] and len(a["times"]) == len(b["times"]) > 0
    assert a["capped"] == 0                           # the time cap is lifted
    assert decision_times("sixty_six", 2, 3, seeds=(2,))["hash"] != a["hash"]


def test_stats_nearest_rank():
    st = bench_bots.stats([i / 1000 for i in range(1, 101)])
    assert (st["n"], st["p50"], st["p99"], st["max"]) == (100, 50, 99, 100)
    assert st["mean"] == pytest.approx(50.5)
    assert bench_bots.stats([]) == {}


@pytest.mark.parametrize("args", [["--games", "poker"], ["--levels", "7"],
                                  ["--games", "sixty_six", "--players", "9"]])
def test_bad_options(args, capsys):
    assert bench_bots.main(args + ["--runtime", "cpython"]) == 2
    assert "bench-bots:" in capsys.readouterr().err
