"""sixty_six: an independent rules audit (second pair of eyes) against rules/004-sixty-six.md.

The first part is a small reference model written from the rules file alone (card codes and
sets, no engine tables): seeded random games are played through the public API and, at every
decision, whose turn it is, the legal actions, each trick's winner, the draws, every total, the
end of the deal and what each view shows (G15) must agree with the model.  The same runs check
the engine's int-move fast path (``_moves``/``_do``) against ``_legal``/``apply``, save/load,
``clone()`` and bad input.  The second part pins single rules (named after the G/E numbers)
with tiny scripted hands.
"""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut import cards as C
from helpers import plain

# --- the reference model (from the rules file only) -----------------------------------------------

SUITS = "SCDH"
ORDER = ["A", "10", "K", "Q", "J", "9"]                           # G2: high to low
VALUE = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}        # ¶2, G2
ALL = [r + s for s in SUITS for r in ORDER]


def rank(c):
    return c[:-1]


def suit(c):
    return c[-1]


def partner(c):
    return ("Q" if rank(c) == "K" else "K") + suit(c)


def hand_size(n):
    return 5 if n == 4 else 6                                     # G3


def canon(a):
    return json.dumps(a, sort_keys=True, separators=(",", ":"))


class Ref:
    """One deal of 66 as the rules file describes it (G1-G15)."""

    def __init__(self, n, dealer, dk):
        self.n, self.dealer = n, dealer
        h = hand_size(n)
        first = (dealer + 1) % n
        self.hands = [set() for _ in range(n)]
        for i in range(n * h):                                    # G3: one at a time, from the left
            self.hands[(first + i) % n].add(dk[i])
        self.table = dk[n * h]                                    # the face-up trump card
        self.trump = suit(self.table)
        self.down = list(dk[n * h + 1:])                          # drawn in index order
        assert len(self.down) == {2: 11, 3: 5, 4: 3}[n]           # G3 table
        self.to_move = first                                      # ¶3
        self.trick = []
        self.meld = None                                          # the lead's marriage partner
        self.last = None                                          # (cards, winner, meld)
        self.points = [0] * n
        self.captured = [set() for _ in range(n)]
        self.tricks = [0] * n
        self.marriages = []                                       # (seat, suit, value)
        self.winner = None
        self.reason = None
        self.known = [set() for _ in range(n)]                    # cards each seat has seen
        for s in range(n):
            self.known[s] |= self.hands[s] | {self.table}
        self.public = {self.table}                                # seen by everybody

    def exhausted(self):
        return self.table is None

    def stock(self):
        return len(self.down) + (self.table is not None)

    def legal(self):
        """Canonical JSON of every legal action."""
        h = self.hands[self.to_move]
        out = set()
        if not self.trick:
            for c in h:
                out.add(canon({"type": "play", "card": c}))               # G6, G8: any lead
                if rank(c) in ("K", "Q") and partner(c) in h:              # G9
                    out.add(canon({"type": "play", "card": c, "meld": partner(c)}))
            if self.table is not None and "9" + self.trump in h:          # G10
                out.add(canon({"type": "exchange"}))
            return out
        playable = set(h)
        if self.exhausted():                                              # G8
            led = suit(self.trick[0][1])
            playable = {c for c in h if suit(c) == led} or playable
        return {canon({"type": "play", "card": c}) for c in playable}    # G6

    def _see(self, cards):
        self.public |= set(cards)
        for k in self.known:
            k |= set(cards)

    def apply(self, a):
        s = self.to_move
        assert canon(a) in self.legal()
        if a["type"] == "exchange":                                       # G10
            nine = "9" + self.trump
            self.hands[s].remove(nine)
            self.hands[s].add(self.table)
            self.table = nine
            self._see([nine])
            return
        c = a["card"]
        self.hands[s].remove(c)
        self.trick.append((s, c))
        self._see([c])
        if len(self.trick) == 1:
            self.last = None                                              # G15: until the next lead
            self.meld = a.get("meld")
            if "meld" in a:                                               # G9
                v = 40 if suit(c) == self.trump else 20
                self.points[s] += v
                self.marriages.append((s, suit(c), v))
                self._see([a["meld"]])
                if self.points[s] >= 66:                                  # G11: at once
                    self._end(s, "66")
                    return
        if len(self.trick) < self.n:
            self.to_move = (s + 1) % self.n
            return
        led = suit(self.trick[0][1])

        def key(x):                                                        # G5
            c = x[1]
            return (2 if suit(c) == self.trump else 1 if suit(c) == led else 0,
                    -ORDER.index(rank(c)))
        w = max(self.trick, key=key)[0]
        cards = [c for _, c in self.trick]
        self.points[w] += sum(VALUE[rank(c)] for c in cards)
        self.captured[w] |= set(cards)
        self.tricks[w] += 1
        self.last = (self.trick, w, self.meld)
        self.trick = []
        if self.points[w] >= 66:                                           # G11, E7: no draw
            self._end(w, "66")
            return
        if not self.hands[w]:                                              # G12
            self._end(w, "last_trick")
            return
        if self.table is not None:                                         # G7
            for k in range(self.n):
                t = (w + k) % self.n
                if self.down:
                    c = self.down.pop(0)
                    self.known[t].add(c)
                else:
                    c, self.table = self.table, None
                self.hands[t].add(c)
        self.to_move = w

    def _end(self, s, reason):
        self.winner, self.reason = s, reason


def codes_in(obj):
    """Every card code anywhere in a JSON-safe structure."""
    found = set()
    if isinstance(obj, str):
        if obj in ALL:
            found.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            found |= codes_in(k) | codes_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            found |= codes_in(v)
    return found


def items(trick, meld):
    out = [{"seat": s, "card": c} for s, c in trick]
    if out and meld:
        out[0]["meld"] = meld
    return out


def check_view(g, ref, seat):
    """G15: what ``view(seat)`` shows, against the model."""
    v = g.view(seat)
    json.dumps(v)
    over = ref.winner is not None
    assert v["trump"] == ref.trump
    assert v["stock"] == ref.stock()
    assert v["trump_card"] == ref.table
    assert v["to_move"] == (None if over else ref.to_move)
    assert v["trick"] == items(ref.trick, ref.meld)
    if ref.last is None:
        assert v["last_trick"] is None
    else:
        assert v["last_trick"] == {"cards": items(ref.last[0], ref.last[2]),
                                   "winner": ref.last[1]}
    assert [(m["seat"], m["suit"], m["value"]) for m in v["marriages"]] == ref.marriages
    for x in v["seats"]:
        s = x["seat"]
        assert x["cards"] == len(ref.hands[s]) and x["tricks"] == ref.tricks[s]
        if s == seat or over:
            assert x["points"] == ref.points[s]
        else:
            assert x["points"] is None, f"seat {seat} sees seat {s}'s total"
    if seat is None:
        assert v["hand"] == [] and not v.get("captured")
        allowed = ref.public
    else:
        assert sorted(v["hand"]) == sorted(ref.hands[seat])
        assert sorted(v["captured"]) == sorted(ref.captured[seat])
        allowed = ref.known[seat]
    leaked = codes_in(v) - allowed
    assert not leaked, f"seat {seat} sees {leaked}"
    if seat is not None and seat == g.to_move:
        assert v["legal_actions"] == g.legal_actions()
    else:
        assert "legal_actions" not in v


def check_fast_path(g):
    """The int moves of the search path are exactly the legal actions."""
    from atut.games.sixty_six import ACTION
    moves = g._moves()
    assert len(moves) == len(set(moves))
    assert sorted(canon(ACTION[m]) for m in moves) == sorted(canon(a) for a in g._legal())


BAD = [
    "play AH", None, [], {"type": "play"}, {"type": "play", "card": None},
    {"type": "play", "card": 1}, {"type": "play", "card": "ah"}, {"type": "play", "card": "8H"},
    {"type": "play", "card": ["AH"]}, {"card": "AH"}, {"type": "pass"},
    {"type": "bid", "value": 66},
    {"type": "close"}, {"type": "exchange", "card": "9S"}, {"type": "exchange", "to": 1},
    {"type": "play", "card": "AH", "meld": None}, {"type": "play", "card": "AH", "extra": 1},
    {"type": "Play", "card": "AH"}, {"type": 7},
]


def snapshot(g):
    return (g.to_json(), len(g.events), [json.dumps(g.view(s)) for s in [None, *range(g.n)]])


def check_bad_input(g, rng):
    before = snapshot(g)
    legal = g.legal_actions()
    bad = list(BAD)
    held = C.codes(C.cards_of(g.hands[g.to_move]))
    # a card not held, a meld that is not legal, an illegal follow
    others = [c for c in ALL if c not in held]
    bad.append({"type": "play", "card": rng.choice(others)})
    for c in held:
        for a in ({"type": "play", "card": c}, {"type": "play", "card": c, "meld": partner(c)},
                  {"type": "play", "card": c, "meld": c}):
            if a not in legal:
                bad.append(a)
    if {"type": "exchange"} not in legal:
        bad.append({"type": "exchange"})
    for a in bad:
        with pytest.raises(atut.IllegalAction) as e:
            g.apply(a)
        assert str(e.value)
    assert snapshot(g) == before


def play_checked(n, seed, rng, meld_p, views=True):
    """One seeded random game against the model; returns the finished game and model."""
    g = atut.new_game("sixty_six", players=n, seed=seed)
    dk = g.events[0]["deck"]
    assert g.events[0]["type"] == "deal" and sorted(dk) == sorted(ALL)
    assert g.dealer == g.first_dealer
    ref = Ref(n, g.dealer, dk)
    save_at = rng.randrange(30)
    clone_at = rng.randrange(30)
    bad_at = rng.randrange(30) if seed % 4 == 0 else -1
    step = 0
    while True:
        assert g.scores == [int(s == ref.winner) for s in range(n)]    # G14
        assert g.winner == ref.winner
        if views:
            for seat in [None, *range(n)]:
                check_view(g, ref, seat)
        if ref.winner is not None:
            assert g.is_over and g.to_move is None and g.legal_actions() == []
            assert g.phase == "over"
            end = g.events[-1]
            assert end["type"] == "deal_over" and end["winner"] == ref.winner
            assert end["reason"] == ref.reason and end["points"] == ref.points
            return g, ref
        assert g.to_move == ref.to_move
        legal = g.legal_actions()
        keys = [canon(a) for a in legal]
        assert len(keys) == len(set(keys)), "an action is listed twice"
        assert set(keys) == ref.legal(), (seed, step)
        assert {a["type"] for a in legal} <= {"play", "exchange"}          # G13: nothing else
        for a in legal:
            assert None not in a.values()
            assert set(a) in ({"type"}, {"type", "card"}, {"type", "card", "meld"})
            assert (a["type"] == "exchange") == (set(a) == {"type"})
        check_fast_path(g)
        if step == bad_at:
            check_bad_input(g, rng)
        if step == save_at:
            h = atut.load_game(g.to_json())
            assert [h.view(s) for s in [None, *range(n)]] == [g.view(s) for s in [None, *range(n)]]
            assert h.legal_actions() == legal
        if step == clone_at:
            check_clone(g, random.Random(seed))
        plain = [a for a in legal if "meld" not in a]
        a = rng.choice(legal if rng.random() < meld_p else plain)
        g.apply(a)
        ref.apply(a)
        g.check_invariants()
        assert list(g.points) == ref.points
        step += 1


def check_clone(g, rng):
    """A clone played on through the int moves ends exactly like the game played on through
    ``apply`` with the same moves."""
    from atut.games.sixty_six import ACTION
    orig = atut.load_game(g.to_json())
    c = g.clone()
    while not orig.is_over:
        m = rng.choice(c._moves())
        orig.apply(dict(ACTION[m]))
        c._do(m)
        assert c.to_move == orig.to_move and c.hands == orig.hands and c.points == orig.points
    assert c.winner == orig.winner and c.scores == orig.scores and c.phase == "over"
    assert c.trick == orig.trick and c.stock == orig.stock and c.trump_card == orig.trump_card


@pytest.mark.parametrize("n", [2, 3, 4])
def test_G1_to_G15_engine_agrees_with_the_reference_model(n):
    rng = random.Random(600 + n)
    reasons = {"66": 0, "last_trick": 0}
    melds = exchanges = 0
    for seed in range(200):
        g, ref = play_checked(n, seed, rng, meld_p=(0.0, 0.3, 1.0)[seed % 3], views=seed < 120)
        reasons[ref.reason] += 1
        melds += bool(ref.marriages)
        exchanges += any(e["type"] == "exchange" for e in g.events)
    # the runs reach every kind of ending, marriages and exchanges
    assert min(reasons.values()) >= 10 and melds >= 10 and exchanges >= 5, (reasons, melds,
                                                                                exchanges)


# --- scripted deals -----------------------------------------------------------------------------

def arrange(n, dealer, hands, table, stock=(), fill=0):
    """A deck in canonical deal order (G3): ``hands`` = {seat: codes} (completed from the
    other cards, shuffled by ``fill``), ``table`` the turned trump card, ``stock`` the first
    face-down cards to be drawn."""
    h = hand_size(n)
    used = {c for cs in hands.values() for c in cs} | {table} | set(stock)
    assert len(used) == sum(map(len, hands.values())) + 1 + len(stock)
    rest = [c for c in ALL if c not in used]
    random.Random(fill).shuffle(rest)
    full = {}
    for s in range(n):
        cs = list(hands.get(s, []))
        k = h - len(cs)
        full[s], rest = cs + rest[:k], rest[k:]
    first = (dealer + 1) % n
    dk = [full[(first + i) % n][i // n] for i in range(n * h)]
    dk += [table] + list(stock) + rest
    assert sorted(dk) == sorted(ALL)
    return dk


def new(n, hands, table, stock=(), dealer=0, fill=0):
    return atut.new_game("sixty_six", players=n, seed=3, dealer=dealer,
                         deck=arrange(n, dealer, hands, table, stock, fill))


def play(g, *cards):
    for c in cards:
        g.apply({"type": "play", "card": c})


def hand(g, s):
    return set(g.view(s)["hand"])


def total(g, s):
    return next(x["points"] for x in g.view(s)["seats"] if x["seat"] == s)


def cards_of_legal(g):
    return sorted(a["card"] for a in g.legal_actions() if a["type"] == "play" and "meld" not in a)


def test_G1_two_to_four_players_each_for_himself():
    for n in (2, 3, 4):
        g = atut.new_game("sixty_six", players=n, seed=1)
        assert len(g.scores) == n and len(g.view(0)["seats"]) == n
        assert all("team" not in x for x in g.view(0)["seats"])
    for bad in (1, 5, 0, True, "3", 3.0):
        with pytest.raises(ValueError):
            atut.new_game("sixty_six", players=bad)


def test_G2_nines_rank_below_the_jack_and_count_nothing():
    g = new(2, {1: ["9H", "9C"], 0: ["JH", "AD"]}, "QS")
    play(g, "9H", "JH")                                     # the jack takes the nine
    assert g.view(0)["last_trick"]["winner"] == 0 and total(g, 0) == 2
    play(g, "AD", "9C")                                     # a 9 adds 0 points
    assert total(g, 0) == 13


def test_G2_E1_deck_is_24_cards_120_points():
    g = atut.new_game("sixty_six", players=2, seed=4)
    dk = g.events[0]["deck"]
    assert sorted(dk) == sorted(ALL) and len(dk) == 24
    assert sum(VALUE[rank(c)] for c in dk) == 120


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_G3_canonical_deal_and_draw_order(n, dealer):
    if dealer >= n:
        return
    dk = list(ALL)
    random.Random(n * 10 + dealer).shuffle(dk)
    g = atut.new_game("sixty_six", players=n, seed=0, dealer=dealer, deck=dk)
    h = hand_size(n)
    first = (dealer + 1) % n
    for k in range(n):
        s = (first + k) % n
        assert hand(g, s) == set(dk[k:n * h:n])
    assert g.view(None)["trump_card"] == dk[n * h] and g.view(None)["trump"] == suit(dk[n * h])
    assert g.view(None)["stock"] == len(dk) - n * h
    assert g.to_move == first and g.view(None)["dealer"] == dealer       # ¶3
    # the first trick: plain plays (no marriage), then the draws start with its winner
    before = [hand(g, s) for s in range(n)]
    for _ in range(n):
        s = g.to_move
        c = cards_of_legal(g)[0]
        play(g, c)
        before[s].discard(c)
    w = g.view(None)["last_trick"]["winner"]
    for k in range(n):                                                    # G7
        s = (w + k) % n
        drawn = hand(g, s) - before[s]
        expect = dk[n * h + 1 + k] if n * h + 1 + k < len(dk) else dk[n * h]
        if n == 4 and k == 3:
            expect = dk[n * h]                                            # E1: the trump card
        assert drawn == {expect}, (s, drawn, expect)


def test_G4_first_dealer_from_the_seed_or_given():
    dealers = {atut.new_game("sixty_six", players=4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    for s in range(10):
        a = atut.new_game("sixty_six", players=3, seed=s)
        b = atut.new_game("sixty_six", players=3, seed=s)
        assert a.dealer == b.dealer and a.to_move == (a.dealer + 1) % 3
        assert a.view(0) == b.view(0)
    g = atut.new_game("sixty_six", players=3, seed=5, dealer=1)
    assert g.dealer == 1 and g.to_move == 2 and g.view(None)["dealer"] == 1


def test_G5_E2_side_suit_never_wins_trump_does():
    g = new(2, {1: ["10H"], 0: ["AC", "9S"]}, "QS")
    play(g, "10H", "AC")
    assert g.view(None)["last_trick"]["winner"] == 1 and total(g, 1) == 21
    g = new(2, {1: ["10H"], 0: ["AC", "9S"]}, "QS")
    play(g, "10H", "9S")
    assert g.view(None)["last_trick"]["winner"] == 0 and total(g, 0) == 10


def test_G5_E3_highest_trump_wins_and_a_trump_lead_wins_against_side_aces():
    g = new(4, {1: ["KC"], 2: ["KH"], 3: ["9S"], 0: ["JS"]}, "QS")
    play(g, "KC", "KH", "9S", "JS")
    assert g.view(None)["last_trick"]["winner"] == 0
    g = new(3, {1: ["9S"], 2: ["AH"], 0: ["AC"]}, "QS")
    play(g, "9S", "AH", "AC")
    assert g.view(None)["last_trick"]["winner"] == 1 and total(g, 1) == 22


def test_G6_E10_free_play_while_the_stock_lasts():
    g = new(2, {1: ["AH"], 0: ["10H", "9S", "KC", "QD", "JD", "9D"]}, "QS")
    play(g, "AH")
    assert cards_of_legal(g) == sorted(["10H", "9S", "KC", "QD", "JD", "9D"])
    assert all("meld" not in a for a in g.legal_actions())        # G9: not when following


def test_G7_E1_three_players_trump_card_drawn_last_by_the_third_drawer():
    g = new(3, {1: ["AS", "10S"], 2: ["9H", "9D"], 0: ["9C", "JH"]}, "KS",
            stock=["QH", "JC", "QC", "KH", "AH"])
    play(g, "AS", "9H", "9C")                   # seat 1 wins; draws 1, 2, 0
    assert hand(g, 1) >= {"QH"} and hand(g, 2) >= {"JC"} and hand(g, 0) >= {"QC"}
    assert g.view(None)["stock"] == 3
    play(g, "10S", "9D", "JH")                  # seat 1 again; draws 1, 2, then 0 the KS
    assert hand(g, 1) >= {"KH"} and hand(g, 2) >= {"AH"} and hand(g, 0) >= {"KS"}
    v = g.view(None)
    assert v["stock"] == 0 and v["trump_card"] is None and v["trump"] == "S"
    assert any(e["type"] == "trump_drawn" and e["seat"] == 0 and e["card"] == "KS"
               for e in v["log"])               # G15: who took the trump card is public
    assert all(len(hand(g, s)) == 6 for s in range(3))


def test_G7_the_winner_draws_first_even_when_not_the_leader():
    g = new(2, {1: ["9H"], 0: ["AH"]}, "QS", stock=["AC", "AD"])
    play(g, "9H", "AH")
    assert "AC" in hand(g, 0) and "AD" in hand(g, 1) and g.to_move == 0


def test_G8_E6_after_exhaustion_follow_suit_but_need_not_beat_or_trump():
    g = new(4, {1: ["9C", "AH", "JH", "9H", "KD"], 2: ["JC", "10H", "QS", "JD", "QD"],
                3: ["QC", "AD", "10D", "9D", "AC"], 0: ["KC", "10C", "KH", "JS", "10S"]},
            "AS", stock=["9S", "KS", "QH"])
    play(g, "9C", "JC", "QC", "KC")             # seat 0 wins; 0 1 2 draw, seat 3 takes AS
    assert g.view(None)["stock"] == 0 and "AS" in hand(g, 3)
    play(g, "KH")
    assert cards_of_legal(g) == ["9H", "AH", "JH"]          # E6: 9H allowed with AH in hand
    play(g, "9H")
    assert cards_of_legal(g) == ["10H", "QH"]
    play(g, "QH")
    # no hearts: any card, trump or not
    assert cards_of_legal(g) == sorted(hand(g, 3))
    play(g, "AC")
    assert g.view(None)["last_trick"]["winner"] == 0        # KH beats 9H, QH; AC off-suit


def test_G8_a_trump_lead_must_be_followed_by_trumps():
    g = new(4, {1: ["9C", "JS", "KH", "QD", "JD"], 2: ["JC", "10S", "AD", "10D", "9D"],
                3: ["QC", "AC", "10C", "9H", "JH"], 0: ["KC", "AH", "10H", "QH", "KD"]},
            "AS", stock=["9S", "KS", "QS"])
    play(g, "9C", "JC", "QC", "KC")             # seat 0 wins and leads
    assert "9S" in hand(g, 0) and "KS" in hand(g, 1) and "QS" in hand(g, 2) and "AS" in hand(g, 3)
    play(g, "9S")
    assert cards_of_legal(g) == ["JS", "KS"]


def test_G9_E4_marriages_20_and_40_only_on_the_lead():
    g = new(2, {1: ["QC", "KC", "KS", "QS", "9H"], 0: ["KH", "QH"]}, "AS")
    legal = g.legal_actions()
    for c, m in (("QC", "KC"), ("KC", "QC"), ("KS", "QS"), ("QS", "KS")):
        assert {"type": "play", "card": c, "meld": m} in legal
        assert {"type": "play", "card": c} in legal               # declaring is optional
    assert sum("meld" in a for a in legal) == 4
    g.apply({"type": "play", "card": "QC", "meld": "KC"})
    assert total(g, 1) == 20 and "KC" in hand(g, 1)               # the partner stays in hand
    assert all("meld" not in a for a in g.legal_actions())        # seat 0 follows: no marriage
    for s in (None, 0, 1):
        v = g.view(s)
        assert v["marriages"] == [{"seat": 1, "suit": "C", "value": 20}]
        assert "KC" in codes_in(v)                                # G15: both cards public
    g2 = new(2, {1: ["QC", "KC", "KS", "QS"]}, "AS")
    g2.apply({"type": "play", "card": "KS", "meld": "QS"})
    assert total(g2, 1) == 40


def test_G9_a_marriage_is_scored_even_if_the_trick_is_lost_and_only_once():
    g = new(2, {1: ["KC", "QC", "AD"], 0: ["AC", "9D"]}, "JS", stock=["JH", "9C"])
    g.apply({"type": "play", "card": "KC", "meld": "QC"})
    play(g, "AC")                                   # seat 0 takes the king
    assert total(g, 1) == 20 and total(g, 0) == 15
    play(g, "9D", "AD")                             # seat 1 wins and leads again
    assert g.to_move == 1 and "QC" in hand(g, 1)
    assert {"type": "play", "card": "QC"} in g.legal_actions()
    assert all(a.get("card") != "QC" or "meld" not in a for a in g.legal_actions())   # once


def test_G9_a_marriage_after_the_stock_is_gone():
    g = new(4, {1: ["AC", "KH", "QH", "9D", "JD"], 2: ["9C"], 3: ["JC"], 0: ["QC"]}, "AS",
            stock=["10S", "KS", "QS"])
    play(g, "AC", "9C", "JC", "QC")
    assert g.to_move == 1 and g.view(None)["stock"] == 0
    assert {"type": "play", "card": "QH", "meld": "KH"} in g.legal_actions()


def test_G10_E5_exchange_before_the_first_lead_and_the_nine_is_drawn_last():
    g = new(2, {1: ["9S", "AH"], 0: ["9H"]}, "AS")
    assert g.legal_actions()[0] == {"type": "exchange"}          # listed first
    g.apply({"type": "exchange"})
    assert "AS" in hand(g, 1) and "9S" not in hand(g, 1)
    for s in (None, 0, 1):
        assert g.view(s)["trump_card"] == "9S" and g.view(s)["stock"] == 12
    assert g.to_move == 1 and {"type": "exchange"} not in g.legal_actions()
    ev = [e for e in g.view(0)["log"] if e["type"] == "exchange"]
    assert ev and ev[0]["seat"] == 1 and ev[0]["took"] == "AS" and ev[0]["gave"] == "9S"
    # the stock runs down; the 9 is the very last card drawn
    while g.view(None)["stock"]:
        play(g, cards_of_legal(g)[0])
    last = [e for e in g.events if e["type"] == "trump_drawn"]
    assert len(last) == 1 and last[0]["card"] == "9S"


def test_G10_only_the_player_about_to_lead_may_exchange():
    g = new(2, {1: ["AH"], 0: ["9S", "10H"]}, "KS")
    assert {"type": "exchange"} not in g.legal_actions()      # seat 1 has no 9S
    play(g, "AH")
    assert {"type": "exchange"} not in g.legal_actions()      # seat 0 is following
    play(g, "10H")                                            # seat 1 wins
    assert g.to_move == 1 and {"type": "exchange"} not in g.legal_actions()
    g = new(2, {1: ["9H"], 0: ["9S", "AH"]}, "KS")
    play(g, "9H", "AH")                                       # seat 0 wins, draws, leads
    assert g.to_move == 0 and {"type": "exchange"} in g.legal_actions()
    g.apply({"type": "exchange"})
    assert "KS" in hand(g, 0)


def test_G10_exchange_then_a_trump_marriage_with_the_card_taken():
    g = new(2, {1: ["9S", "QS"]}, "KS")
    g.apply({"type": "exchange"})
    assert {"type": "play", "card": "KS", "meld": "QS"} in g.legal_actions()
    g.apply({"type": "play", "card": "QS", "meld": "KS"})
    assert total(g, 1) == 40


def test_E11_four_players_exchange_before_the_first_lead_only():
    g = new(4, {1: ["9D", "AS"], 2: ["9H"], 3: ["9C"], 0: ["JC"]}, "KD")
    assert g.to_move == 1 and {"type": "exchange"} in g.legal_actions()
    play(g, "AS", "9H", "9C", "JC")
    assert g.view(None)["stock"] == 0 and g.to_move == 1
    assert {"type": "exchange"} not in g.legal_actions() and "9D" in hand(g, 1)


def test_G11_E7_reaching_66_by_a_trick_ends_the_deal_without_a_draw():
    g = new(2, {1: ["AS", "10S", "KS", "JS", "KH", "QD"],
                0: ["10C", "AC", "10D", "9D", "AD", "9H"]}, "QS")
    for lead, follow in (("AS", "10C"), ("10S", "AC"), ("KS", "10D"), ("JS", "9D")):
        play(g, lead, follow)
    assert total(g, 1) == 58 and not g.is_over
    stock = g.view(None)["stock"]
    play(g, "KH", "AD")                             # KH takes AD (side suit): 58 + 15
    assert g.is_over and g.winner == 1 and g.scores == [0, 1]
    assert g.view(None)["stock"] == stock           # no draw
    assert plain(g.events[-1]) == {"type": "deal_over", "winner": 1, "reason": "66",
                            "points": [0, 73]}
    assert [x["points"] for x in g.view(0)["seats"]] == [0, 73]     # all shown at the end
    g.check_invariants()


def test_G11_E8_reaching_66_by_a_marriage_ends_at_once():
    g = new(2, {1: ["AS", "AC", "KH", "QH", "9D", "JD"], 0: ["KS", "KC"]}, "JH")
    play(g, "AS", "KS", "AC", "KC")
    assert total(g, 1) == 30
    g.apply({"type": "play", "card": "QH", "meld": "KH"})
    assert g.is_over and g.winner == 1 and total(g, 1) == 70
    assert g.view(None)["trick"][0]["card"] == "QH" and len(g.view(None)["trick"]) == 1
    assert g.to_move is None and g.legal_actions() == []
    with pytest.raises(atut.IllegalAction, match="over"):
        g.apply({"type": "play", "card": "9D"})
    g.check_invariants()


def test_G12_E9_nobody_reaches_66_the_last_trick_wins():
    found = 0
    for seed in range(200):
        rng = random.Random(seed)
        g = atut.new_game("sixty_six", players=2, seed=seed)
        while not g.is_over:
            g.apply(rng.choice([a for a in g.legal_actions() if "meld" not in a]))
        pts = g.events[-1]["points"]
        if max(pts) < 66:
            assert sum(pts) == 120                       # no last-trick bonus
            assert g.winner == g.view(None)["last_trick"]["winner"]
            assert g.events[-1]["reason"] == "last_trick"
            if pts[g.winner] < pts[1 - g.winner]:
                found += 1
    assert found > 0


def test_G13_no_closing_and_no_other_action_types():
    with pytest.raises(ValueError, match="no option"):
        atut.new_game("sixty_six", options={"close": True})
    with pytest.raises(ValueError):
        atut.new_game("sixty_six", options=[("close", True)])
    g = new(2, {1: ["9S"]}, "AS")
    with pytest.raises(atut.IllegalAction, match="may only"):
        g.apply({"type": "close"})


def test_G14_one_deal_is_the_game():
    g = atut.new_game("sixty_six", players=3, seed=2)
    rng = random.Random(2)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.deal_no == 1 and sum(g.scores) == 1 and g.scores[g.winner] == 1
    v = g.view(None)
    assert v["is_over"] and v["winner"] == g.winner and v["phase"] == "over"


def test_G15_views_show_own_tricks_and_total_only():
    g = new(3, {1: ["AH", "KC", "QC"], 2: ["10H"], 0: ["9H"]}, "JS")
    play(g, "AH", "10H", "9H")
    v1, v2, sp = g.view(1), g.view(2), g.view(None)
    assert sorted(v1["captured"]) == ["10H", "9H", "AH"] and total(g, 1) == 21
    assert v2["captured"] == [] and [x["points"] for x in v2["seats"]] == [None, None, 0]
    assert [x["tricks"] for x in sp["seats"]] == [0, 1, 0]
    assert [x["points"] for x in sp["seats"]] == [None] * 3 and sp["hand"] == []
    assert "captured" not in sp or sp["captured"] == []
    # the last trick stays public until the next lead, then only the current trick
    assert sp["last_trick"]["winner"] == 1
    g.apply({"type": "play", "card": "KC", "meld": "QC"})
    sp = g.view(None)
    assert sp["last_trick"] is None and sp["trick"][0]["card"] == "KC"
    assert sp["marriages"] == [{"seat": 1, "suit": "C", "value": 20}]
    assert [x["points"] for x in g.view(0)["seats"]] == [0, None, None]


# --- contract: bad input, save/load ----------------------------------------------------------

def test_bad_input_raises_and_changes_nothing():
    g = new(2, {1: ["9S", "KH", "QH", "AC"], 0: ["10H", "9C"]}, "AS")
    check_bad_input(g, random.Random(0))
    play(g, "AC")
    check_bad_input(g, random.Random(1))
    for bad in ({"type": "play", "card": "10H", "meld": "9C"}, {"type": "exchange"}):
        with pytest.raises(atut.IllegalAction):
            g.apply(bad)


def test_bad_constructor_arguments():
    for kw in ({"seed": "1"}, {"seed": 1.5}, {"dealer": 2}, {"dealer": -1}, {"dealer": True},
               {"deck": "AS 10S"}, {"deck": ALL[:-1] + ["AS"]}, {"deck": ALL + ["9S"]},
               {"deck": ALL[:-1] + ["8S"]}, {"options": {"x": 1}}):
        with pytest.raises(ValueError):
            atut.new_game("sixty_six", players=2, **kw)


def test_save_load_mid_trick_and_finished():
    g = atut.new_game("sixty_six", players=3, seed=21)
    rng = random.Random(21)
    while not g.is_over:
        h = atut.load_game(g.to_json())
        assert h.view(g.to_move) == g.view(g.to_move) and h.events == g.events
        g.apply(rng.choice(g.legal_actions()))
    h = atut.load_game(g.to_json())
    assert h.is_over and h.winner == g.winner and h.scores == g.scores
    with pytest.raises(ValueError, match="malformed"):
        atut.load_game(g.to_json().replace('"type":"play"', '"type":"pass"', 1))


# --- bad input says what is wrong (the contract: "a clear error") --------------------------------

def raises(g, action, *words):
    before = snapshot(g)
    with pytest.raises(atut.IllegalAction) as e:
        g.apply(action)
    msg = str(e.value)
    for w in words:
        assert w in msg, f"{w!r} not in {msg!r}"
    assert snapshot(g) == before
    return msg


def exhausted_four():
    """4 players after trick 1 (stock gone); seat 0 leads AH next, seat 1 holds JH."""
    g = new(4, {0: ["QC", "AH", "KH", "QH", "AS"], 1: ["9C", "AC", "10C", "KC", "JH"],
                2: ["9D", "9H", "10H", "AD", "10D"], 3: ["JC", "KS", "10S", "JS", "9S"]},
            "QS", stock=["JD", "KD", "QD"])
    play(g, "9C", "9D", "JC", "QC")
    return g


def test_G8_an_illegal_follow_says_the_suit_must_be_followed():
    g = exhausted_four()
    play(g, "AH")
    raises(g, {"type": "play", "card": "AC"}, "follow", "hearts", "G8")


def test_G9_a_marriage_when_following_says_only_the_leader_declares():
    g = new(2, {1: ["AH"], 0: ["KC", "QC"]}, "AS")
    play(g, "AH")
    raises(g, {"type": "play", "card": "KC", "meld": "QC"}, "lead", "G9")


def test_G9_a_marriage_without_its_partner_or_with_a_wrong_meld_says_why():
    g = new(2, {1: ["QH", "AH", "KS", "QS"], 0: ["KH"]}, "AC")
    raises(g, {"type": "play", "card": "QH", "meld": "KH"}, "does not hold KH", "G9")
    raises(g, {"type": "play", "card": "KS", "meld": "QH"}, '"meld": "QS"', "G9")
    raises(g, {"type": "play", "card": "AH", "meld": "KH"}, "king or queen", "G9")
    raises(g, {"type": "play", "card": "KS", "meld": 1}, "meld")


def test_G10_an_illegal_exchange_says_why():
    g = new(2, {1: ["AH"], 0: ["9S", "10H"]}, "KS")
    raises(g, {"type": "exchange"}, "9S", "G10")                  # not held
    play(g, "AH")
    raises(g, {"type": "exchange"}, "lead", "G10")                # seat 0 is following
    g = new(4, {1: ["9C"], 2: ["AC", "9S"], 3: ["QC"], 0: ["KC"]}, "AS",
            stock=["JD", "KD", "QD"])
    play(g, "9C", "AC", "QC", "KC")                               # seat 2 wins, leads
    assert g.to_move == 2 and "9S" in hand(g, 2) and "AS" in hand(g, 1)
    raises(g, {"type": "exchange"}, "trump card", "drawn", "G10")


def test_contract_malformed_actions_name_the_field():
    g = new(2, {1: ["AH", "9S"]}, "KS")
    raises(g, {"type": "play"}, "'card'")
    raises(g, {"type": "play", "card": "AH", "extra": 1}, "extra")
    raises(g, {"type": "exchange", "card": "9S"}, "card")
    raises(g, {"type": "play", "card": "8H"}, "8H")
    raises(g, {"type": "play", "card": 7}, "card")


def test_G15_a_marriage_lead_shows_its_partner_in_the_trick():
    # ENGINE.md: trick items carry the optional ``meld``; G15: both cards of a marriage are public
    g = new(2, {1: ["QC", "KC", "9H"], 0: ["AH", "9D"]}, "JS", stock=["JH", "9C"])
    g.apply({"type": "play", "card": "QC", "meld": "KC"})
    for s in (None, 0, 1):
        assert g.view(s)["trick"] == [{"seat": 1, "card": "QC", "meld": "KC"}]
    play(g, "9D")
    for s in (None, 0, 1):
        lt = g.view(s)["last_trick"]
        assert lt["cards"] == [{"seat": 1, "card": "QC", "meld": "KC"}, {"seat": 0, "card": "9D"}]
    play(g, "9H")                                                 # seat 1 leads plainly
    assert g.view(0)["trick"] == [{"seat": 1, "card": "9H"}]
    play(g, "AH")
    assert "meld" not in json.dumps(g.view(None)["last_trick"])


def test_contract_events_views_and_actions_share_nothing_with_the_engine():
    # ENGINE.md: ``_legal()`` returns fresh action dicts; a caller who changes an event or a
    # search caller who changes an action of ``_legal()`` changes no other game, and whoever
    # changes a view or a listed legal action changes nothing in the game.
    g = atut.new_game("sixty_six", players=2, seed=1)
    first = g.legal_actions()
    g.apply(first[0])
    for e in g.events:
        for v in e.values():
            if isinstance(v, dict):
                v["card"] = "XX"
    for a in g._legal():
        a["card"] = "XX"
    h = atut.new_game("sixty_six", players=2, seed=1)
    assert h.legal_actions() == first
    assert "XX" not in json.dumps(h.legal_actions())
    h.apply(first[0])
    assert "XX" not in json.dumps(h.legal_actions()) and "XX" not in json.dumps(h.view(None))
    before = snapshot(h)
    v = h.view(h.to_move)
    v["hand"].append("XX")
    v["trick"][0]["card"] = "XX"
    v["seats"][0]["cards"] = 99
    v["legal_actions"][0]["card"] = "XX"
    v["log"][-1]["action"]["card"] = "XX"
    h.legal_actions()[0]["card"] = "XX"
    assert snapshot(h) == before
