"""Twelve: a small two-player game that lives only in the tests, to show that a game needs
nothing outside its own module (``docs/ADDING_A_GAME.md``).

Rules: twelve cards (A K Q of four suits); each player gets five, two lie aside face down. The
player left of the dealer leads; the other must follow suit if he can; the higher card of the
suit led takes the trick (no trumps) and its taker leads next. After five tricks the one who
took more wins; one deal is the game.

``register()`` adds it to ``atut.games`` (``unregister()`` takes it away again).
"""

from __future__ import annotations

import random
import sys

import atut
from atut import botkit
from atut import cards as C
from atut.bots.generic import Knowledge, deal_hidden
from atut.game import Game
from atut.games import GameSpec
from atut.tricks import winning

RANKS = ("A", "K", "Q")
DECK = C.deck(RANKS)
POWER = [0] * 48
for _c in DECK:
    POWER[_c] = 3 - RANKS.index(C.CODES[_c][:-1])
VALUE = [0] * 48                                 # tricks count, not card points
HAND = 5


class Twelve(Game):
    GAME_ID = "twelve"
    PLAYERS = (2,)
    OPTIONS: dict = {}
    STATE_FIELDS = ("hands", "aside", "trick", "tricks_won")

    @classmethod
    def deck_for(cls, players):
        return list(DECK)

    def _start(self, deck):
        self._deal(deck if deck is not None else self.shuffled())

    def _deal(self, deck):
        self.deal_no += 1
        self.new_deal_log()
        first = self.next_seat(self.dealer)
        self.hands = [0, 0]
        for i in range(2 * HAND):
            self.hands[(first + i) % 2] |= 1 << deck[i]
        self.aside = C.mask_of(deck[2 * HAND:])
        self.trick: list[tuple[int, int]] = []
        self.tricks_won = [0, 0]
        self.phase = "play"
        self.to_move = first
        self.record({"type": "deal", "dealer": self.dealer, "deck": C.codes(deck)}, [])
        for s in range(2):
            self.record({"type": "hand", "seat": s, "cards": C.codes(C.cards_of(self.hands[s]))},
                        [s])

    def _legal(self):
        hand = self.hands[self.to_move]
        if self.trick:
            follow = hand & C.SUIT_MASK[C.SUIT_OF[self.trick[0][1]]]
            hand = follow or hand                 # must follow suit if he can
        return [{"type": "play", "card": C.CODES[c]} for c in C.cards_of(hand)]

    def _apply(self, action):
        seat, c = self.to_move, C.card(action["card"])
        self.hands[seat] &= ~(1 << c)
        self.trick.append((seat, c))
        if len(self.trick) < 2:
            self.to_move = self.next_seat(seat)
            return
        w = winning(self.trick, None, POWER)[0]
        self.tricks_won[w] += 1
        self.record({"type": "trick", "winner": w,
                     "cards": [C.CODES[x] for _, x in self.trick]})
        self.trick = []
        self.to_move = w
        if self.hands[w]:
            return
        self.winner = max(range(2), key=lambda s: self.tricks_won[s])
        self.scores[self.winner] += 1
        self.record({"type": "deal_over", "winner": self.winner,
                     "tricks": list(self.tricks_won)})
        self.phase = "over"
        self.to_move = None

    def _view(self, v, seat):
        if seat is not None:
            v["hand"] = C.codes(C.cards_of(self.hands[seat]))
        v["trick"] = [{"seat": s, "card": C.CODES[c]} for s, c in self.trick]
        v["tricks_won"] = list(self.tricks_won)
        v["seats"] = [{"seat": s, "cards": C.count(self.hands[s]), "tricks": self.tricks_won[s],
                       "points": self.tricks_won[s]} for s in range(2)]


GAME = Twelve


# --- a tiny bot plug-in (atut/bots/interface.py): level 2's rules and level 3's sampling ------

def rule_policy(view, rng):
    """Win the trick as cheaply as possible, else throw the cheapest card."""
    legal = view["legal_actions"]
    cards = [a["card"] for a in legal]
    if view["trick"]:
        best = view["trick"][0]["card"]
        winners = [c for c in cards if botkit.beats(c, best, view)]
        if winners:
            return legal[cards.index(min(winners, key=lambda c: botkit.strength(c, view)))]
    return legal[cards.index(botkit.cheapest(cards, view))]


def determinize(view, rng: random.Random):
    """The other hand and the two cards aside, dealt from the cards this seat has not seen."""
    k = Knowledge(view)
    other = 1 - k.seat
    size = view["seats"][other]["cards"]
    dealt = deal_hidden(k, {other: size, "aside": C.count(k.unseen) - size}, rng)
    hands = [0, 0]
    hands[k.seat], hands[other] = dealt[k.seat], dealt[other]
    return Twelve.sampled(view, rng, hands=hands, aside=dealt["aside"], trick=list(k.trick),
                          tricks_won=list(view["tricks_won"]))


SPEC = GameSpec(
    id="twelve",
    game=Twelve,
    names={"en": "Twelve", "pl": "Dwanaście"},
    words={"en": {"phase.play": "Play", "phase.over": "Game over",
                  "rules": "2 players, 12 cards. Follow suit; take more tricks."},
           "pl": {"phase.play": "Rozgrywka", "phase.over": "Koniec gry",
                  "rules": "2 graczy, 12 kart. Dokładaj do koloru; weź więcej lew."}},
    bots=sys.modules[__name__],
    view_help={"tricks_won": ("Tricks taken per seat.", "Lewy wzięte przez każde miejsce.")},
    one_deal=True,
    deal_bound=5,
    uct_c=2.0,
)


def register():
    return atut.games.register(SPEC)


def unregister():
    atut.games.unregister(SPEC.id)
