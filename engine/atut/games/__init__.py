"""The games, and everything the engine says about a game, found in one place.

Each game module (``atut/games/<game>.py``) defines its ``Game`` subclass as ``GAME`` and a
``GameSpec`` as ``SPEC``: the game's names, its bot plug-in, the measure of its analysis, its
reason function, its example bots, its OpenSpiel parameters, its lab help.  Everything else
(``atut.new_game``, ``atut.make_bot``, ``atut.analyse``, the arena, ``atut.openspiel``, the
lab's help, the page's bridge) looks a game up here and knows no game by name.  A game from
elsewhere (a test's, a student's) joins with ``register(spec)``.  ``docs/ADDING_A_GAME.md`` says
how to write one.

    >>> from atut import games
    >>> s = games.spec("sixty_six")
    >>> s.names["pl"], s.players, s.one_deal
    ('Sześćdziesiąt sześć', (2, 3, 4), True)
    >>> games.spec("chess")
    Traceback (most recent call last):
    ...
    ValueError: unknown game 'chess'; the games are cesarz, euchre, imperial, tysiac1001, sixty_six
"""

from __future__ import annotations

import importlib
import reprlib
from dataclasses import dataclass, field
from typing import Any

# the games shipped with the engine, in the menu's order: ``atut/games/<id>.py``
BUILTIN = ("cesarz", "euchre", "imperial", "tysiac1001", "sixty_six")


@dataclass(frozen=True)
class GameSpec:
    """What the engine knows of one game beside its rules (the ``Game`` subclass).

    A field that names code (``bots``, ``reason``, ``actions``, ``card_tables``, ``beats``,
    ``trick_winner``) takes the object itself or a ``"module:attribute"`` string (``"module"``
    for a module), imported on first use, so that a game module need not import the bots."""

    id: str
    """The game id (``Game.GAME_ID``): views' ``"game"``, save files, file names."""
    game: type
    """The ``Game`` subclass: its ``PLAYERS`` and ``OPTIONS`` are the counts and options."""
    names: dict = field(default_factory=dict)
    """``{"en": ..., "pl": ...}``: the game's name in both languages."""
    words: dict = field(default_factory=dict)
    """``{"en": {key: text}, "pl": {...}}``: the page's words for a game without a
    ``web/i18n/<id>.js`` (``phase.<phase>``, ``rules``, ``action.<type>``, ``event.<type>``)."""
    bots: Any = None
    """The bot plug-in (``atut/bots/interface.py``): a module or its name; ``None``: none, the
    levels fall back (level 2 plays randomly, 3 and 4 like level 2)."""
    examples: str | None = None
    """The package holding the lab's example bots ``<id>_start.py``, ``<id>_rules.py``,
    ``<id>_search.py``; ``None``: none."""
    view_help: dict = field(default_factory=dict)
    """``{view key: (English, Polish)}``: the lab's help for the game's own view fields (and
    for shared ones whose meaning differs); ``atut.lab.help``."""
    review_scale: float = 1.0
    """The page's review grades a decision by the value it lost in units of this (the measure
    of the game's search, ``docs/BOTS.md`` "Analysis")."""
    win_measure: bool = False
    """Whether the search's value is the chance of winning the deal (``analyse``'s ``win``)."""
    reason: Any = None
    """``reason(view, best) -> dict | None``: one plain reason for the best action
    (``atut.analysis.reason``); ``None``: no reasons."""
    trick_events: tuple = ("trick",)
    """The event types that give a trick's cards to a seat (its ``winner``): the page's last
    deal panel shows the deal's last one."""
    one_deal: bool = False
    """A game is one deal (66): the arena plays whole games, per deal."""
    deal_points: str | None = None
    """The game's attribute holding each seat's points of the deal, for the arena's margin
    (66: card points); ``None``: the score gained."""
    partners: bool = False
    """Seats of the same parity play as a side (euchre): the arena seats two bots A B A B, the
    OpenSpiel margin is against the other side."""
    deal_bound: float = 1.0
    """OpenSpiel: the largest margin of one deal (the utility's bound, ``docs/OPENSPIEL.md``)."""
    uct_c: float = 2.0
    """OpenSpiel: the IS-MCTS exploration constant on the scale of the game's margins."""
    actions: Any = None
    """OpenSpiel: ``actions(players) -> [action dicts]``, every action beside a plain
    ``{"type": "play", "card"}`` the game can produce; ``None``: card plays only."""
    keep_public: tuple = ()
    """OpenSpiel: public fields a view shows that the bots' ``determinize`` leaves empty; a
    resampled state copies them."""
    card_tables: Any = None
    """``botkit``: ``card_tables(trump) -> (suit of, power, points)``, three lists indexed by
    card int; ``None``: ``cards.SUIT_OF`` and the game module's ``POWER`` and ``VALUE``."""
    beats: Any = None
    """``botkit``: ``beats(card, best, trump, led) -> bool`` on card ints, for a game whose
    trick rule is not ``atut.tricks``'s; ``None``: ``tricks.beats``."""
    trick_winner: Any = None
    """``botkit``: ``trick_winner(entries, trump, view) -> index`` for such a game."""

    @property
    def players(self) -> tuple:
        return tuple(self.game.PLAYERS)

    @property
    def options(self) -> dict:
        return {k: list(v) for k, v in self.game.OPTIONS.items()}

    def load(self, name: str):
        """The code a field names (``None`` stays ``None``): a ``"module:attribute"`` string
        imported, anything else as it is."""
        return resolve(getattr(self, name))

    def page_words(self) -> dict:
        """``{"en": {...}, "pl": {...}}``: ``words`` with the game's ``name`` in each language."""
        return {lang: {"name": self.names.get(lang, self.id), **self.words.get(lang, {})}
                for lang in ("en", "pl")}

    def info(self) -> dict:
        """The JSON-safe part the page needs: names, words, counts, options, review scale."""
        return {"id": self.id, "names": dict(self.names), "words": dict(self.words),
                "players": list(self.players), "options": self.options,
                "review_scale": self.review_scale, "trick_events": list(self.trick_events)}


def resolve(x):
    """``x`` itself, or the object a ``"module:attribute"`` / ``"module"`` string names."""
    if not isinstance(x, str):
        return x
    mod, _, attr = x.partition(":")
    m = importlib.import_module(mod)
    return getattr(m, attr) if attr else m


_registered: dict[str, GameSpec] = {}
_builtin: dict[str, GameSpec] = {}


def ids() -> tuple[str, ...]:
    """Every game id: the built-in games, then the registered ones in their order."""
    return BUILTIN + tuple(g for g in _registered if g not in BUILTIN)


def spec(game_id: str) -> GameSpec:
    """The ``GameSpec`` of a game; ``ValueError`` for an unknown one."""
    s = _registered.get(game_id) if isinstance(game_id, str) else None
    if s is not None:
        return s
    if not isinstance(game_id, str) or game_id not in BUILTIN:
        raise ValueError(f"unknown game {reprlib.repr(game_id)}; the games are "
                         f"{', '.join(ids())}")
    s = _builtin.get(game_id)
    if s is None:
        name = f"{__name__}.{game_id}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:
                raise ValueError(f"the game {game_id!r} is not built yet") from None
            raise
        s = _builtin[game_id] = module.SPEC
    return s


def register(s: GameSpec) -> GameSpec:
    """Add a game from elsewhere (or replace one registered before); returns ``s``.  A
    built-in game's id is refused."""
    if not isinstance(s, GameSpec):
        raise ValueError(f"register takes a GameSpec, not {reprlib.repr(s)}")
    if s.id in BUILTIN:
        raise ValueError(f"{s.id!r} is a built-in game")
    if getattr(s.game, "GAME_ID", None) != s.id:
        raise ValueError(f"the GameSpec {s.id!r} has a game class of id "
                         f"{getattr(s.game, 'GAME_ID', None)!r}")
    _registered[s.id] = s
    return s


def register_source(name: str, source: str) -> GameSpec:
    """Run ``source`` (a game module's text) as the module ``name`` and register its ``SPEC``
    (the page's test hook, where no file can be imported).  ``ValueError`` for anything that
    fails, with nothing changed; a module already loaded under ``name`` is refused unless it
    came from here."""
    import sys
    import types
    if not (isinstance(name, str) and name.isidentifier() and isinstance(source, str)):
        raise ValueError("register_source takes a module name and its source text")
    old = sys.modules.get(name)
    if old is not None and not getattr(old, "__game_source__", False):
        raise ValueError(f"register_source: a module {name!r} is loaded already")
    module = types.ModuleType(name)
    module.__game_source__ = True
    sys.modules[name] = module
    try:
        exec(compile(source, f"{name}.py", "exec"), module.__dict__)
        return register(getattr(module, "SPEC", None))
    except Exception as e:                      # whatever the source does: a clear refusal
        sys.modules.pop(name)
        if old is not None:
            sys.modules[name] = old
        raise ValueError(f"register_source: {name}.py failed: {type(e).__name__}: "
                         f"{reprlib.repr(str(e))}") from None


def unregister(game_id: str) -> None:
    """Remove a registered game (nothing if it is not registered)."""
    _registered.pop(game_id, None)
