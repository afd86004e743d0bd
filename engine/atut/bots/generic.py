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
from . import knowledge
from .sampling import sample_cards


class Knowledge(knowledge.Knowledge):
    """A seat's knowledge from its ``view`` (``bots.knowledge``: ``seat``, ``n``, ``hand``,
    ``played``, ``unseen``, ``voids``, ``trick``, ...) and ``deck``, the deal's cards (ints)."""

    def deck_of(self, view: dict) -> int:
        from ..games import spec
        self.deck = list(spec(view["game"]).game.deck_for(self.n))
        return C.mask_of(self.deck)


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
