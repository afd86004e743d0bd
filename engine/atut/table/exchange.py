"""What a table op may need from outside the engine before it can decide, asked for explicitly.

An op that searches or waits for a student's bot is written as a generator: it computes what it
needs, ``yield``s it and gets the answer back, then decides.  Nothing in the table changes
before the ``yield``, so an op whose answer never comes leaves the table as it was.

- ``Jobs``: the shards of a level-4 search (``atut.bots.shards``) to run; the answer is their
  results, in any order (the page's pool of search workers ran them), or ``None``: run them
  here.  The decision is the same either way: the search merges the same results.
- ``Ask``: the move of a student's bot seated at the table (an outside seat, docs/LAB.md),
  played in the lab's worker; the answer is ``{"action": ...}``, ``{"failed": kind}`` (the
  bot failed, timed out, or no lab's worker is there), or ``None``: nobody to ask (the seat's
  level-2 bot plays this move).

``finish(steps)`` runs an op to its end with the answers given here (the shards run inline,
nobody to ask): what CPython and the tests use.  The page's worker answers instead (see
``atut.table.ops``).

    >>> def op():
    ...     results = yield Jobs([])
    ...     return results
    >>> finish(op())
    []
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from ..bots import shards
from ..bots.interface import hooks

T = TypeVar("T")


@dataclass
class Jobs:
    """Search shards to run (``bots.shards`` jobs, JSON-safe)."""
    jobs: list[dict]


@dataclass
class Ask:
    """The move of the student's bot ``name`` at ``seat``, given that seat's ``view`` only."""
    seat: int
    name: str
    view: dict

    def to_json(self) -> dict:
        return {"seat": self.seat, "name": self.name, "view": self.view}


Need = Jobs | Ask
Steps = Generator[Need, Any, T]


def answer_here(need: Need) -> Any:
    """The answer without anyone outside: the shards run here, and no lab's worker to ask."""
    return shards.run_inline(need.jobs) if isinstance(need, Jobs) else None


def finish(steps: Steps[T], answer: Callable[[Need], Any] = answer_here) -> T:
    """Run an op's ``steps`` to its result, each need answered by ``answer``."""
    try:
        need = next(steps)
        while True:
            need = steps.send(answer(need))
    except StopIteration as done:
        return done.value


def bot_jobs(bot, view: dict) -> list[dict]:
    """The shard jobs ``bot.choose(view)`` searches: none for a bot that does not search, one
    with a single legal action, a search in one piece (level 3) or a game without a search."""
    legal = view.get("legal_actions") or []
    if len(legal) < 2 or getattr(bot, "shards", 1) < 2 or hooks(bot.plugin).determinize is None:
        return []
    return bot.shard_jobs(view)


def searched(jobs: list[dict]) -> Steps[Callable]:
    """Ask for ``jobs`` (when there are any) and return the runner that hands their results
    to the search (``shards.using(runner)``); a job without a result runs here."""
    if not jobs:
        return shards.run_inline
    results = yield Jobs(jobs)
    if results is None:
        return shards.run_inline
    by_key = {r["key"]: r for r in results}

    def runner(asked: list[dict]) -> list[dict]:
        if all(j["key"] in by_key for j in asked):
            return [by_key[j["key"]] for j in asked]
        return shards.run_inline(asked)
    return runner


def check_results(results) -> list[dict] | None:
    """ValueError unless ``results`` is None or a list of shard results (``run_shard``'s)."""
    if results is None:
        return None
    if not isinstance(results, list) or len(results) > 64:
        raise ValueError("search_results needs results: a list of at most 64 shard results")
    for r in results:
        if not (isinstance(r, dict) and isinstance(r.get("key"), str)
                and isinstance(r.get("values"), list) and len(r["values"]) <= 1000
                and all(type(x) in (int, float) for x in r["values"])
                and type(r.get("samples")) is int
                and (r.get("solved") is None or type(r.get("solved")) is int)
                and isinstance(r.get("capped"), bool)):
            raise ValueError("a shard result is {key, values, samples, solved, capped}")
    return results
