"""The table's checks of what comes from outside: budgets, JSON nesting, search jobs, bot seats.
Each raises ``ValueError`` with a message the page shows as it is."""

from __future__ import annotations

import re

from .. import games
from ..bots import BUDGETS, plugin, shards
from ..bots.catalogue import SEARCH_LEVELS
from ..game import short

# Hints and review grades search a counted budget only (the level's rollouts and node limits):
# the wall-clock cap of the bots is lifted, so that the same view and seed give the same hint
# and grade on a loaded machine too.  A budget passed to the op is applied on top of this.
COUNTED = {"time_cap": 1e9, "clock": "cpu"}
# the largest counted budget an op may ask for: four times level 4's
BUDGET_CEILING = {k: 4 * v for k, v in BUDGETS[4].items() if type(v) is int and k != "time_cap"}

# The deepest JSON nesting read (request arguments, a save file's text): in Pyodide the wasm
# stack overflows inside json.loads (a fatal error of the runtime, not a RecursionError) far
# below Python's recursion limit; a save file nests about 5 deep.
MAX_NESTING = 100
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")

OUTSIDE_LEVEL = 2          # an outside seat's own bot: it plays when the student's bot fails
BOT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,60}\.py$")


def counted(budget) -> dict:
    """``COUNTED`` with an op's ``budget`` (a dict of budget keys, or None) on top."""
    if budget is not None and not isinstance(budget, dict):
        raise ValueError(f"budget must be an object of budget keys, not {budget!r}")
    for k, v in (budget or {}).items():         # the search would fail on a value of another type
        want = BUDGETS[4].get(k)
        if want is not None and type(v) is not type(want) and not (
                type(want) is float and type(v) is int):
            raise ValueError(f"budget {k!r} must be a {type(want).__name__}, not {v!r}")
        # a count far beyond level 4's would keep the worker busy for hours (the cap is lifted)
        if k in BUDGET_CEILING and not 0 <= v <= BUDGET_CEILING[k]:
            raise ValueError(f"budget {k!r} must be from 0 to {BUDGET_CEILING[k]}, not {v!r}")
    return {**COUNTED, **(budget or {})}


def check_nesting(text, what: str) -> None:
    """ValueError when JSON ``text`` nests deeper than MAX_NESTING (no recursion: a scan of its
    brackets outside strings)."""
    if not isinstance(text, str) or text.count("[") + text.count("{") <= MAX_NESTING:
        return
    depth = 0
    for ch in _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)):
        depth += 1 if ch in "[{" else -1
        if depth > MAX_NESTING:
            raise ValueError(f"{what} nested more than {MAX_NESTING} deep")


def check_job(job) -> None:
    """ValueError unless ``job`` has the shape of a shard job (``bots/shards.py``)."""
    if not isinstance(job, dict) or set(job) != set(shards.JOB_KEYS):
        raise ValueError(f"shard_run needs a job with the keys {', '.join(shards.JOB_KEYS)}")
    game, level, view, legal = job["game"], job["level"], job["view"], job["legal"]
    if game not in games.ids():
        raise ValueError(f"shard_run: unknown game {short(repr(game))}")
    if level not in SEARCH_LEVELS or isinstance(level, bool):
        raise ValueError(f"shard_run: the level is one of {list(SEARCH_LEVELS)}")
    for k in ("shard", "shards", "seed"):
        if type(job[k]) is not int or job[k] < 0:
            raise ValueError(f"shard_run: {k} must be a whole number")
    if not isinstance(job["key"], str) or not isinstance(job["budget"], dict):
        raise ValueError("shard_run: key is a string, budget an object")
    known = {**BUDGETS[4], **getattr(plugin(game), "BUDGETS", {}).get(4, {})}
    for k, v in job["budget"].items():
        want = known.get(k)
        if want is None or type(v) is not type(want) and not (type(want) is float
                                                               and type(v) is int):
            raise ValueError(f"shard_run: budget {short(repr(k))} is not a budget key of "
                             f"{game} or not a {type(want).__name__}")
        if type(want) is int and k != "time_cap" and not 0 <= v <= 4 * max(want, 1):
            raise ValueError(f"shard_run: budget {k!r} must be from 0 to {4 * max(want, 1)}")
    if not (isinstance(view, dict) and view.get("game") == game and isinstance(legal, list)
            and legal and view.get("legal_actions") == legal):
        raise ValueError("shard_run: the view is not the mover's view of that game")


def check_seat(seat, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be a seat from 0 to {players - 1}, not {seat!r}")
    return seat


def bot_levels(levels, count: int) -> list:
    """One level per bot seat from ``levels``: None (level 3 everywhere), one level (or a list
    of one) for every seat, or a list of ``count``."""
    if levels is None:
        levels = [3] * count
    elif isinstance(levels, int) and not isinstance(levels, bool):
        levels = [levels] * count
    if not isinstance(levels, list):
        raise ValueError(f"levels must be a list of bot levels, not {levels!r}")
    if len(levels) == 1 and count > 1:
        levels = levels * count
    if len(levels) != count:
        raise ValueError(f"{count} bot seat(s) need {count} level(s), not {len(levels)}")
    return levels


def _outside_name(x) -> str | None:
    """The bot's name of an outside-bot marker ``{"outside": "mybot.py"}``, else None."""
    if not isinstance(x, dict) or "outside" not in x:
        return None
    name = x.get("outside")
    if len(x) != 1 or not isinstance(name, str) or not BOT_NAME.match(name):
        raise ValueError(f"an outside bot is {{\"outside\": \"name.py\"}}, not {short(repr(x))}")
    return name


def split_outside(players: int, seat, levels) -> tuple[object, dict[int, str]]:
    """(levels with every outside-bot marker as ``OUTSIDE_LEVEL``, {seat: bot name}).  A marker
    ``{"outside": "mybot.py"}`` in place of a level seats a student's bot (the lab's worker
    plays it); a list of one level per seat (``players`` long) whose entry at ``seat`` is a
    marker seats it in the person's own seat too (watching: the person only watches)."""
    if not isinstance(levels, list) or not any(isinstance(x, dict) for x in levels):
        return levels, {}
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        return levels, {}                        # check_seat says what is wrong with the seat
    names = [_outside_name(x) for x in levels]
    outside = {}
    if len(levels) == players and players > 1 and names[seat] is not None:
        outside[seat] = names[seat]
        names = names[:seat] + names[seat + 1:]
        levels = levels[:seat] + levels[seat + 1:]
    others = [s for s in range(players) if s != seat]
    if len(levels) == 1 and len(others) > 1:
        names, levels = names * len(others), levels * len(others)
    if len(levels) == len(others):
        outside.update({s: n for s, n in zip(others, names) if n is not None})
    plain = [OUTSIDE_LEVEL if n is not None else x for x, n in zip(levels, names)]
    return plain, outside
