"""sixty_six's own public path (``legal_actions``, ``apply`` on int moves, ``games/sixty_six.py``)
gives exactly what the base class's generic one gives: the same list in the same order, the same
action found or refused (values of the same types), fresh dicts every time."""

from __future__ import annotations

import random

import pytest

import atut
from atut.game import Game, IllegalAction
from atut.games.sixty_six import ACTION, MOVE_ORDER


def _generic_legal(g):
    """The listed order as the moves' table defines it (``MOVE_ORDER``)."""
    return [dict(ACTION[m]) for m in sorted(g._moves(), key=MOVE_ORDER.__getitem__)]


def _variants(a):
    """The legal action ``a`` and near misses: other cards, a meld added, dropped or wrong, extra
    fields, values of other types (``True`` is not ``1``, a list is not a string)."""
    out = [dict(a), {"type": "exchange"}, {"type": "exchange", "card": "9H"}, {"type": "play"},
           {"type": "bid"}, {"type": 1}, {"type": ["play"]}, {}]
    if a["type"] == "play":
        for card in ("AH", "KH", "QS", "9C", "8H", "EMPEROR", "XX", 5, True, None, ["AH"]):
            out.append({"type": "play", "card": card})
            out.append({"type": "play", "card": card, "meld": a.get("meld", "QH")})
        out.append({**a, "meld": a.get("meld", "KS") + "x"})
        out.append({**a, "meld": 3})
        out.append({**a, "meld": None})
        out.append({**a, "extra": 1})
        out.append({k: v for k, v in a.items() if k != "meld"})
        out.append({"card": a["card"], "type": "play", **({"meld": a["meld"]} if "meld" in a
                                                           else {})})   # another key order
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_public_path_agrees_with_the_generic_one(n):
    rng = random.Random(n)
    checked = 0
    for seed in range(12):
        g = atut.new_game("sixty_six", players=n, seed=seed)
        while not g.is_over:
            legal = g.legal_actions()
            assert legal == _generic_legal(g) == g._legal()
            assert g.view(g.to_move)["legal_actions"] == legal
            for a in legal:
                for v in _variants(a):
                    mine = g._find_legal(v)
                    assert mine == Game._find_legal(g, v), v
                    assert (g.explain(v) is None) == (mine is not None), v
                    checked += 1
            a = rng.choice(legal)
            g.apply(a)
            assert g.history[-1] == a
    assert checked > 1000


def test_actions_are_fresh_dicts():
    """Changing a listed action, or one in ``history``, changes no other game or listing."""
    g = atut.new_game("sixty_six", players=2, seed=3)
    first = g.legal_actions()
    first[0]["card"] = "mutated"
    again = g.legal_actions()
    assert again[0]["card"] != "mutated"
    g.apply(again[0])
    g.history[-1]["card"] = "mutated"
    assert all(a.get("card") != "mutated" for a in ACTION.values())
    other = atut.new_game("sixty_six", players=2, seed=3)
    assert other.legal_actions()[0] == again[0]


def test_an_illegal_action_changes_nothing():
    g = atut.new_game("sixty_six", players=3, seed=5)
    held = {a["card"] for a in g.legal_actions() if a["type"] == "play"}
    foreign = next(c for c in ("AS", "10S", "KS", "QS", "JS", "9S", "AH", "10H")
                   if c not in held)
    before = g.to_json()
    with pytest.raises(IllegalAction, match="does not hold"):
        g.apply({"type": "play", "card": foreign})
    assert g.to_json() == before
