"""Euchre's own search (levels 3-4): samples fitted to the others' calls and plays, the fast
play-out on masks (the level-2 card play), the exact endgame, seeded decisions."""

from __future__ import annotations

import random

from test_euchre import do, new

import atut
from atut import bots
from atut import cards as C
from atut.bots import euchre as B
from atut.bots import make_bot
from atut.game import canonical


def _mask(codes):
    return C.mask_of(C.card(x) for x in codes)


def _play_states(n_games, seed0=0):
    """Real games (level-2 bots) and the views of the seat to move in phase play."""
    for seed in range(seed0, seed0 + n_games):
        g = atut.new_game("euchre", seed=seed)
        bot = make_bot("euchre", 2, seed=seed)
        deal_no = g.deal_no
        while not g.is_over and g.deal_no == deal_no:
            v = g.view(g.to_move)
            if g.phase == "play":
                yield g, v
            g.apply(bot.choose(v))


def test_fast_card_play_is_the_level2_card_play():
    """``_card`` on masks, given what the seat can see, plays what ``rule_policy`` plays."""
    n = 0
    for g, v in _play_states(40):
        s = g.to_move
        h = g.hands[s]
        gone = g.played | (1 << g.upcard if g.up_state == "turned" else 0)
        out = B.DECK_MASK & ~gone & ~h
        if s == g.dealer and g.discarded >= 0:
            out &= ~(1 << g.discarded)
        c = B._card(h, list(g.trick), s, out, g.trump, g.maker, g.alone, g.active)
        assert C.CODES[c] == B.rule_policy(v, random.Random(0))["card"]
        n += 1
    assert n > 300


def test_call_weight_prefers_hands_that_fit_the_passes():
    """Seat 1 passed the upcard's suit (hearts): a sample giving it both bowers fits worse
    than one giving it nothing in hearts; after it ordered up, the other way round."""
    strong, weak = ["JH", "JD", "AH", "KH", "AS"], ["9C", "10C", "9S", "10S", "QD"]
    g = new(0, {2: ["AC", "KC", "QC", "9D", "10D"]}, "9H")
    do(g, "pass")
    k = B.Knowledge(g.view(2))
    assert k.call_facts == [(1, "r1", False)]
    fits = []
    for h in (strong, weak):
        hands = [0, _mask(h), k.hand, 0]
        fits.append(B.call_weight(k, hands, -1))
    assert fits[0] < 0.05 < 0.9 < fits[1]
    g = new(0, {2: ["AC", "KC", "QC", "9D", "10D"]}, "9H")
    do(g, "order_up")
    g.apply(g.legal_actions()[0])              # the dealer's discard
    g.apply({"type": "alone", "value": False})
    k = B.Knowledge(g.view(2))
    assert (1, "r1", True) in k.call_facts and (1, "alone", False) in k.call_facts
    assert B.call_weight(k, [0, _mask(strong), k.hand, 0], -1) > \
        B.call_weight(k, [0, _mask(weak), k.hand, 0], -1)


def test_samples_give_the_maker_trumps():
    """Fitted samples give a seat that ordered up more trumps than plain uniform deals."""
    g = new(0, {2: ["AC", "KC", "QC", "9D", "10D"]}, "9S")
    do(g, "order_up")
    g.apply(g.legal_actions()[0])
    g.apply({"type": "alone", "value": False})
    k = B.Knowledge(g.view(2))
    spades = B.EFF_MASK[C.SPADES][C.SPADES]
    rng = random.Random(7)
    fitted = sum(C.count(B.deal_hidden(k, rng, B.INFER_TRIES)[0][1] & spades) for _ in range(300))
    plain = sum(C.count(B.deal_hidden(k, rng, 1)[0][1] & spades) for _ in range(300))
    assert fitted > plain * 1.3


def test_play_facts_fit_the_rules():
    """A sample in which an opponent's recorded play is not what the rules would play with
    his sampled hand weighs less (PLAY_MISS) than one in which it is."""
    for g, v in _play_states(10, seed0=40):
        k = B.Knowledge(v)
        facts = [f for f in k.play_facts if f[0] != k.seat ^ 2]
        if not facts:
            continue
        true_hands = list(g.hands)
        w_true = B.call_weight(k, true_hands, g.discarded)
        # the opponents played by the rules (level 2): the true hands fit every play
        assert w_true > 0
        for f in k.play_facts:
            s, c, before, gone, later = f
            h = true_hands[s] | later
            out = B.DECK_MASK & ~gone & ~h & ~(1 << g.upcard if g.up_state == "turned" else 0)
            if s == g.dealer and g.discarded >= 0:
                out &= ~(1 << g.discarded)
            assert B._card(h, before, s, out, g.trump, g.maker, g.alone,
                           4 - sum(g.out)) == c
        return
    raise AssertionError("no state with plays of the others")


def test_exact_endgame_matches_the_generic_solver():
    """``_solve`` (alpha-beta on masks) gives the value of the generic open-card solver with
    ``evaluate`` (the same scale, deal bonus included)."""
    rng = random.Random(3)
    n = 0
    for g, _v in _play_states(30, seed0=80):
        if sum(C.count(g.hands[s]) for s in range(4)) > 10:
            continue
        c = g.clone()
        c._recording = False
        start = c.clone()
        want = bots.solve(B, c, start, c.to_move, 10 ** 6)
        got = B._solve(c, c.to_move, [0, 10 ** 6])
        assert got == want
        n += 1
    assert n > 20
    _ = rng


def test_search_values_one_per_action_and_seeded():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "AS"]}, "9H")
    v = g.view(1)
    budget = dict(bots.BUDGETS[3], **B.BUDGETS[3])
    budget.update(rollouts=60, min_samples=8)
    a = B.search_values(v, v["legal_actions"], random.Random(1), budget, {}, 3)
    b = B.search_values(v, v["legal_actions"], random.Random(1), budget, {}, 3)
    assert len(a) == 2 and a == b
    assert a[0] > a[1]                       # order up the bowers and the ace: clearly better


def test_search_bot_orders_up_a_laydown_and_goes_alone():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "QH"]}, "9H")
    bot = make_bot("euchre", 3, seed=2, budget={"rollouts": 200})
    assert bot.choose(g.view(1)) == {"type": "order_up"}


def test_level4_solves_late_positions():
    bot = make_bot("euchre", 4, seed=3, budget={"rollouts": 40, "min_samples": 4})
    for _g, v in _play_states(10, seed0=120):
        if sum(x["cards"] for x in v["seats"] if not x["sitting_out"]) <= B.SOLVE_CARDS \
                and len(v["legal_actions"]) > 1:
            a = bot.choose(v)
            assert canonical(a) in {canonical(x) for x in v["legal_actions"]}
            assert bot.stats["solved"] > 0
            return
    raise AssertionError("no late position found")
