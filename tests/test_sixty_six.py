"""sixty_six: every worked example (E1-E11) of docs/rules/sixty_six.md, the gap rules it cites,
and a view that leaks nothing (G15)."""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut import cards as C
from atut.games.sixty_six import DECK, POWER
from atut.tricks import trick_winner
from helpers import cards_in


def make_deck(n, hands, trump_card, stock=(), dealer=0):
    """A canonical deck (G3) that deals ``hands`` ({seat: [codes]}) with ``trump_card`` turned
    and ``stock`` on top of the face-down pile; the rest is filled in arbitrarily."""
    h = 5 if n == 4 else 6
    used = {c for cs in hands.values() for c in cs} | {trump_card} | set(stock)
    rest = [c for c in C.codes(DECK) if c not in used]
    full = {s: list(hands.get(s, [])) for s in range(n)}
    for s in range(n):
        while len(full[s]) < h:
            full[s].append(rest.pop(0))
    deck = []
    for i in range(h):
        for k in range(n):
            deck.append(full[(dealer + 1 + k) % n][i])
    return deck + [trump_card] + list(stock) + rest


def new(n, hands, trump_card, stock=(), dealer=0):
    return atut.new_game("sixty_six", players=n, seed=1, dealer=dealer,
                         deck=make_deck(n, hands, trump_card, stock, dealer))


def play(game, *codes):
    for c in codes:
        game.apply({"type": "play", "card": c})


def test_G3_canonical_deal_from_the_dealers_left():
    deck = C.codes(DECK)
    g = atut.new_game("sixty_six", players=3, seed=0, dealer=2, deck=deck)
    assert sorted(g.view(0)["hand"]) == sorted(deck[i] for i in range(0, 18, 3))  # left of 2
    assert sorted(g.view(1)["hand"]) == sorted(deck[i] for i in range(1, 18, 3))
    assert g.view(0)["trump_card"] == deck[18] and g.view(0)["trump"] == "H"
    assert g.to_move == 0


@pytest.mark.parametrize("n,stock,exhausted_after", [(2, 12, 6), (3, 6, 2), (4, 4, 1)])
def test_E1_stock_sizes(n, stock, exhausted_after):
    checked = 0
    for seed in range(20):
        g = atut.new_game("sixty_six", players=n, seed=seed)
        assert g.view(0)["stock"] == stock                  # face-down pile + the trump card
        assert len(g.stock) == stock - 1
        tricks = 0
        while g.trump_card is not None and not g.is_over:
            # plain plays only, so no marriage ends the deal
            a = next(a for a in g.legal_actions() if a["type"] == "play" and "meld" not in a)
            g.apply(a)
            if not g.trick:
                tricks += 1
        if not g.is_over:
            assert tricks == exhausted_after
            checked += 1
    assert checked >= 10


def test_E1_four_players_fourth_drawer_gets_the_trump_card():
    g = new(4, {1: ["9H"], 2: ["9C"], 3: ["JC"], 0: ["QC"]}, "AS", stock=["10D", "KD", "QD"])
    play(g, "9H", "9C", "JC", "QC")                          # seat 1 leads, hearts led: 9H wins
    assert g.last_winner == 1
    assert g.hands[1] >> C.card("10D") & 1 and g.hands[2] >> C.card("KD") & 1
    assert g.hands[3] >> C.card("QD") & 1 and g.hands[0] >> C.card("AS") & 1
    assert g.trump_card is None and g.view(0)["stock"] == 0
    assert any(e["type"] == "trump_drawn" and e["seat"] == 0 for e in g.events)


def test_E2_trick_winner_side_suit_never_wins():
    S = C.SPADES
    assert trick_winner([C.card("10H"), C.card("AC")], S, POWER) == 0
    assert trick_winner([C.card("10H"), C.card("9S")], S, POWER) == 1
    g = new(2, {1: ["10H"], 0: ["AC", "9S"]}, "QS")
    play(g, "10H", "AC")
    assert g.last_winner == 1


def test_E3_highest_trump_wins():
    cards = [C.card(x) for x in ("KC", "KH", "9S", "JS")]
    assert trick_winner(cards, C.SPADES, POWER) == 3
    g = new(4, {1: ["KC"], 2: ["KH"], 3: ["9S"], 0: ["JS"]}, "QS")
    play(g, "KC", "KH", "9S", "JS")
    assert g.last_winner == 0


def test_E4_marriages_20_and_40():
    g = new(2, {1: ["QC", "KC", "KS", "QS"]}, "AS")
    legal = g.legal_actions()
    assert {"type": "play", "card": "QC", "meld": "KC"} in legal
    assert {"type": "play", "card": "QC"} in legal                   # declaring is optional
    g.apply({"type": "play", "card": "QC", "meld": "KC"})
    assert g.points[1] == 20
    g2 = new(2, {1: ["QC", "KC", "KS", "QS"]}, "AS")
    g2.apply({"type": "play", "card": "KS", "meld": "QS"})
    assert g2.points[1] == 40
    assert g2.view(0)["marriages"] == [{"seat": 1, "suit": "S", "value": 40}]


def test_G9_marriage_only_on_the_lead():
    g = new(2, {1: ["9H"], 0: ["KC", "QC"]}, "AS")
    play(g, "9H")
    assert all("meld" not in a for a in g.legal_actions())


def test_E5_exchange_the_trump_nine():
    g = new(2, {1: ["9S"]}, "AS")
    assert {"type": "exchange"} in g.legal_actions()
    g.apply({"type": "exchange"})
    assert g.hands[1] >> C.card("AS") & 1 and not g.hands[1] >> C.card("9S") & 1
    assert g.view(0)["trump_card"] == "9S" and g.to_move == 1
    assert {"type": "exchange"} not in g.legal_actions()


def exhaust(g):
    """Play plain first cards until the stock is gone."""
    while g.trump_card is not None:
        g.apply(next(a for a in g.legal_actions() if "meld" not in a and a["type"] == "play"))


def test_E6_after_exhaustion_must_follow_suit():
    g = new(4, {0: ["QC", "AH", "KH", "QH", "AS"], 1: ["9C", "AC", "10C", "KC", "JH"],
                2: ["9D", "9H", "10H", "AD", "10D"], 3: ["JC", "KS", "10S", "JS", "9S"]},
            "QS", stock=["JD", "KD", "QD"])
    play(g, "9C", "9D", "JC", "QC")                 # QC wins (seat 0); the stock is now gone
    assert g.trump_card is None and g.to_move == 0
    assert g.hands[3] >> C.card("QS") & 1           # the fourth drawer took the trump card
    play(g, "AH")
    assert [a["card"] for a in g.legal_actions()] == ["JH"]
    play(g, "JH")
    assert sorted(a["card"] for a in g.legal_actions()) == ["10H", "9H"]    # 9H allowed
    play(g, "9H")
    # no hearts: any card, trump or not
    assert sorted(a["card"] for a in g.legal_actions()) == ["10S", "9S", "JS", "KS", "QS"]


def test_E7_reaching_66_by_a_trick_ends_the_deal_without_drawing():
    g = new(2, {1: ["KH"], 0: ["AD", "AH"]}, "QS")
    g.points[0] = 58
    g.captured[0] = 0
    stock_before = list(g.stock)
    play(g, "KH", "AH")                               # AH takes KH: +15 → 73
    assert g.is_over and g.winner == 0 and g.points[0] == 73
    assert g.stock == stock_before and g.scores == [1, 0]


def test_E8_reaching_66_by_a_marriage_ends_at_once():
    g = new(2, {1: ["QH", "KH"]}, "9H")
    g.points[1] = 30
    g.apply({"type": "play", "card": "QH", "meld": "KH"})
    assert g.is_over and g.winner == 1 and g.points[1] == 70
    assert g.trick == [(1, C.card("QH"))]           # the led trick is not completed
    assert g.events[-1]["type"] == "deal_over"


def test_E9_nobody_reaches_66_last_trick_wins():
    seen = 0
    for seed in range(300):
        g = atut.new_game("sixty_six", players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            plain = [a for a in g.legal_actions() if "meld" not in a]
            g.apply(rng.choice(plain))
        if max(g.points) < 66:
            assert sum(g.points) == 120 and g.tricks_won[0] + g.tricks_won[1] == 12
            assert g.winner == g.last_winner
            assert g.events[-1]["reason"] == "last_trick"
            if g.points[g.winner] < 60:
                seen += 1
    assert seen > 0          # some last-trick winners had fewer points than the other player


def test_E10_free_play_while_the_stock_lasts():
    g = new(2, {1: ["AH"], 0: ["10H", "9S", "KC"]}, "QS")
    play(g, "AH")
    assert {a["card"] for a in g.legal_actions()} >= {"10H", "9S", "KC"}


def test_E11_four_players_exchange_before_the_first_lead_only():
    g = new(4, {1: ["9D"]}, "KD")
    assert g.to_move == 1 and {"type": "exchange"} in g.legal_actions()
    g2 = new(4, {1: ["9D", "AS"]}, "KD")
    play(g2, "AS")
    for _ in range(3):
        play(g2, g2.legal_actions()[0]["card"])
    assert g2.trump_card is None
    assert {"type": "exchange"} not in g2.legal_actions()


def test_G11_scores_count_deals_won():
    g = atut.new_game("sixty_six", players=3, seed=9)
    rng = random.Random(9)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.scores[g.winner] == 1 and sum(g.scores) == 1
    assert g.view(None)["is_over"]


def hidden_from(g, seat):
    """Card codes seat may not see: the other hands (less what marriages and the trump card
    showed) and the face-down stock."""
    known = set()
    for e in g.events:
        if e["type"] == "marriage":
            known |= set(e["cards"])
        if e["type"] in ("exchange", "trump_drawn", "trump_card"):
            known |= {e.get("card"), e.get("took"), e.get("gave")} - {None}
    hidden = set(C.codes(g.stock))
    for s in range(g.n):
        if s != seat:
            hidden |= set(C.codes(C.cards_of(g.hands[s])))
    return hidden - known


@pytest.mark.parametrize("n", [2, 3, 4])
def test_G15_views_leak_no_hidden_card(n):
    for seed in range(150):
        g = atut.new_game("sixty_six", players=n, seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in [None, *range(n)]:
                v = g.view(seat)
                leaked = cards_in(v) & hidden_from(g, seat)
                assert not leaked, f"seat {seat} sees {leaked}"
                json.dumps(v)
                if seat is not None and seat != g.to_move:
                    assert "legal_actions" not in v
                    others = [x["points"] for x in v["seats"] if x["seat"] != seat]
                    if not g.is_over:
                        assert others == [None] * (n - 1)           # G15: others' totals hidden
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))


def test_bad_options_players_and_deck():
    with pytest.raises(ValueError, match="2 to 4"):
        atut.new_game("sixty_six", players=5)
    with pytest.raises(ValueError, match="no option"):
        atut.new_game("sixty_six", options={"closing": True})
    with pytest.raises(ValueError, match="24 cards"):
        atut.new_game("sixty_six", deck=C.codes(DECK)[:-1])
    with pytest.raises(ValueError, match="not a card"):
        atut.new_game("sixty_six", deck=C.codes(DECK)[:-1] + ["1X"])
    with pytest.raises(ValueError, match="repeated"):
        atut.new_game("sixty_six", deck=C.codes(DECK)[:-1] + ["AS"])


def test_illegal_action_explains_and_changes_nothing():
    g = new(2, {1: ["AH"], 0: ["10H"]}, "QS")
    before = g.to_json()
    with pytest.raises(atut.IllegalAction, match="does not hold"):
        g.apply({"type": "play", "card": "10H"})
    with pytest.raises(atut.IllegalAction, match="may only"):
        g.apply({"type": "bid", "value": 100})
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "play", "card": "AH", "meld": "KH"})
    assert g.to_json() == before
