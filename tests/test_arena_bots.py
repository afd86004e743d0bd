"""The arena with students' bots (docs/LAB.md): a bot file wherever a level is taken, bot objects
and factories, the progress callback and steps, per-deal rows, the running win share, CSV, and
the same deals on a Dask cluster (``--cluster local``) giving the same report as ``--jobs 1``."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import atut
from atut import arena
from atut.lab import BotError

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# the lab's own example bots, as a student exports them (files of their own, run from a path)
EXAMPLES = ROOT / "engine" / "atut" / "lab" / "example_bots"
SIXTY_SIX_BOT = EXAMPLES / "sixty_six_rules.py"
EUCHRE_BOT = EXAMPLES / "euchre_rules.py"


def _table(text: str) -> str:
    """The report without its last line (the time and deals per second)."""
    return "\n".join(text.splitlines()[:-1])


def _cli(*args, cwd=ROOT):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "engine"))
    return subprocess.run([sys.executable, "-m", "atut", "arena", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_an_exported_bot_file_runs_in_the_cpython_arena():
    """python -m atut arena euchre --bots <the example bot file>,1 --deals 4 (a subprocess)."""
    r = _cli("euchre", "--bots", "engine/atut/lab/example_bots/euchre_rules.py,1", "--deals", "4")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("arena euchre, 4 players, 4 duplicate deals")
    assert lines[2].split()[0] == "euchre_rules.py" and lines[3].startswith("1 random")
    assert "deals/s" in lines[-1]
    # the same bot text is the lab's example: what the lab exports runs unchanged
    assert EUCHRE_BOT.read_text(encoding="utf-8") == \
        atut.lab.examples("euchre")["euchre_rules.py"]


def test_a_bot_file_against_a_level_is_repeatable_and_duplicate():
    a = arena.run("sixty_six", [str(SIXTY_SIX_BOT), 1], 2, deals=12, seed=3)
    b = arena.run("sixty_six", [atut.load_bot(SIXTY_SIX_BOT), "random"], 2, deals=12, seed=3)
    assert a["bots"] == b["bots"] and a["rows"] == b["rows"]
    assert a["bots"][0]["name"] == "sixty_six_rules.py" and a["bots"][0]["level"] is None
    assert a["bots"][1]["name"] == "1 random" and a["bots"][1]["level"] == 1
    # duplicate: each deal is played with the seats swapped, so shares add up to one
    for row in a["rows"]:
        assert sum(row["share"]) == pytest.approx(1.0)
        assert row["margin"][0] == pytest.approx(-row["margin"][1])


def test_objects_factories_and_paths_are_all_bot_specs():
    class First:
        name = "first"

        def choose(self, view):
            return view["legal_actions"][0]

    made = []

    def factory():
        made.append(1)
        return First()

    r = arena.run("sixty_six", [First(), factory, SIXTY_SIX_BOT.as_posix()], 3, deals=2, seed=1)
    assert [b["name"] for b in r["bots"]] == ["first", "factory", "sixty_six_rules.py"]
    assert len(made) == 2 * 3                       # one per game: 2 deals x 3 rotations
    with pytest.raises(ValueError, match="not a bot"):
        arena.run("sixty_six", [1.5, 1], 2, deals=1, seed=1)
    with pytest.raises(ValueError, match="cannot read the bot file"):
        arena.run("sixty_six", ["nowhere/none.py", 1], 2, deals=1, seed=1)


def test_level_bot_reports_keep_their_layout():
    text = arena.report(arena.run("sixty_six", [2, 1], 2, deals=6, seed=1))
    lines = text.splitlines()
    assert lines[1].startswith("bot        seats  win share")
    assert lines[2].startswith("2 rules        1 ") and lines[3].startswith("1 random       1 ")
    assert lines[-1].startswith("margin in card points per deal; 0 search decisions, 0 cut")
    assert lines[-1].endswith(" deals/s")


def test_progress_callback_steps_rows_running_and_csv():
    calls = []
    r = arena.run("euchre", [str(EUCHRE_BOT), 1], 4, deals=5, seed=2,
                  progress=lambda done, total, partial: calls.append((done, total, partial)))
    assert [(d, t) for d, t, _ in calls] == [(k, 5) for k in range(1, 6)]
    assert [p["deals"] for _, _, p in calls] == [1, 2, 3, 4, 5]
    assert calls[-1][2]["bots"] == r["bots"]
    steps = list(arena.steps("euchre", [str(EUCHRE_BOT), 1], 4, deals=5, seed=2))
    assert [s["done"] for s in steps] == [1, 2, 3, 4, 5]
    assert steps[-1]["result"]["bots"] == r["bots"] and steps[-1]["result"]["rows"] == r["rows"]
    assert [row["deal"] for row in r["rows"]] == list(range(5))
    assert r["deals_per_second"] > 0
    for e, b in enumerate(r["bots"]):
        run = r["running"][e]
        assert [x["deals"] for x in run] == list(range(1, 6))
        assert run[-1]["share"] == pytest.approx(b["share"])
        assert run[-1]["lo"] == pytest.approx(max(b["share"] - b["share_ci"], 0.0))
        assert run[-1]["hi"] == pytest.approx(min(b["share"] + b["share_ci"], 1.0))
        assert all(0.0 <= x["lo"] <= x["share"] <= x["hi"] <= 1.0 for x in run)
    rows = list(csv.reader(io.StringIO(arena.to_csv(r))))
    assert rows[0] == ["deal", "euchre_rules.py share", "euchre_rules.py margin",
                       "1 random share", "1 random margin"]
    assert len(rows) == 6
    for row, d in zip(rows[1:], r["rows"], strict=True):
        assert int(row[0]) == d["deal"]
        assert float(row[1]) == pytest.approx(d["share"][0], abs=1e-5)
        assert float(row[4]) == pytest.approx(d["margin"][1], abs=1e-4)


def test_a_broken_bot_stops_the_arena_with_its_line():
    with pytest.raises(BotError) as info:
        arena.run("sixty_six", [str(FIXTURES / "raising_bot.py"), 1], 2, deals=3, seed=1)
    err = info.value
    assert err.kind == "exception" and err.line == 15 and err.deal == 0
    assert "KeyError" in str(err)
    r = _cli("sixty_six", "--bots", "tests/fixtures/illegal_bot.py,1", "--deals", "2")
    assert r.returncode == 2
    assert "illegal_bot.py: choose returned {\"card\":\"XX\",\"type\":\"play\"}" in r.stderr
    assert "the legal actions are:" in r.stderr and "(deal 0, seat" in r.stderr
    r = _cli("sixty_six", "--bots", "tests/fixtures/raising_bot.py,1", "--deals", "2")
    assert r.returncode == 2
    assert 'raising_bot.py", line 15, in choose' in r.stderr and "KeyError" in r.stderr


def test_jobs_give_the_same_report_for_a_bot_file():
    one = arena.run("sixty_six", [str(SIXTY_SIX_BOT), 2], 2, deals=6, seed=4)
    two = arena.run("sixty_six", [str(SIXTY_SIX_BOT), 2], 2, deals=6, seed=4, jobs=2)
    assert _table(arena.report(one)) == _table(arena.report(two))
    assert one["rows"] == two["rows"]


def test_a_local_dask_cluster_gives_the_same_report_as_jobs_1(capsys):
    """--cluster local: a LocalCluster of 2 worker processes plays the deals as Dask tasks;
    the report (a student's bot file, level 2 and level 1) is the one of --jobs 1."""
    args = ["sixty_six", "--bots", f"{SIXTY_SIX_BOT},2,1", "--players", "3", "--deals", "6",
            "--seed", "5"]
    assert arena.main(args + ["--jobs", "1"]) == 0
    local = capsys.readouterr().out
    assert arena.main(args + ["--cluster", "local"]) == 0
    dask = capsys.readouterr().out
    assert _table(dask) == _table(local)
    assert "sixty_six_rules.py" in dask and "2 rules" in dask and "1 random" in dask


def test_cluster_errors_are_clear(monkeypatch):
    import dask
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(OSError):                # no scheduler there
            arena.run("sixty_six", [1, 1], 2, deals=1, seed=1, cluster="tcp://127.0.0.1:1")
    monkeypatch.setitem(sys.modules, "dask.distributed", None)     # as without the extra
    with pytest.raises(ValueError, match=r"needs Dask: pip install 'atut\[cluster\]'"):
        arena.run("sixty_six", [1, 1], 2, deals=1, seed=1, cluster="local")


def test_deals_per_second_benchmark_figure(capsys):
    """Prints (never asserts a time) the CPython arena's deals per second, level 1 against
    level 1, per game: the figure the lab's report puts beside the browser's."""
    for game_id in atut.GAME_IDS:
        r = arena.run(game_id, [1, 1], None, deals=10, seed=1)
        assert r["deals"] == 10 and r["deals_per_second"] > 0
        with capsys.disabled():
            print(f"\n  arena {game_id}: {r['deals_per_second']:.1f} deals/s (level 1 vs 1, "
                  "CPython)", end="")


def test_the_result_is_json_safe_even_for_one_deal():
    """The lab posts the result to the page as JSON: no infinity, even where one deal has no
    interval (the report still prints it as inf)."""
    import json
    r = arena.run("sixty_six", [str(SIXTY_SIX_BOT), 1], 2, deals=1, seed=1)
    back = json.loads(json.dumps(r, allow_nan=False))
    assert back["bots"][0]["share_ci"] is None and back["bots"][0]["margin_ci"] is None
    assert "[-inf, inf]" in arena.report(r)
    json.dumps(arena.run("sixty_six", [2, 1], 2, deals=3, seed=1), allow_nan=False)
