"""The imperial bot plug-in: determinizations consistent with the view, the level-2 rules, and
the bots playing whole games (G numbers refer to rules/002-imperial.md)."""

from __future__ import annotations

import random

import pytest

import atut
from atut import cards as C
from atut.bots import check_determinization, make_bot
from atut.bots import imperial as B
from atut.game import canonical
from atut.games import imperial as I


def positions(n, games, seed0=0):
    """(game, view of the seat to move) at every step of random games."""
    for seed in range(seed0, seed0 + games):
        g = atut.new_game("imperial", players=n, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            yield g, g.view(g.to_move)
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("n", [2, 3])
def test_determinize_is_consistent_with_the_view(n):
    rng = random.Random(n)
    checked = 0
    for g, v in positions(n, 6):
        d = B.determinize(v, rng)
        check_determinization(d, v, [canonical(a) for a in v["legal_actions"]])
        d.check_invariants()                               # cards conserved, sheet = scores
        me = v["seat"]
        k = B.Knowledge(v)
        assert d.hands[me] == g.hands[me] and d.to_move == g.to_move
        assert d.trick == g.trick and d.trump == g.trump and d.scores == g.scores
        assert d.tricks_won == g.tricks_won and d.taken == g.taken
        assert d.deal_points == g.deal_points and d.sheet == g.sheet
        for s in range(n):
            assert C.count(d.hands[s]) == C.count(g.hands[s])
            # G9: what the declarations showed stays where it was shown
            assert g.revealed[s] & g.hands[s] & ~d.hands[s] == 0
            # shown voids (G13) are respected
            for su in range(4):
                if k.voids[s] >> su & 1:
                    assert not d.hands[s] & C.SUIT_MASK[su]
                    assert not g.hands[s] & C.SUIT_MASK[su]      # and were true
            # no played card comes back
            assert not d.hands[s] & k.played
        if n == 2:
            assert C.count(d.unused) == 7 and d.trump_card == g.trump_card
        checked += 1
    assert checked > 100


def test_determinize_samples_vary_and_use_only_unseen_cards():
    g = atut.new_game("imperial", players=2, seed=4)
    v = g.view(g.to_move)
    me = v["seat"]
    k = B.Knowledge(v)
    seen = set()
    for i in range(20):
        d = B.determinize(v, random.Random(i))
        other = d.hands[1 - me]
        assert other & ~(k.unseen | k.known[1 - me]) == 0
        assert other & k.known[1 - me] == k.known[1 - me]
        seen.add(other)
    assert len(seen) > 1


def test_knowledge_voids_from_failing_to_follow():
    # seat 0 has no spades and no hearts (trump): playing AC on KS shows both voids (G13)
    seat0 = ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "AD", "10D", "9D", "8D"]
    from test_imperial import game_with
    g = game_with(2, 0, {1: ["KS", "QS"], 0: seat0}, turned="8H")
    g.apply({"type": "play", "card": "KS"})
    g.apply({"type": "play", "card": "AC"})
    k = B.Knowledge(g.view(1))
    assert k.voids[0] == (1 << C.SPADES) | (1 << C.HEARTS)
    for i in range(10):
        d = B.determinize(g.view(1), random.Random(i))
        assert not d.hands[0] & (C.SUIT_MASK[C.SPADES] | C.SUIT_MASK[C.HEARTS])


# --- level 2 ----------------------------------------------------------------------------

def test_rule_policy_is_always_legal():
    rng = random.Random(0)
    for n in (2, 3):
        for _g, v in positions(n, 4, seed0=50):
            a = B.rule_policy(v, rng)
            assert canonical(a) in {canonical(x) for x in v["legal_actions"]}


def test_rule_leads_a_trump_honour_G14():
    from test_imperial import game_with
    g = game_with(2, 0, {1: ["QH", "7H", "AS", "10S"]}, turned="9H")
    a = B.rule_policy(g.view(1), random.Random(0))
    assert a["card"] in ("QH", "7H")                     # +4 either way; Q first (higher)
    assert a["card"] == "QH"


def test_rule_follow_wins_cheaply_and_keeps_honours():
    from test_imperial import game_with
    # nothing beats the led K: throw the lowest spade
    g = game_with(2, 0, {1: ["KS", "9S"], 0: ["AS", "10S", "8D", "KH"]}, turned="7C")
    g.apply({"type": "play", "card": "KS"})
    legal = [x["card"] for x in g.legal_actions()]
    a = B.rule_policy(g.view(0), random.Random(0))
    assert a["card"] == min(legal, key=lambda c: I.POWER[C.card(c)])
    # a 9 led: win with the lowest spade that beats it
    g = game_with(2, 0, {1: ["9S"], 0: ["AS", "10S", "8S"]}, turned="7C")
    g.apply({"type": "play", "card": "9S"})
    hand = g.view(0)["hand"]
    a = B.rule_policy(g.view(0), random.Random(0))
    winners = [c for c in hand if c.endswith("S") and I.POWER[C.card(c)] > I.POWER[C.card("9S")]]
    assert a["card"] == min(winners, key=lambda c: I.POWER[C.card(c)])
    # void in the led suit with a plain trump and a trump honour: ruffs with the plain trump
    seat0 = ["9H", "KH", "AC", "KC", "QC", "JC", "10C", "9C", "8C", "AD", "10D", "9D"]
    g = game_with(2, 0, {1: ["KS"], 0: seat0}, turned="8H")
    g.apply({"type": "play", "card": "KS"})
    assert B.rule_policy(g.view(0), random.Random(0))["card"] == "9H"


def _match(n, levels, games, seed0):
    """Winners' levels over ``games`` games, the levels rotating round the table."""
    out = []
    for gi in range(games):
        g = atut.new_game("imperial", players=n, seed=seed0 + gi)
        lv = [levels[(s + gi) % n] for s in range(n)]
        bots = [atut.make_bot("imperial", lv[s], seed=gi * 10 + s) for s in range(n)]
        while not g.is_over:
            s = g.to_move
            g.apply(bots[s].choose(g.view(s)))
        out.append(lv[g.winner])
    return out


def play_points(n, level, other, deals, seed0):
    """Mean points from the play (G14 honour leads, G15 trick bonus) per deal of a ``level``
    seat and of the ``other``-level seats, over the first deals of seeded games."""
    tot = {"me": 0, "others": 0}
    for d in range(deals):
        g = atut.new_game("imperial", players=n, seed=seed0 + d)
        me = d % n
        bots = [make_bot("imperial", level if s == me else other, seed=d * 7 + s)
                for s in range(n)]
        while not g.is_over and g.deal_no == 1:
            s = g.to_move
            g.apply(bots[s].choose(g.view(s)))
        for e in g.events:
            if e["type"] in ("honour_lead", "tricks_bonus"):
                tot["me" if e["seat"] == me else "others"] += e["points"]
    return tot["me"] / deals, tot["others"] / (deals * (n - 1))


@pytest.mark.parametrize("n,margin", [(2, 3.0), (3, 1.5)])
def test_level2_scores_more_in_play_than_random(n, margin):
    # the declarations are luck, so compare the points the play itself brings (measured:
    # 2 players 7.9 vs 3.1 per deal, 3 players 4.5 vs 2.2)
    mine, theirs = play_points(n, 2, 1, 60, seed0=300)
    assert mine > theirs + margin, (mine, theirs)


def test_search_bots_choose_legal_and_repeatable():
    for n in (2, 3):
        g = atut.new_game("imperial", players=n, seed=8)
        rng = random.Random(8)
        for _ in range(5):
            g.apply(rng.choice(g.legal_actions()))
        v = g.view(g.to_move)
        for level in (3, 4):
            bot = make_bot("imperial", level, seed=1, budget={"rollouts": 40, "min_samples": 4})
            a = bot.choose(v)
            assert canonical(a) in {canonical(x) for x in v["legal_actions"]}
            again = make_bot("imperial", level, seed=1, budget={"rollouts": 40, "min_samples": 4})
            assert again.choose(v) == a


def test_evaluate_counts_this_deal_only():
    g = atut.new_game("imperial", players=2, seed=3)
    start = g.clone()
    rng = random.Random(3)
    while g.deal_no == start.deal_no and not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    if not g.is_over:
        row = g.sheet[0]
        d = row[0] - row[1]
        won = B.DEAL_WIN * ((d > 0) - (d < 0))               # the deal won (lost) counts too
        assert d and B.evaluate(g, 0, start) == d + won
        assert B.evaluate(g, 1, start) == -d - won


def test_search_leads_a_trump_honour_when_it_can():
    from test_imperial import game_with
    # G14: the K of trumps led is +4 and the trick; level 3 takes the sure points
    g = game_with(2, 0, {1: ["KH", "JH", "10S", "9S", "8C"]}, turned="9H")
    v = g.view(1)
    bot = make_bot("imperial", 3, seed=2, budget={"rollouts": 120, "min_samples": 8})
    a = bot.choose(v)
    assert a["card"] in ("KH", "JH") and a["card"] in B.Knowledge(v).honours_codes()


# --- the exact open-card solver (levels 3 and 4 near the end of the deal) -----------------------

def _brute(g, root, deal_no):
    """Minimax over the real game (root maximises, the others minimise) with the solver's value:
    +-DEAL_WIN_SOLVE for the deal won/lost (shared: 2 seats 0), plus the gain over the best
    other seat; G14's honour leads and G15's trick bonus are scored by the game itself."""
    if g.is_over or g.deal_no != deal_no:
        row = g.sheet[deal_no - 1]
        me = row[root]
        others = [row[s] for s in range(g.n) if s != root]
        bo = max(others)
        w = 1.0 if me > bo else (-1.0 if me < bo else 2.0 / (1 + others.count(bo)) - 1.0)
        return B.DEAL_WIN_SOLVE * w + me - bo
    vals = []
    for a in g.legal_actions():
        c = g.clone()
        c.apply(a)
        vals.append(_brute(c, root, deal_no))
    return max(vals) if g.to_move == root else min(vals)


@pytest.mark.parametrize("n,cards,games", [(2, 4, 6), (3, 3, 4)])
def test_solver_matches_brute_force_minimax(n, cards, games):
    checked = 0
    for seed in range(games):
        g = atut.new_game("imperial", players=n, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.deal_no == 1:
            s = g.to_move
            if C.count(g.hands[s]) <= cards:
                vals = B.solve_root(g, s)
                assert set(vals) == {C.card(a["card"]) for a in g.legal_actions()}
                for a in g.legal_actions():
                    c = g.clone()
                    c.apply(a)
                    assert vals[C.card(a["card"])] == pytest.approx(_brute(c, s, 1))
                checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 20


def test_solver_model_plays_like_the_rollouts():
    # the others in ``respond`` play ``rollout_policy``'s card (the level-2 rules, open hands)
    checked = 0
    for n in (2, 3):
        for seed in range(4):
            g = atut.new_game("imperial", players=n, seed=seed)
            rng = random.Random(seed)
            while not g.is_over and g.deal_no == 1:
                s = g.to_move
                e = B.Endgame(n, g.trump, s)
                hands = tuple(B.to9(h) for h in g.hands)
                played = tuple(B._TO9[c] for _, c in g.trick)
                got = B._FROM9[e.model(hands, s, played, g.leader)]
                assert C.code(got) == B.rollout_policy(g, rng)["card"]
                checked += 1
                g.apply(rng.choice(g.legal_actions()))
    assert checked > 100


def test_solver_leads_trump_honours_that_draw_the_others():
    # trump H, 4 tricks to go at 4-4, nothing scored yet.  Seat 1 leads, holding KH QH 8S 9S
    # against JH 7H KS QS: KH then QH score 8 (G14) and force out seat 0's honours as
    # followers (nothing for them); a spade first gives seat 0 the lead for JH and 7H.
    from test_imperial import game_with
    g = game_with(2, 0, {}, turned="9H")
    g.hands = [C.mask_of(C.card(x) for x in ("JH", "7H", "KS", "QS")),
               C.mask_of(C.card(x) for x in ("KH", "QH", "8S", "9S"))]
    g.trump, g.trick, g.leader, g.to_move = C.HEARTS, [], 1, 1
    g.tricks_won, g.deal_points = [4, 4], [0, 0]
    vals = B.solve_root(g, 1)
    assert set(vals) == {C.card(x) for x in ("KH", "QH", "8S", "9S")}
    assert vals[C.card("KH")] == vals[C.card("QH")] > max(vals[C.card("8S")], vals[C.card("9S")])
    assert vals[C.card("KH")] == B.DEAL_WIN_SOLVE + 8          # won the deal by 8 (6-6 tricks)
    mv = B.solve_root(g, 1, model=True)                         # against the rules: the same
    assert mv[C.card("KH")] == max(mv.values()) > mv[C.card("9S")]


def test_search_solves_the_end_of_the_deal_legal_and_repeatable():
    for n in (2, 3):
        g = atut.new_game("imperial", players=n, seed=9)
        rng = random.Random(9)
        while C.count(g.hands[g.to_move]) > 6 or len(g.legal_actions()) < 2:
            g.apply(rng.choice(g.legal_actions()))
        v = g.view(g.to_move)
        for level in (3, 4):
            bot = make_bot("imperial", level, seed=1, budget={"solve_samples": 6})
            a = bot.choose(v)
            assert canonical(a) in {canonical(x) for x in v["legal_actions"]}
            assert bot.stats["solved"] == 6
            again = make_bot("imperial", level, seed=1, budget={"solve_samples": 6})
            assert again.choose(v) == a
