"""Level 4's search in shards (docs/BOTS.md): the same decision whether the shards run one after the
other or in parallel.

A level-4 decision is ``SHARDS[4]`` independent searches of the plug-in (``search_values``),
each with its own seed and a ``1/K`` share of every counted budget (``SPLIT``: rollouts, samples,
node totals; per-sample limits such as ``solve_nodes`` stay as they are).  The seeds are the
first ``K`` draws of the decision's RNG; the values are the mean of the shards' values, added up
in shard order.  So the result depends on the seed and the view only, not on where the shards
ran: ``run_inline`` (CPython, the arena, the table's worker alone) or a pool of search workers
in the browser (``web/worker.js``), which runs each job with ``run_shard``.

Where the shards run is the ``runner``: ``run_inline`` unless ``using(runner)`` says otherwise.
The table session asks for a decision's jobs first, has the pool run them, then searches with
a runner that hands their results over (``atut.table.exchange``).

A job is JSON-safe: ``{"key", "game", "level", "shard", "shards", "seed", "budget", "view",
"legal"}``; ``key`` is a digest of the rest.  A result: ``{"key", "values", "samples",
"solved", "capped"}``.

    >>> import atut
    >>> from atut.bots import make_bot
    >>> from atut.bots.shards import run_shard
    >>> g = atut.new_game("sixty_six", players=2, seed=5)
    >>> view = g.view(g.to_move)
    >>> bot = make_bot("sixty_six", 4, seed=1, budget={"time_cap": 1e9, "clock": "cpu"})
    >>> jobs = bot.shard_jobs(view)
    >>> len(jobs), jobs[0]["budget"]["rollouts"]
    (4, 225)
    >>> values = merge([run_shard(j) for j in reversed(jobs)], jobs)["values"]
    >>> values == bot.evaluate(view)[0]
    True
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import random

from ..game import canonical
from .catalogue import BY_NUMBER, SEARCH_LEVELS, timer
from .interface import hooks, plugin

# shards of a decision per search level, from the level table (bots.catalogue): level 3 (and
# the hints, which show level 3's search) searches in one piece, level 4 in four
SHARDS = {n: BY_NUMBER[n].shards for n in SEARCH_LEVELS}
# the budget keys counted per decision, split among the shards (ceiling of the share)
SPLIT = ("rollouts", "rollouts_3p", "rollouts_3", "rollouts_4", "min_samples", "solve_samples",
         "solve_total")
JOB_KEYS = ("key", "game", "level", "shard", "shards", "seed", "budget", "view", "legal")


def split_budget(budget: dict, i: int, k: int) -> dict:
    """Shard ``i``'s part of ``budget``: every counted key (``SPLIT``) divided among ``k``
    shards, the first shards taking one more of what does not divide evenly (each at least
    1), so that the parts add up to the whole."""
    out = dict(budget)
    for key in SPLIT:
        v = out.get(key)
        if v:
            out[key] = max(1, v // k + (i < v % k))
    return out


def make_jobs(game_id: str, level: int, view: dict, legal: list, rng: random.Random,
              budget: dict, k: int) -> list[dict]:
    """The ``k`` jobs of one decision; their seeds are the next ``k`` draws of ``rng``, of 53
    bits, so that a job passes through JavaScript's JSON unchanged."""
    seeds = [rng.getrandbits(53) for _ in range(k)]     # exact as a JS number too (the page)
    jobs = []
    for i, seed in enumerate(seeds):
        job = {"game": game_id, "level": level, "shard": i, "shards": k, "seed": seed,
               "budget": split_budget(budget, i, k), "view": view, "legal": legal}
        job["key"] = hashlib.sha256(canonical(job).encode()).hexdigest()[:32]
        jobs.append(job)
    return jobs


def run_shard(job: dict, time_cap: float | None = None) -> dict:
    """One shard's search (``time_cap``: seconds instead of the budget's own cap)."""
    budget = job["budget"] if time_cap is None else dict(job["budget"], time_cap=time_cap)
    stats: dict = {}
    h = hooks(plugin(job["game"]))
    values = h.search_values(job["view"], job["legal"], random.Random(job["seed"]), budget,
                             stats, job["level"])
    return {"key": job["key"], "values": [float(v) for v in values],
            "samples": int(stats.get("samples", 0)), "solved": stats.get("solved"),
            "capped": bool(stats.get("capped"))}


def run_inline(jobs: list[dict]) -> list[dict]:
    """Every job here, in order; the budget's time cap (a safety net) is the whole decision's:
    each shard gets what the earlier ones left."""
    if not jobs:
        return []
    b = jobs[0]["budget"]
    clock, deadline = timer(b)
    return [run_shard(j, max(0.0, deadline - clock())) for j in jobs]


_runner = run_inline


@contextlib.contextmanager
def using(runner):
    """Run the shards of the searches inside the block with ``runner(jobs) -> results``."""
    global _runner
    before, _runner = _runner, runner
    try:
        yield
    finally:
        _runner = before


def run(jobs: list[dict]) -> list[dict]:
    """The jobs' results, in the order of ``jobs``, by the current runner."""
    return _runner(jobs)


def merge(results: list[dict], jobs: list[dict]) -> dict:
    """The decision from its shards' results (any order): the mean values, added up in shard
    order, and the totals of samples, solved samples and capped shards."""
    by_key = {r["key"]: r for r in results}
    ordered = [by_key[j["key"]] for j in jobs]
    n = len(jobs[0]["legal"])
    for r in ordered:
        v = r["values"]
        if len(v) != n or not all(isinstance(x, (int, float)) and math.isfinite(x) for x in v):
            raise ValueError("a search shard's values do not fit its decision")
    values = []
    for j in range(n):
        t = 0.0
        for r in ordered:
            t += r["values"][j]
        values.append(t / len(ordered))
    solved = [r["solved"] for r in ordered if r.get("solved") is not None]
    return {"values": values, "samples": sum(r["samples"] for r in ordered),
            "solved": sum(solved) if solved else None,
            "capped": any(r["capped"] for r in ordered)}
