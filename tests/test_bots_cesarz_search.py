"""cesarz bot plug-in: its own search (equivalent jokers merged, screening of many actions)
and the rule-like rollout policy."""

from __future__ import annotations

import json
import os
import random
import warnings

import atut
from atut import cards as C
from atut.bots import cesarz as P
from atut.bots import make_bot
from atut.game import canonical
from atut.games.cesarz import arrange_deck

JOKER_CODES = {C.CODES[j] for j in P.JOKERS}


def _joker_view():
    """A two-player view in play where the seat to move holds all three jokers."""
    hands = {0: ["RED_JOKER", "BLACK_JOKER", "BLUE_JOKER", "EMPEROR", "AH", "10H", "KS", "QS",
                 "9C", "JC", "PRD", "YPH", "9D", "JD", "AS", "10S", "KC"]}
    g = atut.new_game("cesarz", players=2, seed=3, dealer=0,
                      deck=arrange_deck(2, 0, hands, ()))
    rng = random.Random(0)
    while g.phase != "play" or g.to_move != 0 or not g.hands[0] & P.JOKER_MASK:
        g.apply(P.rule_policy(g.view(g.to_move), rng))
        assert not g.is_over
    return g, g.view(0)


def test_action_groups_merge_the_three_jokers_only():
    g, v = _joker_view()
    legal = v["legal_actions"]
    groups = P.action_groups(legal)
    assert len(groups) == len(legal)
    n_jokers = C.count(g.hands[0] & P.JOKER_MASK)
    assert n_jokers >= 2
    for i, a in enumerate(legal):
        r = legal[groups[i]]
        if a["card"] in JOKER_CODES:
            assert r["card"] in JOKER_CODES and r.get("companion") == a.get("companion")
        else:
            assert groups[i] == i
    joker_actions = [a for a in legal if a["card"] in JOKER_CODES]
    assert len(set(groups)) == len(legal) - len(joker_actions) + len(joker_actions) // n_jokers


def test_search_values_are_seeded_equal_for_merged_jokers_and_screen_out_weak_actions():
    g, v = _joker_view()
    legal = v["legal_actions"]
    budget = dict(P.BUDGETS[3], time_cap=100.0, clock="cpu", rule_bonus=0.0,
                  solve_nodes=0, common_rollouts=False)
    stats: dict = {}
    vals = P.search_values(v, legal, random.Random(5), budget, stats, 3)
    assert vals == P.search_values(v, legal, random.Random(5), budget, {}, 3)
    assert len(vals) == len(legal)
    groups = P.action_groups(legal)
    for i in range(len(legal)):
        assert vals[i] == vals[groups[i]]
    kept = {groups[i] for i in range(len(legal)) if vals[i] > -500}
    assert len(kept) <= budget["keep"] + 1                      # screened: the best and the rules'
    assert len(set(groups)) > len(kept)
    assert stats["samples"] >= budget["min_samples"]


def test_quiet_rollouts_end_with_the_deal_and_score_it():
    g, v = _joker_view()
    for i in range(5):
        d = P._quiet(P.determinize(v, random.Random(i)))
        scores0 = list(d.scores)
        deal_no = d.deal_no
        val = P._rollout(d, 0, scores0, random.Random(i))
        # the next deal was only counted (Game._next_deal), not dealt
        assert d.deal_no == deal_no + 1 and d.phase == "deal" and d._legal() == []
        assert not any(d.hands)
        assert d.previous_deal["deal_no"] == deal_no
        ch = d.previous_deal["changes"]
        assert abs(val - (ch[0] - ch[1]) / 100.0) < 1e-9


def test_smart_rollout_policy_is_legal_for_every_player_count():
    plays = 0
    for n in (2, 3, 4, 5):
        for seed in range(3):
            g = atut.new_game("cesarz", players=n, seed=seed)
            rng = random.Random(seed)
            while not g.is_over and g.deal_no <= 2:
                a = P.smart_rollout_policy(g, rng)
                assert canonical(a) in {canonical(x) for x in g._legal()}
                plays += a["type"] == "play"
                g.apply(a)
    assert plays > 300


def _open_position(hand0, hand1):
    """A two-player play position, no trump, seat 0 to lead, with the given hands."""
    g = atut.new_game("cesarz", players=2, seed=1)
    rng = random.Random(0)
    while g.phase != "play":
        g.apply(P.rule_policy(g.view(g.to_move), rng))
    g._recording = False
    g.hands[0] = C.mask_of(C.CARD[x] for x in hand0)
    g.hands[1] = C.mask_of(C.CARD[x] for x in hand1)
    g.trump = P.NO
    g._start_trick(0)
    return g


def test_smart_rollout_takes_the_last_trick_richly_and_leads_a_sure_winner():
    P.ROLLOUT_EPS, eps = 0.0, P.ROLLOUT_EPS
    try:
        g = _open_position(["9H", "JC", "9D"], ["AH", "10H", "JH", "9S", "KC", "QD"])
        g.apply({"type": "play", "card": "9H"})
        for i in range(10):                       # last to play: the ace, not the cheap jack
            assert P.smart_rollout_policy(g.clone(), random.Random(i)) == \
                {"type": "play", "card": "AH"}
        g = _open_position(["9H", "JC", "AD", "KS"], ["AH", "10D", "JH", "9S"])
        for i in range(10):                       # AD is the highest diamond out
            assert P.smart_rollout_policy(g.clone(), random.Random(i)) == \
                {"type": "play", "card": "AD"}
        g = _open_position(["9H", "AC", "RED_JOKER"], ["AH", "10H", "JD", "9S"])
        g.to_move = 1
        g._start_trick(1)
        g.apply({"type": "play", "card": "10H"})  # a rich trick seat 0 cannot beat in hearts:
        a = P.smart_rollout_policy(g.clone(), random.Random(0))
        assert a == {"type": "play", "card": "RED_JOKER", "companion": "AC"}   # G13
    finally:
        P.ROLLOUT_EPS = eps


def test_level_3_and_4_choose_legal_actions_with_their_own_search():
    g = atut.new_game("cesarz", players=3, seed=7)
    bots = [make_bot("cesarz", lv, seed=1) for lv in (3, 4, 3)]
    steps = 0
    while not g.is_over and g.deal_no == 1 and steps < 25:
        v = g.view(g.to_move)
        a = bots[g.to_move].choose(v)
        assert a in v["legal_actions"]
        g.apply(a)
        steps += 1
    assert steps == 25 and not any(b.stats.get("errors") for b in bots)


def _state(g):
    """The rule-relevant state of a search game (everything but the RNG, the log and caches)."""
    skip = {"rng", "events", "history", "_cache", "_deal", "shuffled"}
    return {k: v for k, v in g.__dict__.items() if k not in skip}


def test_int_plays_and_shallow_clones_match_the_action_dicts():
    # the rollouts' fast path: _play_card(ints) == _play(action dict), on a _clone that leaves
    # the sampled state as it was; the int policies are the dict policies
    checked = 0
    for n in (2, 3, 4, 5):
        for seed in range(3):
            g = atut.new_game("cesarz", players=n, seed=seed)
            rng = random.Random(seed)
            while g.phase != "play":
                g.apply(P.rule_policy(g.view(g.to_move), rng))
            d = P._quiet(P.determinize(g.view(g.to_move), random.Random(seed)))
            before = _state(P._clone(d))
            a, b = P._clone(d), P._clone(d)
            r1, r2 = random.Random(seed), random.Random(seed)
            while a.to_move is not None and a.deal_no == d.deal_no:
                t = P._smart_play(a, r1)
                act = P.smart_rollout_policy(b, r2)
                assert act == P._act(t) and canonical(act) in {canonical(x) for x in b._legal()}
                a._play_card(*t)
                b._apply(act)
                assert _state(a) == _state(b)
                checked += 1
            assert _state(d) == before                       # the clones shared nothing
            assert a.deal_no == d.deal_no + 1 and a.previous_deal is not None
    assert checked > 200


def test_partner_masks_are_meld_partners():
    rng = random.Random(5)
    for _ in range(500):
        hand = C.mask_of(rng.sample(P.Cesarz.deck_for(3), rng.randint(0, 14)))
        parts = 0
        for c in C.cards_of(hand & P.SUITED_MASK):
            assert C.cards_of(P._PARTNERS[c] & hand) == P.meld_partners(c, hand)
            if P.meld_partners(c, hand):
                parts |= 1 << c
        assert parts == P.meld_parts(hand)


def test_a_search_from_the_deal_s_last_card_values_it_without_a_next_deal():
    """G13, G15: the other player has no card left, and seat 0 leads QH or the blue joker with
    QH as its companion, which ends the deal at once (a position from a 2-player arena deal,
    seed 1, deal 42): that action's rollouts start on a state whose next deal is only counted
    (``Game._next_deal``); levels 3, 4 and 5 value both and play a legal action."""
    path = os.path.join(os.path.dirname(__file__), "fixtures", "cesarz_joker_ends_deal.json")
    with open(path) as f:
        view = json.load(f)
    legal = view["legal_actions"]
    assert {"type": "play", "card": "BLUE_JOKER", "companion": "QH"} in legal
    for level in (3, 4, 5):
        bot = make_bot("cesarz", level, seed=1, budget={"time_cap": 1e9, "clock": "cpu"})
        with warnings.catch_warnings():
            warnings.simplefilter("error")          # a failed search falls back with a warning
            assert bot.choose(view) in legal
