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
    most constrained cards first (each card to a place drawn by the places' remaining
    capacity: close to a uniform deal when unconstrained); if no retry succeeds, a matching
    that respects every constraint (``match_cards``); ``ValueError`` if none exists.  The
    search's sampling spends much of its time here: the loop is written for speed."""
    places = list(sizes)
    if sum(sizes.values()) != len(cards):
        raise ValueError(f"sample_cards: {len(cards)} cards for places of sizes {sizes}")
    full = -1
    ok = {c: [q for q in places if (allowed.get(q, full) >> c) & 1] for c in cards}
    freedom = {c: len(q) for c, q in ok.items()}
    by_freedom = freedom.__getitem__
    order = sorted(cards, key=by_freedom)
    even = len(set(freedom.values())) <= 1       # the stable sort below would change nothing
    randrange = rng.randrange
    for _ in range(30):
        left = dict(sizes)
        out = dict.fromkeys(places, 0)
        shuffled = list(order)
        rng.shuffle(shuffled)
        if not even:
            shuffled.sort(key=by_freedom)        # stable: random within equal freedom
        for c in shuffled:
            opts = []
            total = 0
            for q in ok[c]:
                x = left[q]
                if x > 0:
                    opts.append(q)
                    total += x
            if not opts:
                break
            r = randrange(total)                 # weighted by the remaining capacity
            for q in opts:
                r -= left[q]
                if r < 0:
                    break
            out[q] |= 1 << c
            left[q] -= 1
        else:
            return out
    return match_cards(cards, sizes, allowed, rng)


def match_cards(cards: list[int], sizes: dict, allowed: dict, rng: random.Random) -> dict:
    """``sample_cards``'s last resort, also for the plug-ins' own samplers: a deal that respects
    every constraint, by an augmenting-path matching over the places' slots (in the order of
    ``sizes``); ``ValueError`` if none exists."""
    full = -1
    slots = [q for q in sizes for _ in range(sizes[q])]
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
    out = {q: 0 for q in sizes}
    for i, q in enumerate(slots):
        out[q] |= 1 << owner[i]
    return out
