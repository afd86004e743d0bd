"""The backup file (docs/PAGE.md "Backup file", atut.backup): a whole file checked (every save
loaded with atut.load_game), older and newer formats refused with a reason, truncated and mutated
files refused (Hypothesis), and the merge of its games by id (the newer version wins, a conflict
keeps both, the same file twice adds nothing)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atut
from atut.backup import BackupError, check, merge


def _game(gid: str, game: str, players: int, seed: int, steps: int, finished=False) -> dict:
    g = atut.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    meta = {"format": 1, "id": gid, "game": game, "players": players, "seed": seed, "seat": 0,
            "levels": [2] * (players - 1), "delay": 0, "finished": finished, "options": {},
            "started": 1, "updated": 2 + steps}
    return {"meta": meta, "save": g.to_json()}


def _file(games, bots=(), settings_=None, version=1) -> str:
    return json.dumps({"format": "atut-backup", "version": version, "made": 5, "games": list(games),
                       "bots": list(bots), "settings": settings_ or {"atut.delay": "0"}})


BOT = {"name": "mine", "game": "euchre", "source": "def choose(view):\n    return 0\n"}
GOOD = _file([_game("a", "sixty_six", 2, 1, 12), _game("b", "euchre", 4, 2, 9)], [BOT])


def test_a_good_file_is_read_whole():
    got = check(GOOD)
    assert [g["meta"]["id"] for g in got["games"]] == ["a", "b"]
    assert got["bots"] == [BOT] and got["settings"] == {"atut.delay": "0"}
    assert check(GOOD.encode()) == got


@pytest.mark.parametrize(("version", "code"), [(0, "older"), (2, "newer"), ("1", "format")])
def test_another_format_is_refused_with_its_reason(version, code):
    with pytest.raises(BackupError) as e:
        check(_file([], version=version))
    assert e.value.code == code


def test_a_save_that_does_not_load_refuses_the_file():
    g = _game("a", "sixty_six", 2, 1, 5)
    d = json.loads(g["save"])
    d["actions"].append({"type": "play", "card": "XX"})
    with pytest.raises(BackupError) as e:
        check(_file([{**g, "save": json.dumps(d)}]))
    assert e.value.code == "save"
    other = _game("a", "euchre", 4, 1, 5)
    with pytest.raises(BackupError) as e:
        check(_file([{"meta": g["meta"], "save": other["save"]}]))
    assert e.value.code == "save"


def test_hostile_shapes_are_refused():
    for bad in ["", "[]", "null", '{"format": "atut-backup"}', "{" * 10000,
                _file([_game("a", "sixty_six", 2, 1, 3)] * 2),
                _file([], [BOT, BOT]), _file([], [{**BOT, "game": "chess"}]),
                _file([], settings_={"evil": "1"}), _file([], settings_={"atut.x": 1})]:
        with pytest.raises(BackupError):
            check(bad)


def test_merge_adds_new_games_and_the_same_file_twice_changes_nothing():
    inc = check(GOOD)["games"]
    plan = merge([], inc)
    assert [g["meta"]["id"] for g in plan["add"]] == ["a", "b"]
    assert merge(plan["add"], inc)["add"] == []


def test_merge_the_newer_version_wins_and_a_conflict_keeps_both():
    short, long_ = _game("a", "sixty_six", 2, 1, 4), _game("a", "sixty_six", 2, 1, 10)
    assert [g["save"] for g in merge([short], [long_])["add"]] == [long_["save"]]
    assert merge([long_], [short]) == {"add": [], "same": [], "kept_newer": ["a"], "replaced": [],
                                       "conflicts": []}
    d = json.loads(short["save"])
    g = atut.load_game(short["save"])
    other = [a for a in g.legal_actions() if a != json.loads(long_["save"])["actions"][4]][0]
    g.apply(other)
    apart = {"meta": short["meta"], "save": g.to_json()}
    plan = merge([long_], [apart])
    assert plan["conflicts"] == [["a", "a~2"]] and plan["add"][0]["meta"]["id"] == "a~2"
    assert merge([long_, *plan["add"]], [apart])["add"] == []          # imported twice: nothing new
    assert d["actions"] == json.loads(short["save"])["actions"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=len(GOOD) - 1))
def test_a_truncated_file_is_refused(n):
    with pytest.raises(BackupError):
        check(GOOD[:n])


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(min_value=0, max_value=len(GOOD) - 1),
                          st.integers(min_value=0, max_value=255)), min_size=1, max_size=4))
def test_a_mutated_file_is_refused_or_still_whole(flips):
    raw = bytearray(GOOD.encode())
    for at, byte in flips:
        raw[at] = byte
    try:
        got = check(bytes(raw))
    except BackupError as e:
        assert e.code and str(e)
        return
    for g in got["games"]:                     # what passes is a whole, loadable file
        atut.load_game(g["save"])
