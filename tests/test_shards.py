"""Level 4's search in shards (``atut.bots.shards``, docs/BOTS.md): the decision does not depend
on where or in which order the shards run, and the bridge's pool protocol gives the same game as the
table's worker searching alone."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

import atut
from atut.bots import make_bot, shards
from atut.bots.shards import ShardsNeeded, merge, run_shard

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))
import bridge  # noqa: E402

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


def test_a_runner_that_needs_the_pool_is_not_taken_for_a_failed_search():
    """``ShardsNeeded`` passes through a bot that is not strict (which plays by the rules when
    its search fails): the op that asked stops and the pool runs the jobs."""
    view = decisions("sixty_six", 2, seed=3, count=1)[0]
    bot = make_bot("sixty_six", 4, seed=1, budget=LIFTED, strict=False)

    def pool(jobs):
        raise ShardsNeeded(jobs)
    with shards.using(pool), pytest.raises(ShardsNeeded) as caught:
        bot.choose(view)
    assert [j["key"] for j in caught.value.jobs] == [j["key"] for j in bot.shard_jobs(view)]
    assert "errors" not in bot.stats


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


# --- the bridge: the pool protocol --------------------------------------------------------------

def call(table, op, **args):
    bridge.TABLE = table
    return json.loads(bridge.handle(op, json.dumps(args)))


@pytest.fixture
def tables(monkeypatch):
    monkeypatch.setattr(bridge, "TABLE", None)

    def make(game_id, players, pool, levels=(4,)):
        t = bridge.Table()
        r = call(t, "new_game", game=game_id, players=players, seed=5, seat=0,
                 levels=list(levels))
        assert r["ok"], r
        if pool:
            assert call(t, "pool", on=True) == {"ok": True, "result": {"on": True}}
        for bot in t.bots.values():         # no wall clock: a loaded machine cuts no search
            if bot.level >= 3:
                bot.budget.update(LIFTED)
        return t
    return make


def pooled(table, worker, op, **args):
    """``op`` on a table with the pool on: the jobs it asks for run (in reverse order) on
    another table's bridge, as the search workers do; (reply, rounds of jobs)."""
    rounds = 0
    while True:
        r = call(table, op, **args)
        if "shards" not in r:
            return r, rounds
        rounds += 1
        assert rounds == 1, "the jobs' results were handed in, yet the op asked again"
        assert set(r) == {"ok", "shards"} and r["ok"] is True
        results = [call(worker, "shard_run", job=j)["result"] for j in reversed(r["shards"])]
        assert all(set(x) == {"key", "values", "samples", "solved", "capped"} for x in results)
        assert call(table, "shards_done", results=results)["ok"]


@pytest.mark.parametrize("game_id,players", [("sixty_six", 3), ("euchre", 4), ("cesarz", 3),
                                             ("tysiac1001", 4), ("imperial", 2)])
def test_a_table_with_the_pool_plays_the_same_game(tables, game_id, players):
    """Level-4 bots with the pool (jobs run by another bridge) and without it take the same
    actions and give the page the same replies; a bot step that asks for jobs changes
    nothing."""
    alone, pool, worker = tables(game_id, players, False), tables(game_id, players, True), \
        bridge.Table()
    rng = random.Random(1)
    asked = 0
    for _ in range(14):
        g = alone.game
        if g.is_over:
            break
        if g.to_move == alone.seat:
            a = rng.choice(g.legal_actions())
            assert call(alone, "act", action=a) == call(pool, "act", action=a)
            continue
        before = pool.game.to_json()
        first = call(pool, "bot_step")
        if "shards" in first:
            assert pool.game.to_json() == before           # nothing changed meanwhile
            asked += 1
            first = pooled(pool, worker, "bot_step")[0]
        assert first == call(alone, "bot_step")
        assert pool.game.history == alone.game.history
    assert asked >= 3


def test_review_grades_are_the_same_with_the_pool(tables):
    alone, pool, worker = tables("sixty_six", 2, False), tables("sixty_six", 2, True), \
        bridge.Table()
    for t in (alone, pool):
        t.levels = {1: 1}
        t.bots = {1: make_bot("sixty_six", 1, seed=3)}
    rng = random.Random(2)
    while alone.finished is None and not alone.game.is_over:
        g = alone.game
        if g.to_move == alone.seat:
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


def test_the_pool_ops_refuse_bad_input_clearly(tables):
    t = tables("euchre", 4, True)
    worker = bridge.Table()
    for bad in ({}, {"on": 1}, {"on": "yes"}):
        r = call(t, "pool", **bad) if bad else {"ok": True}
        if bad:
            assert r["ok"] is False and "pool" in r["error"]
    for results in (None, {}, [1], [{"key": "x"}], [{"key": "x", "values": ["a"], "samples": 1,
                                                      "solved": None, "capped": False}]):
        r = call(t, "shards_done", results=results)
        assert r["ok"] is False and "shard" in r["error"], r
    job = make_bot("euchre", 4, seed=1).shard_jobs(t.game.view(t.game.to_move))[0]
    broken = [None, {}, dict(job, game="chess"), dict(job, level=5), dict(job, seed=-1),
              dict(job, budget={"rollouts": 10 ** 9}), dict(job, budget={"nonsense": 1}),
              dict(job, budget={"rollouts": "many"}), dict(job, legal=[]),
              dict(job, view=dict(job["view"], hand=["XX"])),
              dict(job, view={"game": "euchre", "legal_actions": job["legal"]}),
              {**{k: v for k, v in job.items() if k != "key"}, "extra": 1}]
    for j in broken:
        r = call(worker, "shard_run", job=j)
        assert r["ok"] is False and r["error"].startswith("shard_run"), (j, r)
    # a good job with a small budget runs; the table's game is untouched by any of it
    small = dict(job, budget={"rollouts": 8, "min_samples": 2, "time_cap": 5.0})
    r = call(worker, "shard_run", job=small)
    assert r["ok"] and len(r["result"]["values"]) == len(job["legal"])
    # a worker with several shards of a decision shares its time cap: never more than the job's
    assert call(worker, "shard_run", job=small, time_cap=2.5)["ok"]
    for cap in (0, -1, 6.0, "1", True):
        r = call(worker, "shard_run", job=small, time_cap=cap)
        assert r["ok"] is False and "time_cap" in r["error"], (cap, r)
