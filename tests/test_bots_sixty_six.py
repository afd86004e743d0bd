"""sixty_six bot plug-in: the level-2 rules, the determinizer (what the seat has seen), the
exact endgame of level 4, and a small strength check."""

from __future__ import annotations

import random

import pytest
from test_sixty_six import new

import atut
from atut import arena
from atut import bots as B
from atut import cards as C
from atut.bots import sixty_six as P


def rules(game):
    return P.rule_policy(game.view(game.to_move), random.Random(0))


# --- level 2 ----------------------------------------------------------------------------------

def test_E5_rules_bot_exchanges_the_trump_nine():
    g = new(2, {1: ["9S", "JH", "QD", "KC", "10C", "9D"]}, "AS", dealer=0)
    assert g.to_move == 1
    assert rules(g) == {"type": "exchange"}


def test_E4_rules_bot_declares_the_trump_marriage_first():
    g = new(2, {1: ["KC", "QC", "KS", "QS", "9D", "JD"]}, "10S", dealer=0)
    assert rules(g) == {"type": "play", "card": "QS", "meld": "KS"}


def test_rules_bot_takes_a_led_ten_with_the_ace():
    g = new(2, {1: ["10H", "9C", "JC", "QD", "9D", "JD"],
                0: ["AH", "9H", "JH", "KC", "QC", "AD"]}, "10S", dealer=0)
    g.apply({"type": "play", "card": "10H"})
    assert rules(g) == {"type": "play", "card": "AH"}


def test_rules_bot_leads_and_throws_the_cheapest_card():
    # before the stock is gone nothing is sure: lead the card that gives least away
    g = new(2, {1: ["AH", "10H", "JC", "QD", "9D", "KS"]}, "10S", dealer=0)
    assert rules(g) == {"type": "play", "card": "9D"}
    # and when the trick cannot be won cheaply, throw a worthless card
    g = new(2, {1: ["AH", "9C", "JC", "QD", "9D", "JD"],
                0: ["10H", "KH", "QC", "AC", "10C", "JH"]}, "KS", dealer=0)
    g.apply({"type": "play", "card": "9D"})               # no diamond, no trump to win it
    assert rules(g) == {"type": "play", "card": "JH"}


def test_rules_bot_cashes_sure_winners_after_the_stock():
    """Two players, stock gone: the other hand is known, and a card led as a sure winner
    takes the trick against every reply."""
    checked = 0
    for seed in range(40):
        g = atut.new_game("sixty_six", players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and (g.trump_card is not None or g.trick):
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        k = P.Knowledge(g.view(g.to_move))
        other = g.hands[1 - g.to_move]
        assert k.unseen | k.known[1 - g.to_move] == other   # G8: nothing is hidden now
        a = rules(g)
        c = C.card(a["card"])
        if a["type"] == "play" and "meld" not in a and P._sure_winner(k, c):
            checked += 1
            test = B.fast_clone(g)
            test._apply(a)
            if test.is_over:
                continue
            for r in test._legal():                       # it wins whatever the reply
                t2 = B.fast_clone(test)
                t2._apply(r)
                assert t2.last_winner == g.to_move
    assert checked >= 5


# --- determinization ----------------------------------------------------------------------------

def _random_positions(n, games, rng_seed=0):
    for seed in range(games):
        g = atut.new_game("sixty_six", players=n, seed=seed + 100 * rng_seed)
        rng = random.Random(seed)
        while not g.is_over:
            yield g
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_G15_determinize_is_consistent_with_everything_seen(n):
    """Sampled states keep the seat's hand, the cards played, exact card points (from the
    log, though the view hides the others' totals), shown marriage cards (G9), the trump card
    taken (G10, G7) and every void shown after the stock is gone (G8)."""
    rng = random.Random(n)
    checked_void = checked_known = 0
    for g in _random_positions(n, 25):
        seat = g.to_move
        v = g.view(seat)
        k = P.Knowledge(v)
        for _ in range(3):
            d = P.determinize(v, rng)
            assert d.hands[seat] == g.hands[seat]
            assert d.points == g.points and d.tricks_won == g.tricks_won
            assert d.trump_card == g.trump_card and len(d.stock) == len(g.stock)
            all_cards = d.stock + ([d.trump_card] if d.trump_card is not None else [])
            held = 0
            for s in range(n):
                assert C.count(d.hands[s]) == C.count(g.hands[s])
                assert not held & d.hands[s]
                held |= d.hands[s]
                assert d.hands[s] & k.known[s] == k.known[s]
                checked_known += bool(k.known[s]) and s != seat
                for su in range(4):
                    if k.voids[s] >> su & 1:
                        assert not d.hands[s] & C.SUIT_MASK[su]
                        assert not g.hands[s] & C.SUIT_MASK[su]      # the void is real
                        checked_void += 1
            assert held | k.played | sum(1 << c for c in all_cards) == P.DECK_MASK
    assert checked_void > 0 and checked_known > 0


def test_G9_marriage_card_is_placed_with_the_declarer():
    g = new(2, {1: ["QH", "KH", "9C", "JC", "9D", "JD"]}, "AS", dealer=0)
    g.apply({"type": "play", "card": "QH", "meld": "KH"})
    v = g.view(0)
    rng = random.Random(1)
    for _ in range(20):
        d = P.determinize(v, rng)
        assert d.hands[1] >> C.card("KH") & 1
        assert d.points[1] == 20


# --- level 4: the exact endgame -------------------------------------------------------------------

def _minimax(g, seat):
    if g.to_move is None:
        return P.solve_evaluate(g, seat, g)
    vals = []
    for a in g._legal():
        c = B.fast_clone(g)
        c._apply(a)
        vals.append(_minimax(c, seat))
    return max(vals) if g.to_move == seat else min(vals)


def test_solver_agrees_with_plain_minimax():
    checked = 0
    for seed in range(30):
        g = atut.new_game("sixty_six", players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and sum(C.count(h) for h in g.hands) > 7:
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over or g.trump_card is not None:
            continue
        seat = g.to_move
        d = P.determinize(g.view(seat), rng)
        assert P.solvable(d, d)
        assert B.solve(P, d, d, seat, 10 ** 6) == _minimax(d, seat)
        checked += 1
    assert checked >= 5


def test_level4_plays_a_winning_move_in_a_won_endgame():
    found = 0
    for seed in range(60):
        g = atut.new_game("sixty_six", players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and sum(C.count(h) for h in g.hands) > 8:
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over or g.trump_card is not None:
            continue
        seat = g.to_move
        values = {}
        for a in g._legal():
            c = B.fast_clone(g)
            c._apply(a)
            values[atut.canonical(a)] = _minimax(c, seat)
        if max(values.values()) == 1 and min(values.values()) == 0:
            a = B.make_bot("sixty_six", 4, seed=1, budget={"time_cap": 30.0},
                           strict=True).choose(g.view(seat))
            assert values[atut.canonical(a)] == 1
            found += 1
    assert found >= 3


# --- strength (small; the full table is in docs/BOTS.md) ---------------------------------------

def test_rules_beat_random_on_duplicate_deals():
    r = arena.run("sixty_six", [2, 1], 2, deals=30, seed=11)
    assert r["bots"][0]["share"] > 0.65


def test_search_beats_rules_on_duplicate_deals():
    r = arena.run("sixty_six", [3, 2], 2, deals=12, seed=5,
                  budgets={3: {"rollouts": 120, "time_cap": 30.0}})
    assert r["bots"][0]["share"] > 0.5
