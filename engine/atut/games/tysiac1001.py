"""1001 (Тысяча одно, an early form of Tysiąc) for 3 players, or 4 with the dealer sitting out.

Rules: ``docs/rules/tysiac1001.md`` (this project's notes, which carry every rule id G1..G19
and worked example E1..E15).  An illegal action's message names the rule that forbids it
(``G12: seat 1 must follow hearts``); each action type's rule is stated once, in ``_bid_rule``,
``_contract_range``, ``_give_rule`` and ``_playable`` (the cards, and those that may declare a
marriage), and both the legal actions and the explanation come from it.

Phases of a deal:

``bid``       the three active players bid from 40 in fives, or pass (G6);
``decide``    the two-pass case: the third player, holding the przykup, plays on or gives up (G7);
``give``      the declarer hands out two cards, one to each opponent (G9);
``announce``  the declarer announces his contract (G10);
``play``      eight tricks (G11-G13);
and ``over`` when someone has won (G17).  Scoring and the next deal happen inside ``apply``.

Option ``handout``: ``"przykup"`` (default, G9: two of the three przykup cards are handed out)
or ``"any"`` (modern Tysiąc: any two cards of the declarer's whole hand).
"""

from __future__ import annotations

from .. import cards as C
from ..game import Game, score_line
from ..tricks import trick_winner
from . import GameSpec

RANKS = C.ACE_TEN_RANKS                                      # G1, G2: A > 10 > K > Q > J > 9
POINTS = C.ACE_TEN_POINTS                                    # the ace-ten family's tables
POWER = C.ACE_TEN_POWER
VALUE = C.ACE_TEN_VALUE
DECK = C.deck(RANKS)
DECK_MASK = C.mask_of(DECK)
NINES = C.mask_of(C.make(C.NINE, s) for s in range(4))
MARRIAGE_VALUE = (40, 60, 80, 100)                            # ¶4: S 40, C 60, D 80, H 100
KINGS = [C.make(C.KING, s) for s in range(4)]
QUEENS = [C.make(C.QUEEN, s) for s in range(4)]
PAIR = [C.mask_of((KINGS[s], QUEENS[s])) for s in range(4)]
KINGS_MASK = C.mask_of(KINGS)
assert all(q == k + 1 for k, q in zip(KINGS, QUEENS))       # a king's queen is the next bit
PARTNER = [-1] * 48                                           # K <-> Q of the same suit
for _s in range(4):
    PARTNER[KINGS[_s]] = QUEENS[_s]
    PARTNER[QUEENS[_s]] = KINGS[_s]
SUIT_MASK = C.SUIT_MASK
SUIT_OF = C.SUIT_OF
CODES = C.CODES
cards_of = C.cards_of
MIN_BID = 40                                                  # G6
STEP = 5
NO_MARRIAGE_CAP = 120                                         # G6, G10
MAX_BID = 400                                                 # G6: engine sanity cap
TARGET = 1001                                                 # G17
HAND = 7
GIVE_UP_BONUS = 50                                            # G7
TRICKS = 8
DECLARER_MARK = "★\u00a0"                                    # score sheet: the declarer's cell


def round5(x: int) -> int:
    """G14: nearest multiple of 5; remainder 1-2 rounds down, 3-4 rounds up."""
    r = x % 5
    return x - r if r <= 2 else x + 5 - r


def deal_slots(players: int, dealer: int) -> tuple[dict[int, list[int]], list[int]]:
    """G5: the deck positions each active seat receives, and the przykup's positions."""
    active = [(dealer + k) % players for k in (1, 2, 3)]
    slots: dict[int, list[int]] = {s: [] for s in active}
    przykup = []
    i = 0
    for r in range(HAND):
        for s in active:
            slots[s].append(i)
            i += 1
        if r < 3:
            przykup.append(i)
            i += 1
    return slots, przykup


def arrange_deck(players: int, dealer: int, hands: dict, przykup=()) -> list[str]:
    """A deck (card codes) that deals ``hands`` ({seat: up to 7 codes}) and ``przykup`` (up
    to 3 codes); the other places are filled with the remaining cards in deck order."""
    slots, pk = deal_slots(players, dealer)
    deck: list = [None] * 24
    used = set()
    for s, codes in hands.items():
        for pos, code in zip(slots[s], codes):
            deck[pos] = code
            used.add(code)
    for pos, code in zip(pk, przykup):
        deck[pos] = code
        used.add(code)
    rest = iter(c for c in C.codes(DECK) if c not in used)
    return [c if c is not None else next(rest) for c in deck]


def _signed(x: int) -> str:
    return f"+{x}" if x > 0 else ("−" + str(-x) if x < 0 else "0")


def has_marriage(hand: int) -> bool:
    for m in PAIR:
        if hand & m == m:
            return True
    return False


def dealer_credit(przykup: int) -> int:
    """G16: three nines are worth 100, other cards their card points rounded per G14."""
    if przykup & NINES == przykup:
        return 100
    return round5(sum(VALUE[c] for c in C.cards_of(przykup)))


# The fields of each action type (CONTRACT.md): required, then optional.
FIELDS = {"bid": (("value",), ()), "pass": ((), ()), "play_on": ((), ()), "give_up": ((), ()),
          "give": (("card", "to"), ()), "announce": (("value",), ()),
          "play": (("card",), ("meld",))}
INT_FIELDS = {"value": "an integer", "to": "a seat number (an integer)"}
PHASE_ACTIONS = {"bid": ("bid", "pass"), "decide": ("play_on", "give_up"), "give": ("give",),
                 "announce": ("announce",), "play": ("play",)}

# Why a rule refuses an action: the rule id (docs/rules/tysiac1001.md), then the reason.  The
# rule functions return these templates; only a refusal fills them in (``str.format``).
BID_STEP = "G6: bids are multiples of 5"
BID_LOW = "G6: the lowest bid now is {lo}"
BID_CAP = "G6: bids go up to {hi}"
BID_NO_MARRIAGE = "G6: seat {seat} holds no marriage, so bids at most {hi}"
CONTRACT = "G10: seat {seat} may announce a multiple of 5 from {lo} to {hi}"
GIVE_TO = "G9: the card now goes to seat {to}"
GIVE_PRZYKUP = "G9: hand out one of the przykup cards {cards}"
FOLLOW = "G12: seat {seat} must follow the suit led, {led}: {cards}"
TRUMP = "G12: seat {seat} has no {led} and must play a trump ({trump}): {cards}"
MELD_NOT_LEAD = "G13: a player declares a marriage only on his lead after taking a trick"
MELD_NO_TRICK = ("G13: seat {seat} has taken no trick yet: a player declares a marriage only on "
                 "his lead after taking a trick")
MELD_NOT_PAIR = "G13: {card} is not the king or queen of a marriage in seat {seat}'s hand"
MELD_PARTNER = "G13: the partner of {card} is {partner}, not {meld}"
NOT_HELD = "seat {seat} does not hold {card}"
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")


def _plays(playable: int, melds: int) -> list[dict]:
    """The play actions of the cards ``playable``, each K or Q in ``melds`` also with its
    marriage (G13)."""
    out = []
    for c in cards_of(playable):
        out.append({"type": "play", "card": CODES[c]})
        if melds >> c & 1:
            out.append({"type": "play", "card": CODES[c], "meld": CODES[PARTNER[c]]})
    return out


def _shape_fault(t, action):
    """What is wrong with the fields of an action of type ``t``, or ``""``."""
    need, optional = FIELDS[t]
    extra = [k for k in action if k != "type" and k not in need and k not in optional]
    if extra:
        what = ", ".join(repr(k) for k in extra)
        uses = ", ".join(repr(k) for k in need + optional) or "no field"
        article = "an" if t[0] in "aeiou" else "a"
        return f"unexpected field {what} ({article} {t} action has {uses})"
    missing = [k for k in need if k not in action]
    if missing:
        return f"missing field {', '.join(repr(k) for k in missing)}"
    for k in need + optional:
        if k not in action:
            continue
        x = action[k]
        if k in INT_FIELDS:
            if isinstance(x, bool) or not isinstance(x, int):
                return f"{k!r} must be {INT_FIELDS[k]}, not {x!r}"
        elif not isinstance(x, str) or x not in C.CARD:
            return f"{k!r} must be a card code such as 'AH' or '10S', not {x!r}"
    return ""


class Tysiac1001(Game):
    GAME_ID = "tysiac1001"
    PLAYERS = (3, 4)                                          # G3
    OPTIONS = {"handout": ("przykup", "any")}                 # G9 and the modern variant
    STATE_FIELDS = ("sheet", "_checked_rows", "_end_mark", "last_result", "sitting_out", "active",
                    "hands", "przykup", "przykup_left", "revealed", "bids", "passes", "high",
                    "high_bidder", "declarer", "bid_won", "contract", "given", "received", "trick",
                    "last_trick", "last_winner", "trump", "marriages", "shown", "card_points",
                    "meld_points", "tricks_won", "captured", "delta", "leader")

    @classmethod
    def deck_for(cls, players):
        return list(DECK)

    # --- deal (G4, G5) ------------------------------------------------------------------

    def _start(self, deck):
        self.sheet: list[tuple] = []          # (deal, declarer, contract or "give_up", deltas)
        self._checked_rows = -1
        self._end_mark = 0
        self.last_result: dict | None = None
        self._deal(deck if deck is not None else self.shuffled())

    def _deal(self, deck):
        n = self.n
        self.deal_no += 1
        self.new_deal_log()
        if self.deal_no > 1:
            self._deal_event = self._end_mark      # show how the last deal ended, too
        d = self.dealer
        self.sitting_out = d if n == 4 else None                          # G3
        self.active = [(d + k) % n for k in (1, 2, 3)]                   # A1, A2, A3 (G5)
        self.hands = [0] * n
        przykup = 0
        i = 0
        for r in range(HAND):                                             # G5
            for s in self.active:
                self.hands[s] |= 1 << deck[i]
                i += 1
            if r < 3:
                przykup |= 1 << deck[i]
                i += 1
        self.przykup = przykup
        self.przykup_left = 0             # przykup cards still in the declarer's hand (G9)
        self.revealed = False
        self.bids: list = [None] * n      # None, an int or "pass"
        self.passes = 0
        self.high = 0
        self.high_bidder = -1
        self.declarer = -1
        self.bid_won = 0                  # the winning bid; 0 in the two-pass case (G7)
        self.contract = 0
        self.given: list[tuple[int, int]] = []     # (card, to), hidden (G19)
        self.received = [-1] * n
        self.trick: list[tuple[int, int]] = []
        self.last_trick: list[tuple[int, int]] = []
        self.last_winner = -1
        self.trump = -1                   # G13: no trump until the first marriage
        self.marriages: list[tuple[int, int, int]] = []   # (seat, suit, value)
        self.shown = 0                    # the partner cards shown with marriages
        self.card_points = [0] * n
        self.meld_points = [0] * n
        self.tricks_won = [0] * n
        self.captured = [0] * n
        self.delta = [0] * n              # this deal's score changes so far
        self.leader = -1
        self.phase = "bid"
        self.to_move = self.active[0]                                     # G6: A1 opens
        self.record({"type": "deal", "dealer": d, "deck": C.codes(deck)}, [])
        for s in self.active:
            self.record({"type": "hand", "seat": s, "cards": C.codes(C.cards_of(self.hands[s]))},
                        [s])

    # --- the rules of each action type, stated once ----------------------------------------
    # Each returns what is allowed now and the reason (a template above) that refuses the rest;
    # ``_legal`` lists what they allow, ``_explain`` asks them why an action is refused.

    def _bid_rule(self, seat):
        """G6: (lowest, highest, why not higher): ``seat`` may bid a multiple of 5 from the
        lowest to the highest (jumps allowed; above 120 only with a marriage in hand)."""
        lo = self.high + STEP if self.high else MIN_BID
        if has_marriage(self.hands[seat]):
            return lo, MAX_BID, BID_CAP
        return lo, NO_MARRIAGE_CAP, BID_NO_MARRIAGE

    def _contract_range(self):
        """G10 (G7: >= 40): the declarer announces a multiple of 5 from lo to hi (why not:
        ``CONTRACT``)."""
        lo = self.bid_won or MIN_BID
        cap = MAX_BID if has_marriage(self.hands[self.declarer]) else NO_MARRIAGE_CAP
        return lo, max(lo, cap)

    def _recipients(self):
        """The two opponents, clockwise from the declarer's left (G9)."""
        d = self.declarer
        return (self.active * 2)[self.active.index(d) + 1:][:2]

    def _give_rule(self, seat):
        """G9: (the recipient now, the cards that may go to him, why not another held card)."""
        to = self._recipients()[len(self.given)]
        if self.options["handout"] == "przykup":
            return to, self.przykup_left, GIVE_PRZYKUP
        return to, self.hands[seat], None

    def _playable(self, seat):
        """G12, G13: (the cards ``seat`` may play now, why not another held card, the cards he
        may play declaring a marriage, why not another card).  G12: follow suit, else trump (if
        a trump suit exists and is held), else anything.  G13: the K or Q of a marriage held,
        on his own lead, after taking a trick; the meld names the partner (``PARTNER``)."""
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            led = SUIT_OF[trick[0][1]]
            m = hand & SUIT_MASK[led]
            if m:
                return m, FOLLOW, 0, MELD_NOT_LEAD
            if self.trump >= 0:
                m = hand & SUIT_MASK[self.trump]
                if m:
                    return m, TRUMP, 0, MELD_NOT_LEAD
            return hand, None, 0, MELD_NOT_LEAD
        if not self.tricks_won[seat]:
            return hand, None, 0, MELD_NO_TRICK
        m = hand & hand >> 1 & KINGS_MASK                  # kings whose queen is held
        return hand, None, m | m << 1, MELD_NOT_PAIR

    # --- legal actions ------------------------------------------------------------------

    def _legal(self):
        ph = self.phase
        seat = self.to_move
        if ph == "play":                                  # = _legal_play(seat), one call less
            playable, _, melds, _ = self._playable(seat)
            if melds:
                return _plays(playable, melds)
            return [{"type": "play", "card": CODES[c]} for c in cards_of(playable)]
        if ph == "bid":
            lo, hi, _ = self._bid_rule(seat)
            out = [{"type": "bid", "value": v} for v in range(lo, hi + 1, STEP)]
            out.append({"type": "pass"})
            return out
        if ph == "decide":
            return [{"type": "play_on"}, {"type": "give_up"}]                # G7
        if ph == "give":
            to, src, _ = self._give_rule(seat)
            return [{"type": "give", "card": C.CODES[c], "to": to} for c in C.cards_of(src)]
        if ph == "announce":
            lo, hi = self._contract_range()
            return [{"type": "announce", "value": v} for v in range(lo, hi + 1, STEP)]
        return []

    def _legal_play(self, seat):
        playable, _, melds, _ = self._playable(seat)
        return _plays(playable, melds)

    # --- apply --------------------------------------------------------------------------

    def _apply(self, a):
        t = a["type"]
        seat = self.to_move
        if t == "play":
            self._play(seat, a)
        elif t == "bid":
            self.bids[seat] = a["value"]
            self.high = a["value"]
            self.high_bidder = seat
            self.to_move = self._next_bidder(seat)
        elif t == "pass":
            self.bids[seat] = "pass"
            self.passes += 1
            if self.passes == 2:                                          # G6: auction over
                self._end_auction()
            else:
                self.to_move = self._next_bidder(seat)
        elif t == "give":
            self._give(seat, C.CARD[a["card"]], a["to"])
        elif t == "announce":
            self.contract = a["value"]                                    # G10
            self.phase = "play"
            self.leader = seat                                            # G11
            self.to_move = seat
        elif t == "play_on":                                              # G7
            self.phase = "give"
        elif t == "give_up":                                              # G7, E4
            self._end_mark = len(self.events) - 1
            for s in self.active:
                if s != seat:
                    self.delta[s] += GIVE_UP_BONUS
                    self.scores[s] += GIVE_UP_BONUS
            self._end_deal(gave_up=True)

    def _next_bidder(self, seat):
        act = self.active
        i = act.index(seat)
        for k in (1, 2, 3):
            s = act[(i + k) % 3]
            if self.bids[s] != "pass":
                return s
        return seat

    def _end_auction(self):
        if self.high_bidder >= 0:
            d = self.high_bidder                                          # E2, E5
            self.bid_won = self.high
            self.record({"type": "declarer", "seat": d, "value": self.high, "rule": "G6"})
            self.phase = "give"
        else:                                                             # G7: two passes
            d = next(s for s in self.active if self.bids[s] != "pass")
            self.record({"type": "two_passes", "seat": d, "rule": "G7"})
            self.phase = "decide"
        self.declarer = d
        self.to_move = d
        self._reveal()

    def _reveal(self):
        d = self.declarer
        self.revealed = True                                              # G8
        self.hands[d] |= self.przykup                                     # G9 precision
        self.przykup_left = self.przykup
        self.record({"type": "przykup", "seat": d, "cards": C.codes(C.cards_of(self.przykup)),
                     "rule": "G8"})
        if self.sitting_out is not None:                                  # G16
            credit = dealer_credit(self.przykup)
            self.scores[self.sitting_out] += credit
            self.delta[self.sitting_out] += credit
            self.record({"type": "dealer_credit", "seat": self.sitting_out, "value": credit,
                         "rule": "G16"})

    def _give(self, seat, c, to):
        self.hands[seat] &= ~(1 << c)
        self.hands[to] |= 1 << c
        self.przykup_left &= ~(1 << c)
        self.given.append((c, to))
        self.received[to] = c
        self.record({"type": "handed", "seat": seat, "to": to, "rule": "G9"},
                    [s for s in range(self.n) if s != seat and s != to])
        if len(self.given) == 2:
            self.phase = "announce"

    def _play(self, seat, a):
        self._play_card(seat, C.CARD[a["card"]], "meld" in a)

    def _play_card(self, seat, c, meld):
        """``_play`` of a card int (search's fast path): ``seat`` plays ``c``, declaring its
        marriage when ``meld``; known legal."""
        self.hands[seat] &= ~(1 << c)
        trick = self.trick
        trick.append((seat, c))
        if meld:                                                          # G13, E10, E11
            s = C.SUIT_OF[c]
            value = MARRIAGE_VALUE[s]
            self.trump = s
            self.meld_points[seat] += value
            self.shown |= 1 << PARTNER[c]
            self.marriages.append((seat, s, value))
            if self._recording:
                self.record({"type": "marriage", "seat": seat,
                             "cards": [CODES[c], CODES[PARTNER[c]]],
                             "suit": C.SUITS[s], "value": value, "rule": "G13"})
        if len(trick) < 3:
            act = self.active
            self.to_move = act[(act.index(seat) + 1) % 3]
            return
        cards = [x for _, x in trick]
        w = trick[trick_winner(cards, self.trump if self.trump >= 0 else None, POWER)][0]
        pts = VALUE[cards[0]] + VALUE[cards[1]] + VALUE[cards[2]]
        self.card_points[w] += pts
        self.tricks_won[w] += 1
        self.captured[w] |= (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2])
        if self._recording:
            self.record({"type": "trick", "winner": w, "cards": C.codes(cards),
                         "leader": trick[0][0], "points": pts})
        # the next deal's log starts with this deal's scoring (which names no card)
        self._end_mark = len(self.events)
        self.last_trick = self.trick
        self.last_winner = w
        self.trick = []
        if self.hands[w]:
            self.leader = w                                               # G11
            self.to_move = w
            return
        self._score_deal()

    # --- scoring (G14, G15, G17) --------------------------------------------------------

    def _total(self, s):
        return self.card_points[s] + self.meld_points[s]

    def _score_deal(self):
        d = self.declarer
        total = self._total(d)
        made = total >= self.contract                                     # G15, E6
        for s in self.active:
            if s == d:
                x = self.contract if made else -self.contract
                self.record({"type": "made" if made else "failed", "seat": s,
                             "value": self.contract, "total": total, "rule": "G15"})
            else:
                x = round5(self._total(s))                                # G14, E1, E7
                self.record({"type": "scored", "seat": s, "total": self._total(s), "value": x,
                             "rule": "G14"})
            self.delta[s] += x
            self.scores[s] += x
        self._end_deal(made=made)

    def _end_deal(self, gave_up=False, made=None):
        d = self.declarer
        row = (self.deal_no, d, "give_up" if gave_up else self.contract, tuple(self.delta))
        self.sheet.append(row)
        result = {
            "deal": self.deal_no,
            "declarer": d,
            "contract": None if gave_up else self.contract,
            "gave_up": gave_up,
            "made": made,
            "totals": [self._total(s) if s != self.sitting_out else 0 for s in range(self.n)],
            "deltas": list(self.delta),
            "scores": list(self.scores),
        }
        self.last_result = result
        if self._recording:
            self.record({"type": "deal_over", "deal": self.deal_no, "scores": list(self.scores),
                         "rule": "G17", "lines": self._lines(gave_up, made)})
        best = max(self.scores)                                           # G17, E15
        if best >= TARGET and self.scores.count(best) == 1:
            w = self.scores.index(best)
            self.winner = w
            self.phase = "over"
            self.to_move = None
            self.record({"type": "game_over", "winner": w, "scores": list(self.scores),
                         "rule": "G17"})
            return
        self.dealer = self.next_seat(self.dealer)                         # G4
        self._next_deal()

    def _lines(self, gave_up, made):
        """The deal's score lines (docs/ENGINE.md): the sitting-out dealer's credit (G16); after
        a give-up the bonus of the other two (G7); else each active player's card points (G2)
        and marriages (G13), the declarer's contract made or failed (G15) and the others'
        rounded totals (G14)."""
        lines = []
        d = self.declarer
        so = self.sitting_out
        if so is not None:
            lines.append(score_line("G16", "dealer_credit", [so], self.delta[so],
                                    cards=C.codes(C.cards_of(self.przykup)),
                                    credit=self.delta[so]))
        if gave_up:
            lines.append(score_line("G7", "gave_up", [d], 0))
            others = [s for s in self.active if s != d]
            lines.append(score_line("G7", "give_up_bonus", others, GIVE_UP_BONUS,
                                    points=GIVE_UP_BONUS))
            return lines
        for s in self.active:
            lines.append(score_line("G2", "card_points", [s], points=self.card_points[s],
                                    tricks=self.tricks_won[s]))
        for s, suit, value in self.marriages:
            lines.append(score_line("G13", "marriage", [s], suit=C.SUITS[suit], value=value))
        for s in self.active:
            total = self._total(s)
            if s == d:
                c = self.contract
                lines.append(score_line("G15", "made" if made else "failed", [s],
                                        c if made else -c, contract=c, total=total))
            else:
                x = round5(total)
                lines.append(score_line("G14", "rounded", [s], x, total=total, value=x))
        return lines

    # --- errors -------------------------------------------------------------------------

    def _explain(self, action, legal):
        return (self._refusal_by_rule(action, PHASE_ACTIONS, _shape_fault)
                or super()._explain(action, legal))

    def _why(self, t, a, seat):
        """The reason the rule of ``t`` refuses the well-formed action ``a``, or None."""
        if t == "bid":
            v = a["value"]
            lo, hi, above = self._bid_rule(seat)
            if v % STEP:
                return BID_STEP
            if v < lo:
                return BID_LOW.format(lo=lo)
            if v > hi:
                return above.format(seat=seat, hi=hi)
            return None
        if t == "announce":
            v = a["value"]
            lo, hi = self._contract_range()
            if v % STEP or not lo <= v <= hi:
                return CONTRACT.format(seat=seat, lo=lo, hi=hi)
            return None
        if t not in ("give", "play"):
            return None
        c = C.CARD[a["card"]]
        if t == "give":
            to, allowed, why = self._give_rule(seat)
            if a["to"] != to:
                return GIVE_TO.format(to=to)
        else:
            allowed, why, melds, meld_why = self._playable(seat)
        hand = self.hands[seat]
        if not hand >> c & 1:
            return NOT_HELD.format(seat=seat, card=C.CODES[c])
        if not allowed >> c & 1:
            led = C.SUIT_OF[self.trick[0][1]] if self.trick else 0
            return why.format(seat=seat, cards=" ".join(C.codes(C.cards_of(allowed))),
                              led=SUIT_NAMES[led], trump=SUIT_NAMES[self.trump])
        if "meld" in a:
            if not melds >> c & 1:
                return meld_why.format(seat=seat, card=C.CODES[c])
            if a["meld"] != C.CODES[PARTNER[c]]:
                return MELD_PARTNER.format(card=C.CODES[c], partner=C.CODES[PARTNER[c]],
                                           meld=a["meld"])
        return None

    # --- visibility (G19) -----------------------------------------------------------------

    def _action_visible_to(self, seat, action):
        if action["type"] == "give":
            return [seat, action["to"]]
        return None

    def _view(self, v, seat):
        n = self.n
        v["trump"] = C.SUITS[self.trump] if self.trump >= 0 else None
        v["hand"] = C.codes(C.cards_of(self.hands[seat])) if seat is not None else []
        v["trump_card"] = None
        v["target"] = TARGET
        v["active"] = list(self.active)
        v["sitting_out"] = self.sitting_out
        v["declarer"] = self.declarer if self.declarer >= 0 else None
        v["bid"] = self.bid_won or None
        v["high_bid"] = self.high or None
        v["contract"] = self.contract or None
        v["leader"] = self.leader if self.leader >= 0 else None
        v["trick"] = [{"seat": s, "card": C.CODES[c]} for s, c in self.trick]
        v["last_trick"] = ({"cards": [{"seat": s, "card": C.CODES[c]} for s, c in self.last_trick],
                            "winner": self.last_winner} if self.last_trick else None)
        v["marriages"] = [{"seat": s, "suit": C.SUITS[su], "value": val,
                           "cards": [C.CODES[KINGS[su]], C.CODES[QUEENS[su]]]}
                          for s, su, val in self.marriages]
        v["przykup"] = C.codes(C.cards_of(self.przykup)) if self.revealed else None
        if self.revealed:
            v["piles"] = [{"id": "przykup", "cards": C.codes(C.cards_of(self.przykup))}]
        else:
            v["piles"] = [{"id": "przykup", "count": C.count(self.przykup)}]
        # G9, G19: the giver knows both cards, a recipient only his own
        gifts = []
        if seat is not None:
            for c, to in self.given:
                if seat == self.declarer or seat == to:
                    gifts.append({"card": C.CODES[c], "to": to})
        v["given"] = gifts
        seats = []
        for s in range(n):
            badges = []                   # the page marks the dealer and a sitting-out seat
            if s == self.declarer:
                badges.append("declarer")
            for ms, su, _ in self.marriages:
                if ms == s:
                    badges.append("marriage_" + C.SUITS[su])
            e = {"seat": s, "cards": C.count(self.hands[s]), "tricks": self.tricks_won[s],
                 "points": self._total(s) if s != self.sitting_out else None,
                 "badges": badges}
            if s == self.sitting_out:
                e["sitting_out"] = True
            b = self.bids[s]
            if b is not None:
                e["bid"] = b
            seats.append(e)
        v["seats"] = seats
        v["summary"] = self._summary(seat)
        cols = ["deal", "contract"] + list(range(n))
        rows = [[no, "—" if c == "give_up" else c]
                + [(DECLARER_MARK if s == d else "") + _signed(dl[s]) for s in range(n)]
                for no, d, c, dl in self.sheet]
        v["score_sheet"] = {"columns": cols, "rows": rows, "totals": list(self.scores)}
        r = self.last_result                # copies: a view shares no list with the game
        v["last_result"] = ({k: list(x) if type(x) is list else x for k, x in r.items()}
                            if r else None)

    def _summary(self, seat):
        out = []
        if self.sitting_out is not None:
            out.append({"key": "sits_out", "seat": self.sitting_out})
        if self.phase == "bid":
            if self.high_bidder >= 0:
                out.append({"key": "high_bid", "seat": self.high_bidder, "value": self.high})
            else:
                out.append({"key": "no_bid"})
        elif self.declarer >= 0:
            if self.bid_won:
                out.append({"key": "declarer", "seat": self.declarer, "value": self.bid_won})
            else:
                out.append({"key": "declarer_two_passes", "seat": self.declarer})
            if self.revealed:
                out.append({"key": "przykup", "cards": C.codes(C.cards_of(self.przykup))})
            if self.contract:
                out.append({"key": "contract", "seat": self.declarer, "value": self.contract})
        if seat is not None:
            for c, to in self.given:
                if seat == self.declarer:
                    out.append({"key": "gave", "card": C.CODES[c], "to": to})
                elif seat == to:
                    out.append({"key": "received", "card": C.CODES[c], "seat": self.declarer})
        for s, su, val in self.marriages:
            out.append({"key": "marriage", "seat": s, "suit": C.SUITS[su], "value": val})
        if self.phase == "play":
            if self.trump >= 0:
                out.append({"key": "trump", "suit": C.SUITS[self.trump]})
            else:
                out.append({"key": "no_trump"})
        r = self.last_result
        if r is not None and self.phase != "over" and not self.trick and not self.last_trick:
            if r["gave_up"]:
                out.append({"key": "last_deal_gave_up", "seat": r["declarer"]})
            else:
                out.append({"key": "last_deal_made" if r["made"] else "last_deal_failed",
                            "seat": r["declarer"], "value": r["contract"],
                            "total": r["totals"][r["declarer"]]})
        if self.phase == "over":
            out.append({"key": "winner", "seat": self.winner, "value": self.scores[self.winner]})
        return out

    # --- invariants ---------------------------------------------------------------------

    def check_invariants(self):
        """24 cards conserved; card counts per phase; scores = the sheet; all in fives."""
        held = 0
        count = 0
        parts = list(self.hands) + list(self.captured)
        if not self.revealed:
            parts.append(self.przykup)
        for m in parts:
            assert not held & m, "a card is in two places"
            held |= m
            count += C.count(m)
        for _, c in self.trick:
            assert not held >> c & 1, "a card is in two places"
            held |= 1 << c
            count += 1
        assert count == 24 and held == DECK_MASK, "cards not conserved"
        if self.sitting_out is not None:
            assert self.hands[self.sitting_out] == 0
        assert C.count(self.przykup) == 3
        if self._checked_rows != len(self.sheet):          # the sheet changes once a deal
            self._checked_rows = len(self.sheet)
            self._sheet_sums = [sum(r[3][s] for r in self.sheet) for s in range(self.n)]
            for _no, d, c, dl in self.sheet:
                if c != "give_up":
                    assert dl[d] in (c, -c), "a declarer scores plus or minus his contract"
        open_deal = self.phase != "over"
        for s in range(self.n):
            m = self.captured[s]
            pts = 0
            while m:
                low = m & -m
                pts += VALUE[low.bit_length() - 1]
                m ^= low
            assert self.card_points[s] == pts, "card points differ from the tricks taken"
            assert self.scores[s] % 5 == 0, "scores move in fives"
            assert self.scores[s] == self._sheet_sums[s] + (self.delta[s] if open_deal else 0), \
                "scores differ from the sheet"
        melds = [0] * self.n
        for ms, _, v in self.marriages:
            melds[ms] += v
        assert melds == self.meld_points, "marriage points differ from the marriages"
        if self.phase == "play" and len(self.trick) == 0:
            sizes = {C.count(self.hands[s]) for s in self.active}
            assert len(sizes) == 1, "active hands differ in size at a lead"
        if self.phase == "bid":
            assert all(C.count(self.hands[s]) == HAND for s in self.active)


GAME = Tysiac1001


def every_action(players: int) -> list[dict]:
    """Every action beside a plain card play that a deal can produce (``atut.openspiel``'s
    action table)."""
    deck = sorted(Tysiac1001.deck_for(players))
    codes = [C.CODES[c] for c in deck]
    out = [{"type": "play", "card": C.CODES[c],
            "meld": C.CODES[C.make(C.QUEEN if C.rank_of(c) == C.KING else C.KING, C.suit_of(c))]}
           for c in deck if C.rank_of(c) in (C.KING, C.QUEEN)]
    values = range(MIN_BID, MAX_BID + 1, STEP)
    out += [{"type": "bid", "value": v} for v in values]
    out += [{"type": "announce", "value": v} for v in values]
    out += [{"type": "pass"}, {"type": "play_on"}, {"type": "give_up"}]
    out += [{"type": "give", "card": c, "to": s} for c in codes for s in range(players)]
    return out


# The lab's help for this game's own view fields (atut.lab.help): {key: (English, Polish)}
VIEW_HELP = {
    "trump": ("The trump suit, or null until a marriage is declared.",
              "Kolor atutowy albo null, dopóki nikt nie zamelduje."),
    "trump_card": ("Always null in 1001.", "W tysiącu zawsze null."),
    "bid": ("The bid that won the auction, or null.",
            "Licytacja, która wygrała, albo null."),
    "przykup": ("The three przykup cards once turned up, else null.",
                "Trzy karty przykupu po odkryciu, inaczej null."),
    "piles": ("The przykup: its cards once turned up, else its count.",
              "Przykup: jego karty po odkryciu, inaczej ich liczba."),
    "marriages": ("The marriages declared: [{seat, suit, value, cards}, ...].",
                  "Ogłoszone meldunki: [{seat, suit, value, cards}, ...]."),
    "given": ("The cards the declarer handed out that you may know: [{card, to}] (the "
              "declarer sees both, a recipient his own).",
              "Karty rozdane przez grającego, które możesz znać: [{card, to}] (grający "
              "widzi obie, odbiorca swoją)."),
}


SPEC = GameSpec(
    id=GAME.GAME_ID,
    game=GAME,
    names={"en": "1001", "pl": "Tysiąc jeden"},
    bots="atut.bots.tysiac1001",
    examples="atut.lab.example_bots",
    view_help=VIEW_HELP,
    reason="atut.analysis:ace_ten_reason",
    deal_bound=1000,                                # a contract at the bid cap
    uct_c=100.0,
    actions=every_action,
)
