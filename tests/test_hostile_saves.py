"""Saves and actions that were cut, nested or typed wrong get a clear ``ValueError`` (or
``IllegalAction``) and change nothing: the crashes a first fuzzing run found, one test each."""

from __future__ import annotations

import json

import pytest

import atut

GOOD = {"format": "atut-save", "version": 1, "game": "euchre", "players": 4, "seed": 1,
        "dealer": 0, "actions": []}


def _save(**over) -> str:
    return json.dumps({**GOOD, **over})


@pytest.mark.parametrize("text", [
    "[" * 100_000,                                             # the whole text nested
    _save()[:-1] + ', "options": ' + "[" * 5000 + "]" * 5000 + "}",   # one field nested
    '{"actions": ' + "{" * 50_000,
])
def test_a_deeply_nested_save_is_malformed_not_a_recursion_error(text):
    with pytest.raises(ValueError, match="malformed saved game"):
        atut.load_game(text)


@pytest.mark.parametrize("game_id", [{}, [], None, 3, True, ["euchre"], {"euchre": 1}])
def test_a_game_id_that_is_not_a_string_is_malformed(game_id):
    with pytest.raises(ValueError, match="unknown game"):
        atut.load_game(_save(game=game_id))
    with pytest.raises(ValueError, match="unknown game"):
        atut.game_class(game_id)


def test_an_error_message_stays_short_for_a_huge_value():
    with pytest.raises(ValueError) as e:
        atut.load_game(_save(version=list(range(100_000))))
    assert len(str(e.value)) < 300
    g = atut.new_game("euchre", seed=1)
    before = g.to_json()
    with pytest.raises(atut.IllegalAction) as e:
        g.apply(["x"] * 100_000)
    assert len(str(e.value)) < 300 and g.to_json() == before


def test_a_deeply_nested_action_is_refused_and_changes_nothing():
    g = atut.new_game("sixty_six", players=2, seed=3)
    before = g.to_json()
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for action in ({"type": "play", "card": deep}, {"type": deep}):
        with pytest.raises(atut.IllegalAction):
            g.apply(action)
        assert g.explain(action) is not None
    assert g.to_json() == before


@pytest.mark.parametrize("field,value", [
    ("game", "x" * 100_000), ("game", 10 ** 4000), ("players", "p" * 50_000),
    ("seed", [1] * 100_000), ("dealer", {"d": "x" * 100_000}), ("options", "o" * 100_000),
    ("options", {"k" * 100_000: 1}), ("options", {"redeal": "v" * 100_000}),
    ("deck", ["x" * 100_000]),
])
def test_a_huge_value_in_any_field_gives_a_short_message(field, value):
    # found by tests/test_fuzz_saves.py: the messages showed the whole value
    with pytest.raises(ValueError) as e:
        atut.load_game(_save(**{field: value}))
    assert str(e.value).startswith("malformed saved game: ") and len(str(e.value)) < 500


def test_a_number_too_long_to_read_is_malformed():
    # json.loads raises a bare ValueError past Python's int digit limit (4300 digits)
    text = _save()[:-1] + ', "seed": ' + "9" * 5000 + "}"
    with pytest.raises(ValueError, match="^malformed saved game: a number in it is too long$"):
        atut.load_game(text)


def test_a_huge_action_is_refused_with_a_short_message_that_keeps_the_reason():
    g = atut.new_game("sixty_six", players=2, seed=3)
    before = g.to_json()
    action = {"type": "play", "card": "AH", "x": "y" * 100_000}
    msg = g.explain(action)
    with pytest.raises(atut.IllegalAction) as e:
        g.apply(action)
    assert str(e.value) == msg and len(msg) < 500 and msg.startswith("illegal")
    assert g.to_json() == before
