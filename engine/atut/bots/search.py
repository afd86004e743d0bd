"""The generic determinized search (perfect-information Monte Carlo) of levels 3 and 4.

``search`` samples full states consistent with the view (the plug-in's ``determinize``), tries
every legal action in each sample and finishes the deal with the plug-in's ``rollout_policy``
(``rollout``), or, at level 4 where the plug-in says a sample is ``solvable``, values each action
exactly (``bots.solver.solve``); each action is tried on a copy of the sample (the plug-in's
``clone``, ``fast_clone`` by default).  The plug-in's hooks are resolved once per decision
(``bots.interface.hooks``).
"""

from __future__ import annotations

import random

from ..game import canonical
from .catalogue import BY_NUMBER, SEARCH_LEVELS, timer
from .interface import default_state_key, hooks

# Budgets per search level, from the level table (``bots.catalogue``, where their keys are
# described); a game's plug-in overrides them with its own ``BUDGETS``.
BUDGETS = {n: dict(BY_NUMBER[n].budget) for n in SEARCH_LEVELS}


def fast_clone(game):
    """``game.clone()`` for search, but sharing the RNG (copying its state costs far more than
    the rest): deterministic all the same, since every search step is.  Lists (and lists in
    lists) and dicts are copied one level down, as ``Game.clone`` does."""
    new = object.__new__(type(game))
    d = game.__dict__.copy()
    for k, v in d.items():
        t = type(v)
        if t is list:
            d[k] = [x[:] if type(x) is list else x for x in v]
        elif t is dict:
            d[k] = v.copy()
    d["_cache"] = None                      # the base class's legal-action cache
    d["_log_cache"] = None                  # and its record of what each seat sees
    new.__dict__ = d
    return new


def rollout(p, game, start, seat, rng) -> float:
    """Play ``game`` (mutated) to the end of the deal with the rollout policy; its value.
    ``p``: the plug-in module or its resolved ``hooks``."""
    h = hooks(p)
    play_out(h, game, start, rng)
    return h.evaluate(game, seat, start)


def play_out(h, game, start, rng) -> None:
    """Play ``game`` (mutated) to the end of the deal with the resolved ``hooks`` ``h``'s
    rollout policy."""
    play = h.rollout_play
    over = h.deal_over
    game._one_deal = True                   # no next deal is dealt (Game._next_deal)
    steps = 0
    while not over(game, start):
        play(game, rng)
        steps += 1
        if steps > 10000:
            raise RuntimeError("rollout does not end: the plug-in's deal_over never holds")


def search(p, view: dict, legal: list, rng: random.Random, budget: dict,
           stats: dict | None = None) -> list[float]:
    """Mean value of every legal action over determinizations of ``view`` (PIMC).

    ``p``: the plug-in module (or its ``hooks``).  ``budget["rollouts"]`` rollouts in all,
    spread evenly over the actions (at least ``min_samples`` determinizations); in each
    determinization every action gets the same sample, which reduces variance.  With
    ``solve_nodes`` and the plug-in's ``solvable``, a solvable sample values each action exactly
    instead."""
    from .solver import _last_nodes, _SolveLimit, solve
    h = hooks(p)
    determinize = h.determinize
    clone = h.clone
    seat = view["seat"]
    keys = [canonical(a) for a in legal]
    n_act = len(legal)
    samples = max(budget["min_samples"], -(-budget["rollouts"] // n_act))
    clock, deadline = timer(budget)
    solvable = h.solvable if budget.get("solve_nodes") else None
    state_key = h.state_key if h.state_key is not default_state_key else None
    cache: dict = {}
    totals = [0.0] * n_act
    done = 0
    solved = 0
    for i in range(samples):
        g = determinize(view, rng)
        g._one_deal = True                  # play stops where the deal ends (Game._next_deal)
        if i == 0:
            check_determinization(g, view, keys)
        by_key = {canonical(a): a for a in g._legal()}
        exact = None
        if solvable is not None and solvable(g, g):
            sk = state_key(g) if state_key is not None else None
            if sk is not None and sk in cache:
                exact = cache[sk]
            else:
                try:
                    exact = []
                    left = budget["solve_nodes"]          # shared by the actions of a sample
                    for k in keys:
                        c = clone(g)
                        c._apply(by_key[k])
                        exact.append(solve(h, c, g, seat, left, deadline, clock))
                        left -= _last_nodes[0]
                    solved += 1
                except _SolveLimit:
                    exact = None
                if sk is not None:
                    cache[sk] = exact
        if exact is not None:
            for j in range(n_act):
                totals[j] += exact[j]
        else:
            crn = rng.getrandbits(64) if budget.get("common_rollouts") else None
            for j, k in enumerate(keys):
                c = clone(g)
                c._apply(by_key[k])
                # common random numbers: every action's rollout in a sample uses the same stream
                r = random.Random(crn) if crn is not None else rng
                totals[j] += rollout(h, c, g, seat, r)
        done += 1
        if clock() > deadline:
            break
    note_search(stats, done, done < samples, solved)
    return [t / done for t in totals]


def note_search(stats: dict | None, samples: int, capped: bool, solved: int | None = None):
    """Record one search decision in a bot's ``stats`` (read by the arena and bench-bots):
    samples done, exact solves (when the search has a solver), decisions, decisions cut by
    the time cap."""
    if stats is None:
        return
    stats["samples"] = samples
    if solved is not None:
        stats["solved"] = solved
    stats["decisions"] = stats.get("decisions", 0) + 1
    stats["capped"] = stats.get("capped", 0) + capped


def check_determinization(g, view: dict, keys: list[str]) -> None:
    """Raise ``AssertionError`` unless the sampled state matches the view (seat, legal actions)."""
    if g.to_move != view["seat"]:
        raise AssertionError(f"determinize: seat {g.to_move} to move, the view is seat "
                             f"{view['seat']}'s")
    got = sorted(canonical(a) for a in g._legal())
    if got != sorted(keys):
        raise AssertionError(f"determinize: legal actions {got} differ from the view's "
                             f"{sorted(keys)}")
