"""The bot lab's Python side: a student's bot file, the example bots and the view's help.

A bot file is a Python module that defines ``choose(view)`` and returns one of
``view["legal_actions"]`` (``CONTRACT.md``, "Your own bot").  It may also define
``reset()``, called before each game (deal) the arena plays with it, to clear what it keeps
between decisions.  A bot is given nothing but the view of its seat.

    load_bot(path)                    a StudentBot from a .py file
    bot_from_source(source, name)     a StudentBot from source text (the lab's editor)
    check_action(view, action)        the legal action equal to ``action``, or BotError
    examples(game_id)                 {file name: source} of the game's starting and example bots
    view_help(game_id)                every field of the game's view, in Polish and English, and
                                      an example view from a real position

A ``StudentBot`` checks every answer: an exception in the student's code, an answer that is
not a dict or not one of the legal actions raises ``BotError``, whose ``line`` is the line of
the student's file (its name is the one given, so tracebacks name it) and whose ``to_dict()``
gives the lab what it shows (``kind``, the message in both languages, the traceback).

    >>> bot = bot_from_source("def choose(view):\\n    return view['legal_actions'][0]\\n")
    >>> import atut
    >>> game = atut.new_game("sixty_six", players=2, seed=7)
    >>> bot.choose(game.view(0))
    {'type': 'exchange'}
    >>> bad = bot_from_source("def choose(view):\\n    return {'type': 'play', 'card': 'XX'}\\n",
    ...                       name="bad.py")
    >>> bad.choose(game.view(0))
    Traceback (most recent call last):
    ...
    atut.lab.BotError: bad.py: choose returned {"card":"XX","type":"play"}, which is not a legal
    action; the legal actions are: ...
"""

from __future__ import annotations

import copy
import importlib.resources
import linecache
import os
import traceback
import types

from ..game import canonical

__all__ = ["BotError", "StudentBot", "bot_from_source", "check_action", "examples",
           "load_bot", "view_help"]

KINDS = ("syntax", "load", "no_choose", "exception", "not_dict", "illegal")


class BotError(ValueError):
    """A student's bot failed: ``kind`` (one of ``KINDS``), ``line`` (the line of the bot's
    file, or ``None``), ``name`` (its file name), ``traceback`` (text, only the frames of the
    student's file and below), ``action`` and ``legal`` (for ``not_dict`` and ``illegal``),
    ``message`` (English) and ``message_pl`` (Polish)."""

    def __init__(self, kind: str, name: str, message: str, message_pl: str,
                 line: int | None = None, tb: str = "", action=None, legal=None):
        super().__init__(f"{name}: {message}")
        self.kind = kind
        self.name = name
        self.message = message
        self.message_pl = message_pl
        self.line = line
        self.traceback = tb
        self.action = action
        self.legal = legal

    def __reduce__(self):                   # to travel back from a worker process
        return (BotError, (self.kind, self.name, self.message, self.message_pl, self.line,
                           self.traceback, self.action, self.legal), dict(self.__dict__))

    def to_dict(self) -> dict:
        """JSON-safe: what the lab shows (``messages`` in ``en`` and ``pl``)."""
        return {"kind": self.kind, "name": self.name, "line": self.line,
                "messages": {"en": f"{self.name}: {self.message}",
                             "pl": f"{self.name}: {self.message_pl}"},
                "traceback": self.traceback,
                "action": _jsonable(self.action), "legal": self.legal,
                "deal": getattr(self, "deal", None), "seat": getattr(self, "seat", None)}


def _jsonable(x):
    try:
        canonical(x)
        return x
    except (TypeError, ValueError):
        return repr(x)


def _shown(x) -> str:
    try:
        return canonical(x)
    except (TypeError, ValueError):
        return repr(x)


def _student_frames(tb, name: str) -> tuple[int | None, str]:
    """The last line of the student's file in a traceback, and the traceback text from the
    first frame of that file on (the lab's own frames left out)."""
    frames = traceback.extract_tb(tb)
    line = None
    first = None
    for i, f in enumerate(frames):
        if f.filename == name:
            line = f.lineno
            if first is None:
                first = i
    return line, first


def _format(e: BaseException, name: str) -> tuple[int | None, str]:
    tb = e.__traceback__
    line, first = _student_frames(tb, name)
    frames = traceback.extract_tb(tb)
    if first is not None:
        frames = frames[first:]
    text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
    text += "".join(traceback.format_exception_only(type(e), e))
    return line, text


def check_action(view: dict, action, name: str = "bot") -> dict:
    """The element of ``view["legal_actions"]`` equal to ``action`` (same canonical JSON), or
    ``BotError`` (kind ``not_dict`` or ``illegal``) naming it and listing the legal ones.

    >>> view = {"legal_actions": [{"type": "play", "card": "AS"}, {"type": "pass"}]}
    >>> check_action(view, {"card": "AS", "type": "play"})
    {'type': 'play', 'card': 'AS'}
    >>> check_action(view, "AS")
    Traceback (most recent call last):
    ...
    atut.lab.BotError: bot: choose returned 'AS' (a str), not an action dict; the legal actions
    are: {"card":"AS","type":"play"}, {"type":"pass"}
    """
    legal = view["legal_actions"]
    if isinstance(action, dict):
        key = _shown(action)
        for a in legal:                 # most answers are one of the legal dicts: compare once
            if a == action and canonical(a) == key:
                return a
        for a in legal:
            if canonical(a) == key:
                return a
    listed = ", ".join(canonical(a) for a in legal)     # only for the error's text
    if not isinstance(action, dict):
        raise BotError("not_dict", name,
                       f"choose returned {action!r} (a {type(action).__name__}), not an action "
                       f"dict; the legal actions are: {listed}",
                       f"choose zwróciło {action!r} (typ {type(action).__name__}), a nie akcję "
                       f"(słownik); dozwolone akcje: {listed}",
                       action=action, legal=legal)
    raise BotError("illegal", name,
                   f"choose returned {key}, which is not a legal action; the legal actions "
                   f"are: {listed}",
                   f"choose zwróciło {key}, a to nie jest dozwolona akcja; dozwolone akcje: "
                   f"{listed}",
                   action=action, legal=legal)


class StudentBot:
    """A bot from a student's source: ``choose(view)`` runs the module's ``choose`` on a copy of
    the view and returns the legal action it names (``BotError`` otherwise).

    ``fresh()`` is a new, independent instance (the module run again in a namespace of its
    own): the arena gives each seat of each game its own.  ``reset()`` calls the module's
    ``reset`` if it has one.  Pickled as its source, so it travels to worker processes and
    Dask workers.  ``name`` is the file name used in tracebacks and reports."""

    def __init__(self, source: str, name: str = "mybot.py"):
        if not isinstance(source, str):
            raise TypeError("the bot's source must be a str")
        self.source = source
        self.name = name
        self.stats: dict = {}
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        try:
            self._code = compile(source, name, "exec")
        except SyntaxError as e:
            line = e.lineno
            text = "".join(traceback.format_exception_only(type(e), e))
            raise BotError("syntax", name,
                           f"syntax error on line {line}: {e.msg}",
                           f"błąd składni w wierszu {line}: {e.msg}", line=line,
                           tb=text) from None
        self.module = self._run()

    def _run(self) -> types.ModuleType:
        stem = os.path.splitext(os.path.basename(self.name))[0] or "bot"
        module = types.ModuleType(stem)
        module.__file__ = self.name
        try:
            exec(self._code, module.__dict__)
        except Exception as e:
            line, text = _format(e, self.name)
            raise BotError("load", self.name,
                           f"{type(e).__name__} while loading, on line {line}: {e}",
                           f"{type(e).__name__} podczas wczytywania, w wierszu {line}: {e}",
                           line=line, tb=text) from None
        if not callable(module.__dict__.get("choose")):
            raise BotError("no_choose", self.name,
                           "the file defines no function choose(view)",
                           "plik nie definiuje funkcji choose(view)")
        return module

    def fresh(self) -> StudentBot:
        """A new instance with a namespace of its own (the source compiled once)."""
        other = object.__new__(StudentBot)
        other.source, other.name, other._code, other.stats = \
            self.source, self.name, self._code, {}
        other.module = other._run()
        return other

    def reset(self) -> None:
        fn = self.module.__dict__.get("reset")
        if callable(fn):
            try:
                fn()
            except Exception as e:
                raise self._error(e, "reset") from None

    def _error(self, e: BaseException, where: str = "choose") -> BotError:
        line, text = _format(e, self.name)
        at = f" on line {line}" if line is not None else ""
        at_pl = f" w wierszu {line}" if line is not None else ""
        return BotError("exception", self.name,
                        f"{type(e).__name__} in {where}{at}: {e}",
                        f"{type(e).__name__} w {where}{at_pl}: {e}", line=line, tb=text)

    def choose(self, view: dict) -> dict:
        try:
            action = self.module.choose(copy.deepcopy(view))
        except Exception as e:
            raise self._error(e) from None
        return check_action(view, action, self.name)

    def __reduce__(self):
        return (StudentBot, (self.source, self.name))

    def __repr__(self):
        return f"StudentBot({self.name!r})"


def bot_from_source(source: str, name: str = "mybot.py") -> StudentBot:
    """A ``StudentBot`` from source text; ``name`` is its file name in tracebacks and reports.
    ``BotError`` (kind ``syntax``, ``load`` or ``no_choose``) if it cannot be a bot."""
    return StudentBot(source, name)


def read_bot_file(path) -> tuple[str, str]:
    """(source, path) of a bot file; ``ValueError`` naming it if it cannot be read."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    except OSError as e:
        raise ValueError(f"cannot read the bot file {path}: {e.strerror}") from None


def load_bot(path) -> StudentBot:
    """A ``StudentBot`` from a ``.py`` file (named by its path in tracebacks)."""
    return StudentBot(*read_bot_file(path))


# --- the example bots -------------------------------------------------------------------------

KINDS_OF_EXAMPLE = ("start", "rules", "search")


def examples(game_id: str) -> dict[str, str]:
    """``{file name: source}`` of the game's bots for students, in this order: the starting bot
    (``<game>_start.py``: documented, plays legally, simple), a rule bot (``<game>_rules.py``)
    and one that asks the search (``<game>_search.py``, through ``botkit.analyse``); they are
    in the package its ``GameSpec.examples`` names (``{}`` when it names none)."""
    from ..games import spec
    package = spec(game_id).examples
    if package is None:
        return {}
    folder = importlib.resources.files(package)
    return {f"{game_id}_{k}.py": folder.joinpath(f"{game_id}_{k}.py").read_text(encoding="utf-8")
            for k in KINDS_OF_EXAMPLE}


def view_help(game_id: str) -> dict:
    """Every top-level field of the game's view: ``{"game", "fields": {key: {"en", "pl"}},
    "phases": {phase: [keys of its views]}, "example": a real view (seeded bot play, the seat
    to move in the play phase)}``.  See ``atut.lab.help``."""
    from .help import view_help as _vh
    return _vh(game_id)

