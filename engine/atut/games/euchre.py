"""Euchre: four players in two fixed pairs (seats 0+2 against 1+3), game to 10.

Rules: ``docs/rules/euchre.md`` (this project's rules notes); the rule ids cited here
(G1..G17, E1..E10) are its ids.  An illegal action's message names the rule that refuses it
(``Game.explain``).

Phases of a deal:

``round1``  from the dealer's left each seat may ``order_up`` the upcard's suit or ``pass`` (G7)
``discard`` the dealer, holding the upcard as a sixth card, ``discard``\\s one card face down (G9)
``round2``  from the dealer's left each seat may ``name`` a suit other than the upcard's or
            ``pass``; the dealer cannot pass (stick the dealer, G8) unless ``redeal`` is on
``alone``   the maker says ``alone`` true or false (G10)
``defend``  only after a lone maker: each defender from the maker's left may ``defend_alone``
``play``    five tricks among the active seats (G12, G13); then scoring (G14) and the next deal
            (G2) or the end of the game (G15)

``scores`` holds each seat's pair total (seats 0 and 2 show team A's, 1 and 3 team B's).
"""

from __future__ import annotations

from .. import cards as C
from ..game import Game, IllegalAction, canonical, score_line
from . import GameSpec

RANKS = ("A", "K", "Q", "J", "10", "9")
DECK = C.deck(RANKS)
DECK_MASK = C.mask_of(DECK)
TARGET = 10                                                   # G15 / seed ¶18
SAME_COLOUR = (C.CLUBS, C.SPADES, C.HEARTS, C.DIAMONDS)       # G4: S<->C, D<->H
PLAIN_POWER = {C.ACE: 6, C.KING: 5, C.QUEEN: 4, C.JACK: 3, C.TEN: 2, C.NINE: 1}
TRUMP_POWER = {C.ACE: 18, C.KING: 17, C.QUEEN: 16, C.TEN: 15, C.NINE: 14}
RIGHT, LEFT = 20, 19


def _tables():
    """Per trump suit t: EFF[t][c] the suit card c counts as (G5), POWER[t][c] its rank
    (every trump above every plain card, G4), SUITS_EFF[t][s] the mask of cards counting as s."""
    eff, power, masks = [], [], []
    for t in range(4):
        e = [C.NO_SUIT] * 48
        p = [0] * 48
        for c in DECK:
            s, r = C.suit_of(c), C.rank_of(c)
            if r == C.JACK and s == t:
                e[c], p[c] = t, RIGHT                         # right bower
            elif r == C.JACK and s == SAME_COLOUR[t]:
                e[c], p[c] = t, LEFT                          # left bower: a trump (G5)
            elif s == t:
                e[c], p[c] = t, TRUMP_POWER[r]
            else:
                e[c], p[c] = s, PLAIN_POWER[r]
        eff.append(tuple(e))
        power.append(tuple(p))
        masks.append(tuple(C.mask_of(c for c in DECK if e[c] == s) for s in range(4)))
    return tuple(eff), tuple(power), tuple(masks)


EFF, POWER, EFF_MASK = _tables()
PLAY = tuple({"type": "play", "card": C.CODES[c]} if c in DECK else None for c in range(48))
DISCARD = tuple({"type": "discard", "card": C.CODES[c]} if c in DECK else None for c in range(48))
FIELDS = {"order_up": set(), "pass": set(), "name": {"suit"}, "discard": {"card"},
          "alone": {"value"}, "defend_alone": {"value"}, "play": {"card"}}
ORDER_UP, PASS, NAME = 48, 49, 50                             # NAME + suit: 50..53
ALONE_YES, ALONE_NO, DEFEND_YES, DEFEND_NO = 54, 55, 56, 57
ACTION = tuple(
    [PLAY[c] for c in range(48)] + [{"type": "order_up"}, {"type": "pass"}]
    + [{"type": "name", "suit": s} for s in C.SUITS]
    + [{"type": "alone", "value": True}, {"type": "alone", "value": False},
       {"type": "defend_alone", "value": True}, {"type": "defend_alone", "value": False}])
DISCARD = DISCARD + ACTION[48:]
# the public API's actions as moves: (type, value of its one field) or the type alone -> move
FIELD = {"play": ("card", str), "discard": ("card", str), "name": ("suit", str),
         "alone": ("value", bool), "defend_alone": ("value", bool)}
MOVE_OF = {("play", C.CODES[c]): c for c in DECK} | {("discard", C.CODES[c]): c for c in DECK}
MOVE_OF.update({"order_up": ORDER_UP, "pass": PASS, ("alone", True): ALONE_YES,
                ("alone", False): ALONE_NO, ("defend_alone", True): DEFEND_YES,
                ("defend_alone", False): DEFEND_NO})
MOVE_OF.update({("name", C.SUITS[s]): NAME + s for s in range(4)})
# the moves of the calling phases (tuples: ``_moves()`` results are read, never changed):
# ROUND1[may pass], ROUND2[mask of the suits that may be named][may pass]
ROUND1 = ((ORDER_UP,), (ORDER_UP, PASS))
ROUND2 = tuple((tuple(NAME + s for s in range(4) if names >> s & 1),
                tuple(NAME + s for s in range(4) if names >> s & 1) + (PASS,))
               for names in range(16))
# the action types of each phase; inside it, the rule checks (``_playable`` ...) decide
PHASE_TYPES = {"round1": ("order_up", "pass"), "round2": ("name", "pass"),
               "discard": ("discard",), "alone": ("alone",), "defend": ("defend_alone",),
               "play": ("play",), "over": ()}
# the reasons the rule checks give, built once so that the search path formats nothing:
# MUST_FOLLOW[seat][led suit, or 4 when trumps are led] (G5, G6), REFUSED[upcard suit] (G8)
MUST_FOLLOW = tuple(tuple(f"G6: seat {s} must follow the led suit ({what}; the left bower "
                          "counts as a trump, G5)" for what in (*C.SUITS, "trumps"))
                    for s in range(4))
REFUSED = tuple(f"G8: the upcard's suit ({C.SUITS[up]}) was refused in round one and cannot be "
                "named" for up in range(4))
STUCK = "G8: the dealer is stuck: he must name a suit and cannot pass"
ALONE = (ALONE_YES, ALONE_NO)
DEFEND = (DEFEND_YES, DEFEND_NO)
# The cards of a hand mask: a euchre suit s holds bits 11*s .. 11*s + 5 (A 10 K Q J 9).
_SIX = tuple(tuple(tuple(11 * s + i for i in range(6) if m >> i & 1) for m in range(64))
             for s in range(4))


def cards_of(h):
    """``C.cards_of`` for euchre hands (lowest int first), as a tuple."""
    s0, s1, s2, s3 = _SIX
    return s0[h & 63] + s1[h >> 11 & 63] + s2[h >> 22 & 63] + s3[h >> 33 & 63]


# random.shuffle's steps for 24 cards: swap d[i] with d[j], j drawn below i + 1 from
# getrandbits((i + 1).bit_length()), redrawn while too large
SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in reversed(range(1, 24)))

# the next active seat clockwise after each seat, per set of seats sitting out (bit s = out)
NEXT_ACTIVE = tuple(tuple(next(((s + k) & 3 for k in (1, 2, 3, 4) if not o >> ((s + k) & 3) & 1),
                               s) for s in range(4)) for o in range(16))

# G3: the seat receiving deck[i], i < 20, per dealer: packets of 3 then of 2 from his left
DEAL_SEATS = tuple(tuple((d + 1 + i // 3) & 3 for i in range(12))
                   + tuple((d + 1 + i // 2) & 3 for i in range(8)) for d in range(4))
PHASES = ("round1", "discard", "round2", "alone", "defend", "play", "over")


def team_of(seat: int) -> int:
    return seat & 1                                           # G1: 0 = seats 0+2, 1 = seats 1+3


def trick_rank(cards, trump):
    """Index of the winning card of a trick (G13): highest trump, else highest of the led suit."""
    eff, power = EFF[trump], POWER[trump]
    led = eff[cards[0]]
    best, bp = 0, power[cards[0]]
    for i in range(1, len(cards)):
        c = cards[i]
        s = eff[c]
        if (s == trump or s == led) and power[c] > bp:
            best, bp = i, power[c]
    return best


def deal_points(maker_tricks: int, alone: bool, lone_defender: bool) -> tuple[int, int]:
    """G14: (who scores: 0 = makers, 1 = defenders, points)."""
    if maker_tricks == 5:
        return 0, 4 if alone else 2
    if maker_tricks >= 3:
        return 0, 1
    return 1, 4 if (alone and lone_defender) else 2


def trick_winner(trick: list, t: int) -> int:
    """The seat that wins ``trick`` (``(seat, card)`` pairs, in play order) with trump ``t``:
    the highest trump, else the highest card of the led suit (G13)."""
    eff, power = EFF[t], POWER[t]
    w, best = trick[0]
    led = eff[best]
    bp = power[best]
    for s, x in trick[1:]:
        e = eff[x]
        if (e == t or e == led) and power[x] > bp:
            w, bp = s, power[x]
    return w


class Euchre(Game):
    GAME_ID = "euchre"
    PLAYERS = (4,)                                            # G1
    OPTIONS = {"redeal": (False, True), "defend_alone": (True, False)}
    STATE_FIELDS = ("sheet", "last_result", "last_trick", "last_winner", "hands", "upcard", "kitty",
                    "up_state", "discarded", "trump", "maker", "alone", "lone_defender", "out",
                    "calls", "trick", "tricks_won", "played", "nxt", "active", "leader")

    @classmethod
    def deck_for(cls, players):
        return list(DECK)

    def shuffled(self):
        """``random.shuffle`` of the deck, step for step (the same draws from the same RNG, so
        the same deals as the base class's), without its per-card function calls."""
        d = list(DECK)
        getrandbits = self.rng.getrandbits
        for i, k in SHUFFLE_STEPS:
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            d[i], d[j] = d[j], d[i]
        return d

    # --- deal (G2, G3) ------------------------------------------------------------------

    def _start(self, deck):
        self.sheet: list[tuple] = []                           # one row per finished deal
        self.last_result: dict | None = None
        self.last_trick: list[tuple[int, int]] = []
        self.last_winner: int | None = None
        self._deal(deck if deck is not None else self.shuffled())

    def _deal(self, deck):
        self.deal_no += 1
        self.new_deal_log()
        d = self.dealer
        hands = [0, 0, 0, 0]
        for s, c in zip(DEAL_SEATS[d], deck):                 # G3: packets of 3, then 2
            hands[s] |= 1 << c
        self.hands = hands
        self.upcard = deck[20]
        self.kitty = (1 << deck[21]) | (1 << deck[22]) | (1 << deck[23])  # never used
        self.up_state = "shown"                               # shown / taken / turned
        self.discarded = -1
        self.trump: int | None = None
        self.maker: int | None = None
        self.alone = False
        self.lone_defender: int | None = None
        self.out = [False, False, False, False]               # sitting out this deal
        self.calls: list[tuple] = []                          # (seat, type, suit or None)
        self.trick: list[tuple[int, int]] = []
        self.last_trick = []                                  # no card of an old deal shown
        self.last_winner = None
        self.tricks_won = [0, 0, 0, 0]
        self.played = 0
        self.nxt = [1, 2, 3, 0]
        self.active = 4
        self.leader = (d + 1) & 3
        self.phase = "round1"
        self.to_move = (d + 1) & 3                            # G7: dealer's left speaks first
        if self._recording:
            self.record({"type": "deal", "dealer": d, "deck": C.codes(deck)}, [])
            for s in range(4):
                self.record({"type": "hand", "seat": s,
                             "cards": C.codes(C.cards_of(hands[s]))}, [s])
            self.record({"type": "upcard", "card": C.CODES[self.upcard]})

    # --- legal actions ------------------------------------------------------------------

    # A phase has its action types (``PHASE_TYPES``); inside it one check per action type
    # states the rule once and says what is allowed and the reason for what is not:
    # ``_playable`` (G5, G6), ``_discardable`` (G9), ``_nameable`` (G8), ``_may_pass`` (G7, G8).
    # ``order_up`` (G7), ``alone`` and ``defend_alone`` (G10, either value) have no condition
    # beyond their phase.  ``_moves`` takes what is allowed, ``_explain`` the reasons.
    # The search path works on int moves: a card int (a play, or the dealer's discard in
    # phase ``discard``), or one of ORDER_UP, PASS, NAME + suit, ALONE_YES/NO, DEFEND_YES/NO.
    # ``_moves()`` returns a tuple (shared constants in the calling phases: do not change it).
    # ``_legal``/``_apply`` translate to and from action dicts (same order as the moves).

    def _playable(self, seat):
        """G5, G6: the mask of the cards ``seat`` may play now (the led effective suit if he
        has it, the left bower counting as a trump; else any) and the reason for a held card
        outside it (``None`` when there is none)."""
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            t = self.trump
            led = EFF[t][trick[0][1]]
            follow = hand & EFF_MASK[t][led]
            if follow and follow != hand:
                return follow, MUST_FOLLOW[seat][4 if led == t else led]
        return hand, None

    def _discardable(self, seat):
        """G9: the mask of the cards the dealer may discard (any of his six, the upcard
        included) and the reason for a held card outside it (there is none: ``None``)."""
        return self.hands[seat], None

    def _nameable(self, seat):
        """G8: the mask of the suits ``seat`` may name in round two (bit s for suit s: any but
        the upcard's, refused in round one) and the reason for a suit outside it."""
        up = C.SUIT_OF[self.upcard]
        return 15 ^ 1 << up, REFUSED[up]

    def _may_pass(self, seat):
        """``None`` when ``seat`` may pass now, else the reason: in round one anybody (G7); in
        round two the dealer is stuck and must name a suit (G8), unless ``redeal`` is on."""
        if self.phase == "round2" and seat == self.dealer and not self.options["redeal"]:
            return STUCK
        return None

    def _moves(self):
        ph = self.phase
        if ph == "play":
            hand = self._playable(self.to_move)[0]            # G5, G6
            s0, s1, s2, s3 = _SIX                             # cards_of(hand), inlined
            return s0[hand & 63] + s1[hand >> 11 & 63] + s2[hand >> 22 & 63] + s3[hand >> 33 & 63]
        if ph == "round1":                                    # G7
            return ROUND1[self._may_pass(self.to_move) is None]
        if ph == "round2":                                    # G8: stuck dealer cannot pass
            seat = self.to_move
            return ROUND2[self._nameable(seat)[0]][self._may_pass(seat) is None]
        if ph == "discard":                                   # G9
            return cards_of(self._discardable(self.to_move)[0])
        if ph == "alone":                                     # G10
            return ALONE
        if ph == "defend":
            return DEFEND
        return ()

    def _legal(self):
        # fresh dicts (ENGINE.md): the one applied goes into ``history`` and ``events``
        table = DISCARD if self.phase == "discard" else ACTION
        return [table[m].copy() for m in self._moves()]

    # The public API on int moves (the base class's ``legal_actions``/``apply`` work on the
    # action dicts; these give the same results and refusals, faster): an action is legal when
    # its type is one of the phase's, its one field has the legal type (``FIELD``: a bool is
    # not an int) and its move (``MOVE_OF``) is one of ``_moves()``.

    def legal_actions(self):
        if self.to_move is None:
            return []
        table = DISCARD if self.phase == "discard" else ACTION
        return [table[m].copy() for m in self._moves()]

    def _move_of(self, action) -> int | None:
        """The move of ``action`` (a dict) if it is legal now, else ``None``."""
        t = action.get("type")
        if type(t) is not str or t not in PHASE_TYPES[self.phase]:
            return None
        f = FIELD.get(t)
        if f is None:
            if len(action) != 1:
                return None
            m = MOVE_OF.get(t)
        else:
            v = action.get(f[0])
            if len(action) != 2 or type(v) is not f[1]:
                return None
            m = MOVE_OF.get((t, v))
        return m if m is not None and m in self._moves() else None

    def apply(self, action):
        m = (self._move_of(action) if self.to_move is not None and type(action) is dict
             else None)
        if m is None:
            raise IllegalAction(self.explain(action))         # the reason, from the one place
        seat = self.to_move
        discard = self.phase == "discard"
        a = (DISCARD if discard else ACTION)[m]
        self.history.append(a.copy())
        self._cache = None
        if self._recording:
            self.record({"type": "action", "seat": seat, "action": a.copy()},
                        [seat] if discard else None)           # G9: a discard is face down
        self._do(m)

    def _explain(self, action, legal):
        """Why an action is not legal: a type of another phase, a malformed field, or the
        reason of the rule check (``_playable``, ``_nameable``, ``_may_pass``) that refuses it."""
        t = action.get("type")
        seat = self.to_move
        if type(t) is not str or t not in PHASE_TYPES[self.phase]:
            return super()._explain(action, legal)
        bad = f"illegal action {canonical(action)}: "
        extra = sorted(map(str, set(action) - {"type"} - FIELDS[t]))
        if extra:
            need = ", ".join(repr(f) for f in sorted(FIELDS[t])) or "no other fields"
            return bad + f"unknown field {', '.join(extra)} (a {t} has {need})"
        if t == "pass":
            why = self._may_pass(seat)
            if why is not None:
                return bad + why
        elif t in ("alone", "defend_alone"):
            if type(action.get("value")) is not bool:
                return bad + "'value' must be true or false (G10)"
        elif t == "name":
            s = action.get("suit")
            if type(s) is not str or s not in ("S", "C", "D", "H"):
                return bad + "'suit' must be one of \"S\", \"C\", \"D\", \"H\""
            names, why = self._nameable(seat)
            if not names >> C.SUITS.index(s) & 1:
                return bad + why
        elif t in ("play", "discard"):
            if "card" not in action:
                return bad + f"a {t} needs a 'card' (a card code such as \"AH\")"
            try:
                c = C.card(action["card"])
            except ValueError as e:
                return bad + f"'card': {e}"
            if not DECK_MASK >> c & 1:
                return bad + f"{C.CODES[c]} is not in the euchre deck (A K Q J 10 9)"
            if not self.hands[seat] >> c & 1:
                return bad + f"seat {seat} does not hold {C.CODES[c]}"
            mask, why = self._playable(seat) if t == "play" else self._discardable(seat)
            if not mask >> c & 1:
                return bad + why
        return super()._explain(action, legal)

    def _action_visible_to(self, seat, action):
        if action["type"] == "discard":                       # G9: face down, dealer only
            return [seat]
        return None

    # --- apply --------------------------------------------------------------------------

    def _apply(self, a):
        t = a["type"]
        if t == "play" or t == "discard":
            self._do(C.CARD[a["card"]])
        elif t == "name":
            self._do(NAME + C.SUITS.index(a["suit"]))
        elif t == "alone":
            self._do(ALONE_YES if a["value"] else ALONE_NO)
        elif t == "defend_alone":
            self._do(DEFEND_YES if a["value"] else DEFEND_NO)
        else:
            self._do(ORDER_UP if t == "order_up" else PASS)

    def _do(self, m):
        seat = self.to_move
        if m < 48:
            if self.phase == "play":                          # play a card
                b = 1 << m
                self.hands[seat] ^= b
                self.played |= b
                trick = self.trick
                trick.append((seat, m))
                if len(trick) < self.active:
                    self.to_move = self.nxt[seat]
                    return
                w = trick_winner(trick, self.trump)
                tw = self.tricks_won
                tw[w] += 1
                if self._recording:
                    self.record({"type": "trick", "winner": w, "leader": trick[0][0],
                                 "cards": [C.CODES[x] for _, x in trick]})
                self.last_trick = trick
                self.last_winner = w
                self.trick = []
                if tw[0] + tw[1] + tw[2] + tw[3] < 5:
                    self.leader = w
                    self.to_move = w
                    return
                self._score()
                return
            self.hands[seat] &= ~(1 << m)                     # G9: the dealer's discard
            self.discarded = m
            if self._recording:
                # the card: dealer's log only
                self.record({"type": "discarded", "seat": seat, "rule": "G9"})
            self.phase = "alone"
            self.to_move = self.maker
        elif m == PASS:
            self.calls.append((seat, "pass", self.phase == "round2"))
            if seat != self.dealer:
                self.to_move = (seat + 1) & 3
            elif self.phase == "round1":                      # G8: second round
                self.phase = "round2"
                self.up_state = "turned"                      # G9: turned down, out of play
                self.to_move = (seat + 1) & 3
                if self._recording:
                    self.record({"type": "turn_down", "card": C.CODES[self.upcard],
                                 "rule": "G8"})
            else:                                             # redeal option: thrown in
                if self._recording:
                    self.record({"type": "redeal", "dealer": self.dealer, "rule": "G8"})
                self.sheet.append((self.deal_no, None, None, 0, 0))
                self.last_result = {"redeal": True, "dealer": self.dealer}
                self.dealer = (self.dealer + 1) & 3           # G2
                self._next_deal()
        elif m == ORDER_UP:                                   # G7, G9
            self.calls.append((seat, "order_up", False))
            self.trump = C.SUIT_OF[self.upcard]
            self.maker = seat
            d = self.dealer
            self.hands[d] |= 1 << self.upcard
            self.up_state = "taken"
            self.phase = "discard"
            self.to_move = d
            if self._recording:
                self.record({"type": "trump", "suit": C.SUITS[self.trump], "maker": seat,
                             "seat": seat, "round": 1, "rule": "G7"})
                self.record({"type": "pickup", "seat": d, "card": C.CODES[self.upcard],
                             "rule": "G9"})
        elif m < ALONE_YES:                                   # G8: NAME + suit
            s = m - NAME
            self.calls.append((seat, "name", s))
            self.trump = s
            self.maker = seat
            self.phase = "alone"
            if self._recording:
                self.record({"type": "trump", "suit": C.SUITS[s], "maker": seat, "seat": seat,
                             "round": 2, "rule": "G8"})
        elif m == ALONE_YES:                                  # G10, G11
            self.alone = True
            partner = (seat + 2) & 3
            self.out[partner] = True
            if self._recording:
                self.record({"type": "sits_out", "seat": partner, "rule": "G10"})
            if self.options["defend_alone"]:
                self.phase = "defend"
                self.to_move = (seat + 1) & 3                 # G10: from the maker's left
                return
            self._start_play()
        elif m == ALONE_NO:
            self._start_play()
        elif m == DEFEND_YES:                                 # G10
            self.lone_defender = seat
            partner = (seat + 2) & 3
            self.out[partner] = True
            if self._recording:
                self.record({"type": "sits_out", "seat": partner, "rule": "G10"})
            self._start_play()
        elif seat == ((self.maker + 1) & 3):                  # DEFEND_NO: the other defender
            self.to_move = (self.maker + 3) & 3
        else:
            self._start_play()

    def _start_play(self):
        out = self.out
        k = out[0] | out[1] << 1 | out[2] << 2 | out[3] << 3
        self.nxt = list(NEXT_ACTIVE[k])
        self.active = 4 - (out[0] + out[1] + out[2] + out[3])
        lead = NEXT_ACTIVE[k][self.dealer]                    # G12: first active from the left
        self.leader = lead
        self.phase = "play"
        self.to_move = lead

    def played_tricks(self) -> int:
        tw = self.tricks_won
        return tw[0] + tw[1] + tw[2] + tw[3]

    def _score(self):                                          # G14, G15
        m = self.maker
        tw = self.tricks_won
        made = tw[m] + tw[m ^ 2]
        if made >= 3:                                         # deal_points, inlined
            team = m & 1
            pts = 1 if made < 5 else 4 if self.alone else 2
        else:
            team = 1 - (m & 1)
            pts = 4 if self.lone_defender is not None else 2
        sc = self.scores
        sc[team] += pts
        sc[team + 2] += pts
        self.sheet.append((self.deal_no, m, made, pts if team == 0 else 0, pts if team == 1 else 0))
        self.last_result = {"maker": m, "alone": self.alone, "lone_defender": self.lone_defender,
                            "tricks": made, "team": team, "points": pts}
        if self._recording:
            self.record({"type": "deal_score", "maker": m, "alone": self.alone,
                         "tricks": made, "team": team, "seats": [team, team + 2],
                         "points": pts, "scores": [sc[0], sc[1]], "rule": "G14",
                         "lines": self._lines(m, made, team, pts)})
        if sc[team] >= TARGET:                                # G15
            self.winner = [team, team + 2]
            self.phase = "over"
            self.to_move = None
            self.record({"type": "game_over", "winner": [team, team + 2],
                         "scores": [sc[0], sc[1]], "rule": "G15"})
            return
        self.dealer = (self.dealer + 1) & 3                   # G2
        self._next_deal()

    def _lines(self, maker, made, team, pts):
        """The deal's score lines (docs/ENGINE.md): the tricks each pair took, then the one
        pair that scores (G14); a pair's points stand beside both its seats."""
        pair = [maker & 1, (maker & 1) + 2]
        tw = self.tricks_won
        lines = [score_line("G14", "maker_tricks", pair, tricks=made, maker=maker,
                            alone=self.alone),
                 score_line("G14", "defender_tricks", [1 - (maker & 1), 3 - (maker & 1)],
                            tricks=sum(tw) - made)]
        if made >= 3:
            key = "march_alone" if made == 5 and self.alone else "march" if made == 5 else "made"
        else:
            key = "euchred_alone" if self.lone_defender is not None else "euchred"
        lines.append(score_line("G14", key, [team, team + 2], pts, tricks=made, points=pts))
        return lines

    # --- invariants ---------------------------------------------------------------------

    def check_invariants(self):
        """24 cards accounted for; pair scores equal and equal to the sum of the deals."""
        where = list(self.hands) + [self.kitty, self.played]
        if self.up_state != "taken":
            where.append(1 << self.upcard)
        if self.discarded >= 0:
            where.append(1 << self.discarded)
        seen = 0
        total = 0
        for m in where:
            assert not seen & m, "a card is in two places"
            seen |= m
            total += C.count(m)
        assert total == 24 and seen == DECK_MASK, "cards not conserved"
        in_trick = sum(1 for _ in self.trick)
        done = self.played_tricks()
        assert C.count(self.played) == done * self.active + in_trick, "played cards miscounted"
        sc = self.scores
        assert sc[0] == sc[2] and sc[1] == sc[3], "partners' scores differ"
        assert sc[0] == sum(r[3] for r in self.sheet) and sc[1] == sum(r[4] for r in self.sheet)
        assert all(r[3] == 0 or r[4] == 0 for r in self.sheet), "both pairs scored in a deal"
        if self.phase == "over":
            assert max(sc) >= TARGET and min(sc[0], sc[1]) < TARGET
        else:
            assert max(sc) < TARGET
        for s in range(4):
            n = C.count(self.hands[s])
            if self.phase in ("round1", "round2"):
                assert n == 5
            elif self.phase == "discard":
                assert n == (6 if s == self.dealer else 5)

    # --- view (G17) ---------------------------------------------------------------------

    def _view(self, v, seat):
        ph = self.phase
        v["trump"] = C.SUITS[self.trump] if self.trump is not None else None
        v["hand"] = C.codes(self._sorted(self.hands[seat])) if seat is not None else []
        up = C.CODES[self.upcard]
        v["upcard"] = up
        v["upcard_state"] = self.up_state                      # shown / taken / turned
        v["trump_card"] = up if self.up_state == "shown" and ph != "over" else None
        piles = []
        if self.up_state == "turned":
            piles.append({"id": "turned_down", "cards": [up]})
        piles.append({"id": "kitty", "count": 3})
        if self.discarded >= 0:
            if seat == self.dealer:
                piles.append({"id": "discard", "cards": [C.CODES[self.discarded]]})
            else:
                piles.append({"id": "discard", "count": 1})
        v["piles"] = piles
        v["teams"] = [[0, 2], [1, 3]]
        v["team_scores"] = [self.scores[0], self.scores[1]]
        v["maker"] = self.maker
        v["alone"] = self.alone
        v["lone_defender"] = self.lone_defender
        v["sitting_out"] = [s for s in range(4) if self.out[s]]
        v["leader"] = self.leader
        v["calls"] = [self._call_json(c) for c in self.calls]
        v["trick"] = [{"seat": s, "card": C.CODES[c]} for s, c in self.trick]
        v["last_trick"] = ({"cards": [{"seat": s, "card": C.CODES[c]} for s, c in self.last_trick],
                            "winner": self.last_winner} if self.last_trick else None)
        last_call = {}
        for c in self.calls:
            last_call[c[0]] = c
        seats = []
        for s in range(4):
            badges = []
            if seat is not None and s != seat:
                badges.append("partner" if (s - seat) & 1 == 0 else "opponent")
            if s == self.maker:
                badges.append("maker")
                if self.alone:
                    badges.append("alone")
            if s == self.lone_defender:
                badges.append("defends_alone")
            d = {"seat": s, "cards": C.count(self.hands[s]), "tricks": self.tricks_won[s],
                 "team": team_of(s), "sitting_out": self.out[s],
                 "badges": badges}
            if s in last_call and self.maker is None:
                c = last_call[s]
                d["bid"] = c[1] if c[1] != "name" else "name_" + C.SUITS[c[2]]
            seats.append(d)
        v["seats"] = seats
        summary = []
        if self.last_result is not None and self.played == 0 and not self.trick:
            summary.append(self._result_summary(self.last_result))
        summary.append({"key": "upcard", "card": up})
        if self.up_state == "taken":
            summary.append({"key": "picked_up", "seat": self.dealer, "card": up})
        elif self.up_state == "turned":
            summary.append({"key": "turned_down", "card": up})
        if self.maker is not None:
            summary.append({"key": "maker", "seat": self.maker, "suit": v["trump"]})
            if self.alone:
                summary.append({"key": "goes_alone", "seat": self.maker})
            if self.lone_defender is not None:
                summary.append({"key": "defends_alone", "seat": self.lone_defender})
            for s in range(4):
                if self.out[s]:
                    summary.append({"key": "sits_out", "seat": s})
            m = self.maker
            summary.append({"key": "maker_tricks",
                            "tricks": self.tricks_won[m] + self.tricks_won[(m + 2) & 3],
                            "defender_tricks": self.tricks_won[(m + 1) & 3]
                            + self.tricks_won[(m + 3) & 3]})
        if ph == "over":
            summary.append(self._result_summary(self.last_result))
        v["summary"] = summary
        rows = []
        a = b = 0
        for deal_no, maker, made, pa, pb in self.sheet:
            a += pa
            b += pb
            rows.append([deal_no, "—" if maker is None else maker,
                         "—" if made is None else made, a, b])
        v["score_sheet"] = {"columns": ["deal", "maker", "tricks", "team0", "team1"],
                            "rows": rows}
        v["target"] = TARGET
        v["last_result"] = dict(self.last_result) if self.last_result else None

    def _sorted(self, mask):
        """A hand in a readable order: by (effective) suit, highest first."""
        cs = C.cards_of(mask)
        t = self.trump
        if t is None:
            return sorted(cs, key=lambda c: (C.SUIT_OF[c], -PLAIN_POWER[C.RANK_OF[c]]))
        return sorted(cs, key=lambda c: (0 if EFF[t][c] == t else 1 + EFF[t][c], -POWER[t][c]))

    @staticmethod
    def _call_json(c):
        seat, kind, extra = c
        if kind == "name":
            return {"seat": seat, "type": "name", "suit": C.SUITS[extra]}
        if kind == "pass":
            return {"seat": seat, "type": "pass", "round": 2 if extra else 1}
        return {"seat": seat, "type": kind}

    @staticmethod
    def _result_summary(r):
        if r.get("redeal"):
            return {"key": "last_redeal", "seat": r["dealer"]}
        return {"key": "last_deal", "seat": r["maker"], "tricks": r["tricks"],
                "team": r["team"], "seats": [r["team"], r["team"] + 2], "points": r["points"]}


GAME = Euchre

__all__ = ["Euchre", "GAME", "trick_rank", "deal_points", "EFF", "POWER", "EFF_MASK"]


# --- what the other modules need (SPEC below) ---------------------------------------------------

def every_action(players: int) -> list[dict]:
    """Every action beside a plain card play that a deal can produce (``atut.openspiel``'s
    action table)."""
    codes = [C.CODES[c] for c in sorted(Euchre.deck_for(players))]
    out = [{"type": "discard", "card": c} for c in codes]
    out += [{"type": "order_up"}, {"type": "pass"}]
    out += [{"type": "name", "suit": s} for s in C.SUITS]
    out += [{"type": t, "value": v} for t in ("alone", "defend_alone") for v in (True, False)]
    return out


_PLAIN_BY_CARD = tuple(PLAIN_POWER[C.rank_of(c)] if c in DECK else 0 for c in range(48))


def botkit_tables(trump: int | None):
    """``botkit``'s (suit, power, points) per card int: the left bower counts as a trump (G5);
    before trump is made the plain ranks; euchre counts tricks, not card points."""
    if trump is None:
        return C.SUIT_OF, _PLAIN_BY_CARD, (0,) * 48
    return EFF[trump], POWER[trump], (0,) * 48


# The lab's help for this game's own view fields (atut.lab.help): {key: (English, Polish)}
VIEW_HELP = {
    "trump": ("The trump suit, or null until someone orders up or names it.",
              "Kolor atutowy albo null, dopóki ktoś go nie zamówi lub nie nazwie."),
    "upcard": ("The card turned up after the deal (round one may make its suit trump).",
               "Karta odkryta po rozdaniu (w pierwszej rundzie jej kolor może zostać "
               "atutem)."),
    "upcard_state": ("shown (still up), taken (the dealer picked it up) or turned (turned "
                     "down after round one).",
                     "shown (wciąż odkryta), taken (rozdający ją wziął) lub turned "
                     "(odwrócona po pierwszej rundzie)."),
    "trump_card": ("The upcard while it is still shown, else null.",
                   "Odkryta karta, póki leży na stole, inaczej null."),
    "teams": ("The two pairs: [[0, 2], [1, 3]]; your partner sits opposite you.",
              "Dwie pary: [[0, 2], [1, 3]]; partner siedzi naprzeciwko."),
    "team_scores": ("The two pairs' points: [pair of 0 and 2, pair of 1 and 3].",
                    "Punkty obu par: [para 0 i 2, para 1 i 3]."),
    "maker": ("The seat that made trump, or null.", "Miejsce, które ustaliło atut, albo null."),
    "alone": ("Whether the maker plays alone (the partner sits out).",
              "Czy ustalający atut gra sam (partner pauzuje)."),
    "lone_defender": ("The seat defending alone against a lone maker, or null.",
                      "Miejsce broniące się samo przeciw samotnemu graczowi albo null."),
    "sitting_out": ("The seats that sit this deal out (a lone player's partner): a list.",
                    "Miejsca pauzujące w tym rozdaniu (partner samotnego gracza): lista."),
    "calls": ("The calls of the bidding so far, in order: [{seat, type, suit?}, ...].",
              "Zapowiedzi licytacji, po kolei: [{seat, type, suit?}, ...]."),
    "piles": ("The kitty (face down), the dealer's discard (you see it if you are the "
              "dealer) and a turned-down upcard.",
              "Talonik (zakryty), karta odrzucona przez rozdającego (widzisz ją, jeśli "
              "rozdajesz) i odwrócona karta."),
    "scores": ("The match totals per seat (each seat shows its pair's points).",
               "Wynik meczu na miejsce (każde miejsce pokazuje punkty swojej pary)."),
    "winner": ("The winning pair's seats once the game is over, else null.",
               "Miejsca zwycięskiej pary po końcu gry, inaczej null."),
}


SPEC = GameSpec(
    id=GAME.GAME_ID,
    game=GAME,
    names={"en": "Euchre", "pl": "Euchre"},
    bots="atut.bots.euchre",
    examples="atut.lab.example_bots",
    view_help=VIEW_HELP,
    review_scale=4.0,
    reason="atut.analysis:euchre_reason",
    partners=True,                                  # G1: seats 0 and 2 against 1 and 3
    deal_bound=4,                                   # G14
    uct_c=2.0,
    actions=every_action,
    card_tables=botkit_tables,
)
