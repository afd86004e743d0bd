"""Cesarz: the house Tysiąc with an emperor, three jokers, princes and young princesses,
for 2 to 5 players (with 4 or 5 the dealer sits out), game to 2000.

Rules: ``docs/rules/cesarz.md`` (this project's notes, which carry every rule id G1..G27 and
worked example E1..E20).  An illegal action's message names the rule that forbids it
(``G13: seat 1 must follow suit: it holds hearts``); each action type's rule is stated once, in
``_bid_rule``, ``_give_rule``, ``_playable``, ``_companions`` and ``_meld_rule``, and both the
legal actions and the explanation come from it.

Phases: ``bid`` (the opener's 100 is automatic; then pass or exactly +10), ``give`` (the
declarer, holding the revealed musik, gives one card to each other active player, clockwise
from his left), ``play`` (tricks; jokers and the emperor are played with a ``companion``;
melds with ``meld``) and ``over``.  Dealing, revealing the musik, the sitting-out dealer's
credit, scoring and the next deal happen inside ``apply``.
"""

from __future__ import annotations

from .. import cards as C
from ..game import Game, score_line
from . import GameSpec

RANKS = ("A", "10", "K", "Q", "PR", "J", "YP", "9")          # §2, high to low
POINTS = {"A": 12, "10": 10, "K": 7, "Q": 6, "PR": 4, "J": 3, "YP": 2, "9": 1}   # §1
DECK = C.deck(RANKS, C.SPECIALS)                               # 36 cards
POWER = [0] * 48
VALUE = [0] * 48                                               # jokers, emperor: 0
for _c in C.deck(RANKS):
    _r = C.CODES[_c][:-1]
    POWER[_c] = len(RANKS) - RANKS.index(_r)
    VALUE[_c] = POINTS[_r]
EMPEROR = C.EMPEROR
JOKERS = (C.RED_JOKER, C.BLACK_JOKER, C.BLUE_JOKER)
JOKER_MASK = C.mask_of(JOKERS)
SUITED_MASK = C.mask_of(C.deck(RANKS))
DECK_MASK = C.mask_of(DECK)
MELD1 = (40, 60, 80, 100)                                      # §7.1.3: S C D H
QUARTER = (10, 15, 20, 25)                                     # §7.2.3
TARGET = 2000                                                  # §9
OPENING = 100                                                  # G7
STEP = 10                                                      # G8
MAX_BID = 820                                                  # G8: engine safety cap
NO = -1                                                        # no suit / no card
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")
# card points of the 11-bit suit slice of a mask, for fast totals: mask_points(m)
_SLICE = [sum(VALUE[r] for r in range(11) if i >> r & 1) for i in range(2048)]


def mask_points(m: int) -> int:
    return (_SLICE[m & 2047] + _SLICE[m >> 11 & 2047] + _SLICE[m >> 22 & 2047]
            + _SLICE[m >> 33 & 2047])


K_, Q_, PR_, YP_ = C.KING, C.QUEEN, C.PRINCE, C.YOUNG_PRINCESS
PR_MASK = C.mask_of(C.make(PR_, s) for s in range(4))
YP_MASK = C.mask_of(C.make(YP_, s) for s in range(4))
KINGS_MASK = C.mask_of(C.make(K_, s) for s in range(4))
assert Q_ == K_ + 1 and YP_ == PR_ + 1                 # a pair's second card is the next bit
SPECIAL_MASK = C.mask_of((EMPEROR,) + JOKERS)

# The fields of each action type: required, optional, and how a message names them.
FIELDS = {"bid": (("value",), ()), "pass": ((), ()), "give": (("card", "to"), ()),
          "play": (("card",), ("companion", "meld"))}
HAS = {"bid": "only the field value", "pass": "no other field",
       "give": "only the fields card and to", "play": "only the fields card, companion and meld"}
INT_FIELDS = {"value": "a whole number (int)", "to": "a seat number (int)"}
PHASE_ACTIONS = {"bid": ("bid", "pass"), "give": ("give",), "play": ("play",)}

# Why a rule refuses an action: the rule id (docs/rules/cesarz.md), then the reason.  The rule
# functions return these templates; only a refusal fills them in (``str.format``).
BID_ONLY = "G8: the only bid now is {bid}, exactly 10 more than {high}"
BID_CAP = "G8: {high} is the highest bid allowed (bids stop at 820); seat {seat} may only pass"
GIVE_TO = ("G11: the card now goes to seat {to} (one card to each other active player, "
           "clockwise from the declarer's left)")
FOLLOW = "G13: seat {seat} must follow suit: it holds {led} (§6.3)"
NO_COMPANION = "G13: only a joker or the emperor takes a companion, not {card}"
NEEDS_COMPANION = "{rule}: {card} is played with a companion: add one suited card of the hand"
COMPANION_SUITED = "{rule}: the companion must be a suited card, not {companion}"
JOKER_MELD = "G13: a joker's companion cannot declare a meld"
EMPEROR_MELD = "G14: the emperor's meld goes with its added card, and seat {seat} has none"
NO_MELD = ("G17: {card} and {meld} are no meld (a king and a queen of one suit, or a prince and "
           "a young princess of different suits)")
MELD_NOT_HELD = "G17: seat {seat} does not hold {meld}: the meld's other card stays in the hand"
MELD_EMPEROR_TRICK = "G14: only the emperor's player melds in an emperor trick"
MELD_NOT_BEATING = ("G17: {card} does not beat the trick as it stands: a meld is declared only "
                    "when leading or beating the cards played")
NOT_HELD = "seat {seat} does not hold {card}"


def _shape_fault(t, action):
    """What is wrong with the fields of an action of type ``t`` (not the rules), or ``""``."""
    need, optional = FIELDS[t]
    extra = [k for k in action if k != "type" and k not in need and k not in optional]
    if extra:
        return f"unexpected field {', '.join(repr(k) for k in extra)} (a {t} has {HAS[t]})"
    for k in need:
        if k not in action:
            return f"missing field {k!r} ({INT_FIELDS.get(k, 'a card code')})"
    for k in need + optional:
        if k not in action:
            continue
        x = action[k]
        if k in INT_FIELDS:
            if type(x) is not int:
                return f"{k!r} must be {INT_FIELDS[k]}, not {x!r}"
        elif type(x) is not str or x not in C.CARD:
            return f"{k!r} is not a card code: {x!r}"
    return ""


def meld_partners(c: int, hand: int) -> list[int]:
    """The cards of ``hand`` that form a meld with ``c`` (G17; §7.1.1, §7.2.1)."""
    r = C.RANK_OF[c]
    s = C.SUIT_OF[c]
    if r == K_ or r == Q_:
        other = C.make(Q_ if r == K_ else K_, s)
        return [other] if hand >> other & 1 else []
    if r == PR_ or r == YP_:
        want = YP_MASK if r == PR_ else PR_MASK
        return [p for p in C.cards_of(hand & want & ~C.SUIT_MASK[s])]
    return []


def meld_parts(hand: int) -> int:
    """The cards of ``hand`` that form a meld with another card of ``hand``: the mask of the
    cards ``c`` with ``meld_partners(c, hand)`` not empty (G17)."""
    m = hand & hand >> 1 & KINGS_MASK                  # kings whose queen is held
    m |= m << 1
    prs = hand & PR_MASK
    yps = hand & YP_MASK
    if prs and yps:                                    # a prince + a princess of another suit
        m |= prs if yps & (yps - 1) else prs & ~(yps >> 1)
        m |= yps if prs & (prs - 1) else yps & ~(prs << 1)
    return m


def meld_value(a: int, b: int) -> int:
    """First kind: K+Q of one suit; second kind: a prince and a young princess of different
    suits (E2).  0 if the pair is no meld."""
    ra, rb = C.RANK_OF[a], C.RANK_OF[b]
    sa, sb = C.SUIT_OF[a], C.SUIT_OF[b]
    if sa < 0 or sb < 0:
        return 0
    if {ra, rb} == {K_, Q_} and sa == sb:
        return MELD1[sa]
    if {ra, rb} == {PR_, YP_} and sa != sb:
        return QUARTER[sa] + QUARTER[sb]
    return 0


def musik_credit(cards) -> tuple[int, list[tuple[int, int]]]:
    """The sitting-out dealer's credit for a musik (§5.2, G10, E6): 50 per ace, 60 per joker,
    100 for the emperor, plus the best total of disjoint complete melds.  Returns
    (credit, the pairs counted)."""
    total = 0
    cards = list(cards)
    for c in cards:
        if c == EMPEROR:
            total += 100
        elif c in JOKERS:
            total += 60
        elif C.RANK_OF[c] == C.ACE:
            total += 50
    pairs = []
    m = C.mask_of(cards)
    for s in range(4):                                         # first kind: disjoint by suit
        k, q = C.make(K_, s), C.make(Q_, s)
        if m >> k & 1 and m >> q & 1:
            total += MELD1[s]
            pairs.append((k, q))
    prs = C.cards_of(m & PR_MASK)
    yps = C.cards_of(m & YP_MASK)

    def best(i, used):                                         # second kind: best matching
        if i == len(prs):
            return 0, []
        top, top_pairs = best(i + 1, used)
        for j, y in enumerate(yps):
            if not used >> j & 1 and C.SUIT_OF[y] != C.SUIT_OF[prs[i]]:
                v, ps = best(i + 1, used | 1 << j)
                v += meld_value(prs[i], y)
                if v > top:
                    top, top_pairs = v, [(prs[i], y)] + ps
        return top, top_pairs

    v, ps = best(0, 0)
    return total + v, pairs + ps


def deal_layout(n: int, dealer: int) -> tuple[list[int], int, int, int]:
    """(recipient order R1..RP, hand size H, musik size, exchange size) of G3."""
    sitting = dealer if n >= 4 else None                       # §3.2, G1
    p = n - (sitting is not None)
    first = dealer if sitting is None else (dealer - 1) % n    # §3.3: himself or his right
    order = []
    s = first
    while len(order) < p:
        if s != sitting:
            order.append(s)
        s = (s - 1) % n                                        # counter-clockwise
    return order, 36 // p - 1, p, 36 % p                       # G2, G3


def arrange_deck(n: int, dealer: int, hands: dict, musik=(), exchange=()) -> list[str]:
    """A canonical deck (G3) that deals ``hands`` ({seat: [codes]}), ``musik`` and
    ``exchange``; cards not named fill the rest arbitrarily (in deck order).  For tests, bots
    and puzzles."""
    order, h, pm, w = deal_layout(n, dealer)
    named = [c for cs in hands.values() for c in cs] + list(musik) + list(exchange)
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    rest = [c for c in C.codes(DECK) if c not in set(named)]
    full = {s: list(hands.get(s, [])) for s in order}
    piles = {"musik": (list(musik), pm), "exchange": (list(exchange), w)}
    for s in order:
        if len(full[s]) > h:
            raise ValueError(f"seat {s} is dealt {h} cards, not {len(full[s])}")
        while len(full[s]) < h:
            full[s].append(rest.pop(0))
    for name, (cs, size) in piles.items():
        if len(cs) > size:
            raise ValueError(f"the {name} holds {size} cards, not {len(cs)}")
        while len(cs) < size:
            cs.append(rest.pop(0))
    deck = []
    for k in range(h):
        for s in order:
            deck.append(full[s][k])
        if k < pm:
            deck.append(piles["musik"][0][k])
        if k < w:
            deck.append(piles["exchange"][0][k])
    return deck


def card_key(suit: int, c: int, trump: int, led: int) -> int:
    """G20: how strongly a card counted as ``suit`` holds a trick: 200 + its power as a trump,
    100 + its power in the obligatory suit ``led``, 0 otherwise (and for a card of no suit)."""
    if suit == NO:
        return 0
    if suit == trump:
        return 200 + POWER[c]
    if suit == led:
        return 100 + POWER[c]
    return 0


def entry_key(entry, trump: int, led: int) -> int:
    """``card_key`` of a trick entry (seat, card, companion, counted suit, meld): a joker or
    the emperor counts by its companion."""
    _, c, k, suit, _ = entry
    return card_key(suit, k if k != NO else c, trump, led)


def _copied(d: dict) -> dict:
    """A copy of a flat dict whose list values are copied too (views and events never share a
    list with the game)."""
    return {k: list(v) if type(v) is list else v for k, v in d.items()}


def sort_key(c: int):
    return (C.SUIT_OF[c] if c < 44 else 4 + c - 44, -POWER[c])


# ``sort_key`` as one int per card (the same order: cards sort by ``_SORT.__getitem__``)
_SORT = [0] * 48
for _i, _c in enumerate(sorted(DECK, key=sort_key)):
    _SORT[_c] = _i
_BY_SORT = _SORT.__getitem__


# Integer moves (``Cesarz._moves``): a play packs its card, companion and meld partner in
# 6 bits each, ``NO_BITS`` standing for none.
NO_BITS = 63
_NO_COMP = NO_BITS << 6
_NO_MELD = NO_BITS << 12
_ALONE = _NO_COMP | _NO_MELD
BID_MOVE = 1 << 20
PASS_MOVE = 1 << 21
GIVE_MOVE = 1 << 22


def move_parts(m: int) -> tuple[int, int, int]:
    """A play move's ``(card, companion, meld partner)``, ``NO`` for none."""
    k = m >> 6 & 63
    p = m >> 12 & 63
    return m & 63, NO if k == NO_BITS else k, NO if p == NO_BITS else p


def _play_action(m: int) -> dict:
    """The action dict of a play move (the keys in the order ``_legal`` always gave them)."""
    c, k, p = move_parts(m)
    codes = C.CODES
    a = {"type": "play", "card": codes[c]}
    if k != NO:
        a["companion"] = codes[k]
    if p != NO:
        a["meld"] = codes[p]
    return a


class Cesarz(Game):
    GAME_ID = "cesarz"
    PLAYERS = (2, 3, 4, 5)                                     # G1
    OPTIONS: dict = {}
    STATE_FIELDS = ("sheet", "previous_deal", "sitting_out", "active", "hands", "musik", "exchange",
                    "musik_revealed", "captured", "card_points", "meld_points", "tricks_won",
                    "melds", "trump", "bids", "passed", "declarer", "contract", "credit",
                    "credit_pairs", "to_give", "given", "trick", "led", "released", "emperor_trick",
                    "trick_order", "trick_pos", "last_trick", "last_winner", "last_kind", "leader",
                    "opener", "high", "high_bidder")

    @classmethod
    def deck_for(cls, players):
        return list(DECK)

    # --- deal (G2, G3, G6) ---------------------------------------------------------------

    def _start(self, deck):
        self.sheet: list[list] = []                            # one row per deal
        self.previous_deal: dict | None = None
        self._deal(deck if deck is not None else self.shuffled())

    def _deal(self, deck):
        n = self.n
        self.deal_no += 1
        self.new_deal_log()
        order, h, pm, w = deal_layout(n, self.dealer)
        self.sitting_out = self.dealer if n >= 4 else None     # §3.2
        self.active = [s for s in range(n) if s != self.sitting_out]   # clockwise
        self.hands = [0] * n
        self.musik: list[int] = []
        self.exchange: list[int] = []                          # G4: dead, face down
        i = 0
        for k in range(h):                                     # G3
            for s in order:
                self.hands[s] |= 1 << deck[i]
                i += 1
            if k < pm:
                self.musik.append(deck[i])
                i += 1
            if k < w:
                self.exchange.append(deck[i])
                i += 1
        self.musik_revealed = False
        self.captured = [0] * n                                # card masks of piles taken
        self.card_points = [0] * n
        self.meld_points = [0] * n
        self.tricks_won = [0] * n
        self.melds: list[tuple[int, int, int, int]] = []       # (seat, played, partner, value)
        self.trump = NO                                        # G16
        self.bids: list = [None] * n                           # last call: int or "pass"
        self.passed = [False] * n
        self.declarer: int | None = None
        self.contract = 0
        self.credit = 0
        self.credit_pairs: list[tuple[int, int]] = []
        self.to_give: list[int] = []                           # G11: recipients still due
        self.given: list[tuple[int, int, int]] = []            # (giver, recipient, card)
        # a trick entry: (seat, card, companion, counts_as suit, meld partner); NO = none
        self.trick: list[tuple[int, int, int, int, int]] = []
        self.led = NO                                          # obligatory suit (G13)
        self.released = False                                  # G18
        self.emperor_trick = False                             # G14
        self.trick_order: list[int] = []
        self.trick_pos = 0
        self.last_trick: list[tuple[int, int, int, int, int]] = []
        self.last_winner: int | None = None
        self.last_kind = ""                                    # "trick" / "interrupted"
        self.leader: int | None = None
        self.record({"type": "deal", "dealer": self.dealer, "deck": C.codes(deck)}, [])
        self.record({"type": "new_deal", "deal_no": self.deal_no, "dealer": self.dealer})
        if self.sitting_out is not None:
            self.record({"type": "sits_out", "seat": self.sitting_out, "rule": "G1"})
        for s in self.active:
            self.record({"type": "hand", "seat": s, "cards": self._codes(self.hands[s])}, [s])
        if self.exchange:
            self.record({"type": "exchange_pile", "cards": C.codes(self.exchange)}, [])
        # G7: the opener (dealer, or the dealer's left when he sits out) opens at 100
        opener = self.dealer if self.sitting_out is None else self.next_seat(self.dealer)
        self.opener = opener
        self.high = OPENING
        self.high_bidder = opener
        self.bids[opener] = OPENING
        self.record({"type": "open", "seat": opener, "value": OPENING, "rule": "G7"})
        self.phase = "bid"
        self.to_move = self._next_active(opener)

    def _next_active(self, seat):
        s = self.next_seat(seat)
        while s == self.sitting_out:
            s = self.next_seat(s)
        return s

    @staticmethod
    def _codes(mask):
        codes = C.CODES
        return [codes[c] for c in sorted(C.cards_of(mask), key=_BY_SORT)]

    # --- the rules of each action type, stated once ------------------------------------
    # Each returns what is allowed now and the reason (a template above) that refuses the
    # rest; ``_legal`` lists what they allow, ``_explain`` asks them why an action is refused.

    def _bid_rule(self):
        """G8: (the only bid now, or None at the 820 cap; why no other bid)."""
        v = self.high + STEP
        if v <= MAX_BID:
            return v, BID_ONLY
        return None, BID_CAP

    def _give_rule(self):
        """G11: (the recipient now, the cards that may go to him, why not another held card):
        any card of the hand, to each other active player in turn."""
        return self.to_give[0], self.hands[self.to_move], None

    def _playable(self, seat):
        """G12, G13, G14, G18, G19 (§6.3): (the cards ``seat`` may play now, why not another
        held card): jokers and the emperor always; a suited card of the obligatory suit when
        one is held, there is a suited card on the table, the trick is not released and it is
        no emperor trick; else any suited card."""
        hand = self.hands[seat]
        if self.emperor_trick or self.led == NO or self.released:
            return hand, None
        follow = hand & C.SUIT_MASK[self.led]
        if follow:
            return follow | hand & SPECIAL_MASK, FOLLOW
        return hand, None

    def _companions(self, seat):
        """G13, G14: the cards a joker or the emperor may take as its companion (any suited
        card held); with none it is played bare.  Why not another held card:
        ``COMPANION_SUITED``, why not bare when there are some: ``NEEDS_COMPANION``."""
        return self.hands[seat] & SUITED_MASK

    def _meld_rule(self, seat, cards):
        """G17, G14: (the suited ``cards`` that ``seat`` may play declaring a meld now, why not
        another card with a partner held): on the lead, or when the card beats the trick as it
        stands; never in an emperor trick.  The partners: ``meld_partners``.  (The emperor's
        added card may always meld, G14.)"""
        if self.emperor_trick:
            return 0, MELD_EMPEROR_TRICK
        m = meld_parts(self.hands[seat]) & cards
        if m and self.trick:
            beat = 0
            for c in C.cards_of(m):
                if self._would_win(c):
                    beat |= 1 << c
            m = beat
        return m, MELD_NOT_BEATING

    # --- legal actions ----------------------------------------------------------------

    def _legal(self):
        if self.phase == "play":
            return self._legal_play()
        if self.phase == "bid":
            v, _ = self._bid_rule()
            if v is None:
                return [{"type": "pass"}]
            return [{"type": "bid", "value": v}, {"type": "pass"}]
        if self.phase == "give":
            to, cards, _ = self._give_rule()
            return [{"type": "give", "card": c, "to": to} for c in self._codes(cards)]
        return []

    def _legal_play(self):
        return [_play_action(m) for m in self._play_moves()]

    # --- legal actions as ints (search's fast path) -------------------------------------
    # ``_moves()`` lists the moves of ``_legal()`` in the same order, ``_do(m)`` applies one
    # as ``_apply`` applies its action.  A play is ``card | companion << 6 | partner << 12``
    # (``NO_BITS`` for none: ``move_parts``), a bid ``BID_MOVE | value``, a pass ``PASS_MOVE``,
    # a give ``GIVE_MOVE | card`` (to the player whose turn it is to receive one, G11).

    def _moves(self):
        if self.phase == "play":
            return self._play_moves()
        if self.phase == "bid":
            v, _ = self._bid_rule()
            return [PASS_MOVE] if v is None else [BID_MOVE | v, PASS_MOVE]
        if self.phase == "give":
            _, cards, _ = self._give_rule()
            return [GIVE_MOVE | c for c in sorted(C.cards_of(cards), key=_BY_SORT)]
        return []

    def _play_moves(self):
        """G12-G19: every card that may be played, with each meld it may declare (G17), the
        jokers and the emperor with each companion or bare (G13, G14)."""
        seat = self.to_move
        hand = self.hands[seat]
        playable, _ = self._playable(seat)
        melds, _ = self._meld_rule(seat, playable)
        out = []
        for c in sorted(C.cards_of(playable & SUITED_MASK), key=_BY_SORT):
            out.append(c | _ALONE)
            if melds >> c & 1:
                for p in meld_partners(c, hand):
                    out.append(c | _NO_COMP | p << 12)
        comps = sorted(C.cards_of(self._companions(seat)), key=_BY_SORT)
        for j in JOKERS:
            if playable >> j & 1:
                if comps:
                    for k in comps:
                        out.append(j | k << 6 | _NO_MELD)
                else:
                    out.append(j | _ALONE)                     # bare joker
        if playable >> EMPEROR & 1:
            if comps:
                for k in comps:
                    out.append(EMPEROR | k << 6 | _NO_MELD)
                    for p in meld_partners(k, hand):
                        out.append(EMPEROR | k << 6 | p << 12)
            else:
                out.append(EMPEROR | _ALONE)
        return out

    def _do(self, m):
        if m < BID_MOVE:
            self._play_card(*move_parts(m))
        elif m >= GIVE_MOVE:
            self._give(m & 63, self.to_give[0])
        elif m == PASS_MOVE:
            self._pass()
        else:
            self._bid(m & 1023)

    def _winner_index(self, entries, trump):
        """G20: highest trump, else the highest card counted as the obligatory suit; equal
        ranks -> the earlier card; no suited card at all -> the leader (index 0)."""
        led = NO
        for e in entries:
            if e[3] != NO:
                led = e[3]
                break
        best, best_key = 0, 0
        for i, (_, c, k, suit, _m) in enumerate(entries):
            if suit == NO:                                     # (card_key of the entry)
                continue
            if suit == trump:
                key = 200 + POWER[k if k != NO else c]
            elif suit == led:
                key = 100 + POWER[k if k != NO else c]
            else:
                continue
            if key > best_key:
                best, best_key = i, key
        return best

    def _would_win(self, c):
        """G17 (b): would ``c`` take the trick as it stands (trump before the meld)?"""
        led = self.led if self.led != NO else C.SUIT_OF[c]
        mine = card_key(C.SUIT_OF[c], c, self.trump, led)
        if not mine:
            return False
        for e in self.trick:
            if entry_key(e, self.trump, led) >= mine:
                return False
        return True

    # --- apply ------------------------------------------------------------------------

    def _apply(self, a):
        t = a["type"]
        if self.phase == "play":
            self._play(a)
        elif t == "bid":
            self._bid(a["value"])
        elif t == "pass":
            self._pass()
        else:
            self._give(C.CARD[a["card"]], a["to"])

    def _bid(self, value):                                     # G8
        seat = self.to_move
        self.high = value
        self.high_bidder = seat
        self.bids[seat] = value
        self.to_move = self._next_bidder(seat)

    def _pass(self):                                           # G8: final for the deal
        seat = self.to_move
        self.passed[seat] = True
        self.bids[seat] = "pass"
        left = [s for s in self.active if not self.passed[s]]
        if len(left) == 1:
            self._end_bidding(left[0])
        else:
            self.to_move = self._next_bidder(seat)

    def _next_bidder(self, seat):
        s = self._next_active(seat)
        while self.passed[s]:
            s = self._next_active(s)
        return s

    def _end_bidding(self, declarer):
        self.declarer = declarer
        self.contract = self.high
        self.record({"type": "contract", "seat": declarer, "value": self.contract, "rule": "G8"})
        self.musik_revealed = True                             # G9, §5.1
        self.record({"type": "musik", "cards": C.codes(self.musik), "rule": "G9"})
        if self.sitting_out is not None:                       # §5.2, G10
            self.credit, self.credit_pairs = musik_credit(self.musik)
            self.scores[self.sitting_out] += self.credit
            self.record({"type": "musik_credit", "seat": self.sitting_out, "value": self.credit,
                         "melds": [[C.code(x), C.code(y)] for x, y in self.credit_pairs],
                         "rule": "G10"})
        for c in self.musik:                                   # §5.3
            self.hands[declarer] |= 1 << c
        self.record({"type": "take_musik", "seat": declarer, "rule": "G9"})
        self.to_give = []                                      # G11: clockwise from his left
        s = self._next_active(declarer)
        while s != declarer:
            self.to_give.append(s)
            s = self._next_active(s)
        self.phase = "give"
        self.to_move = declarer

    def _give(self, c, to):                                    # G11
        seat = self.to_move
        self.hands[seat] &= ~(1 << c)
        self.hands[to] |= 1 << c
        self.given.append((seat, to, c))
        self.to_give.pop(0)
        self.record({"type": "gave", "seat": seat, "to": to, "rule": "G11"})
        if not self.to_give:
            self.phase = "play"
            self._start_trick(self.declarer)                   # §6.1

    def _action_visible_to(self, seat, action):
        if action["type"] == "give":                           # G11, G27
            return [seat, action["to"]]
        return None

    # --- tricks (§6, G12-G20, G15) ----------------------------------------------------

    def _start_trick(self, leader):
        # G15: a player without cards is skipped; the lead passes clockwise
        s = leader
        hands = self.hands
        for _ in range(self.n):
            if s != self.sitting_out and hands[s]:
                break
            s = self.next_seat(s)
        else:
            self._end_deal()
            return
        self.leader = s
        act = self.active                                      # clockwise, from the leader
        i = act.index(s)
        self.trick_order = act[i:] + act[:i]
        self.trick_pos = 0
        self.trick = []
        self.led = NO
        self.released = False
        self.emperor_trick = False
        self.to_move = s

    def _advance(self):
        pos = self.trick_pos + 1
        order = self.trick_order
        hands = self.hands
        n = len(order)
        while pos < n and not hands[order[pos]]:               # G15
            pos += 1
        if pos < n:
            self.trick_pos = pos
            self.to_move = order[pos]
        else:
            self._finish_trick()

    def _play(self, a):
        card = C.CARD
        self._play_card(card[a["card"]], card[a["companion"]] if "companion" in a else NO,
                        card[a["meld"]] if "meld" in a else NO)

    def _play_card(self, c, comp, partner):
        """``_play`` of the card ints (search's fast path): ``c`` played with the companion
        ``comp`` and declaring a meld with ``partner`` (``NO`` for none), known legal."""
        seat = self.to_move
        hands = self.hands
        hands[seat] &= ~(1 << c)
        if comp != NO:
            hands[seat] &= ~(1 << comp)
        if c == EMPEROR:
            self._emperor(seat, comp, partner)
            return
        if c in JOKERS:                                        # G13
            if self.emperor_trick:                             # no obligatory suit (§6.4)
                cs = NO
            else:
                if comp != NO and self.led == NO:
                    self.led = C.SUIT_OF[comp]
                cs = self.led if comp != NO else NO
            self.trick.append((seat, c, comp, cs, NO))
            self._advance()
            return
        s = C.SUIT_OF[c]
        if self.emperor_trick:                                 # G14.3: no duty, no meld
            pass
        elif self.led == NO:
            self.led = s
        else:
            if s != self.led and not self.released and self._recording:   # G25: noted publicly
                self.record({"type": "no_follow", "seat": seat, "suit": C.SUITS[self.led],
                             "rule": "G25"})
            if s == self.trump and self.led != self.trump:     # G18
                self.released = True
        self.trick.append((seat, c, NO, s, partner))
        if partner != NO:
            self._meld(seat, c, partner)
        self._advance()

    def _meld(self, seat, c, partner):                         # §7, G17
        v = meld_value(c, partner)
        self.meld_points[seat] += v
        self.melds.append((seat, c, partner, v))
        kind = 1 if C.RANK_OF[c] in (K_, Q_) else 2
        if self._recording:
            self.record({"type": "meld", "seat": seat, "cards": [C.code(c), C.code(partner)],
                         "kind": kind, "value": v, "rule": "G17"})
        if kind == 1 and self.trump != C.SUIT_OF[c]:           # §6.5, G16
            self.trump = C.SUIT_OF[c]
            if self._recording:
                self.record({"type": "trump", "suit": C.SUITS[self.trump], "seat": seat,
                             "rule": "G16"})

    def _emperor(self, seat, comp, partner):                   # G14
        if self.trick:
            i = self._winner_index(self.trick, self.trump)
            w = self.trick[i][0]
            self._take(w, self.trick)
            if self._recording:
                self.record({"type": "interrupted", "seat": seat, "winner": w,
                             "cards": self._trick_codes(self.trick),
                             "points": self._pile_points(self.trick), "rule": "G14"})
            self.last_trick = self.trick
            self.last_winner = w
            self.last_kind = "interrupted"
        self.emperor_trick = True
        self.trick = [(seat, EMPEROR, comp, NO, partner)]
        self.led = NO
        self.released = False
        if partner != NO:
            self._meld(seat, comp, partner)
        self._advance()

    @staticmethod
    def _pile_points(entries):
        return sum(VALUE[e[1]] + (VALUE[e[2]] if e[2] != NO else 0) for e in entries)

    @staticmethod
    def _trick_codes(entries):
        out = []
        for _, c, k, _s, _m in entries:
            out.append(C.CODES[c])
            if k != NO:
                out.append(C.CODES[k])
        return out

    def _take(self, w, entries):
        m = 0
        points = 0
        for _, c, k, _s, _m in entries:
            m |= 1 << c
            points += VALUE[c]
            if k != NO:
                m |= 1 << k
                points += VALUE[k]
        self.captured[w] |= m
        self.card_points[w] += points
        self.tricks_won[w] += 1

    def _finish_trick(self):
        trick = self.trick
        if self.emperor_trick:
            w = trick[0][0]                                    # G14.4
        else:
            w = trick[self._winner_index(trick, self.trump)][0]
        self._take(w, trick)
        if self._recording:                                    # (search states record nothing)
            self.record({"type": "trick", "winner": w, "leader": self.trick[0][0],
                         "cards": self._trick_codes(self.trick),
                         "points": self._pile_points(self.trick),
                         "emperor": self.emperor_trick,
                         "rule": "G14" if self.emperor_trick else "G20"})
        self.last_trick = self.trick
        self.last_winner = w
        self.last_kind = "emperor" if self.emperor_trick else "trick"
        self.trick = []
        self._start_trick(w)

    # --- scoring (§8, G21-G24) --------------------------------------------------------

    def _end_deal(self):
        n = self.n
        changes = [0] * n
        obtained = [self.card_points[s] + self.meld_points[s] for s in range(n)]
        for s in self.active:
            changes[s] = obtained[s]                           # G23
        d = self.declarer
        made = obtained[d] >= self.contract
        changes[d] = obtained[d] if made else -(self.contract - obtained[d])   # G22
        for s in self.active:
            self.scores[s] += changes[s]
        if self.sitting_out is not None:
            changes[self.sitting_out] = self.credit            # added at the reveal (G23)
        self.sheet.append([self.deal_no, d, self.contract, *changes])
        result = {"deal_no": self.deal_no, "declarer": d, "contract": self.contract,
                  "obtained": obtained[d], "made": made,
                  "result": "made" if made else "failed", "points": obtained,
                  "card_points": list(self.card_points), "changes": changes,
                  "scores": list(self.scores)}
        self.previous_deal = result
        if self._recording:
            self.record({"type": "deal_over", **_copied(result), "rule": "G22",
                         "lines": self._lines(obtained, made)})
        self.to_move = None
        top = max(self.scores)
        if top >= TARGET:                                      # G24
            leaders = [s for s in range(n) if self.scores[s] == top]
            if len(leaders) == 1:
                self.winner = leaders[0]
                self.phase = "over"
                self.record({"type": "game_over", "winner": self.winner,
                             "scores": list(self.scores), "rule": "G24"})
                return
        self.dealer = self.next_seat(self.dealer)              # G6
        self._next_deal()

    def _lines(self, obtained, made):
        """The deal's score lines (docs/ENGINE.md): the sitting-out dealer's musik credit
        (G10), each active player's card points (G21) and melds (G17), the declarer's contract
        made or failed (G22) and the others' points (G23)."""
        lines = []
        so = self.sitting_out
        if so is not None:
            lines.append(score_line("G10", "musik_credit", [so], self.credit,
                                    cards=C.codes(self.musik), credit=self.credit))
        for s in self.active:
            lines.append(score_line("G21", "card_points", [s], points=self.card_points[s],
                                    tricks=self.tricks_won[s]))
        for s, c, partner, v in self.melds:
            lines.append(score_line("G17", "meld", [s], cards=[C.code(c), C.code(partner)],
                                    value=v))
        d = self.declarer
        for s in self.active:
            if s == d:
                c = self.contract
                lines.append(score_line("G22", "made" if made else "failed", [s],
                                        obtained[s] if made else obtained[s] - c, contract=c,
                                        obtained=obtained[s], shortfall=max(0, c - obtained[s])))
            else:
                lines.append(score_line("G23", "obtained", [s], obtained[s],
                                        card_points=self.card_points[s],
                                        melds=self.meld_points[s]))
        return lines

    # --- errors: why an action is illegal ---------------------------------------------

    def _explain(self, action, legal):
        return (self._refusal_by_rule(action, PHASE_ACTIONS, _shape_fault)
                or super()._explain(action, legal))

    def _why(self, t, a, seat):
        """The reason the rule of ``t`` refuses the well-formed action ``a``, or None."""
        if t == "bid":
            v, why = self._bid_rule()
            if a["value"] != v:
                return why.format(bid=v, high=self.high, seat=seat)
            return None
        if t == "pass":
            return None
        hand = self.hands[seat]
        c = C.CARD[a["card"]]
        if t == "give":
            to, cards, why = self._give_rule()
            if a["to"] != to:
                return GIVE_TO.format(to=to)
            if not hand >> c & 1:
                return NOT_HELD.format(seat=seat, card=a["card"])
            return why if not cards >> c & 1 else None
        if not hand >> c & 1:
            return NOT_HELD.format(seat=seat, card=a["card"])
        playable, why = self._playable(seat)
        if not playable >> c & 1:
            return why.format(seat=seat, led=SUIT_NAMES[self.led])
        name = a["card"]
        if SUITED_MASK >> c & 1:                          # a suited card
            if "companion" in a:
                return NO_COMPANION.format(card=name)
            if "meld" not in a:
                return None
            fault = self._pair_fault(c, a["meld"], seat)
            if fault:
                return fault
            melds, why = self._meld_rule(seat, playable)
            return why.format(card=name) if not melds >> c & 1 else None
        rule = "G14" if c == EMPEROR else "G13"           # the emperor or a joker
        comps = self._companions(seat)
        if "companion" not in a:
            if comps:
                return NEEDS_COMPANION.format(rule=rule, card=name)
            if "meld" in a:
                return EMPEROR_MELD.format(seat=seat) if c == EMPEROR else JOKER_MELD
            return None
        k = C.CARD[a["companion"]]
        if not comps >> k & 1:
            if not hand >> k & 1:
                return NOT_HELD.format(seat=seat, card=a["companion"]) + ", the companion"
            return COMPANION_SUITED.format(rule=rule, companion=a["companion"])
        if "meld" in a:
            if c != EMPEROR:
                return JOKER_MELD
            return self._pair_fault(k, a["meld"], seat)
        return None

    def _pair_fault(self, c, meld, seat):
        """G17: why ``c`` played with the ``meld`` code declares no meld, or None."""
        p = C.CARD[meld]
        if p not in meld_partners(c, SUITED_MASK):        # no pair of §7 at all
            return NO_MELD.format(card=C.CODES[c], meld=meld)
        if not self.hands[seat] >> p & 1:
            return MELD_NOT_HELD.format(seat=seat, meld=meld)
        return None

    # --- invariants -------------------------------------------------------------------

    def check_invariants(self):
        """36 cards accounted for; points = captured card points + melds; scores = sheet."""
        held = 0
        count = 0
        places = list(self.hands) + list(self.captured)
        for m in places:
            assert not held & m, "a card is in two places"
            held |= m
            count += m.bit_count()
        loose = list(self.exchange)
        if self.declarer is None:
            loose += self.musik
        for _, c, k, _s, _m in self.trick:
            loose.append(c)
            if k != NO:
                loose.append(k)
        for c in loose:
            assert not held >> c & 1, "a card is in two places"
            held |= 1 << c
            count += 1
        assert count == 36 and held == DECK_MASK, "cards not conserved"
        if self.sitting_out is not None:
            assert not self.hands[self.sitting_out] and not self.captured[self.sitting_out]
        melded = [0] * self.n
        for ms, _, _, v in self.melds:
            melded[ms] += v
        for s in range(self.n):
            assert mask_points(self.captured[s]) == self.card_points[s], \
                "card points inconsistent"
        assert melded == self.meld_points, "meld points inconsistent"
        if self.phase == "play" and not any(self.hands[s] for s in self.active) \
                and not self.trick:
            assert sum(self.card_points) == 180
        sheet_total = [0] * self.n
        for row in self.sheet:
            for s in range(self.n):
                sheet_total[s] += row[3 + s]
        if self.sitting_out is not None and self.declarer is not None and \
                (not self.sheet or self.sheet[-1][0] != self.deal_no):
            sheet_total[self.sitting_out] += self.credit
        assert sheet_total == self.scores, "scores do not match the score sheet"
        if self.phase == "over":
            assert max(self.scores) >= TARGET and self.scores.count(max(self.scores)) == 1
            assert self.scores[self.winner] == max(self.scores)

    # --- view (G27) -------------------------------------------------------------------

    def _view(self, v, seat):
        n = self.n
        v["hand"] = self._codes(self.hands[seat]) if seat is not None else []
        v["trump"] = C.SUITS[self.trump] if self.trump != NO else None
        v["trump_card"] = None
        v["target"] = TARGET
        v["sitting_out"] = self.sitting_out
        v["active"] = list(self.active)
        v["opener"] = self.opener
        v["declarer"] = self.declarer
        v["contract"] = self.contract if self.declarer is not None else None
        v["high_bid"] = self.high
        v["high_bidder"] = self.high_bidder
        v["leader"] = self.leader
        v["led"] = C.SUITS[self.led] if self.led != NO else None
        v["released"] = self.released
        v["emperor_trick"] = self.emperor_trick
        v["to_give"] = list(self.to_give)
        hands, out, bids = self.hands, self.sitting_out, self.bids
        seats = []
        for s in range(n):
            d = {"seat": s, "cards": hands[s].bit_count(), "tricks": self.tricks_won[s],
                 "points": (self.card_points[s] + self.meld_points[s]) if s != out
                 else self.credit,
                 "sitting_out": s == out, "badges": self._badges(s)}
            if bids[s] is not None:
                d["bid"] = bids[s]
            seats.append(d)
        v["seats"] = seats
        v["trick"] = self._trick_view(self.trick)
        v["last_trick"] = ({"cards": self._trick_view(self.last_trick),
                            "winner": self.last_winner, "kind": self.last_kind}
                           if self.last_trick else None)
        piles = []
        if self.musik_revealed:                                # G9, G27
            piles.append({"id": "musik", "cards": [C.CODES[c] for c in self.musik]})
        else:
            piles.append({"id": "musik", "count": len(self.musik)})
        if self.exchange:                                      # G4: nobody sees it
            piles.append({"id": "exchange", "count": len(self.exchange)})
        v["piles"] = piles
        codes = C.CODES
        v["melds"] = [{"seat": s, "cards": [codes[c], codes[p]], "value": val,
                       "kind": 1 if C.RANK_OF[c] in (K_, Q_) else 2}
                      for s, c, p, val in self.melds]
        given = []
        for g, r, c in self.given:                             # G11: giver and recipient
            d = {"seat": g, "to": r}
            if seat is not None and seat in (g, r):
                d["card"] = codes[c]
            given.append(d)
        v["given"] = given
        v["summary"] = self._summary(seat)
        v["score_sheet"] = {
            "columns": ["deal", "declarer", "contract", *range(n)],
            "rows": [list(r) for r in self.sheet],
        }
        v["deal_points"] = {"cards": list(self.card_points), "melds": list(self.meld_points)}
        v["previous_deal"] = _copied(self.previous_deal) if self.previous_deal else None

    def _badges(self, s):
        b = []                                                 # i18n keys badge.<b>
        if s == self.declarer:
            b.append("declarer")
        elif self.declarer is None and s == self.high_bidder and self.phase == "bid":
            b.append("high_bidder")
        if self.phase == "give" and self.to_give and s == self.to_give[0]:
            b.append("receives")
        return b

    def _trick_view(self, entries):
        out = []
        for s, c, k, cs, mp in entries:
            d = {"seat": s, "card": C.CODES[c]}
            if k != NO:
                d["companion"] = C.CODES[k]
                if c != EMPEROR and cs != NO:
                    d["counts_as"] = C.SUITS[cs]
            if mp != NO:
                d["meld"] = C.CODES[mp]
            out.append(d)
        return out

    def _summary(self, seat):
        out = []
        p = self.previous_deal
        if p and self.phase == "bid":
            out.append({"key": "previous_deal", "deal": p["deal_no"], "declarer": p["declarer"],
                        "contract": p["contract"], "obtained": p["obtained"],
                        "result": p["result"]})
        if self.sitting_out is not None:
            out.append({"key": "sitting_out", "seat": self.sitting_out})
        if self.declarer is None:
            out.append({"key": "high_bid", "seat": self.high_bidder, "value": self.high})
        else:
            out.append({"key": "contract", "seat": self.declarer,
                        "value": self.contract})
        if self.musik_revealed and self.sitting_out is not None:
            out.append({"key": "musik_credit", "seat": self.sitting_out,
                        "value": self.credit,
                        "melds": [[C.code(x), C.code(y)] for x, y in self.credit_pairs]})
        if self.trump != NO:
            out.append({"key": "trump", "suit": C.SUITS[self.trump]})
        else:
            out.append({"key": "no_trump"})
        for s, c, p, val in self.melds:
            out.append({"key": "meld", "seat": s, "cards": [C.code(c), C.code(p)],
                        "value": val})
        for g, r, c in self.given:
            d = {"key": "gave", "seat": g, "to": r}
            if seat is not None and seat in (g, r):
                d = {"key": "gave_card", "seat": g, "to": r, "card": C.code(c)}
            out.append(d)
        if self.phase == "play" and self.emperor_trick:
            out.append({"key": "emperor_trick", "seat": self.trick[0][0]})
            if self.last_kind == "interrupted":                # G14: where those cards went
                out.append({"key": "interrupted", "winner": self.last_winner,
                            "cards": self._trick_codes(self.last_trick)})
        elif self.phase == "play" and self.released:
            out.append({"key": "released"})
        return out


GAME = Cesarz


# --- what the other modules need (SPEC below) ---------------------------------------------------

def every_action(players: int) -> list[dict]:
    """Every action beside a plain card play that a deal can produce (``atut.openspiel``'s
    action table)."""
    deck = sorted(Cesarz.deck_for(players))
    codes = [C.CODES[c] for c in deck]
    every = C.mask_of(deck)
    suited = [c for c in deck if C.suit_of(c) != C.NO_SUIT]
    out = [{"type": "play", "card": C.CODES[c], "meld": C.CODES[p]}
           for c in suited for p in meld_partners(c, every)]
    for j in (*JOKERS, C.EMPEROR):
        out += [{"type": "play", "card": C.CODES[j], "companion": C.CODES[k]} for k in suited]
    out += [{"type": "play", "card": "EMPEROR", "companion": C.CODES[k], "meld": C.CODES[p]}
            for k in suited for p in meld_partners(k, every)]
    out += [{"type": "bid", "value": v} for v in range(OPENING + STEP, MAX_BID + 1, STEP)]
    out.append({"type": "pass"})
    out += [{"type": "give", "card": c, "to": s} for c in codes for s in range(players)]
    return out


def botkit_beats(c: int, best: int, trump: int | None, led: int | None) -> bool:
    """``botkit.beats`` on card ints: a card of neither the trump nor the suit led (``led``,
    by default ``best``'s suit) never takes the trick (G20)."""
    su = C.SUIT_OF
    ld = led if led is not None else su[best]
    t = trump if trump is not None else NO
    mine = card_key(su[c], c, t, ld)
    return mine > 0 and mine > card_key(su[best], best, t, ld)


def botkit_trick_winner(entries: list, trump: int | None, view: dict) -> int:
    """``botkit.trick_winner``: the index of the entry (``{"card", "companion"?, "counts_as"?}``
    as ``view["trick"]``) that takes the trick: an emperor trick goes to the emperor's player
    (G14.4), a joker counts by its companion (G20)."""
    if view.get("emperor_trick") or entries[0]["card"] == "EMPEROR":
        return 0
    t = trump if trump is not None else NO
    tup = []
    for e in entries:
        c = C.card(e["card"])
        k = C.card(e["companion"]) if e.get("companion") else NO
        if c in JOKERS:
            cs = C.SUITS.index(e["counts_as"]) if e.get("counts_as") else NO
        else:
            cs = C.SUIT_OF[c]
        tup.append((e.get("seat"), c, k, cs, NO))
    led = next((x[3] for x in tup if x[3] != NO), NO)
    best, key = 0, 0
    for i, x in enumerate(tup):
        v = entry_key(x, t, led)
        if v > key:
            best, key = i, v
    return best


# The lab's help for this game's own view fields (atut.lab.help): {key: (English, Polish)}
VIEW_HELP = {
    "trump": ("The trump suit, or null before the first king-queen meld makes one.",
              "Kolor atutowy albo null, zanim pierwszy meldunek króla z damą go ustanowi."),
    "trump_card": ("Always null in cesarz (no trump card is turned).",
                   "W cesarzu zawsze null (nie odkrywa się karty atutowej)."),
    "opener": ("The seat that opened the bidding.", "Miejsce, które otworzyło licytację."),
    "high_bidder": ("The seat of the highest bid so far, or null.",
                    "Miejsce z najwyższą dotąd licytacją albo null."),
    "led": ("The obligatory suit of the current trick, or null.",
            "Kolor obowiązujący w bieżącej lewie albo null."),
    "released": ("Whether a trump has released the duty to follow the suit in this trick.",
                 "Czy atut zwolnił z obowiązku dokładania do koloru w tej lewie."),
    "emperor_trick": ("Whether the current trick was started by the emperor (no suit to "
                      "follow; the emperor's player takes it).",
                      "Czy bieżącą lewę rozpoczął cesarz (bez obowiązku koloru; bierze ją "
                      "gracz cesarza)."),
    "to_give": ("The seats still to receive a card from the declarer, in order.",
                "Miejsca, które mają jeszcze dostać kartę od grającego, po kolei."),
    "melds": ("The melds declared in this deal: [{seat, cards, value, kind}, ...] (kind 1 "
              "king-queen, 2 prince-young princess).",
              "Meldunki ogłoszone w tym rozdaniu: [{seat, cards, value, kind}, ...] (kind 1 "
              "król-dama, 2 książę-młoda księżniczka)."),
    "given": ("The cards handed out by the declarer: [{seat, to, card}], the card only "
              "when you gave or received it.",
              "Karty rozdane przez grającego: [{seat, to, card}], karta tylko gdy ją dałeś "
              "lub dostałeś."),
    "deal_points": ("This deal's points so far: {cards: [per seat], melds: [per seat]}.",
                    "Punkty tego rozdania: {cards: [na miejsce], melds: [na miejsce]}."),
    "previous_deal": ("What the previous deal ended with (hands, musik, points), or null.",
                      "Jak skończyło się poprzednie rozdanie (ręce, musik, punkty) albo "
                      "null."),
}


SPEC = GameSpec(
    id=GAME.GAME_ID,
    game=GAME,
    names={"en": "Cesarz", "pl": "Cesarz"},
    bots="atut.bots.cesarz",
    examples="atut.lab.example_bots",
    view_help=VIEW_HELP,
    reason="atut.analysis:cesarz_reason",
    trick_events=("trick", "interrupted"),          # G14: an emperor interrupts a trick
    deal_bound=3000,                                # a contract at the bid cap with every bonus
    uct_c=200.0,
    actions=every_action,
    keep_public=("last_trick", "last_winner", "last_kind", "credit_pairs"),
    beats=botkit_beats,
    trick_winner=botkit_trick_winner,
)
