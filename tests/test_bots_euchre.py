"""Euchre bot plug-in: the determinizer keeps to what the seat knows, the level-2 rules make
every decision of the game sensibly, and the bots beat weaker ones."""

from __future__ import annotations

import random

import pytest
from test_euchre import do, new

import atut
from atut import cards as C
from atut.bots import check_determinization, make_bot
from atut.bots import euchre as B
from atut.game import canonical
from atut.games import euchre as E


def _random_states(n_games, seed0=0, options=None):
    """Views of the seat to move along seeded random games, with the real game."""
    for seed in range(seed0, seed0 + n_games):
        g = atut.new_game("euchre", seed=seed, options=options)
        rng = random.Random(seed)
        while not g.is_over:
            yield g, g.view(g.to_move)
            g.apply(rng.choice(g.legal_actions()))


def test_determinize_is_consistent_with_every_view():
    rng = random.Random(1)
    n = 0
    for g, v in _random_states(60, options={"redeal": True}):
        d = B.determinize(v, rng)
        check_determinization(d, v, [canonical(a) for a in v["legal_actions"]])
        d.check_invariants()
        me = v["seat"]
        assert d.hands[me] == g.hands[me]
        assert d.played == g.played and d.trick == g.trick and d.trump == g.trump
        assert d.tricks_won == g.tricks_won and d.out == g.out and d.scores == g.scores
        assert d.maker == g.maker and d.phase == g.phase and d.sheet == g.sheet
        assert [C.count(h) for h in d.hands] == [C.count(h) for h in g.hands]
        if me == g.dealer:
            assert d.discarded == g.discarded
        if g.up_state == "turned":
            assert not any(h >> g.upcard & 1 for h in d.hands)
        n += 1
    assert n > 5000


def test_determinize_respects_voids():
    """A player who failed to follow the led (effective) suit never gets a card of it."""
    rng = random.Random(2)
    checked = 0
    for g, v in _random_states(20, seed0=100):
        if g.phase != "play":
            continue
        k = B.Knowledge(v)
        t = g.trump
        for s in range(4):
            for su in range(4):
                if k.voids[s] >> su & 1:
                    assert not g.hands[s] & E.EFF_MASK[t][su]     # the knowledge is true
                    for _ in range(3):
                        d = B.determinize(v, rng)
                        assert not d.hands[s] & E.EFF_MASK[t][su]
                    checked += 1
    assert checked > 100


def test_determinize_uses_nothing_hidden():
    """Two games that look the same to seat 1 (other hands swapped) give the same samples."""
    hands = {1: ["JH", "JD", "AH", "9C", "10C"], 0: ["AS", "KS", "QS", "JS", "10S"],
             2: ["AC", "KC", "QC", "JC", "9S"], 3: ["AD", "KD", "QD", "10D", "9D"]}
    a = new(0, hands, "KH")
    b = new(0, {1: hands[1], 0: hands[2], 2: hands[3], 3: hands[0]}, "KH")
    va, vb = a.view(1), b.view(1)
    assert va == vb
    da = B.determinize(va, random.Random(5))
    db = B.determinize(vb, random.Random(5))
    assert da.hands == db.hands and da.kitty == db.kitty


def test_determinize_places_the_dealers_upcard():
    """Others know the dealer picked up the upcard: he holds it, or (rarely) buried it."""
    g = new(0, {}, "QD")
    do(g, "order_up")
    g.apply({"type": "discard", "card": C.code(C.cards_of(g.hands[0])[0])})
    g.apply({"type": "alone", "value": False})
    v = g.view(1)
    rng = random.Random(3)
    kept = buried = 0
    for _ in range(200):
        d = B.determinize(v, rng)
        if d.hands[0] >> C.card("QD") & 1:
            kept += 1
        else:
            assert d.discarded == C.card("QD")
            buried += 1
    assert kept > 150 and buried >= 1


def test_rule_policy_is_legal_in_every_phase():
    rng = random.Random(4)
    phases = set()
    for _, v in _random_states(50, options={"redeal": True}):
        a = B.rule_policy(v, rng)
        assert canonical(a) in {canonical(x) for x in v["legal_actions"]}
        phases.add(v["phase"])
    assert phases == {"round1", "round2", "discard", "alone", "defend", "play"}


def test_rollout_policy_is_legal():
    rng = random.Random(6)
    for _g, v in _random_states(30, seed0=50):
        d = B.determinize(v, rng)
        a = B.rollout_policy(d, rng)
        assert canonical(a) in {canonical(x) for x in d._legal()}


def _view_after(g, *actions):
    do(g, *actions)
    return g.view(g.to_move)


def test_rules_order_up_a_strong_hand_and_pass_a_weak_one():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "AS"]}, "9H")
    assert B.rule_policy(g.view(1), random.Random(0)) == {"type": "order_up"}
    g = new(0, {1: ["9C", "10C", "9S", "10S", "QD"]}, "9H")
    assert B.rule_policy(g.view(1), random.Random(0)) == {"type": "pass"}


def test_rules_go_alone_with_a_lay_down_hand():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "AS"]}, "9H")
    do(g, "order_up")
    g.apply(g.legal_actions()[0])
    assert B.rule_policy(g.view(1), random.Random(0)) == {"type": "alone", "value": True}


def test_rules_stuck_dealer_names_his_best_suit():
    g = new(0, {0: ["JC", "JS", "AC", "KC", "9D"]}, "10H")
    do(g, *["pass"] * 7)
    assert g.to_move == 0
    assert B.rule_policy(g.view(0), random.Random(0)) == {"type": "name", "suit": "C"}


def test_rules_dealer_discards_a_low_off_suit_card():
    g = new(0, {0: ["JH", "AH", "KS", "9C", "AD"]}, "QH")
    do(g, "pass", "pass", "pass", "order_up")
    assert B.rule_policy(g.view(0), random.Random(0)) == {"type": "discard", "card": "9C"}


def test_rules_play_win_cheaply_and_do_not_trump_partners_ace():
    # dealer 3, upcard 10H, seat 0 orders up, trump H
    g = new(3, {0: ["AS", "9D", "QC", "KC", "10C"], 1: ["9S", "KS", "JH", "AD", "KD"],
                2: ["QS", "10S", "9H", "AC", "9C"]}, "10H")
    do(g, "order_up")
    g.apply(g.legal_actions()[0])
    g.apply({"type": "alone", "value": False})
    do(g, "AS")                       # seat 0 leads the ace of spades
    v = g.view(1)
    assert B.rule_policy(v, random.Random(0)) == {"type": "play", "card": "9S"}  # can't beat
    do(g, "9S")
    v = g.view(2)                     # partner's ace wins: play low
    assert B.rule_policy(v, random.Random(0)) == {"type": "play", "card": "10S"}


def test_rules_lead_the_right_bower_as_maker():
    g = new(3, {0: ["JH", "JD", "9H", "AC", "9S"]}, "10H")
    do(g, "order_up")
    g.apply(g.legal_actions()[0])
    g.apply({"type": "alone", "value": False})
    assert B.rule_policy(g.view(0), random.Random(0)) == {"type": "play", "card": "JH"}


def test_strength_ranks_hands():
    H = C.HEARTS
    strong = C.mask_of(C.card(x) for x in ["JH", "JD", "AH", "KH", "AS"])
    weak = C.mask_of(C.card(x) for x in ["9C", "10C", "9S", "10S", "QD"])
    assert B.strength(strong, H) > 4 > 1 > B.strength(weak, H)


def _match(level_a, level_b, games, seed0=0):
    """Games won by the pair of ``level_a`` bots (seats swap every game)."""
    wins = 0
    for i in range(games):
        g = atut.new_game("euchre", seed=seed0 + i)
        side = i % 2
        levels = [level_a if s % 2 == side else level_b for s in range(4)]
        bots = [atut.make_bot("euchre", levels[s], seed=i * 4 + s) for s in range(4)]
        while not g.is_over:
            s = g.to_move
            g.apply(bots[s].choose(g.view(s)))
        wins += g.winner[0] % 2 == side
    return wins


def test_level2_beats_random():
    assert _match(2, 1, 40) >= 36


def test_search_bot_plays_legally_and_beats_random():
    """Level 3 with a small budget: legal decisions from views only, and stronger than random."""
    g = atut.new_game("euchre", seed=9)
    bot = make_bot("euchre", 3, seed=1, budget={"rollouts": 30, "min_samples": 4})
    rand = atut.make_bot("euchre", 1, seed=2)
    while not g.is_over:
        s = g.to_move
        v = g.view(s)
        a = bot.choose(v) if s % 2 == 0 else rand.choose(v)
        assert canonical(a) in {canonical(x) for x in v["legal_actions"]}
        g.apply(a)
    assert g.winner == [0, 2]


@pytest.mark.parametrize("level", [3, 4])
def test_search_levels_decide_late_play(level):
    """Level 4 solves the last tricks exactly; both levels return legal actions."""
    rng = random.Random(level)
    bot = make_bot("euchre", level, seed=3, budget={"rollouts": 40, "min_samples": 4})
    n = 0
    for g, v in _random_states(3, seed0=300):
        if g.phase == "play" and g.played_tricks() >= 2 and len(v["legal_actions"]) > 1:
            a = bot.choose(v)
            assert canonical(a) in {canonical(x) for x in v["legal_actions"]}
            n += 1
            if n >= 6:
                break
    assert n >= 6
    _ = rng
