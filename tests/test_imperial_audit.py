"""imperial: an independent rules audit (second pair of eyes) against rules/002-imperial.md.

The first part is a small reference model written from the rules file alone (card codes and
sets, no engine tables): seeded random games are played through the public API and, at every
decision, the engine's legal actions, whose turn it is, each trick's winner, every scoring event
and the scores must agree with the model.  The second part pins single rules (named after the
G/E numbers) with tiny scripted hands, bad input, save/load and the views.
"""

from __future__ import annotations

import json
import random

import pytest

import atut

# --- the reference model (from the rules file only) -----------------------------------------------

SUITS = "SCDH"
ORDER = ["K", "Q", "J", "A", "10", "9", "8", "7", "6"]         # ¶1, G13: high to low
VALUE = {"A": 11, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6}   # G10


def rank(c):
    return c[:-1]


def suit(c):
    return c[-1]


def deck(n):
    ranks = ORDER if n == 3 else ORDER[:-1]                       # G1
    return [r + s for s in SUITS for r in ranks]


def low(n):
    return "7" if n == 2 else "6"                                 # G4, G6


def units(hand, n, trump, extra=None):
    """G6, G7: imperial units of a hand (a set of codes); ``extra`` the dealer's turned card."""
    full = set(hand) | ({extra} if extra else set())
    u = 0
    for s in SUITS:
        pats = (("K", "Q", "J", "A"), ("Q", "J", "A", low(n)))
        if any(all(r + s in full for r in p) for p in pats):      # at most one per suit
            u += 2 if s == trump else 1
    for r in ("K", "Q", "J", "A", low(n)):
        if all(r + s in full for s in SUITS):
            u += 1
    return u


def best_suit(hand):
    """G10: (length, value total) of the best suit."""
    return max((sum(1 for c in hand if suit(c) == s),
                sum(VALUE[rank(c)] for c in hand if suit(c) == s)) for s in SUITS)


def honours(hand, n, trump):
    """G4, G11: the trump K, Q, J and 7 (2p) / 6 (3p) held."""
    return {c for c in hand if suit(c) == trump and rank(c) in ("K", "Q", "J", low(n))}


class Ref:
    """One deal of imperial as the rules file describes it (G3, G5-G16)."""

    def __init__(self, n, dealer, dk, scores):
        self.n, self.dealer = n, dealer
        self.scores = list(scores)
        self.winner = None
        first = (dealer + 1) % n
        self.hands = [set() for _ in range(n)]
        for i in range(12 * n):                                   # G3
            self.hands[(first + i) % n].add(dk[i])
        self.turned = dk[24] if n == 2 else dk[35]
        assert n == 2 or dk[35] in self.hands[dealer]
        self.trump = suit(self.turned)
        self.order = [(dealer + k) % n for k in range(n)]          # G12
        self.events = []                                          # (kind, seat, points)
        self.trick = []
        self.tricks = [0] * n
        self.to_move = first                                      # ¶8
        self._declare()

    def _score(self, kind, gains):
        """One scoring event (G16); True when the game is over."""
        for s, p in gains:
            self.scores[s] += p
            self.events.append((kind, s, p))
        reached = [s for s, _ in gains if self.scores[s] >= 120]
        if reached:
            best = max(self.scores[s] for s in reached)
            self.winner = next(s for s in reached if self.scores[s] == best)
            self.to_move = None
            return True
        return False

    def _declare(self):
        n, t, d = self.n, self.trump, self.dealer
        if n == 2 and rank(self.turned) in ("K", "Q", "J", "7"):     # G5
            if self._score("turned_honour", [(d, 4)]):
                return
        u = {s: units(self.hands[s], n, t, self.turned if (n == 2 and s == d) else None)
             for s in self.order}                                   # G6, G7
        top = max(u.values())
        if top and self._score("imperial", [(s, 24 * top) for s in self.order if u[s] == top]):
            return                                                  # G8
        b = {s: best_suit(self.hands[s]) for s in self.order}       # G10
        win = [s for s in self.order if b[s] == max(b.values())]
        if self._score("point", [(s, 4 if len(win) == 1 else 2) for s in win]):
            return
        for s in self.order:                                        # G11
            k = len(honours(self.hands[s], n, t))
            if k and self._score("honours", [(s, 4 * k)]):
                return

    def legal(self):
        """G13: follow suit, else trump, else anything."""
        h = self.hands[self.to_move]
        if self.trick:
            led = suit(self.trick[0][1])
            f = {c for c in h if suit(c) == led} or {c for c in h if suit(c) == self.trump}
            if f:
                return f
        return set(h)

    def play(self, c):
        s = self.to_move
        assert c in self.legal()
        self.hands[s].remove(c)
        self.trick.append((s, c))
        if len(self.trick) == 1 and c in honours({c}, self.n, self.trump):   # G14
            if self._score("honour_lead", [(s, 4)]):
                return None
        if len(self.trick) < self.n:
            self.to_move = (s + 1) % self.n
            return None
        led = suit(self.trick[0][1])
        def key(x):
            return (2 if suit(x[1]) == self.trump else 1 if suit(x[1]) == led else 0,
                    -ORDER.index(rank(x[1])))
        w = max(self.trick, key=key)[0]                             # G13
        self.tricks[w] += 1
        self.trick = []
        self.to_move = w
        if not self.hands[w]:                                       # G15
            for s2 in self.order:
                t = self.tricks[s2]
                if t > 6 and self._score("tricks_bonus", [(s2, 8 if t == 12 else 4)]):
                    return w
            self.to_move = "next deal"
        return w


SCORING = {"turned_honour", "imperial", "point", "honours", "honour_lead", "tricks_bonus"}


def engine_gains(events):
    """(kind, seat, points) of the engine's scoring events; imperials summed per seat."""
    out = []
    for e in events:
        if e["type"] not in SCORING:
            continue
        if e["type"] == "imperial" and out and out[-1][0] == "imperial" and \
                out[-1][1] == e["seat"]:
            out[-1] = ("imperial", e["seat"], out[-1][2] + e["points"])
        else:
            out.append((e["type"], e["seat"], e["points"]))
    return out


def check_game(n, seed, rng, dealer=None):
    g = atut.new_game("imperial", players=n, seed=seed, dealer=dealer)
    ref = None
    seen = 0
    steps = 0
    while True:
        deals = [i for i, e in enumerate(g.events) if e["type"] == "deal"]
        if ref is None or ref.to_move == "next deal":
            assert len(deals) == seen + 1, "exactly one new deal"
            de = g.events[deals[-1]]
            expect_dealer = (g.first_dealer + seen) % n                 # G2
            assert de["dealer"] == expect_dealer == g.dealer
            assert sorted(de["deck"]) == sorted(deck(n))
            ref = Ref(n, de["dealer"], de["deck"], [0] * n if ref is None else ref.scores)
            seen += 1
            start = deals[-1]
            assert engine_gains(g.events[start:]) == ref.events, (seed, seen)
        assert g.scores == ref.scores and g.winner == ref.winner
        if ref.to_move is None:
            assert g.is_over and g.to_move is None and g.legal_actions() == []
            return seen
        assert g.to_move == ref.to_move
        legal = g.legal_actions()
        cards = [a["card"] for a in legal]
        assert all(a == {"type": "play", "card": a["card"]} for a in legal)
        assert len(cards) == len(set(cards)) and set(cards) == ref.legal()
        v = g.view(g.to_move)
        assert sorted(v["hand"]) == sorted(ref.hands[g.to_move])
        assert v["trump"] == ref.trump and v["legal_actions"] == legal
        c = rng.choice(cards)
        mark, before = len(g.events), len(ref.events)
        g.apply({"type": "play", "card": c})
        w = ref.play(c)
        steps += 1
        new = g.events[mark:]
        if ref.to_move == "next deal":
            new = new[:next(i for i, e in enumerate(new) if e["type"] == "deal")]
        assert engine_gains(new) == ref.events[before:]
        got = [e for e in new if e["type"] == "trick"]
        if w is None:
            assert got == []
        else:
            assert [e["winner"] for e in got] == [w]


# --- the model against the engine ---------------------------------------------------------------

@pytest.mark.parametrize("n,games", [(2, 150), (3, 100)])
def test_G1_to_G16_engine_agrees_with_the_reference_model(n, games):
    rng = random.Random(100 + n)
    deals = 0
    for seed in range(games):
        deals += check_game(n, seed, rng)
    assert deals > games * 3
