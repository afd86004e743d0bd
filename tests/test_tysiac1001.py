"""tysiac1001: every worked example (E1-E15) of docs/rules/tysiac1001.md, the gap rules it
cites (G1-G19), random deals with the invariants, the hand-out option, bad input, save/load and
views that leak nothing (G19)."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

import atut
from atut import cards as C
from atut.games.tysiac1001 import DECK, VALUE, arrange_deck, deal_slots, dealer_credit, round5
from helpers import cards_in, events, legal_cards, plain, plain_events, play


def new(hands, przykup=(), dealer=2, n=3, options=None, seed=1):
    """A game whose first deal gives ``hands`` ({seat: codes}) and ``przykup``; with the default
    dealer 2 of 3 players the bidding order is seat 0, 1, 2."""
    return atut.new_game("tysiac1001", players=n, seed=seed, dealer=dealer,
                         deck=arrange_deck(n, dealer, hands, przykup), options=options)


def to_play(g, bid=40, gives=None, contract=None):
    """The first bidder bids ``bid``, the others pass; the declarer hands out ``gives`` (one
    card per recipient, in the order served; else the first legal) and announces."""
    g.apply({"type": "bid", "value": bid})
    while g.phase == "bid":
        g.apply({"type": "pass"})
    i = 0
    while g.phase == "give":
        legal = g.legal_actions()
        g.apply({"type": "give", "card": gives[i], "to": legal[0]["to"]} if gives else legal[0])
        i += 1
    g.apply({"type": "announce", "value": contract or bid})
    assert g.phase == "play"
    return g


def hand(g, seat):
    return set(C.codes(C.cards_of(g.hands[seat])))


def bad(g, action):
    before = g.to_json(), json.dumps(g.view(g.to_move)), json.dumps(g.view(None)), list(g.events)
    with pytest.raises(atut.IllegalAction) as e:
        g.apply(action)
    assert before == (g.to_json(), json.dumps(g.view(g.to_move)), json.dumps(g.view(None)),
                      g.events)
    return str(e.value)


# --- deck and deal (G1-G5) ------------------------------------------------------------------

def test_G1_G2_deck_and_card_points():
    assert len(DECK) == 24 and len(set(DECK)) == 24
    assert sum(VALUE[c] for c in DECK) == 120
    assert [VALUE[C.CARD[r + "H"]] for r in ("A", "10", "K", "Q", "J", "9")] == [11, 10, 4, 3, 2, 0]


def test_G3_player_counts_and_options():
    for n in (3, 4):
        assert atut.new_game("tysiac1001", players=n, seed=0).players == n
    for n in (2, 5, 0, "3", True):
        with pytest.raises(ValueError):
            atut.new_game("tysiac1001", players=n, seed=0)
    for opts in ({"handout": "all"}, {"hand_out": "any"}, {"handout": True}, []):
        with pytest.raises(ValueError):
            atut.new_game("tysiac1001", players=3, seed=0, options=opts)
    g = atut.new_game("tysiac1001", players=3, seed=0, options={"handout": "any"})
    assert g.view(None)["options"] == {"handout": "any"}
    assert atut.new_game("tysiac1001", seed=0).options == {"handout": "przykup"}


def test_G5_canonical_deal_przykup_never_first_or_last():
    deck = C.codes(DECK)
    for n, dealer in ((3, 2), (3, 0), (4, 1)):
        g = atut.new_game("tysiac1001", players=n, seed=0, dealer=dealer, deck=deck)
        a1, a2, a3 = [(dealer + k) % n for k in (1, 2, 3)]
        assert g.active == [a1, a2, a3] and g.to_move == a1
        assert C.codes(C.cards_of(g.przykup)) == sorted([deck[3], deck[7], deck[11]],
                                                        key=C.card)
        assert deck[0] in hand(g, a1) and deck[1] in hand(g, a2) and deck[23] in hand(g, a3)
        assert all(C.count(g.hands[s]) == 7 for s in (a1, a2, a3))
        if n == 4:
            assert g.hands[dealer] == 0 and g.sitting_out == dealer
    slots, pk = deal_slots(3, 2)
    assert pk == [3, 7, 11] and slots[0][:4] == [0, 4, 8, 12] and slots[2][-1] == 23


def test_G4_the_deal_passes_left_and_later_deals_are_seeded():
    g = atut.new_game("tysiac1001", players=4, seed=3, dealer=1)
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give_up"})
    assert g.deal_no == 2 and g.dealer == 2 and g.to_move == 3 and g.sitting_out == 2
    h = atut.new_game("tysiac1001", players=4, seed=3, dealer=1)
    for a in g.history:
        h.apply(a)
    assert h.hands == g.hands and h.przykup == g.przykup


# --- E1 rounding, E8 dealer credit ---------------------------------------------------------

def test_E1_rounding_of_non_declarer_totals():
    for x, y in ((37, 35), (38, 40), (36, 35), (39, 40), (40, 40), (0, 0), (2, 0), (3, 5),
                 (83, 85), (121, 120)):
        assert round5(x) == y, x


def test_E8_dealer_credit_values():
    def m(*codes):
        return C.mask_of(C.CARD[c] for c in codes)
    assert dealer_credit(m("9S", "9H", "9C")) == 100
    assert dealer_credit(m("AH", "KS", "JD")) == 15
    assert dealer_credit(m("10C", "9D", "QS")) == 15
    assert dealer_credit(m("9H", "9D", "JS")) == 0


def test_E8_G16_sitting_out_dealer_credited_on_reveal_even_after_give_up():
    g = new({}, przykup=["9S", "9H", "9C"], dealer=0, n=4)
    assert g.active == [1, 2, 3]
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert g.scores == [100, 0, 0, 0] and g.phase == "decide" and g.to_move == 3
    assert {"type": "dealer_credit", "seat": 0, "value": 100} in g.view(None)["log"]
    g.apply({"type": "give_up"})
    assert g.scores == [100, 50, 50, 0]
    g.check_invariants()
    g2 = new({}, przykup=["AH", "KS", "JD"], dealer=0, n=4)
    to_play(g2)
    assert g2.scores[0] == 15 and g2.view(None)["seats"][0]["sitting_out"]


# --- bidding (G6), E2, E3, E5 ----------------------------------------------------------------

def test_E2_bidding_jumps_and_steps():
    g = new({})
    assert g.to_move == 0
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "bid", "value": 55})
    g.apply({"type": "pass"})
    assert g.to_move == 0
    msg = bad(g, {"type": "bid", "value": 62})
    assert "multiples of 5" in msg
    g.apply({"type": "bid", "value": 60})
    assert {"type": "bid", "value": 100} in g.legal_actions()          # a jump is legal
    g.apply({"type": "pass"})
    assert g.phase == "give" and g.declarer == 0 and g.bid_won == 60
    assert [plain(e) for e in g.events if e["type"] == "declarer"] == [
        {"type": "declarer", "seat": 0, "value": 60}]


def test_E2_jump_from_60_to_100():
    g = new({})
    g.apply({"type": "bid", "value": 60})
    g.apply({"type": "bid", "value": 100})
    assert g.high == 100 and g.to_move == 2


def test_E3_bids_above_120_only_with_a_marriage():
    g = new({0: ["AS", "KS", "JS", "AC", "KC", "JD", "9D"], 1: ["KH", "QH"]})
    assert not any(a["type"] == "bid" and a["value"] > 120 for a in g.legal_actions())
    msg = bad(g, {"type": "bid", "value": 125})
    assert "no marriage" in msg
    g.apply({"type": "bid", "value": 120})
    values = [a["value"] for a in g.legal_actions() if a["type"] == "bid"]
    assert values[0] == 125 and values[-1] == 400 and len(values) == 56
    bad(g, {"type": "bid", "value": 405})
    g.apply({"type": "bid", "value": 125})
    assert g.high == 125 and g.high_bidder == 1


def test_G6_no_marriage_at_120_leaves_only_pass():
    g = new({0: ["AS", "KS", "JS", "AC", "KC", "JD", "9D"],
             1: ["10S", "QS", "9S", "10C", "QC", "10D", "QD"]})
    g.apply({"type": "bid", "value": 120})
    assert g.legal_actions() == [{"type": "pass"}]


def test_G6_a_pass_is_final_and_two_passes_end_the_bidding():
    g = new({})
    g.apply({"type": "pass"})                                            # seat 0 out
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "bid", "value": 45})
    assert g.to_move == 1                                                # seat 0 is skipped
    g.apply({"type": "bid", "value": 50})
    assert g.to_move == 2
    g.apply({"type": "pass"})
    assert g.phase == "give" and g.declarer == 1 and g.bid_won == 50
    assert g.view(None)["seats"][0]["bid"] == "pass"


def test_E5_a_bidder_who_won_has_no_give_up():
    g = new({})
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert g.declarer == 0 and g.phase == "give"
    assert {a["type"] for a in g.legal_actions()} == {"give"}
    bad(g, {"type": "give_up"})


# --- two passes (G7), E4 ----------------------------------------------------------------------

def test_E4_two_passes_and_give_up():
    g = new({}, przykup=["AH", "10H", "KS"])
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert g.phase == "decide" and g.to_move == 2
    assert g.legal_actions() == [{"type": "play_on"}, {"type": "give_up"}]
    assert C.count(g.hands[2]) == 10 and {"AH", "10H", "KS"} <= hand(g, 2)   # G9 precision
    assert g.view(1)["piles"] == [{"id": "przykup", "cards": ["KS", "AH", "10H"]}]
    g.apply({"type": "give_up"})
    assert g.scores == [50, 50, 0]
    assert g.deal_no == 2 and g.phase == "bid"
    assert not any(e["type"] == "trick" for e in g.events)
    assert g.sheet[0] == (1, 2, "give_up", (50, 50, 0))
    g.check_invariants()


def test_E4_G7_play_on_with_a_contract_of_at_least_40():
    g = new({})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "play_on"})
    assert g.phase == "give" and g.declarer == 2 and g.bid_won == 0
    g.apply(g.legal_actions()[0])
    g.apply(g.legal_actions()[0])
    values = [a["value"] for a in g.legal_actions()]
    assert values[0] == 40 and values[-1] in (120, 400)
    g.apply({"type": "announce", "value": 40})
    assert g.phase == "play" and g.to_move == 2 and g.contract == 40


# --- przykup, hand-out and contract (G8-G10), E13, E14 ----------------------------------------

def test_G8_przykup_hidden_until_taken_then_public():
    g = new({}, przykup=["QH", "9S", "AD"])
    for s in (None, 0, 1, 2):
        v = g.view(s)
        assert v["piles"] == [{"id": "przykup", "count": 3}] and v["przykup"] is None
        assert not {"QH", "9S", "AD"} & cards_in(v) - set(v["hand"])
    to_play(g, gives=["9S", "AD"])
    for s in (None, 0, 1, 2):
        assert g.view(s)["piles"] == [{"id": "przykup", "cards": ["9S", "AD", "QH"]}]


def test_E13_keep_one_hand_out_two_then_announce_above_120():
    g = new({0: ["KH", "AS", "10S", "JC", "9C", "JD", "9D"]}, przykup=["QH", "9S", "AD"])
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert C.count(g.hands[0]) == 10
    legal = g.legal_actions()
    assert legal == [{"type": "give", "card": c, "to": 1} for c in ("9S", "AD", "QH")]
    g.apply({"type": "give", "card": "9S", "to": 1})
    assert g.legal_actions() == [{"type": "give", "card": c, "to": 2} for c in ("AD", "QH")]
    g.apply({"type": "give", "card": "AD", "to": 2})
    assert g.phase == "announce"
    assert [C.count(g.hands[s]) for s in range(3)] == [8, 8, 8]
    assert "QH" in hand(g, 0) and "9S" in hand(g, 1) and "AD" in hand(g, 2)
    values = [a["value"] for a in g.legal_actions()]
    assert values[0] == 40 and 125 in values and values[-1] == 400
    g.apply({"type": "announce", "value": 125})
    assert g.view(None)["contract"] == 125


def test_G9_only_przykup_cards_are_handed_out_and_recipients_go_clockwise():
    g = new({1: ["AS"]}, przykup=["QH", "9S", "AD"], dealer=0, n=4)
    g.apply({"type": "pass"})                                            # seat 1
    g.apply({"type": "bid", "value": 40})                                # seat 2
    g.apply({"type": "pass"})                                            # seat 3
    assert g.declarer == 2
    legal = g.legal_actions()
    assert {a["to"] for a in legal} == {3}                               # left of 2, not 0
    assert {a["card"] for a in legal} == {"QH", "9S", "AD"}
    msg = bad(g, {"type": "give", "card": "AS", "to": 3})                # seat 1 holds AS
    assert msg.endswith(": seat 2 does not hold AS")
    own = next(c for c in hand(g, 2) if c not in ("QH", "9S", "AD"))    # held, not przykup
    msg = bad(g, {"type": "give", "card": own, "to": 3})
    assert ": G9: hand out one of the przykup cards" in msg and "przykup" in msg
    assert g.explain({"type": "give", "card": own, "to": 3}) == msg
    msg = bad(g, {"type": "give", "card": "QH", "to": 1})
    assert ": G9: " in msg and "seat 3" in msg
    g.apply({"type": "give", "card": "QH", "to": 3})
    assert {a["to"] for a in g.legal_actions()} == {1}                   # skips the dealer
    g.apply({"type": "give", "card": "AD", "to": 1})
    assert "9S" in hand(g, 2) and "QH" in hand(g, 3) and "AD" in hand(g, 1)


def test_G9_option_any_gives_any_two_cards_of_the_whole_hand():
    g = new({0: ["KH", "QH", "AS", "10S", "JC", "9C", "JD"]}, przykup=["9H", "9S", "AD"],
            options={"handout": "any"})
    g.apply({"type": "bid", "value": 130})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    legal = g.legal_actions()
    assert len(legal) == 10 and {a["to"] for a in legal} == {1}
    g.apply({"type": "give", "card": "KH", "to": 1})
    assert len(g.legal_actions()) == 9
    g.apply({"type": "give", "card": "AS", "to": 2})
    assert {"9H", "9S", "AD"} <= hand(g, 0) and "KH" in hand(g, 1)
    # G10: the marriage is gone, so a bid above 120 leaves exactly the bid as the contract
    assert g.legal_actions() == [{"type": "announce", "value": 130}]
    # the other opponent never learns a card from the declarer's hand handed to seat 1
    assert "KH" not in cards_in(g.view(2)) and "KH" not in cards_in(g.view(None))
    assert "KH" in cards_in(g.view(1)) and "AS" not in cards_in(g.view(1))


def test_E14_contract_limits_without_a_marriage():
    hands = {0: ["AS", "10S", "JC", "9C", "JD", "9D", "AH"]}
    g = new(hands, przykup=["9S", "AC", "10C"])
    g.apply({"type": "bid", "value": 120})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give", "card": "9S", "to": 1})
    g.apply({"type": "give", "card": "AC", "to": 2})
    assert g.legal_actions() == [{"type": "announce", "value": 120}]
    msg = bad(g, {"type": "announce", "value": 125})
    assert "from 120 to 120" in msg
    g = new(hands, przykup=["9S", "AC", "10C"])
    g.apply({"type": "bid", "value": 85})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give", "card": "9S", "to": 1})
    g.apply({"type": "give", "card": "AC", "to": 2})
    assert [a["value"] for a in g.legal_actions()] == list(range(85, 121, 5))
    bad(g, {"type": "announce", "value": 80})
    bad(g, {"type": "announce", "value": 87})


# --- play (G11-G13), E9-E12 ----------------------------------------------------------------

E10_HANDS = {0: ["AS", "KH", "QH", "10S", "9C", "9D", "JD"],
             1: ["KS", "QS", "AC", "10C", "KC", "JS", "9S"],
             2: ["AH", "10H", "JH", "9H", "QC", "JC", "AD"]}
E10_PRZYKUP = ["10D", "KD", "QD"]


def test_E9_no_trump_before_a_marriage():
    g = to_play(new({0: ["AH", "10H", "KH", "QH", "JH", "9H", "AS"], 1: ["9S"]},
                    przykup=["AC", "10C", "KC"]), gives=["AC", "10C"])
    assert g.to_move == 0 and g.view(None)["trump"] is None               # G11: declarer leads
    play(g, "AH")
    assert legal_cards(g) == hand(g, 1)                                  # void: anything
    play(g, "9S")
    play(g, sorted(legal_cards(g))[0])
    assert events(g, "trick")[-1]["winner"] == 0 and g.to_move == 0


def test_E10_E11_marriages_change_trump():
    g = to_play(new(E10_HANDS, przykup=E10_PRZYKUP), gives=["10D", "KD"])
    assert "QD" in hand(g, 0)
    assert not any("meld" in a for a in g.legal_actions())               # E10: no trick yet
    assert {"type": "play", "card": "KH"} in g.legal_actions()
    msg = bad(g, {"type": "play", "card": "KH", "meld": "QH"})
    assert "taking a trick" in msg
    play(g, "AS")
    play(g, "9S")
    play(g, "QC")
    assert events(g, "trick")[-1] == {"type": "trick", "winner": 0, "cards": ["AS", "9S", "QC"],
                                      "leader": 0, "points": 14}
    legal = g.legal_actions()
    assert {"type": "play", "card": "QH", "meld": "KH"} in legal
    assert {"type": "play", "card": "KH", "meld": "QH"} in legal
    play(g, "QH", meld="KH")                                             # E10: +100, trump H
    assert g.trump == C.HEARTS and g.view(2)["trump"] == "H" and g.meld_points[0] == 100
    assert events(g, "marriage")[-1] == {"type": "marriage", "seat": 0, "cards": ["QH", "KH"],
                                         "suit": "H", "value": 100}
    assert legal_cards(g) == hand(g, 1)                                  # no hearts: anything
    play(g, "10D")
    assert legal_cards(g) == {"AH", "10H", "JH", "9H"}                   # a trump lead: follow
    play(g, "AH")
    assert events(g, "trick")[-1]["winner"] == 2
    assert not any("meld" in a for a in g.legal_actions())
    play(g, "JC")
    assert legal_cards(g) == {"9C"}
    play(g, "9C")
    play(g, "AC")
    assert events(g, "trick")[-1]["winner"] == 1 and g.to_move == 1
    assert {"type": "play", "card": "KS", "meld": "QS"} in g.legal_actions()
    play(g, "KS", meld="QS")                                             # E11: +40, trump S
    assert g.trump == C.SPADES and g.meld_points[1] == 40
    v = g.view(0)
    assert v["trump"] == "S" and [m["suit"] for m in v["marriages"]] == ["H", "S"]
    assert {"key": "trump", "suit": "S"} in v["summary"]
    # E12-like: seat 2 has no spades and no trump left (hearts are no longer trump)
    assert legal_cards(g) == hand(g, 2)


def test_G13_marriage_only_on_the_lead():
    g = to_play(new(E10_HANDS, przykup=E10_PRZYKUP), gives=["10D", "KD"])
    play(g, "AS")
    play(g, "9S")
    play(g, "QC")
    play(g, "9C")                                                        # seat 0 leads clubs
    assert not any("meld" in a for a in g.legal_actions())               # seat 1 follows
    bad(g, {"type": "play", "card": "KS", "meld": "QS"})
    bad(g, {"type": "play", "card": "AC", "meld": "KC"})


E12_HANDS = {0: ["AC", "10C", "KC", "QC", "9C", "KD", "QD"],
             1: ["JS", "9S", "QH", "AD", "10D", "JD", "9D"],
             2: ["AS", "10S", "KS", "QS", "AH", "10H", "KH"]}
E12_PRZYKUP = ["JC", "9H", "JH"]


def test_E12_following_suit_or_trumping():
    g = to_play(new(E12_HANDS, przykup=E12_PRZYKUP), gives=["9H", "JH"])
    play(g, "QC")
    assert legal_cards(g) == hand(g, 1)                                  # no trump yet
    play(g, "9S")
    assert legal_cards(g) == hand(g, 2)
    play(g, "QS")
    assert events(g, "trick")[-1]["winner"] == 0
    play(g, "KD", meld="QD")                                             # trump D, +80
    assert g.view(None)["trump"] == "D" and g.meld_points[0] == 80
    assert legal_cards(g) == {"AD", "10D", "JD", "9D"}
    play(g, "JD")
    assert legal_cards(g) == hand(g, 2)                                  # no diamonds at all
    play(g, "KS")
    assert events(g, "trick")[-1]["winner"] == 0                         # KD beats JD
    play(g, "AC")
    assert legal_cards(g) == {"AD", "10D", "9D"}                         # E12: must trump
    bad(g, {"type": "play", "card": "QH"})
    play(g, "9D")
    assert legal_cards(g) == hand(g, 2)                                  # E12: anything
    play(g, "AH")
    assert events(g, "trick")[-1]["winner"] == 1                         # the trump wins


def test_G12_no_obligation_to_beat():
    g = to_play(new(E12_HANDS, przykup=E12_PRZYKUP), gives=["9H", "JH"])
    play(g, "QC")
    play(g, "9S")
    play(g, "QS")
    play(g, "KD", meld="QD")
    assert "9D" in legal_cards(g) and "AD" in legal_cards(g)             # 9D need not beat


# --- scoring (G14, G15), E6, E7 -------------------------------------------------------------

def finish_with(g, card_points, melds):
    """Drive the state to the end of the play with the given totals and score it."""
    g.card_points = list(card_points)
    g.meld_points = list(melds)
    g.trick = []
    g._cache = None
    g._score_deal()


def test_E6_declarer_scores_plus_or_minus_the_contract():
    g = to_play(new({}), bid=110)
    finish_with(g, [95, 10, 15], [100, 0, 0])                            # 195 >= 110
    assert g.sheet[-1] == (1, 0, 110, (110, 10, 15))
    assert g.scores == [110, 10, 15]
    g = to_play(new({}), bid=100)
    finish_with(g, [98, 10, 12], [0, 0, 0])                              # 98 < 100
    assert g.sheet[-1][3][0] == -100 and g.scores[0] == -100
    assert {"type": "failed", "seat": 0, "value": 100, "total": 98} in plain_events(g)


def test_E6_G15_the_declarer_total_is_never_rounded():
    g = to_play(new({}), bid=100)
    finish_with(g, [98, 12, 10], [0, 0, 0])                               # 98 would round up
    assert g.scores[0] == -100
    g = to_play(new({}), bid=100)
    finish_with(g, [100, 10, 10], [0, 0, 0])                              # exactly: made
    assert g.scores[0] == 100


def test_E7_opponents_round_cards_plus_marriages():
    g = to_play(new({}), bid=60)
    finish_with(g, [59, 23, 38], [0, 60, 0])
    assert g.scores == [-60, 85, 40]
    assert {"type": "scored", "seat": 1, "total": 83, "value": 85} in plain_events(g)


def test_a_whole_constructed_deal_scores_by_the_rules():
    g = to_play(new(E10_HANDS, przykup=E10_PRZYKUP), gives=["10D", "KD"], contract=150)
    while g.phase == "play" and g.deal_no == 1:
        legal = g.legal_actions()
        melds = [a for a in legal if "meld" in a]
        g.apply(melds[0] if melds else legal[0])
        g.check_invariants()
    row = g.sheet[0]
    totals = g.last_result["totals"]
    assert sum(totals) == 120 + sum(e["value"] for e in events(g, "marriage"))
    decl = 0
    assert row[3][decl] == (150 if totals[decl] >= 150 else -150)
    for s in (1, 2):
        assert row[3][s] == round5(totals[s])
    assert g.scores == list(row[3])
    log = g.view(0)["log"]                                 # the new deal shows the old scoring
    assert log[0]["type"] in ("scored", "made", "failed")
    assert not cards_in([e for e in log if e["type"] != "hand"])


# --- the end (G17), E15 ---------------------------------------------------------------------

def give_up_with_scores(scores):
    """Deal 1 ends by give-up (seats 0 and 1 +50) from the given scores."""
    g = new({})
    g.scores = list(scores)
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give_up"})
    return g


def test_E15_the_highest_total_over_1001_wins():
    g = give_up_with_scores([955, 960, 0])
    assert g.scores == [1005, 1010, 0] and g.is_over and g.winner == 1
    assert g.phase == "over" and g.to_move is None and g.legal_actions() == []
    assert events(g, "game_over")[-1]["winner"] == 1
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "pass"})


def test_E15_1000_is_not_enough():
    g = give_up_with_scores([950, 900, 0])
    assert g.scores == [1000, 950, 0] and not g.is_over and g.deal_no == 2


def test_E15_a_tie_at_the_top_plays_on():
    g = give_up_with_scores([965, 965, 0])
    assert g.scores == [1015, 1015, 0] and not g.is_over and g.deal_no == 2
    g.apply({"type": "pass"})                      # deal 2: dealer 0, seat 1 opens
    g.apply({"type": "pass"})
    g.apply({"type": "give_up"})                   # seat 0 gives up: seats 1 and 2 +50
    assert g.scores == [1015, 1065, 50] and g.winner == 1


def test_G17_the_sitting_out_dealer_can_win():
    g = new({}, przykup=["9S", "9H", "9C"], dealer=0, n=4)
    g.scores = [905, 0, 0, 0]
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give_up"})
    assert g.winner == 0 and g.scores == [1005, 50, 50, 0]


# --- random play ------------------------------------------------------------------------------

def pick(rng, legal, low=0.8):
    t = rng.choice(sorted({a["type"] for a in legal}))
    acts = [a for a in legal if a["type"] == t]
    if t in ("bid", "announce") and rng.random() < low:
        return acts[0]
    return rng.choice(acts)


@pytest.mark.parametrize("n", [3, 4])
def test_random_deals_keep_the_invariants(n):
    """1500 seeded games per player count, each through its first deal: 24 cards conserved
    after every action, scores in fives, a declarer scores exactly plus or minus his contract,
    non-declarers their rounded totals."""
    kinds = set()
    for seed in range(1500):
        rng = random.Random(seed)
        opts = {"handout": "any"} if seed % 3 == 0 else None
        g = atut.new_game("tysiac1001", players=n, seed=seed, options=opts)
        uniform = seed % 2 == 0
        while g.deal_no == 1:
            legal = g.legal_actions()
            g.apply(rng.choice(legal) if uniform else pick(rng, legal))
            g.check_invariants()
        assert len(g.sheet) == 1 and g.sheet[0][0] == 1
        _, d, contract, deltas = g.sheet[0]
        r = g.last_result
        active = [(g.first_dealer + k) % n for k in (1, 2, 3)]
        assert all(x % 5 == 0 for x in deltas)
        if n == 4:
            pk = C.mask_of(C.CARD[c] for c in events(g, "przykup")[0]["cards"])
            assert deltas[g.first_dealer] == dealer_credit(pk)                 # G16
        if contract == "give_up":
            kinds.add("give_up")
            assert [deltas[s] for s in active] == [0 if s == d else 50 for s in active]
        else:
            kinds.add("made" if r["made"] else "failed")
            assert deltas[d] == (contract if r["totals"][d] >= contract else -contract)
            for s in active:
                if s != d:
                    assert deltas[s] == round5(r["totals"][s])
            melds = sum(e["value"] for e in events(g, "marriage"))
            assert sum(r["totals"][s] for s in active) == 120 + melds
            if melds:
                kinds.add("marriage")
        assert g.scores == list(deltas)
    assert {"give_up", "made", "failed", "marriage"} <= kinds


@pytest.mark.parametrize("n", [3, 4])
def test_random_full_games_to_1001(n):
    for seed in range(8):
        rng = random.Random(seed)
        g = atut.new_game("tysiac1001", players=n, seed=seed)
        steps = 0
        while not g.is_over:
            g.apply(pick(rng, g.legal_actions()))
            steps += 1
            assert steps < 50_000
        g.check_invariants()
        best = max(g.scores)
        assert best >= 1001 and g.scores[g.winner] == best and g.scores.count(best) == 1
        rows = g.view(None)["score_sheet"]["rows"]
        assert len(rows) == g.deal_no == len(g.sheet)
        assert [sum(r[3][s] for r in g.sheet) for s in range(n)] == g.scores


# --- bad input, save/load, clone ------------------------------------------------------------

def test_bad_input_changes_nothing():
    g = new(E10_HANDS, przykup=E10_PRZYKUP)
    for a in ({"type": "bid", "value": 35}, {"type": "bid", "value": 42},
              {"type": "bid", "value": "40"}, {"type": "bid", "value": True},
              {"type": "bid", "value": 40.0}, {"type": "bid"}, {"type": "bid", "value": 405},
              {"type": "bid", "value": 40, "extra": 1}, {"type": "give_up"},
              {"type": "announce", "value": 40}, {"type": "play", "card": "AS"},
              {"type": "give", "card": "10D", "to": 1}, {"type": "nonsense"}, "pass", None, []):
        bad(g, a)
    g.apply({"type": "bid", "value": 40})
    msg = bad(g, {"type": "bid", "value": 40})
    assert "lowest bid now is 45" in msg
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    for a in ({"type": "give", "card": "10D", "to": 2}, {"type": "give", "card": "10D"},
              {"type": "give", "card": "ZZ", "to": 1}, {"type": "give", "card": "10D", "to": "1"},
              {"type": "announce", "value": 40}, {"type": "pass"}, {"type": "play_on"}):
        bad(g, a)
    g.apply({"type": "give", "card": "10D", "to": 1})
    g.apply({"type": "give", "card": "KD", "to": 2})
    for a in ({"type": "announce", "value": 35}, {"type": "announce", "value": 41},
              {"type": "announce", "value": 405}, {"type": "bid", "value": 45}):
        bad(g, a)
    g.apply({"type": "announce", "value": 40})
    for a in ({"type": "play", "card": "AC"}, {"type": "play", "card": "KH", "meld": "QH"},
              {"type": "play", "card": "AS", "meld": "KS"}, {"type": "play", "card": "AS",
                                                             "meld": None},
              {"type": "play", "card": 5}, {"type": "play", "card": "as"}):
        bad(g, a)
    assert "does not hold AC" in bad(g, {"type": "play", "card": "AC"})


def test_bad_constructor_arguments():
    with pytest.raises(ValueError):
        atut.new_game("tysiac1001", players=3, seed=0, deck=C.codes(DECK)[:23])
    with pytest.raises(ValueError):
        atut.new_game("tysiac1001", players=3, seed=0, deck=C.codes(DECK)[:23] + ["8H"])
    with pytest.raises(ValueError):
        atut.new_game("tysiac1001", players=3, seed=0, dealer=3)


def test_save_and_load_mid_game():
    for seed in range(6):
        rng = random.Random(seed)
        g = atut.new_game("tysiac1001", players=3 + seed % 2, seed=seed,
                          options={"handout": "any"} if seed % 3 == 0 else None)
        for _ in range(rng.randrange(10, 150)):
            g.apply(pick(rng, g.legal_actions()))
        text = g.to_json()
        h = atut.load_game(text)
        assert h.events == g.events and h.phase == g.phase and h.scores == g.scores
        for s in [None, *range(g.players)]:
            assert h.view(s) == g.view(s)
        for _ in range(100):
            if g.is_over:
                break
            a = pick(rng, g.legal_actions())
            g.apply(a)
            h.apply(a)
        assert h.to_json() == g.to_json() and h.view(0) == g.view(0)
    with pytest.raises(ValueError):
        atut.load_game(text.replace('"type":"give"', '"type":"grab"').replace(
            '"type":"play"', '"type":"grab"', 1))


def test_clone_is_a_correct_copy():
    rng = random.Random(4)
    g = atut.new_game("tysiac1001", players=4, seed=4)
    for _ in range(40):
        g.apply(pick(rng, g.legal_actions()))
    snapshot = g.to_json(), json.dumps(g.view(None)), json.dumps(g.view(g.to_move))
    c = g.clone()
    assert c.legal_actions() == g.legal_actions()
    while not c.is_over and c.deal_no < g.deal_no + 3:
        c.apply(pick(rng, c.legal_actions()))
        c.check_invariants()
    assert snapshot == (g.to_json(), json.dumps(g.view(None)), json.dumps(g.view(g.to_move)))


# --- views (G19) ------------------------------------------------------------------------------

def known_to(g, seat):
    """Every card ``seat`` may see now: own hand, played cards, the revealed przykup, the
    cards shown with marriages, cards it gave or got."""
    k = g.shown
    for m in g.captured:
        k |= m
    for _, c in g.trick:
        k |= 1 << c
    if g.revealed:
        k |= g.przykup
    if seat is not None:
        k |= g.hands[seat]
        for c, to in g.given:
            if seat in (g.declarer, to):
                k |= 1 << c
    return k


@pytest.mark.parametrize("n", [3, 4])
def test_G19_views_leak_no_hidden_card(n):
    all_cards = C.mask_of(DECK)
    for seed in range(20):
        opts = {"handout": "any"} if seed % 2 else None
        g = atut.new_game("tysiac1001", players=n, seed=seed, options=opts)
        rng = random.Random(seed)
        while not g.is_over and g.deal_no <= 2:
            for seat in [None, *range(n)]:
                v = g.view(seat)
                seen = cards_in(json.loads(json.dumps(v)))
                hidden = set(C.codes(C.cards_of(~known_to(g, seat) & all_cards)))
                assert not seen & hidden, (n, seed, seat, seen & hidden)
                if seat is None:
                    assert v["hand"] == []
                if seat is not None and seat == g.to_move:
                    assert v["legal_actions"] == g.legal_actions()
                else:
                    assert "legal_actions" not in v
            g.apply(pick(rng, g.legal_actions(), low=0.5))


def test_G19_an_opponent_never_learns_where_the_other_przykup_card_went():
    g = new(E10_HANDS, przykup=E10_PRZYKUP)
    to_play(g, gives=["10D", "KD"])

    def gifts(obj, out):
        if isinstance(obj, dict):
            if "card" in obj and "to" in obj:
                out.append((obj["card"], obj["to"]))
            for v in obj.values():
                gifts(v, out)
        elif isinstance(obj, list):
            for v in obj:
                gifts(v, out)
        return out

    assert set(gifts(g.view(0), [])) == {("10D", 1), ("KD", 2)}
    assert set(gifts(g.view(1), [])) == {("10D", 1)}
    assert set(gifts(g.view(2), [])) == {("KD", 2)}
    assert gifts(g.view(None), []) == []
    assert {"key": "received", "card": "10D", "seat": 0} in g.view(1)["summary"]
    # the public log says who got a card, never which
    assert {"type": "handed", "seat": 0, "to": 2} in g.view(1)["log"]
    assert {"type": "handed", "seat": 0, "to": 1} in g.view(2)["log"]
    assert not any(e.get("type") == "handed" for e in g.view(0)["log"])
    assert [e["action"]["card"] for e in g.view(2)["log"]
            if e["type"] == "action" and e["action"]["type"] == "give"] == ["KD"]


def test_G19_public_view_contents():
    g = new({}, dealer=0, n=4, przykup=["AH", "KS", "JD"])
    g.apply({"type": "bid", "value": 45})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    v = g.view(None)
    assert v["sitting_out"] == 0 and v["seats"][0]["sitting_out"]
    assert v["seats"][0]["badges"] == [] and v["dealer"] == 0
    assert v["seats"][1]["bid"] == 45 and v["seats"][2]["bid"] == "pass"
    assert v["seats"][1]["badges"] == ["declarer"] and v["declarer"] == 1
    assert [s["cards"] for s in v["seats"]] == [0, 10, 7, 7]
    keys = [s["key"] for s in v["summary"]]
    assert keys == ["sits_out", "declarer", "przykup"]
    assert v["score_sheet"] == {"columns": ["deal", "contract", 0, 1, 2, 3], "rows": [],
                                "totals": [15, 0, 0, 0]}
    assert v["target"] == 1001 and v["phase"] == "give" and v["trump"] is None
    g.apply(g.legal_actions()[0])
    g.apply(g.legal_actions()[0])
    g.apply({"type": "announce", "value": 45})
    v = g.view(2)
    assert {"key": "contract", "seat": 1, "value": 45} in v["summary"]
    assert {"key": "no_trump"} in v["summary"] and v["contract"] == 45


def test_score_sheet_lists_every_deal():
    g = give_up_with_scores([0, 0, 0])
    to_play(g, bid=40)
    finish_with(g, [50, 40, 30], [0, 0, 0])
    rows = g.view(None)["score_sheet"]["rows"]
    assert rows[0] == [1, "—", "+50", "+50", "★\u00a00"]
    assert rows[1][:2] == [2, 40] and rows[1][3] == "★\u00a0+40"
    assert [r[0] for r in rows] == [1, 2]


def test_page_words_cover_every_event_summary_pile_phase_and_badge():
    text = (pathlib.Path(__file__).parent.parent / "web" / "i18n" / "tysiac1001.js").read_text(
        "utf-8")
    en, pl = text.split("\n  pl: {", 1)
    needed = {"name", "rules", "target", "option.handout", "option.handout.przykup",
              "option.handout.any", "bid.pass"}
    for n in (3, 4):
        for seed in range(25):
            g = atut.new_game("tysiac1001", players=n, seed=seed)
            rng = random.Random(seed)
            while not g.is_over and g.deal_no <= 3:
                for seat in (None, g.to_move):
                    v = g.view(seat)
                    needed.add("phase." + v["phase"])
                    needed |= {"event." + e["type"] for e in v["log"] if e["type"] != "action"}
                    needed |= {"event.action." + e["action"]["type"] for e in v["log"]
                               if e["type"] == "action"}
                    needed |= {"summary." + s["key"] for s in v["summary"]}
                    needed |= {"pile." + p["id"] for p in v["piles"]}
                    needed |= {"badge." + b for s in v["seats"] for b in s["badges"]}
                    needed |= {"column." + c for c in v["score_sheet"]["columns"]
                               if isinstance(c, str)}
                g.apply(pick(rng, g.legal_actions()))
    needed |= {"phase.over", "event.game_over", "summary.winner"}
    assert len(needed) > 40
    for key in sorted(needed):
        assert f'"{key}"' in en, f"no English words for {key}"
        assert f'"{key}"' in pl, f"no Polish words for {key}"
