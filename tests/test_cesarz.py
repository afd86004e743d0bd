"""cesarz: every worked example (E1-E20) of docs/rules/cesarz.md, the gap rules it cites
(G1-G27), random play with the deal invariants, bad input, save/load and views that leak
nothing (G27)."""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut import cards as C
from atut.games.cesarz import (
    DECK,
    JOKERS,
    MAX_BID,
    VALUE,
    arrange_deck,
    deal_layout,
    mask_points,
    meld_value,
    musik_credit,
)
from helpers import cards_in, events, legal_cards, play


def new(n, dealer, hands, musik=(), seed=1):
    return atut.new_game("cesarz", players=n, seed=seed, dealer=dealer,
                         deck=arrange_deck(n, dealer, hands, musik))


def to_play(game, gives=None):
    """Everybody passes (the opener is declarer at 100, G7); the declarer gives ``gives``
    (one card per recipient, in the order served) or his first cards."""
    while game.phase == "bid":
        game.apply({"type": "pass"})
    i = 0
    while game.phase == "give":
        legal = game.legal_actions()
        if gives:
            a = {"type": "give", "card": gives[i], "to": legal[0]["to"]}
        else:
            a = legal[0]
        game.apply(a)
        i += 1
    assert game.phase == "play"
    return game


# --- deal (G1-G6), E1 -----------------------------------------------------------------------

def test_G1_player_counts():
    for n in (2, 3, 4, 5):
        atut.new_game("cesarz", players=n, seed=0)
    for n in (1, 6, 0, "3", True):
        with pytest.raises(ValueError):
            atut.new_game("cesarz", players=n, seed=0)


@pytest.mark.parametrize("n,dealt,musik,after", [(2, 17, 2, 18), (3, 11, 3, 12), (4, 11, 3, 12),
                                                  (5, 8, 4, 9)])
def test_E1_deal_sizes(n, dealt, musik, after):
    g = atut.new_game("cesarz", players=n, seed=4, dealer=0)
    v = g.view(None)
    sitting = 0 if n >= 4 else None
    assert v["sitting_out"] == sitting
    for s in v["seats"]:
        assert s["cards"] == (0 if s["seat"] == sitting else dealt)
        assert s["sitting_out"] == (s["seat"] == sitting)
    assert {"id": "musik", "count": musik} in v["piles"]
    assert all(p["id"] != "exchange" for p in v["piles"])     # G4: 36 mod P = 0
    to_play(g)
    for s in g.view(None)["seats"]:
        assert s["cards"] == (0 if s["seat"] == sitting else after)


def test_G3_canonical_deal_order_counter_clockwise():
    deck = C.codes(DECK)
    # N = 4, dealer 0 sits out: R1 = seat 3 (his right), then 2, then 1; musik after each of
    # the first three rounds
    g = atut.new_game("cesarz", players=4, seed=0, dealer=0, deck=deck)
    assert set(g.view(3)["hand"]) == {deck[0], deck[4], deck[8]} | {deck[12 + 3 * j]
                                                                    for j in range(8)}
    assert set(g.view(1)["hand"]) == {deck[2], deck[6], deck[10]} | {deck[14 + 3 * j]
                                                                     for j in range(8)}
    assert C.codes(g.musik) == [deck[3], deck[7], deck[11]]
    # N = 3, dealer 1 deals to himself first, then seat 0, then seat 2
    g = atut.new_game("cesarz", players=3, seed=0, dealer=1, deck=deck)
    assert deal_layout(3, 1) == ([1, 0, 2], 11, 3, 0)
    assert set(g.view(1)["hand"]) >= {deck[0], deck[4], deck[8], deck[12], deck[15]}
    assert set(g.view(0)["hand"]) >= {deck[1], deck[5]}
    assert C.codes(g.musik) == [deck[3], deck[7], deck[11]]
    # 3.6: never two cards in a row to one destination (E1 sizes for every N)
    for n in (2, 3, 4, 5):
        order, h, pm, w = deal_layout(n, 0)
        dest = []
        for k in range(h):
            dest += order + (["m"] if k < pm else []) + (["x"] if k < w else [])
        assert len(dest) == 36
        assert all(a != b for a, b in zip(dest, dest[1:]))


def test_G3_arrange_deck_deals_the_named_hands():
    g = new(5, 2, {3: ["EMPEROR", "AH"], 0: ["KS"]}, musik=["RED_JOKER"])
    assert {"EMPEROR", "AH"} <= set(g.view(3)["hand"]) and "KS" in g.view(0)["hand"]
    assert C.CARD["RED_JOKER"] in g.musik


def test_G6_dealer_rotates_left_and_sits_out_in_turn():
    g = atut.new_game("cesarz", players=4, seed=2, dealer=3)
    rng = random.Random(0)
    seen = []
    while len(seen) < 5 and not g.is_over:
        if not seen or seen[-1][0] != g.deal_no:
            seen.append((g.deal_no, g.dealer, g.sitting_out))
        g.apply(rng.choice(g.legal_actions()))
    assert [d for _, d, _ in seen] == [3, 0, 1, 2, 3]
    assert all(d == s for _, d, s in seen)


def test_G6_first_dealer_drawn_from_the_seed():
    dealers = {atut.new_game("cesarz", players=4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert atut.new_game("cesarz", players=4, seed=9).dealer == \
        atut.new_game("cesarz", players=4, seed=9).dealer


# --- values E2, E3 ---------------------------------------------------------------------------

def test_E2_meld_values():
    m = lambda a, b: meld_value(C.CARD[a], C.CARD[b])  # noqa: E731
    assert m("KH", "QH") == 100 and m("QH", "KH") == 100
    assert m("KS", "QS") == 40 and m("KC", "QC") == 60 and m("KD", "QD") == 80
    assert m("PRS", "YPH") == 35 and m("PRD", "YPH") == 45 and m("PRC", "YPS") == 25
    assert m("PRH", "YPH") == 0                               # same suit: no meld
    assert m("KH", "QS") == 0 and m("PRS", "PRH") == 0
    table = {("S", "C"): 25, ("S", "D"): 30, ("S", "H"): 35, ("C", "D"): 35, ("C", "H"): 40,
             ("D", "H"): 45}
    for (a, b), val in table.items():
        assert m("PR" + a, "YP" + b) == val == m("PR" + b, "YP" + a)


def test_E3_card_points():
    assert sum(VALUE[c] for c in DECK) == 180
    assert sum(VALUE[C.CARD[x]] for x in ("AH", "10H", "9C", "RED_JOKER")) == 23
    assert mask_points(C.mask_of(C.CARD[x] for x in ("AH", "10H", "9C", "RED_JOKER"))) == 23
    assert all(VALUE[C.CARD[x]] == 0 for x in C.SPECIALS)


# --- bidding E4, E5, G7, G8 --------------------------------------------------------------------

def test_E4_bidding_four_players():
    g = atut.new_game("cesarz", players=4, seed=1, dealer=0)
    assert g.phase == "bid" and g.view(None)["seats"][1]["bid"] == 100   # G7: automatic
    assert g.to_move == 2
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "bid", "value": 130})               # G8: exactly +10
    assert g.legal_actions() == [{"type": "bid", "value": 110}, {"type": "pass"}]
    g.apply({"type": "bid", "value": 110})
    assert g.to_move == 3
    g.apply({"type": "pass"})
    assert g.to_move == 1
    g.apply({"type": "bid", "value": 120})
    assert g.to_move == 2
    g.apply({"type": "pass"})
    assert g.phase == "give" and g.declarer == 1 and g.contract == 120
    assert g.view(None)["contract"] == 120 and g.view(None)["declarer"] == 1


def test_E5_dealer_opens_and_wins_when_all_pass():
    g = atut.new_game("cesarz", players=3, seed=1, dealer=2)
    assert g.opener == 2 and g.to_move == 0
    g.apply({"type": "pass"})
    assert g.to_move == 1
    g.apply({"type": "pass"})
    assert g.declarer == 2 and g.contract == 100 and g.to_move == 2


def test_G8_pass_is_final_and_bidding_goes_round():
    g = atut.new_game("cesarz", players=5, seed=1, dealer=4)   # opener 0; active 0..3
    g.apply({"type": "bid", "value": 110})                     # seat 1
    g.apply({"type": "pass"})                                  # seat 2
    g.apply({"type": "bid", "value": 120})                     # seat 3
    assert g.to_move == 0
    g.apply({"type": "bid", "value": 130})                     # seat 0
    assert g.to_move == 1                                      # seat 2 has passed: skipped
    g.apply({"type": "pass"})
    assert g.to_move == 3
    g.apply({"type": "pass"})
    assert g.declarer == 0 and g.contract == 130


def test_G8_bid_cap():
    g = atut.new_game("cesarz", players=3, seed=1, dealer=0)
    g.high = MAX_BID - 10
    assert {"type": "bid", "value": MAX_BID} in g.legal_actions()
    g.apply({"type": "bid", "value": MAX_BID})
    assert g.legal_actions() == [{"type": "pass"}]
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "bid", "value": MAX_BID + 10})


# --- musik E6, G9, G10 ----------------------------------------------------------------------------

def test_E6_musik_credit_values():
    mc = lambda *cs: musik_credit([C.CARD[c] for c in cs])[0]  # noqa: E731
    assert mc("AS", "RED_JOKER", "EMPEROR") == 210
    assert mc("KC", "QC", "9H") == 60
    assert mc("PRD", "YPS", "AH") == 80
    assert mc("PRD", "YPS", "YPH") == 45
    assert mc("KH", "QH", "PRC", "YPD") == 135
    assert mc("9H", "JS", "YPD") == 0


@pytest.mark.parametrize("n,musik,credit", [(4, ["AS", "RED_JOKER", "EMPEROR"], 210),
                                             (4, ["PRD", "YPS", "YPH"], 45),
                                             (5, ["KH", "QH", "PRC", "YPD"], 135),
                                             (3, ["AS", "RED_JOKER", "EMPEROR"], 0)])
def test_E6_G9_G10_musik_revealed_and_dealer_credited(n, musik, credit):
    g = new(n, 0, {}, musik=musik)
    v = g.view(None)
    assert {"id": "musik", "count": len(musik)} in v["piles"]  # G9: face down while bidding
    assert not set(musik) & cards_in(v)
    while g.phase == "bid":
        g.apply({"type": "pass"})
    v = g.view(None)
    assert {"id": "musik", "cards": musik} in v["piles"]       # §5.1: shown to all
    assert g.scores == ([credit] + [0] * (n - 1) if n >= 4 else [0] * n)
    if n >= 4:
        summary = {s["key"]: s for s in v["summary"]}
        assert summary["musik_credit"]["value"] == credit
        assert summary["musik_credit"]["seat"] == 0
        assert events(g, "musik_credit")[0]["value"] == credit
        assert v["seats"][0]["points"] == credit
    d = g.declarer
    assert set(musik) <= set(g.view(d)["hand"])                # §5.3


# --- giving G11 --------------------------------------------------------------------------------

def test_G11_declarer_gives_one_card_to_each_clockwise_from_his_left():
    g = atut.new_game("cesarz", players=5, seed=3, dealer=1)   # active 2, 3, 4, 0; opener 2
    g.apply({"type": "pass"})                                  # 3
    g.apply({"type": "bid", "value": 110})                     # 4
    g.apply({"type": "pass"})                                  # 0
    g.apply({"type": "pass"})                                  # 2
    assert g.declarer == 4 and g.phase == "give" and g.to_move == 4
    hand = g.view(4)["hand"]
    assert len(hand) == 12
    legal = g.legal_actions()
    assert legal == [{"type": "give", "card": c, "to": 0} for c in hand]   # any card, seat 0 first
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "give", "card": hand[0], "to": 2})    # not his turn to be served
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "give", "card": hand[0], "to": 1})    # the sitting-out dealer
    targets = []
    while g.phase == "give":
        a = g.legal_actions()[-1]
        targets.append(a["to"])
        g.apply(a)
    assert targets == [0, 2, 3]
    assert [s["cards"] for s in g.view(None)["seats"]] == [9, 0, 9, 9, 9]
    assert g.phase == "play" and g.to_move == 4                # §6.1: declarer leads


def test_G11_given_card_seen_only_by_giver_and_recipient():
    g = new(3, 0, {0: ["EMPEROR", "9C"]}, musik=["AS", "KS", "QS"])
    to_play(g, gives=["EMPEROR", "9C"])                        # the emperor may be given
    assert "EMPEROR" in g.view(1)["hand"] and "9C" in g.view(2)["hand"]
    for seat, sees in ((0, {"EMPEROR", "9C"}), (1, {"EMPEROR"}), (2, {"9C"}), (None, set())):
        v = g.view(seat)
        text = json.dumps(v)
        for c in ("EMPEROR", "9C"):
            assert (f'"{c}"' in text) == (c in sees), (seat, c)
    gives = [e for e in g.events if e["type"] == "action" and e["action"]["type"] == "give"]
    assert [e["visible_to"] for e in gives] == [[0, 1], [0, 2]]
    assert [e["to"] for e in events(g, "gave")] == [1, 2]     # public: that a card was given


# --- tricks E11-E16 -----------------------------------------------------------------------------

def test_E11_joker_companion_counts_as_the_obligatory_suit():
    g = to_play(new(3, 0, {0: ["KC"], 1: ["BLACK_JOKER", "AS"], 2: ["10C"]},
                    musik=["9H", "9D", "JH"]), gives=["9H", "9D"])
    play(g, "KC")
    play(g, "BLACK_JOKER", companion="AS")
    v = g.view(None)
    assert v["trick"][1] == {"seat": 1, "card": "BLACK_JOKER", "companion": "AS",
                             "counts_as": "C"}
    play(g, "10C")
    t = events(g, "trick")[-1]
    assert t["winner"] == 1 and t["points"] == 29
    assert sorted(t["cards"]) == sorted(["KC", "BLACK_JOKER", "AS", "10C"])
    assert g.card_points[1] == 29 and g.to_move == 1


E12_HANDS = {1: ["10H", "AS", "KS", "QS", "AC", "KC", "QC", "10C"],
             2: ["AH", "PRS", "JS", "YPS", "10S", "PRC", "JC", "YPC"],
             3: ["9D", "AD", "10D", "KD", "QD", "PRD", "JD", "YPD"],
             4: ["9S", "KH", "QH", "PRH", "JH", "YPH", "9H", "9C"]}


def test_E12_trump_on_a_non_trump_lead_releases_the_rest():
    g = to_play(new(5, 0, E12_HANDS, musik=["EMPEROR", *JOKERS_CODES]),
                gives=JOKERS_CODES)
    g.trump = C.DIAMONDS                                       # as after a KD+QD meld
    play(g, "10H")
    assert legal_cards(g) == {"AH"} | set(JOKERS_CODES[:1])    # P2 must follow hearts
    play(g, "AH")
    play(g, "9D")                                              # P3: no hearts; a trump
    assert g.released and events(g, "no_follow")[-1] == {"type": "no_follow", "seat": 3,
                                                         "suit": "H"}
    assert "9S" in legal_cards(g) and "KH" in legal_cards(g)   # P4 holds hearts, released
    play(g, "9S")
    assert events(g, "trick")[-1]["winner"] == 3
    assert [e["seat"] for e in events(g, "no_follow")] == [3]  # a released 9S is no refusal


JOKERS_CODES = [C.CODES[j] for j in JOKERS]


E13_HANDS = {0: ["9S", "AC", "10C", "KC", "QC", "PRC", "JC", "YPC", "9C", "AH", "10H"],
             1: ["10S", "AD", "10D", "KD", "QD", "PRD", "JD", "YPD", "9D", "KH", "QH"],
             2: ["AS", "KS", "QS", "PRS", "JS", "YPS", "PRH", "JH", "YPH", "9H", "EMPEROR"]}


def test_E13_no_release_when_trumps_are_led():
    g = to_play(new(3, 0, E13_HANDS, musik=JOKERS_CODES), gives=JOKERS_CODES[:2])
    g.trump = C.SPADES                                         # as after a KS+QS meld
    play(g, "9S")
    play(g, "10S")
    assert not g.released
    assert legal_cards(g) == {"AS", "KS", "QS", "PRS", "JS", "YPS", "EMPEROR", "BLACK_JOKER"}


def test_E14_equal_ranks_the_earlier_card_wins():
    g = to_play(new(3, 0, {0: ["AC"], 1: ["BLUE_JOKER", "AH"], 2: ["9D"]},
                    musik=["9H", "JH", "YPH"]), gives=["9H", "JH"])
    play(g, "AC")
    play(g, "BLUE_JOKER", companion="AH")
    g.apply(next(a for a in g.legal_actions() if "companion" not in a))
    assert events(g, "trick")[-1]["winner"] == 0


E15_HANDS = {0: ["KH", "QH", "QS", "KS", "AC", "10C", "KC", "QC", "PRC", "JC", "YPC"],
             1: ["9H", "10H", "AD", "10D", "KD", "QD", "PRD", "JD", "YPD", "9D", "9C"],
             2: ["AH", "9S", "AS", "10S", "PRS", "JS", "YPS", "PRH", "JH", "YPH", "EMPEROR"]}


def test_E15_trump_changes_with_each_first_kind_meld():
    g = to_play(new(3, 0, E15_HANDS, musik=JOKERS_CODES), gives=JOKERS_CODES[:2])
    assert g.view(None)["trump"] is None                       # G16
    play(g, "KH", meld="QH")
    assert g.view(None)["trump"] == "H" and g.meld_points[0] == 100
    assert g.view(1)["melds"] == [{"seat": 0, "cards": ["KH", "QH"], "value": 100, "kind": 1}]
    play(g, "9H")
    play(g, "AH")
    assert events(g, "trick")[-1]["winner"] == 2
    play(g, "9S")
    assert {"type": "play", "card": "QS", "meld": "KS"} in g.legal_actions()
    play(g, "QS", meld="KS")                                   # QS beats 9S
    assert g.view(None)["trump"] == "S" and g.meld_points[0] == 140
    play(g, "10H")                                             # no spades; hearts no longer trump
    assert events(g, "trick")[-1]["winner"] == 0
    assert events(g, "trump")[-1] == {"type": "trump", "suit": "S", "seat": 0}


def test_E16_a_meld_only_when_beating_or_leading():
    g = to_play(new(3, 0, {0: ["AH"], 1: ["KH", "QH"], 2: ["9H"]}, musik=["9C", "JC", "YPC"]),
                gives=["9C", "JC"])
    play(g, "AH")
    assert {"type": "play", "card": "KH"} in g.legal_actions()
    assert {"type": "play", "card": "KH", "meld": "QH"} not in g.legal_actions()
    with pytest.raises(atut.IllegalAction):
        play(g, "KH", meld="QH")
    play(g, "KH")
    assert g.meld_points[1] == 0 and g.trump == -1


# --- emperor E17-E19, G14 ------------------------------------------------------------------------

E17_HANDS = {1: ["QH", "AS", "10S", "KS", "QS", "PRS", "JS", "YPS"],
             2: ["AH", "AC", "10C", "KC", "QC", "PRC", "JC", "YPC"],
             3: ["EMPEROR", "9S", "AD", "10D", "QD", "PRD", "JD", "YPD"],
             4: ["KD", "9H", "10H", "KH", "PRH", "JH", "YPH", "9C"]}


def test_E17_emperor_interrupts_the_trick():
    g = to_play(new(5, 0, E17_HANDS, musik=["9D", *JOKERS_CODES]), gives=JOKERS_CODES)
    play(g, "QH")
    play(g, "AH")
    play(g, "EMPEROR", companion="9S")
    e = events(g, "interrupted")[-1]
    assert e["winner"] == 2 and sorted(e["cards"]) == ["AH", "QH"] and e["points"] == 18
    assert g.card_points[2] == 18
    v = g.view(4)
    assert v["emperor_trick"] and v["trick"] == [{"seat": 3, "card": "EMPEROR", "companion": "9S"}]
    assert v["last_trick"]["kind"] == "interrupted" and v["last_trick"]["winner"] == 2
    assert g.to_move == 4 and "KD" in legal_cards(g) and "9H" in legal_cards(g)   # no duty
    play(g, "KD")
    t = events(g, "trick")[-1]
    assert t["winner"] == 3 and t["points"] == 8 and t["emperor"]
    assert sorted(t["cards"]) == ["9S", "EMPEROR", "KD"]
    assert g.card_points[3] == 8 and g.to_move == 3 and g.trick == []


E18_HANDS = {0: ["10C", "AS", "10S", "KS", "QS", "JS", "YPS", "9S", "AH", "10H", "KH"],
             1: ["KC", "AC", "QC", "PRC", "JC", "YPC", "9C", "AD", "10D", "KD", "QD"],
             2: ["EMPEROR", "YPH", "PRS", "PRD", "JD", "YPD", "9D", "QH", "PRH", "JH", "9H"]}


def test_E18_emperor_by_the_last_player_with_a_meld():
    g = to_play(new(3, 0, E18_HANDS, musik=JOKERS_CODES), gives=JOKERS_CODES[:2])
    play(g, "10C")
    play(g, "KC")
    legal = g.legal_actions()
    assert {"type": "play", "card": "EMPEROR", "companion": "YPH", "meld": "PRS"} in legal
    assert {"type": "play", "card": "EMPEROR", "companion": "YPH", "meld": "PRH"} not in legal
    assert {"type": "play", "card": "EMPEROR", "companion": "BLACK_JOKER"} not in legal
    play(g, "EMPEROR", companion="YPH", meld="PRS")
    assert g.meld_points[2] == 35 and "PRS" in g.view(2)["hand"]
    assert g.card_points[0] == 17
    t = events(g, "trick")[-1]
    assert t["winner"] == 2 and sorted(t["cards"]) == ["EMPEROR", "YPH"] and t["points"] == 2
    assert g.card_points[2] == 2 and g.to_move == 2 and g.trump == -1   # 2nd kind: no trump


def test_E19_emperor_led():
    g = to_play(new(3, 0, {0: ["EMPEROR", "AD"], 1: ["KD", "9S"], 2: ["QD"]},
                    musik=JOKERS_CODES), gives=JOKERS_CODES[:2])
    play(g, "EMPEROR", companion="AD")
    assert events(g, "interrupted") == []
    assert "9S" in legal_cards(g)                              # any card
    play(g, "9S")
    play(g, "QD")
    t = events(g, "trick")[-1]
    assert t["winner"] == 0 and sorted(t["cards"]) == ["9S", "AD", "EMPEROR", "QD"]
    assert g.to_move == 0


def test_G14_no_meld_by_the_others_in_an_emperor_trick():
    g = to_play(new(3, 0, {0: ["EMPEROR", "9D"], 1: ["KH", "QH"], 2: ["KS", "QS"]},
                    musik=JOKERS_CODES), gives=JOKERS_CODES[:2])
    play(g, "EMPEROR", companion="9D")
    assert all("meld" not in a for a in g.legal_actions())


def test_G14_G15_emperor_as_the_last_card_has_nothing_added():
    g = to_play(new(3, 0, {}, musik=JOKERS_CODES), gives=JOKERS_CODES[:2])
    g.hands[1] = C.mask_of([C.EMPEROR, C.CARD["RED_JOKER"]])
    g.hands[0] = C.mask_of([C.CARD["9H"]])
    play(g, "9H")
    assert g.legal_actions() == [{"type": "play", "card": "RED_JOKER"},
                                 {"type": "play", "card": "EMPEROR"}]


# --- jokers G12, G13 -----------------------------------------------------------------------------

def test_G12_G13_joker_and_emperor_any_time_companion_any_suit():
    g = to_play(new(3, 0, {0: ["AH"], 1: ["9H", "RED_JOKER", "EMPEROR", "KS"], 2: []},
                    musik=["9C", "JC", "YPC"]), gives=["9C", "JC"])
    play(g, "AH")
    legal = g.legal_actions()
    assert {"type": "play", "card": "RED_JOKER", "companion": "KS"} in legal   # off-suit
    assert {"type": "play", "card": "EMPEROR", "companion": "KS"} in legal
    assert {"type": "play", "card": "RED_JOKER"} not in legal  # bare only without suited cards
    assert {"type": "play", "card": "KS"} not in legal         # but KS alone must follow
    assert not any(a.get("companion") in ("EMPEROR", "RED_JOKER") for a in legal)
    assert not any("meld" in a for a in legal if a["card"] == "RED_JOKER")     # G13


def test_G13_trump_companion_on_a_non_trump_lead_is_no_trump():
    g = to_play(new(3, 0, {0: ["9C"], 1: ["RED_JOKER", "AH"], 2: ["10C"]},
                    musik=["9D", "JD", "YPD"]), gives=["9D", "JD"])
    g.trump = C.HEARTS
    play(g, "9C")
    play(g, "RED_JOKER", companion="AH")                       # counts as AC, not a trump
    assert not g.released
    play(g, "10C")
    assert events(g, "trick")[-1]["winner"] == 1               # AC-as-clubs beats 10C


def test_G13_bare_joker_lead_and_the_leader_wins_without_suited_cards():
    g = to_play(new(3, 0, {}, musik=JOKERS_CODES), gives=JOKERS_CODES[:2])
    g.hands[0] = C.mask_of([C.CARD["BLUE_JOKER"]])             # drive the state: bare jokers
    g.hands[1] = C.mask_of([C.CARD["RED_JOKER"], C.CARD["9S"]])
    g.hands[2] = C.mask_of([C.CARD["9H"], C.CARD["AH"]])
    assert g.legal_actions() == [{"type": "play", "card": "BLUE_JOKER"}]
    play(g, "BLUE_JOKER")
    play(g, "RED_JOKER", companion="9S")                       # the first suited card: spades
    assert g.led == C.SPADES
    assert legal_cards(g) == {"9H", "AH"}                      # no spades: free
    play(g, "AH")
    assert events(g, "trick")[-1]["winner"] == 1
    # a trick with no suited card at all goes to its leader
    g2 = to_play(new(3, 0, {}, musik=JOKERS_CODES), gives=JOKERS_CODES[:2])
    g2.hands = [C.mask_of([C.CARD["BLUE_JOKER"]]), C.mask_of([C.CARD["RED_JOKER"]]),
                C.mask_of([C.CARD["BLACK_JOKER"]])]
    play(g2, "BLUE_JOKER")
    play(g2, "RED_JOKER")
    play(g2, "BLACK_JOKER")
    assert events(g2, "trick")[-1]["winner"] == 0


# --- uneven hands G15 ----------------------------------------------------------------------------

def test_G15_empty_hands_are_skipped_and_the_lead_passes():
    g = to_play(new(3, 0, {}, musik=JOKERS_CODES), gives=JOKERS_CODES[:2])
    g.hands = [C.mask_of([C.CARD["AH"], C.CARD["9S"]]), 0,
               C.mask_of([C.CARD["9H"], C.CARD["RED_JOKER"], C.CARD["AS"]])]
    play(g, "AH")
    assert g.to_move == 2                                      # seat 1 has no cards
    play(g, "9H")
    assert events(g, "trick")[-1]["winner"] == 0 and g.to_move == 0
    play(g, "9S")
    play(g, "RED_JOKER", companion="AS")
    assert events(g, "trick")[-1]["winner"] == 2
    assert g.deal_no == 2                                       # all hands empty: deal over


# --- melds G16, G17 ------------------------------------------------------------------------------

def test_G17_meld_on_the_lead_and_second_kind_partners():
    g = to_play(new(3, 0, {0: ["PRS", "YPH", "YPD", "YPS", "KC", "QC"]},
                    musik=["9H", "9D", "9C"]), gives=["9H", "9D"])
    legal = g.legal_actions()
    assert {"type": "play", "card": "PRS", "meld": "YPH"} in legal
    assert {"type": "play", "card": "PRS", "meld": "YPD"} in legal
    assert {"type": "play", "card": "PRS", "meld": "YPS"} not in legal
    assert {"type": "play", "card": "YPH", "meld": "PRS"} in legal
    assert {"type": "play", "card": "QC", "meld": "KC"} in legal
    play(g, "PRS", meld="YPH")
    assert g.meld_points[0] == 35 and g.trump == -1            # G16: 2nd kind keeps trump
    assert g.view(2)["melds"][0]["cards"] == ["PRS", "YPH"]    # partner shown to everybody


def test_G17_beat_judged_before_the_meld_and_trick_after_it():
    # trump D; clubs led; a club K with its Q in hand beats and melds, so clubs become trump
    g = to_play(new(3, 0, {0: ["9C", "JD"], 1: ["KC", "QC", "9D"], 2: ["AD", "10C"]},
                       musik=["9H", "JH", "YPH"]), gives=["9H", "JH"])
    g.trump = C.DIAMONDS
    play(g, "9C")
    play(g, "KC", meld="QC")
    assert g.trump == C.CLUBS
    play(g, "10C")                                              # seat 2 must follow clubs
    assert events(g, "trick")[-1]["winner"] == 2                # 10C > KC, both trump now


# --- scoring E7-E10, G21-G24 ---------------------------------------------------------------------

def finish(g, declarer, contract, cards, melds=None):
    """Drive the state to the end of a deal with the given points and score it."""
    g.declarer, g.contract = declarer, contract
    g.card_points = list(cards)
    g.meld_points = list(melds or [0] * g.n)
    g._end_deal()
    return g.previous_deal


def test_E7_failed_contract_costs_the_shortfall():
    g = atut.new_game("cesarz", players=3, seed=1)
    r = finish(g, 0, 120, [115, 40, 25])
    assert r["changes"] == [-5, 40, 25] and not r["made"] and g.scores == [-5, 40, 25]


def test_E8_melds_count_towards_the_contract():
    g = atut.new_game("cesarz", players=3, seed=1)
    r = finish(g, 1, 120, [30, 100, 50], [0, 40, 0])
    assert r["changes"] == [30, 140, 50] and r["made"]


def test_E9_exact_and_far_short():
    g = atut.new_game("cesarz", players=3, seed=1)
    assert finish(g, 2, 150, [60, 60, 60])["changes"][2] == -90
    assert finish(g, 0, 100, [100, 40, 40])["changes"][0] == 100
    assert g.scores == [100 + 60, 60 + 40, -90 + 40]
    assert g.view(None)["score_sheet"]["rows"][0] == [1, 2, 150, 60, 60, -90]


def test_E10_non_declarer_scores_cards_and_melds():
    g = atut.new_game("cesarz", players=4, seed=1, dealer=0)
    r = finish(g, 1, 100, [0, 100, 47, 33], [0, 0, 35, 0])
    assert r["changes"][2] == 82 and r["changes"][0] == 0     # sitting out: musik credit only


def test_E20_end_of_game():
    g = atut.new_game("cesarz", players=3, seed=1)
    g.scores = [2010, 2040, 0]
    finish(g, 2, 0, [0, 0, 0])
    assert g.is_over and g.winner == 1 and g.phase == "over"
    g = atut.new_game("cesarz", players=3, seed=1)
    g.scores = [2000, 1990, 500]
    finish(g, 2, 0, [0, 0, 0])
    assert g.winner == 0 and g.view(None)["winner"] == 0
    g = atut.new_game("cesarz", players=3, seed=1)
    g.scores = [2050, 2050, 10]
    finish(g, 2, 0, [0, 0, 0])
    assert not g.is_over and g.winner is None and g.deal_no == 2 and g.phase == "bid"


# --- random play: the invariants (atut.invariants) ------------------------------------------------

def play_deals(n, seed, deals=1, views=False):
    g = atut.new_game("cesarz", players=n, seed=seed)
    rng = random.Random(seed)
    tricks = 0
    while not g.is_over and g.deal_no <= deals:
        if views:
            for s in range(n):
                assert json.loads(json.dumps(g.view(s)))["to_move"] == g.to_move
        if g.phase == "play":
            assert g.hands[g.to_move], "G15: a player without cards is never to move"
        g.apply(rng.choice(g.legal_actions()))
        g.check_invariants()
    for e in g.events:
        if e["type"] in ("trick", "interrupted"):
            assert e["winner"] in range(n)
            tricks += 1
        if e["type"] == "deal_over":
            assert sum(e["card_points"]) == 180
    return g, tricks


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_deals_keep_the_invariants(n):
    """1000 seeded games per player count, each played through its first deal (36 cards
    accounted for after every action, 180 card points per deal, every trick a winner)."""
    total = 0
    for seed in range(1000):
        g, t = play_deals(n, seed)
        total += t
        assert g.deal_no == 2 or g.is_over
        assert len(events(g, "deal_over")) == 1
    assert total > 1000 * (36 // n - 1) * 0.5


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_full_games_to_2000(n):
    for seed in range(6):
        g, _ = play_deals(n, seed, deals=10_000)
        assert g.is_over and g.scores[g.winner] >= 2000
        assert g.scores.count(max(g.scores)) == 1
        sheet = g.view(None)["score_sheet"]["rows"]
        assert [sum(r[3 + s] for r in sheet) for s in range(n)] == g.scores


def test_random_play_sees_jokers_emperor_and_melds():
    kinds = set()
    for seed in range(200):
        g, _ = play_deals(3, seed)
        for e in g.events:
            if e["type"] == "action" and e["action"]["type"] == "play":
                a = e["action"]
                kinds.add("emperor" if a["card"] == "EMPEROR" else
                          "joker" if "JOKER" in a["card"] else "card")
                if "meld" in a:
                    kinds.add("meld")
            kinds.add(e["type"])
    assert {"emperor", "joker", "meld", "interrupted", "no_follow", "trump"} <= kinds


# --- bad input, save/load -------------------------------------------------------------------------

def test_bad_input_changes_nothing():
    g = to_play(new(3, 0, {0: ["AH", "RED_JOKER", "KH", "QH"], 1: ["9H"], 2: ["9C"]},
                    musik=["9D", "JD", "YPD"]), gives=["9D", "JD"])
    before = g.to_json(), json.dumps(g.view(0)), list(g.events)
    for bad in ({"type": "play", "card": "9H"},                  # not held
                {"type": "play", "card": "RED_JOKER"},           # joker needs a companion
                {"type": "play", "card": "RED_JOKER", "companion": "EMPEROR"},
                {"type": "play", "card": "RED_JOKER", "companion": "9H"},
                {"type": "play", "card": "AH", "meld": "KH"},
                {"type": "play", "card": "KH", "meld": "QS"},
                {"type": "play", "card": "KH", "meld": None},
                {"type": "play", "card": "AH", "companion": "KH"},
                {"type": "bid", "value": 110}, {"type": "pass"},
                {"type": "give", "card": "AH", "to": 1}, {"type": "play", "card": 5}, [], "AH"):
        with pytest.raises(atut.IllegalAction):
            g.apply(bad)
    assert before == (g.to_json(), json.dumps(g.view(0)), g.events)
    with pytest.raises(ValueError):
        atut.new_game("cesarz", players=3, options={"handout": "any"})
    with pytest.raises(ValueError):
        atut.new_game("cesarz", players=3, deck=C.codes(DECK)[:-1])
    with pytest.raises(ValueError):
        atut.new_game("cesarz", players=3, deck=C.codes(DECK)[:-1] + ["AS"])
    with pytest.raises(ValueError):
        g.view(3)


def test_illegal_action_message_is_clear():
    g = atut.new_game("cesarz", players=3, seed=1, dealer=0)
    with pytest.raises(atut.IllegalAction, match=r": G8: the only bid now is 110, exactly 10 "):
        g.apply({"type": "bid", "value": 130})
    with pytest.raises(atut.IllegalAction, match="may only bid / pass"):
        g.apply({"type": "play", "card": "AH"})


def test_save_and_load_mid_game():
    g = atut.new_game("cesarz", players=5, seed=8)
    rng = random.Random(8)
    for _ in range(70):
        g.apply(rng.choice(g.legal_actions()))
    text = g.to_json()
    h = atut.load_game(text)
    assert h.events == g.events and h.scores == g.scores
    for s in [None, 0, 1, 2, 3, 4]:
        assert h.view(s) == g.view(s)
    for _ in range(200):
        if g.is_over:
            break
        a = rng.choice(g.legal_actions())
        g.apply(a)
        h.apply(a)
    assert h.events == g.events and h.to_json() == g.to_json()


def test_clone_is_a_correct_copy():
    g = atut.new_game("cesarz", players=4, seed=8)
    rng = random.Random(2)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    snap = g.to_json(), json.dumps(g.view(None)), g.hands[:]
    c = g.clone()
    while not c.is_over and c.deal_no < 4:
        c.apply(rng.choice(c.legal_actions()))
    assert snap == (g.to_json(), json.dumps(g.view(None)), g.hands)


# --- views G27 ----------------------------------------------------------------------------------

def known_to(g, seat):
    """Cards ``seat`` may know now: his hand, everything played, the revealed musik, meld
    cards shown, and cards he gave or was given."""
    k = 0
    if seat is not None:
        k |= g.hands[seat]
    for m in g.captured:
        k |= m
    for e in g.trick:
        k |= 1 << e[1]
        if e[2] >= 0:
            k |= 1 << e[2]
    if g.musik_revealed:
        k |= C.mask_of(g.musik)
    for _, c, p, _v in g.melds:
        k |= 1 << c | 1 << p
    for giver, to, c in g.given:
        if seat in (giver, to):
            k |= 1 << c
    return k


def test_G27_views_leak_no_hidden_card():
    for n in (2, 3, 4, 5):
        for seed in range(8 if n != 5 else 10):
            g = atut.new_game("cesarz", players=n, seed=seed)
            rng = random.Random(seed)
            while not g.is_over and g.deal_no <= 2:
                for seat in [None, *range(n)]:
                    v = g.view(seat)
                    text = json.dumps(v)
                    hidden = ~known_to(g, seat) & C.mask_of(DECK)
                    for c in C.cards_of(hidden):
                        assert f'"{C.CODES[c]}"' not in text, (n, seed, seat, C.CODES[c])
                    if seat is not None and seat == g.to_move:
                        assert v["legal_actions"] == g.legal_actions()
                    else:
                        assert "legal_actions" not in v
                g.apply(rng.choice(g.legal_actions()))


def test_G27_public_view_contents():
    g = to_play(new(4, 0, {}, musik=["AS", "KC", "QC"]), gives=None)
    v = g.view(None)
    assert v["hand"] == [] and "legal_actions" not in v
    assert v["sitting_out"] == 0 and v["seats"][0]["sitting_out"]
    assert v["seats"][1]["badges"] == ["declarer"] and v["seats"][1]["bid"] == 100
    assert v["seats"][2]["bid"] == "pass"
    keys = [s["key"] for s in v["summary"]]
    assert {"sitting_out", "contract", "musik_credit", "no_trump"} <= set(keys)
    assert v["target"] == 2000 and v["contract"] == 100 and v["declarer"] == 1
    assert v["score_sheet"]["columns"] == ["deal", "declarer", "contract", 0, 1, 2, 3]
    mine = g.view(g.to_move)
    assert mine["legal_actions"] == g.legal_actions() and len(mine["hand"]) == 12


def test_G25_refusal_to_follow_is_logged_publicly():
    g = to_play(new(3, 0, {0: ["AH"], 1: ["9S"], 2: ["9H"]}, musik=["9D", "JD", "YPD"]),
                gives=["9D", "JD"])
    g.hands[1] = C.mask_of([C.CARD["9S"], C.CARD["9D"]])
    play(g, "AH")
    play(g, "9S")
    assert {"type": "no_follow", "seat": 1, "suit": "H"} in g.view(None)["log"]


def test_G17_an_equal_card_does_not_beat_so_no_meld():
    g = to_play(new(3, 0, {0: ["9C"], 1: ["RED_JOKER", "KD"], 2: ["KC", "QC"]},
                    musik=["9H", "JH", "YPH"]), gives=["9H", "JH"])
    play(g, "9C")
    play(g, "RED_JOKER", companion="KD")                       # counts as a club king
    legal = g.legal_actions()
    assert {"type": "play", "card": "KC"} in legal
    assert {"type": "play", "card": "KC", "meld": "QC"} not in legal
    assert {"type": "play", "card": "QC", "meld": "KC"} not in legal
    play(g, "KC")
    assert events(g, "trick")[-1]["winner"] == 1               # the earlier king wins


def test_page_words_cover_every_event_summary_pile_phase_and_badge():
    import pathlib
    # the page looks a key up in the game's words, then in the shared core words
    en = pl = ""
    for name in ("cesarz.js", "core.js"):
        text = (pathlib.Path(__file__).parent.parent / "web" / "i18n" / name).read_text("utf-8")
        e, p = text.split("\n  pl: {", 1)
        en, pl = en + e, pl + p
    needed = set()
    for n in (3, 4):
        for seed in range(15):
            g = atut.new_game("cesarz", players=n, seed=seed)
            rng = random.Random(seed)
            while not g.is_over and g.deal_no <= 2:
                for seat in (None, g.to_move):
                    v = g.view(seat)
                    needed |= {"phase." + v["phase"]}
                    needed |= {"event." + e["type"] for e in v["log"] if e["type"] != "action"}
                    needed |= {"event.action." + e["action"]["type"] for e in v["log"]
                               if e["type"] == "action"}
                    needed |= {"summary." + s["key"] for s in v["summary"]}
                    needed |= {"pile." + p["id"] for p in v["piles"]}
                    needed |= {"badge." + b for s in v["seats"] for b in s["badges"]}
                    needed |= {"column." + c for c in v["score_sheet"]["columns"]
                               if isinstance(c, str)}
                    needed |= {"counts_as." + e["counts_as"] for e in v["trick"]
                               if "counts_as" in e}
                    for e in v["log"]:
                        if e["type"] == "deal_over":
                            needed.add("result." + e["result"])
                g.apply(rng.choice(g.legal_actions()))
    assert len(needed) > 40
    for key in sorted(needed):
        assert f'"{key}"' in en, f"no English words for {key}"
        assert f'"{key}"' in pl, f"no Polish words for {key}"


def test_G14_summary_says_where_the_interrupted_cards_went():
    g = to_play(new(5, 0, E17_HANDS, musik=["9D", *JOKERS_CODES]), gives=JOKERS_CODES)
    play(g, "QH")
    play(g, "AH")
    play(g, "EMPEROR", companion="9S")
    summary = g.view(4)["summary"]
    assert {"key": "emperor_trick", "seat": 3} in summary
    assert {"key": "interrupted", "winner": 2, "cards": ["QH", "AH"]} in summary
