"""euchre: one check per action type (``_playable``, ``_discardable``, ``_nameable``,
``_may_pass``; order_up, alone and defend_alone have no condition beyond their phase) gives both
the legal actions and the reason of a refusal; ``Game.explain`` names the rule (G5, G6, G8 of
docs/rules/euchre.md) and ``apply`` raises ``IllegalAction`` with the same text."""

from __future__ import annotations

import random

import pytest
from explain_checks import check_candidates, check_mutants, refusal, refused
from test_euchre_audit import act, new

import atut
from atut import cards as C
from atut.games.euchre import DECK

ALL = C.codes(DECK)


def test_G6_must_follow_the_led_suit_names_the_rule():
    g = new(0, {1: ["AD", "KD", "QD", "JH", "9S"], 2: ["JD", "10C", "9C", "AS", "KS"]}, "9H")
    act(g, *["pass"] * 4)
    act(g, "pass", "pass", "pass")
    g.apply({"type": "name", "suit": "D"})
    g.apply({"type": "alone", "value": False})
    g.apply({"type": "play", "card": "9S"})                  # spades led
    msg = refused(g, {"type": "play", "card": "JD"}, "G6", "seat 2 must follow", "(S;")
    assert msg == ('illegal action {"card":"JD","type":"play"}: G6: seat 2 must follow the led '
                   'suit (S; the left bower counts as a trump, G5)')
    assert g.explain({"type": "play", "card": "KS"}) is None


def test_G5_G6_a_led_left_bower_is_followed_by_trumps():
    g = new(0, {1: ["JD", "KS", "QS", "JS", "9S"], 2: ["QH", "AD", "10C", "9C", "AS"]}, "9H")
    act(g, "order_up")                                       # hearts; JD is the left bower
    g.apply(g.legal_actions()[0])                            # the dealer's discard
    g.apply({"type": "alone", "value": False})
    act(g, "JD")
    refused(g, {"type": "play", "card": "AD"}, "G6", "trumps", "G5")
    assert [a["card"] for a in g.legal_actions()] == ["QH"]


def test_G8_the_upcard_suit_and_the_stuck_dealer_name_the_rule():
    g = new(0, {1: ["AD", "KD", "QD", "JH", "9S"]}, "9H")
    act(g, *["pass"] * 4)
    msg = refused(g, {"type": "name", "suit": "H"}, "G8", "upcard's suit (H)")
    assert "refused in round one" in msg
    act(g, "pass", "pass", "pass")
    refused(g, {"type": "pass"}, "G8", "dealer is stuck")
    g = new(0, {1: ["AD", "KD", "QD", "JH", "9S"]}, "9H", redeal=True)
    act(g, *["pass"] * 7)
    assert g.explain({"type": "pass"}) is None


def test_an_odd_type_never_raises_anything_but_illegal_action():
    # ``{"type": ["play"]}`` once raised TypeError (an unhashable type in a set) from _explain
    for seed in range(3):
        g = atut.new_game("euchre", seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.deal_no <= 2:
            for t in (["play"], {"play": 1}, ["pass"], [], None, 1, True, 10 ** 40, "PLAY"):
                for a in ({"type": t, "card": "AD"}, {"type": t}, {"type": t, "suit": ["H"]},
                          {"type": "name", "suit": t}, {"type": "alone", "value": t},
                          {"type": "play", "card": t}, {"type": "discard", "card": t}):
                    msg = g.explain(a)
                    if msg is not None:
                        assert refusal(g, a) == msg
            g.apply(rng.choice(g.legal_actions()))
    g = atut.new_game("euchre", seed=1)
    msg = refusal(g, {"type": ["play"], "card": "AD"})
    assert "may only order_up / pass" in msg


def candidates(g):
    out = [{"type": "order_up"}, {"type": "pass"}]
    out += [{"type": "name", "suit": s} for s in C.SUITS]
    out += [{"type": t, "value": v} for t in ("alone", "defend_alone") for v in (True, False)]
    out += [{"type": t, "card": c} for t in ("play", "discard") for c in ALL]
    return out


@pytest.mark.parametrize("redeal,defend_alone", [(False, True), (True, False)])
def test_explain_agrees_with_the_legal_actions_in_random_positions(redeal, defend_alone):
    rng = random.Random(int(redeal) * 2 + int(defend_alone))
    phases = set()
    refused_total = 0
    for seed in range(20):
        g = atut.new_game("euchre", seed=seed,
                          options={"redeal": redeal, "defend_alone": defend_alone})
        while not g.is_over and g.deal_no <= 2:
            phases.add(g.phase)
            refused_total += check_candidates(g, candidates(g))
            legal = g.legal_actions()
            alone = [a for a in legal if a.get("value") is True]
            g.apply(alone[0] if alone and rng.random() < 0.3 else rng.choice(legal))
    assert phases >= {"round1", "round2", "discard", "alone", "play"}
    assert refused_total > 1000


def test_odd_actions_raise_only_illegal_action_and_change_nothing():
    rng = random.Random(5)
    for seed in range(6):
        g = atut.new_game("euchre", seed=200 + seed, options={"redeal": seed % 2 == 1})
        while not g.is_over and g.deal_no <= 2:
            check_mutants(g, rng, 8)
            g.apply(rng.choice(g.legal_actions()))
