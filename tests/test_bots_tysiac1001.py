"""tysiac1001 bot plug-in: the determinizer (a full state consistent with everything the seat
has seen), the level-2 rules for every decision (bids, two-pass choice, hand-out, contract,
marriages, play), rollouts, and a small strength check."""

from __future__ import annotations

import random

import atut
from atut import arena
from atut import bots as B
from atut import cards as C
from atut.bots import tysiac1001 as P
from atut.game import canonical
from atut.games.tysiac1001 import DECK_MASK, arrange_deck


def new(hands, przykup=(), dealer=2, n=3, options=None, seed=1):
    return atut.new_game("tysiac1001", players=n, seed=seed, dealer=dealer,
                         deck=arrange_deck(n, dealer, hands, przykup), options=options)


def rules(game):
    return P.rule_policy(game.view(game.to_move), random.Random(0))


def announced_deal():
    """Seat 0 took the contract at 40, gave 10D to seat 1 and KD to seat 2, announced 40."""
    hands = {0: ["AS", "KH", "QH", "10S", "9C", "9D", "JD"],
             1: ["KS", "QS", "AC", "10C", "KC", "JS", "9S"],
             2: ["AH", "10H", "JH", "9H", "QC", "JC", "AD"]}
    g = new(hands, przykup=["10D", "KD", "QD"])
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give", "card": "10D", "to": 1})
    g.apply({"type": "give", "card": "KD", "to": 2})
    g.apply({"type": "announce", "value": 40})
    return g


def mask(*codes):
    return C.mask_of(C.CARD[c] for c in codes)


# --- determinization ---------------------------------------------------------------------------

def test_determinize_is_consistent_with_the_view():
    checked = 0
    for n in (3, 4):
        for seed in range(16):
            opts = {"handout": "any"} if seed % 2 else None
            g = atut.new_game("tysiac1001", players=n, seed=seed, options=opts)
            rng = random.Random(seed)
            while not g.is_over and g.deal_no <= 2:
                seat = g.to_move
                v = g.view(seat)
                k = P.Knowledge(v)
                d = P.determinize(v, random.Random(checked))
                assert sorted(map(canonical, d._legal())) == \
                    sorted(map(canonical, v["legal_actions"]))
                d.check_invariants()
                dv = d.view(seat)
                for key in v:
                    if key != "log":
                        assert dv[key] == v[key], (n, seed, key)
                # cards it saw where they are; voids respected; the deck conserved
                for s in range(n):
                    sure = k.known[s]
                    if s == k.declarer and [t for t in k.hidden_to if t != seat]:
                        sure &= ~k.przykup            # one may have gone as a hidden gift
                    assert d.hands[s] & sure == sure
                    for su in range(4):
                        if k.voids[s] >> su & 1:
                            assert not d.hands[s] & C.SUIT_MASK[su]
                checked += 1
                g.apply(P.rule_policy(v, rng))
    assert checked > 500


def test_determinize_samples_the_hidden_cards():
    """Seat 1 (an opponent) does not know which przykup card seat 2 got: both appear."""
    g = announced_deal()
    g.apply({"type": "play", "card": "AS"})
    v = g.view(1)
    got = set()
    for i in range(60):
        d = P.determinize(v, random.Random(i))
        assert d.hands[1] == g.hands[1]
        gift = d.hands[2] & mask("KD", "QD")
        assert C.count(gift) == 1                    # exactly one of the two (G9)
        assert d.hands[0] & mask("KD", "QD") == mask("KD", "QD") & ~gift
        got.add(C.code(C.cards_of(gift)[0]))
    assert got == {"KD", "QD"}


def test_determinize_while_bidding_hides_the_przykup():
    g = atut.new_game("tysiac1001", players=3, seed=5)
    v = g.view(g.to_move)
    seen = set()
    for i in range(40):
        d = P.determinize(v, random.Random(i))
        assert C.count(d.przykup) == 3 and not d.przykup & d.hands[g.to_move]
        assert d.hands[g.to_move] == g.hands[g.to_move]
        seen |= set(C.cards_of(d.przykup))
        d.check_invariants()
    assert len(seen) > 6


def test_determinize_voids_from_failing_to_follow():
    hands = {0: ["AH", "10H", "KH", "QH", "JH", "9H", "AS"], 1: ["9S"]}
    g = new(hands, przykup=["AC", "10C", "KC"])
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give", "card": "AC", "to": 1})
    g.apply({"type": "give", "card": "10C", "to": 2})
    g.apply({"type": "announce", "value": 40})
    g.apply({"type": "play", "card": "AH"})
    g.apply({"type": "play", "card": "9S"})
    v = g.view(2)
    k = P.Knowledge(v)
    assert k.voids[1] == 1 << C.HEARTS
    for i in range(20):
        d = P.determinize(v, random.Random(i))
        assert not d.hands[1] & C.SUIT_MASK[C.HEARTS]


# --- level 2 ------------------------------------------------------------------------------------

def test_rules_bid_a_strong_hand_and_pass_a_weak_one():
    strong = new({0: ["AS", "10S", "AH", "10H", "KH", "QH", "AD"]})
    a = rules(strong)
    assert a == {"type": "bid", "value": 40}
    weak = new({0: ["9S", "JS", "9C", "JC", "9D", "JD", "QH"]})
    assert rules(weak) == {"type": "pass"}


def test_rules_stop_bidding_above_the_estimate():
    hand1 = ["AS", "10S", "AD", "9C", "JC", "9D", "JD"]       # two aces, one ten: about 56
    g = new({1: hand1})
    g.apply({"type": "bid", "value": 40})
    assert rules(g) == {"type": "bid", "value": 45}
    g = new({1: hand1})
    g.apply({"type": "bid", "value": 110})
    assert rules(g) == {"type": "pass"}


def test_rules_give_up_a_hopeless_two_pass_hand_and_play_a_good_one():
    g = new({2: ["9S", "JS", "9C", "JC", "9D", "JD", "QH"]}, przykup=["9H", "JH", "QS"])
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert rules(g) == {"type": "give_up"}
    g = new({2: ["AS", "10S", "AH", "10H", "KH", "QH", "AD"]}, przykup=["9H", "JH", "QS"])
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert rules(g) == {"type": "play_on"}


def test_rules_hand_out_the_least_useful_przykup_card_and_keep_a_marriage():
    g = new({0: ["KH", "AS", "10S", "AC", "10C", "AD", "10D"]}, przykup=["QH", "9S", "JD"])
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    a = rules(g)
    assert a["type"] == "give" and a["card"] == "9S"
    g.apply(a)
    a = rules(g)
    assert a["card"] == "JD"
    g.apply(a)
    a = rules(g)                                     # KH QH kept: announce above the bid
    assert a["type"] == "announce" and a["value"] > 100


def test_rules_declare_the_best_marriage_when_leading():
    hands = {0: ["AS", "KH", "QH", "KS", "QS", "9D", "JD"],
             1: ["10S", "JS", "AC", "10C", "KC", "9S", "9C"]}
    g = new(hands, przykup=["10D", "KD", "QD"])
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give", "card": "10D", "to": 1})
    g.apply({"type": "give", "card": "KD", "to": 2})
    g.apply({"type": "announce", "value": 40})
    a = rules(g)
    assert a == {"type": "play", "card": "AS"}       # a sure winner first (no trick yet)
    g.apply(a)
    g.apply(rules(g))
    g.apply(rules(g))
    assert g.to_move == 0 and g.tricks_won[0] == 1
    a = rules(g)
    assert a.get("meld") and a["card"] in ("QH", "KH")   # hearts (100) before spades (40)


def test_rules_smear_points_on_the_other_defender():
    hands = {0: ["9S", "9C", "JC", "9D", "JD", "9H", "JH"],
             1: ["AS", "KS", "QC", "KC", "QD", "KD", "QH"],
             2: ["JS", "AD", "10D", "AC", "10C", "AH", "10H"]}
    g = new(hands, przykup=["10S", "QS", "KH"])
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give", "card": "10S", "to": 1})
    g.apply({"type": "give", "card": "QS", "to": 2})
    g.apply({"type": "announce", "value": 40})
    g.apply({"type": "play", "card": "9S"})              # declarer leads low
    g.apply({"type": "play", "card": "AS"})              # defender 1 wins it
    a = rules(g)                                          # defender 2 is last: smear
    assert a == {"type": "play", "card": "QS"}               # the higher of JS, QS


def test_rules_cover_every_decision_of_random_games():
    kinds = set()
    for n in (3, 4):
        for seed in range(10):
            g = atut.new_game("tysiac1001", players=n, seed=seed,
                              options={"handout": "any"} if seed % 3 == 0 else None)
            rng = random.Random(seed)
            while not g.is_over and g.deal_no <= 4:
                v = g.view(g.to_move)
                a = P.rule_policy(v, rng)
                assert canonical(a) in {canonical(x) for x in v["legal_actions"]}
                kinds.add(a["type"] + ("+meld" if "meld" in a else ""))
                g.apply(a)
    assert {"bid", "pass", "give", "announce", "play", "play+meld"} <= kinds


def test_level_2_bots_finish_whole_games():
    for n in (3, 4):
        g = atut.new_game("tysiac1001", players=n, seed=n)
        bots = [atut.make_bot("tysiac1001", 2, seed=s) for s in range(n)]
        steps = 0
        while not g.is_over:
            g.apply(bots[g.to_move].choose(g.view(g.to_move)))
            steps += 1
            assert steps < 5000
        assert max(g.scores) >= 1001


# --- rollouts and search -----------------------------------------------------------------------

def test_rollout_policy_finishes_deals_from_determinizations():
    g = atut.new_game("tysiac1001", players=4, seed=9)
    rng = random.Random(9)
    for _ in range(3):
        g.apply(P.rule_policy(g.view(g.to_move), rng))
    v = g.view(g.to_move)
    for i in range(20):
        d = P.determinize(v, random.Random(i))
        start = B.fast_clone(d)
        steps = 0
        while not P.deal_over(d, start):
            a = P.rollout_policy(d, rng)
            assert a in d._legal()
            d._apply(a)
            steps += 1
        assert steps < 60 and d.deal_no == start.deal_no + 1 or d.is_over
        assert isinstance(P.evaluate(d, v["seat"], start), float)


def test_make_bot_levels_choose_legal_actions():
    g = atut.new_game("tysiac1001", players=3, seed=6)
    rng = random.Random(6)
    seen = set()
    while g.deal_no == 1:
        v = g.view(g.to_move)
        if v["phase"] not in seen or (v["phase"] == "play" and len(v["hand"]) <= 3):
            seen.add(v["phase"])
            for level in (2, 3, 4):
                bot = B.make_bot("tysiac1001", level, seed=1,
                                 budget={"rollouts": 40, "min_samples": 4}
                                 if level >= 3 else None, strict=True)
                a = bot.choose(v)
                assert a in v["legal_actions"]
                assert bot.stats.get("errors", 0) == 0
        g.apply(P.rule_policy(v, rng))
    assert {"bid", "play"} <= seen


def test_solvable_only_in_the_last_tricks():
    g = atut.new_game("tysiac1001", players=3, seed=2)
    rng = random.Random(2)
    while g.phase != "play":
        g.apply(P.rule_policy(g.view(g.to_move), rng))
    assert not P.solvable(g, g)
    while g.phase == "play" and sum(C.count(g.hands[s]) for s in g.active) > P.SOLVE_CARDS:
        g.apply(P.rule_policy(g.view(g.to_move), rng))
    if g.phase == "play":
        assert P.solvable(g, g)


# --- strength ----------------------------------------------------------------------------------

def test_rules_beat_random_play():
    r = arena.run("tysiac1001", [2, 1], 3, deals=30, seed=3)
    rules_bot = r["bots"][0]
    assert rules_bot["share"] > rules_bot["fair"] and rules_bot["margin"] > 0


def test_knowledge_counts_every_card():
    g = atut.new_game("tysiac1001", players=3, seed=8)
    rng = random.Random(8)
    while g.deal_no == 1:
        v = g.view(g.to_move)
        k = P.Knowledge(v)
        total = k.unseen | k.played
        for s in range(3):
            total |= k.known[s]
        assert total == DECK_MASK
        g.apply(P.rule_policy(v, rng))
