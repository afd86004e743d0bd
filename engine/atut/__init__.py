"""Atut: five trick-taking card games (cesarz, euchre, imperial, tysiac1001, sixty_six).

A hand of 66 (the rule ids are those of ``docs/rules/sixty_six.md``):

    >>> import atut
    >>> game = atut.new_game("sixty_six", players=2, seed=7)
    >>> game.to_move, game.view(0)["trump"]
    (0, 'H')
    >>> game.view(0)["hand"]            # what seat 0 may see, and nothing more
    ['9S', '10C', 'QC', '10D', 'QD', '9H']
    >>> game.legal_actions()[0]          # the trump 9 for the trump card (G10)
    {'type': 'exchange'}
    >>> game.apply({"type": "exchange"})
    >>> game.view(0)["hand"]
    ['9S', '10C', 'QC', '10D', 'QD', 'AH']
    >>> game.apply({"type": "play", "card": "9C"})
    Traceback (most recent call last):
    ...
    atut.game.IllegalAction: illegal action {"card":"9C","type":"play"}: ...9C...
    >>> bot = atut.make_bot("sixty_six", level=2, seed=1)
    >>> while not game.is_over:
    ...     game.apply(bot.choose(game.view(game.to_move)))
    >>> game.scores, game.winner        # one deal is one game (G14): the winner has 1
    ([0, 1], 1)
    >>> atut.load_game(game.to_json()).scores
    [0, 1]

The whole public API is in ``CONTRACT.md`` of the shared folder; ``docs/ENGINE.md`` says how a
game module is built.
"""

from __future__ import annotations

from . import games
from .game import Game, IllegalAction, canonical
from .game import load as _load

__version__ = "0.1.0"

GAME_IDS = games.BUILTIN        # the built-in games; atut.games.ids() adds those registered


def game_class(game_id: str) -> type[Game]:
    """The Game subclass of a game id; ``ValueError`` for an unknown or unbuilt game."""
    return games.spec(game_id).game


def built_games() -> tuple[str, ...]:
    """The games that can be played now: the built-in ones, then those registered
    (``atut.games.register``)."""
    out = []
    for g in games.ids():
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


def analyse(game_id: str, view: dict, level: int = 3, seed: int = 0, budget: dict | None = None):
    """Every legal action of ``view`` valued by the level-3/4 bot's search (``atut.analysis``)."""
    from .analysis import analyse as _analyse
    return _analyse(game_id, view, level, seed, budget)


def load_bot(path):
    """Your own bot from a ``.py`` file defining ``choose(view)`` (``atut.lab.load_bot``): an
    object whose ``choose`` checks every answer (``atut.lab.BotError`` names the line)."""
    from .lab import load_bot as _load_bot
    return _load_bot(path)


def bot_from_source(source: str, name: str = "mybot.py"):
    """Your own bot from source text (``atut.lab.bot_from_source``); ``name`` is its file name
    in tracebacks."""
    from .lab import bot_from_source as _from_source
    return _from_source(source, name)


__all__ = ["GAME_IDS", "games", "analyse", "Game", "IllegalAction", "canonical", "new_game",
           "load_game", "make_bot", "game_class", "built_games", "load_bot", "bot_from_source"]
