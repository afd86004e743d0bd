"""tysiac1001 levels 3-4: the plug-in's own search (``search_values``): deal scoring of sampled
play-outs, the auction model, the bid reading, the play-out policy, every phase's values."""

from __future__ import annotations

import random

from test_bots_tysiac1001 import announced_deal, new

import atut
from atut import bots as B
from atut import cards as C
from atut.bots import tysiac1001 as P

BUDGET = {"rollouts": 60, "min_samples": 6, "time_cap": 30.0, "clock": "cpu"}


def test_gains_follow_g14_g15():
    # declarer 1 makes 100 with 104; the others' totals round (37 -> 35, 38 -> 40)
    assert P._gains(3, 1, 100, [37, 104, 38], [0, 0, 0], [0, 1, 2]) == [35, 100, 40]
    assert P._gains(3, 1, 105, [37, 104, 38], [0, 0, 0], [0, 1, 2]) == [35, -105, 40]
    # four players: the sitting-out dealer keeps his credit (G16)
    assert P._gains(4, 1, 60, [0, 70, 20, 31], [15, 0, 0, 0], [1, 2, 3]) == [15, 60, 20, 30]


def test_value_is_the_deal_win_share():
    assert P._value([100, 40, 30], 0) > 1.0
    assert P._value([40, 100, 30], 0) < 0.0
    tie = P._value([50, 50, 0], 0)
    assert 0.5 <= tie < 1.0


def test_auction_raises_by_five_up_to_each_max():
    active = [0, 1, 2]
    maxes = [70, 52, -1]
    caps = [120, 120, 120]
    # seat 0 to bid, nobody has bid: 0 bids 40, 1 45, 2 passes, 0 50, and 1 stops (55 > 52)
    d, floor = P._auction(active, [], 0, -1, 0, maxes, caps)
    assert (d, floor) == (0, 50)
    # seat 0 passes at once, 1 bids 40, 2 passes: 1 at 40
    d, floor = P._auction(active, [], 0, -1, 0, [-1, 52, -1], caps)
    assert (d, floor) == (1, 40)
    # two passes with no bid: the last player takes the przykup (G7)
    d, floor = P._auction(active, [], 0, -1, 0, [-1, -1, -1], caps)
    assert (d, floor) == (2, 0)
    # the cap of a hand without a marriage stops it at 120 (G6)
    d, floor = P._auction(active, [], 0, -1, 0, [300, 200, -1], [400, 120, 0])
    assert (d, floor) == (0, 120)


def test_bids_are_read_as_the_rules_bid():
    hands = {0: ["AS", "10S", "AC", "10C", "KH", "QH", "9D"]}
    g = new(hands, przykup=["JD", "9H", "9S"])
    g.apply({"type": "bid", "value": 60})
    g.apply({"type": "pass"})
    cons = P._bid_constraints(g.view(2))
    assert cons[0] == (65, 1e9)
    assert cons[1] == (-1e9, 70)          # passed at lowest bid 65


def test_play_policy_declares_a_marriage_and_plays_legally():
    g = announced_deal()
    g.apply({"type": "play", "card": "AS"})        # no marriage on the first trick (G13)
    g.apply({"type": "play", "card": "9S"})
    g.apply({"type": "play", "card": "AD"})        # seat 2 void in spades, no trump yet
    assert g.to_move == 0 and g.tricks_won[0] == 1
    a = P.play_policy(g, random.Random(0))
    assert a == {"type": "play", "card": "QH", "meld": "KH"}       # hearts: 100
    rng = random.Random(1)
    sim = P._sim(P.determinize(g.view(0), rng))
    while sim.phase == "play":
        a = P.play_policy(sim, rng)
        assert a in sim._legal()
        sim._apply(a)
    assert sim.phase == "done" and sum(P._totals(sim)) == 120 + sum(sim.meld_points)
    assert sim.meld_points[0] >= 100


def phase_views(n, last_tricks=False):
    """The views of deal 1 (seed 11, rules' play) with a choice: the first of each phase, and
    with ``last_tricks`` also every play with 4 cards in hand."""
    g = atut.new_game("tysiac1001", players=n, seed=11)
    rng = random.Random(11)
    seen = set()
    while g.deal_no == 1:
        v = g.view(g.to_move)
        if len(v["legal_actions"]) > 1 and (
                v["phase"] not in seen or (last_tricks and len(v["hand"]) == 4)):
            seen.add(v["phase"])
            yield v
        g.apply(P.rule_policy(v, rng))


def test_search_values_every_phase():
    for n in (3, 4):
        seen = set()
        for v in phase_views(n, last_tricks=True):
            seen.add(v["phase"])
            legal = v["legal_actions"]
            vals = P.search_values(v, legal, random.Random(3), BUDGET, {}, 3)
            assert len(vals) == len(legal)
            assert all(isinstance(x, float) for x in vals)
        assert {"bid", "play"} <= seen


def test_search_records_samples_and_decisions_cut_by_the_time_cap():
    # every phase's search reports to the bot's stats (the arena's "cut by the time cap" line)
    seen = set()
    for v in phase_views(3):
        seen.add(v["phase"])
        legal = v["legal_actions"]
        stats: dict = {}
        P.search_values(v, legal, random.Random(3), BUDGET, stats, 3)
        assert stats["decisions"] == 1 and stats["capped"] == 0, v["phase"]
        assert stats["samples"] >= 1
        P.search_values(v, legal, random.Random(3), dict(BUDGET, time_cap=-1.0), stats, 3)
        assert stats["decisions"] == 2 and stats["capped"] == 1, v["phase"]
        assert stats["samples"] == 1                     # stopped after the first sample
    assert {"bid", "play"} <= seen


def test_a_strong_hand_bids_and_announces_what_it_can_make():
    # hearts and diamonds marriages with aces: a search bot bids, and its contract is high
    hands = {0: ["AH", "KH", "QH", "AD", "KD", "QD", "AS"]}
    g = new(hands, przykup=["9C", "JC", "9S"])
    bot = B.make_bot("tysiac1001", 3, seed=1, strict=True)
    a = bot.choose(g.view(0))
    assert a["type"] == "bid"
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    while g.phase == "give":
        g.apply(bot.choose(g.view(0)))
    assert g.hands[0] & C.mask_of(C.CARD[x] for x in ("KH", "QH", "KD", "QD")) \
        == C.mask_of(C.CARD[x] for x in ("KH", "QH", "KD", "QD"))
    a = bot.choose(g.view(0))
    assert a["type"] == "announce" and a["value"] >= 100


def test_a_weak_hand_passes():
    hands = {0: ["9S", "JS", "9C", "JC", "9D", "QH", "JH"]}
    g = new(hands, przykup=["AC", "AD", "AH"])
    bot = B.make_bot("tysiac1001", 3, seed=1, strict=True)
    assert bot.choose(g.view(0)) == {"type": "pass"}


def test_search_values_with_any_handout():
    """Modern hand-out (any two cards of the hand): only the least useful cards are tried."""
    for seed in (4, 5, 6):
        g = atut.new_game("tysiac1001", players=3, seed=seed, options={"handout": "any"})
        rng = random.Random(seed)
        while g.phase in ("bid", "decide"):
            g.apply(P.rule_policy(g.view(g.to_move), rng))
        if g.phase != "give":
            continue
        v = g.view(g.to_move)
        vals = P.search_values(v, v["legal_actions"], random.Random(1), BUDGET, {}, 3)
        assert len(vals) == len(v["legal_actions"]) == 10
        bot = B.make_bot("tysiac1001", 3, seed=1, budget={"rollouts": 60}, strict=True)
        while g.phase == "give":
            g.apply(bot.choose(g.view(g.to_move)))
        assert g.phase == "announce" and bot.stats.get("errors", 0) == 0


def test_int_plays_and_shallow_clones_match_the_action_dicts():
    # the play-outs' fast path: _play_card(ints) == _apply(play_policy's dict), on a _clone
    # that leaves the sampled state as it was
    skip = {"rng", "events", "history", "_cache"}

    def state(g):
        return {k: v for k, v in g.__dict__.items() if k not in skip}
    checked = 0
    for players in (3, 4):
        for seed in range(4):
            g = atut.new_game("tysiac1001", players=players, seed=seed)
            rng = random.Random(seed)
            while g.phase != "play":
                g.apply(P.rule_policy(g.view(g.to_move), rng))
            d = P._sim(P.determinize(g.view(g.to_move), random.Random(seed)))
            before = state(P._clone(d))
            a, b = P._clone(d), P._clone(d)
            while a.phase == "play":
                c, meld = P._play_choice(a)
                act = P.play_policy(b, None)
                assert act in b._legal()
                assert act == ({"type": "play", "card": C.CODES[c], "meld": C.CODES[P.PARTNER[c]]}
                               if meld else {"type": "play", "card": C.CODES[c]})
                a._play_card(a.to_move, c, meld)
                b._apply(act)
                assert state(a) == state(b)
                checked += 1
            assert state(d) == before
    assert checked > 100
