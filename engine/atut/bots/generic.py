"""What a seat knows in a plain trick game, from its view alone, and hidden cards dealt from it:
the pieces a small game's bot plug-in needs (``docs/ADDING_A_GAME.md``).

"Plain" means: the deck is ``deck_for(players)``, a card's suit is ``cards.SUIT_OF``, every
seat must follow the suit led when it can (so a card of another suit shows a void), the view
has ``hand`` and the log of the current deal has the plays as ``{"type": "action", "seat",
"action": {"type": "play", "card"}}`` and each finished trick as one of the game's
``GameSpec.trick_events``.  The built-in games have their own plug-ins (``bots/<game>.py``).

    >>> import atut
    >>> g = atut.new_game("imperial", players=2, seed=3)
    >>> g.apply(g.legal_actions()[0])
    >>> k = Knowledge(g.view(g.to_move))
    >>> C.count(k.played), C.count(k.hand), C.count(k.unseen) + C.count(k.hand) + 1 == len(k.deck)
    (1, 12, True)
"""

from __future__ import annotations

import random

from .. import cards as C
from .sampling import possible_cards, sample_cards


class Knowledge:
    """A seat's knowledge from its ``view``: ``seat``, ``n``, ``deck`` (card ints), ``hand``,
    ``played`` (cards played this deal) and ``unseen`` (the rest) as masks, ``voids[s]`` (a
    4-bit mask of the suits seat ``s`` has shown it lacks), ``trick`` (the ``(seat, card)``
    entries of the trick being played)."""

    def __init__(self, view: dict):
        from ..games import spec
        sp = spec(view["game"])
        self.seat = view["seat"]
        self.n = view["players"]
        self.deck = list(sp.game.deck_for(self.n))
        self.hand = C.mask_of(C.card(c) for c in view.get("hand") or [])
        self.voids = [0] * self.n
        self.played = 0
        trick: list[tuple[int, int]] = []
        ends = set(sp.trick_events)
        for e in view.get("log") or []:
            t = e.get("type")
            if t == "action" and e["action"].get("type") == "play":
                c = C.card(e["action"]["card"])
                self.played |= 1 << c
                if trick and C.SUIT_OF[c] != C.SUIT_OF[trick[0][1]]:
                    self.voids[e["seat"]] |= 1 << C.SUIT_OF[trick[0][1]]
                trick.append((e["seat"], c))
            elif t in ends:
                trick = []
        self.trick = trick
        self.unseen = C.mask_of(self.deck) & ~self.hand & ~self.played

    def possible(self, s: int) -> int:
        """The cards seat ``s`` may hold as far as this seat knows."""
        return possible_cards(self.seat, s, self.hand, self.unseen, self.voids, [0] * self.n)


def deal_hidden(k: Knowledge, sizes: dict, rng: random.Random) -> dict:
    """The unseen cards dealt at random into places: ``sizes`` is ``{place: count}``, a place
    being a seat (its hand, dealt only cards of suits it has not shown void in) or anything
    else (a pile taking any card); the counts add up to ``C.count(k.unseen)``.  Returns
    ``{place: mask}`` with the seat's own hand as it is (``bots.sampling.sample_cards``)."""
    allowed = {q: k.possible(q) for q in sizes if isinstance(q, int) and q != k.seat}
    out = sample_cards(C.cards_of(k.unseen), {q: m for q, m in sizes.items() if q != k.seat},
                       allowed, rng)
    out[k.seat] = k.hand
    return out
