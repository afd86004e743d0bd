"""Fuzzing ``game.apply`` with dicts near the legal ones (hostile input), with Hypothesis.

States of every game and player count, at every phase of the first deal and the start of the
second (level-2 bots play to them).  From one of the state's legal actions a mutant is made:
wrong types for its fields, bools for ints, floats, strings for seats and numbers, nested
lists, huge ints, other seats' cards, cards not held, missing and extra keys, other action
types, or no dict at all.  A mutant equal to a legal action (the same canonical JSON, so the
same values of the same JSON types) must be accepted; every other one is refused with
``atut.IllegalAction`` (the message ``explain`` gives, a short one) and leaves the game's
``to_json()`` and the mover's view unchanged.  ``ATUT_FUZZ_SCALE`` (see
``tests/test_fuzz_saves.py``) scales the number of tries; the counts are printed at the end.
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atut
from atut import cards as C
from atut.game import canonical

SCALE = float(os.environ.get("ATUT_FUZZ_SCALE", "1") or 1)
PER_GAME = 1600
FUZZ = settings(max_examples=max(1, int(PER_GAME * SCALE)), deadline=None, derandomize=True,
                database=None, print_blob=False, suppress_health_check=list(HealthCheck))
TRIED: Counter = Counter()
KEYS = ["type", "card", "value", "to", "meld", "companion", "suit", "alone", "seat", "trump",
        "cards", "extra", ""]
TYPES = ["play", "bid", "pass", "give", "announce", "exchange", "close", "order_up", "discard",
         "alone", "decide", "name", "marriage", "PLAY", "Play", "play ", "", "null"]


def _states(game_id: str) -> list:
    """Live games of every player count of ``game_id``: at each phase change and every few
    steps of the first deal, and the first steps of the second."""
    out = []
    for p in atut.game_class(game_id).PLAYERS:
        for seed in (1, 2):
            g = atut.new_game(game_id, players=p, seed=seed)
            bots = [atut.make_bot(game_id, 2, seed=seed * 10 + s) for s in range(p)]
            cuts, last = [], None
            while not g.is_over and g.deal_no <= 2:
                i = len(g.history)
                if g.phase != last or i % 7 == 0 or (g.deal_no == 2 and len(cuts) < 60):
                    cuts.append(i)
                    last = g.phase
                g.apply(bots[g.to_move].choose(g.view(g.to_move)))
            save = json.loads(g.to_json())
            for i in cuts:
                out.append(atut.load_game(dict(save, actions=save["actions"][:i])))
    return out


STATES = {g: _states(g) for g in atut.built_games()}

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 500) | st.floats() |
    st.sampled_from([10 ** 30, -10 ** 30, 2 ** 63, 10 ** 400, 1e308, float("inf")]) |
    st.text(max_size=6) | st.sampled_from(sorted(C.CARD)),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.sampled_from(KEYS), c, max_size=2),
    max_leaves=4)


def _other_seats_cards(g) -> list[str]:
    hands = getattr(g, "hands", None)
    if hands is None:
        return []
    return [c for s, h in enumerate(hands) if s != g.to_move and type(h) is int
            for c in C.codes(C.cards_of(h))]


def near(v, draw, g):
    """A value near ``v``: the same meaning in another type, a neighbour, or junk."""
    if isinstance(v, bool):
        return draw(st.sampled_from([not v, int(v), str(v).lower(), None, [v], 1.0 * v]))
    if isinstance(v, int):
        f = float(v) if abs(v) < 10 ** 300 else float("inf")
        return draw(st.sampled_from([v + 1, v - 1, -v, f, str(v)[:50], bool(v), [v], {"v": v},
                                     v + 10 ** 20, 10 ** 400, None, [[v]]]) |
                    st.integers(-2 * abs(v) - 5, 2 * abs(v) + 5))
    if isinstance(v, str):
        cards = _other_seats_cards(g) or sorted(C.CARD)
        return draw(st.sampled_from([v.lower(), v + " ", " " + v, v[:-1], v * 2, [v], {v: v},
                                     None, 0, v.encode().hex()]) | st.sampled_from(cards) |
                    st.sampled_from(sorted(C.CARD)))
    if isinstance(v, list):
        return draw(st.sampled_from([v[:-1], v + v[:1], list(reversed(v)), [v], tuple(v) and v[0],
                                     None]))
    return draw(JUNK)


@st.composite
def mutant(draw, g):
    legal = g.legal_actions()
    a = dict(draw(st.sampled_from(legal)))
    if draw(st.integers(0, 19)) == 0:
        return draw(st.sampled_from([[a], canonical(a), None, 0, list(a.items()), True]) | JUNK)
    for _ in range(draw(st.integers(1, 3))):
        r = draw(st.integers(0, 9))
        if r <= 4 and a:                                   # a field near its value
            k = draw(st.sampled_from(sorted(a, key=str)))
            a[k] = near(a[k], draw, g) if k != "type" else draw(st.sampled_from(TYPES) | JUNK)
        elif r == 5 and a:                                 # a key missing
            del a[draw(st.sampled_from(sorted(a, key=str)))]
        elif r == 6:                                       # an extra key
            a[draw(st.sampled_from(KEYS) | st.text(max_size=4))] = draw(JUNK)
        elif r == 7:                                       # another seat's card
            cards = _other_seats_cards(g)
            if cards:
                k = draw(st.sampled_from(["card", "companion", "meld"]))
                a[k] = draw(st.sampled_from(cards))
        elif r == 8:                                       # a seat as a string, a bool
            a[draw(st.sampled_from(["to", "seat", "value"]))] = draw(
                st.sampled_from(["0", "1", True, False, 0.0, -1, g.players, 10 ** 18]))
        else:                                              # another legal action's field
            b = draw(st.sampled_from(legal))
            k = draw(st.sampled_from(sorted(b)))
            a[k] = b[k]
    return a


def legal_key(m, legal) -> bool:
    try:
        return canonical(m) in {canonical(a) for a in legal}
    except (TypeError, ValueError, RecursionError):
        return False


@pytest.mark.parametrize("game_id", atut.built_games())
@FUZZ
@given(data=st.data())
def test_a_near_legal_action_is_refused_and_changes_nothing(game_id, data):
    states = STATES[game_id]
    g = states[data.draw(st.integers(0, len(states) - 1), label="state")]
    legal = g.legal_actions()
    m = data.draw(mutant(g), label="action")
    if isinstance(m, dict) and legal_key(m, legal):
        copy = atut.load_game(g.to_json())
        copy.apply(m)                                      # a legal one is taken
        assert canonical(copy.history[-1]) == canonical(m)
        TRIED["accepted"] += 1
        return
    before = g.to_json(), json.dumps(g.view(g.to_move))
    msg = g.explain(m)
    assert type(msg) is str and msg, m
    assert len(msg) < 600, msg[:300]
    with pytest.raises(atut.IllegalAction) as e:
        g.apply(m)
    assert str(e.value) == msg
    assert (g.to_json(), json.dumps(g.view(g.to_move))) == before
    assert g.legal_actions() == legal
    TRIED["refused"] += 1
    TRIED["phase " + g.phase] += 1


def test_every_legal_action_of_every_state_is_accepted():
    n = 0
    for states in STATES.values():
        for g in states:
            for a in g.legal_actions():
                copy = atut.load_game(g.to_json())
                copy.apply(a)
                n += 1
    TRIED["legal, accepted"] += n
    assert n > 1000


def test_the_states_cover_every_game_player_count_and_phase(capsys):
    for game_id, states in STATES.items():
        assert {g.players for g in states} == set(atut.game_class(game_id).PLAYERS)
        assert game_id == "sixty_six" or any(g.deal_no == 2 for g in states)   # 66: one deal
    with capsys.disabled():
        print(f"\napply mutants (ATUT_FUZZ_SCALE={SCALE:g}): " +
              ", ".join(f"{k} {v}" for k, v in sorted(TRIED.items())))
    if not TRIED["refused"]:
        pytest.skip("run with the whole file to count")
    assert TRIED["refused"] >= 5 * int(PER_GAME * min(SCALE, 1)) * 0.8, TRIED
