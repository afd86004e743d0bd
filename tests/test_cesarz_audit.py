"""cesarz: an independent rules audit (second pair of eyes) against rules/000-cesarz.md.

The first part is a small reference model written from the rules file alone (codes and sets, no
engine internals): random games are played through the public API and, at every decision, the
engine's legal actions, whose turn it is, each trick's winner, the trump, the points and the
scores must agree with the model.  The second part pins single rules (named after the G/E
numbers) with tiny scripted hands.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

import atut
from atut.games.cesarz import arrange_deck
from helpers import play

# --- the reference model (from the rules file only) -----------------------------------------------

RANKS = ["A", "10", "K", "Q", "PR", "J", "YP", "9"]              # §2, high to low
POINTS = {"A": 12, "10": 10, "K": 7, "Q": 6, "PR": 4, "J": 3, "YP": 2, "9": 1}   # §1
MELD1 = {"S": 40, "C": 60, "D": 80, "H": 100}                   # §7.1.3
JOKERS = ("RED_JOKER", "BLACK_JOKER", "BLUE_JOKER")
SPECIAL = ("EMPEROR",) + JOKERS
ALL = [r + s for s in "SCDH" for r in RANKS] + list(SPECIAL)


def suit(c):
    return None if c in SPECIAL else c[-1]


def rank(c):
    return c[:-1]


def power(c):
    return len(RANKS) - RANKS.index(rank(c))


def points(c):
    return 0 if c in SPECIAL else POINTS[rank(c)]


def meld(a, b):
    """§7: the value of the pair (a, b), 0 if it is none (E2)."""
    if a in SPECIAL or b in SPECIAL:
        return 0
    if {rank(a), rank(b)} == {"K", "Q"} and suit(a) == suit(b):
        return MELD1[suit(a)]
    if {rank(a), rank(b)} == {"PR", "YP"} and suit(a) != suit(b):
        return MELD1[suit(a)] // 4 + MELD1[suit(b)] // 4
    return 0


def credit(musik):
    """§5.2, G10: brute force over every set of disjoint pairs."""
    base = sum(50 if rank(c) == "A" else 60 if c in JOKERS else 100 if c == "EMPEROR" else 0
               for c in musik if c in SPECIAL or rank(c) == "A")

    def best(cards):
        if len(cards) < 2:
            return 0
        first, rest = cards[0], cards[1:]
        top = best(rest)
        for i, b in enumerate(rest):
            v = meld(first, b)
            if v:
                top = max(top, v + best(rest[:i] + rest[i + 1:]))
        return top
    return base + best(list(musik))


class Ref:
    """One deal of cesarz as the rules file describes it."""

    def __init__(self, n, dealer, deck, scores):
        self.n, self.dealer = n, dealer
        self.scores = list(scores)
        self.out = dealer if n >= 4 else None                     # §3.2, G1
        self.active = [s for s in range(n) if s != self.out]
        p = len(self.active)
        h, w = 36 // p - 1, 36 % p                                # G2
        r1 = dealer if self.out is None else (dealer - 1) % n     # G3
        order = []
        s = r1
        while len(order) < p:
            if s != self.out:
                order.append(s)
            s = (s - 1) % n
        self.hands = {s: set() for s in range(n)}
        self.musik = []
        it = iter(deck)
        for k in range(h):
            for s in order:
                self.hands[s].add(next(it))
            if k < p:
                self.musik.append(next(it))
            if k < w:
                next(it)
        self.opener = dealer if self.out is None else (dealer + 1) % n   # §4.3
        self.high, self.high_bidder = 100, self.opener             # G7
        self.passed = set()
        self.phase = "bid"
        self.to_move = self.nxt(self.opener)
        self.trump = None
        self.pts = [0] * n
        self.melds = [0] * n
        self.declarer = None

    def nxt(self, s):
        s = (s + 1) % self.n
        while s == self.out:
            s = (s + 1) % self.n
        return s

    # -- decisions --

    def legal(self):
        if self.phase == "bid":                                   # G8
            out = [{"type": "bid", "value": self.high + 10}] if self.high + 10 <= 820 else []
            return out + [{"type": "pass"}]
        if self.phase == "give":                                  # G11
            return [{"type": "give", "card": c, "to": self.give_to[0]}
                    for c in self.hands[self.to_move]]
        hand = self.hands[self.to_move]
        suited = [c for c in hand if c not in SPECIAL]
        if self.emperor or self.led is None or self.released:
            playable = suited
        else:
            playable = [c for c in suited if suit(c) == self.led] or suited   # §6.3
        out = []
        for c in playable:
            out.append({"type": "play", "card": c})
            if not self.emperor and (not self.trick or self.beats(c)):      # G17
                out += [{"type": "play", "card": c, "meld": p} for p in hand if meld(c, p)]
        for j in [x for x in hand if x in JOKERS]:                # G12, G13
            if suited:
                out += [{"type": "play", "card": j, "companion": k} for k in suited]
            else:
                out.append({"type": "play", "card": j})
        if "EMPEROR" in hand:                                     # G14
            if suited:
                for k in suited:
                    out.append({"type": "play", "card": "EMPEROR", "companion": k})
                    out += [{"type": "play", "card": "EMPEROR", "companion": k, "meld": p}
                            for p in hand if meld(k, p)]
            else:
                out.append({"type": "play", "card": "EMPEROR"})
        return out

    def key(self, card, counts, led):
        if counts is None:
            return None
        if counts == self.trump:
            return (2, power(card))
        if counts == led:
            return (1, power(card))
        return None

    def beats(self, c):
        led = self.led if self.led is not None else suit(c)
        mine = self.key(c, suit(c), led)
        if mine is None:
            return False
        return all(self.key(x, cs, led) is None or self.key(x, cs, led) < mine
                   for _, x, cs in self.entries())

    def entries(self):
        """(seat, the card that counts, counted suit) of the trick in play order."""
        return [(s, k if k else c, cs) for s, c, k, cs in self.trick]

    def winner(self):                                             # G20
        led = next((cs for _, _, cs in self.entries() if cs is not None), None)
        best, best_key = 0, None
        for i, (_, c, cs) in enumerate(self.entries()):
            k = self.key(c, cs, led)
            if k is not None and (best_key is None or k > best_key):
                best, best_key = i, k
        return self.trick[best][0]

    # -- carrying out --

    def apply(self, a):
        seat = self.to_move
        if a["type"] == "bid":
            self.high, self.high_bidder = a["value"], seat
            self.to_move = self.next_bidder(seat)
        elif a["type"] == "pass":
            self.passed.add(seat)
            left = [s for s in self.active if s not in self.passed]
            if len(left) == 1:
                self.declarer, self.contract = left[0], self.high
                if self.out is not None:
                    self.scores[self.out] += credit(self.musik)   # §5.2
                self.hands[self.declarer] |= set(self.musik)
                self.give_to = []
                s = self.nxt(self.declarer)
                while s != self.declarer:
                    self.give_to.append(s)
                    s = self.nxt(s)
                self.phase = "give"
                self.to_move = self.declarer                      # §5.3
            else:
                self.to_move = self.next_bidder(seat)
        elif a["type"] == "give":
            self.hands[seat].remove(a["card"])
            self.hands[a["to"]].add(a["card"])
            self.give_to.pop(0)
            if not self.give_to:
                self.phase = "play"
                self.start(self.declarer)
        else:
            self.play(seat, a)

    def next_bidder(self, s):
        s = self.nxt(s)
        while s in self.passed:
            s = self.nxt(s)
        return s

    def start(self, leader):                                      # G15
        s = leader
        for _ in range(self.n):
            if self.hands[s]:
                break
            s = (s + 1) % self.n
        else:
            self.end()
            return
        self.order = [s]
        while len(self.order) < len(self.active):
            self.order.append(self.nxt(self.order[-1]))
        self.pos = 0
        self.trick = []
        self.led = None
        self.released = False
        self.emperor = False
        self.to_move = s

    def play(self, seat, a):
        c, k = a["card"], a.get("companion")
        self.hands[seat].discard(c)
        self.hands[seat].discard(k)
        if c == "EMPEROR":                                        # G14
            if self.trick:
                w = self.winner()
                self.take(w)
            self.trick = [(seat, c, k, None)]
            self.emperor = True
            self.led = None
            self.released = False
            if "meld" in a:
                self.declare(seat, k, a["meld"])
        elif c in JOKERS:                                         # G13
            if self.emperor:
                cs = None
            else:
                if k and self.led is None:
                    self.led = suit(k)
                cs = self.led if k else None
            self.trick.append((seat, c, k, cs))
        else:
            if not self.emperor:
                if self.led is None:
                    self.led = suit(c)
                elif suit(c) == self.trump and self.led != self.trump:   # G18
                    self.released = True
            self.trick.append((seat, c, None, suit(c)))
            if "meld" in a:
                self.declare(seat, c, a["meld"])
        self.pos += 1
        while self.pos < len(self.order) and not self.hands[self.order[self.pos]]:
            self.pos += 1
        if self.pos < len(self.order):
            self.to_move = self.order[self.pos]
        else:
            w = self.trick[0][0] if self.emperor else self.winner()
            self.take(w)
            self.last_winner = w
            self.start(w)

    def declare(self, seat, c, p):                                # §7, G16, G17
        self.melds[seat] += meld(c, p)
        if {rank(c), rank(p)} == {"K", "Q"}:
            self.trump = suit(c)

    def take(self, w):                                            # G21
        for _, c, k, _ in self.trick:
            self.pts[w] += points(c) + (points(k) if k else 0)
        self.trick = []

    def end(self):                                                # G22, G23
        self.phase = "done"
        self.to_move = None
        for s in self.active:
            got = self.pts[s] + self.melds[s]
            if s == self.declarer and got < self.contract:
                self.scores[s] -= self.contract - got
            else:
                self.scores[s] += got


def canon(actions):
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


def hoarding_deck(n, seed):
    """A first deal that gives every special card to one seat, to reach the rare paths: bare
    jokers and emperors (G13, G15), uneven hands, skipped players and a passed-on lead."""
    rng = random.Random(seed)
    dealer = rng.randrange(n)
    hoarder = (dealer + 1) % n
    deck = arrange_deck(n, dealer, {hoarder: list(SPECIAL)})
    rest = [c for c in deck if c not in SPECIAL]                  # arrange_deck fills in order:
    rng.shuffle(rest)                                             # shuffle the suited cards
    it = iter(rest)
    return dealer, [c if c in SPECIAL else next(it) for c in deck]


def choose(rng, legal, hoard):
    """Random play; a hoarding policy mostly keeps the special cards to the end of the hand."""
    if hoard and rng.random() < 0.85:
        plain = [a for a in legal if a.get("card") not in SPECIAL]
        if plain:
            return rng.choice(plain)
    return rng.choice(legal)


def check_against_reference(n, seed, deals=2, hoard=False):
    if hoard:
        dealer, deck = hoarding_deck(n, seed)
        g = atut.new_game("cesarz", players=n, seed=seed, dealer=dealer, deck=deck)
    else:
        g = atut.new_game("cesarz", players=n, seed=seed)
    rng = random.Random(seed * 7 + n)
    steps = 0
    while not g.is_over and g.deal_no <= deals:
        deal_no = g.deal_no
        deck = [e for e in g.events if e["type"] == "deal"][-1]["deck"]
        ref = Ref(n, g.dealer, deck, g.scores)
        for s in range(n):
            assert sorted(g.view(s)["hand"]) == sorted(ref.hands[s]), "G3 deal"
        while g.deal_no == deal_no and not g.is_over:
            legal = g.legal_actions()
            assert g.to_move == ref.to_move, (n, seed, steps)
            assert len(canon(legal)) == len(set(canon(legal))), "an action listed twice"
            assert canon(legal) == canon(ref.legal()), (n, seed, steps, g.view(g.to_move))
            a = choose(rng, legal, hoard)
            g.apply(a)
            ref.apply(a)
            steps += 1
            if g.deal_no == deal_no and not g.is_over:
                assert g.view(None)["trump"] == ref.trump, "G16 trump"
                assert g.view(None)["deal_points"]["cards"] == ref.pts, "G21 points"
                assert g.view(None)["deal_points"]["melds"] == ref.melds
                if ref.phase != "bid":
                    assert g.scores == ref.scores, "G10 musik credit"
        assert ref.phase == "done"
        assert g.scores == ref.scores, "G22/G23 scoring"
        top = max(ref.scores)                                     # G24
        over = top >= 2000 and ref.scores.count(top) == 1
        assert g.is_over == over and g.winner == (ref.scores.index(top) if over else None)
        if not over:
            assert g.dealer == (ref.dealer + 1) % n and g.phase == "bid"      # G6
    return steps


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_G3_G27_engine_agrees_with_a_reference_model_in_random_play(n):
    """Every legal-action list, turn, trick winner, trump, deal points and score of many seeded
    games agrees with the reference model written from the rules file."""
    steps = sum(check_against_reference(n, seed) for seed in range(60))
    assert steps > 60 * 30


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_G24_reference_model_through_whole_games(n):
    """Whole games to 2000: every deal's scores, the dealer's rotation and the end (G24)."""
    for seed in (100, 101):
        check_against_reference(n, seed, deals=10_000)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_G13_G15_reference_model_with_hoarded_specials(n):
    """The same comparison when one seat holds every special card and keeps them to the end:
    bare jokers, a bare emperor, bare-joker leads, uneven hands, skipped seats."""
    steps = sum(check_against_reference(n, seed, deals=1, hoard=True) for seed in range(80))
    assert steps > 80 * 20


def test_G10_reference_credit_matches_E6():
    assert credit(["AS", "RED_JOKER", "EMPEROR"]) == 210
    assert credit(["KC", "QC", "9H"]) == 60
    assert credit(["PRD", "YPS", "AH"]) == 80
    assert credit(["PRD", "YPS", "YPH"]) == 45
    assert credit(["KH", "QH", "PRC", "YPD"]) == 135


def test_G10_musik_credit_every_four_card_musik_of_special_ranks():
    """The engine's credit equals the brute-force best for every 4-card musik drawn from the
    cards that can score (aces, kings, queens, princes, princesses, specials)."""
    from atut import cards as C
    from atut.games.cesarz import musik_credit
    pool = [c for c in ALL if c in SPECIAL or rank(c) in ("A", "K", "Q", "PR", "YP")]
    rng = random.Random(5)
    for combo in itertools.islice(itertools.combinations(pool, 4), 0, None, 97):
        assert musik_credit([C.CARD[c] for c in combo])[0] == credit(combo), combo
    for _ in range(300):
        combo = rng.sample(pool, 4)
        assert musik_credit([C.CARD[c] for c in combo])[0] == credit(combo), combo


# --- single rules, scripted -----------------------------------------------------------------------

def new(n, dealer, hands, musik=(), seed=1):
    return atut.new_game("cesarz", players=n, seed=seed, dealer=dealer,
                         deck=arrange_deck(n, dealer, hands, musik))


def to_play(game, gives):
    """Everybody passes (the opener declares 100, G7); the declarer gives ``gives``."""
    while game.phase == "bid":
        game.apply({"type": "pass"})
    for c in gives:
        game.apply({"type": "give", "card": c, "to": game.legal_actions()[0]["to"]})
    assert game.phase == "play"
    return game


def snapshot(g):
    return (g.to_json(), json.dumps(g.events), json.dumps([g.view(s) for s in [None, *range(g.n)]]),
            g.to_move, g.phase)


def test_G27_a_view_cannot_change_the_game_record():
    """A view is the seat's own copy: changing it (the page or a bot might) leaves the game,
    its events and later views as they were."""
    g = atut.new_game("cesarz", players=3, seed=1)
    rng = random.Random(1)
    while g.deal_no < 2:
        g.apply(rng.choice(g.legal_actions()))
    before = snapshot(g)
    v = g.view(0)
    assert v["previous_deal"] is not None
    for x in v["previous_deal"].values():
        if isinstance(x, list):
            x.append(12345)
    for x in v.values():
        if isinstance(x, list):
            x.append(12345)
        if isinstance(x, dict):
            for y in x.values():
                if isinstance(y, list):
                    y.append(12345)
    assert snapshot(g) == before


JK = list(JOKERS)


def test_G13_G14_a_joker_in_an_emperor_trick_counts_as_no_suit():
    """G13: the companion counts as the obligatory suit; an emperor trick has none (6.4), so a
    joker played into it shows no ``counts_as`` (it cannot change who wins)."""
    g = to_play(new(3, 0, {0: ["EMPEROR", "AD"], 1: ["RED_JOKER", "KS"], 2: ["QD"]},
                    musik=["9H", "9C", "JH"]), gives=["9H", "9C"])
    play(g, "EMPEROR", companion="AD")
    play(g, "RED_JOKER", companion="KS")
    assert g.view(None)["trick"][1] == {"seat": 1, "card": "RED_JOKER", "companion": "KS"}
    play(g, "QD")
    assert [e for e in g.events if e["type"] == "trick"][-1]["winner"] == 0


def test_G17_a_reused_prince_may_itself_be_played_into_a_new_meld():
    """G17 'one meld per played card': a prince shown in one meld stays in hand and may meld
    again with another princess, whichever card of the new pair is played (seed 7.2.2: a
    player holding such a pair may meld it).  Resolved here (docs/rules/cesarz.md)."""
    g = to_play(new(3, 0, {0: ["PRS", "YPH", "YPD"],
                           1: ["9S", "JS", "10S", "AC", "10C", "KC", "QC", "JC", "YPC", "9C",
                               "PRC"],
                           2: ["AS", "KS", "QS", "AD", "10D", "KD", "QD", "JD", "9D", "PRD",
                               "YPS"]}, musik=JK), gives=JK[:2])
    play(g, "YPH", meld="PRS")                                    # +35 on the lead
    play(g, "9C")
    play(g, "9D")                                                 # nobody else has hearts
    assert g.to_move == 0 and g.meld_points[0] == 35
    assert {"type": "play", "card": "PRS", "meld": "YPD"} in g.legal_actions()
    assert {"type": "play", "card": "YPD", "meld": "PRS"} in g.legal_actions()
    play(g, "PRS", meld="YPD")                                    # the shown prince, +30
    assert g.meld_points[0] == 65 and g.trump == -1               # G16: 2nd kind, no trump


def raises(g, action, pattern):
    before = snapshot(g)
    with pytest.raises(atut.IllegalAction, match=pattern):
        g.apply(action)
    assert snapshot(g) == before, action


def test_G8_G11_illegal_bids_and_gives_say_why():
    g = atut.new_game("cesarz", players=4, seed=1, dealer=0)          # E4: seat 1 opened 100
    raises(g, {"type": "bid", "value": 130}, r": G8: the only bid now is 110")
    raises(g, {"type": "bid", "value": 100}, r": G8: the only bid now is 110")
    raises(g, {"type": "bid", "value": "110"}, r"whole number")
    raises(g, {"type": "bid", "value": 110.0}, r"whole number")
    raises(g, {"type": "bid"}, r"missing field 'value' \(a whole number")
    raises(g, {"type": "pass", "value": 0}, r"no other field")
    raises(g, {"type": "give", "card": "AH", "to": 1}, r"may only bid / pass")
    g.high = 820 - 10                                              # drive the state
    g._cache = None
    g.apply({"type": "bid", "value": 820})
    raises(g, {"type": "bid", "value": 830}, r": G8: 820 is the highest bid allowed")
    g = atut.new_game("cesarz", players=5, seed=3, dealer=1)          # active 2, 3, 4, 0
    for a in ({"type": "pass"}, {"type": "bid", "value": 110}, {"type": "pass"}, {"type": "pass"}):
        g.apply(a)
    assert g.phase == "give" and g.to_move == 4
    card = g.view(4)["hand"][0]
    raises(g, {"type": "give", "card": card, "to": 2}, r": G11: the card now goes to seat 0")
    raises(g, {"type": "give", "card": card, "to": 1}, r": G11: the card now goes to seat 0")
    raises(g, {"type": "give", "card": card, "to": "0"},
           r"'to' must be a seat number \(int\), not '0'")
    raises(g, {"type": "give", "card": card}, r"missing field 'to' \(a seat number")
    raises(g, {"type": "give", "card": "XX", "to": 0}, r"not a card")
    other = next(c for c in ALL if c not in g.view(4)["hand"])
    raises(g, {"type": "give", "card": other, "to": 0}, f"does not hold {other}")


def test_G12_G13_G14_G17_illegal_plays_say_why():
    g = to_play(new(3, 0, {0: ["AH", "KS", "QS", "9C"],
                           1: ["9H", "KH", "QH", "AS", "RED_JOKER", "EMPEROR", "PRC", "YPD"],
                           2: ["10H", "QC"]},
                    musik=["9D", "JD", "YPS"]), gives=["9D", "JD"])
    raises(g, {"type": "play", "card": "AH", "meld": "KS"}, r": G17: AH and KS are no meld")
    raises(g, {"type": "play", "card": "AH", "companion": "KS"},
           r": G13: only a joker or the emperor")
    raises(g, {"type": "play", "card": "KS", "meld": "QH"}, r": G17: KS and QH are no meld")
    raises(g, {"type": "play", "card": "KS", "meld": "JS"}, r": G17: KS and JS are no meld")
    play(g, "AH")
    raises(g, {"type": "play", "card": "AS"}, r": G13: seat 1 must follow suit: .*hearts")
    raises(g, {"type": "play", "card": "RED_JOKER"}, r": G13: RED_JOKER is played with a companion")
    raises(g, {"type": "play", "card": "RED_JOKER", "companion": "EMPEROR"},
           r": G13: the companion must be a suited card")
    raises(g, {"type": "play", "card": "RED_JOKER", "companion": "QC"}, r"does not hold QC")
    raises(g, {"type": "play", "card": "RED_JOKER", "companion": "AS", "meld": "KH"},
           r": G13: a joker's companion cannot .*meld")
    raises(g, {"type": "play", "card": "KH", "meld": "QH"}, r": G17: KH does not beat")
    raises(g, {"type": "play", "card": "EMPEROR"}, r": G14: EMPEROR is played with a companion")
    raises(g, {"type": "play", "card": "EMPEROR", "companion": "AS", "meld": "KH"},
           r": G17: AS and KH are no meld")
    raises(g, {"type": "play", "card": "9H", "meld": "KH"}, r": G17: 9H and KH are no meld")
    raises(g, {"type": "play", "card": "9H", "companion": None}, r"'companion' is not a card code")
    raises(g, {"type": "play", "card": "9H", "companion": "KH"},
           r": G13: only a joker or the emperor")
    play(g, "EMPEROR", companion="PRC", meld="YPD")              # the added card may meld
    raises(g, {"type": "play", "card": "QC", "meld": "KC"}, r": G17: seat 2 does not hold KC")
    assert g.to_move == 2
    g.hands[2] |= 1 << atut.cards.CARD["KC"]                      # drive the state: a pair
    g._cache = None
    raises(g, {"type": "play", "card": "QC", "meld": "KC"}, r": G14: .*emperor trick")


WEIRD = [None, True, 0, 1, -1, 110, 110.0, "110", "", "X", "AH", "EMPEROR", "RED_JOKER", [],
         {}, ["AH"], {"card": "AH"}, 10 ** 30]


def test_bad_input_fuzz_always_a_clear_illegal_action_and_nothing_changes():
    """Mutated actions (wrong types, wrong cards, missing or extra fields, wrong recipients) in
    every phase raise IllegalAction with a message, unless equal to a legal action, and leave
    the game exactly as it was."""
    rng = random.Random(3)
    tried = 0
    for n in (3, 4):
        for seed in range(4):
            g = atut.new_game("cesarz", players=n, seed=seed)
            while not g.is_over and g.deal_no <= 1:
                legal = g.legal_actions()
                before = snapshot(g)
                for _ in range(12):
                    bad = dict(rng.choice(legal))
                    k = rng.choice(["type", "card", "value", "to", "companion", "meld", "extra"])
                    if rng.random() < 0.2 and k in bad:
                        del bad[k]
                    else:
                        bad[k] = rng.choice(WEIRD + ["play", "bid", "give", "pass"]
                                            if k == "type" else WEIRD + ALL)
                    if any(a == bad and all(type(a[x]) is type(bad[x]) for x in a)
                           for a in legal):
                        continue                                  # it happens to be legal
                    with pytest.raises(atut.IllegalAction) as e:
                        g.apply(bad)
                    assert "illegal" in str(e.value) or "game is over" in str(e.value)
                    tried += 1
                assert snapshot(g) == before
                g.apply(rng.choice(legal))
    assert tried > 1000


def events_of(g, t):
    return [e for e in g.events if e["type"] == t]


def test_G14_G16_the_emperors_added_king_melds_and_sets_the_trump():
    g = to_play(new(3, 0, {0: ["EMPEROR", "KH", "QH", "9S"], 1: ["AH", "9C", "10S"],
                           2: ["10H", "AC"]}, musik=JK), gives=JK[:2])
    play(g, "EMPEROR", companion="KH", meld="QH")                 # nothing to beat: allowed
    assert g.view(None)["trump"] == "H" and g.meld_points[0] == 100
    assert {"type": "play", "card": "9C"} in g.legal_actions()    # holds AH: no duty (6.4)
    play(g, "9C")
    play(g, "AC")
    t = events_of(g, "trick")[-1]
    assert t["winner"] == 0 and sorted(t["cards"]) == ["9C", "AC", "EMPEROR", "KH"]
    assert g.card_points[0] == 7 + 1 + 12 and g.to_move == 0      # E19: he leads again
    play(g, "9S")
    assert {a["card"] for a in g.legal_actions() if "companion" not in a} == {"10S"}


def test_G17_G18_a_higher_trump_beats_and_melds_in_a_released_trick():
    g = to_play(new(3, 0, {0: ["9S", "AS"], 1: ["9H", "AC"], 2: ["KH", "QH", "10S"]},
                    musik=JK), gives=JK[:2])
    g.trump = 3                                                   # hearts, as after a meld
    g._cache = None
    play(g, "9S")
    play(g, "9H")                                                 # no spades: a trump
    assert g.released
    legal = g.legal_actions()
    assert {"type": "play", "card": "KH", "meld": "QH"} in legal  # beats 9H (G17 b)
    assert {"type": "play", "card": "QH", "meld": "KH"} in legal
    play(g, "KH", meld="QH")
    assert g.meld_points[2] == 100 and events_of(g, "trick")[-1]["winner"] == 2


def test_G13_G20_a_companion_on_a_trump_lead_is_a_trump():
    g = to_play(new(3, 0, {0: ["9D", "AH"], 1: ["BLUE_JOKER", "AS", "KD"], 2: ["10D", "9H"]},
                    musik=["9C", "JC", "YPC"]), gives=["9C", "JC"])
    g.trump = 2                                                   # diamonds
    g._cache = None
    play(g, "9D")
    play(g, "BLUE_JOKER", companion="AS")                         # counts as AD, a trump
    assert g.view(None)["trick"][1]["counts_as"] == "D"
    play(g, "10D")
    assert events_of(g, "trick")[-1]["winner"] == 1


def test_G11_two_players_the_declarer_gives_one_card():
    g = atut.new_game("cesarz", players=2, seed=4, dealer=1)
    assert g.to_move == 0                                         # dealer 1 opened
    g.apply({"type": "bid", "value": 110})
    g.apply({"type": "pass"})
    assert g.declarer == 0 and g.phase == "give"
    assert {a["to"] for a in g.legal_actions()} == {1} and len(g.legal_actions()) == 19
    g.apply(g.legal_actions()[0])
    assert g.phase == "play" and [s["cards"] for s in g.view(None)["seats"]] == [18, 18]
