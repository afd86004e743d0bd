"""Trick-taking helpers shared by the games."""

from __future__ import annotations

from typing import Sequence

from .cards import SUIT_OF


def trick_winner(cards: Sequence[int], trump: int | None, power: Sequence[int],
                 suit: Sequence[int] = SUIT_OF) -> int:
    """Index (into ``cards``, in play order) of the card that takes the trick.

    The highest trump wins if any trump was played, otherwise the highest card of the suit
    led; a card of another suit never wins.  ``power[c]`` orders cards within a suit (higher
    wins) and ``suit[c]`` gives each card's suit for this game (euchre's left bower, say).
    """
    led = suit[cards[0]]
    best = 0
    best_key = (2 if suit[cards[0]] == trump else 1, power[cards[0]])
    for i in range(1, len(cards)):
        c = cards[i]
        s = suit[c]
        if s == trump:
            k = (2, power[c])
        elif s == led:
            k = (1, power[c])
        else:
            continue
        if k > best_key:
            best, best_key = i, k
    return best


def deal_round_robin(deck: Sequence[int], first_seat: int, seats: Sequence[int], per_seat: int,
                     n: int) -> tuple[list[int], int]:
    """Deal one card at a time to ``seats`` (in that order, starting at ``first_seat``'s place)
    until each has ``per_seat``; returns (hand masks indexed by seat for ``n`` seats, cards used)."""
    hands = [0] * n
    order = list(seats)
    k = order.index(first_seat)
    order = order[k:] + order[:k]
    i = 0
    for _ in range(per_seat):
        for s in order:
            hands[s] |= 1 << deck[i]
            i += 1
    return hands, i
