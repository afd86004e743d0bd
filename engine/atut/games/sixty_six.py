"""66 (Sześćdziesiąt sześć) for 2 to 4 players, each for himself.

Rules: ``docs/rules/sixty_six.md`` (this project's rules notes); the rule ids cited here
(G1..G15, E1..E11) are its ids.  An illegal action's message names the rule that refuses it
(``Game.explain``).

One deal is one game (G14): ``scores`` counts deals won, so the winner has 1.

Phases: ``play`` (lead, optionally declaring a marriage or first exchanging the trump 9;
then the others follow) and ``over``.
"""

from __future__ import annotations

from .. import cards as C
from ..game import Game, canonical, score_line
from ..tricks import winning
from . import GameSpec

RANKS = C.ACE_TEN_RANKS                                      # G2: A > 10 > K > Q > J > 9
POINTS = C.ACE_TEN_POINTS                                    # the ace-ten family's tables
POWER = C.ACE_TEN_POWER
VALUE = C.ACE_TEN_VALUE
DECK = C.deck(RANKS)
# Action dicts are built once; ``_legal()`` hands out copies.
PLAY = {c: {"type": "play", "card": C.CODES[c]} for c in DECK}
MELD = {c: {"type": "play", "card": C.CODES[c],
            "meld": C.CODES[C.make(C.QUEEN if C.rank_of(c) == C.KING else C.KING, C.suit_of(c))]}
        for c in DECK if C.rank_of(c) in (C.KING, C.QUEEN)}
PARTNER = {c: C.make(C.QUEEN if C.rank_of(c) == C.KING else C.KING, C.suit_of(c)) for c in MELD}
MARRIAGE_CARDS = C.mask_of(PARTNER)
KINGS = C.mask_of(c for c in PARTNER if C.rank_of(c) == C.KING)
QUEENS = MARRIAGE_CARDS & ~KINGS
MELD_FLAG = 64
EXCHANGE_MOVE = 128
ACTION = {EXCHANGE_MOVE: {"type": "exchange"}, **PLAY,
          **{c + MELD_FLAG: a for c, a in MELD.items()}}
# the move of an action by its fields (``SixtySix._find_legal``): type, card, meld, field count
MOVE_OF = {(a["type"], a.get("card"), a.get("meld"), len(a)): m for m, a in ACTION.items()}
# listed as: exchange first, then each card in hand order, its marriage play right after it
MOVE_ORDER = {m: k for k, m in enumerate(
    [EXCHANGE_MOVE] + [x for c in DECK for x in (c, c + MELD_FLAG) if x in ACTION])}
TARGET = 66                                                   # G11
HAND_SIZE = {2: 6, 3: 6, 4: 5}                                # G3
SUIT_NAME = ("spades", "clubs", "diamonds", "hearts")
# The reasons the rule checks give, built once so that the search path formats nothing:
MUST_FOLLOW = tuple(tuple(f"G8: seat {s} must follow {SUIT_NAME[u]} (the stock is gone)"
                          for u in range(4)) for s in range(4))          # [seat][led suit]
NOT_LEADING = ("G9: a marriage is declared only by the player leading a trick",) * 48
NO_MELD = tuple(tuple(f"G9: seat {s} does not hold {C.CODES[PARTNER[c]]}: no marriage"
                      if c in PARTNER else "G9: a marriage is declared by leading a king or queen"
                      for c in range(48)) for s in range(4))             # [seat][card]
LEAD_ONLY = "G10: only the player about to lead may exchange the trump 9, before his lead"
DRAWN = "G10: the trump card has been drawn: no exchange once the stock is gone"
NO_NINE = tuple(tuple(f"G10: seat {s} does not hold the trump 9 ({C.CODES[C.make(C.NINE, t)]})"
                      for t in range(4)) for s in range(4))              # [seat][trump]


class SixtySix(Game):
    GAME_ID = "sixty_six"
    PLAYERS = (2, 3, 4)                                       # G1
    OPTIONS: dict = {}
    STATE_FIELDS = ("hands", "trump_card", "trump", "stock", "trick", "last_trick", "last_winner",
                    "leader", "points", "captured", "tricks_won", "marriages", "exchanged",
                    "deal_winner")

    @classmethod
    def deck_for(cls, players):
        return list(DECK)

    # --- deal (G3, G4) ----------------------------------------------------------------

    def _start(self, deck):
        self._deal(deck if deck is not None else self.shuffled())

    def _deal(self, deck):
        n = self.n
        self.deal_no += 1
        self.new_deal_log()
        h = HAND_SIZE[n]
        first = self.next_seat(self.dealer)
        self.hands = [0] * n
        for i in range(n * h):                                # G3: one at a time from the left
            self.hands[(first + i) % n] |= 1 << deck[i]
        self.trump_card = deck[n * h]                         # face up under the stock
        self.trump = C.suit_of(self.trump_card)
        self.stock = list(reversed(deck[n * h + 1:]))         # face-down; the last is drawn next
        self.trick: list[tuple[int, int]] = []
        self.last_trick: list[tuple[int, int]] = []
        self.last_winner: int | None = None
        self.leader = first                                   # ¶3: dealer's left leads
        self.points = [0] * n
        self.captured = [0] * n
        self.tricks_won = [0] * n
        self.marriages: list[tuple[int, int, int]] = []       # (seat, suit, value)
        self.exchanged: tuple[int, int] | None = None         # (seat, trump card taken)
        self.deal_winner: int | None = None
        self.phase = "play"
        self.to_move = first
        self.record({"type": "deal", "dealer": self.dealer, "deck": C.codes(deck)}, [])
        self.record({"type": "trump_card", "card": C.code(self.trump_card)})
        for s in range(n):
            self.record({"type": "hand", "seat": s, "cards": C.codes(C.cards_of(self.hands[s]))},
                        [s])

    @property
    def stock_count(self) -> int:
        """Cards still to draw: the face-down pile plus the face-up trump card."""
        return len(self.stock) + (self.trump_card is not None)

    # --- legal moves ----------------------------------------------------------------------
    # One check per action type states its rule once: ``_playable`` for a play (which cards,
    # G6, G8; which may lead declaring their marriage, G9) and ``_may_exchange`` (G10).  Each
    # says what is allowed and the reason for what is not; ``_moves`` takes the first,
    # ``_explain`` the second.  The reasons are built once (``MUST_FOLLOW`` ...).
    # The search path works on int moves: a card int (play), card + MELD_FLAG (play declaring
    # the marriage), or EXCHANGE_MOVE.  ``_legal``/``_apply`` translate to and from action dicts.

    def _playable(self, seat):
        """The check of a play: ``(cards, why, melds, meld_why)``: the mask of the cards ``seat``
        may play now and the reason for a held card outside it (``None`` when there is none);
        the mask of the kings and queens he may lead declaring their marriage and, per card,
        the reason for a held card outside that one.

        Leading: any card (G6, G8) and a marriage by a king or queen whose partner he holds
        (G9).  Following: no marriage (G9); any card while the stock lasts (G6), after it the
        led suit if he has it (G8)."""
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            return hand, None, hand & ((hand >> 1 & KINGS) | (hand << 1 & QUEENS)), NO_MELD[seat]
        if self.trump_card is None:
            led = C.SUIT_OF[trick[0][1]]
            follow = hand & C.SUIT_MASK[led]
            if follow and follow != hand:
                return follow, MUST_FOLLOW[seat][led], 0, NOT_LEADING
        return hand, None, 0, NOT_LEADING

    def _may_exchange(self, seat):
        """G10: ``None`` when ``seat`` may exchange the trump 9 for the trump card now (about to
        lead, holding the trump 9, the trump card still on the table), else the reason."""
        if self.trick:
            return LEAD_ONLY
        if self.trump_card is None:
            return DRAWN
        if not self.hands[seat] >> (self.trump * 11 + C.NINE) & 1:
            return NO_NINE[seat][self.trump]
        return None

    def _moves(self):
        seat = self.to_move
        cards, _, melds, _ = self._playable(seat)                       # G6, G8, G9
        out = C.cards_of(cards)
        if self._may_exchange(seat) is None:                            # G10
            out.append(EXCHANGE_MOVE)
        if melds:
            out += [c + MELD_FLAG for c in C.cards_of(melds)]
        return out

    def _listed_moves(self):
        """``_moves()`` in the listed order (``MOVE_ORDER``): the exchange first, then each card
        in hand order, its marriage play right after it."""
        seat = self.to_move
        cards, _, melds, _ = self._playable(seat)
        out = [EXCHANGE_MOVE] if self._may_exchange(seat) is None else []
        if not melds:
            out += C.cards_of(cards)
            return out
        for c in C.cards_of(cards):
            out.append(c)
            if melds >> c & 1:
                out.append(c + MELD_FLAG)
        return out

    def _legal(self):
        # fresh dicts (ENGINE.md): the one applied goes into ``history`` and the public
        # ``events``, and must not be the shared table entry of every game
        return [ACTION[m].copy() for m in self._listed_moves()]

    # The public path on int moves: the base class's cache of the current state's legal
    # actions (``_cache``, cleared by every ``apply``) holds the listed int moves, not dicts;
    # ``legal_actions`` copies the table's dicts from it and ``apply`` finds the action by its
    # move instead of comparing it with every legal dict (``Game._find_legal``: equal, values
    # of the same types).

    def _listed(self):
        moves = self._cache
        if moves is None:
            moves = self._cache = self._listed_moves()
        return moves

    def _legal_now(self):
        return [ACTION[m].copy() for m in self._listed()]

    def legal_actions(self):
        if self.to_move is None:
            return []
        return [ACTION[m].copy() for m in self._listed()]

    def _find_legal(self, action):
        try:
            m = MOVE_OF.get((action.get("type"), action.get("card"), action.get("meld"),
                             len(action)))
        except TypeError:                       # an unhashable value: no action of 66
            return None
        if m is None or m not in self._listed():
            return None
        a = ACTION[m]
        for k in a:
            if type(action[k]) is not str:      # equal, but of another type: not the action
                return None
        return a.copy()

    def _apply(self, a):
        if a["type"] == "exchange":
            self._do(EXCHANGE_MOVE)
        else:
            self._do(C.CARD[a["card"]] + (MELD_FLAG if "meld" in a else 0))

    def _do(self, m):
        seat = self.to_move
        if m == EXCHANGE_MOVE:                                          # G10, E5, E11
            nine = C.make(C.NINE, self.trump)
            self.hands[seat] = (self.hands[seat] & ~(1 << nine)) | (1 << self.trump_card)
            self.exchanged = (seat, self.trump_card)
            self.record({"type": "exchange", "seat": seat, "took": C.code(self.trump_card),
                         "gave": C.code(nine), "rule": "G10"})
            self.trump_card = nine
            return
        c = m & 63
        self.hands[seat] &= ~(1 << c)
        trick = self.trick
        trick.append((seat, c))
        if len(trick) == 1:
            self.last_trick = []
            if m >= MELD_FLAG:                                          # G9, E4, E8
                value = 40 if C.SUIT_OF[c] == self.trump else 20
                self.points[seat] += value
                self.marriages.append((seat, C.SUIT_OF[c], value))
                self.record({"type": "marriage", "seat": seat,
                             "cards": [C.CODES[c], C.CODES[PARTNER[c]]], "value": value,
                             "rule": "G9"})
                if self.points[seat] >= TARGET:                         # G11: at once
                    self._end(seat, "66")
                    return
        if len(trick) < self.n:
            self.to_move = (seat + 1) % self.n
            return
        self._finish_trick()

    def _finish_trick(self):
        trick = self.trick
        w = winning(trick, self.trump, POWER)[0]                        # G5
        pts = 0
        got = 0
        for _, c in trick:
            pts += VALUE[c]
            got |= 1 << c
        self.captured[w] |= got
        self.points[w] += pts
        self.tricks_won[w] += 1
        if self._recording:
            self.record({"type": "trick", "winner": w, "cards": [C.CODES[c] for _, c in trick],
                         "leader": trick[0][0]})
        self.last_trick = trick
        self.last_winner = w
        self.trick = []
        if self.points[w] >= TARGET:                                    # G11, E7: no draw
            self._end(w, "66")
            return
        if not self.hands[w]:                                           # G12, E9
            self._end(w, "last_trick")
            return
        if self.trump_card is not None:                                 # G7: draws
            n = self.n
            hands = self.hands
            stock = self.stock
            for k in range(n):
                s = (w + k) % n
                if stock:
                    hands[s] |= 1 << stock.pop()
                else:
                    c = self.trump_card                                 # drawn last
                    self.trump_card = None
                    # the stock is gone: from now on the suit led must be followed (G8)
                    self.record({"type": "trump_drawn", "seat": s, "card": C.code(c),
                                 "rule": "G8"})
                    hands[s] |= 1 << c
            if self._recording:
                self.record({"type": "draw", "stock": self.stock_count})
        self.leader = w
        self.to_move = w

    def _explain(self, action, legal):
        """Why an action is not legal: a malformed field, or the reason of the rule check
        (``_playable``, ``_may_exchange``) that refuses it."""
        t = action.get("type")
        seat = self.to_move
        bad = f"illegal action {canonical(action)}: "
        if t == "exchange":
            extra = sorted(map(str, set(action) - {"type"}))
            if extra:
                return bad + f"an exchange has no other fields (got {', '.join(extra)})"
            why = self._may_exchange(seat)
            if why is not None:
                return bad + why
        elif t == "play":
            extra = sorted(map(str, set(action) - {"type", "card", "meld"}))
            if extra:
                return bad + (f"unknown field {', '.join(extra)} (a play has 'card' and, when "
                              "declaring a marriage, 'meld')")
            if "card" not in action:
                return bad + "a play needs a 'card' (a card code such as \"AH\")"
            try:
                c = C.card(action["card"])
            except ValueError as e:
                return bad + f"'card': {e}"
            if c not in PLAY:
                return bad + f"{C.code(c)} is not in the 66 deck (A 10 K Q J 9)"
            if not self.hands[seat] >> c & 1:
                return bad + f"seat {seat} does not hold {C.code(c)}"
            cards, why, melds, meld_why = self._playable(seat)
            if "meld" in action:
                if not melds >> c & 1:
                    return bad + meld_why[c]
                m, p = action["meld"], C.CODES[PARTNER[c]]
                if m != p:
                    return bad + (f"the marriage of {C.code(c)} is declared with "
                                  f"\"meld\": \"{p}\" (G9), not {m!r}")
            if not cards >> c & 1:
                return bad + why
        return super()._explain(action, legal)

    def _end(self, seat, reason):
        self.deal_winner = seat
        self.scores[seat] += 1                                          # G14
        self.winner = seat
        self.phase = "over"
        self.to_move = None
        if self._recording:
            self.record({"type": "deal_over", "winner": seat, "reason": reason,
                         "points": list(self.points), "rule": "G14",
                         "lines": self._lines(seat, reason)})

    def _lines(self, seat, reason):
        """The deal's score lines (docs/ENGINE.md): each player's card points (G11) and
        marriages (G9), how the winner won (G11: 66 reached; G12: the last trick) and the
        deal won, the game's one point (G14)."""
        lines = []
        for s in range(self.n):
            pts = sum(VALUE[c] for c in C.cards_of(self.captured[s]))
            lines.append(score_line("G11", "card_points", [s], points=pts,
                                    tricks=self.tricks_won[s]))
        for s, suit, value in self.marriages:
            lines.append(score_line("G9", "marriage", [s], suit=C.SUITS[suit], value=value,
                                    trump=suit == self.trump))
        total = self.points[seat]
        if reason == "66":
            lines.append(score_line("G11", "reached_66", [seat], total=total, target=TARGET))
        else:
            lines.append(score_line("G12", "last_trick", [seat], total=total))
        lines.append(score_line("G14", "game_won", [seat], 1))
        return lines

    def check_invariants(self):
        """24 cards accounted for; totals = captured card points + marriages."""
        held = 0
        n_cards = 0
        for m in self.hands + self.captured:
            assert not held & m, "a card is in two places"
            held |= m
            n_cards += C.count(m)
        for c in self.stock + [c for _, c in self.trick]:
            assert not held >> c & 1, "a card is in two places"
            held |= 1 << c
            n_cards += 1
        if self.trump_card is not None:
            assert not held >> self.trump_card & 1
            held |= 1 << self.trump_card
            n_cards += 1
        assert n_cards == 24 and held == C.mask_of(DECK), "cards not conserved"
        for s in range(self.n):
            melds = sum(v for ms, _, v in self.marriages if ms == s)
            card_pts = sum(VALUE[c] for c in C.cards_of(self.captured[s]))
            assert self.points[s] == card_pts + melds, "points inconsistent"
        assert sum(VALUE[c] for c in DECK) == 120
        if self.phase == "over":
            assert sorted(self.scores) == [0] * (self.n - 1) + [1]

    # --- view (G15) ---------------------------------------------------------------------

    def _trick_items(self, trick):
        """A trick as the view shows it; a lead that declared a marriage carries its ``meld``
        (G9, G15: both cards are public).  The shown trick is made of the last plays."""
        items = [{"seat": s, "card": C.code(c)} for s, c in trick]
        if items:
            k = 0
            for a in reversed(self.history):          # an exchange comes only before a lead
                if a["type"] == "play":
                    k += 1
                    if k == len(items):
                        if "meld" in a and a["card"] == items[0]["card"]:
                            items[0]["meld"] = a["meld"]
                        break
        return items

    def _view(self, v, seat):
        over = self.phase == "over"
        v["trump"] = C.SUITS[self.trump]
        v["hand"] = C.codes(C.cards_of(self.hands[seat])) if seat is not None else []
        v["trump_card"] = C.code(self.trump_card) if self.trump_card is not None else None
        v["stock"] = self.stock_count
        v["leader"] = self.leader
        v["trick"] = self._trick_items(self.trick)
        v["last_trick"] = ({"cards": self._trick_items(self.last_trick),
                            "winner": self.last_winner} if self.last_trick else None)
        v["marriages"] = [{"seat": s, "suit": C.SUITS[su], "value": val}
                          for s, su, val in self.marriages]
        v["seats"] = [{
            "seat": s,
            "cards": C.count(self.hands[s]),
            "tricks": self.tricks_won[s],
            # G15: a player sees only his own total; all are shown once the deal is over
            "points": self.points[s] if (s == seat or over) else None,
        } for s in range(self.n)]
        if seat is not None:
            v["captured"] = C.codes(C.cards_of(self.captured[seat]))
        v["target"] = TARGET
        v["deal_winner"] = self.deal_winner


GAME = SixtySix


def every_action(players: int) -> list[dict]:
    """Every action beside a plain card play that a deal can produce (``atut.openspiel``'s
    action table)."""
    return [{"type": "exchange"}] + [
        {"type": "play", "card": C.CODES[c], "meld": C.CODES[PARTNER[c]]}
        for c in sorted(SixtySix.deck_for(players)) if c in PARTNER]


# The lab's help for this game's own view fields (atut.lab.help): {key: (English, Polish)}
VIEW_HELP = {
    "trump_card": ("The trump card under the stock, or null once it has been drawn.",
                   "Karta atutowa pod talonem albo null, gdy już ją dobrano."),
    "stock": ("How many cards are left in the stock (0: follow suit from now on).",
              "Ile kart zostało w talonie (0: od teraz trzeba dokładać do koloru)."),
    "captured": ("The cards you have taken in tricks so far.",
                 "Karty, które dotąd wziąłeś w lewach."),
    "deal_winner": ("The seat that won the deal once it is decided, else null.",
                    "Miejsce, które wygrało rozdanie, gdy to rozstrzygnięte, inaczej null."),
    "seats": ("One entry per seat: cards in hand, tricks taken, and points (only your "
              "own until the deal is over).",
              "Jeden wpis na miejsce: karty w ręce, wzięte lewy i punkty (tylko twoje, "
              "dopóki rozdanie trwa)."),
    "scores": ("Deals won per seat (66 is one deal a game).",
               "Wygrane rozdania na miejsce (w 66 gra to jedno rozdanie)."),
}


SPEC = GameSpec(
    id=GAME.GAME_ID,
    game=GAME,
    names={"en": "Sixty-Six", "pl": "Sześćdziesiąt sześć"},
    bots="atut.bots.sixty_six",
    examples="atut.lab.example_bots",
    view_help=VIEW_HELP,
    win_measure=True,                               # a deal won counts 1 (G14)
    reason="atut.analysis:ace_ten_reason",
    one_deal=True,                                  # G14
    deal_points="points",
    deal_bound=3,                                   # three game points (G14)
    uct_c=2.0,
    actions=every_action,
)
