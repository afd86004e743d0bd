"""tysiac1001: one rule per action type.  ``explain(a)`` is ``None`` exactly when ``a`` is a
legal action, a refusal by a rule of the game names its rule id (docs/rules/tysiac1001.md),
and ``apply`` raises ``IllegalAction`` with the very same text and changes nothing."""

from __future__ import annotations

import random

import pytest
from explain_checks import refused, rule_ids_of_refusals

import atut
from atut import cards as C
from atut.games.tysiac1001 import DECK, KINGS, QUEENS, arrange_deck

CODES = C.codes(DECK)
MELD_CARDS = C.codes(KINGS + QUEENS)


def new(hands, przykup=(), dealer=2, n=3, options=None, seed=1):
    return atut.new_game("tysiac1001", players=n, seed=seed, dealer=dealer,
                         deck=arrange_deck(n, dealer, hands, przykup), options=options)


# seat 0 holds two marriages, seat 1 none; dealer 2 of 3: the bidding order is 0, 1, 2
HANDS = {0: ["KH", "QH", "KS", "QS", "9S", "JC", "9C"],
         1: ["AS", "10S", "AC", "10C", "AD", "10D", "9H"]}
PRZYKUP = ["9D", "JD", "JH"]


def test_G6_bids_refused_name_G6():
    g = new(HANDS, PRZYKUP)
    assert "multiples of 5" in refused(g, {"type": "bid", "value": 42}, "G6")
    assert "lowest bid now is 40" in refused(g, {"type": "bid", "value": 35}, "G6")
    assert "up to 400" in refused(g, {"type": "bid", "value": 405}, "G6")
    g.apply({"type": "bid", "value": 120})
    assert "lowest bid now is 125" in refused(g, {"type": "bid", "value": 120}, "G6")
    assert "seat 1 holds no marriage, so bids at most 120" in refused(
        g, {"type": "bid", "value": 125}, "G6")
    assert g.explain({"type": "pass"}) is None


def declarer_0():
    g = new(HANDS, PRZYKUP)
    g.apply({"type": "bid", "value": 120})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert g.phase == "give" and g.to_move == 0
    return g


def test_G9_gives_refused_name_G9():
    g = declarer_0()
    assert "now goes to seat 1" in refused(g, {"type": "give", "card": "9D", "to": 2}, "G9")
    assert "przykup cards JD 9D JH" in refused(g, {"type": "give", "card": "KH", "to": 1},
                                                "G9")
    assert g.explain({"type": "give", "card": "AS", "to": 1}).endswith(
        ": seat 0 does not hold AS")                                    # no rule: not held
    g.apply({"type": "give", "card": "9D", "to": 1})
    assert "now goes to seat 2" in refused(g, {"type": "give", "card": "JD", "to": 1}, "G9")


def test_G10_contracts_refused_name_G10():
    g = declarer_0()
    g.apply({"type": "give", "card": "9D", "to": 1})
    g.apply({"type": "give", "card": "JD", "to": 2})
    for v in (115, 122, 405):
        assert "from 120 to 400" in refused(g, {"type": "announce", "value": v}, "G10")
    assert g.explain({"type": "announce", "value": 400}) is None


def test_G12_G13_plays_refused_name_their_rule():
    g = declarer_0()
    g.apply({"type": "give", "card": "9D", "to": 1})
    g.apply({"type": "give", "card": "JD", "to": 2})
    g.apply({"type": "announce", "value": 120})
    assert "taken no trick yet" in refused(g, {"type": "play", "card": "KH", "meld": "QH"},
                                           "G13")
    g.apply({"type": "play", "card": "9S"})
    assert g.to_move == 1
    assert "must follow the suit led, spades: AS 10S" in refused(
        g, {"type": "play", "card": "AC"}, "G12")
    assert "only on his lead" in refused(g, {"type": "play", "card": "AS", "meld": "KS"},
                                         "G13")
    g.apply({"type": "play", "card": "AS"})
    g.apply(g.legal_actions()[0])
    assert g.to_move == 1 and g.tricks_won[1] == 1                    # seat 1 took AS
    assert "not the king or queen of a marriage" in refused(
        g, {"type": "play", "card": "10S", "meld": "KS"}, "G13")


def test_G12_a_void_player_must_trump_and_G13_the_partner_is_named():
    g = declarer_0()
    g.apply({"type": "give", "card": "9D", "to": 1})
    g.apply({"type": "give", "card": "JD", "to": 2})
    g.apply({"type": "announce", "value": 120})
    g.tricks_won[0] = 1                                               # drive the state
    g._cache = None
    assert "the partner of KH is QH, not QS" in refused(
        g, {"type": "play", "card": "KH", "meld": "QS"}, "G13")
    g.apply({"type": "play", "card": "9S"})
    g.trump = 3                                                       # hearts, as after a meld
    g.hands[1] &= ~C.SUIT_MASK[0]                                    # seat 1: no spades
    g._cache = None
    assert g.legal_actions() == [{"type": "play", "card": "9H"}]
    assert "has no spades and must play a trump (hearts): 9H" in refused(
        g, {"type": "play", "card": "AD"}, "G12")


def candidates(g, rng):
    """Every action of every type worth trying now: bids and contracts across the range, gives
    of every card to every seat, plays of every card with and without a meld."""
    out = [{"type": t} for t in ("pass", "play_on", "give_up")]
    for v in list(range(30, 410, 5)) + [42, 123, 401]:
        out.append({"type": "bid", "value": v})
        out.append({"type": "announce", "value": v})
    for c in CODES:
        for s in range(g.n):
            out.append({"type": "give", "card": c, "to": s})
        out.append({"type": "play", "card": c})
        if g.phase == "play" and not g.trick or rng.random() < 0.1:
            for m in MELD_CARDS + [rng.choice(CODES)]:
                out.append({"type": "play", "card": c, "meld": m})
        else:
            out.append({"type": "play", "card": c, "meld": rng.choice(MELD_CARDS)})
    return out


def expected_rule(g, a, legal):
    """The rule id that should refuse the well-formed action ``a`` (None: no rule, such as a
    card not held or an action of another phase)."""
    seat = g.to_move
    phase_types = {"bid": {"bid", "pass"}, "decide": {"play_on", "give_up"}, "give": {"give"},
                   "announce": {"announce"}, "play": {"play"}}[g.phase]
    t = a["type"]
    if t not in phase_types:
        return None
    if t == "bid":
        return "G6"
    if t == "announce":
        return "G10"
    held = g.hands[seat] >> C.CARD[a["card"]] & 1
    if t == "give":
        if a["to"] != legal[0]["to"]:
            return "G9"
        return "G9" if held else None
    if not held:
        return None
    plain = {"type": "play", "card": a["card"]}
    return "G12" if plain not in legal else "G13"


def positions(n, handout, seed, deals=2):
    """Seeded random games (passing half of the time, so the two-pass case comes up)."""
    g = atut.new_game("tysiac1001", players=n, seed=seed, options={"handout": handout})
    rng = random.Random(seed)
    while not g.is_over and g.deal_no <= deals:
        yield g, rng
        legal = g.legal_actions()
        if g.phase == "bid" and rng.random() < 0.5:
            g.apply({"type": "pass"})
        elif g.phase == "decide" and rng.random() < 0.8:
            g.apply({"type": "play_on"})
        else:
            g.apply(rng.choice(legal))


@pytest.mark.parametrize("n,handout", [(3, "przykup"), (4, "przykup"), (3, "any"), (4, "any")])
def test_explain_is_none_exactly_for_the_legal_actions(n, handout):
    seen = set()
    checked = 0
    for seed in range(3):
        for g, rng in positions(n, handout, seed):
            k, ids = rule_ids_of_refusals(g, candidates(g, rng), expected_rule, 19)
            checked += k
            seen |= ids
    assert checked > 10000
    assert {("bid", "G6"), ("give", "G9"), ("announce", "G10"), ("play", "G12"),
            ("play", "G13")} <= seen


def test_apply_raises_the_explained_message():
    for g, rng in positions(3, "przykup", 7, deals=1):
        for a in rng.sample(candidates(g, rng), 20):
            msg = g.explain(a)
            if msg is None:
                continue
            with pytest.raises(atut.IllegalAction) as e:
                g.apply(a)
            assert str(e.value) == msg
