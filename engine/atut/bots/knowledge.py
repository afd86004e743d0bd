"""What a seat knows of the current deal, read from its view alone: the part every game's bot
shares (``Knowledge``), read once, with small named hooks for what a game's log says beyond
plain plays.  Each built-in plug-in (``bots/<game>.py``) has its ``Knowledge``, a subclass of
this one; ``bots/generic.py`` is this one with the game's deck as a list, and ``atut.botkit``
reads ``played``, ``unseen`` and ``voids`` of whichever a game has.

The reading, in order:

1. ``seat``, ``n``, ``hand``, ``deck_mask`` (``deck_of``) and empty per-seat masks, then
   ``read_view(view)``: the game's own fields that the log's reading needs (trump, ...) and
   ``seen_aside`` (cards this seat has seen in no hand: a face-up trump card, ...);
2. the log of the current deal, event by event: a ``play`` action goes to the ``play`` hook
   (by default ``shows_void``: a card off the suit led), then to ``played``, ``played_by`` and
   the trick being played; any other action to ``action``; an event of the game's
   ``GameSpec.trick_events`` to ``trick_done`` (by default: its ``cards`` to its ``winner``'s
   ``captured``); a ``no_follow`` event (a seat that did not follow the suit it names) to
   ``voids``; any other event to ``event``;
3. ``read_rest(view)``: what the game reads after the log (revealed cards, ...); then
   ``known[s]`` loses the cards played, ``known[seat]`` is the hand, and ``unseen`` is the
   deck less the hand, the cards played, the known ones and ``seen_aside``.

Cards are ints and sets of cards masks (``atut.cards``); ``voids[s]`` is a 4-bit mask of suits.

    >>> import atut
    >>> g = atut.new_game("imperial", players=2, seed=3)
    >>> g.apply(g.legal_actions()[0])                # seat 1 leads
    >>> k = Knowledge(g.view(0))
    >>> C.count(k.played), k.trick == [(1, k.played.bit_length() - 1)], k.played_by[1] == k.played
    (1, True, True)
    >>> k.unseen | k.hand | k.played == k.deck_mask     # (imperial's own reads the trump card too)
    True
"""

from __future__ import annotations

from .. import cards as C
from ..games import spec
from .sampling import possible_cards


class Knowledge:
    """A seat's knowledge of the current deal from its ``view``: ``seat``, ``n``, ``hand``,
    ``played`` (every card played this deal), ``played_by[s]``, ``voids[s]`` (suit bits seat
    ``s`` has shown it lacks), ``captured[s]`` (the cards of the tricks it won),
    ``tricks_won[s]`` (counted in the log), ``known[s]`` (cards known to be in its hand, not
    yet played; ``known[seat]`` is the hand), ``trick`` (the ``(seat, card)`` entries of the
    trick being played), ``deck_mask`` and ``unseen`` (the cards whose place is hidden)."""

    def __init__(self, view: dict):
        n = self.n = view["players"]
        self.seat = view["seat"]
        self.hand = C.mask_of(C.card(x) for x in view.get("hand") or ())
        self.played = 0
        self.played_by = [0] * n
        self.voids = [0] * n
        self.captured = [0] * n
        self.tricks_won = [0] * n
        self.known = [0] * n
        self.seen_aside = 0
        self.deck_mask = self.deck_of(view)
        self.read_view(view)
        ends = spec(view["game"]).trick_events         # the events that end a trick
        self.trick = self._read_log(view.get("log") or (), ends)
        self.read_rest(view)
        played, known = self.played, self.known
        seen = self.hand | played | self.seen_aside
        for s in range(n):
            known[s] &= ~played
        known[self.seat] = self.hand
        for m in known:
            seen |= m
        self.unseen = self.deck_mask & ~seen

    def _read_log(self, log, ends) -> list[tuple[int, int]]:
        card = C.CARD
        played_by, voids = self.played_by, self.voids
        play = self.play
        base = Knowledge.__dict__                     # (a hook left as it is: not called)
        cls = type(self)
        action = self.action if cls.action is not base["action"] else None
        event = self.event if cls.event is not base["event"] else None
        trick: list[tuple[int, int]] = []
        for e in log:
            t = e["type"]
            if t == "action":
                a = e["action"]
                if a["type"] == "play":
                    s = e["seat"]
                    c = card[a["card"]]
                    play(s, c, a, trick)
                    self.played |= 1 << c
                    played_by[s] |= 1 << c
                    trick.append((s, c))
                elif action is not None:
                    action(e["seat"], a)
            elif t in ends:
                self.trick_done(e, trick)
                trick = []
            elif t == "no_follow":
                voids[e["seat"]] |= 1 << C.SUITS.index(e["suit"])
            elif event is not None:
                event(e)
        return trick

    # --- the hooks: a game overrides those it needs ------------------------------------------

    def deck_of(self, view: dict) -> int:
        """The deal's deck as a mask (by default the game's ``deck_for``)."""
        return C.mask_of(spec(view["game"]).game.deck_for(self.n))

    def read_view(self, view: dict) -> None:
        """The game's own fields of the view, before the log is read."""

    def play(self, s: int, c: int, a: dict, trick: list) -> None:
        """Seat ``s`` plays card ``c`` (action ``a``) to ``trick`` (the cards before it);
        called before the card is added to ``played``.  By default a card off the suit led
        shows a void in it (``shows_void``)."""
        self.shows_void(s, c, trick)

    def action(self, s: int, a: dict) -> None:
        """Seat ``s`` took action ``a``, not a play."""

    def trick_done(self, e: dict, trick: list) -> None:
        """The trick ended (event ``e``, one of the game's ``trick_events``; ``trick``: its
        plays in the log): its ``cards`` go to the ``winner``'s ``captured``, which has won
        one trick more."""
        w = e.get("winner")
        if w is None:
            return
        card = C.CARD
        m = 0
        for x in e.get("cards") or ():
            m |= 1 << card[x]
        self.captured[w] |= m
        self.tricks_won[w] += 1

    def event(self, e: dict) -> None:
        """A log event that is neither an action nor the end of a trick."""

    def read_rest(self, view: dict) -> None:
        """The game's own fields read after the log (``known`` cards may be added here)."""

    # --- helpers -----------------------------------------------------------------------------

    def shows_void(self, s: int, c: int, trick: list, suit_of=C.SUIT_OF) -> bool:
        """Whether ``c``, played by ``s`` to ``trick``, is off the suit led (by ``suit_of``, a
        table of each card's suit for following); if so ``voids[s]`` gains that suit."""
        if trick:
            led = suit_of[trick[0][1]]
            if suit_of[c] != led:
                self.voids[s] |= 1 << led
                return True
        return False

    def possible(self, s: int) -> int:
        """The cards seat ``s`` may hold as far as this seat knows: known ones and unseen ones
        of suits it has not shown void in."""
        return possible_cards(self.seat, s, self.hand, self.unseen, self.voids, self.known)

    def allowed(self, s: int) -> int:
        """The deck without the suits seat ``s`` has shown void in."""
        m = self.deck_mask
        v = self.voids[s]
        for su in range(4):
            if v >> su & 1:
                m &= ~C.SUIT_MASK[su]
        return m


def determinizer_of(determinize, knowledge_class):
    """The ``determinizer`` hook (``bots.interface``) of a plug-in whose ``determinize(view, rng,
    k)`` takes the view's ``Knowledge``: the view read once per decision, each sample dealt with
    the very draws ``determinize(view, rng)`` makes (nothing it does changes ``k``)."""
    def determinizer(view: dict):
        k = knowledge_class(view)
        return lambda rng: determinize(view, rng, k)
    return determinizer
