"""The contract checks of a game in progress, at every step: the random-play test
(``tests/test_random_play.py``) and ``python -m atut soak`` both use these.

``before_step(game, check_views)`` checks the state about to be acted in and returns its legal
actions; ``after_step(game)`` runs the game's own ``check_invariants`` (where it has one: every
card accounted for, scores equal to the deals' sum); ``at_end(game)`` checks a finished game.
Each raises ``InvariantError`` (an ``AssertionError``, raised also under ``python -O``) with a
message that says what broke.
"""

from __future__ import annotations

import json

from .game import Game, canonical

MAX_STEPS = 100_000        # no game takes this many actions: more is a game that does not end


class InvariantError(AssertionError):
    """A game broke its contract."""


def _fail(game: Game, what: str):
    raise InvariantError(f"{game.game_id} ({game.players} players, seed {game.seed}, "
                         f"action {len(game.history)}, phase {game.phase!r}): {what}")


def before_step(game: Game, check_views: bool = False) -> list[dict]:
    """The legal actions of ``game`` (not over), after checking them: at least one, none
    listed twice, each with a string ``type`` and no ``None`` value; with ``check_views`` the
    mover's view lists the same actions and both that view and the public one are JSON."""
    seat = game.to_move
    legal = game.legal_actions()
    if not legal:
        _fail(game, f"seat {seat} is to move with no legal action")
    keys = [canonical(a) for a in legal]
    if len(set(keys)) != len(keys):
        _fail(game, "an action is listed twice")
    for a in legal:
        if not isinstance(a.get("type"), str):
            _fail(game, f"an action without a string type: {keys[legal.index(a)]}")
        if None in a.values():
            _fail(game, "unused fields are left out, never null")
    if check_views:
        v = game.view(seat)
        if v["to_move"] != seat or v["legal_actions"] != legal:
            _fail(game, "the mover's view disagrees with legal_actions()")
        json.dumps(v)
        json.dumps(game.view(None))
    return legal


def after_step(game: Game) -> None:
    """The game's own invariants (``check_invariants``), where it has them; the step count."""
    checks = getattr(game, "check_invariants", None)
    if checks is not None:
        try:
            checks()
        except AssertionError as e:
            _fail(game, f"check_invariants: {e}")
    if len(game.history) > MAX_STEPS:
        _fail(game, "the game does not end")


def at_end(game: Game) -> None:
    """A finished game: nobody to move, no legal action, a winner, a score per seat, and an
    event record that is JSON."""
    if game.to_move is not None or game.legal_actions() != []:
        _fail(game, "a finished game has a seat to move or legal actions")
    if game.winner is None:
        _fail(game, "a finished game has no winner")
    if len(game.scores) != game.players:
        _fail(game, "not one score per seat")
    json.dumps(game.events)
