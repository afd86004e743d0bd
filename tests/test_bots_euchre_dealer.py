"""Euchre's ``Dealer`` deals exactly as ``bots.sampling.sample_cards`` does: the same deal and
the same draws from the RNG for the same arguments, a refusal included."""

from __future__ import annotations

import random

import pytest

from atut.bots import euchre as B
from atut.bots.sampling import sample_cards


def cases(n, seed=1, feasible=True):
    """``n`` random (cards, sizes, allowed): places of random sizes, masks that allow a deal
    (``feasible``) or, often, none."""
    rng = random.Random(seed)
    for _ in range(n):
        k = rng.randrange(3, 16)
        cards = rng.sample(range(44), k)
        places = [1, 2, 3, "kitty", "discard"][:rng.randrange(2, 6)]
        sizes = dict.fromkeys(places, 0)
        allowed = {q: rng.getrandbits(44) & rng.getrandbits(44) for q in places
                   if rng.random() < 0.75}
        for c in cards:
            q = rng.choice(places)
            sizes[q] += 1
            if feasible and q in allowed:
                allowed[q] |= 1 << c
        yield cards, sizes, allowed


def deal(f, *args):
    try:
        return f(*args)
    except ValueError as e:
        return str(e)


@pytest.mark.parametrize("feasible", [True, False])
def test_dealer_deals_as_sample_cards(feasible):
    refused = 0
    for i, (cards, sizes, allowed) in enumerate(cases(300, feasible=feasible)):
        dealer = B.Dealer(cards, sizes, allowed)
        a, b = random.Random(i), random.Random(i)
        for _ in range(5):
            want = deal(sample_cards, cards, sizes, allowed, a)
            got = deal(dealer.sample, b)
            assert got == want
            refused += type(got) is str
        assert a.random() == b.random()
    assert (refused > 0) == (not feasible)


def test_a_wrong_count_of_cards_is_refused_as_sample_cards_does():
    with pytest.raises(ValueError) as want:
        sample_cards([1, 2], {0: 3}, {}, random.Random(0))
    with pytest.raises(ValueError) as got:
        B.Dealer([1, 2], {0: 3}, {})
    assert str(got.value) == str(want.value)
