"""The table session (atut.table, which web/bridge.py runs) in CPython: the hint op (the
person's turn only, the analysis of the person's view) and undo (back to exactly the earlier
view, within the deal, recorded in the save)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

import atut
from atut.table import Dispatcher

ROOT = Path(__file__).resolve().parents[2]

GAMES = [("cesarz", 3), ("euchre", 4), ("imperial", 2), ("tysiac1001", 3), ("sixty_six", 2)]


DESK = [Dispatcher()]                 # the worker's one table, as web/bridge.py keeps it


def call(op, **args):
    return json.loads(DESK[0].handle(op, json.dumps(args)))


def new_table():
    DESK[0] = Dispatcher()


@pytest.fixture(autouse=True)
def fresh_table():
    new_table()


def _to_my_turn(r):
    while not r["view"]["is_over"] and r["view"]["to_move"] != 0:
        r = call("bot_step")["result"]
    return r


@pytest.mark.parametrize("game,players", GAMES)
def test_undo_restores_exactly_the_earlier_view(game, players):
    r = call("new_game", game=game, players=players, seed=4, seat=0, levels=[2])["result"]
    rng = random.Random(1)
    views = []                     # the person's views before each decision of the deal
    deal = r["view"]["deal_no"]
    for _ in range(400):
        r = _to_my_turn(r)
        v = r["view"]
        if v["is_over"] or v["deal_no"] != deal or len(views) >= 3:
            break
        if len(v["legal_actions"]) > 1:
            views.append(v)
        r = call("act", action=rng.choice(v["legal_actions"]))["result"]
    r = _to_my_turn(r)
    if r["view"]["deal_no"] != deal or r["view"]["is_over"]:
        views = views[:0]          # the deal ended: nothing of it may be taken back
        assert call("can_undo")["result"] is False
        assert call("undo")["ok"] is False
        return
    assert call("can_undo")["result"] is True and r["can_undo"] is True
    for i, want in enumerate(reversed(views)):
        got = call("undo")
        assert got["ok"], got
        assert got["result"]["view"] == want
        assert got["result"]["can_undo"] is (i < len(views) - 1)
    assert call("can_undo")["result"] is False
    assert call("undo")["ok"] is False                 # not past the deal's start
    save = json.loads(call("save")["result"])
    assert len(save["undos"]) == len(views)
    assert all(u["actions"] for u in save["undos"])
    again = atut.load_game(json.dumps(save))
    assert again.view(0, explain=True) == views[0] and again.undos == save["undos"]
    # the replay goes on from there: play and undo again
    r = call("act", action=views[0]["legal_actions"][0])["result"]
    assert call("undo")["result"]["view"] == views[0]
    # a reload (load of the save) knows the decisions to take back
    call("act", action=views[0]["legal_actions"][0])
    text = call("save")["result"]
    new_table()
    assert call("load", text=text, seat=0, levels=[2])["result"]["can_undo"] is True
    assert call("undo")["result"]["view"] == views[0]


def test_old_saves_load_and_bad_undos_are_refused():
    g = atut.new_game("sixty_six", players=2, seed=3)
    text = g.to_json()
    assert "undos" not in json.loads(text)
    assert atut.load_game(text).to_json() == text
    bad = {**json.loads(text), "undos": [{"at": "x"}]}
    with pytest.raises(ValueError):
        atut.load_game(json.dumps(bad))


@pytest.mark.parametrize("game,players", GAMES)
def test_hint_on_the_persons_turn_only(game, players):
    r = call("new_game", game=game, players=players, seed=2, seat=0, levels=[2])["result"]
    while len(r["view"].get("legal_actions") or []) < 2 or r["view"]["to_move"] != 0:
        if r["view"]["to_move"] == 0:
            r = call("act", action=r["view"]["legal_actions"][0])["result"]
        else:
            assert call("hint")["ok"] is False
            r = call("bot_step")["result"]
    v = r["view"]
    h = call("hint")
    assert h["ok"], h
    h = h["result"]
    assert h["seat"] == 0 and h["level"] == 3
    assert sorted(atut.canonical(a["action"]) for a in h["actions"]) == \
        sorted(atut.canonical(a) for a in v["legal_actions"])
    # nothing but the analysis: no hand of another seat
    assert set(h) == {"seat", "level", "actions", "best", "beliefs"}


LIFTED = {"time_cap": 1e9, "clock": "cpu"}


@pytest.mark.parametrize("game,players", [("sixty_six", 2), ("euchre", 4), ("imperial", 2)])
def test_review_of_a_finished_deal_open_hands_and_reproducible_grades(game, players):
    r = call("new_game", game=game, players=players, seed=6, seat=0, levels=[2])["result"]
    assert call("review")["ok"] is False                  # no deal has ended yet
    rng = random.Random(2)
    deal = r["view"]["deal_no"]
    while not r["view"]["is_over"] and r["view"]["deal_no"] == deal:
        v = r["view"]
        r = call("act", action=rng.choice(v["legal_actions"]))["result"] if v["to_move"] == 0 \
            else call("bot_step")["result"]
    rev = call("review")["result"]
    assert rev["deal_no"] == deal and rev["steps"]
    g = atut.load_game(call("save")["result"])
    for st in rev["steps"]:
        assert g.history[st["i"]] == st["action"]
        assert len(st["hands"]) == players
    mine = [st for st in rev["steps"] if st["mine"]][:2]
    assert mine
    for st in mine:
        a = call("review_grade", i=st["i"], budget=LIFTED)["result"]
        b = call("review_grade", i=st["i"], budget=LIFTED)["result"]
        assert a == b and a["grade"] in ("best", "good", "inaccuracy", "mistake", "blunder")
        assert a["played"] == st["action"] and a["loss"] >= 0
    bot_step = next(st for st in rev["steps"] if st["seat"] != 0)
    assert call("review_grade", i=bot_step["i"])["ok"] is False


@pytest.mark.parametrize("game,players", [("sixty_six", 2), ("euchre", 4), ("cesarz", 3)])
def test_why_a_bot_played_its_move_only_once_the_deal_is_over(game, players):
    """The review's "Why did the bot do that?": a bot's analysis is told only in the review of a
    finished deal; by its own search and seed it plays what the bot played (level 3)."""
    r = call("new_game", game=game, players=players, seed=8, seat=0, levels=[3])["result"]
    rng = random.Random(4)
    deal = r["view"]["deal_no"]
    asked = False
    while not r["view"]["is_over"] and r["view"]["deal_no"] == deal:
        v = r["view"]
        if v["to_move"] != 0 and not asked:        # during the deal: refused, nothing told
            refused = call("review_bot", i=0)
            assert refused["ok"] is False and "cards" not in json.dumps(refused)
            asked = True
        r = call("act", action=rng.choice(v["legal_actions"]))["result"] if v["to_move"] == 0 \
            else call("bot_step")["result"]
    rev = call("review")["result"]
    bots = [st for st in rev["steps"] if st["bot"]]
    assert bots and all(st["seat"] != 0 for st in bots)
    for st in bots[:3]:
        w = call("review_bot", i=st["i"], budget=LIFTED)["result"]
        assert w["seat"] == st["seat"] and w["level"] == 3 and w["played"] == st["action"]
        assert w["best"] == st["action"]              # its own search: the move it made
        assert {atut.canonical(a["action"]) for a in w["actions"]} >= {atut.canonical(st["action"])}
        assert set(w["beliefs"]) == {str(s) for s in range(players) if s != st["seat"]}
    mine = next(st for st in rev["steps"] if st["mine"])
    assert call("review_bot", i=mine["i"])["ok"] is False     # the person's own: graded instead


@pytest.mark.parametrize("game,players", [("sixty_six", 2), ("euchre", 4)])
def test_teaching_mode_opens_the_hands_and_notes_the_bots_analysis(game, players):
    r = call("new_game", game=game, players=players, seed=3, seat=0, levels=[3])["result"]
    assert "open" not in r                                # not in teaching mode: nothing more
    r = call("new_game", game=game, players=players, seed=3, seat=0, levels=[3],
             teach=True)["result"]
    g = atut.load_game(call("save")["result"])
    assert r["open"]["hands"] == [atut.cards.codes(atut.cards.cards_of(h)) for h in g.hands]
    seen_notes = 0
    for _ in range(6):
        if r["view"]["to_move"] == 0:
            r = call("act", action=r["view"]["legal_actions"][0])["result"]
        else:
            before = atut.load_game(call("save")["result"])
            s = before.to_move
            r = call("bot_step")["result"]
            note = r["open"]["notes"].get(str(s))
            if note is not None:
                after = atut.load_game(call("save")["result"])
                assert after.history[-1] == note["best"] or after.deal_no != before.deal_no
                assert {"actions", "beliefs", "best"} <= set(note)
                # what it believed, per other seat: sure cards, voids, each card's share
                bel = note["beliefs"]
                assert sorted(bel) == sorted(str(o) for o in range(players) if o != s)
                for b in bel.values():
                    assert set(b) == {"holds", "void", "p"}
                    assert all(b["p"][c] == 1.0 for c in b["holds"])
                    assert all(0 < x <= 1 for x in b["p"].values())
                seen_notes += 1
    assert seen_notes
    save = json.loads(call("save")["result"])
    assert save["teach"] is True
    new_table()
    assert call("load", text=json.dumps(save), seat=0, levels=[3])["result"]["teach"] is True


@pytest.mark.parametrize("game,players", GAMES)
def test_the_hint_is_the_same_when_unseen_cards_lie_elsewhere(game, players):
    sys.path.insert(0, str(ROOT / "tests"))
    from test_fair_play import positions, twin
    rng = random.Random(5)
    tried = 0
    for deck, dealer, history, seat in positions(game, players, 1, 3):
        pair = twin(game, players, 1, dealer, deck, history, seat, rng)
        if pair is None:
            continue
        got = []
        for g in pair:
            new_table()
            r = call("load", text=g.to_json(), seat=seat, levels=[2])["result"]
            h = call("hint", budget=LIFTED)["result"]
            got.append(json.dumps([r["view"], h], sort_keys=True))
        assert got[0] == got[1]
        tried += 1
    assert tried


def _race_the_clocks(mp):
    """Every reading of the wall and CPU clocks is 1000 s after the one before: a search with a
    cap of seconds stops after its first sample."""
    import time
    now = [0.0]

    def tick():
        now[0] += 1000.0
        return now[0]
    mp.setattr(time, "perf_counter", tick)
    mp.setattr(time, "process_time", tick)


@pytest.mark.parametrize("game,players", GAMES)
def test_hint_and_grade_search_a_counted_budget_whatever_the_clock(game, players):
    """The page's hint and review grade (no budget passed) search the level's counted budget
    only: a machine so loaded that every clock reading is 1000 s later gives the same hint and
    the same grade as an idle one (where the bots' own time cap would stop at one sample)."""
    rng = random.Random(3)
    r = call("new_game", game=game, players=players, seed=9, seat=0, levels=[2])["result"]
    deal = r["view"]["deal_no"]
    hints, at, capped = 0, None, 0
    while not r["view"]["is_over"] and r["view"]["deal_no"] == deal:
        v = r["view"]
        if v["to_move"] != 0:
            r = call("bot_step")["result"]
            continue
        if len(v["legal_actions"]) > 1 and hints < 2:
            calm = call("hint")["result"]
            with pytest.MonkeyPatch.context() as mp:
                _race_the_clocks(mp)
                assert call("hint")["result"] == calm
                # the check bites: the same search with the bots' time cap stops early
                capped += atut.analyse(game, v, 3, seed=0)["actions"][0]["samples"] < \
                    calm["actions"][0]["samples"]
            hints += 1
            if at is None:
                at = len(atut.load_game(call("save")["result"]).history)
        r = call("act", action=rng.choice(v["legal_actions"]))["result"]
    assert hints and at is not None and capped
    calm = call("review_grade", i=at)["result"]
    with pytest.MonkeyPatch.context() as mp:
        _race_the_clocks(mp)
        assert call("review_grade", i=at)["result"] == calm


def test_a_budget_beyond_four_times_level_4_is_refused():
    """A hostile request cannot keep the worker searching for hours: the time cap is
    lifted for hints, so the counted budgets are bounded instead."""
    r = call("new_game", game="sixty_six", players=2, seed=1, seat=0, levels=[2])["result"]
    _to_my_turn(r)
    for budget in ({"rollouts": 10**9}, {"solve_nodes": 10**12}, {"min_samples": -1}):
        refused = call("hint", budget=budget)
        assert refused["ok"] is False and "budget" in refused["error"], refused
    assert call("hint", budget={"rollouts": 40})["ok"] is True
