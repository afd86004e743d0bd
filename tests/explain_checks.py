"""Checks shared by the ``test_<game>_explain.py`` files: legality and its explanation agree.

A game states each rule once (one check per action type gives both what is allowed and why
not); these helpers test that from the outside:

- ``check_candidates``: for every candidate action, ``explain(a) is None`` exactly when ``a`` is
  legal; a refused one raises ``IllegalAction`` with that very text and changes nothing; and the
  game's own ``_explain`` finds a reason for every refused candidate and none for a legal one
  (it falls through to the base class's "legal <type> actions:" line only for those).
- ``check_mutants``: odd dicts made from the legal actions (lists, dicts, ``None``, booleans,
  huge ints as values, keys missing or extra, other seats' cards) raise only ``IllegalAction``,
  with the text of ``explain``, and leave ``to_json()`` unchanged.
"""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut import cards as C
from atut.game import Game

ODD_VALUES = ([], ["AH"], {}, {"card": "AH"}, None, True, False, 0, -1, 10 ** 30, -(10 ** 30),
              1.5, "", "ah", "8H", "XX", "AH ", "10", [["AH"]], {"a": [1, {"b": None}]})


def same(a: dict, b: dict) -> bool:
    """Equal actions with values of the same types (``True`` is not ``1``), as ``apply`` matches."""
    return a == b and all(type(v) is type(b[k]) for k, v in a.items())


def is_legal(game: Game, action) -> bool:
    return type(action) is dict and any(same(x, action) for x in game.legal_actions())


def refusal(game: Game, action) -> str:
    """``apply(action)`` must raise ``IllegalAction`` (nothing else) and change nothing: not the
    save, not the view of the seat to move, not the event record."""
    def state():
        seat = game.to_move
        return (game.to_json(), json.dumps(game.view(seat)) if seat is not None else None,
                len(game.events))
    before = state()
    with pytest.raises(atut.IllegalAction) as ei:
        game.apply(action)
    assert state() == before
    return str(ei.value)


def refused(g, action, rule, *words):
    """The rule id right after the common prefix, the same text from explain and apply."""
    msg = g.explain(action)
    assert msg is not None and msg.startswith(
        f"illegal action {atut.canonical(action)}: {rule}: "), msg
    for w in words:
        assert w in msg, (w, msg)
    assert refusal(g, action) == msg
    return msg


def rule_ids_of_refusals(game: Game, candidates, expected_rule, ids: int) -> tuple[int, set]:
    """Every candidate action of a position: ``explain`` is ``None`` exactly for the legal
    ones, and a refusal starts with the rule id ``expected_rule(game, action, legal)`` predicts
    (written from the rules in the test, not taken from the engine), or with no rule id
    ``G1``..``G<ids>`` where it predicts ``None``.  Returns (refusals checked, {(phase, id)})."""
    legal = game.legal_actions()
    keys = {atut.canonical(a) for a in legal}
    for a in legal:
        assert game.explain(a) is None
    seen = set()
    checked = 0
    for a in candidates:
        msg = game.explain(a)
        assert (msg is None) == (atut.canonical(a) in keys), (game.phase, a, msg)
        if msg is None:
            continue
        rule = expected_rule(game, a, legal)
        head = f"illegal action {atut.canonical(a)}: "
        if rule is None:
            assert not any(msg.startswith(f"{head}G{i}:") for i in range(1, ids + 1)), msg
        else:
            assert msg.startswith(f"{head}{rule}: "), (msg, rule)
            seen.add((game.phase, rule))
        checked += 1
    return checked, seen


def check_candidates(game: Game, candidates) -> int:
    """Every candidate: explain and legality agree; returns how many were refused."""
    legal = game._legal_now()
    refused = 0
    for a in candidates:
        msg = game.explain(a)
        ok = is_legal(game, a)
        assert (msg is None) == ok, (a, msg)
        fallback = f"legal {a['type']} actions:" in game._explain(a, legal)
        assert fallback == ok, ("a rule check and the legal actions disagree", a,
                                game._explain(a, legal))
        if not ok:
            assert refusal(game, a) == msg
            refused += 1
    return refused


def other_cards(game: Game) -> list[str]:
    """Cards of the game held by seats other than the one to move."""
    seat = game.to_move
    out = []
    for s, h in enumerate(game.hands):
        if s != seat:
            out += C.codes(C.cards_of(h))
    return out


def mutants(game: Game, rng: random.Random, k: int) -> list:
    """``k`` near-legal odd actions made from the legal actions of ``game``."""
    legal = game.legal_actions()
    types = sorted({a["type"] for a in legal} | {"play", "pass", "bid"})
    others = other_cards(game) or ["AH"]
    own = C.codes(C.cards_of(game.hands[game.to_move]))
    out = []
    for _ in range(k):
        a = dict(rng.choice(legal))
        r = rng.randrange(8)
        keys = [x for x in a if x != "type"]
        if r == 0 and keys:                                   # an odd value
            a[rng.choice(keys)] = rng.choice(ODD_VALUES)
        elif r == 1:                                          # an odd type
            a["type"] = rng.choice([[a["type"]], {"t": a["type"]}, None, True, 1, 10 ** 30,
                                    a["type"].upper(), rng.choice(types)])
        elif r == 2:                                          # a key missing
            del a[rng.choice(list(a))]
        elif r == 3:                                          # an extra key
            a[rng.choice(["x", "card", "meld", "suit", "value", "companion", "to", ""])] = \
                rng.choice(ODD_VALUES + (rng.choice(own or others),))
        elif r == 4:                                          # another seat's card
            a[rng.choice(keys or ["card"])] = rng.choice(others)
        elif r == 5:                                          # a card value of another shape
            a[rng.choice(keys or ["card"])] = rng.choice(
                [rng.choice(others).lower(), rng.choice(own or others) + "X", C.CARD.get("AH")])
        elif r == 6:                                          # odd keys
            a[rng.choice([1, None, True, 2.5])] = "AH"
        else:                                                 # several at once
            for x in keys:
                a[x] = rng.choice(ODD_VALUES)
            a["type"] = rng.choice(types)
        out.append(a)
    out += [None, [], "play", 7, {}, {"type": None}, [legal[0]], {"type": {"type": "play"}}]
    return out


def check_mutants(game: Game, rng: random.Random, k: int = 40) -> None:
    """Odd near-legal actions: only ``IllegalAction`` (the text of ``explain``), no change."""
    before = game.to_json()
    for a in mutants(game, rng, k):
        msg = game.explain(a)
        assert msg is None or isinstance(msg, str)
        if msg is None:
            assert is_legal(game, a)
            continue
        assert refusal(game, a) == msg
    assert game.to_json() == before
