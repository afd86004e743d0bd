"""Imperial: every worked example (E1-E16) of docs/rules/imperial.md, rule tests citing the G
numbers, random play, bad input, save/load and views that leak nothing."""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut import cards as C
from atut.games import imperial as I
from helpers import plain

# --- helpers --------------------------------------------------------------------------------

def make_deck(n, dealer, hands, turned=None):
    """A deck in canonical deal order (G3) giving ``hands`` = {seat: [codes]}, completed from
    the remaining cards by a seeded shuffle chosen so that the filler makes no imperial and
    (2 players) holds no trump honour; ``turned`` is the 2-player trump card.  With 3 players
    the dealer's last listed card is his last card dealt, the shown trump card."""
    all_cards = C.codes(I.DECKS[n])
    used = set()
    for cs in hands.values():
        used.update(cs)
    if turned:
        assert turned not in used
        used.add(turned)
    rest0 = [c for c in all_cards if c not in used]
    for k in range(2000):
        rest = list(rest0)
        random.Random(k).shuffle(rest)
        if n == 2 and not turned:
            turned_k = next(c for c in rest if c[:-1] in ("10", "9", "8"))
            rest.remove(turned_k)
        else:
            turned_k = turned
        if n == 2:                             # trump honours go to the unused cards
            hon = I.HONOURS[(2, C.suit_of(C.card(turned_k)))]
            rest.sort(key=lambda c: hon >> C.card(c) & 1)
        full = {}
        for s in range(n):
            cs = list(hands.get(s, []))
            while len(cs) < 12:
                x = rest.pop(0)
                if n == 3 and s == dealer and cs:
                    cs.insert(0, x)            # keep the dealer's named last card last
                else:
                    cs.append(x)
            full[s] = cs
        trump = C.suit_of(C.card(turned_k if n == 2 else full[dealer][-1]))
        ok = True
        for s in range(n):
            extra = 1 << C.card(turned_k) if (n == 2 and s == dealer) else 0
            want = I.find_imperials(hand_mask(hands.get(s, [])), n, trump, extra)
            if I.find_imperials(hand_mask(full[s]), n, trump, extra) != want:
                ok = False
            filler = hand_mask(full[s]) & ~hand_mask(hands.get(s, []))
            if n == 2 and filler & I.HONOURS[(n, trump)]:
                ok = False
        if ok:
            break
    else:
        raise AssertionError("no filler found")
    first = (dealer + 1) % n
    deck = [None] * len(all_cards)
    for s in range(n):
        k = (s - first) % n
        for i, c in enumerate(full[s]):
            deck[i * n + k] = c
    if n == 2:
        deck[24] = turned_k
        deck[25:] = rest
    assert sorted(deck) == sorted(all_cards)
    return deck


def game_with(n, dealer, hands, turned=None):
    return atut.new_game("imperial", players=n, seed=1, dealer=dealer,
                         deck=make_deck(n, dealer, hands, turned))


def events(game, t, this_deal=False):
    start = game._deal_event if this_deal else 0
    return [plain(e) for e in game.events[start:] if e["type"] == t]


def play(game, *codes):
    for c in codes:
        game.apply({"type": "play", "card": c})


def set_scores(game, scores):
    """Drive the state: give the seats these totals (kept consistent with the score sheet)."""
    for s, p in enumerate(scores):
        game.sheet[0][s] += p - game.scores[s]
        game.scores[s] = p


def hand_mask(codes):
    return C.mask_of(C.card(c) for c in codes)


def units(codes, n=2, trump=C.HEARTS, extra=None):
    x = 1 << C.card(extra) if extra else 0
    return sum(u for _, _, u in I.find_imperials(hand_mask(codes), n, trump, x))


# --- G1, G3: deck and deal --------------------------------------------------------------------

def test_G1_decks_and_player_counts():
    assert len(I.DECKS[2]) == 32 and len(I.DECKS[3]) == 36
    assert not any(C.code(c).startswith("6") for c in I.DECKS[2])
    for bad in (1, 4, "2", True):
        with pytest.raises(ValueError):
            atut.new_game("imperial", players=bad)


def test_G3_canonical_deal_two_players():
    deck = C.codes(I.DECKS[2])
    g = atut.new_game("imperial", players=2, seed=3, dealer=0, deck=deck)
    assert g.hands[1] == C.mask_of(C.card(c) for c in deck[0:24:2])   # left of dealer first
    assert g.hands[0] == C.mask_of(C.card(c) for c in deck[1:24:2])
    assert g.trump_card == C.card(deck[24]) and g.trump == C.suit_of(C.card(deck[24]))
    assert g.unused == C.mask_of(C.card(c) for c in deck[25:])
    assert g.to_move == 1                                              # ¶8


def test_G3_canonical_deal_three_players():
    deck = C.codes(I.DECKS[3])
    g = atut.new_game("imperial", players=3, seed=3, dealer=1, deck=deck)
    assert g.hands[2] == C.mask_of(C.card(c) for c in deck[0::3])
    assert g.hands[0] == C.mask_of(C.card(c) for c in deck[1::3])
    assert g.hands[1] == C.mask_of(C.card(c) for c in deck[2::3])
    assert g.trump_card == C.card(deck[35]) and g.hands[1] >> g.trump_card & 1
    v = g.view(None)
    assert v["trump_card"] == deck[35] and v["trump"] == deck[35][-1]
    assert deck[35] in v["revealed"][1]                                # shown to everybody
    assert g.to_move == 2


def test_G2_dealer_passes_left():
    g = atut.new_game("imperial", players=3, seed=4, dealer=2)
    rng = random.Random(4)
    dealers = [g.dealer]
    while not g.is_over and g.deal_no < 4:
        d = g.deal_no
        g.apply(rng.choice(g.legal_actions()))
        if g.deal_no != d:
            dealers.append(g.dealer)
    assert dealers[:4] == [2, 0, 1, 2][:len(dealers[:4])] and len(dealers) >= 3


# --- worked examples --------------------------------------------------------------------------

def test_E1_turned_honour():
    g = game_with(2, 0, {}, turned="KH")
    assert g.trump == C.HEARTS
    assert events(g, "turned_honour") == [{"type": "turned_honour", "seat": 0, "card": "KH",
                                           "points": 4}]
    for t in ("AH", "10H"):
        g = game_with(2, 0, {}, turned=t)
        assert g.trump == C.HEARTS and events(g, "turned_honour") == []


def test_E1_G5_no_turned_bonus_with_three_players():
    g = game_with(3, 0, {0: ["KH"]})           # dealer's shown last card is an honour
    assert g.trump == C.HEARTS and events(g, "turned_honour") == []
    assert "KH" in events(g, "honours")[0]["cards"]       # counted as an honour in hand (G11)


def test_E2_plain_suit_imperial():
    g = game_with(2, 0, {1: ["KS", "QS", "JS", "AS"]}, turned="10H")
    imps = events(g, "imperial")
    assert [(e["seat"], e["cards"], e["points"], e["trump"]) for e in imps] == \
        [(1, ["KS", "QS", "JS", "AS"], 24, False)]
    assert g.sheet[0][1] >= 24


def test_E3_trump_suit_imperial():
    g = game_with(2, 0, {1: ["KH", "QH", "JH", "AH"]}, turned="10H")
    imps = events(g, "imperial")
    assert [(e["seat"], e["units"], e["points"], e["trump"]) for e in imps] == [(1, 2, 48, True)]


def test_E4_suit_and_rank_imperial():
    assert units(["KS", "QS", "JS", "AS", "QH", "QD", "QC"], trump=C.DIAMONDS) == 2
    g = game_with(2, 0, {1: ["KS", "QS", "JS", "AS", "QH", "QD", "QC"]}, turned="10D")
    imps = events(g, "imperial")
    assert sorted((e["kind"], tuple(e["cards"])) for e in imps) == [
        ("rank", ("QS", "QC", "QD", "QH")), ("suit", ("KS", "QS", "JS", "AS"))]
    assert sum(e["points"] for e in imps) == 48


def test_E5_one_imperial_per_suit_and_the_low_card():
    assert units(["KC", "QC", "JC", "AC", "7C"], n=2, trump=C.SPADES) == 1
    assert units(["QC", "JC", "AC", "6C"], n=3, trump=C.SPADES) == 1
    assert units(["QC", "JC", "AC", "7C"], n=3, trump=C.SPADES) == 0
    assert units(["QC", "JC", "AC", "7C"], n=2, trump=C.SPADES) == 1
    g = game_with(3, 0, {1: ["QC", "JC", "AC", "7C"], 0: ["10S"]})
    assert events(g, "imperial") == []


def test_E6_comparison_two_players():
    # P1 2 units (trump suit), P0 1 unit: only P1 scores
    g = game_with(2, 0, {1: ["KH", "QH", "JH", "AH"], 0: ["KS", "QS", "JS", "AS"]}, turned="10H")
    assert [(e["seat"], e["points"]) for e in events(g, "imperial")] == [(1, 48)]
    assert g.sheet[0][0] < 24 <= g.sheet[0][1]
    s = [x for x in g.view(None)["summary"] if x["key"] == "imperials_beaten"]
    assert s == [{"key": "imperials_beaten", "seats": [0]}]
    # 1 and 1: both score 24 (dealer first)
    g = game_with(2, 0, {1: ["KC", "QC", "JC", "AC"], 0: ["KS", "QS", "JS", "AS"]}, turned="10H")
    assert [(e["seat"], e["points"]) for e in events(g, "imperial")] == [(0, 24), (1, 24)]


def test_E6_comparison_three_players():
    g = game_with(3, 0, {1: ["KC", "QC", "JC", "AC", "KS", "QS", "JS", "AS"],
                         2: ["KD", "QD", "JD", "AD", "6D"], 0: ["QH", "JH", "AH", "6H"]})
    assert g.trump == C.HEARTS
    got = [(e["seat"], e["points"]) for e in events(g, "imperial")]
    assert got == [(0, 48), (1, 24), (1, 24)]          # 2, 2, 1 units -> 48, 48, 0
    assert g.sheet[0][0] >= 48 and g.sheet[0][1] >= 48 and g.sheet[0][2] < 48
    g = game_with(3, 0, {0: ["10H"]})
    assert events(g, "imperial") == [] and events(g, "no_imperials") == [{"type": "no_imperials"}]


def test_E7_open_imperial_dealer_only():
    g = game_with(2, 0, {0: ["KD", "QD", "AD"]}, turned="JD")
    imps = events(g, "imperial")
    assert [(e["seat"], e["points"], e["open"], e["cards"]) for e in imps] == \
        [(0, 48, True, ["KD", "QD", "JD", "AD"])]
    assert events(g, "turned_honour")[0]["points"] == 4
    assert "JD" not in g.view(0)["hand"]                       # it stays beside the pack
    g = game_with(2, 0, {1: ["KD", "QD", "AD"]}, turned="JD")
    assert events(g, "imperial") == []


def test_E8_open_rank_imperial():
    g = game_with(2, 0, {0: ["7S", "7D", "7C"]}, turned="7H")
    imps = events(g, "imperial")
    assert [(e["seat"], e["kind"], e["points"], e["open"]) for e in imps] == \
        [(0, "rank", 24, True)]
    assert events(g, "turned_honour")[0]["points"] == 4
    assert g.view(1)["revealed"][0] == ["7S", "7C", "7D"]     # the turned card is not his


def test_E9_point():
    assert I.best_suit(hand_mask(["KC", "QC", "JC", "9C", "8C"])) == (5, 47)
    assert I.best_suit(hand_mask(["AH", "10H", "9H", "8H", "7H"])) == (5, 45)
    assert I.best_suit(hand_mask(["KS", "QS", "10S", "8S", "7S"])) == (5, 45)
    assert I.best_suit(hand_mask(["AD", "JD", "9D", "8D", "7D"])) == (5, 45)
    assert I.best_suit(hand_mask(["10S", "9S", "8S", "7S", "AC", "KC", "QC", "JC"])) == (4, 41)
    # P1 47 beats P0 45 (every other suit of both is shorter)
    g = game_with(2, 0, {1: ["KC", "QC", "JC", "9C", "8C", "AS", "10S", "AD", "10D", "KS",
                             "QD", "9S"],
                         0: ["AH", "10H", "9H", "8H", "7H", "KD", "9D", "8D", "7S", "8S",
                             "7C", "QS"]}, turned="JS")
    assert [(e["seat"], e["points"]) for e in events(g, "point")] == [(1, 4)]
    # equal length and value: each +2
    g = game_with(2, 0, {1: ["KS", "QS", "10S", "8S", "7S", "KC", "QC", "10C", "KH", "QH",
                             "AH", "10H"],
                         0: ["AD", "JD", "9D", "8D", "7D", "AC", "JC", "9C", "JH", "9H", "8H",
                             "7H"]}, turned="QD")
    assert [(e["seat"], e["points"]) for e in events(g, "point")] == [(0, 2), (1, 2)]
    # a 6-card suit beats a 5-card suit whatever the values
    g = game_with(2, 1, {0: ["10S", "9S", "8S", "7S", "AC", "10C"],
                         1: ["KD", "QD", "JD", "AD", "10D"]}, turned="9H")
    assert [e["seat"] for e in events(g, "point")] == [0]


def test_E9_G10_turned_card_never_counts_for_the_point():
    # the dealer holds 5 hearts and the turned 6th heart does not make it 6
    g = game_with(2, 0, {0: ["KH", "QH", "JH", "10H", "9H"],
                         1: ["AS", "10S", "9S", "8S", "7S"]}, turned="8H")
    bests = {e["seat"]: (e["length"], e["value"]) for e in g.view(None)["summary"]
             if e["key"] == "best_suit"}
    assert bests[0] == (5, 49)


def test_E10_honours_in_hand_two_players():
    g = game_with(2, 0, {1: ["KC", "7C", "AC"]}, turned="10C")
    h = [e for e in events(g, "honours") if e["seat"] == 1]
    assert h == [{"type": "honours", "seat": 1, "cards": ["KC", "7C"], "points": 8}]


def test_E10_honours_in_hand_three_players():
    g = game_with(3, 0, {1: ["6C", "QC"], 2: ["7C"], 0: ["KC", "JC", "10C"]})
    assert g.trump == C.CLUBS
    h = {e["seat"]: e for e in events(g, "honours")}
    assert h[1]["cards"] == ["QC", "6C"] and h[1]["points"] == 8
    assert 2 not in h                                                 # 7C is no honour with 3


def test_E11_honour_lead_scores_at_once():
    g = game_with(2, 0, {1: ["QC", "10S"], 0: ["KC", "9S"]}, turned="10C")
    before = g.scores[1]
    play(g, "QC")
    assert g.scores[1] == before + 4
    assert events(g, "honour_lead")[-1] == {"type": "honour_lead", "seat": 1, "card": "QC",
                                             "points": 4}
    assert any(x["key"] == "honour_lead" for x in g.view(0)["summary"])
    play(g, "KC")
    assert events(g, "trick")[-1]["winner"] == 0 and g.scores[1] == before + 4


def test_G14_following_with_an_honour_scores_nothing():
    g = game_with(2, 0, {1: ["10C"], 0: ["KC"]}, turned="9C")
    before = list(g.scores)
    play(g, "10C", "KC")
    assert g.scores == before and events(g, "honour_lead") == []


def _play_out(g, order):
    """Play a deal: the seat to move plays the first card of ``order`` it may play."""
    deal = g.deal_no
    while not g.is_over and g.deal_no == deal:
        legal = [a["card"] for a in g.legal_actions()]
        pick = next((c for c in order if c in legal), legal[0])
        play(g, pick)


def test_E12_all_twelve_tricks():
    seat1 = ["KH", "QH", "JH", "AH", "10H", "9H", "8H", "KS", "QS", "KC", "QC", "KD"]
    seat0 = ["JS", "AS", "10S", "9S", "8S", "7S", "JC", "AC", "10C", "9C", "JD", "AD"]
    g = game_with(2, 0, {1: seat1, 0: seat0}, turned="7H")
    _play_out(g, seat1)
    assert events(g, "tricks_bonus") == [{"type": "tricks_bonus", "seat": 1, "tricks": 12,
                                          "points": 8}]
    assert events(g, "deal_over")[0]["tricks"] == [0, 12]


def test_E12_seven_tricks():
    seat1 = ["KH", "QH", "JH", "AH", "10H", "9H", "8H", "7S", "8S", "7C", "8C", "7D"]
    seat0 = ["KS", "QS", "JS", "AS", "10S", "9S", "KC", "QC", "JC", "KD", "QD", "JD"]
    g = game_with(2, 0, {1: seat1, 0: seat0}, turned="7H")
    # seat 1 cashes its 7 trumps, seat 0 throws its small cards and wins the rest
    _play_out(g, seat1 + ["JS", "AS", "10S", "9S", "JC", "QD", "JD", "KS", "QS", "KC", "QC"])
    assert events(g, "deal_over")[0]["tricks"] == [5, 7]
    assert events(g, "tricks_bonus") == [{"type": "tricks_bonus", "seat": 1, "tricks": 7,
                                          "points": 4}]


def test_E12_six_tricks_score_nothing():
    seen = 0
    for seed in range(60):
        g = atut.new_game("imperial", players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        for e in g.events:
            if e["type"] == "deal_over" and e["tricks"] == [6, 6]:
                seen += 1
        # every bonus matches its trick count (G15)
        for e in events(g, "tricks_bonus"):
            assert (e["tricks"], e["points"]) in [(t, 4) for t in range(7, 12)] + [(12, 8)]
    assert seen > 0
    # a 6-6 deal has no tricks_bonus event between its tricks and its end
    g = atut.new_game("imperial", players=2, seed=0)
    rng = random.Random(0)
    bonus_in_deal = False
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    for e in g.events:
        if e["type"] == "deal":
            bonus_in_deal = False
        elif e["type"] == "tricks_bonus":
            bonus_in_deal = True
        elif e["type"] == "deal_over":
            assert bonus_in_deal == (max(e["tricks"]) > 6)


def test_E13_rank_order_in_play():
    g = game_with(2, 0, {1: ["KS"], 0: ["AS"]}, turned="9H")
    play(g, "KS", "AS")
    assert events(g, "trick")[-1]["winner"] == 1
    g = game_with(2, 0, {1: ["JS"], 0: ["AS"]}, turned="9H")
    play(g, "JS", "AS")
    assert events(g, "trick")[-1]["winner"] == 1
    assert I.POWER[C.card("KS")] > I.POWER[C.card("QS")] > I.POWER[C.card("JS")] > \
        I.POWER[C.card("AS")] > I.POWER[C.card("10S")] > I.POWER[C.card("6S")]


def test_E14_follow_else_trump_else_any():
    seat0 = ["9H", "AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "AD", "10D", "9D"]
    g = game_with(2, 0, {1: ["KS"], 0: seat0}, turned="8H")
    play(g, "KS")
    assert g.legal_actions() == [{"type": "play", "card": "9H"}]
    with pytest.raises(atut.IllegalAction):
        play(g, "AC")
    seat0 = ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "AD", "10D", "9D", "8D"]
    g = game_with(2, 0, {1: ["KS"], 0: seat0}, turned="8H")
    play(g, "KS")
    assert sorted(a["card"] for a in g.legal_actions()) == sorted(seat0)
    play(g, "AC")
    assert events(g, "trick")[-1]["winner"] == 1
    # with the led suit held he must follow it even holding trumps (no duty to beat)
    g = game_with(2, 0, {1: ["KS"], 0: ["7S", "9H"]}, turned="8H")
    play(g, "KS")
    legal = [a["card"] for a in g.legal_actions()]
    assert "7S" in legal and all(c.endswith("S") for c in legal)


def test_E15_win_on_an_honour_lead():
    g = game_with(2, 0, {1: ["JH"]}, turned="10H")
    set_scores(g, [50, 116])
    play(g, "JH")
    assert g.is_over and g.winner == 1 and g.scores[1] == 120
    assert g.trick == [(1, C.card("JH"))] and C.count(g.hands[0]) == 12   # nothing more played
    assert g.legal_actions() == [] and events(g, "game_over")[-1]["winner"] == 1
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "play", "card": g.view(0)["hand"][0]})


def _redeal(n, dealer, scores, hands, turned=None):
    """Drive the state: a game at these scores whose next deal (by ``dealer``) is fixed."""
    deck = [C.card(c) for c in make_deck(n, dealer, hands, turned)]
    g = atut.new_game("imperial", players=n, seed=2, dealer=dealer,
                      deck=make_deck(n, dealer, {}, "10S" if n == 2 else None))
    g.scores = list(scores)
    g.sheet = [list(scores)]
    g.dealer = dealer
    g._deal(deck)
    return g


def test_E16_simultaneous_tie_goes_to_the_dealer():
    hands = {0: ["KS", "QS", "JS", "AS", "10D"], 1: ["KC", "QC", "JC", "AC"], 2: ["9D"]}
    g = _redeal(3, 0, [100, 100, 0], hands)
    assert g.trump != C.SPADES and g.trump != C.CLUBS
    assert g.scores[:2] == [124, 124] and g.is_over and g.winner == 0
    assert events(g, "point", True) == []                           # the deal was abandoned
    g = _redeal(3, 0, [100, 101, 0], hands)
    assert g.is_over and g.winner == 1                        # the higher total wins


def test_G16_honours_are_one_event_per_player():
    # the dealer (116) reaches 120 with his honour before seat 1 (112 after the point) is
    # handled, though seat 1's three honours would have made 124: the dealer wins
    hands = {0: ["KH", "10H", "KS", "QS", "JS", "10S", "9S", "KD", "QD", "JD", "10D", "9D"],
             1: ["QC", "JC", "10C", "9C", "8C", "7C", "QH", "JH", "7H"]}
    g = _redeal(2, 0, [116, 108], hands, turned="AH")
    assert events(g, "imperial", True) == [] and events(g, "turned_honour", True) == []
    assert [e["seat"] for e in events(g, "point", True)] == [1]
    assert g.is_over and g.winner == 0 and g.scores == [120, 112]
    assert events(g, "honours", True) == [{"type": "honours", "seat": 0, "cards": ["KH"],
                                           "points": 4}]


def test_G16_point_tie_lifts_both():
    hands = {1: ["KS", "QS", "10S", "8S", "7S", "KC", "QC", "10C", "KD", "QD", "AD", "10D"],
             0: ["AH", "JH", "9H", "8H", "7H", "AC", "JC", "9C", "JD", "9D", "8D", "7D"]}
    g = _redeal(2, 0, [118, 119], hands, turned="10H")
    assert [(e["seat"], e["points"]) for e in events(g, "point", True)] == [(0, 2), (1, 2)]
    assert g.is_over and g.winner == 1                        # 121 beats 120


def test_G8_G17_scores_only_grow_and_no_erasing():
    g = game_with(2, 0, {1: ["KS", "QS", "JS", "AS"]}, turned="10H")
    before = g.scores[0]
    assert before >= 0 and g.scores[1] >= 24                  # nobody loses points


def test_G9_declarations_are_public_and_summarised():
    g = game_with(2, 0, {1: ["KS", "QS", "JS", "AS", "KH"]}, turned="10H")
    v = g.view(None)
    keys = [x["key"] for x in v["summary"]]
    assert keys.index("imperial") < keys.index("best_suit") < \
        keys.index("honours")
    assert v["revealed"][1] == ["KS", "QS", "JS", "AS", "KH"]
    assert [x for x in v["summary"] if x["key"] == "score"][1]["total"] == g.scores[1]
    assert keys[0] == "trump_turned" and keys.count("score") == 2
    bests = [x for x in v["summary"] if x["key"] == "best_suit"]
    assert [b["seat"] for b in bests] == [0, 1] and all("cards" not in b for b in bests)


def test_G18_view_shows_imperials_plus_points():
    g = game_with(2, 0, {1: ["KH", "QH", "JH", "AH"]}, turned="10H")
    s = g.view(0)["seats"][1]
    assert s["points"] == f"{g.scores[1] // 24} imp. + {g.scores[1] % 24}"
    assert s["imperials"] * 24 + s["rest"] == g.scores[1] and s["imperials"] >= 2
    rows = g.view(None)["score_sheet"]["rows"]
    assert rows[0] == [1, *g.sheet[0]]
    assert rows[-1] == ["Σ", *(f"{x // 24} imp. + {x % 24}" for x in g.scores)]


def test_G19_any_first_lead_with_three_players():
    g = atut.new_game("imperial", players=3, seed=9)
    assert len(g.legal_actions()) == 12


# --- random play ------------------------------------------------------------------------------

@pytest.mark.parametrize("n,games", [(2, 1200), (3, 800)])
def test_random_play_invariants(n, games):
    rng = random.Random(n)
    for seed in range(games):
        g = atut.new_game("imperial", players=n, seed=seed)
        prev = list(g.scores)
        while not g.is_over:
            assert max(g.scores) < I.TARGET
            g.apply(rng.choice(g.legal_actions()))
            g.check_invariants()
            assert all(a >= b for a, b in zip(g.scores, prev)), "a score fell"
            prev = list(g.scores)
        assert max(g.scores) >= I.TARGET and g.scores[g.winner] >= I.TARGET
        assert g.to_move is None and g.phase == "over"


# --- bad input ----------------------------------------------------------------------------

def test_bad_input_changes_nothing():
    g = atut.new_game("imperial", players=2, seed=5)
    play(g, g.legal_actions()[0]["card"])                     # a trick in progress
    before = g.to_json(), json.dumps(g.view(None)), list(g.events)
    other = g.view(1 - g.to_move)["hand"][0]
    not_held = next(c for c in C.codes(I.DECKS[2]) if c not in g.view(g.to_move)["hand"])
    for bad in ({"type": "play", "card": not_held}, {"type": "play", "card": "6S"},
                {"type": "play", "card": "ZZ"}, {"type": "bid", "value": 1}, {"type": "pass"},
                {"type": "play"}, {"type": "play", "card": other, "meld": "KS"}, None, "AS",
                {"type": "play", "card": 5}):
        with pytest.raises(atut.IllegalAction):
            g.apply(bad)
    assert before == (g.to_json(), json.dumps(g.view(None)), g.events)


def test_bad_input_refuses_not_following():
    g = game_with(2, 0, {1: ["KS"], 0: ["7S", "AC"]}, turned="8H")
    play(g, "KS")
    with pytest.raises(atut.IllegalAction, match="7S"):
        play(g, "AC")


def test_bad_construction():
    with pytest.raises(ValueError, match="no option"):
        atut.new_game("imperial", players=2, options={"erase": True})
    with pytest.raises(ValueError):
        atut.new_game("imperial", players=2, deck=C.codes(I.DECKS[3]))   # 6s with 2 players
    with pytest.raises(ValueError):
        atut.new_game("imperial", players=3, deck=C.codes(I.DECKS[2]))
    with pytest.raises(ValueError):
        atut.new_game("imperial", players=2, dealer=2)
    with pytest.raises(ValueError):
        atut.new_game("imperial", players=2).view(2)


# --- save / load ----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3])
def test_save_load_mid_game(n):
    g = atut.new_game("imperial", players=n, seed=21)
    rng = random.Random(21)
    for _ in range(40):                                       # into the second deal
        g.apply(rng.choice(g.legal_actions()))
    saved = g.to_json()
    h = atut.load_game(saved)
    assert h.events == g.events and h.scores == g.scores and h.view(0) == g.view(0)
    while not g.is_over:
        a = rng.choice(g.legal_actions())
        g.apply(a)
        h.apply(a)
    assert h.events == g.events and h.winner == g.winner
    d = make_deck(2, 1, {1: ["KH", "QH", "JH", "AH"]}, turned="10H")
    g = atut.new_game("imperial", players=2, seed=3, dealer=1, deck=d)
    play(g, g.legal_actions()[0]["card"])
    h = atut.load_game(g.to_json())
    assert h.view(None) == g.view(None) and h.first_deck == d


# --- views hide what they must ---------------------------------------------------------------

def _strings(x, out):
    if isinstance(x, str):
        out.add(x)
    elif isinstance(x, dict):
        for k, v in x.items():
            out.add(k)
            _strings(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _strings(v, out)
    return out


def _hidden(g, seat):
    """Cards ``seat`` may not see now: others' held cards not revealed, the unused cards."""
    m = g.unused
    for s in range(g.n):
        if s != seat:
            m |= g.hands[s] & ~g.revealed[s]
    return set(C.codes(C.cards_of(m)))


@pytest.mark.parametrize("n", [2, 3])
def test_view_leaks_nothing(n):
    for seed in range(12):
        g = atut.new_game("imperial", players=n, seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in [None, *range(n)]:
                v = g.view(seat)
                text = json.dumps(v)
                hidden = _hidden(g, seat)
                leaked = hidden & _strings(json.loads(text), set())
                assert not leaked, f"seat {seat} sees {leaked}"
                if seat is None:
                    assert v["hand"] == [] and "legal_actions" not in v
                else:
                    assert v["hand"] == I.display(g.hands[seat])
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
    # the 2-player unused cards never appear, even to the dealer
    g = atut.new_game("imperial", players=2, seed=1)
    unused = set(C.codes(C.cards_of(g.unused)))
    assert len(unused) == 7
    for seat in (None, 0, 1):
        assert not unused & _strings(g.view(seat), set())
    assert g.view(None)["piles"] == [{"id": "unused", "count": 7}]
