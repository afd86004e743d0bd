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
from atut import cards as C

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


# --- scripted deals ---------------------------------------------------------------------------

def arrange(n, dealer, hands, turned=None, fill=0):
    """A deck in canonical deal order (G3): ``hands`` = {seat: codes}, completed from the other
    cards in a fixed shuffled order (``fill`` seeds it); ``turned`` the 2-player trump card.
    With 3 players the dealer's last listed card is dealt last (the shown trump card)."""
    used = {c for cs in hands.values() for c in cs} | ({turned} if turned else set())
    rest = [c for c in deck(n) if c not in used]
    random.Random(fill).shuffle(rest)
    full = {}
    for s in range(n):
        cs = list(hands.get(s, []))
        k = 12 - len(cs)
        add, rest = rest[:k], rest[k:]
        full[s] = add + cs if (n == 3 and s == dealer) else cs + add
    first = (dealer + 1) % n
    dk = [None] * (12 * n)
    for s in range(n):
        for i, c in enumerate(full[s]):
            dk[i * n + (s - first) % n] = c
    if n == 2:
        if turned is None:
            turned = rest.pop(0)
        dk += [turned] + rest
    assert sorted(dk) == sorted(deck(n))
    return dk


def new(n, dealer, hands, turned=None, fill=0):
    return atut.new_game("imperial", players=n, seed=1, dealer=dealer,
                         deck=arrange(n, dealer, hands, turned, fill))


def at_scores(n, dealer, scores, dk):
    """Drive the state: a game at these totals whose next deal, by ``dealer``, is ``dk``."""
    g = atut.new_game("imperial", players=n, seed=2, dealer=dealer)
    g.scores = list(scores)
    g.sheet = [list(scores)]
    g.dealer = dealer
    g._deal([C.card(c) for c in dk])
    return g


def gains(g, this_deal=True):
    return engine_gains(g.events[g._deal_event if this_deal else 0:])


def play(g, *cards):
    for c in cards:
        g.apply({"type": "play", "card": c})


def model(n, dealer, dk, scores=None):
    return Ref(n, dealer, dk, scores or [0] * n)


def arrange_where(n, dealer, hands, cond, turned=None):
    """``arrange`` with the first filler for which ``cond(hands as sets)`` holds."""
    for fill in range(200):
        dk = arrange(n, dealer, hands, turned, fill)
        if cond(model(n, dealer, dk).hands):
            return dk
    raise AssertionError("no filler found")


# G3: with 2 players the hands are d[0..23] alternately (left of the dealer first), d[24] is
# turned and lies beside the pack, d[25..31] are never seen; with 3 players d[35] is the
# dealer's last card, shown to everybody and kept in his hand.

def test_G3_deal_and_trump_card_two_players():
    dk = arrange(2, 1, {})
    g = atut.new_game("imperial", players=2, seed=0, dealer=1, deck=dk)
    assert set(g.view(0)["hand"]) == set(dk[0:24:2]) and set(g.view(1)["hand"]) == set(dk[1:24:2])
    for seat in (None, 0, 1):
        v = g.view(seat)
        assert v["trump_card"] == dk[24] and v["trump"] == dk[24][-1]
        assert dk[24] not in v["hand"]
        text = json.dumps(v)
        assert not any(f'"{c}"' in text for c in dk[25:])          # never shown
    assert g.to_move == 0                                            # ¶8: dealer's left leads


def test_G3_deal_and_shown_card_three_players():
    dk = arrange(3, 2, {})
    g = atut.new_game("imperial", players=3, seed=0, dealer=2, deck=dk)
    for s in range(3):
        assert set(g.view(s)["hand"]) == set(dk[(s - 0) % 3::3])
    assert dk[35] in g.view(2)["hand"] and g.view(None)["trump_card"] == dk[35]
    assert g.view(None)["trump"] == dk[35][-1] and g.to_move == 0
    assert dk[35] in g.view(1)["revealed"][2]


def test_G2_the_first_dealer_comes_from_the_seed_and_the_deal_passes_left():
    firsts = {atut.new_game("imperial", players=3, seed=s).dealer for s in range(30)}
    assert firsts == {0, 1, 2}
    for s in range(5):
        a = atut.new_game("imperial", players=3, seed=s)
        b = atut.new_game("imperial", players=3, seed=s)
        assert a.dealer == b.dealer and a.view(0) == b.view(0)


# E1, G5

def test_E1_G5_turned_seven_is_an_honour_with_two_players():
    g = new(2, 1, {}, turned="7S")
    assert gains(g)[0] == ("turned_honour", 1, 4)
    g = new(2, 1, {}, turned="AS")
    assert all(k != "turned_honour" for k, _, _ in gains(g))


# G6, G7: the open imperial completes a suit and a rank imperial at once

def test_G7_open_imperial_counts_in_a_suit_and_a_rank_imperial():
    dealer = ["QH", "JH", "AH", "7S", "7D", "7C", "10S", "9S", "8S", "10C", "9C", "8C"]
    other = ["KH", "10H", "9H", "8H", "KS", "QS", "JS", "KC", "QC", "JC", "KD", "QD"]
    g = new(2, 0, {0: dealer, 1: other}, turned="7H")
    assert gains(g) == [("turned_honour", 0, 4), ("imperial", 0, 72), ("point", 1, 4),
                        ("honours", 0, 8), ("honours", 1, 4)]
    imps = [e for e in g.events if e["type"] == "imperial"]
    assert sorted((e["kind"], e["open"], e["units"]) for e in imps) == \
        [("rank", True, 1), ("suit", True, 2)]
    assert g.scores == [84, 8]
    # the turned card is still nobody's: not in the revealed cards, not in a hand
    assert "7H" not in g.view(1)["revealed"][0] and "7H" not in g.view(0)["hand"]


def test_G7_the_non_dealer_never_uses_the_turned_card():
    dk = arrange_where(2, 0, {1: ["7S", "7D", "7C", "QH", "JH", "AH"]},
                       lambda h: units(h[1], 2, "H") == 0, turned="7H")
    g = atut.new_game("imperial", players=2, seed=1, dealer=0, deck=dk)
    assert units(set(g.view(1)["hand"]), 2, "H", "7H") == 3         # were it his
    assert all(not (k == "imperial" and s == 1) for k, s, _ in gains(g))


def test_G6_E5_low_card_imperials_by_player_count():
    # four 6s with 3 players, Q J A 6 of a side suit: 1 + 1 units
    g = new(3, 0, {1: ["6S", "6C", "6D", "6H", "QC", "JC", "AC"], 0: ["9D"]})
    assert g.view(None)["trump"] == "D"
    assert units(g.view(1)["hand"], 3, "D") == 2
    assert ("imperial", 1, 48) in gains(g)
    # four 7s with 3 players are nothing
    assert units({"7S", "7C", "7D", "7H"}, 3, "D") == 0
    dk = arrange_where(3, 0, {1: ["7S", "7C", "7D", "7H"], 0: ["9D"]},
                       lambda h: units(h[1], 3, "D") == 0)
    g = atut.new_game("imperial", players=3, seed=1, dealer=0, deck=dk)
    assert all(not (k == "imperial" and s == 1) for k, s, _ in gains(g))


# G8: three-way tie

def test_G8_E6_three_way_tie_all_score():
    hands = {0: ["KS", "QS", "JS", "AS"], 1: ["KC", "QC", "JC", "AC"],
             2: ["KD", "QD", "JD", "AD", "9H"]}
    dk = arrange_where(3, 2, hands, lambda h: all(units(h[s], 3, "H") == 1 for s in range(3)))
    g = atut.new_game("imperial", players=3, seed=0, dealer=2, deck=dk)
    assert [x for x in gains(g) if x[0] == "imperial"] == \
        [("imperial", 2, 24), ("imperial", 0, 24), ("imperial", 1, 24)]      # dealer first
    assert not [x for x in g.view(None)["summary"] if x["key"] == "imperials_beaten"]


# G10: the point

def test_G10_three_way_point_tie_each_scores_two():
    hands = {0: ["10C", "9C", "6C", "10D", "8D", "KH", "QH", "JH", "10H", "6H", "7S", "JS"],
             1: ["KC", "JC", "AC", "8C", "7C", "AD", "6D", "AH", "QS", "AS", "10S", "9S"],
             2: ["QC", "KD", "QD", "JD", "9D", "7D", "9H", "8H", "7H", "KS", "8S", "6S"]}
    g = new(3, 0, hands)
    pts = [x for x in gains(g) if x[0] == "point"]
    assert pts == [("point", 0, 2), ("point", 1, 2), ("point", 2, 2)]
    bests = [(x["length"], x["value"]) for x in g.view(None)["summary"] if x["key"] == "best_suit"]
    assert bests == [(5, 46)] * 3


def test_G10_the_best_of_equal_length_suits_counts():
    # seat 1 holds two 4-card suits, spades 34 and clubs 40: clubs count, and lose to 41
    hands = {1: ["9S", "8S", "7S", "10S", "KC", "QC", "JC", "10C", "AD", "9D", "8D", "KH"],
             0: ["KS", "QS", "JS", "AS", "AC", "9C", "8C", "7C", "KD", "QD", "JD", "10D"]}
    g = new(2, 0, hands, turned="7H")
    assert best_suit(set(hands[1])) == (4, 40) and best_suit(set(hands[0])) == (4, 41)
    assert [x for x in gains(g) if x[0] == "point"] == [("point", 0, 4)]


# G12: order of the scoring events, dealer first inside each step

def test_G12_order_of_declarations():
    dealer = ["QH", "JH", "AH", "7S", "7D", "7C", "10S", "9S", "8S", "10C", "9C", "8C"]
    other = ["KH", "10H", "9H", "8H", "KS", "QS", "JS", "KC", "QC", "JC", "KD", "QD"]
    g = new(2, 0, {0: dealer, 1: other}, turned="7H")
    kinds = [e["type"] for e in g.events if e["type"] in SCORING]
    assert kinds == ["turned_honour", "imperial", "imperial", "point", "honours", "honours"]
    assert [x["seat"] for x in g.view(None)["summary"] if x["key"] in ("best_suit",)] == [0, 1]


# G13: trick winners and following

def test_G13_trick_winner_three_players():
    # 2 leads 9S; 0 has no spade and trumps with 6D; 1 follows with KS: the trump wins
    g = new(3, 1, {2: ["9S", "KC"], 0: ["6D", "AC", "10C", "9C", "8C", "7C", "6C", "AH", "10H",
                                        "9H", "8H", "7H"],
                   1: ["KS", "QD"]}, fill=1)
    assert g.view(None)["trump"] == "D" and g.to_move == 2
    play(g, "9S")
    assert [a["card"] for a in g.legal_actions()] == ["6D"]          # no spade: must trump
    play(g, "6D", "KS")
    assert [e for e in g.events if e["type"] == "trick"][-1]["winner"] == 0
    assert g.to_move == 0                                            # the winner leads


def test_G13_an_off_suit_card_never_wins():
    g = new(2, 0, {1: ["7S"], 0: ["KC", "QC", "JC", "AC", "10C", "9C", "8C", "7C", "KH", "QH",
                                  "JH", "AH"]}, turned="9D")
    play(g, "7S")
    assert len(g.legal_actions()) == 12                              # no spade, no trump
    play(g, "KC")
    assert [e for e in g.events if e["type"] == "trick"][-1]["winner"] == 1


# G14: what counts as an honour lead

def test_G14_honour_leads_three_players():
    g = new(3, 2, {0: ["6H", "7H", "AH", "KS"], 2: ["9H"]}, fill=2)
    assert g.view(None)["trump"] == "H"
    s0 = g.scores[0]
    play(g, "6H")
    assert g.scores[0] == s0 + 4                                     # the 6 with 3 players
    g = new(3, 2, {0: ["6H", "7H", "AH", "KS"], 2: ["9H"]}, fill=2)
    play(g, "7H")
    assert g.scores[0] == s0                                         # the 7 is none
    g = new(3, 2, {0: ["6H", "7H", "AH", "KS"], 2: ["9H"]}, fill=2)
    play(g, "AH")
    assert g.scores[0] == s0                                         # nor the ace (G4)


# G15: the trick bonus with 3 players; G16: a trick bonus ending the game

def test_G15_seven_tricks_three_players():
    found = 0
    for seed in range(40):
        g = atut.new_game("imperial", players=3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        for e in g.events:
            if e["type"] == "deal_over":
                t = e["tricks"]
                assert sum(t) == 12
                found += max(t) > 6
        bonus = [(e["tricks"], e["points"]) for e in g.events if e["type"] == "tricks_bonus"]
        assert all(p == (8 if t == 12 else 4) and t > 6 for t, p in bonus)
    assert found > 0


E12_SEAT1 = ["KH", "QH", "JH", "AH", "10H", "9H", "8H", "KS", "QS", "KC", "QC", "KD"]
E12_SEAT0 = ["JS", "AS", "10S", "9S", "8S", "7S", "JC", "AC", "10C", "9C", "JD", "AD"]


def _sweep(g):
    """Seat 1 plays its cards in order, seat 0 its first legal card, until one card is left."""
    for c in E12_SEAT1[:-1]:
        play(g, c)
        play(g, g.legal_actions()[0]["card"])


def test_G16_the_twelfth_trick_bonus_ends_the_game_at_once():
    g = new(2, 0, {1: E12_SEAT1, 0: E12_SEAT0}, turned="7H")
    _sweep(g)
    assert g.tricks_won == [0, 11]
    g.sheet[-1][1] += 119 - g.scores[1]
    g.scores[1] = 119
    deal = g.deal_no
    play(g, "KD")
    play(g, g.legal_actions()[0]["card"])
    assert g.is_over and g.winner == 1 and g.scores[1] == 127 and g.deal_no == deal
    assert [e["type"] for e in g.events[-3:]] == ["trick", "tricks_bonus", "game_over"]
    assert g.view(0)["phase"] == "over" and "legal_actions" not in g.view(0)


def test_G16_tied_point_at_equal_totals_goes_to_the_dealer():
    hands = {1: ["KS", "QS", "10S", "8S", "7S", "KC", "QC", "10C", "KD", "QD", "AD", "10D"],
             0: ["AH", "JH", "9H", "8H", "7H", "AC", "JC", "9C", "JD", "9D", "8D", "7D"]}
    dk = arrange(2, 1, hands, turned="10H")
    g = at_scores(2, 1, [118, 118], dk)
    assert gains(g) == [("point", 1, 2), ("point", 0, 2)]            # dealer 1 first
    assert g.is_over and g.scores == [120, 120] and g.winner == 1


def test_G16_three_way_imperial_tie_goes_to_the_dealer():
    hands = {0: ["KS", "QS", "JS", "AS"], 1: ["KC", "QC", "JC", "AC"],
             2: ["KD", "QD", "JD", "AD", "9H"]}
    dk = arrange_where(3, 2, hands, lambda h: all(units(h[s], 3, "H") == 1 for s in range(3)))
    g = at_scores(3, 2, [100, 100, 100], dk)
    assert g.is_over and g.winner == 2 and g.scores == [124, 124, 124]
    g = at_scores(3, 2, [100, 101, 100], dk)
    assert g.is_over and g.winner == 1


def test_G16_game_over_in_the_declarations_is_final():
    hands = {0: ["KS", "QS", "JS", "AS"], 1: ["KC", "QC", "JC", "AC"],
             2: ["KD", "QD", "JD", "AD", "9H"]}
    dk = arrange_where(3, 2, hands, lambda h: all(units(h[s], 3, "H") == 1 for s in range(3)))
    g = at_scores(3, 2, [100, 100, 100], dk)
    assert g.to_move is None and g.legal_actions() == [] and g.phase == "over"
    for seat in (None, 0, 1, 2):
        v = g.view(seat)
        assert v["is_over"] and v["winner"] == 2 and "legal_actions" not in v
    with pytest.raises(atut.IllegalAction, match="over"):
        g.apply({"type": "play", "card": g.view(0)["hand"][0]})
    g.check_invariants()


# G17: totals never fall

def test_G17_totals_never_fall():
    for seed in range(30):
        g = atut.new_game("imperial", players=2, seed=seed)
        rng = random.Random(seed)
        prev = list(g.scores)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            assert all(a >= b for a, b in zip(g.scores, prev))
            prev = list(g.scores)
        assert all(e["points"] > 0 for e in g.events if e["type"] in SCORING)


# --- the contract -------------------------------------------------------------------------------

def test_contract_actions_and_views_are_json_safe_copies():
    g = atut.new_game("imperial", players=3, seed=8)
    legal = g.legal_actions()
    legal[0]["card"] = "XX"
    assert g.legal_actions()[0]["card"] != "XX"
    v = g.view(g.to_move)
    v["legal_actions"].clear()
    v["hand"].clear()
    assert g.view(g.to_move)["hand"] and g.view(g.to_move)["legal_actions"]
    for seat in (None, 0, 1, 2):
        v = g.view(seat)
        assert json.loads(json.dumps(v)) == v
        assert ("legal_actions" in v) == (seat == g.to_move)
    assert json.loads(json.dumps(g.events)) == g.events


def test_contract_bad_input_changes_nothing():
    g = new(2, 0, {1: ["KS", "9H"], 0: ["7S", "AC"]}, turned="8H")
    play(g, "KS")
    before = (g.to_json(), json.dumps(g.view(None)), json.dumps(g.view(0)), len(g.events))
    bad = [{"type": "play", "card": "AC"},                   # must follow (G13)
           {"type": "play", "card": "9H"},                   # seat 1's card
           {"type": "play", "card": "8H"},                   # the turned card
           {"type": "play", "card": "6S"},                   # no 6 with 2 players
           {"type": "play", "card": "7s"}, {"type": "play", "card": 7},
           {"type": "play", "card": "7S", "meld": "KS"}, {"type": "play", "card": "7S", "to": 1},
           {"type": "play"}, {"type": "pass"}, {"type": "bid", "value": 100},
           {"type": "give", "card": "7S", "to": 1}, {"card": "7S"}, {}, None, "7S", ["7S"],
           {"type": "play", "card": ["7S"]}, {"type": "play", "card": None}]
    for a in bad:
        with pytest.raises(atut.IllegalAction) as e:
            g.apply(a)
        assert str(e.value)
    assert issubclass(atut.IllegalAction, ValueError)
    assert before == (g.to_json(), json.dumps(g.view(None)), json.dumps(g.view(0)),
                      len(g.events))
    play(g, "7S")                                            # and the game goes on


def test_contract_bad_construction():
    for kw in (dict(players=4), dict(players=1), dict(players="2"), dict(players=2.0),
               dict(players=2, dealer=2), dict(players=3, dealer=-1), dict(players=2, seed="1"),
               dict(players=2, options={"erase": True}), dict(players=2, options="x"),
               dict(players=2, deck=deck(3)), dict(players=3, deck=deck(2)),
               dict(players=2, deck=deck(2)[:-1] + ["KS"]), dict(players=2, deck="KS")):
        with pytest.raises(ValueError):
            atut.new_game("imperial", **kw)
    assert atut.new_game("imperial", players=2, options={}).options == {}


def test_contract_save_and_load_a_finished_game():
    g = atut.new_game("imperial", players=2, seed=11)
    rng = random.Random(11)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    h = atut.load_game(g.to_json())
    assert h.is_over and h.winner == g.winner and h.scores == g.scores and h.events == g.events
    data = json.loads(g.to_json())
    data["actions"][3] = {"type": "play", "card": "6S"}
    with pytest.raises(ValueError, match="malformed"):
        atut.load_game(json.dumps(data))


def test_contract_load_resumes_at_every_stage():
    g = atut.new_game("imperial", players=3, seed=12, dealer=1,
                      deck=arrange(3, 1, {1: ["KH", "QH", "JH", "AH"]}))
    rng = random.Random(12)
    k = 0
    while not g.is_over and k < 60:
        if k % 7 == 0:
            h = atut.load_game(g.to_json())
            assert [h.view(s) for s in (None, 0, 1, 2)] == [g.view(s) for s in (None, 0, 1, 2)]
        g.apply(rng.choice(g.legal_actions()))
        k += 1


def test_contract_clone_is_a_separate_game():
    g = atut.new_game("imperial", players=2, seed=13)
    rng = random.Random(13)
    for _ in range(20):
        g.apply(rng.choice(g.legal_actions()))
    before = g.to_json(), json.dumps([g.view(s) for s in (None, 0, 1)])
    c = g.clone()
    while c.to_move is not None:
        c._apply(rng.choice(c._legal()))
    assert before == (g.to_json(), json.dumps([g.view(s) for s in (None, 0, 1)]))
    g.check_invariants()


# --- what each view shows (the information table, section 5) -----------------------------------

def test_G9_views_show_declarations_and_tricks_and_nothing_else():
    g = new(2, 0, {1: ["KS", "QS", "JS", "AS", "KH", "9H"], 0: ["7S", "AC"]}, turned="10H")
    for seat in (None, 0):
        v = g.view(seat)
        imp = [x for x in v["summary"] if x["key"] == "imperial"]
        assert imp and imp[0]["cards"] == ["KS", "QS", "JS", "AS"]
        held = set(g.view(1)["hand"])
        assert set(v["revealed"][1]) == {"KS", "QS", "JS", "AS"} | honours(held, 2, "H")
        assert all(set(x) <= {"key", "seat", "length", "value"}
                   for x in v["summary"] if x["key"] == "best_suit")
        hidden = set(g.view(1)["hand"]) - set(v["revealed"][1])
        assert not any(f'"{c}"' in json.dumps(v) for c in hidden)
    play(g, "9H")
    play(g, g.legal_actions()[0]["card"])
    v = g.view(None)
    assert [e for e in v["log"] if e["type"] == "trick"]                  # completed tricks
    assert v["last_trick"]["cards"][0] == {"seat": 1, "card": "9H"}


def _scramble(x):
    """Change every list and dict inside a view in place."""
    if isinstance(x, dict):
        for k in list(x):
            _scramble(x[k])
        x["scrambled"] = True
    elif isinstance(x, list):
        for v in x:
            _scramble(v)
        x.append("XX")


def test_contract_a_view_shares_nothing_with_the_game():
    # declarations with imperials, the point, honours and a beaten seat; then an honour lead
    g = new(2, 0, {1: ["KH", "QH", "JH", "AH"], 0: ["KS", "QS", "JS", "AS"]}, turned="10H")
    play(g, "KH")
    rng = random.Random(3)
    for k in range(2):
        before = (g.to_json(), json.dumps(g.events),
                  json.dumps([g.view(s) for s in (None, 0, 1)]))
        for s in (None, 0, 1):
            _scramble(g.view(s))
        assert before == (g.to_json(), json.dumps(g.events),
                          json.dumps([g.view(s) for s in (None, 0, 1)])), f"deal {k + 1}"
        for _ in range(30):                                  # into the second deal
            g.apply(rng.choice(g.legal_actions()))


def test_G13_illegal_plays_say_why():
    g = new(2, 0, {1: ["KS", "9H"], 0: ["7S", "AC", "10H"]}, turned="8H")
    play(g, "KS")
    with pytest.raises(atut.IllegalAction,
                       match=r": G13: seat 0 must follow the led suit S \(.*7S.*\)$"):
        play(g, "AC")
    g = new(2, 0, {1: ["KS"], 0: ["10H", "AC", "10C", "9C", "8C", "7C", "AD", "10D", "9D", "8D",
                                  "7D", "KC"]}, turned="8H")
    play(g, "KS")
    with pytest.raises(atut.IllegalAction,
                       match=r": G13: seat 0 has no S and must play a trump H \(.*10H.*\)$"):
        play(g, "AC")
    with pytest.raises(atut.IllegalAction, match=r": G3: 8H is the turned trump card, "
                                                 r"beside the pack in nobody's hand$"):
        play(g, "8H")
    with pytest.raises(atut.IllegalAction, match=r": G1: there are no 6s with 2 players$"):
        play(g, "6S")
    with pytest.raises(atut.IllegalAction, match=r"only .*card.*meld"):
        g.apply({"type": "play", "card": "10H", "meld": "KH"})
    with pytest.raises(atut.IllegalAction, match=r"needs a 'card'"):
        g.apply({"type": "play"})
    with pytest.raises(atut.IllegalAction, match=r"does not hold 9H"):
        play(g, "9H")
    play(g, "10H")
