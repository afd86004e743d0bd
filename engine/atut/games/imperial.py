"""Imperial (Polish *imperium*, French *l'Impériale*) for 2 or 3 players.

Rules: ``docs/rules/imperial.md`` (this project's rules notes); the rule ids cited here
(G1..G19, E1..E16) are its ids.  An illegal action's message names the rule that refuses it
(``Game.explain``).

``scores`` counts points; 24 points make one imperial, the game is to 5 imperials = 120 (G16).

Each deal: deal and trump (G3), then the automatic, public declarations in the order of G12
(turned honour, imperials, the point, honours in hand), then 12 tricks (G13) with the
honour-lead bonus (G14), then the trick bonus (G15).  The win is checked after every single
scoring event (G16); the game may end in the middle of the declarations or of the play.

Phases: ``play`` (the only decision: which card to play) and ``over``.
"""

from __future__ import annotations

from .. import cards as C
from ..game import Game, canonical, score_line
from ..tricks import trick_winner
from . import GameSpec

# G1: 7..K with 2 players, 6..K with 3 players
RANKS = {2: ("A", "10", "K", "Q", "J", "9", "8", "7"),
         3: ("A", "10", "K", "Q", "J", "9", "8", "7", "6")}
DECKS = {n: C.deck(r) for n, r in RANKS.items()}
# play order, high to low: K Q J A 10 9 8 7 6 (¶1, G13)
ORDER = (C.KING, C.QUEEN, C.JACK, C.ACE, C.TEN, C.NINE, C.EIGHT, C.SEVEN, C.SIX)
POWER = [0] * 48
VALUE = [0] * 48                                              # G10: A 11, K Q J 10, others face
_FACE = {C.ACE: 11, C.TEN: 10, C.KING: 10, C.QUEEN: 10, C.JACK: 10, C.NINE: 9, C.EIGHT: 8,
         C.SEVEN: 7, C.SIX: 6}
for _c in DECKS[3]:
    POWER[_c] = 9 - ORDER.index(C.rank_of(_c))
    VALUE[_c] = _FACE[C.rank_of(_c)]
# the cards in display order: suit by suit (S C D H), high to low in this game's order
DISPLAY = tuple(C.make(r, s) for s in range(4) for r in ORDER)
DISPLAY_RANK = [99] * 48
for _i, _c in enumerate(DISPLAY):
    DISPLAY_RANK[_c] = _i
DECK_MASK = {n: C.mask_of(d) for n, d in DECKS.items()}

HAND = 12                                                     # ¶2
UNIT = 24                                                     # ¶3: 24 points = 1 imperial
TARGET = 5 * UNIT                                             # G16: 5 imperials = 120
BONUS = 4                                                     # the seed's counter of 4 points
LOW = {2: C.SEVEN, 3: C.SIX}                                  # G4, G6: the 7 or the 6


def _suit_patterns(n):
    """Per suit: the suit-imperial patterns (G6) as masks, K Q J A first, then Q J A 7/6."""
    out = []
    for s in range(4):
        out.append((C.mask_of(C.make(r, s) for r in (C.KING, C.QUEEN, C.JACK, C.ACE)),
                    C.mask_of(C.make(r, s) for r in (C.QUEEN, C.JACK, C.ACE, LOW[n]))))
    return out


SUIT_PATTERNS = {n: _suit_patterns(n) for n in (2, 3)}
# G6: four of a rank: K, Q, J, A and the 7 (2 players) or the 6 (3 players)
RANK_PATTERNS = {n: [(r, C.mask_of(C.make(r, s) for s in range(4)))
                     for r in (C.KING, C.QUEEN, C.JACK, C.ACE, LOW[n])] for n in (2, 3)}
# G4: honours are the trump K, Q, J and the 7 (2 players) / 6 (3 players); not the ace
HONOUR_RANKS = {n: (C.KING, C.QUEEN, C.JACK, LOW[n]) for n in (2, 3)}
HONOURS = {(n, t): C.mask_of(C.make(r, t) for r in HONOUR_RANKS[n]) for n in (2, 3)
           for t in range(4)}
# the reasons of the rule check of a play (G13), built once: [seat][led suit] and
# [seat][led suit][trump]; the refusal adds the cards allowed
MUST_FOLLOW = tuple(tuple(f"G13: seat {s} must follow the led suit {C.SUITS[u]}" for u in range(4))
                    for s in range(3))
MUST_TRUMP = tuple(tuple(tuple(f"G13: seat {s} has no {C.SUITS[u]} and must play a trump "
                               f"{C.SUITS[t]}" for t in range(4)) for u in range(4))
                   for s in range(3))


def display(mask: int) -> list[str]:
    """Card codes of a mask, suit by suit, high to low in this game's order."""
    cs = C.cards_of(mask)
    cs.sort(key=DISPLAY_RANK.__getitem__)
    return [C.CODES[c] for c in cs]


def find_imperials(hand: int, n: int, trump: int, extra: int = 0) -> list[tuple]:
    """The imperials of a hand (G6), as ``(kind, mask, units)`` with kind ``"suit"``/``"rank"``.

    ``extra`` is the turned card's bit for the dealer with 2 players (G7, the open imperial);
    it counts only for this detection.  A pattern held without the turned card is preferred.
    """
    out = []
    full = hand | extra
    for s in range(4):
        found = 0
        for pat in SUIT_PATTERNS[n][s]:                       # at most one per suit (G6, E5)
            if hand & pat == pat:
                found = pat
                break
        if not found and extra:
            for pat in SUIT_PATTERNS[n][s]:
                if full & pat == pat:
                    found = pat
                    break
        if found:
            out.append(("suit", found, 2 if s == trump else 1))   # G6: double in trumps
    for _r, pat in RANK_PATTERNS[n]:
        if full & pat == pat:
            out.append(("rank", pat, 1))                      # G6: one unit, trump or not
    return out


def best_suit(hand: int) -> tuple[int, int]:
    """G10: (length, value total) of the longest suit, the higher total among equal lengths."""
    best = (0, 0)
    for s in range(4):
        m = hand & C.SUIT_MASK[s]
        if m:
            cs = C.cards_of(m)
            k = (len(cs), sum(VALUE[c] for c in cs))
            if k > best:
                best = k
    return best


def _copy(item: dict) -> dict:
    """A summary item for a view: nobody holding the view can change the game through it."""
    return {k: list(x) if type(x) is list else x for k, x in item.items()}


# the summary items that become score lines, and the rule of each (G5-G15)
LINE_RULES = {"turned_honour": "G5", "imperial": "G6", "imperials_beaten": "G8",
              "best_suit": "G10", "point": "G10", "honours": "G11", "honour_lead": "G14",
              "tricks_bonus": "G15"}


class Imperial(Game):
    GAME_ID = "imperial"
    PLAYERS = (2, 3)                                          # G1
    OPTIONS: dict = {}
    STATE_FIELDS = ("sheet", "prev_deal", "hands", "trump_card", "unused", "trump", "start_hands",
                    "revealed", "taken", "tricks_won", "trick", "last_trick", "last_winner",
                    "leader", "deal_points", "summary")

    @classmethod
    def deck_for(cls, players):
        return list(DECKS[players])

    # --- deal (G2, G3) and declarations (G5-G12) --------------------------------------------

    def _start(self, deck):
        self.sheet: list[list[int]] = []                      # per deal: points gained per seat
        self.prev_deal: list[dict] = []                       # the last deal's recap (summary)
        self._deal(deck if deck is not None else self.shuffled())

    def _deal(self, deck):
        n = self.n
        self.deal_no += 1
        self.new_deal_log()
        first = self.next_seat(self.dealer)
        self.hands = [0] * n
        for i in range(n * HAND):                             # G3: one at a time, dealer last
            self.hands[(first + i) % n] |= 1 << deck[i]
        if n == 2:
            self.trump_card = deck[n * HAND]                  # G3: d[24] turned face up
            self.unused = C.mask_of(deck[n * HAND + 1:])      # G3: d[25..31], never used
        else:
            self.trump_card = deck[n * HAND - 1]              # G3: the dealer's last card, shown
            self.unused = 0
        self.trump = C.suit_of(self.trump_card)
        self.start_hands = list(self.hands)
        self.revealed = [0] * n                               # G9: cards shown from each hand
        if n == 3:
            self.revealed[self.dealer] |= 1 << self.trump_card
        self.taken = [0] * n                                  # cards of the tricks each took
        self.tricks_won = [0] * n
        self.trick: list[tuple[int, int]] = []
        self.last_trick: list[tuple[int, int]] = []
        self.last_winner: int | None = None
        self.leader = first                                   # ¶8: dealer's left leads first
        self.deal_points = [0] * n
        self.sheet.append([0] * n)
        self.summary: list[dict] = []                         # the public declarations + bonuses
        self.phase = "play"
        self.to_move = first
        self.record({"type": "deal", "dealer": self.dealer, "deck": C.codes(deck)}, [])
        if n == 2:
            self.record({"type": "trump_turned", "card": C.code(self.trump_card)})
        else:
            self.record({"type": "trump_shown", "seat": self.dealer,
                         "card": C.code(self.trump_card)})
        for s in range(n):
            self.record({"type": "hand", "seat": s, "cards": display(self.hands[s])}, [s])
        self._declare()

    def _order(self):
        """G12: inside each step the dealer first, then clockwise."""
        return [(self.dealer + k) % self.n for k in range(self.n)]

    def _declare(self):
        """G12 steps (1)-(4); stops as soon as somebody has won (G16)."""
        n, trump, order = self.n, self.trump, self._order()
        if n == 2:
            self.summary.append({"key": "trump_turned", "card": C.code(self.trump_card),
                                 "trump": C.SUITS[trump]})
        else:
            self.summary.append({"key": "trump_shown", "seat": self.dealer,
                                 "card": C.code(self.trump_card), "trump": C.SUITS[trump]})
        # (1) G5: the turned honour, 2 players only
        if n == 2 and C.rank_of(self.trump_card) in HONOUR_RANKS[2]:
            d = self.dealer
            self.summary.append({"key": "turned_honour", "seat": d,
                                 "card": C.code(self.trump_card), "points": BONUS})
            self.record({"type": "turned_honour", "seat": d, "card": C.code(self.trump_card),
                         "points": BONUS, "rule": "G5"})
            if self._score([(d, BONUS)]):
                return
        # (2) G6-G8: imperials, compared; the open imperial for the dealer (G7)
        found = {}
        for s in order:
            extra = 1 << self.trump_card if (n == 2 and s == self.dealer) else 0
            found[s] = find_imperials(self.hands[s], n, trump, extra)
        units = {s: sum(u for _, _, u in found[s]) for s in order}
        top = max(units.values())
        if top == 0:
            self.summary.append({"key": "no_imperials"})
            self.record({"type": "no_imperials", "rule": "G8"})
        else:
            gains = []
            for s in order:
                if units[s] != top:
                    continue
                for kind, mask, u in found[s]:
                    open_ = n == 2 and bool(mask >> self.trump_card & 1)
                    in_trump = kind == "suit" and u == 2
                    self.revealed[s] |= mask & self.hands[s]
                    label = ("open_" if open_ else "") + ("trump" if in_trump else kind)
                    item = {"seat": s, "kind": kind, "label": label, "cards": display(mask),
                            "trump": in_trump, "open": open_, "units": u, "points": u * UNIT}
                    self.summary.append({"key": "imperial", **item})
                    self.record({"type": "imperial", **item, "rule": "G7" if open_ else "G6"})
                gains.append((s, top * UNIT))
            others = [s for s in order if units[s] != top]
            if others:
                self.summary.append({"key": "imperials_beaten", "seats": others})
            if self._score(gains):
                return
        # (3) G10: the point
        best = {s: best_suit(self.hands[s]) for s in order}
        for s in order:
            self.summary.append({"key": "best_suit", "seat": s,
                                 "length": best[s][0], "value": best[s][1]})
        top_pt = max(best.values())
        winners = [s for s in order if best[s] == top_pt]
        pts = BONUS if len(winners) == 1 else BONUS // 2
        for s in winners:
            self.summary.append({"key": "point", "seat": s, "length": top_pt[0],
                                 "value": top_pt[1], "points": pts})
            self.record({"type": "point", "seat": s, "length": top_pt[0], "value": top_pt[1],
                         "points": pts, "rule": "G10"})
        if self._score([(s, pts) for s in winners]):
            return
        # (4) G11: honours in hand, 4 each; one event per player, dealer first
        hon = HONOURS[(n, trump)]
        for s in order:
            held = self.hands[s] & hon
            k = C.count(held)
            self.revealed[s] |= held
            item = {"seat": s, "cards": display(held), "points": BONUS * k}
            self.summary.append({"key": "honours" if k else "no_honours", **item})
            if k:
                self.record({"type": "honours", **item, "rule": "G11"})
                if self._score([(s, BONUS * k)]):
                    return

    def _score(self, gains: list[tuple[int, int]]) -> bool:
        """One scoring event; G16: True (and the game is over) if somebody reached 120."""
        for s, p in gains:
            self.scores[s] += p
            self.deal_points[s] += p
            self.sheet[-1][s] += p
        reached = [s for s, _ in gains if self.scores[s] >= TARGET]
        if not reached:
            return False
        # G16: the higher total wins; equal totals: the first handled (gains are in G12 order)
        w = reached[0]
        for s in reached[1:]:
            if self.scores[s] > self.scores[w]:
                w = s
        self.winner = w
        self.phase = "over"
        self.to_move = None
        if self._recording:
            self.record({"type": "game_over", "winner": w, "scores": list(self.scores),
                         "rule": "G16", "lines": self._lines()})
        return True

    def _lines(self):
        """The deal's score lines so far, in the order they scored (G12; docs/ENGINE.md),
        from the public summary: a line with ``score`` for each item that scored, and the
        best suits behind the point (G9, G10) and the imperials that lost (G8) to explain."""
        lines = []
        for x in self.summary:
            key = x["key"]
            rule = LINE_RULES.get(key)
            if rule is None:
                continue
            if key == "imperial" and x["open"]:
                rule = "G7"
            args = {k: v for k, v in x.items() if k not in ("key", "seat", "seats")}
            seats = x["seats"] if "seats" in x else [x["seat"]]
            lines.append(score_line(rule, key, seats, x.get("points"), **_copy(args)))
        return lines

    # --- legal actions (G13) ------------------------------------------------------------

    # One check states the rule of a play once (``_playable``, G13, G19): ``_legal`` takes the
    # cards it allows, ``_explain`` the reason it gives for the others.

    def _playable(self, seat):
        """The mask of the cards ``seat`` may play now and the reason for a held card outside it
        (``None`` when there is none): any lead (G19); follow suit, else trump, else any (G13)."""
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            led = C.SUIT_OF[trick[0][1]]
            follow = hand & C.SUIT_MASK[led]
            if follow:
                if follow != hand:
                    return follow, MUST_FOLLOW[seat][led]
            else:
                trumps = hand & C.SUIT_MASK[self.trump]
                if trumps and trumps != hand:
                    return trumps, MUST_TRUMP[seat][led][self.trump]
        return hand, None

    def _legal(self):
        cs = C.cards_of(self._playable(self.to_move)[0])
        cs.sort(key=DISPLAY_RANK.__getitem__)
        return [{"type": "play", "card": C.CODES[c]} for c in cs]

    def _explain(self, action, legal):
        """Why a play is illegal: a malformed field, a card in nobody's hand (G1, G3), or the
        reason of the rule check ``_playable`` (G13) with the cards it allows."""
        seat = self.to_move
        if action.get("type") != "play":
            return super()._explain(action, legal)
        bad = f"illegal action {canonical(action)}: "
        if "card" not in action:
            return bad + "a play needs a 'card'"
        extra = sorted(str(k) for k in action if k not in ("type", "card"))
        if extra:
            return bad + f"an imperial play names only its 'card' (no {', '.join(extra)})"
        code = action["card"]
        if type(code) is not str or code not in C.CARD:
            return super()._explain(action, legal)
        c = C.CARD[code]
        if not DECK_MASK[self.n] >> c & 1:
            return bad + f"G1: there are no {C.RANKS[C.rank_of(c)]}s with {self.n} players"
        if self.n == 2 and c == self.trump_card:
            return bad + f"G3: {code} is the turned trump card, beside the pack in nobody's hand"
        if not self.hands[seat] >> c & 1:
            return super()._explain(action, legal)            # does not hold it
        mask, why = self._playable(seat)
        if not mask >> c & 1:
            return bad + f"{why} ({' '.join(display(mask))})"
        return super()._explain(action, legal)

    # --- apply --------------------------------------------------------------------------

    def _apply(self, a):
        seat = self.to_move
        c = C.CARD[a["card"]]
        self.hands[seat] &= ~(1 << c)
        self.trick.append((seat, c))
        if len(self.trick) == 1:
            if HONOURS[(self.n, self.trump)] >> c & 1:        # G14: leading a trump honour
                self.summary.append({"key": "honour_lead", "seat": seat,
                                     "card": a["card"], "points": BONUS})
                self.record({"type": "honour_lead", "seat": seat, "card": a["card"],
                             "points": BONUS, "rule": "G14"})
                if self._score([(seat, BONUS)]):              # E15: won at once
                    return
        if len(self.trick) < self.n:
            self.to_move = self.next_seat(seat)
            return
        cards = [x for _, x in self.trick]
        w = self.trick[trick_winner(cards, self.trump, POWER)][0]   # G13
        self.tricks_won[w] += 1
        for x in cards:
            self.taken[w] |= 1 << x
        self.record({"type": "trick", "winner": w, "cards": C.codes(cards),
                     "leader": self.trick[0][0]})
        self.last_trick = self.trick
        self.last_winner = w
        self.trick = []
        if self.hands[w]:
            self.leader = w
            self.to_move = w
            return
        # after the 12th trick: G15, the trick bonus
        for s in self._order():
            t = self.tricks_won[s]
            if t > 6:
                pts = 2 * BONUS if t == HAND else BONUS
                self.summary.append({"key": "tricks_bonus", "seat": s, "tricks": t,
                                     "points": pts})
                self.record({"type": "tricks_bonus", "seat": s, "tricks": t, "points": pts,
                             "rule": "G15"})
                if self._score([(s, pts)]):
                    return
        if self._recording:
            self.record({"type": "deal_over", "points": list(self.deal_points),
                         "tricks": list(self.tricks_won), "scores": list(self.scores),
                         "rule": "G12", "lines": self._lines()})
        leads = [0] * self.n
        for x in self.summary:
            if x["key"] == "honour_lead":
                leads[x["seat"]] += 1
        self.prev_deal = [{"key": "last_deal", "seat": s, "deal": self.deal_no,
                           "points": self.deal_points[s], "tricks": self.tricks_won[s],
                           "honour_leads": leads[s]} for s in range(self.n)]
        self.dealer = self.next_seat(self.dealer)             # G2: the deal passes left
        self._next_deal()

    # --- checks -------------------------------------------------------------------------

    def check_invariants(self):
        """Cards conserved; scores = the sum of the score sheet; the win rule (G16)."""
        n = self.n
        held = 0
        count = 0
        parts = self.hands + self.taken + [1 << c for _, c in self.trick]
        if n == 2:
            parts += [1 << self.trump_card, self.unused]
        for m in parts:
            assert not held & m, "a card is in two places"
            held |= m
            count += m.bit_count()
        assert held == DECK_MASK[n] and count == len(DECKS[n]), "cards not conserved"
        taken = 0
        for s in range(n):
            assert self.hands[s] & ~self.start_hands[s] == 0, "a card appeared in a hand"
            assert self.revealed[s] & ~self.start_hands[s] == 0, "revealed a card not held"
            assert self.scores[s] == sum(row[s] for row in self.sheet), "scores inconsistent"
            taken += self.taken[s].bit_count()
        assert sum(self.tricks_won) * n == taken
        if self.phase == "over":
            assert self.winner is not None and self.scores[self.winner] >= TARGET
            assert self.to_move is None
        else:
            assert max(self.scores) < TARGET, "somebody reached 120 and the game goes on"
            assert self.winner is None
            k = len(self.trick)
            size = (self.hands[self.leader].bit_count() + (k > 0))
            for i in range(1, n):
                assert (self.hands[(self.leader + i) % n].bit_count() + (k > i)) == size, \
                    "hands out of step"

    # --- view (G9, ¶5 of the rules file) ------------------------------------------------

    def _view(self, v, seat):
        n = self.n
        v["trump"] = C.SUITS[self.trump]
        v["hand"] = display(self.hands[seat]) if seat is not None else []
        v["trump_card"] = C.code(self.trump_card)             # 2p: turned; 3p: dealer's shown card
        v["trump_card_in_hand"] = n == 3                      # 3p: it stays in the dealer's hand
        v["leader"] = self.leader
        v["trick"] = [{"seat": s, "card": C.CODES[c]} for s, c in self.trick]
        v["last_trick"] = ({"cards": [{"seat": s, "card": C.CODES[c]} for s, c in self.last_trick],
                            "winner": self.last_winner} if self.last_trick else None)
        v["seats"] = [{
            "seat": s,
            "cards": C.count(self.hands[s]),
            "tricks": self.tricks_won[s],
            # G18: shown as imperials + points (the page prints it as it is); ints beside it
            "points": f"{self.scores[s] // UNIT} imp. + {self.scores[s] % UNIT}",
            "imperials": self.scores[s] // UNIT,
            "rest": self.scores[s] % UNIT,
        } for s in range(n)]
        # G9: what the declarations revealed of each hand, still held or already played
        v["revealed"] = [display(self.revealed[s]) for s in range(n)]
        if n == 2:
            v["piles"] = [{"id": "unused", "count": C.count(self.unused)}]  # G3: hidden
        # copies down to the lists inside (cards, seats), which the log's events share
        v["summary"] = [_copy(x) for x in self.summary] + [
            {"key": "score", "seat": s, "imperials": self.scores[s] // UNIT,
             "points": self.scores[s] % UNIT, "total": self.scores[s]} for s in range(n)] + [
            _copy(x) for x in self.prev_deal]
        # one row per deal (points gained), then the totals as imperials + points (G18)
        v["score_sheet"] = {"columns": ["deal", *range(n)],
                            "rows": [[i + 1, *row] for i, row in enumerate(self.sheet)] + [
                                ["Σ", *(f"{x // UNIT} imp. + {x % UNIT}" for x in self.scores)]]}
        v["deal_points"] = list(self.deal_points)
        v["target"] = TARGET
        v["unit"] = UNIT


GAME = Imperial


# The lab's help for this game's own view fields (atut.lab.help): {key: (English, Polish)}
VIEW_HELP = {
    "trump_card": ("The card that made trump: turned up (2 players) or the dealer's last "
                   "card, shown (3 players).",
                   "Karta wyznaczająca atut: odkryta (2 graczy) lub ostatnia karta "
                   "rozdającego, pokazana (3 graczy)."),
    "trump_card_in_hand": ("Whether the trump card stays in the dealer's hand (3 players).",
                           "Czy karta atutowa zostaje w ręce rozdającego (3 graczy)."),
    "revealed": ("Per seat, the cards its declarations showed (still held or played).",
                 "Dla każdego miejsca karty pokazane przy deklaracjach (w ręce lub "
                 "zagrane)."),
    "piles": ("The unused cards, face down (2 players).",
              "Niewykorzystane karty, zakryte (2 graczy)."),
    "deal_points": ("The points each seat has gained in this deal: a list.",
                    "Punkty zdobyte przez każde miejsce w tym rozdaniu: lista."),
    "unit": ("Points to an imperial (24).", "Punktów na jeden imperiał (24)."),
    "scores": ("The match totals in points (24 points make an imperial).",
               "Wynik meczu w punktach (24 punkty to jeden imperiał)."),
}


SPEC = GameSpec(
    id=GAME.GAME_ID,
    game=GAME,
    names={"en": "Imperial", "pl": "Imperial"},
    bots="atut.bots.imperial",
    examples="atut.lab.example_bots",
    view_help=VIEW_HELP,
    review_scale=50.0,
    reason="atut.analysis:imperial_reason",
    deal_bound=120,                                 # one deal's declarations and tricks
    uct_c=20.0,
    keep_public=("summary",),
)
