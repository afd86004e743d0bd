"""Card notation shared by all five games.

A card code is rank + suit (``"AH"``, ``"10S"``, ``"PRD"``, ``"YPC"``) or one of the four
suitless cesarz cards (``"EMPEROR"``, ``"RED_JOKER"``, ``"BLACK_JOKER"``, ``"BLUE_JOKER"``).

Inside the engine a card is a small int and a hand is a bit mask of those ints:

    card = suit * 11 + rank_index      for suited cards   (0 .. 43)
    card = 44 .. 47                    for the four suitless cards

``rank_index`` follows ``RANKS`` (``A`` = 0 … ``YP`` = 10).  The index is notation only:
every game defines its own rank order and card values in tables indexed by these ints.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "SCDH"
SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7", "6", "PR", "YP")
ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN, SIX, PRINCE, YOUNG_PRINCESS = range(11)
SPECIALS = ("EMPEROR", "RED_JOKER", "BLACK_JOKER", "BLUE_JOKER")
EMPEROR, RED_JOKER, BLACK_JOKER, BLUE_JOKER = 44, 45, 46, 47
NO_SUIT = -1

CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + SPECIALS
CARD: dict[str, int] = {c: i for i, c in enumerate(CODES)}
SUIT_OF: tuple[int, ...] = tuple(i // 11 for i in range(44)) + (NO_SUIT,) * 4
RANK_OF: tuple[int, ...] = tuple(i % 11 for i in range(44)) + (-1,) * 4


def card(code: str) -> int:
    """The int of a card code; ``ValueError`` for anything that is not a card."""
    try:
        return CARD[code]
    except (KeyError, TypeError):
        raise ValueError(f"not a card code: {code!r}") from None


def code(c: int) -> str:
    return CODES[c]


def make(rank: int, suit: int) -> int:
    return suit * 11 + rank


def suit_of(c: int) -> int:
    return SUIT_OF[c]


def rank_of(c: int) -> int:
    return RANK_OF[c]


def deck(ranks: Iterable[str], specials: Iterable[str] = ()) -> list[int]:
    """All cards of the given ranks in all four suits (suit-major), then the specials."""
    rs = [RANKS.index(r) for r in ranks]
    return [make(r, s) for s in range(4) for r in rs] + [CARD[x] for x in specials]


# --- bit masks -------------------------------------------------------------------------

def bit(c: int) -> int:
    return 1 << c


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# The cards of every byte of a mask, so that ``cards_of`` is six table look-ups.
_BYTE = tuple(tuple(tuple(8 * k + i for i in range(8) if m >> i & 1) for m in range(256))
              for k in range(6))


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest int first."""
    if not mask:
        return []
    b0, b1, b2, b3, b4, b5 = _BYTE
    return [*b0[mask & 255], *b1[mask >> 8 & 255], *b2[mask >> 16 & 255],
            *b3[mask >> 24 & 255], *b4[mask >> 32 & 255], *b5[mask >> 40 & 255]]


def count(mask: int) -> int:
    return mask.bit_count()


SUIT_MASK: tuple[int, ...] = tuple(mask_of(range(s * 11, s * 11 + 11)) for s in range(4))


# --- the ace-ten family: 66 and tysiąc --------------------------------------------------------
# Ranks A > 10 > K > Q > J > 9 in each suit, card points A 11, 10 10, K 4, Q 3, J 2, 9 0; the
# games' and their bots' one table (``POWER[c]``: 6 for an ace .. 1 for a nine, 0 off the deck).

ACE_TEN_RANKS = ("A", "10", "K", "Q", "J", "9")
ACE_TEN_POINTS = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2, NINE: 0}
ACE_TEN_DECK: tuple[int, ...] = tuple(deck(ACE_TEN_RANKS))
ACE_TEN_POWER: tuple[int, ...] = tuple(
    6 - ACE_TEN_RANKS.index(RANKS[RANK_OF[c]]) if c in ACE_TEN_DECK else 0 for c in range(48))
ACE_TEN_VALUE: tuple[int, ...] = tuple(
    ACE_TEN_POINTS[RANK_OF[c]] if c in ACE_TEN_DECK else 0 for c in range(48))


def codes(cards: Iterable[int]) -> list[str]:
    return [CODES[c] for c in cards]


def parse_deck(deck_codes, expected: list[int]) -> list[int]:
    """Check that ``deck_codes`` is exactly the game's cards (any order) and return its ints."""
    if not isinstance(deck_codes, (list, tuple)):
        raise ValueError("deck must be a list of card codes")
    try:
        d = [card(x) for x in deck_codes]
    except ValueError as e:
        raise ValueError(f"deck: {e}") from None
    if sorted(d) != sorted(expected):
        missing = sorted(set(expected) - set(d))
        extra = sorted(set(d) - set(expected))
        dup = sorted({c for c in d if d.count(c) > 1})
        parts = []
        if missing:
            parts.append("missing " + " ".join(codes(missing)))
        if extra:
            parts.append("not in this game " + " ".join(codes(extra)))
        if dup:
            parts.append("repeated " + " ".join(codes(dup)))
        raise ValueError(f"deck must hold exactly the game's {len(expected)} cards: "
                         + "; ".join(parts or [f"got {len(d)} cards"]))
    return d
