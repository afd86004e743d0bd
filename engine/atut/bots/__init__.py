"""Bots at four levels, for every game.

A bot is given only ``view(seat)`` of the seat to move (a JSON-safe dict) and returns one of the
view's ``legal_actions``; it never receives the game object.  ``make_bot(game_id, level, seed,
budget=None, strict=False)`` builds one.  The modules:

``bots.catalogue`` the levels described once as data (``LEVEL_TABLE``: number, name,
                   algorithm, budgets, shards); everything below and the engine read it
``bots.levels``    the levels' classes (``RandomBot``, ``RuleBot``, ``SearchBot``,
                   ``StrongBot``), ``make_bot``, ``parse_level``, ``NAMES``
``bots.interface`` the plug-in interface (``Plugin``, a ``typing.Protocol``), its defaults and
                   ``hooks(module)``, which resolves them once per decision; ``plugin(game_id)``
``bots.search``    the generic determinized search (``search``, ``rollout``, ``fast_clone``,
                   ``BUDGETS``, ``note_search``, ``check_determinization``)
``bots.solver``    the generic exact endgame (``solve``)
``bots.sampling``  dealing hidden cards under constraints (``sample_cards``, ``possible_cards``)
``bots.<game_id>`` a game's plug-in (``bots/sixty_six.py`` is the reference)
"""

from __future__ import annotations

from .catalogue import LEVEL_TABLE, Level
from .interface import Hooks, Plugin, hooks, plugin
from .levels import (
                     LEVELS,
                     NAMES,
                     Bot,
                     RandomBot,
                     RuleBot,
                     SearchBot,
                     StrongBot,
                     make_bot,
                     parse_level,
)
from .sampling import possible_cards, sample_cards
from .search import BUDGETS, check_determinization, fast_clone, note_search, rollout, search
from .solver import solve

__all__ = ["BUDGETS", "LEVELS", "LEVEL_TABLE", "NAMES", "Bot", "Level", "Hooks", "Plugin",
           "RandomBot", "RuleBot",
           "SearchBot", "StrongBot", "check_determinization", "fast_clone", "hooks", "make_bot",
           "note_search", "parse_level", "plugin", "possible_cards", "rollout", "sample_cards",
           "search", "solve"]
