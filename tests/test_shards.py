"""Level 4's search in shards (``atut.bots.shards``): the decision does not depend on where or in
which order the shards run, and the table's exchange with the pool (``atut.table``: the op asks
for its jobs, gets their results, decides) gives the same game as the table searching alone."""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut.bots import make_bot, shards
from atut.bots.shards import merge, run_shard
from atut.table import Dispatcher, Jobs, Table

LIFTED = {"time_cap": 1e9, "clock": "cpu"}
SETTINGS = [("sixty_six", 2), ("sixty_six", 4), ("euchre", 4), ("imperial", 2), ("imperial", 3),
            ("tysiac1001", 3), ("cesarz", 3), ("cesarz", 5)]


def decisions(game_id, players, seed, count):
    """Views of the first ``count`` decisions (two or more legal actions) of a seeded game
    between level-2 bots."""
    g = atut.new_game(game_id, players=players, seed=seed)
    bots = [make_bot(game_id, 2, seed=s) for s in range(players)]
    out = []
    while not g.is_over and len(out) < count:
        v = g.view(g.to_move)
        if len(v["legal_actions"]) > 1:
            out.append(v)
        g.apply(bots[g.to_move].choose(v))
    return out


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_the_shards_give_the_decision_in_any_order_and_after_json(game_id, players):
    """The values of a level-4 decision equal the merge of its shards run one by one, in
    reverse order, each from its JSON text (as a search worker gets it) with results sent back
    as JSON; the split budgets add up to the whole."""
    for view in decisions(game_id, players, seed=7, count=2):
        bot = make_bot(game_id, 4, seed=11, budget=LIFTED)
        values, scores = bot.evaluate(view)
        jobs = bot.shard_jobs(view)
        assert len(jobs) == shards.SHARDS[4] == 4
        assert len({j["seed"] for j in jobs}) == 4 and len({j["key"] for j in jobs}) == 4
        for key in shards.SPLIT:
            if bot.budget.get(key, 0) >= 4:
                assert sum(j["budget"][key] for j in jobs) == bot.budget[key]
        results = [json.loads(json.dumps(run_shard(json.loads(json.dumps(j)))))
                   for j in reversed(jobs)]
        assert merge(results, jobs)["values"] == values
        best = max(range(len(scores)), key=lambda i: scores[i])
        assert bot.choose(view) == view["legal_actions"][best]
        assert bot.stats["samples"] == sum(r["samples"] for r in results) > 0


def test_level_3_searches_in_one_piece():
    """Level 3 (and so the hints) is not split: its decisions are those measured before."""
    view = decisions("euchre", 4, seed=3, count=1)[0]
    bot = make_bot("euchre", 3, seed=1, budget=LIFTED)
    assert bot.shards == 1
    seen = []
    with shards.using(lambda jobs: seen.append(jobs) or shards.run_inline(jobs)):
        bot.choose(view)
    assert seen == []


def test_the_jobs_a_bot_step_asks_for_are_those_its_search_runs():
    """A level-4 bot's move asks for its shards first (``Jobs``), the table unchanged; the
    search then takes exactly those jobs' results, and no failed search is counted."""
    t = Table()
    t.new_game("sixty_six", players=2, seed=3, seat=0, levels=[4])
    g = t.game
    while g.to_move == t.seat:
        g.apply(g.legal_actions()[0])
    steps = t.bot_step_steps()
    need = next(steps)
    assert isinstance(need, Jobs) and len(need.jobs) == 4
    assert len(g.history) == len(t.game.history) and t.game is g     # nothing changed yet
    seen = []

    def runner(jobs):
        seen.append([j["key"] for j in jobs])
        return shards.run_inline(jobs)
    with shards.using(runner):
        results = [run_shard(j) for j in need.jobs]
    with pytest.raises(StopIteration) as done:
        steps.send(results)
    assert seen == []                      # the search took the results handed in
    assert done.value.value["view"] == t.view()
    assert "errors" not in t.bots[1].stats


def test_a_shard_that_does_not_fit_its_decision_is_refused():
    view = decisions("imperial", 2, seed=3, count=1)[0]
    bot = make_bot("imperial", 4, seed=1, budget=dict(LIFTED, rollouts=40, solve_samples=4))
    jobs = bot.shard_jobs(view)
    results = [run_shard(j) for j in jobs]
    results[2] = dict(results[2], values=results[2]["values"][:-1])
    with pytest.raises(ValueError, match="do not fit"):
        merge(results, jobs)
    results[2] = dict(results[2], values=[float("nan")] * len(view["legal_actions"]))
    with pytest.raises(ValueError, match="do not fit"):
        merge(results, jobs)


# --- the table: the exchange with the pool ------------------------------------------------------

def call(desk, op, caller="page", **args):
    return json.loads(desk.handle(op, json.dumps(args), caller))


@pytest.fixture
def tables():
    def make(game_id, players, pool, levels=(4,)):
        d = Dispatcher()
        r = call(d, "new_game", game=game_id, players=players, seed=5, seat=0,
                 levels=list(levels))
        assert r["ok"], r
        if pool:
            assert call(d, "pool", "worker", on=True) == {"ok": True, "result": {"on": True}}
        for bot in d.table.bots.values():   # no wall clock: a loaded machine cuts no search
            if bot.level >= 3:
                bot.budget.update(LIFTED)
        return d
    return make


def pooled(desk, worker, op, **args):
    """``op`` on a table with the pool on: the jobs it asks for run (in reverse order) on
    another worker's table, as the search workers do; (reply, rounds of jobs)."""
    rounds = 0
    r = call(desk, op, **args)
    while "jobs" in r:
        rounds += 1
        assert rounds == 1, "the jobs' results were handed in, yet the op asked again"
        assert set(r) == {"ok", "jobs"} and r["ok"] is True
        results = [call(worker, "shard_run", "pool", job=j)["result"] for j in reversed(r["jobs"])]
        assert all(set(x) == {"key", "values", "samples", "solved", "capped"} for x in results)
        r = call(desk, "search_results", "worker", results=results)
    return r, rounds


@pytest.mark.parametrize("game_id,players", [("sixty_six", 3), ("euchre", 4), ("cesarz", 3),
                                             ("tysiac1001", 4), ("imperial", 2)])
def test_a_table_with_the_pool_plays_the_same_game(tables, game_id, players):
    """Level-4 bots with the pool (jobs run by another worker's table) and without it take the
    same actions and give the page the same replies; a bot step that asks for jobs changes
    nothing until their results come."""
    alone, pool, worker = tables(game_id, players, False), tables(game_id, players, True), \
        Dispatcher()
    rng = random.Random(1)
    asked = 0
    for _ in range(14):
        g = alone.table.game
        if g.is_over:
            break
        if g.to_move == alone.table.seat:
            a = rng.choice(g.legal_actions())
            assert call(alone, "act", action=a) == call(pool, "act", action=a)
            continue
        before = pool.table.game.to_json()
        first = call(pool, "bot_step")
        if "jobs" in first:
            assert pool.table.game.to_json() == before       # nothing changed meanwhile
            asked += 1
            results = [call(worker, "shard_run", "pool", job=j)["result"]
                       for j in reversed(first["jobs"])]
            first = call(pool, "search_results", "worker", results=results)
        assert first == call(alone, "bot_step")
        assert pool.table.game.history == alone.table.game.history
    assert asked >= 3


def test_the_pool_failing_runs_the_same_jobs_here(tables):
    """Results of null (the pool failed): the waiting op runs its jobs here, the same move."""
    alone, pool = tables("euchre", 4, False), tables("euchre", 4, True)
    for d in (alone, pool):
        g = d.table.game
        while g.to_move == d.table.seat:
            g.apply(g.legal_actions()[0])
    r = call(pool, "bot_step")
    assert "jobs" in r
    assert call(pool, "search_results", "worker", results=None) == call(alone, "bot_step")
    # nothing waits any more: more results are refused
    r = call(pool, "search_results", "worker", results=[])
    assert r["ok"] is False and "waiting" in r["error"]


def test_review_grades_are_the_same_with_the_pool(tables):
    alone, pool, worker = tables("sixty_six", 2, False), tables("sixty_six", 2, True), \
        Dispatcher()
    for d in (alone, pool):
        d.table.levels = {1: 1}
        d.table.bots = {1: make_bot("sixty_six", 1, seed=3)}
    rng = random.Random(2)
    while alone.table.finished is None and not alone.table.game.is_over:
        g = alone.table.game
        if g.to_move == alone.table.seat:
            a = rng.choice(g.legal_actions())
            call(alone, "act", action=a)
            call(pool, "act", action=a)
        else:
            assert pooled(pool, worker, "bot_step")[0] == call(alone, "bot_step")
    steps = call(alone, "review")["result"]["steps"]
    mine = [s["i"] for s in steps if s["mine"]][:2]
    assert mine
    budget = {"rollouts": 120, "min_samples": 8}
    for i in mine:
        got, rounds = pooled(pool, worker, "review_grade", i=i, budget=budget)
        assert rounds == 1
        assert got == call(alone, "review_grade", i=i, budget=budget)
        assert got["result"] == alone.table.review_grade(i, budget)     # the typed API


def test_the_pool_ops_refuse_bad_input_clearly(tables):
    d = tables("euchre", 4, True)
    worker = Dispatcher()
    for bad in ({}, {"on": 1}, {"on": "yes"}):
        r = call(d, "pool", "worker", **bad) if bad else {"ok": True}
        if bad:
            assert r["ok"] is False and "pool" in r["error"]
    for results in ({}, [1], [{"key": "x"}], [{"key": "x", "values": ["a"], "samples": 1,
                                               "solved": None, "capped": False}]):
        r = call(d, "search_results", "worker", results=results)
        assert r["ok"] is False and "shard" in r["error"], r
    # the pool's ops are not the page's, nor the page's the pool's
    for op in ("pool", "search_results", "shard_run"):
        r = call(d, op)
        assert r == {"ok": False, "error": f"{op} is the worker's own"}, r
    r = call(worker, "view", "pool")
    assert r["ok"] is False and "a search worker has no op" in r["error"]
    g = d.table.game
    job = make_bot("euchre", 4, seed=1).shard_jobs(g.view(g.to_move))[0]
    broken = [None, {}, dict(job, game="chess"), dict(job, level=6), dict(job, seed=-1),
              dict(job, budget={"rollouts": 10 ** 9}), dict(job, budget={"nonsense": 1}),
              dict(job, budget={"rollouts": "many"}), dict(job, legal=[]),
              dict(job, view=dict(job["view"], hand=["XX"])),
              dict(job, view={"game": "euchre", "legal_actions": job["legal"]}),
              {**{k: v for k, v in job.items() if k != "key"}, "extra": 1}]
    for j in broken:
        r = call(worker, "shard_run", "pool", job=j)
        assert r["ok"] is False and r["error"].startswith("shard_run"), (j, r)
    # a good job with a small budget runs; the table's game is untouched by any of it
    small = dict(job, budget={"rollouts": 8, "min_samples": 2, "time_cap": 5.0})
    r = call(worker, "shard_run", "pool", job=small)
    assert r["ok"] and len(r["result"]["values"]) == len(job["legal"])
    # a worker with several shards of a decision shares its time cap: never more than the job's
    assert call(worker, "shard_run", "pool", job=small, time_cap=2.5)["ok"]
    for cap in (0, -1, 6.0, "1", True):
        r = call(worker, "shard_run", "pool", job=small, time_cap=cap)
        assert r["ok"] is False and "time_cap" in r["error"], (cap, r)
