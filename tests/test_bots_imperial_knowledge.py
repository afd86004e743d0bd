"""The imperial bots: what the declarations (G9) tell the search about the other hands, and the
level-2 trump draw against known honours (G numbers refer to rules/002-imperial.md)."""

from __future__ import annotations

import random

import pytest

import atut
from atut import cards as C
from atut.bots import imperial as B


def positions(n, games, seed0=0):
    """(game, view of the seat to move) at every step of random games' first deals."""
    for seed in range(seed0, seed0 + games):
        g = atut.new_game("imperial", players=n, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.deal_no == 1:
            yield g, g.view(g.to_move)
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("n", [2, 3])
def test_determinize_meets_the_declarations(n):
    rng = random.Random(n)
    good = total = 0
    for g, v in positions(n, 5, seed0=20):
        me = v["seat"]
        dec = B.Declared(v, n, g.trump, g.trump_card)
        k = B.Knowledge(v)
        for s in range(n):
            # the true start hands meet what was declared (G8, G10, G11)
            assert dec.violation(s, g.start_hands[s]) == 0
        d = B.determinize(v, rng)
        for s in range(n):
            if s == me:
                continue
            # G11: every honour of a hand was shown; one not shown is not there
            assert d.hands[s] & k.honours & ~C.mask_of(C.card(x) for x in v["revealed"][s]) == 0
            good += dec.violation(s, d.start_hands[s]) == 0
            total += 1
    assert good >= 0.9 * total, (good, total)


def test_violation_sees_a_longer_suit_and_an_undeclared_imperial():
    g = atut.new_game("imperial", players=2, seed=5)
    v = g.view(g.to_move)
    dec = B.Declared(v, 2, g.trump, g.trump_card)
    other = 1 - v["seat"]
    assert dec.violation(other, g.start_hands[other]) == 0
    # seven spades is longer than any declared best suit of this deal (G10)
    spades = C.mask_of(C.make(r, C.SPADES) for r in range(8))
    assert dec.violation(other, spades) > 0


def test_rule_draws_trumps_against_known_honours():
    from test_imperial import game_with
    # trump H (turned 10H); seat 0 shows the honours KH QH 7H (G9, G11); seat 1 leads with no
    # honour and no sure winner: it leads its highest trump, so that seat 0 has to follow with
    # trumps, honours included, which then score nothing (G14)
    seat1 = ["9H", "8H", "AS", "10S", "9S", "AC", "10C", "9C", "AD", "10D", "9D", "8D"]
    seat0 = ["KH", "QH", "7H", "KS", "QS", "JS", "KC", "QC", "JC", "KD", "QD", "JD"]
    g = game_with(2, 0, {1: seat1, 0: seat0}, turned="10H")
    v = g.view(1)
    assert B.rule_policy(v, random.Random(0))["card"] == "9H"
