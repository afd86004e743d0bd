"""Euchre: every worked example of docs/rules/euchre.md (E1-E10), rule tests citing the gaps
(G1-G17), random play with its invariants, bad input, save/load and view leaks."""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut import cards as C
from atut.games import euchre as E

ALL = [C.CODES[c] for c in E.DECK]


def make_deck(dealer, hands, upcard, kitty=()):
    """A deck in the canonical deal order (G3) giving ``hands`` ({seat: 5 codes}); seats not
    named, the kitty's unnamed cards get the remaining cards in a fixed order."""
    used = set(upcard.split()) | set(kitty)
    for cs in hands.values():
        used |= set(cs)
    rest = [c for c in ALL if c not in used]
    full = {}
    for k in range(4):
        s = (dealer + 1 + k) % 4
        if s in hands:
            assert len(hands[s]) == 5
            full[s] = list(hands[s])
        else:
            full[s] = [rest.pop(0) for _ in range(5)]
    kit = list(kitty) + [rest.pop(0) for _ in range(3 - len(kitty))]
    assert not rest
    deck = []
    for k in range(4):                       # packets of 3
        deck += full[(dealer + 1 + k) % 4][:3]
    for k in range(4):                       # packets of 2
        deck += full[(dealer + 1 + k) % 4][3:]
    deck += [upcard] + kit
    assert sorted(deck) == sorted(ALL)
    return deck


def new(dealer, hands, upcard, kitty=(), seed=1, **options):
    return atut.new_game("euchre", seed=seed, dealer=dealer,
                         deck=make_deck(dealer, hands, upcard, kitty), options=options or None)


def do(game, *actions):
    for a in actions:
        if isinstance(a, str):
            if a in ("pass", "order_up"):
                a = {"type": a}
            else:
                a = {"type": "play", "card": a}
        game.apply(a)


def legal_cards(game):
    return sorted(a["card"] for a in game.legal_actions() if a["type"] == "play")


def hand(game, seat):
    return sorted(C.codes(C.cards_of(game.hands[seat])))


# --- worked examples ---------------------------------------------------------------------

def test_E1_trump_ranking_hearts():
    H, D = C.HEARTS, C.DIAMONDS
    order = ["JH", "JD", "AH", "KH", "QH", "10H", "9H"]
    powers = [E.POWER[H][C.card(x)] for x in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 7
    trumps = sorted(C.codes(C.cards_of(E.EFF_MASK[H][H])))
    assert trumps == sorted(order)
    diamonds = C.cards_of(E.EFF_MASK[H][D])
    assert sorted(C.codes(diamonds)) == sorted(["AD", "KD", "QD", "10D", "9D"])
    dorder = ["AD", "KD", "QD", "10D", "9D"]
    dp = [E.POWER[H][C.card(x)] for x in dorder]
    assert dp == sorted(dp, reverse=True)
    # every trump beats every plain card in a trick (G13): 9H ruffs AD
    assert E.trick_rank([C.card("AD"), C.card("9H")], H) == 1
    assert E.trick_rank([C.card("AH"), C.card("JD"), C.card("JH")], H) == 2
    assert E.trick_rank([C.card("AH"), C.card("JD")], H) == 1


def _hearts_trump_game(seat1_hand, seat0_hand, seat2_hand=None):
    """Dealer 3, upcard 10H, seat 0 orders up (trump H), dealer discards, with partner."""
    hands = {0: seat0_hand, 1: seat1_hand}
    if seat2_hand:
        hands[2] = seat2_hand
    g = new(3, hands, "10H")
    do(g, "order_up")
    assert g.phase == "discard" and g.to_move == 3
    g.apply(g.legal_actions()[0])
    g.apply({"type": "alone", "value": False})
    assert g.phase == "play" and g.to_move == 0
    return g


def test_E2_left_bower_must_follow_trump():
    g = _hearts_trump_game(["JD", "AD", "KD", "AC", "KS"], ["9H", "AS", "QS", "KC", "QC"])
    do(g, "9H")
    assert g.to_move == 1
    assert legal_cards(g) == ["JD"]                                        # G5, G6
    with pytest.raises(atut.IllegalAction):
        do(g, "AD")


def test_E3_left_bower_is_not_a_diamond():
    g = _hearts_trump_game(["JD", "AC", "KC", "AS", "KS"], ["AD", "9S", "QS", "QC", "10C"],
                           seat2_hand=["9D", "QD", "JC", "10S", "9C"])
    do(g, "AD")
    assert legal_cards(g) == sorted(["JD", "AC", "KC", "AS", "KS"])       # void in diamonds
    do(g, "JD", "9D")
    assert g.to_move == 3
    dealer_cards = legal_cards(g)
    assert "JH" not in hand(g, 3) + hand(g, 2) + hand(g, 0)  # JH elsewhere (kitty or seat 3)
    g.apply({"type": "play", "card": dealer_cards[0]})
    assert g.tricks_won[1] == 1 and g.to_move == 1                          # JD wins


def test_E3_left_bower_loses_only_to_right_bower():
    g = _hearts_trump_game(["JD", "AC", "KC", "AS", "KS"], ["AD", "9S", "QS", "QC", "10C"],
                           seat2_hand=["JH", "QD", "JC", "10S", "9C"])
    do(g, "AD", "JD")
    assert legal_cards(g) == ["QD"]                       # seat 2 holds a diamond: must follow
    g2 = _hearts_trump_game(["JD", "AC", "KC", "AS", "KS"], ["AD", "9S", "QS", "QC", "10C"],
                            seat2_hand=["JH", "KH", "JC", "10S", "9C"])
    do(g2, "AD", "JD", "JH")
    g2.apply({"type": "play", "card": legal_cards(g2)[0]})
    assert g2.tricks_won[2] == 1 and g2.tricks_won[1] == 0


def test_E4_left_bower_of_spades_trumps_a_club_lead():
    # dealer 3, upcard 10S, seat 0 orders up: trump S
    g = new(3, {0: ["AC", "AD", "KD", "QD", "10D"], 1: ["KC", "JS", "AH", "KH", "QH"],
                2: ["9S", "AS", "9D", "JH", "10H"], 3: ["JC", "KS", "QS", "9H", "JD"]}, "10S")
    do(g, "order_up")
    g.apply({"type": "discard", "card": "10S"})
    g.apply({"type": "alone", "value": False})
    do(g, "AC")
    assert legal_cards(g) == ["KC"]              # seat 1 holds a club: no JS (trump)
    do(g, "KC")
    assert "9S" in legal_cards(g)                # seat 2 void in clubs
    do(g, "9S")
    assert "JC" in legal_cards(g)                # seat 3's JC is a spade now: void in clubs
    do(g, "JC")
    assert g.tricks_won == [0, 0, 0, 1] and g.to_move == 3


def test_E4_a_club_holder_may_not_play_the_left_bower():
    g = new(3, {0: ["AC", "AD", "KD", "QD", "10D"], 1: ["KC", "JC", "9S", "KH", "QH"]}, "10S")
    do(g, "order_up")
    g.apply(g.legal_actions()[0])
    g.apply({"type": "alone", "value": False})
    do(g, "AC")
    assert legal_cards(g) == ["KC"]
    for bad in ("JC", "9S"):
        with pytest.raises(atut.IllegalAction):
            do(g, bad)


def test_E5_stick_the_dealer():
    g = new(0, {}, "10S")
    do(g, "pass", "pass", "pass", "pass")
    assert g.phase == "round2" and g.to_move == 1
    assert g.hands[0] == C.mask_of(C.card(x) for x in hand(g, 0)) and len(hand(g, 0)) == 5
    for _seat in (1, 2, 3):
        acts = g.legal_actions()
        assert {"type": "name", "suit": "S"} not in acts
        assert sorted(a["suit"] for a in acts if a["type"] == "name") == ["C", "D", "H"]
        with pytest.raises(atut.IllegalAction):
            g.apply({"type": "name", "suit": "S"})
        do(g, "pass")
    assert g.to_move == 0
    assert sorted(json.dumps(a) for a in g.legal_actions()) == sorted(
        json.dumps({"type": "name", "suit": s}) for s in "HDC")
    with pytest.raises(atut.IllegalAction):
        do(g, "pass")
    g.apply({"type": "name", "suit": "D"})
    assert g.trump == C.DIAMONDS and g.maker == 0
    assert "10S" not in hand(g, 0) and len(hand(g, 0)) == 5     # G9: not picked up
    assert g.phase == "alone" and g.to_move == 0
    assert {"id": "turned_down", "cards": ["10S"]} in g.view(2)["piles"]


def test_E6_order_up_dealer_picks_up_and_discards_unseen():
    g = new(0, {0: ["9C", "10C", "AH", "KS", "9S"]}, "QD")
    do(g, "pass", "order_up")
    assert g.trump == C.DIAMONDS and g.maker == 2 and E.team_of(2) == 0
    assert g.phase == "discard" and g.to_move == 0
    assert "QD" in hand(g, 0) and len(hand(g, 0)) == 6
    assert len(g.legal_actions()) == 6
    g.apply({"type": "discard", "card": "9C"})
    assert "9C" not in hand(g, 0) and len(hand(g, 0)) == 5
    assert g.phase == "alone" and g.to_move == 2
    for seat in (None, 1, 2, 3):
        assert '"9C"' not in json.dumps(g.view(seat))
    v0 = g.view(0)
    assert {"id": "discard", "cards": ["9C"]} in v0["piles"]
    assert {"id": "discard", "count": 1} in g.view(1)["piles"]


def test_E7_scoring_table():
    # (maker tricks, alone, lone defender) -> (0 makers / 1 defenders, points)   G14
    assert E.deal_points(3, False, False) == (0, 1)
    assert E.deal_points(4, False, False) == (0, 1)
    assert E.deal_points(5, False, False) == (0, 2)
    assert E.deal_points(5, True, False) == (0, 4)
    assert E.deal_points(5, True, True) == (0, 4)
    assert E.deal_points(4, True, False) == (0, 1)
    assert E.deal_points(3, True, True) == (0, 1)
    assert E.deal_points(2, False, False) == (1, 2)
    assert E.deal_points(0, False, False) == (1, 2)
    assert E.deal_points(2, True, False) == (1, 2)
    assert E.deal_points(2, True, True) == (1, 4)


def _play_out(g, chooser=None):
    """Play the current deal to its end: each seat plays its first legal card."""
    deal = g.deal_no
    while not g.is_over and g.deal_no == deal:
        acts = g.legal_actions()
        g.apply(chooser(g, acts) if chooser else acts[0])


def test_E7_lone_march_scores_four():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "QH"]}, "10H")
    do(g, "order_up")
    g.apply({"type": "discard", "card": "10H"})
    g.apply({"type": "alone", "value": True})
    assert g.phase == "defend" and g.to_move == 2
    g.apply({"type": "defend_alone", "value": False})
    g.apply({"type": "defend_alone", "value": False})
    _play_out(g)
    assert g.scores == [0, 4, 0, 4] and g.sheet[-1][1:] == (1, 5, 0, 4)


def test_E7_march_with_partner_scores_two_and_euchre_scores_two():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "QH"]}, "10H")
    do(g, "order_up")
    g.apply({"type": "discard", "card": "10H"})
    g.apply({"type": "alone", "value": False})
    _play_out(g)
    assert g.scores == [0, 2, 0, 2]
    g = new(0, {2: ["JH", "JD", "AH", "KH", "QH"]}, "9H")
    do(g, "order_up")                                        # seat 1 orders up, team A holds all
    g.apply({"type": "discard", "card": "9H"})
    g.apply({"type": "alone", "value": False})
    _play_out(g)
    assert g.scores == [2, 0, 2, 0]


def _set_scores(g, a, b):
    g.scores[:] = [a, b, a, b]
    g.sheet += [(0, 0, 3, a, 0), (0, 1, 3, 0, b)]


def test_E8_march_to_ten_wins():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "QH"]}, "10H")
    _set_scores(g, 9, 8)
    do(g, "order_up")
    g.apply({"type": "discard", "card": "10H"})
    g.apply({"type": "alone", "value": False})
    _play_out(g)
    assert g.scores == [9, 10, 9, 10]
    assert g.is_over and g.winner == [1, 3] and g.to_move is None and g.phase == "over"
    assert g.legal_actions() == []
    assert g.view(None)["winner"] == [1, 3]
    g.check_invariants()


def test_E8_euchre_to_ten_wins():
    g = new(0, {2: ["JH", "JD", "AH", "KH", "QH"]}, "9H")
    _set_scores(g, 8, 9)
    do(g, "order_up")                                        # seat 1 (team B) makes
    g.apply({"type": "discard", "card": "9H"})
    g.apply({"type": "alone", "value": False})
    _play_out(g)
    assert g.scores == [10, 9, 10, 9] and g.winner == [0, 2] and g.is_over
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "pass"})


def test_E9_dealers_partner_alone_dealer_discards_then_sits_out():
    g = new(0, {}, "QD")
    do(g, "pass", "order_up")
    assert g.to_move == 0 and g.phase == "discard"              # G11: pickup still happens
    g.apply(g.legal_actions()[0])
    assert g.to_move == 2 and g.phase == "alone"
    g.apply({"type": "alone", "value": True})
    assert g.out == [True, False, False, False]
    assert g.phase == "defend" and g.to_move == 3               # G10: maker's left first
    g.apply({"type": "defend_alone", "value": False})
    assert g.to_move == 1
    g.apply({"type": "defend_alone", "value": False})
    assert g.phase == "play" and g.to_move == 1                 # G12: dealer's left leads
    v = g.view(1)
    assert v["seats"][0]["sitting_out"] and "opponent" in v["seats"][0]["badges"]
    assert v["sitting_out"] == [0]
    seats_played = []
    deal = g.deal_no
    while g.deal_no == deal and not g.is_over:
        seats_played.append(g.to_move)
        g.apply(g.legal_actions()[0])
    assert 0 not in seats_played and len(seats_played) == 15


def test_E10_lone_defender():
    g = new(3, {}, "QD")
    do(g, "pass", "order_up")                                   # seat 0 passes, seat 1 orders
    g.apply(g.legal_actions()[0])                               # dealer 3 discards
    assert g.to_move == 1
    g.apply({"type": "alone", "value": True})
    assert g.out == [False, False, False, True]
    assert g.to_move == 2
    g.apply({"type": "defend_alone", "value": False})
    assert g.to_move == 0
    g.apply({"type": "defend_alone", "value": True})
    assert g.out == [False, False, True, True] and g.lone_defender == 0
    assert g.phase == "play" and g.to_move == 0                 # G12: left of dealer, active
    seats_played = []
    while g.deal_no == 1:
        seats_played.append(g.to_move)
        g.apply(g.legal_actions()[0])
    assert sorted(set(seats_played)) == [0, 1] and len(seats_played) == 10
    last = g.sheet[-1]
    made = last[2]
    team, pts = E.deal_points(made, True, True)
    assert (last[3], last[4]) == ((0, pts) if team == 0 else (pts, 0))


# --- rule tests (G numbers) ---------------------------------------------------------------

def test_G1_four_players_only():
    for n in (2, 3, 5, 4.0, "4", True):
        with pytest.raises(ValueError):
            atut.new_game("euchre", players=n)
    g = atut.new_game("euchre", players=4, seed=3)
    assert g.players == 4 and g.view(0)["teams"] == [[0, 2], [1, 3]]


def test_G2_deal_passes_left_and_first_dealer_from_seed():
    dealers = {atut.new_game("euchre", seed=s).dealer for s in range(30)}
    assert dealers == {0, 1, 2, 3}
    assert atut.new_game("euchre", seed=8).dealer == atut.new_game("euchre", seed=8).dealer
    g = atut.new_game("euchre", seed=4, dealer=2)
    rng = random.Random(0)
    while g.deal_no == 1:
        g.apply(rng.choice(g.legal_actions()))
    assert g.dealer == 3 and g.to_move == 0


def test_G3_deal_pattern():
    deck = list(ALL)
    random.Random(5).shuffle(deck)
    g = atut.new_game("euchre", seed=1, dealer=2, deck=deck)
    # seat 3 (dealer's left) gets d[0:3] and d[12:14]; seat 0 d[3:6] and d[14:16]; ...
    for k, seat in enumerate((3, 0, 1, 2)):
        assert hand(g, seat) == sorted(deck[3 * k:3 * k + 3] + deck[12 + 2 * k:14 + 2 * k])
    assert C.CODES[g.upcard] == deck[20] and g.view(None)["trump_card"] == deck[20]
    assert sorted(C.codes(C.cards_of(g.kitty))) == sorted(deck[21:])
    assert g.to_move == 3 and g.phase == "round1"


def test_G3_bad_deck_rejected():
    for bad in (ALL[:-1], ALL + ["AS"], ALL[:-1] + ["8S"], ALL[:-1] + [ALL[0]], "AS KS",
                None and 1):
        if bad is None:
            continue
        with pytest.raises(ValueError):
            atut.new_game("euchre", deck=bad)


def test_G7_round_one_order_and_dealer_may_accept():
    g = new(1, {}, "9C")
    assert g.to_move == 2
    do(g, "pass", "pass", "pass")
    assert g.to_move == 1 and g.phase == "round1"
    do(g, "order_up")
    assert g.maker == 1 and g.trump == C.CLUBS and g.to_move == 1 and g.phase == "discard"


def test_G8_redeal_variant():
    g = new(0, {}, "10S", redeal=True)
    do(g, *["pass"] * 7)
    assert g.to_move == 0 and {"type": "pass"} in g.legal_actions()
    do(g, "pass")
    assert g.deal_no == 2 and g.dealer == 1 and g.to_move == 2 and g.phase == "round1"
    assert g.scores == [0, 0, 0, 0]
    g.check_invariants()
    assert any(e["type"] == "redeal" for e in g.events)


def test_G8_options_validated():
    for bad in ({"redeal": "yes"}, {"redeal": 1}, {"defend_alone": None}, {"alone": True},
                "redeal"):
        with pytest.raises(ValueError):
            atut.new_game("euchre", options=bad)
    g = atut.new_game("euchre", options={"redeal": True, "defend_alone": False})
    assert g.options == {"redeal": True, "defend_alone": False}
    assert atut.new_game("euchre").options == {"redeal": False, "defend_alone": True}


def test_G9_dealer_may_discard_the_upcard():
    g = new(0, {}, "QD")
    do(g, "pass", "pass", "pass", "order_up")
    assert g.maker == 0
    g.apply({"type": "discard", "card": "QD"})
    assert "QD" not in hand(g, 0) and g.discarded == C.card("QD")
    g.check_invariants()


def test_G10_defend_alone_off():
    g = new(0, {}, "QD", defend_alone=False)
    do(g, "order_up")
    g.apply(g.legal_actions()[0])
    g.apply({"type": "alone", "value": True})
    assert g.phase == "play" and g.to_move == 1 and g.out == [False, False, False, True]


def test_G10_no_defend_alone_without_lone_maker():
    g = new(0, {}, "QD")
    do(g, "order_up")
    g.apply(g.legal_actions()[0])
    assert g.to_move == 1 and [a["type"] for a in g.legal_actions()] == ["alone", "alone"]
    g.apply({"type": "alone", "value": False})
    assert g.phase == "play" and g.to_move == 1 and not any(g.out)


def test_G10_second_defender_declines_too():
    g = new(0, {}, "QD")
    do(g, "pass", "pass", "order_up")                 # seat 3 makes
    g.apply(g.legal_actions()[0])
    g.apply({"type": "alone", "value": True})        # seat 1 sits out
    assert g.to_move == 0                            # maker's left
    g.apply({"type": "defend_alone", "value": False})
    assert g.to_move == 2
    g.apply({"type": "defend_alone", "value": True})
    assert g.out == [True, True, False, False] and g.to_move == 2   # G12: first active after 0


def test_G13_trick_winner_no_trump_played():
    assert E.trick_rank([C.card("9C"), C.card("AC"), C.card("AD"), C.card("KC")], C.HEARTS) == 1


def test_G15_only_one_pair_can_reach_ten():
    g = new(0, {2: ["JH", "JD", "AH", "KH", "QH"]}, "9H")
    _set_scores(g, 9, 9)
    do(g, "order_up")
    g.apply({"type": "discard", "card": "9H"})
    g.apply({"type": "alone", "value": False})
    _play_out(g)
    assert g.scores == [11, 9, 11, 9] and g.winner == [0, 2]


def test_G17_tricks_and_scores_public():
    g = atut.new_game("euchre", seed=9)
    rng = random.Random(9)
    while g.played_tricks() < 2:
        g.apply(rng.choice(g.legal_actions()))
    for s in (None, 0, 1, 2, 3):
        v = g.view(s)
        assert [x["tricks"] for x in v["seats"]] == g.tricks_won
        assert v["scores"] == g.scores and v["team_scores"] == g.scores[:2]


# --- random play --------------------------------------------------------------------------

def test_random_play_invariants():
    """Thousands of seeded games: 24 cards always accounted for, exactly one pair scores per
    deal, scores only grow, the game ends with one pair at 10 or more."""
    outcomes = set()
    for seed in range(2000):
        rng = random.Random(seed)
        opts = {"redeal": seed % 3 == 0, "defend_alone": seed % 4 != 1}
        g = atut.new_game("euchre", seed=seed, options=opts)
        prev = list(g.scores)
        deal = g.deal_no
        steps = 0
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            g.check_invariants()
            steps += 1
            assert steps < 5000
            sc = g.scores
            assert sc[0] >= prev[0] and sc[1] >= prev[1]
            if g.deal_no != deal or g.is_over:
                gained = [sc[0] - prev[0], sc[1] - prev[1]]
                redeal = g.sheet[-1][1] is None
                if redeal:
                    assert gained == [0, 0]
                else:
                    assert sorted(gained)[0] == 0 and max(gained) in (1, 2, 4)
                    outcomes.add(max(gained))
                deal = g.deal_no
                prev = list(sc)
        assert max(g.scores) >= 10 and g.winner in ([0, 2], [1, 3])
        assert g.scores[g.winner[0]] >= 10
    assert outcomes == {1, 2, 4}


def test_same_seed_same_game():
    def run(seed):
        g = atut.new_game("euchre", seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        return g.events
    assert run(21) == run(21)
    assert run(21) != run(22)


# --- bad input ----------------------------------------------------------------------------

BAD = [None, 3, "pass", [], {}, {"type": "nonsense"}, {"type": "play"},
       {"type": "play", "card": "ZZ"}, {"type": "play", "card": ["AH"]},
       {"type": "play", "card": "8S"}, {"type": "alone", "value": 1},
       {"type": "alone", "value": "true"}, {"type": "alone"},
       {"type": "defend_alone", "value": 0}, {"type": "name", "suit": "X"},
       {"type": "name"}, {"type": "pass", "extra": 1}, {"type": "order_up", "suit": "H"},
       {"type": "discard", "card": None}, {"type": "bid", "value": 3},
       {"type": "play", "card": "AH", "meld": "KH"}]


def test_bad_input_changes_nothing_in_every_phase():
    seen_phases = set()
    for seed in range(8):
        g = atut.new_game("euchre", seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            seen_phases.add(g.phase)
            before = g.to_json(), json.dumps(g.view(None)), len(g.events), list(g.hands)
            legal = [atut.canonical(a) for a in g.legal_actions()]
            wrong_hand = [c for c in ALL if not g.hands[g.to_move] >> C.card(c) & 1]
            extra = [{"type": "play", "card": rng.choice(wrong_hand)},
                     {"type": "discard", "card": rng.choice(wrong_hand)}]
            for bad in BAD + extra:
                if atut.canonical(bad) in legal:
                    continue
                with pytest.raises(atut.IllegalAction) as ei:
                    g.apply(bad)
                assert str(ei.value)
            assert before == (g.to_json(), json.dumps(g.view(None)), len(g.events),
                              list(g.hands))
            g.apply(rng.choice(g.legal_actions()))
    assert seen_phases == {"round1", "round2", "discard", "alone", "defend", "play"}


def test_bad_input_messages():
    g = new(0, {1: ["9C", "10C", "AH", "KS", "9S"]}, "QD")
    with pytest.raises(atut.IllegalAction, match="order_up|pass"):
        g.apply({"type": "play", "card": "9C"})
    do(g, "order_up")
    g.apply(g.legal_actions()[0])
    g.apply({"type": "alone", "value": False})
    with pytest.raises(atut.IllegalAction, match="does not hold JD"):
        g.apply({"type": "play", "card": "JD"})
    with pytest.raises(atut.IllegalAction, match="not a card"):
        g.apply({"type": "play", "card": "XX"})


def test_view_rejects_bad_seat():
    g = atut.new_game("euchre", seed=2)
    for bad in (4, -1, "0", 1.0, True):
        with pytest.raises(ValueError):
            g.view(bad)


# --- save / load --------------------------------------------------------------------------

def test_save_load_mid_game_in_every_phase():
    for seed in range(12):
        g = atut.new_game("euchre", seed=seed, options={"redeal": seed % 2 == 1})
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 120)):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        text = g.to_json()
        h = atut.load_game(text)
        assert h.events == g.events and h.phase == g.phase and h.scores == g.scores
        for s in (None, 0, 1, 2, 3):
            assert h.view(s) == g.view(s)
        r2 = random.Random(seed + 100)
        while not g.is_over:
            a = r2.choice(g.legal_actions())
            g.apply(a)
            h.apply(a)
        assert h.events == g.events and h.winner == g.winner


def test_save_with_fixed_deck_replays():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "QH"]}, "10H")
    do(g, "order_up")
    h = atut.load_game(g.to_json())
    assert hand(h, 0) == hand(g, 0) and h.phase == "discard"


def test_clone_is_independent():
    g = atut.new_game("euchre", seed=3)
    rng = random.Random(3)
    for _ in range(15):
        g.apply(rng.choice(g.legal_actions()))
    before = g.to_json(), json.dumps(g.view(None)), list(g.hands), list(g.out)
    c = g.clone()
    while not c.is_over:
        c.apply(rng.choice(c.legal_actions()))
    assert before == (g.to_json(), json.dumps(g.view(None)), list(g.hands), list(g.out))


# --- views --------------------------------------------------------------------------------

def _hidden_from(g, seat):
    """Card codes ``seat`` may not see right now: other hands (less the known upcard), the
    kitty, and the dealer's discard (unless ``seat`` is the dealer or it was the upcard)."""
    hidden = set(C.cards_of(g.kitty))
    for s in range(4):
        if s != seat:
            hidden |= set(C.cards_of(g.hands[s]))
    if g.discarded >= 0 and seat != g.dealer:
        hidden.add(g.discarded)
    hidden.discard(g.upcard)                      # the upcard was shown face up to everyone
    return {f'"{C.CODES[c]}"' for c in hidden}


def test_view_leaks_nothing():
    for seed in range(25):
        g = atut.new_game("euchre", seed=seed, options={"redeal": seed % 2 == 0})
        rng = random.Random(seed)
        while True:
            for seat in (None, 0, 1, 2, 3):
                text = json.dumps(g.view(seat))
                for code in _hidden_from(g, seat):
                    assert code not in text, (seed, seat, code, g.phase)
                if seat is None:
                    assert json.loads(text)["hand"] == []
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))


def test_view_hides_discard_even_in_the_log():
    g = new(0, {0: ["9C", "10C", "AH", "KS", "9S"]}, "QD")
    do(g, "order_up")
    g.apply({"type": "discard", "card": "10C"})
    for s in (None, 1, 2, 3):
        v = g.view(s)
        assert '"10C"' not in json.dumps(v)
        assert any(e["type"] == "discarded" for e in v["log"])
    assert any(e.get("action", {}).get("card") == "10C" for e in g.view(0)["log"])


def test_view_shape_for_the_page():
    g = new(0, {}, "QD")
    v = g.view(1)
    assert v["trump"] is None and v["trump_card"] == "QD" and v["upcard"] == "QD"
    assert v["phase"] == "round1" and v["legal_actions"] == [{"type": "order_up"},
                                                            {"type": "pass"}]
    assert [s["team"] for s in v["seats"]] == [0, 1, 0, 1]
    assert "partner" in v["seats"][3]["badges"] and "opponent" in v["seats"][0]["badges"]
    assert v["dealer"] == 0 and "maker" not in v["seats"][1]["badges"]
    assert {"key": "upcard", "card": "QD"} in v["summary"]
    assert v["target"] == 10 and len(v["hand"]) == 5
    do(g, "order_up")
    v = g.view(2)
    assert v["trump"] == "D" and v["trump_card"] is None
    assert {"key": "maker", "seat": 1, "suit": "D"} in v["summary"]
    assert {"key": "picked_up", "seat": 0, "card": "QD"} in v["summary"]
    assert "legal_actions" not in v
    json.dumps(v)
    # trumps come first in the sorted hand
    trumps = [c for c in v["hand"] if E.EFF[C.DIAMONDS][C.card(c)] == C.DIAMONDS]
    assert v["hand"][:len(trumps)] == trumps


# --- the page's words ------------------------------------------------------------------------

def test_i18n_has_every_key_the_views_use():
    """web/i18n/euchre.js (with core.js) names every phase, event, action, pile, badge, summary
    key and score-sheet column the views use, in Polish and in English."""
    import pathlib
    import re
    root = pathlib.Path(__file__).resolve().parents[1] / "web" / "i18n"
    text = (root / "euchre.js").read_text(encoding="utf-8")
    core = (root / "core.js").read_text(encoding="utf-8")
    blocks = {}
    for lang in ("en", "pl"):
        m = re.search(rf"\b{lang}: \{{(.*?)\n  \}}", text, re.S)
        c = re.search(rf"\b{lang}: \{{(.*?)\n  \}}", core, re.S)
        blocks[lang] = set(re.findall(r'"([^"]+)":', m.group(1))) | \
            set(re.findall(r'"([^"]+)":', c.group(1)))
    needed = {"name", "rules", "target", "event.redeal", "summary.last_redeal"}  # rare by chance
    for seed in range(40):
        g = atut.new_game("euchre", seed=seed, options={"redeal": seed % 2 == 0})
        rng = random.Random(seed)
        while True:
            v = g.view(seed % 4)
            needed.add("phase." + v["phase"])
            needed |= {"summary." + s["key"] for s in v["summary"]}
            needed |= {"pile." + p["id"] for p in v["piles"]}
            needed |= {"column." + c for c in v["score_sheet"]["columns"]}
            for s in v["seats"]:
                needed |= {"badge." + b for b in s["badges"]}
                if "bid" in s:
                    needed.add("bid." + s["bid"])
            for e in v["log"]:
                if e["type"] == "action":
                    needed.add("event.action." + e["action"]["type"])
                else:
                    needed.add("event." + e["type"])
            for a in v.get("legal_actions", []):
                fields = [k for k in a if k != "type"]
                if len(fields) == 1 and isinstance(a[fields[0]], bool):
                    needed.add(f"action.{a['type']}.{str(a[fields[0]]).lower()}")
                else:
                    needed.add("action." + a["type"])
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
    for k in E.Euchre.OPTIONS:
        needed.add("option." + k)
        needed |= {f"option.{k}.{str(x).lower()}" for x in E.Euchre.OPTIONS[k]}
    for lang in ("en", "pl"):
        missing = needed - blocks[lang]
        assert not missing, f"{lang}: {sorted(missing)}"
    assert {"phase.defend", "pile.discard", "event.deal_score", "summary.last_deal"} <= needed
