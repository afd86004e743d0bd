"""Every game: ``apply`` of an odd action (lists, dicts, None, bools, huge ints as values,
missing or extra keys, other seats' cards) raises only ``IllegalAction``, with the message
``explain`` gives, and leaves the game as it was (``to_json()`` unchanged)."""

from __future__ import annotations

import random

import pytest

import atut
from atut import cards as C
from atut.game import canonical

ODD = [None, True, False, 0, 1, -1, 2, 5, 10 ** 30, -10 ** 30, 1.5, float("nan"), "", "x",
       "AH", "9S", "EMPEROR", "RED_JOKER", "pass", [], ["AH"], {}, {"card": "AH"}, (1, 2),
       [[[]]], {"a": {"b": []}}]
KEYS = ["type", "card", "value", "to", "meld", "companion", "suit", "alone", "seat", "extra"]
TYPES = ["play", "bid", "pass", "give", "announce", "play_on", "give_up", "order_up", "name",
         "discard", "exchange", "close", "declare", "marriage", "trump"]


def others_cards(g):
    """Card codes held by seats other than the one to move."""
    hands = getattr(g, "hands", None)
    if hands is None:
        return []
    out = []
    for s, h in enumerate(hands):
        if s != g.to_move and type(h) is int:
            out += C.codes(C.cards_of(h))
    return out


def mutant(g, rng, legal):
    a = dict(rng.choice(legal))
    for _ in range(rng.choice((1, 1, 2))):
        k = rng.choice(list(a) + KEYS)
        r = rng.random()
        if r < 0.2 and k in a:
            del a[k]
        elif k == "type" and r < 0.6:
            a[k] = rng.choice(TYPES)
        elif r < 0.5 and others_cards(g):
            a[k] = rng.choice(others_cards(g))
        elif r < 0.6 and type(a.get(k)) is int:
            a[k] = a[k] + rng.choice((-10, -5, -1, 1, 5, 10, 10 ** 20))
        else:
            a[k] = rng.choice(ODD)
    if rng.random() < 0.03:
        a = {rng.choice([1, None, "type"]): rng.choice(ODD)}
    return a


@pytest.mark.parametrize("game_id", atut.built_games())
def test_odd_actions_raise_only_illegal_action_and_change_nothing(game_id):
    rng = random.Random(game_id)
    counts = {}
    for n in atut.game_class(game_id).PLAYERS:
        for seed in range(2):
            g = atut.new_game(game_id, players=n, seed=seed)
            while not g.is_over and g.deal_no <= 1:
                legal = g.legal_actions()
                keys = {canonical(a) for a in legal}
                before = g.to_json()
                for _ in range(60 if counts.get(g.phase, 0) < 250 else 4):
                    a = mutant(g, rng, legal)
                    try:
                        msg = g.explain(a)
                    except Exception as e:                    # noqa: BLE001 - the point
                        pytest.fail(f"explain({a!r}) raised {e!r} in phase {g.phase}")
                    if msg is None:
                        assert canonical(a) in keys, a
                        continue
                    assert type(msg) is str and msg
                    try:
                        g.apply(a)
                    except atut.IllegalAction as e:
                        assert str(e) == msg
                    except Exception as e:                    # noqa: BLE001 - the point
                        pytest.fail(f"apply({a!r}) raised {e!r} in phase {g.phase}")
                    else:
                        pytest.fail(f"apply({a!r}) was taken though explain said {msg}")
                    assert g.to_json() == before, a
                    counts[g.phase] = counts.get(g.phase, 0) + 1
                g.apply(rng.choice(legal))
    assert counts and all(v >= 50 for v in counts.values()), counts
    assert sum(counts.values()) >= 500, counts                 # a few hundred a game
