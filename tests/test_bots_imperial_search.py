"""The imperial search's own paths are the generic ones, only faster: ``pimc`` (rollouts on
compact masks) gives exactly the values of ``bots.search.search`` with the plug-in's
``rollout_policy`` and ``evaluate``; ``Sampler`` deals exactly as ``determinize`` does."""

from __future__ import annotations

import random

import pytest

import atut
from atut.bots import imperial as B
from atut.bots import make_bot
from atut.bots.search import BUDGETS, search


def positions(n, seed, every, min_score=0):
    """Views of the seat to move with a choice, every ``every``-th step of a game of level-2
    bots (only once somebody has ``min_score`` points: near 120 a lead may win the game)."""
    g = atut.new_game("imperial", players=n, seed=seed)
    bots = [atut.make_bot("imperial", 2, seed=seed + s) for s in range(n)]
    step = 0
    while not g.is_over:
        v = g.view(g.to_move)
        if len(v["legal_actions"]) > 1 and max(v["scores"]) >= min_score and step % every == 0:
            yield v
        g.apply(bots[g.to_move].choose(v))
        step += 1


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("min_score", [0, 90])
def test_pimc_gives_the_generic_search_values(n, min_score):
    budget = dict(BUDGETS[3], rollouts=24, min_samples=3, time_cap=1e9)
    checked = 0
    views = (v for seed in range(1, 9) for v in positions(n, seed, 7 if not min_score else 2,
                                                          min_score))
    for i, v in enumerate(views):
        b = dict(budget, common_rollouts=bool(i % 2))
        want = search(B, v, v["legal_actions"], random.Random(i), b, {})
        got = B.pimc(v, v["legal_actions"], random.Random(i), b, {})
        assert got == want
        checked += 1
        if checked == 25:
            break
    assert checked >= 10


@pytest.mark.parametrize("n", [2, 3])
def test_sampler_deals_as_determinize(n):
    for i, v in enumerate(positions(n, 11, 5)):
        a, b = random.Random(i), random.Random(i)
        sampler = B.Sampler(v)
        for _ in range(3):
            g = B.determinize(v, a)
            deal = sampler.deal(b)
            assert sampler.hands(deal) == g.hands and deal.get("unused", 0) == g.unused
            b.getrandbits(64)                         # determinize's game takes one draw
        assert a.random() == b.random()


def endgame_view(n, seed=3):
    """The seat to move's view with a choice once it holds 8 cards (the solver's phase)."""
    for v in positions(n, seed, 1):
        if len(v["hand"]) == 8 and v["seat"] == 0 and len(v["legal_actions"]) > 2:
            return v
    raise AssertionError("no endgame position")


@pytest.mark.parametrize("n", [2, 3])
def test_the_solver_phase_is_counted_work(n):
    v = endgame_view(n)
    lifted = {"time_cap": 1e9, "clock": "cpu"}
    bot = make_bot("imperial", 4, seed=1, budget=lifted)
    full = bot.evaluate(v)
    assert full is not None and len(full[0]) == len(v["legal_actions"])
    assert bot.stats["solved"] == bot.stats["samples"] == B.BUDGETS[4]["solve_samples"]
    # a total of nodes for the decision: the samples solved within it decide
    small = make_bot("imperial", 4, seed=1, budget=dict(lifted, solve_total=4000))
    part = small.evaluate(v)
    assert 0 < small.stats["solved"] < B.BUDGETS[4]["solve_samples"]
    # stopped by the counted total, not by the clock: not "cut by the time cap"
    assert small.stats["capped"] == 0
    again = make_bot("imperial", 4, seed=1, budget=dict(lifted, solve_total=4000))
    assert again.evaluate(v) == part                  # counted, so repeatable
    # too small for even one solve: the rollouts decide
    tiny = make_bot("imperial", 4, seed=1, budget=dict(lifted, solve_total=5))
    tiny.evaluate(v)
    assert tiny.stats["solved"] == 0 and tiny.stats["samples"] > 0


def test_the_solver_phase_counts_a_decision_cut_by_the_clock():
    v = endgame_view(2)
    bot = make_bot("imperial", 4, seed=1, budget={"time_cap": -1.0, "clock": "cpu"})
    bot.evaluate(v)
    assert bot.stats["capped"] >= 1
