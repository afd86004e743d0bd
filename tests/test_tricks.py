"""The shared trick rule (``atut.tricks``) and card tables (``atut.cards``): one for the games
and their bots."""

from __future__ import annotations

import importlib
import random

import pytest

from atut import cards as C
from atut import tricks as T
from atut.games import euchre as E
from atut.games import imperial as I
from atut.games import sixty_six as S
from atut.games import tysiac1001 as Y


def _reference_winner(cards, trump, power, suit=C.SUIT_OF):
    """The rule as stated: the highest trump if any was played, else the highest card of the
    suit led."""
    trumps = [i for i, c in enumerate(cards) if suit[c] == trump]
    pool = trumps or [i for i, c in enumerate(cards) if suit[c] == suit[cards[0]]]
    return max(pool, key=lambda i: power[cards[i]])


TABLES = [("sixty_six", S.DECK, S.POWER, C.SUIT_OF, (0, 1, 2, 3, None)),
          ("tysiac1001", Y.DECK, Y.POWER, C.SUIT_OF, (0, 1, 2, 3, None, -1)),
          ("imperial", I.DECKS[3], I.POWER, C.SUIT_OF, (0, 1, 2, 3))]
TABLES += [(f"euchre{t}", E.DECK, E.POWER[t], E.EFF[t], (t,)) for t in range(4)]


@pytest.mark.parametrize("name,deck,power,suit,trumps", TABLES, ids=[t[0] for t in TABLES])
def test_trick_winner_beats_and_winning_agree_with_the_rule(name, deck, power, suit, trumps):
    rng = random.Random(1)
    for _ in range(3000):
        trump = rng.choice(trumps)
        cards = rng.sample(deck, rng.randint(1, 5))
        want = _reference_winner(cards, trump, power, suit)
        assert T.trick_winner(cards, trump, power, suit) == want
        best = cards[0]
        for c in cards[1:]:
            if T.beats(c, best, trump, power, suit):
                best = c
        assert best == cards[want]
        trick = [(10 + i, c) for i, c in enumerate(cards)]
        assert T.winning(trick, trump, power, suit) == trick[want]


def test_the_ace_ten_games_share_one_table():
    for mod in (S, Y):
        assert mod.POWER is C.ACE_TEN_POWER and mod.VALUE is C.ACE_TEN_VALUE
        assert mod.RANKS == C.ACE_TEN_RANKS and list(mod.DECK) == list(C.ACE_TEN_DECK)
    assert [C.ACE_TEN_VALUE[C.make(r, C.HEARTS)] for r in
            (C.ACE, C.TEN, C.KING, C.QUEEN, C.JACK, C.NINE)] == [11, 10, 4, 3, 2, 0]
    assert sum(C.ACE_TEN_VALUE) == 120


@pytest.mark.parametrize("game_id", ["sixty_six", "tysiac1001", "imperial", "euchre", "cesarz"])
def test_plugins_keep_no_copy_of_the_trick_rule_or_the_card_tables(game_id):
    bot = importlib.import_module(f"atut.bots.{game_id}")
    game = importlib.import_module(f"atut.games.{game_id}")
    for name in ("_beats", "_best", "_current_best", "trick_winner"):
        assert getattr(bot, name, None) in (None, getattr(game, name, None)), name
    for name in ("POWER", "VALUE", "POINTS", "RANKS"):
        if hasattr(bot, name):
            assert getattr(bot, name) is getattr(game, name), name
