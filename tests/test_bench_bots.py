"""tools/bench_bots.py (``python3 build.py bench-bots``): the decision benchmark (docs/BOTS.md) runs
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


def _reference_log(game, seat, start=0):
    """What ``visible_events`` gave before it kept each seat's part up to date: a filter of
    the whole record at every call (without the fields that explain an event, which only an
    explained view shows: ``EXPLAIN_FIELDS``, docs/ENGINE.md)."""
    from atut.game import EXPLAIN_FIELDS
    return [{k: v.copy() if type(v) in (list, dict) else v for k, v in e.items()
             if k != "visible_to" and k not in EXPLAIN_FIELDS}
            for e in game.events[start:]
            if e.get("visible_to") is None or seat in e["visible_to"]]


@pytest.mark.parametrize("game_id", ["euchre", "cesarz", "tysiac1001"])
def test_the_kept_log_is_the_filtered_record(game_id):
    """The speed-up of ``Game.view`` (docs/BOTS.md) keeps the log: the same events for every seat
    and start, fresh copies a caller may change, and a replaced ``events`` list is noticed."""
    import random

    import atut
    players = atut.game_class(game_id).PLAYERS[-1]
    game = atut.new_game(game_id, players=players, seed=5)
    rng = random.Random(5)
    for step in range(250):
        if game.is_over:
            break
        if step % 5 == 0:
            for seat in [None, *range(players)]:
                for start in (0, game._deal_event, -2, 3, len(game.events) + 1):
                    assert game.visible_events(seat, start) == _reference_log(game, seat, start)
                v = game.view(seat)
                assert v["log"] == _reference_log(game, seat, game._deal_event)
                for e in v["log"]:                  # the caller's copy, not the record
                    e["mine"] = 1
                    for x in e.values():
                        if isinstance(x, (list, dict)):
                            x.clear()
                assert "mine" not in str(game.events)
        if step == 120:
            game.events = [dict(e, n=i) for i, e in enumerate(game.events)]   # replaced
        game.apply(rng.choice(game.legal_actions()))
    assert any("visible_to" in e for e in game.events), "no hidden event was tried"
