"""cesarz bot plug-in: the determinizer (a full state consistent with everything the seat has
seen), the level-2 rules for every decision, rollouts, and a small strength check."""

from __future__ import annotations

import random

import atut
from atut import arena
from atut import cards as C
from atut.bots import cesarz as P
from atut.bots import make_bot
from atut.game import canonical
from atut.games.cesarz import DECK_MASK, JOKERS, VALUE, arrange_deck

JOKER_CODES = [C.CODES[j] for j in JOKERS]


def new(n, dealer, hands, musik=(), seed=1):
    return atut.new_game("cesarz", players=n, seed=seed, dealer=dealer,
                         deck=arrange_deck(n, dealer, hands, musik))


def rules(game):
    return P.rule_policy(game.view(game.to_move), random.Random(0))


# --- determinization ---------------------------------------------------------------------------

def test_determinize_is_consistent_with_the_view():
    checked = 0
    for n in (2, 3, 4, 5):
        for seed in range(6):
            g = atut.new_game("cesarz", players=n, seed=seed)
            rng = random.Random(seed)
            while not g.is_over and g.deal_no <= 2:
                seat = g.to_move
                v = g.view(seat)
                k = P.Knowledge(v)
                d = P.determinize(v, random.Random(checked))
                assert sorted(map(canonical, d._legal())) == \
                    sorted(map(canonical, v["legal_actions"]))
                d.check_invariants()
                assert d.hands[seat] == g.hands[seat]
                assert d.scores == g.scores and d.phase == g.phase and d.trump == g.trump
                assert d.trick == g.trick and d.captured == g.captured
                for s in range(n):
                    assert C.count(d.hands[s]) == C.count(g.hands[s])
                    assert d.hands[s] & k.known[s] == k.known[s]        # melds, given cards
                    for su in range(4):
                        if k.voids[s] >> su & 1:
                            assert not d.hands[s] & C.SUIT_MASK[su]
                if g.musik_revealed and g.phase == "play":
                    m = C.mask_of(g.musik)
                    for s in g.active:
                        if s not in (g.declarer, seat):
                            assert C.count(d.hands[s] & m & ~k.known[s]) <= 1   # G11
                            if k.played_by[s] & m:
                                assert not d.hands[s] & m & ~k.known[s]
                checked += 1
                g.apply(rng.choice(g.legal_actions()))
    assert checked > 1000


def test_determinize_samples_vary_and_hide_nothing_it_cannot_know():
    g = atut.new_game("cesarz", players=3, seed=4)
    rng = random.Random(4)
    while g.phase != "play" or len(g.trick) < 1:
        g.apply(rng.choice(g.legal_actions()))
    seat = g.to_move
    v = g.view(seat)
    samples = {tuple(P.determinize(v, random.Random(i)).hands) for i in range(20)}
    assert len(samples) > 10
    # the true hands of the others are never needed: a view with other true hands gives the
    # same kind of samples (the determinizer reads only the view)
    assert all(h[seat] == g.hands[seat] for h in samples)


def test_determinize_during_bidding_samples_the_musik():
    g = atut.new_game("cesarz", players=4, seed=2, dealer=0)
    v = g.view(g.to_move)
    d = P.determinize(v, random.Random(1))
    assert len(d.musik) == 3 and not d.musik_revealed
    allc = 0
    for h in d.hands:
        allc |= h
    allc |= C.mask_of(d.musik)
    assert allc == DECK_MASK
    d.check_invariants()


def test_rollouts_finish_the_deal_from_any_sample():
    for n in (3, 5):
        g = atut.new_game("cesarz", players=n, seed=9)
        rng = random.Random(9)
        for _ in range(25):
            g.apply(rng.choice(g.legal_actions()))
        v = g.view(g.to_move)
        for i in range(5):
            d = P.determinize(v, random.Random(i))
            start = d.clone()
            r = random.Random(i)
            steps = 0
            while not P.deal_over(d, start):
                a = P.rollout_policy(d, r)
                assert a in d._legal()
                d._apply(a)
                steps += 1
            assert steps > 0 and isinstance(P.evaluate(d, v["seat"], start), float)


# --- level 2 -------------------------------------------------------------------------------------

def test_rules_are_legal_for_every_decision():
    kinds = set()
    for n in (2, 3, 4, 5):
        for seed in range(4):
            g = atut.new_game("cesarz", players=n, seed=seed)
            while not g.is_over and g.deal_no <= 3:
                v = g.view(g.to_move)
                a = P.rule_policy(v, random.Random(seed))
                assert a in v["legal_actions"]
                kinds.add(a["type"] + ("+meld" if "meld" in a else "")
                          + ("+companion" if "companion" in a else ""))
                g.apply(a)
    assert {"bid", "pass", "give", "play", "play+meld"} <= kinds


def test_rules_bid_a_strong_hand_and_pass_a_weak_one():
    strong = ["EMPEROR", "AH", "10H", "KH", "QH", "AD", "10D", "KD", "QD", "AS", "RED_JOKER"]
    g = new(3, 2, {0: strong})
    assert g.to_move == 0 and rules(g) == {"type": "bid", "value": 110}
    weak = ["9H", "YPH", "JH", "9D", "JD", "9S", "JS", "YPS", "9C", "JC", "YPC"]
    g = new(3, 2, {0: weak})
    assert rules(g) == {"type": "pass"}


def test_rules_give_away_cheap_cards_and_keep_the_emperor_and_melds():
    g = new(3, 0, {0: ["EMPEROR", "KH", "QH", "AS", "9C", "RED_JOKER"]},
            musik=["9D", "JH", "YPD"])
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert g.phase == "give"
    given = []
    while g.phase == "give":
        a = rules(g)
        given.append(a["card"])
        g.apply(a)
    assert not {"EMPEROR", "KH", "QH", "AS", "RED_JOKER"} & set(given)
    assert all(C.CARD[c] < 44 and c[:-1] in ("9", "YP", "J") for c in given)


def test_rules_lead_the_biggest_meld():
    g = new(3, 0, {0: ["KH", "QH", "KS", "QS", "PRD", "YPC"]}, musik=JOKER_CODES)
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    while g.phase == "give":
        g.apply(rules(g))
    a = rules(g)
    assert a["meld"] in ("KH", "QH") and a["card"] in ("KH", "QH")


def test_rules_meld_when_beating_and_duck_in_an_emperor_trick():
    g = new(3, 0, {0: ["9C"], 1: ["KC", "QC", "AH", "9D"], 2: ["EMPEROR", "AS", "10S"]},
            musik=["9H", "JH", "YPH"])
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give", "card": "9H", "to": 1})
    g.apply({"type": "give", "card": "JH", "to": 2})
    g.apply({"type": "play", "card": "9C"})
    a = rules(g)
    assert "meld" in a and {a["card"], a["meld"]} == {"KC", "QC"}
    g.apply(a)
    assert g.trump == C.CLUBS
    g2 = new(3, 0, {0: ["EMPEROR", "9D"], 1: ["AH", "9H", "10C"]}, musik=JOKER_CODES)
    g2.apply({"type": "pass"})
    g2.apply({"type": "pass"})
    g2.apply({"type": "give", "card": "RED_JOKER", "to": 1})
    g2.apply({"type": "give", "card": "BLACK_JOKER", "to": 2})
    g2.apply({"type": "play", "card": "EMPEROR", "companion": "9D"})
    a = rules(g2)                                               # G14: lost anyway: duck
    assert a["type"] == "play" and "companion" not in a and "meld" not in a
    assert VALUE[C.CARD[a["card"]]] <= 2


# --- strength ----------------------------------------------------------------------------------

def test_rules_beat_random_play():
    r = arena.run("cesarz", [2, 1], 3, deals=24, seed=3)
    rules_bot = r["bots"][0]
    assert rules_bot["share"] > rules_bot["fair"] and rules_bot["margin"] > 0


def test_make_bot_levels_choose_legal_actions():
    g = atut.new_game("cesarz", players=3, seed=6)
    rng = random.Random(6)
    while g.phase != "play":
        g.apply(rng.choice(g.legal_actions()))
    for level in (2, 3, 4):
        # CPU time as the clock: on a loaded machine the wall-clock cap would cut the search
        bot = make_bot("cesarz", level, seed=1, budget={"clock": "cpu"} if level > 2 else None)
        v = g.view(g.to_move)
        a = bot.choose(v)
        assert a in v["legal_actions"]
        assert bot.choose(v) == a                                 # seeded: repeatable
