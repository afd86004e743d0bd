"""cesarz: one rule per action type.  ``explain(a)`` is ``None`` exactly when ``a`` is a legal
action, a refusal by a rule of the game names its rule id (docs/rules/cesarz.md), and
``apply`` raises ``IllegalAction`` with the very same text and changes nothing."""

from __future__ import annotations

import random

import pytest
from explain_checks import refused, rule_ids_of_refusals

import atut
from atut import cards as C
from atut.games.cesarz import DECK, EMPEROR, JOKERS, arrange_deck

CODES = C.codes(DECK)
SUITED = [c for c in CODES if C.CARD[c] < 44]
MELD_CARDS = [c for c in SUITED if c[:-1] in ("K", "Q", "PR", "YP")]


def is_pair(a, b):
    """E2: a king and a queen of one suit, or a prince and a young princess of different suits
    (written here from the rules file, not taken from the engine)."""
    ra, sa, rb, sb = a[:-1], a[-1], b[:-1], b[-1]
    if {ra, rb} == {"K", "Q"}:
        return sa == sb
    return {ra, rb} == {"PR", "YP"} and sa != sb


def play(g, card, **kw):
    g.apply({"type": "play", "card": card, **kw})


def test_G8_G11_refusals_name_their_rule():
    g = atut.new_game("cesarz", players=3, seed=2, dealer=0)
    assert g.to_move == 1
    refused(g, {"type": "bid", "value": 120}, "G8")
    g.apply({"type": "bid", "value": 110})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert g.phase == "give" and g.to_move == 1
    card = g.view(1)["hand"][0]
    assert "now goes to seat 2" in refused(g, {"type": "give", "card": card, "to": 0}, "G11")
    assert g.explain({"type": "give", "card": card, "to": 2}) is None


def test_G13_G14_G17_play_refusals_name_their_rule():
    g = atut.new_game("cesarz", players=3, dealer=0, deck=arrange_deck(3, 0, {
        0: ["AH", "KS", "QS", "9C"],
        1: ["9H", "KH", "QH", "AS", "RED_JOKER", "EMPEROR", "PRC", "YPD"],
        2: ["10H", "QC"]}, musik=["9D", "JD", "YPS"]))
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})                                       # seat 0 declares at 100
    g.apply({"type": "give", "card": "9D", "to": 1})
    g.apply({"type": "give", "card": "JD", "to": 2})
    assert g.phase == "play" and g.to_move == 0
    refused(g, {"type": "play", "card": "AH", "companion": "KS"}, "G13")
    refused(g, {"type": "play", "card": "KS", "meld": "QH"}, "G17")
    play(g, "AH")
    refused(g, {"type": "play", "card": "AS"}, "G13")               # must follow hearts
    refused(g, {"type": "play", "card": "RED_JOKER"}, "G13")
    refused(g, {"type": "play", "card": "RED_JOKER", "companion": "EMPEROR"}, "G13")
    refused(g, {"type": "play", "card": "RED_JOKER", "companion": "AS", "meld": "KH"}, "G13")
    refused(g, {"type": "play", "card": "KH", "meld": "QH"}, "G17")  # does not beat AH
    refused(g, {"type": "play", "card": "EMPEROR"}, "G14")
    refused(g, {"type": "play", "card": "EMPEROR", "companion": "BLACK_JOKER"}, "G14")
    refused(g, {"type": "play", "card": "EMPEROR", "companion": "PRC", "meld": "YPS"}, "G17")
    assert g.explain({"type": "play", "card": "RED_JOKER", "companion": "QC"}).endswith(
        ": seat 1 does not hold QC, the companion")                 # no rule: not held
    play(g, "EMPEROR", companion="PRC", meld="YPD")
    g.hands[2] |= 1 << C.CARD["KC"]                                 # drive the state: a pair
    g._cache = None
    refused(g, {"type": "play", "card": "QC", "meld": "KC"}, "G14")  # no meld in an emperor trick


def candidates(g, rng):
    """Every action of every type worth trying now."""
    out = [{"type": "pass"}]
    for v in sorted({90, 100, 110, 120, 130, 815, 820, 830, g.high + 5, g.high + 10,
                     g.high + 20}):
        out.append({"type": "bid", "value": v})
    for c in CODES:
        for s in range(g.n):
            out.append({"type": "give", "card": c, "to": s})
    if g.phase != "play":
        return out + [{"type": "play", "card": c} for c in CODES]
    held = C.codes(C.cards_of(g.hands[g.to_move]))
    for c in CODES:
        out.append({"type": "play", "card": c})
        if C.CARD[c] >= 44 and c not in held:
            out.append({"type": "play", "card": c, "companion": rng.choice(CODES)})
        elif C.CARD[c] >= 44:                                        # joker / emperor
            for k in CODES:
                out.append({"type": "play", "card": c, "companion": k})
            for k in [x for x in held if C.CARD[x] < 44] + [rng.choice(SUITED)]:
                for m in MELD_CARDS:
                    out.append({"type": "play", "card": c, "companion": k, "meld": m})
            out.append({"type": "play", "card": c, "meld": rng.choice(MELD_CARDS)})
        else:
            out.append({"type": "play", "card": c, "companion": rng.choice(CODES)})
            for m in (MELD_CARDS if c in MELD_CARDS and c in held else
                      [rng.choice(MELD_CARDS)]):
                out.append({"type": "play", "card": c, "meld": m})
    return out


def expected_rule(g, a, legal):
    """The rule id that should refuse the well-formed action ``a`` (None: no rule, such as a
    card not held or an action of another phase), judged from ``legal`` and the rules file."""
    t = a["type"]
    phase_types = {"bid": {"bid", "pass"}, "give": {"give"}, "play": {"play"}}[g.phase]
    if t not in phase_types:
        return None
    if t == "bid":
        return "G8"
    hand = set(C.codes(C.cards_of(g.hands[g.to_move])))
    c = a["card"]
    if t == "give":
        return "G11" if a["to"] != legal[0]["to"] else None
    if c not in hand:
        return None
    if C.CARD[c] < 44:                                              # a suited card
        if {"type": "play", "card": c} not in legal:
            return "G13"                                            # follow suit (6.3)
        if "companion" in a:
            return "G13"
        m = a["meld"]
        if not is_pair(c, m) or m not in hand:
            return "G17"
        return "G14" if g.emperor_trick else "G17"
    rule = "G14" if C.CARD[c] == EMPEROR else "G13"
    suited_held = [x for x in hand if C.CARD[x] < 44]
    if "companion" not in a:
        return rule                                                 # bare with suited held,
    k = a["companion"]                                              # or a bare meld
    if k not in hand:
        return None
    if C.CARD[k] >= 44:
        return rule
    assert suited_held
    if C.CARD[c] in JOKERS:
        return "G13"                                                # a joker's meld
    return "G17"                                                    # the emperor's pair


def positions(n, seed, deals=1):
    g = atut.new_game("cesarz", players=n, seed=seed)
    rng = random.Random(seed)
    while not g.is_over and g.deal_no <= deals:
        yield g, rng
        g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_explain_is_none_exactly_for_the_legal_actions(n):
    seen = set()
    checked = 0
    for seed in range(4):
        for g, rng in positions(n, seed):
            k, ids = rule_ids_of_refusals(g, candidates(g, rng), expected_rule, 27)
            checked += k
            seen |= {rule for _, rule in ids}
    assert checked > 5000
    assert {"G8", "G11", "G13", "G14", "G17"} <= seen, seen


def test_apply_raises_the_explained_message():
    for g, rng in positions(4, 5):
        for a in rng.sample(candidates(g, rng), 20):
            msg = g.explain(a)
            if msg is None:
                continue
            with pytest.raises(atut.IllegalAction) as e:
                g.apply(a)
            assert str(e.value) == msg
