"""Euchre audit: an independent reference model written from rules/001-euchre.md, checked
against the engine in seeded random games (every state: whose turn, the exact legal actions,
hands, trump, trick winners, scores, end), plus scripted tests per gap (G1-G17, E1-E10), the
contract's action vocabulary, bad input and view leaks."""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut.game import canonical

SUITS = "SCDH"
RANKS = ("A", "K", "Q", "J", "10", "9")
ALL = [r + s for s in SUITS for r in RANKS]
SAME = {"S": "C", "C": "S", "D": "H", "H": "D"}                # G4 same-colour suit


def suit(card):
    return card[-1]


def rank(card):
    return card[:-1]


def eff_suit(card, trump):
    """G5: the left bower is a trump, never a card of its printed suit."""
    if trump and rank(card) == "J" and suit(card) == SAME[trump]:
        return trump
    return suit(card)


def power(card, trump):
    """G4: trump J(T) > J(same colour) > A K Q 10 9 above every plain card; plain A..9."""
    if eff_suit(card, trump) == trump:
        if rank(card) == "J":
            return 100 if suit(card) == trump else 99
        return 90 - ("A", "K", "Q", "10", "9").index(rank(card))
    return 10 - RANKS.index(rank(card))


def ref_winner(plays, trump):
    """G13: plays = [(seat, card)] in order; the seat of the highest trump, else of the
    highest card of the led (effective) suit."""
    led = eff_suit(plays[0][1], trump)
    best = None
    for s, c in plays:
        e = eff_suit(c, trump)
        if e != trump and e != led:
            continue
        key = (e == trump, power(c, trump))
        if best is None or key > best[0]:
            best = (key, s)
    return best[1]


def ref_points(made, alone, lone_defender):
    """G14: (maker side scores?, points)."""
    if made == 5:
        return True, 4 if alone else 2
    if made >= 3:
        return True, 1
    return False, 4 if (alone and lone_defender) else 2


class Ref:
    """The rules file's procedure (section 3), deal by deal, from a deck in G3 order."""

    def __init__(self, dealer, deck, options):
        self.options = {"redeal": False, "defend_alone": True, **options}
        self.scores = [0, 0]
        self.over = False
        self.winner = None
        self.deal(dealer, deck)

    def deal(self, dealer, deck):
        self.dealer = dealer
        self.hands = {s: set() for s in range(4)}
        order = [(dealer + 1 + k) % 4 for k in range(4)]
        i = 0
        for size in (3, 2):                                   # G3
            for s in order:
                self.hands[s] |= set(deck[i:i + size])
                i += size
        self.upcard = deck[20]
        self.trump = None
        self.maker = None
        self.alone = False
        self.lone_def = None
        self.out = set()
        self.phase = "round1"
        self.turn = (dealer + 1) % 4                          # G7
        self.trick = []
        self.taken = [0, 0, 0, 0]
        self.asked_defenders = 0

    def legal(self):
        s = self.turn
        if self.phase == "round1":
            return [{"type": "order_up"}, {"type": "pass"}]
        if self.phase == "round2":                            # G8
            acts = [{"type": "name", "suit": x} for x in SUITS if x != suit(self.upcard)]
            if s != self.dealer or self.options["redeal"]:
                acts.append({"type": "pass"})
            return acts
        if self.phase == "discard":                           # G9: any of six
            return [{"type": "discard", "card": c} for c in self.hands[s]]
        if self.phase == "alone":
            return [{"type": "alone", "value": True}, {"type": "alone", "value": False}]
        if self.phase == "defend":
            return [{"type": "defend_alone", "value": True},
                    {"type": "defend_alone", "value": False}]
        hand = self.hands[s]
        if self.trick:                                        # G6
            led = eff_suit(self.trick[0][1], self.trump)
            follow = {c for c in hand if eff_suit(c, self.trump) == led}
            if follow:
                hand = follow
        return [{"type": "play", "card": c} for c in hand]

    def next_active(self, s):
        s = (s + 1) % 4
        while s in self.out:
            s = (s + 1) % 4
        return s

    def start_play(self):
        self.phase = "play"
        self.turn = self.next_active(self.dealer)             # G12

    def apply(self, a):
        s, t = self.turn, a["type"]
        if t == "pass":
            if s != self.dealer:
                self.turn = (s + 1) % 4
            elif self.phase == "round1":
                self.phase = "round2"
                self.turn = (s + 1) % 4
            else:
                return "redeal"
        elif t == "order_up":
            self.trump = suit(self.upcard)
            self.maker = s
            self.hands[self.dealer].add(self.upcard)          # G9
            self.phase = "discard"
            self.turn = self.dealer
        elif t == "discard":
            self.hands[s].remove(a["card"])
            self.phase = "alone"
            self.turn = self.maker
        elif t == "name":
            self.trump = a["suit"]
            self.maker = s
            self.phase = "alone"
        elif t == "alone":                                    # G10
            if a["value"]:
                self.alone = True
                self.out.add((s + 2) % 4)
                if self.options["defend_alone"]:
                    self.phase = "defend"
                    self.turn = (s + 1) % 4
                    return None
            self.start_play()
        elif t == "defend_alone":
            if a["value"]:
                self.lone_def = s
                self.out.add((s + 2) % 4)
                self.start_play()
            elif s == (self.maker + 1) % 4:
                self.turn = (self.maker + 3) % 4
            else:
                self.start_play()
        elif t == "play":
            self.hands[s].remove(a["card"])
            self.trick.append((s, a["card"]))
            if len(self.trick) < 4 - len(self.out):
                self.turn = self.next_active(s)
                return None
            w = ref_winner(self.trick, self.trump)
            self.taken[w] += 1
            self.trick = []
            self.turn = w
            if sum(self.taken) == 5:
                m = self.maker
                made = self.taken[m] + self.taken[(m + 2) % 4]
                makers, pts = ref_points(made, self.alone, self.lone_def is not None)
                team = m % 2 if makers else 1 - m % 2
                self.scores[team] += pts
                if self.scores[team] >= 10:                   # G15
                    self.over = True
                    self.winner = [team, team + 2]
                    return "over"
                return "next"
        return None


def key(actions):
    return sorted(canonical(a) for a in actions)


def card_strings(x, out):
    if isinstance(x, str):
        if x in ALL:
            out.add(x)
    elif isinstance(x, dict):
        for k, v in x.items():
            card_strings(k, out)
            card_strings(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            card_strings(v, out)
    return out


def last_deal_deck(g):
    return [e for e in g.events if e["type"] == "deal"][-1]["deck"]


def check_against_ref(g, ref, dealt, played, discard):
    assert g.to_move == (None if ref.over else ref.turn)
    assert g.scores == [ref.scores[0], ref.scores[1], ref.scores[0], ref.scores[1]]
    assert g.is_over == ref.over
    if ref.over:
        assert g.winner == ref.winner
        return
    assert g.dealer == ref.dealer
    assert key(g.legal_actions()) == key(ref.legal())
    for s in [None, 0, 1, 2, 3]:
        v = g.view(s)
        assert v["trump"] == ref.trump
        if s is not None:
            assert sorted(v["hand"]) == sorted(ref.hands[s])
            assert ("legal_actions" in v) == (s == ref.turn)
            assert [x["tricks"] for x in v["seats"]] == ref.taken    # G17 public
        # nothing the seat may not know (section 5 "Hidden")
        allowed = {ref.upcard} | played
        if s is not None:
            allowed |= dealt[s]
            if s == ref.dealer and discard:
                allowed |= discard
        leaked = card_strings(v, set()) - allowed
        assert not leaked, (s, leaked)
        json.dumps(v)


def play_random(seed, options, rng_seed=None, check_every=True):
    rng = random.Random(seed if rng_seed is None else rng_seed)
    g = atut.new_game("euchre", players=4, seed=seed, options=options)
    ref = Ref(g.dealer, last_deal_deck(g), options)
    deals = 1
    dealt = {s: set(ref.hands[s]) for s in range(4)}
    played, discard = set(), set()
    while True:
        if check_every:
            check_against_ref(g, ref, dealt, played, discard)
        if ref.over:
            break
        a = rng.choice(g.legal_actions())
        g.apply(a)
        if a["type"] == "play":
            played.add(a["card"])
        if a["type"] == "discard":
            discard = {a["card"]}
        r = ref.apply(a)
        if r in ("next", "redeal"):
            deals += 1
            assert g.deal_no == deals
            assert g.dealer == (ref.dealer + 1) % 4                # G2
            ref.deal(g.dealer, last_deal_deck(g))
            dealt = {s: set(ref.hands[s]) for s in range(4)}
            played, discard = set(), set()
        g.check_invariants()
    check_against_ref(g, ref, dealt, played, discard)
    return g, deals


# --- the reference model against seeded random play ---------------------------------------

@pytest.mark.parametrize("options", [{}, {"redeal": True}, {"defend_alone": False},
                                     {"redeal": True, "defend_alone": False}])
def test_G1_G17_reference_model_matches_random_games(options):
    total = 0
    for seed in range(12):
        _, deals = play_random(seed, options)
        total += deals
    assert total > 12 * 3


def test_G15_many_games_end_with_exactly_one_pair_at_ten():
    for seed in range(100, 160):
        g, _ = play_random(seed, {}, check_every=False)
        a, b = g.scores[0], g.scores[1]
        assert max(a, b) >= 10 > min(a, b)
        assert g.winner == ([0, 2] if a >= 10 else [1, 3])
        assert g.to_move is None and g.legal_actions() == []


# --- scripted hands -------------------------------------------------------------------------

def make_deck(dealer, hands, upcard, kitty=()):
    """A deck in G3 order giving ``hands`` ({seat: 5 codes}); the rest filled in order."""
    used = {upcard} | set(kitty)
    for cs in hands.values():
        used |= set(cs)
    rest = [c for c in ALL if c not in used]
    full = {}
    for k in range(4):
        s = (dealer + 1 + k) % 4
        full[s] = list(hands[s]) if s in hands else [rest.pop(0) for _ in range(5)]
    kit = list(kitty) + [rest.pop(0) for _ in range(3 - len(kitty))]
    deck = []
    for k in range(4):
        deck += full[(dealer + 1 + k) % 4][:3]
    for k in range(4):
        deck += full[(dealer + 1 + k) % 4][3:]
    return deck + [upcard] + kit


def new(dealer, hands, upcard, **options):
    return atut.new_game("euchre", seed=3, dealer=dealer,
                         deck=make_deck(dealer, hands, upcard), options=options or None)


def act(g, *actions):
    for a in actions:
        if isinstance(a, str):
            a = {"type": a} if a in ("pass", "order_up") else {"type": "play", "card": a}
        g.apply(a)


def test_G3_exact_deal_pattern_from_the_dealers_left():
    deck = list(ALL)
    g = atut.new_game("euchre", seed=0, dealer=2, deck=deck)
    # seat 3 first: d0-2 + d12-13, seat 0: d3-5 + d14-15, seat 1, then seat 2 (dealer)
    exp = {3: deck[0:3] + deck[12:14], 0: deck[3:6] + deck[14:16],
           1: deck[6:9] + deck[16:18], 2: deck[9:12] + deck[18:20]}
    for s in range(4):
        assert sorted(g.view(s)["hand"]) == sorted(exp[s])
    assert g.view(None)["upcard"] == deck[20]
    assert g.to_move == 3


def test_G8_stuck_dealer_has_exactly_three_names():
    g = new(0, {}, "10S")
    act(g, *["pass"] * 4)
    act(g, "pass", "pass", "pass")
    assert g.to_move == 0
    assert key(g.legal_actions()) == key([{"type": "name", "suit": s} for s in "CDH"])
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "pass"})
    with pytest.raises(atut.IllegalAction):
        g.apply({"type": "name", "suit": "S"})


def test_G10_dealer_alone_defenders_asked_from_makers_left_partner_never():
    g = new(0, {0: ["JH", "JD", "AH", "KH", "QH"]}, "9H")
    act(g, "order_up", )           # seat 1 orders up
    assert g.to_move == 0 and g.phase == "discard"
    g.apply({"type": "discard", "card": "9H"})
    assert g.to_move == 1                                    # the maker decides
    g.apply({"type": "alone", "value": True})
    assert g.view(None)["sitting_out"] == [3]
    assert g.to_move == 2                                    # maker's left
    g.apply({"type": "defend_alone", "value": False})
    assert g.to_move == 0                                    # then the other defender
    g.apply({"type": "defend_alone", "value": True})
    assert g.view(None)["sitting_out"] == [2, 3]
    assert g.phase == "play" and g.to_move == 1              # G12: dealer's left is active


def test_G12_first_lead_skips_two_sitting_out_seats():
    # dealer 0; seat 3 names and goes alone (seat 1 out); seat 2... is the maker's partner? no:
    # maker 3's partner is 1; defender 0 asked first, then 2 defends alone (0 sits out)
    g = new(0, {}, "9S")
    act(g, *["pass"] * 4, "pass", "pass")
    assert g.to_move == 3
    g.apply({"type": "name", "suit": "H"})
    g.apply({"type": "alone", "value": True})
    assert g.to_move == 0
    g.apply({"type": "defend_alone", "value": False})
    assert g.to_move == 2
    g.apply({"type": "defend_alone", "value": True})
    assert g.view(None)["sitting_out"] == [0, 1]
    assert g.to_move == 2                                    # 1 and 0 out: 2 leads
    # two active players: a trick has two cards
    c = g.legal_actions()[0]
    g.apply(c)
    assert g.to_move == 3
    g.apply(g.legal_actions()[0])
    assert len(g.view(None)["last_trick"]["cards"]) == 2


def test_G14_lone_maker_march_against_lone_defender_scores_four():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "QH"]}, "9H")
    act(g, "order_up")
    g.apply({"type": "discard", "card": g.legal_actions()[0]["card"]})
    g.apply({"type": "alone", "value": True})
    g.apply({"type": "defend_alone", "value": True})         # seat 2 defends alone
    while g.deal_no == 1:
        g.apply(g.legal_actions()[0])
    assert g.scores == [0, 4, 0, 4]


def test_G14_lone_maker_euchred_by_two_defenders_gives_two():
    g = new(0, {1: ["9C", "10C", "9S", "10S", "QS"],
                0: ["JH", "JD", "AH", "KH", "AC"], 2: ["AS", "KS", "KC", "QC", "JS"]}, "9H")
    act(g, "order_up")
    g.apply({"type": "discard", "card": "AC"})
    g.apply({"type": "alone", "value": True})
    g.apply({"type": "defend_alone", "value": False})
    g.apply({"type": "defend_alone", "value": False})
    while g.deal_no == 1:
        g.apply(g.legal_actions()[0])
    assert g.scores == [2, 0, 2, 0]


def test_G14_lone_maker_euchred_by_lone_defender_gives_four():
    g = new(0, {1: ["9C", "10C", "9S", "10S", "QS"],
                2: ["JH", "JD", "AH", "KH", "AC"]}, "9H")
    act(g, "order_up")
    g.apply({"type": "discard", "card": "9H"})
    g.apply({"type": "alone", "value": True})
    g.apply({"type": "defend_alone", "value": True})
    assert g.view(None)["sitting_out"] == [0, 3]
    while g.deal_no == 1:
        g.apply(g.legal_actions()[0])
    assert g.scores == [4, 0, 4, 0]


# --- contract: vocabulary and bad input -----------------------------------------------------

def _snapshot(g):
    return (g.to_json(), [json.dumps(g.view(s), sort_keys=True) for s in [None, 0, 1, 2, 3]],
            json.dumps(g.events, sort_keys=True))


BAD = [None, "pass", ["pass"], {}, {"type": "PASS"}, {"type": "pass", "extra": 1},
       {"type": "order_up", "value": True}, {"type": "name"}, {"type": "name", "suit": "h"},
       {"type": "name", "suit": 3}, {"type": "alone"}, {"type": "alone", "value": 1},
       {"type": "alone", "value": "true"}, {"type": "defend_alone", "value": None},
       {"type": "discard"}, {"type": "discard", "card": "JX"}, {"type": "discard", "card": ["AH"]},
       {"type": "play", "card": "8H"}, {"type": "play", "card": 1}, {"type": "play"},
       {"type": "play", "card": "AH", "meld": "KH"}, {"type": "give", "card": "AH", "to": 1},
       {"type": "bid", "value": 1}, {"type": "pass", 1: 2}, {"type": float("nan")}]


def test_G16_bad_input_raises_clearly_and_changes_nothing_in_every_phase():
    seen = set()
    for seed in range(8):
        rng = random.Random(seed)
        g = atut.new_game("euchre", seed=seed, options={"redeal": seed % 2 == 1})
        while g.to_move is not None and g.deal_no <= 2:
            before = _snapshot(g)
            legal = g.legal_actions()
            seen.add(g.phase)
            bad = list(BAD)
            # a legal action of another seat / another phase, and cards not held
            other = [c for c in ALL if c not in g.view(g.to_move)["hand"]]
            bad.append({"type": "play", "card": other[0]})
            bad.append({"type": "discard", "card": other[0]})
            for b in bad:
                if isinstance(b, dict) and any(b == a for a in legal):
                    continue
                with pytest.raises(atut.IllegalAction) as ei:
                    g.apply(b)
                assert str(ei.value)
                assert _snapshot(g) == before
            g.apply(rng.choice(legal))
    assert seen >= {"round1", "round2", "discard", "alone", "defend", "play"}


def test_contract_each_legal_action_once_fields_exact():
    fields = {"order_up": set(), "pass": set(), "name": {"suit"}, "discard": {"card"},
              "alone": {"value"}, "defend_alone": {"value"}, "play": {"card"}}
    for seed in range(20):
        rng = random.Random(seed)
        g = atut.new_game("euchre", seed=seed)
        while g.to_move is not None and g.deal_no <= 2:
            legal = g.legal_actions()
            ks = [canonical(a) for a in legal]
            assert len(ks) == len(set(ks))
            for a in legal:
                assert set(a) - {"type"} == fields[a["type"]]
                assert all(v is not None for v in a.values())
                if "value" in a:
                    assert type(a["value"]) is bool
            g.apply(rng.choice(legal))


def test_save_load_every_state_continues_identically():
    rng = random.Random(5)
    g = atut.new_game("euchre", seed=5, options={"redeal": True})
    steps = 0
    while g.to_move is not None and steps < 120:
        h = atut.load_game(g.to_json())
        assert h.to_json() == g.to_json()
        for s in [None, 0, 1, 2, 3]:
            assert h.view(s) == g.view(s)
        a = rng.choice(g.legal_actions())
        g.apply(a)
        h.apply(a)
        assert h.view(0) == g.view(0)
        steps += 1


def test_G17_view_after_a_deal_scores_the_result_and_tricks_are_public():
    g = new(0, {1: ["JH", "JD", "AH", "KH", "QH"]}, "9H")
    act(g, "order_up")
    g.apply({"type": "discard", "card": g.legal_actions()[0]["card"]})
    g.apply({"type": "alone", "value": False})
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    v = g.view(None)
    assert sum(x["tricks"] for x in v["seats"]) == 1
    while g.deal_no == 1:
        g.apply(g.legal_actions()[0])
    v = g.view(None)
    assert v["scores"] == [0, 2, 0, 2]
    assert v["score_sheet"]["rows"][-1][-2:] == [0, 2]


def _msg(g, action):
    before = _snapshot(g)
    with pytest.raises(atut.IllegalAction) as ei:
        g.apply(action)
    assert _snapshot(g) == before
    return str(ei.value)


def test_G6_G8_G10_illegal_actions_say_why():
    g = new(0, {1: ["AD", "KD", "QD", "JH", "9S"], 2: ["JD", "10C", "9C", "AS", "KS"]}, "9H")
    assert "unknown field" in _msg(g, {"type": "pass", "x": 1})
    assert "unknown field" in _msg(g, {"type": "order_up", "value": True})
    act(g, *["pass"] * 4)                                    # round two, upcard 9H refused
    m = _msg(g, {"type": "name", "suit": "H"})
    assert "upcard" in m and "G8" in m
    assert "suit" in _msg(g, {"type": "name", "suit": "h"})
    assert "suit" in _msg(g, {"type": "name"})
    act(g, "pass", "pass", "pass")
    m = _msg(g, {"type": "pass"})                            # the dealer is stuck
    assert "dealer" in m and "G8" in m
    g.apply({"type": "name", "suit": "D"})                   # trump diamonds, maker = dealer 0
    assert "true or false" in _msg(g, {"type": "alone", "value": 1})
    assert "true or false" in _msg(g, {"type": "alone"})
    g.apply({"type": "alone", "value": False})
    assert g.to_move == 1
    assert "not in the euchre deck" in _msg(g, {"type": "play", "card": "8H"})
    assert "does not hold" in _msg(g, {"type": "play", "card": "JD"})
    assert "unknown field" in _msg(g, {"type": "play", "card": "9S", "meld": "AS"})
    g.apply({"type": "play", "card": "9S"})                  # spades led
    m = _msg(g, {"type": "play", "card": "JD"})              # seat 2 holds AS, KS
    assert "must follow" in m and "G6" in m
    g.apply({"type": "play", "card": "KS"})
    hand3 = g.view(3)["hand"]
    if any(c[-1] == "S" for c in hand3):
        off = [c for c in hand3 if c[-1] != "S"]
        assert "must follow" in _msg(g, {"type": "play", "card": off[0]})


# --- the search path (_moves/_do) agrees with the public one ---------------------------------

def test_fast_path_agrees_with_legal_and_apply_in_every_state():
    for seed in range(40):
        opts = {"redeal": seed % 3 == 0, "defend_alone": seed % 4 != 1}
        g = atut.new_game("euchre", seed=seed, options=opts)
        f = g.clone()
        rng = random.Random(seed)
        while g.to_move is not None:
            legal = g._legal()
            moves = f._moves()
            assert len(moves) == len(set(moves)) == len(legal)
            assert legal == g.legal_actions()
            k = rng.randrange(len(legal))
            g.apply(legal[k])
            f._do(moves[k])
            for name in ("phase", "to_move", "hands", "trump", "maker", "alone", "lone_defender",
                         "out", "calls", "trick", "tricks_won", "scores", "dealer", "deal_no",
                         "upcard", "up_state", "discarded", "sheet", "last_trick", "winner",
                         "leader", "played", "kitty"):
                assert getattr(f, name) == getattr(g, name), name
            assert f.view(g.to_move if g.to_move is not None else 0)["hand"] == \
                g.view(g.to_move if g.to_move is not None else 0)["hand"]


def test_G2_fast_shuffle_is_random_shuffle_step_for_step():
    from atut.games.euchre import DECK, Euchre
    for seed in range(300):
        g = Euchre(seed=seed)
        r = random.Random()
        r.setstate(g.rng.getstate())
        for _ in range(3):
            d = list(DECK)
            r.shuffle(d)
            assert g.shuffled() == d
            assert g.rng.getstate() == r.getstate()


def test_E7_engine_scoring_function_matches_the_table():
    from atut.games.euchre import deal_points
    for made in range(6):
        for alone in (False, True):
            for lone_def in ((False, True) if alone else (False,)):
                makers, pts = ref_points(made, alone, lone_def)
                assert deal_points(made, alone, lone_def) == (0 if makers else 1, pts)
