"""Bots.  A bot is given only ``view(seat)`` of the seat to move and its own seeded RNG, and
returns one of the view's ``legal_actions``; it cannot reach the hidden state."""

from __future__ import annotations

import random


class Bot:
    """Base class: ``choose(view)`` returns one of ``view["legal_actions"]``."""

    level = 0

    def __init__(self, game_id: str, seed: int = 0):
        self.game_id = game_id
        self.rng = random.Random(seed)

    def choose(self, view: dict) -> dict:
        raise NotImplementedError


class RandomBot(Bot):
    """Level 1: a uniformly random legal action."""

    level = 1

    def choose(self, view: dict) -> dict:
        legal = view.get("legal_actions")
        if not legal:
            raise ValueError("the view has no legal actions: this seat is not to move")
        return self.rng.choice(legal)


LEVELS = {1: RandomBot}


def make_bot(game_id: str, level: int = 1, seed: int = 0) -> Bot:
    import atut
    if game_id not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game_id!r}; the games are {', '.join(atut.GAME_IDS)}")
    if isinstance(level, bool) or level not in (1, 2, 3, 4):
        raise ValueError(f"bot level must be 1, 2, 3 or 4, not {level!r}")
    cls = LEVELS.get(level, RandomBot)
    return cls(game_id, seed)
