"""imperial: one check of a play (``_playable``: G13, G19) gives both the legal actions and the
reason of a refusal; ``Game.explain`` names the rule (G1, G3, G13 of docs/rules/imperial.md) and
``apply`` raises ``IllegalAction`` with the same text."""

from __future__ import annotations

import random

import pytest
from explain_checks import check_candidates, check_mutants, refused
from test_imperial_audit import new, play

import atut
from atut import cards as C
from atut.games.imperial import DECKS

ALL = C.codes(DECKS[3])


def test_G13_follow_suit_else_trump_names_the_rule():
    g = new(2, 0, {1: ["KS", "9H"], 0: ["7S", "AC", "10H"]}, turned="8H")
    play(g, "KS")
    msg = refused(g, {"type": "play", "card": "AC"}, "G13", "seat 0 must follow the led suit S")
    legal = " ".join(a["card"] for a in g.legal_actions())
    assert msg.endswith(f"S ({legal})")
    g = new(2, 0, {1: ["KS"], 0: ["10H", "AC", "10C", "9C", "8C", "7C", "AD", "10D", "9D", "8D",
                                  "7D", "KC"]}, turned="8H")
    play(g, "KS")
    msg = refused(g, {"type": "play", "card": "AC"}, "G13", "has no S and must play a trump H")
    assert msg.endswith("(10H)")
    assert g.explain({"type": "play", "card": "10H"}) is None


def test_G1_G3_cards_in_nobodys_hand_name_the_rule():
    g = new(2, 0, {1: ["KS"], 0: ["7S"]}, turned="8H")
    refused(g, {"type": "play", "card": "6S"}, "G1", "no 6s with 2 players")
    refused(g, {"type": "play", "card": "8H"}, "G3", "turned trump card")


def test_G19_any_first_lead():
    g = new(3, 0, {1: ["KS", "9H", "6C"]})
    for c in g.view(1)["hand"]:
        assert g.explain({"type": "play", "card": c}) is None


@pytest.mark.parametrize("n", [2, 3])
def test_explain_agrees_with_the_legal_actions_in_random_positions(n):
    rng = random.Random(n)
    refused_total = 0
    for seed in range(6):
        g = atut.new_game("imperial", players=n, seed=seed)
        while not g.is_over and g.deal_no <= 2:
            cands = [{"type": "play", "card": c} for c in ALL] + [{"type": "pass"}]
            refused_total += check_candidates(g, cands)
            g.apply(rng.choice(g.legal_actions()))
    assert refused_total > 1000


@pytest.mark.parametrize("n", [2, 3])
def test_odd_actions_raise_only_illegal_action_and_change_nothing(n):
    rng = random.Random(10 + n)
    for seed in range(4):
        g = atut.new_game("imperial", players=n, seed=300 + seed)
        while not g.is_over and g.deal_no <= 2:
            check_mutants(g, rng, 6)
            g.apply(rng.choice(g.legal_actions()))
