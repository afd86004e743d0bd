"""The trick rule shared by the games and their bots (66, tysiąc, imperial; euchre with its
effective suits and per-trump powers): the highest trump takes the trick, else the highest card
of the suit led; a card of another suit never wins."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUIT_OF


def trick_winner(cards: Sequence[int], trump: int | None, power: Sequence[int],
                 suit: Sequence[int] = SUIT_OF) -> int:
    """Index (into ``cards``, in play order) of the card that takes the trick (or, for a trick
    still being played, that holds it so far).

    ``power[c]`` orders cards within a suit (higher wins) and ``suit[c]`` gives each card's suit
    for this game (euchre's left bower, say); ``trump`` is a suit or ``None``.  The card holding
    the trick changes exactly when the next card ``beats`` it.
    """
    best = 0
    b = cards[0]
    bs = suit[b]
    for i in range(1, len(cards)):
        c = cards[i]
        s = suit[c]
        if s == bs:
            if power[c] > power[b]:
                best, b = i, c
        elif s == trump:
            best, b, bs = i, c, s
    return best


def beats(c: int, best: int, trump: int | None, power: Sequence[int],
          suit: Sequence[int] = SUIT_OF) -> bool:
    """Whether card ``c`` takes a trick whose best card so far is ``best`` (a card of the suit
    led or a trump): higher in the same suit, or a trump on a card that is not one."""
    s = suit[c]
    if s == suit[best]:
        return power[c] > power[best]
    return s == trump


def winning(trick: Sequence, trump: int | None, power: Sequence[int],
            suit: Sequence[int] = SUIT_OF):
    """The ``(seat, card)`` entry of ``trick`` (entries in play order) that takes it or holds
    it so far: ``trick_winner`` on entries instead of cards (the same loop, for speed)."""
    w = trick[0]
    b = w[1]
    bs = suit[b]
    for i in range(1, len(trick)):
        e = trick[i]
        c = e[1]
        s = suit[c]
        if s == bs:
            if power[c] > power[b]:
                w, b = e, c
        elif s == trump:
            w, b, bs = e, c, s
    return w
