"""Euchre's own ``legal_actions`` and ``apply`` (on int moves) do exactly what the base class's
do on action dicts: the same actions, the same refusals with the same messages, the same
history and events."""

from __future__ import annotations

import copy
import random

import atut
from atut.game import Game, IllegalAction, canonical
from atut.games.euchre import Euchre


def near(action: dict, rng: random.Random) -> dict:
    """An action close to a legal one: a field of another type, missing or extra, another
    card, suit, value or type."""
    a = dict(action)
    k = rng.randrange(9)
    if k == 0:
        a["type"] = rng.choice(["play", "discard", "pass", "order_up", "name", "alone",
                                "defend_alone", ["play"], None])
    elif k == 1:
        a["card"] = rng.choice(["AH", "9S", "JD", "10C", "7H", 3, None, ["AH"]])
    elif k == 2:
        a["value"] = rng.choice([True, False, 1, 0, "true", None])
    elif k == 3:
        a["suit"] = rng.choice(["S", "C", "D", "H", "X", 0, ["S"]])
    elif k == 4 and len(a) > 1:
        a.pop(rng.choice([x for x in a if x != "type"]))
    elif k == 5:
        a["extra"] = 1
    elif k == 6:
        a.pop("type")
    return a


def base_apply(g: Euchre, action) -> None:
    Game.apply(g, action)


def test_legal_actions_and_apply_match_the_base_class():
    rng = random.Random(5)
    checked = refused = 0
    for seed in range(16):
        options = {"redeal": bool(seed % 2), "defend_alone": bool(seed % 3)}
        g = atut.new_game("euchre", players=4, seed=seed, options=options)
        while not g.is_over and g.deal_no < 3:
            legal = g.legal_actions()
            assert legal == Game.legal_actions(g)
            for _ in range(4):
                cand = near(rng.choice(legal), rng)
                a, b = copy.deepcopy(g), copy.deepcopy(g)
                try:
                    a.apply(cand)
                    err_a = None
                except IllegalAction as e:
                    err_a = str(e)
                try:
                    base_apply(b, cand)
                    err_b = None
                except IllegalAction as e:
                    err_b = str(e)
                assert err_a == err_b, cand
                assert a.to_json() == b.to_json() and a.events == b.events
                checked += 1
                refused += err_a is not None
            g.apply(rng.choice(legal))
    assert checked > 1000 and 0 < refused < checked


def test_apply_keeps_no_reference_to_the_callers_dict():
    g = atut.new_game("euchre", players=4, seed=1)
    a = g.legal_actions()[0]
    g.apply(a)
    a["type"] = "changed"
    assert g.history[0]["type"] != "changed"
    assert g.events[-1]["type"] != "action" or g.events[-1]["action"]["type"] != "changed"
    assert all(canonical(x) for x in g.legal_actions())
    g.legal_actions()[0]["type"] = "changed"          # a returned list is the caller's
    assert all(x["type"] != "changed" for x in g.legal_actions())
