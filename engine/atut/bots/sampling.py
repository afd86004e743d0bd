"""Helpers for a plug-in's ``determinize``: where hidden cards may be and dealing them."""

from __future__ import annotations

import random

from ..cards import SUIT_MASK


def possible_cards(seat: int, s: int, hand: int, unseen: int, voids: list[int],
                   known: list[int]) -> int:
    """Cards seat ``s`` may hold, as seen by ``seat``: its own hand if ``s == seat``, else the
    unseen cards of the suits ``s`` has not shown void in (``voids[s]``: a 4-bit suit mask)
    plus the cards known to be in its hand (``known[s]``)."""
    if s == seat:
        return hand
    m = unseen
    for su in range(4):
        if voids[s] >> su & 1:
            m &= ~SUIT_MASK[su]
    return m | known[s]


def sample_cards(cards: list[int], sizes: dict, allowed: dict, rng: random.Random) -> dict:
    """Deal ``cards`` (ints) at random into places: ``sizes[place]`` cards each (the sizes must
    add up to ``len(cards)``), a card going only to a place whose ``allowed[place]`` bit mask
    holds it (a place missing from ``allowed`` takes anything).  Returns ``{place: mask}``.

    Voids, cards known to be elsewhere etc. become ``allowed`` masks.  Random with retries,
    most constrained cards first; if no retry succeeds, a matching that respects every
    constraint is searched exhaustively; ``ValueError`` if none exists."""
    places = list(sizes)
    if sum(sizes.values()) != len(cards):
        raise ValueError(f"sample_cards: {len(cards)} cards for places of sizes {sizes}")
    full = -1
    ok = {c: [q for q in places if (allowed.get(q, full) >> c) & 1] for c in cards}
    order = sorted(cards, key=lambda c: len(ok[c]))
    for _ in range(30):
        left = dict(sizes)
        out = {q: 0 for q in places}
        shuffled = list(order)
        rng.shuffle(shuffled)
        shuffled.sort(key=lambda c: len(ok[c]))           # stable: random within equal freedom
        for c in shuffled:
            opts = [q for q in ok[c] if left[q] > 0]
            if not opts:
                break
            # weight by remaining capacity: close to a uniform deal when unconstrained
            total = sum(left[q] for q in opts)
            r = rng.randrange(total)
            for q in opts:
                r -= left[q]
                if r < 0:
                    break
            out[q] |= 1 << c
            left[q] -= 1
        else:
            return out
    # exhaustive: augmenting-path matching over place slots
    slots = [q for q in places for _ in range(sizes[q])]
    owner: list[int | None] = [None] * len(slots)

    def augment(c, seen):
        for i, q in enumerate(slots):
            if i in seen or not (allowed.get(q, full) >> c) & 1:
                continue
            seen.add(i)
            if owner[i] is None or augment(owner[i], seen):
                owner[i] = c
                return True
        return False

    cs = list(cards)
    rng.shuffle(cs)
    for c in cs:
        if not augment(c, set()):
            raise ValueError("sample_cards: no deal satisfies the constraints")
    out = {q: 0 for q in places}
    for i, q in enumerate(slots):
        out[q] |= 1 << owner[i]
    return out
