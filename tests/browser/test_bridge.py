"""The table session (atut.table, which web/bridge.py runs) in CPython (no browser): the replies
the page renders (the finished deal's items, the ending event), the info's level names, the
explain op and readable errors."""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut.bots import NAMES
from atut.table import OPS, Dispatcher, Op

DESK = [Dispatcher()]                 # the worker's one table, as web/bridge.py keeps it


def call(op, **args):
    return json.loads(DESK[0].handle(op, json.dumps(args)))


def new_table():
    DESK[0] = Dispatcher()


@pytest.fixture(autouse=True)
def fresh_table():
    new_table()


def test_info_names_the_games_and_the_bot_levels():
    info = call("info")["result"]
    assert info["games"] == list(atut.GAME_IDS)
    assert info["levels"] == NAMES == {"random": 1, "rules": 2, "search": 3, "strong": 4,
                                       "expert": 5}
    assert [lv["number"] for lv in info["level_table"]] == [1, 2, 3, 4, 5]


def _play(game, players, seed, steps=3000):
    """Play the table to its end (the person at seat 0 plays at random); yields each reply."""
    r = call("new_game", game=game, players=players, seed=seed, seat=0, levels=[1])["result"]
    rng = random.Random(seed)
    for _ in range(steps):
        yield r
        v = r["view"]
        if v["is_over"]:
            return
        if v["to_move"] == 0:
            r = call("act", action=rng.choice(v["legal_actions"]))["result"]
        else:
            r = call("bot_step")["result"]


def test_a_finished_deal_comes_with_the_step_that_ended_it():
    prev = None
    seen = 0
    for r in _play("cesarz", 3, 5):
        f = r["finished"]
        if prev is not None and not r["view"]["is_over"]:
            assert (f is not None) == (r["view"]["deal_no"] != prev["deal_no"])
        if f:
            seen += 1
            assert f["deal_no"] == prev["deal_no"] and f["new_deal"] == r["view"]["deal_no"]
            assert f["trick"]["type"] == "trick"
            assert f["scores_before"] == prev["scores"] and f["scores_after"] == r["view"]["scores"]
            assert all(e["type"] not in ("action", "hand", "new_deal", "deal") for e in f["results"])
            if f["center"]:
                assert f["center"]["cards"][:-1] == prev["trick"]
                assert f["center"]["winner"] == f["trick"]["winner"]
        prev = r["view"]
    assert seen >= 1
    assert r["view"]["is_over"] and r["result"]["type"] in ("deal_over", "game_over")


def test_explain_gives_the_reason_and_the_rule_and_changes_nothing():
    for r in _play("sixty_six", 2, 3):
        v = r["view"]
        if v["is_over"] or v["to_move"] != 0:
            continue
        plays = {a["card"] for a in v["legal_actions"] if a["type"] == "play"}
        bad = [c for c in v["hand"] if c not in plays]
        if not bad:
            continue
        before = call("save")["result"]
        e = call("explain", action={"type": "play", "card": bad[0]})["result"]
        assert e["legal"] is False and e["reason"]
        game = atut.load_game(before)
        assert e["reason"] == game.explain({"type": "play", "card": bad[0]})
        if e["rule"] is not None:
            assert e["rule"] in e["reason"]
        assert call("save")["result"] == before
        legal = call("explain", action=v["legal_actions"][0])["result"]
        assert legal == {"legal": True, "rule": None, "reason": None}
        return
    pytest.fail("no unplayable card in the game")


def test_errors_stay_readable(monkeypatch):
    assert call("explain", action={"type": "play", "card": "AH"})["error"].startswith("no game")
    call("new_game", game="sixty_six", players=2, seed=1, seat=0, levels=[1])
    bad = call("act", action={"type": "play"}, extra=1)
    assert bad["ok"] is False and bad["error"].startswith("bad arguments for act")

    def boom(self):
        raise TypeError("a bug inside")
    monkeypatch.setitem(OPS, "boom", Op("boom", boom, frozenset({"page"})))
    assert call("boom")["error"] == "internal error: TypeError: a bug inside"
