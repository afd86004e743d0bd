"""tysiac1001: an independent audit of the engine against rules/003-tysiac-1001.md.

The core is a second, deliberately naive implementation of the rules (``Ref``, card codes and
Python sets, written from the rules file only) that follows seeded random games action by
action and checks, at every step, whose turn it is, the exact set of legal actions (each once,
no unused fields) and, at every deal end, every score change.  Around it: one test per gap or
worked example that the first test file checks only indirectly, bad input, save/load and views.
"""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut import cards as C
from atut.games.tysiac1001 import DECK, arrange_deck
from helpers import cards_in, plain_events

# --- the reference model (rules file only) --------------------------------------------------

R_ORDER = ["9", "J", "Q", "K", "10", "A"]                       # G2, low to high
R_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}    # G2
R_MARRIAGE = {"H": 100, "D": 80, "C": 60, "S": 40}               # ¶4


def rank(c):
    return c[:-1]


def suit(c):
    return c[-1]


def r_round(x):                                                  # G14
    r = x % 5
    return x - r if r in (0, 1, 2) else x + 5 - r


def r_married(hand):
    return any("K" + s in hand and "Q" + s in hand for s in "SCDH")


class Ref:
    """The rules of one game of 1001, applied to the decks the engine dealt."""

    def __init__(self, n, dealer, handout):
        self.n = n
        self.dealer = dealer
        self.handout = handout
        self.scores = [0] * n
        self.over = False
        self.winner = None

    def deal(self, deck):                                        # G3, G5
        n = self.n
        self.active = [(self.dealer + k) % n for k in (1, 2, 3)]
        self.out = self.dealer if n == 4 else None
        self.hands = {s: set() for s in range(n)}
        self.pk = []
        i = 0
        for rnd in range(7):
            for s in self.active:
                self.hands[s].add(deck[i])
                i += 1
            if rnd < 3:
                self.pk.append(deck[i])
                i += 1
        assert i == 24
        self.phase = "bid"
        self.passed = set()
        self.high = None
        self.high_seat = None
        self.turn = self.active[0]                               # G6: A1 opens
        self.decl = None
        self.won_bid = None
        self.contract = None
        self.gifts = []
        self.kept_pk = set()
        self.trump = None
        self.trick = []
        self.taken = {s: 0 for s in range(n)}
        self.tricks = {s: 0 for s in range(n)}
        self.melds = {s: 0 for s in range(n)}
        self.delta = [0] * n
        self.revealed = False
        self.played = set()
        self.shown = set()
        self.gift_to = {}

    def known(self, seat):
        """G19: the cards ``seat`` may see now (None: a spectator)."""
        k = self.played | self.shown
        if self.revealed:
            k |= set(self.pk)
        if seat is not None:
            k |= self.hands[seat]
            for c, to in self.gift_to.items():
                if seat in (self.decl, to):
                    k.add(c)
        return k

    def nxt(self, seat):
        a = self.active
        return a[(a.index(seat) + 1) % 3]

    def legal(self):
        s = self.turn
        h = self.hands[s]
        if self.phase == "bid":
            lo = 40 if self.high is None else self.high + 5
            hi = 400 if r_married(h) else 120
            return [{"type": "bid", "value": v} for v in range(lo, hi + 1, 5)] + [{"type": "pass"}]
        if self.phase == "decide":
            return [{"type": "play_on"}, {"type": "give_up"}]
        if self.phase == "give":
            a = self.active
            i = a.index(s)
            to = [a[(i + 1) % 3], a[(i + 2) % 3]][len(self.gifts)]
            src = self.kept_pk if self.handout == "przykup" else h
            return [{"type": "give", "card": c, "to": to} for c in src]
        if self.phase == "announce":
            lo = self.won_bid if self.won_bid else 40
            hi = 400 if r_married(h) else 120
            hi = max(hi, lo)
            return [{"type": "announce", "value": v} for v in range(lo, hi + 1, 5)]
        if self.phase == "play":
            if not self.trick:
                out = [{"type": "play", "card": c} for c in h]
                if self.tricks[s]:
                    for c in h:
                        if rank(c) in ("K", "Q"):
                            p = ("Q" if rank(c) == "K" else "K") + suit(c)
                            if p in h:
                                out.append({"type": "play", "card": c, "meld": p})
                return out
            led = suit(self.trick[0][1])
            ok = {c for c in h if suit(c) == led}
            if not ok and self.trump:
                ok = {c for c in h if suit(c) == self.trump}
            if not ok:
                ok = set(h)
            return [{"type": "play", "card": c} for c in ok]
        return []

    def apply(self, a):
        s = self.turn
        t = a["type"]
        if t == "bid":
            self.high, self.high_seat = a["value"], s
            self.turn = self._next_bidder(s)
        elif t == "pass":
            self.passed.add(s)
            if len(self.passed) == 2:
                rest = [x for x in self.active if x not in self.passed][0]
                self.decl = rest
                self.turn = rest
                if self.high is None:                            # G7
                    self.phase = "decide"
                else:
                    assert self.high_seat == rest
                    self.won_bid = self.high
                    self.phase = "give"
                self.hands[rest] |= set(self.pk)                 # G8, G9
                self.revealed = True
                self.kept_pk = set(self.pk)
                if self.out is not None:                         # G16
                    nines = all(rank(c) == "9" for c in self.pk)
                    credit = 100 if nines else r_round(sum(R_POINTS[rank(c)] for c in self.pk))
                    self.scores[self.out] += credit
                    self.delta[self.out] += credit
            else:
                self.turn = self._next_bidder(s)
        elif t == "play_on":
            self.phase = "give"
        elif t == "give_up":                                     # G7, E4
            for x in self.active:
                if x != s:
                    self.scores[x] += 50
                    self.delta[x] += 50
            return self._end()
        elif t == "give":
            c = a["card"]
            self.hands[s].discard(c)
            self.kept_pk.discard(c)
            self.hands[a["to"]].add(c)
            self.gifts.append(c)
            self.gift_to[c] = a["to"]
            if len(self.gifts) == 2:
                self.phase = "announce"
        elif t == "announce":
            self.contract = a["value"]
            self.phase = "play"                                  # G11: the declarer leads
        elif t == "play":
            c = a["card"]
            self.hands[s].discard(c)
            self.played.add(c)
            if "meld" in a:                                      # G13
                self.shown.add(a["meld"])
                self.trump = suit(c)
                self.melds[s] += R_MARRIAGE[suit(c)]
            self.trick.append((s, c))
            if len(self.trick) < 3:
                self.turn = self.nxt(s)
                return None
            led = suit(self.trick[0][1])

            def key(sc):
                c2 = sc[1]
                tier = 2 if suit(c2) == self.trump else (1 if suit(c2) == led else 0)
                return (tier, R_ORDER.index(rank(c2)))
            w = max(self.trick, key=key)[0]                      # G12
            self.taken[w] += sum(R_POINTS[rank(c2)] for _, c2 in self.trick)
            self.tricks[w] += 1
            self.trick = []
            self.turn = w
            if not self.hands[w]:
                return self._score()
        return None

    def _next_bidder(self, seat):
        a = self.active
        i = a.index(seat)
        for k in (1, 2):
            x = a[(i + k) % 3]
            if x not in self.passed:
                return x
        raise AssertionError("no bidder left")

    def _score(self):
        for s in self.active:
            total = self.taken[s] + self.melds[s]
            if s == self.decl:                                   # G15
                x = self.contract if total >= self.contract else -self.contract
            else:                                                # G14
                x = r_round(total)
            self.scores[s] += x
            self.delta[s] += x
        return self._end()

    def _end(self):                                              # G17
        top = max(self.scores)
        if top >= 1001 and self.scores.count(top) == 1:
            self.over = True
            self.winner = self.scores.index(top)
            self.turn = None
            return "over"
        self.dealer = (self.dealer + 1) % self.n                 # G4
        return "next"


def canon(actions):
    return [json.dumps(a, sort_keys=True) for a in actions]


def gift_pairs(obj, out):
    """Every (card, recipient) a view tells: dicts with "card" and "to" or a "received" item."""
    if isinstance(obj, dict):
        if "card" in obj and "to" in obj:
            out.add((obj["card"], obj["to"]))
        if obj.get("key") == "received":
            out.add((obj["card"], "me"))
        for v in obj.values():
            gift_pairs(v, out)
    elif isinstance(obj, list):
        for v in obj:
            gift_pairs(v, out)
    return out


def check_views(g, ref):
    """G19 from the reference's side: every view shows the seat's own hand, counts and public
    facts, and no card the seat may not know; JSON-safe; legal actions only for the mover."""
    for seat in [None, *range(g.players)]:
        v = g.view(seat)
        assert json.loads(json.dumps(v)) == v, "a view is not plain JSON"
        if seat is None:
            assert v["hand"] == []
        else:
            assert sorted(v["hand"]) == sorted(ref.hands[seat])
        assert [x["cards"] for x in v["seats"]] == [len(ref.hands[s]) for s in range(g.players)]
        leak = cards_in(v) - ref.known(seat)
        assert not leak, (seat, g.phase, leak)
        allowed = set()                       # G9, G19: who got which card
        for c, to in ref.gift_to.items():
            if seat is not None and seat == ref.decl:
                allowed.add((c, to))
            elif seat is not None and seat == to:
                allowed |= {(c, to), (c, "me")}
        told = gift_pairs({k: x for k, x in v.items() if k != "legal_actions"}, set())
        assert told <= allowed, (seat, told - allowed)
        if seat is not None and seat == g.to_move:
            assert v["legal_actions"] == g.legal_actions()
        else:
            assert "legal_actions" not in v
        assert v["przykup"] == (sorted(ref.pk, key=C.card) if ref.revealed else None)
        assert v["contract"] == ref.contract and v["declarer"] == ref.decl
        assert v["scores"] == ref.scores and v["sitting_out"] == ref.out


def mangle(rng, g, legal):
    """A bad variant of a legal action (or of a legal action's neighbour) that is not legal."""
    a = dict(rng.choice(legal))
    k = rng.randrange(8)
    if k == 0:
        a["extra"] = 1
    elif k == 1 and len(a) > 1:
        del a[rng.choice([x for x in a if x != "type"])]
    elif k == 2:
        a["type"] = rng.choice(["bid", "pass", "give", "announce", "play", "play_on", "give_up",
                                "order_up", "exchange"])
    elif k == 3 and "value" in a:
        a["value"] = rng.choice([a["value"] + rng.choice([-5, 1, 5, 400]), str(a["value"]),
                                 float(a["value"]), True, None])
    elif k == 4 and "card" in a:
        a["card"] = rng.choice(C.codes(DECK) + ["8H", "as", "", 5, None])
    elif k == 5 and "to" in a:
        a["to"] = rng.choice([0, 1, 2, 3, 4, -1, "1", True, None])
    elif k == 6 and a["type"] == "play":
        a["meld"] = rng.choice(C.codes(DECK))
    elif k == 7:
        a = rng.choice([None, "pass", [], {}, {"type": None}, {"type": "pass", "seat": g.to_move}])
    return a


def is_legal(a, legal):
    return type(a) is dict and any(
        a == b and all(type(a[k]) is type(v) for k, v in b.items()) for b in legal)


def try_bad(g, rng, legal):
    """G19 and the contract: a bad action raises IllegalAction and changes nothing."""
    a = mangle(rng, g, legal)
    if is_legal(a, legal):
        return
    before = g.to_json(), json.dumps(g.view(g.to_move)), len(g.events), list(g.scores)
    with pytest.raises(atut.IllegalAction) as e:
        g.apply(a)
    assert str(e.value)
    assert before == (g.to_json(), json.dumps(g.view(g.to_move)), len(g.events), g.scores)


def follow(g, ref, rng, max_deals, chooser, views=False, bad=False, reload=False):
    """Play ``g`` with ``chooser`` and check every step against ``ref``; with ``bad``, try a
    bad action before each move; with ``reload``, now and then continue with a loaded copy."""
    deal_events = [e for e in g.events if e["type"] == "deal"]
    assert deal_events[-1]["dealer"] == ref.dealer
    ref.deal(deal_events[-1]["deck"])
    steps = 0
    while not g.is_over and g.deal_no <= max_deals:
        assert g.to_move == ref.turn, (g.deal_no, g.phase, ref.phase)
        assert g.phase == ref.phase
        legal = g.legal_actions()
        mine = canon(legal)
        assert len(set(mine)) == len(mine), "an action listed twice"
        assert all(v is not None for a in legal for v in a.values()), "a null field"
        assert sorted(mine) == sorted(canon(ref.legal())), (g.deal_no, g.phase)
        if bad:
            try_bad(g, rng, legal)
        if reload and rng.random() < 0.05:
            h = atut.load_game(g.to_json())
            for seat in [None, *range(g.players)]:
                assert h.view(seat) == g.view(seat)
            assert h.events == g.events and h.legal_actions() == legal
            g = h
        a = chooser(rng, legal)
        deal_no = g.deal_no
        g.apply(a)
        r = ref.apply(a)
        steps += 1
        if r is not None:
            assert g.sheet[-1][3] == tuple(ref.delta), (deal_no, g.sheet[-1], ref.delta)
            assert g.scores == ref.scores
            if r == "over":
                assert g.is_over and g.winner == ref.winner and g.to_move is None
                break
            assert g.deal_no == deal_no + 1
            if g.deal_no > max_deals:
                break
            d = [e for e in g.events if e["type"] == "deal"][-1]
            assert d["dealer"] == ref.dealer == g.dealer
            ref.deal(d["deck"])
        else:
            assert g.deal_no == deal_no
        assert g.scores == ref.scores
        v = g.view(None)
        assert v["trump"] == ref.trump and v["to_move"] == ref.turn
        if views:
            check_views(g, ref)
    return g


def chooser_mixed(rng, legal):
    """Low bids and contracts most of the time (so deals get played), melds when offered."""
    types = sorted({a["type"] for a in legal})
    t = rng.choice(types)
    acts = [a for a in legal if a["type"] == t]
    if t in ("bid", "announce") and rng.random() < 0.75:
        return acts[0]
    melds = [a for a in acts if "meld" in a]
    if melds and rng.random() < 0.7:
        return rng.choice(melds)
    return rng.choice(acts)


@pytest.mark.parametrize("n", [3, 4])
def test_G1_to_G17_engine_matches_an_independent_reference(n):
    """240 seeded games per player count, 3 deals each (both hand-out options): turn, phase,
    legal actions (each once, no null field), trump, every deal's score changes and scores."""
    for seed in range(240):
        rng = random.Random(1000 + seed)
        handout = "any" if seed % 4 == 0 else "przykup"
        g = atut.new_game("tysiac1001", players=n, seed=seed, options={"handout": handout})
        follow(g, Ref(n, g.first_dealer, handout), rng, 3, chooser_mixed, views=seed % 8 == 0,
               bad=seed % 8 == 1, reload=seed % 8 == 2)


@pytest.mark.parametrize("n", [3, 4])
def test_G17_full_games_match_the_reference(n):
    for seed in range(3):
        rng = random.Random(seed)
        g = atut.new_game("tysiac1001", players=n, seed=500 + seed)
        g = follow(g, Ref(n, g.first_dealer, "przykup"), rng, 10_000, chooser_mixed,
                   reload=True)
        assert g.is_over
        h = atut.load_game(g.to_json())                                # a finished game loads
        assert h.is_over and h.winner == g.winner and h.view(None) == g.view(None)


# --- scripted deals -----------------------------------------------------------------------------

def new(hands, przykup=(), dealer=2, n=3, options=None, seed=1):
    return atut.new_game("tysiac1001", players=n, seed=seed, dealer=dealer,
                         deck=arrange_deck(n, dealer, hands, przykup), options=options)


def play(g, card, meld=None):
    a = {"type": "play", "card": card}
    if meld:
        a["meld"] = meld
    g.apply(a)


# E6 played out: seat 0 takes 95 card points in 7 tricks and declares hearts (100); seat 2
# takes the last trick (10D KD AD = 25).  Tricks: (leader first) AS 9S 9C | QH+KH JC 9H |
# KH QC JH | AH KC 9D | 10H JS JD | 10S QS QD | AC KS 10C | 10D KD AD.
E6_HANDS = {0: ["AS", "10S", "AC", "QH", "KH", "AH", "10H"],
            1: ["KS", "QS", "JS", "9S", "KC", "QC", "JC"],
            2: ["QD", "JD", "9D", "JH", "9H", "10C", "9C"]}
E6_PRZYKUP = ["10D", "KD", "AD"]
E6_TRICKS = [("AS", "9S", "9C"), ("QH", "JC", "9H"), ("KH", "QC", "JH"), ("AH", "KC", "9D"),
             ("10H", "JS", "JD"), ("10S", "QS", "QD"), ("AC", "KS", "10C"),
             ("10D", "KD", "AD")]


def play_e6(bid, contract, meld):
    g = new(E6_HANDS, E6_PRZYKUP)
    g.apply({"type": "bid", "value": bid})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give", "card": "KD", "to": 1})
    g.apply({"type": "give", "card": "AD", "to": 2})
    g.apply({"type": "announce", "value": contract})
    for trick in E6_TRICKS:
        for card in trick:
            play(g, card, "KH" if meld and card == "QH" else None)
        g.check_invariants()
    return g


def test_E6_played_out_declarer_makes_110_with_95_points_and_hearts():
    g = play_e6(110, 110, meld=True)
    tricks = [e for e in g.events if e["type"] == "trick"]
    assert [t["winner"] for t in tricks] == [0] * 7 + [2]
    assert sum(t["points"] for t in tricks[:7]) == 95 and tricks[7]["points"] == 25
    assert {"type": "made", "seat": 0, "value": 110, "total": 195} in plain_events(g)
    assert g.scores == [110, 0, 25] and g.sheet[0] == (1, 0, 110, (110, 0, 25))


def test_E6_played_out_declarer_fails_100_with_95_points_and_no_marriage():
    g = play_e6(100, 100, meld=False)
    assert {"type": "failed", "seat": 0, "value": 100, "total": 95} in plain_events(g)
    assert g.scores == [-100, 0, 25]


def test_G15_a_marriage_does_not_save_a_contract_above_the_total():
    g = play_e6(120, 200, meld=True)                                   # E13: 200 needs KH QH
    assert {"type": "failed", "seat": 0, "value": 200, "total": 195} in plain_events(g)
    assert g.scores == [-200, 0, 25]


@pytest.mark.parametrize("przykup,credit", [(["9S", "9H", "9C"], 100), (["AH", "KS", "JD"], 15),
                                            (["10C", "9D", "QS"], 15), (["9H", "9D", "JS"], 0)])
def test_E8_sitting_out_dealer_credit_in_a_real_four_player_deal(przykup, credit):
    g = new({}, przykup, dealer=3, n=4)
    assert g.active == [0, 1, 2] and g.sitting_out == 3
    g.apply({"type": "bid", "value": 40})
    assert g.scores == [0, 0, 0, 0]                                   # not before the reveal
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    assert g.scores == [0, 0, 0, credit]
    assert {"type": "dealer_credit", "seat": 3, "value": credit} in g.view(None)["log"]


# --- views and bad input --------------------------------------------------------------------

def test_G19_a_view_shares_no_list_with_the_game():
    g = new({})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give_up"})
    before = json.dumps(g.view(0))
    v = g.view(0)

    def scribble(obj):
        if isinstance(obj, dict):
            for x in obj.values():
                scribble(x)
        elif isinstance(obj, list):
            for x in obj:
                scribble(x)
            obj.append("scribble")
    scribble(v)
    assert json.dumps(g.view(0)) == before
    assert "scribble" not in json.dumps(g.last_result)


def bad(g, action):
    before = g.to_json(), json.dumps(g.view(g.to_move)), json.dumps(g.view(None)), len(g.events)
    with pytest.raises(atut.IllegalAction) as e:
        g.apply(action)
    assert before == (g.to_json(), json.dumps(g.view(g.to_move)), json.dumps(g.view(None)),
                      len(g.events))
    return str(e.value)


def test_G6_G10_bad_input_messages_name_the_fault():
    g = new(E6_HANDS, E6_PRZYKUP)
    msg = bad(g, {"type": "bid", "value": 40, "meld": "KH"})
    assert "'meld'" in msg and "go up to" not in msg
    msg = bad(g, {"type": "bid", "value": "40"})
    assert "integer" in msg
    msg = bad(g, {"type": "bid", "value": True})
    assert "integer" in msg
    msg = bad(g, {"type": "bid"})
    assert "'value'" in msg
    msg = bad(g, {"type": "pass", "value": 40})
    assert "'value'" in msg
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    msg = bad(g, {"type": "give", "card": "KD", "to": "1"})
    assert "'to'" in msg and "seat number" in msg
    msg = bad(g, {"type": "give", "card": "KD", "to": True})
    assert "'to'" in msg and "seat number" in msg
    msg = bad(g, {"type": "give", "card": "KD", "to": 1, "x": 1})
    assert "'x'" in msg
    msg = bad(g, {"type": "give", "card": "KD", "to": 2})
    assert "seat 1" in msg
    g.apply({"type": "give", "card": "KD", "to": 1})
    g.apply({"type": "give", "card": "AD", "to": 2})
    msg = bad(g, {"type": "announce", "value": 40, "x": 1})
    assert "'x'" in msg and "from 40" not in msg
    msg = bad(g, {"type": "announce", "value": 40.0})
    assert "integer" in msg


def test_G12_G13_bad_play_messages_name_the_rule():
    g = new(E6_HANDS, E6_PRZYKUP)
    g.apply({"type": "bid", "value": 40})
    g.apply({"type": "pass"})
    g.apply({"type": "pass"})
    g.apply({"type": "give", "card": "KD", "to": 1})
    g.apply({"type": "give", "card": "AD", "to": 2})
    g.apply({"type": "announce", "value": 40})
    msg = bad(g, {"type": "play", "card": "QH", "meld": "KH"})
    assert "taking a trick" in msg                                     # E10
    msg = bad(g, {"type": "play", "card": "AS", "x": 1})
    assert "'x'" in msg
    play(g, "AS")
    msg = bad(g, {"type": "play", "card": "KC"})
    assert "follow" in msg and "S" in msg                              # G12
    play(g, "9S")
    play(g, "9C")
    msg = bad(g, {"type": "play", "card": "QH", "meld": "KS"})
    assert "KH" in msg                                                 # the partner card
    msg = bad(g, {"type": "play", "card": "AS", "meld": "KS"})
    assert "does not hold AS" in msg
    play(g, "QH", "KH")                                                # trump H
    play(g, "JC")
    play(g, "9H")
    play(g, "10S")
    play(g, "QS")
    msg = bad(g, {"type": "play", "card": "QD"})                       # void in S, holds JH
    assert "trump" in msg and "JH" in msg                              # G12, E12
    play(g, "JH")
