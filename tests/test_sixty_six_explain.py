"""sixty_six: one check per action type (``_playable`` for a play with or without a marriage,
``_may_exchange``) gives both the legal actions and the reason of a refusal; ``Game.explain``
names the rule (G8, G9, G10 of docs/rules/sixty_six.md) and ``apply`` raises ``IllegalAction``
with the same text."""

from __future__ import annotations

import random

import pytest
from explain_checks import check_candidates, check_mutants, refusal, refused
from test_sixty_six_audit import exhausted_four, new, play

import atut
from atut import cards as C
from atut.games.sixty_six import DECK, PARTNER

ALL = C.codes(DECK)


def test_G8_must_follow_names_the_rule():
    g = exhausted_four()
    play(g, "AH")
    msg = refused(g, {"type": "play", "card": "AC"}, "G8")
    assert msg == ('illegal action {"card":"AC","type":"play"}: G8: seat 1 must follow hearts '
                   '(the stock is gone)')
    assert g.explain({"type": "play", "card": "JH"}) is None


def test_G9_marriage_refusals_name_the_rule():
    g = new(2, {1: ["QH", "AH", "KS", "QS"], 0: ["KH", "KC", "QC"]}, "AC")
    refused(g, {"type": "play", "card": "QH", "meld": "KH"}, "G9", "does not hold KH")
    refused(g, {"type": "play", "card": "AH", "meld": "KH"}, "G9", "king or queen")
    assert g.explain({"type": "play", "card": "KS", "meld": "QS"}) is None
    # a wrong partner is a malformed field: it names the right one (and G9)
    msg = g.explain({"type": "play", "card": "KS", "meld": "QH"})
    assert '"meld": "QS"' in msg and "G9" in msg
    play(g, "AH")
    refused(g, {"type": "play", "card": "KC", "meld": "QC"}, "G9", "leading a trick")


def test_G10_exchange_refusals_name_the_rule():
    g = new(2, {1: ["AH"], 0: ["9S", "10H"]}, "KS")
    refused(g, {"type": "exchange"}, "G10", "seat 1 does not hold the trump 9 (9S)")
    play(g, "AH")
    refused(g, {"type": "exchange"}, "G10", "about to lead")
    g = new(4, {1: ["9C"], 2: ["AC", "9S"], 3: ["QC"], 0: ["KC"]}, "AS",
            stock=["JD", "KD", "QD"])
    play(g, "9C", "AC", "QC", "KC")
    refused(g, {"type": "exchange"}, "G10", "trump card has been drawn")


def test_field_shape_messages_have_no_rule_id_and_never_raise_otherwise():
    g = new(2, {1: ["AH", "9S"]}, "KS")
    for a, word in (({"type": "play"}, "'card'"), ({"type": "play", "card": ["AH"]}, "card"),
                    ({"type": "play", "card": "8H"}, "8H"), ({"type": "exchange", "x": 1}, "x"),
                    ({"type": "play", "card": "AH", "meld": {"x": []}}, "king or queen"),
                    ({"type": ["play"], "card": "AH"}, "may only")):
        msg = g.explain(a)
        assert word in msg and refusal(g, a) == msg


def candidates(g):
    out = [{"type": "exchange"}]
    for c in ALL:
        out.append({"type": "play", "card": c})
        i = C.CARD[c]
        out.append({"type": "play", "card": c,
                    "meld": C.CODES[PARTNER[i]] if i in PARTNER else "AH"})
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_explain_agrees_with_the_legal_actions_in_random_positions(n):
    rng = random.Random(66 + n)
    refused_total = 0
    for seed in range(15):
        g = atut.new_game("sixty_six", players=n, seed=seed)
        while not g.is_over:
            refused_total += check_candidates(g, candidates(g))
            legal = g.legal_actions()
            melds = [a for a in legal if a["type"] != "play" or "meld" in a]
            g.apply(rng.choice(melds) if melds and rng.random() < 0.5 else rng.choice(legal))
    assert refused_total > 500


@pytest.mark.parametrize("n", [2, 3, 4])
def test_odd_actions_raise_only_illegal_action_and_change_nothing(n):
    rng = random.Random(n)
    for seed in range(6):
        g = atut.new_game("sixty_six", players=n, seed=100 + seed)
        while not g.is_over:
            check_mutants(g, rng, 12)
            g.apply(rng.choice(g.legal_actions()))
