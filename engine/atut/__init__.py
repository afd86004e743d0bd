"""Atut: five trick-taking card games (cesarz, euchre, imperial, tysiac1001, sixty_six).

    >>> import atut
    >>> game = atut.new_game("sixty_six", players=2, seed=7)
    >>> action = game.legal_actions()[0]
    >>> game.apply(action)
    >>> game.view(0)["hand"]            # what seat 0 may see, and nothing more

See CONTRACT.md in the shared folder for the whole public API.
"""

from __future__ import annotations

import importlib

from .game import Game, IllegalAction, canonical
from .game import load as _load

__version__ = "0.1.0"

GAME_IDS = ("cesarz", "euchre", "imperial", "tysiac1001", "sixty_six")

_MODULES = {g: f"atut.games.{g}" for g in GAME_IDS}


def game_class(game_id: str) -> type[Game]:
    """The Game subclass of a game id; ``ValueError`` for an unknown or unbuilt game."""
    if game_id not in _MODULES:
        raise ValueError(f"unknown game {game_id!r}; the games are {', '.join(GAME_IDS)}")
    try:
        module = importlib.import_module(_MODULES[game_id])
    except ModuleNotFoundError as e:
        if e.name == _MODULES[game_id]:
            raise ValueError(f"the game {game_id!r} is not built yet") from None
        raise
    return module.GAME


def built_games() -> tuple[str, ...]:
    out = []
    for g in GAME_IDS:
        try:
            game_class(g)
        except ValueError:
            continue
        out.append(g)
    return tuple(out)


def new_game(game_id: str, players: int | None = None, seed: int = 0, dealer: int | None = None,
             deck: list[str] | None = None, options: dict | None = None) -> Game:
    """Start a game; see the contract for the arguments."""
    return game_class(game_id)(players=players, seed=seed, dealer=dealer, deck=deck,
                               options=options)


def load_game(text) -> Game:
    """Resume a game saved with ``to_json()``; ``ValueError`` for a malformed save."""
    return _load(text, new_game)


def make_bot(game_id: str, level: int = 1, seed: int = 0):
    """A bot for ``game_id`` at ``level`` 1 (random) to 4 (strongest)."""
    from .bots import make_bot as _make
    return _make(game_id, level, seed)


__all__ = ["GAME_IDS", "Game", "IllegalAction", "canonical", "new_game", "load_game",
           "make_bot", "game_class", "built_games"]
