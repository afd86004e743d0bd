"""The pool of search workers (docs/BOTS.md) in Chromium: level 4's search split into shards, run in
extra Pyodide workers (web/lib/pool.js, web/worker.js's search role).

- The first deal of a seeded game with level-4 bots (no delay, the person choosing seeded random
  actions) is played with 4 search workers and with 1 (no pool): the same actions (read from the
  save, debug=1), and the pool did run jobs.  The review grade of the person's first decision is
  the same with the pool as without.  No message to the page carries a job, a shard's result
  or another seat's view.
- The pool starts when it is first needed: a level-3 game starts no search worker; the first
  level-4 bot move of the next game (same page) is computed in the table's worker and asks the
  page for the pool, whose workers then take the jobs once their engines are up.
- A search worker that dies (terminated by the test's hook, a short time-out set) does not stall
  the game: the move waits for the time-out, is computed in the table's worker, the dead worker
  is dropped, and the moves are still the same.
"""

from __future__ import annotations

import json
import random

from conftest import VIEWPORT, PageProblems

from harness import game_url, open_game, play_first_deal, wait_until

GAME, PLAYERS, SEED = "sixty_six", 2, 11


# every message a worker posts to the page, kept as JSON text (fair play: no job, no shard
# result, no other seat's view ever reaches the page)
CAPTURE = """(() => {
  const Orig = window.Worker;
  window.__poolGot = [];
  window.Worker = class extends Orig {
    constructor(url, opts) {
      super(url, opts);
      this.addEventListener("message", (e) => window.__poolGot.push(JSON.stringify(e.data ?? null)));
    }
  };
})();"""


def _walk(x):
    if isinstance(x, dict):
        yield x
        for v in x.values():
            yield from _walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from _walk(v)


def _page_saw_no_search(pg):
    """No message to the page carries a job, a shard's result or a view of another seat."""
    got = pg.evaluate("() => window.__poolGot")
    assert got
    for text in got:
        for d in _walk(json.loads(text)):
            assert not {"shards", "job", "values", "ask"} & set(d), text[:300]
            if isinstance(d.get("view"), dict) and "seat" in d["view"]:
                assert d["view"]["seat"] == 0, text[:300]


def _context(browser, dist_url, workers):
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-US")
    ctx.add_init_script(f"try {{ localStorage.setItem('atut.pool', '{workers}'); }} catch (_) {{}}")
    ctx.add_init_script(CAPTURE)
    pg = ctx.new_page()
    pg.set_default_timeout(120_000)
    problems = PageProblems(dist_url)
    pg.on("console", problems.on_console)
    pg.on("pageerror", problems.on_pageerror)
    pg.on("request", problems.on_request)
    return ctx, pg, problems


def _wait_ready(pg, want):
    """The page's pool has ``want`` search workers, each with its engine up."""
    pg.wait_for_function("(n) => window.atutPool && window.atutPool.size === n", arg=want)
    wait_until(pg, "(n) => atutPage.request('debug_pool').then((p) => p.workers === n && "
               "p.ready === n)", want)


def _page(browser, dist_url, workers):
    """A level-4 game with the pool started at once (the test's hook) and ready."""
    ctx, pg, problems = _context(browser, dist_url, workers)
    open_game(pg, dist_url, GAME, PLAYERS, SEED, bots="4")
    pg.evaluate("() => window.atutPool.start()")
    _wait_ready(pg, workers if workers >= 2 else 0)
    return ctx, pg, problems


def _pool(pg):
    return pg.evaluate("() => atutPage.request('debug_pool')")


def _actions(pg):
    return json.loads(pg.evaluate("() => atutPage.request('save')"))["actions"]


def _play(pg, turns=None):
    """The person's seeded random choices until the first deal ends (or `turns` of them), then
    the bots' replies to the last choice."""
    play_first_deal(pg, random.Random(SEED), turns)
    pg.wait_for_function("() => atutPage.view && (atutPage.view.to_move === 0 || atutPage.view.is_over)")
    # and in the table's worker: the page's view may change before it asks for the bots' moves
    wait_until(pg, "() => atutPage.request('view').then((v) => v.to_move === 0 || v.is_over)",
               timeout=180_000)


def _first_grade(pg):
    pg.wait_for_selector("body[data-pregrade=done]", timeout=300_000)
    steps = pg.evaluate("() => atutPage.request('review')")["steps"]
    i = next(s["i"] for s in steps if s["mine"])
    return pg.evaluate("(i) => atutPage.request('review_grade', {i})", i)


def test_pool_same_moves_and_grade(browser, dist_url):
    ctx, pg, problems = _page(browser, dist_url, 1)
    try:
        _play(pg)
        alone = _actions(pg)
        grade_alone = _first_grade(pg)
        assert _pool(pg)["jobs"] == 0
    finally:
        ctx.close()
    problems.check()

    ctx, pg, problems = _page(browser, dist_url, 4)
    try:
        _play(pg)
        pooled = _actions(pg)
        p = _pool(pg)
        assert p["on"] and p["workers"] == 4 and p["jobs"] > 0 and p["fallbacks"] == 0, p
        assert pooled == alone
        grade_pooled = _first_grade(pg)
        assert grade_pooled == grade_alone
        after = _pool(pg)
        assert after["fallbacks"] == 0 and after["jobs"] > p["jobs"], after   # graded in the pool
        _page_saw_no_search(pg)
    finally:
        ctx.close()
    problems.check()


def test_pool_starts_when_first_needed(browser, dist_url):
    ctx, pg, problems = _context(browser, dist_url, 2)
    try:
        open_game(pg, dist_url, GAME, PLAYERS, SEED, bots="3")
        play_first_deal(pg, random.Random(SEED), turns=3)
        p = _pool(pg)
        assert p["idle"] and not p["wanted"] and p["workers"] == 0 and p["here"] == 0, p
        assert not pg.evaluate("() => window.atutPool.started")
        # a level-4 game in the same page: its first bot search asks for the pool
        before = pg.evaluate("() => JSON.stringify(atutPage.view)")
        pg.evaluate("(h) => { location.hash = h; }",
                    game_url("", GAME, PLAYERS, SEED, bots="4").split("#", 1)[1])
        pg.wait_for_function("(b) => atutPage.view && JSON.stringify(atutPage.view) !== b",
                             arg=before)
        _play(pg, turns=1)
        _wait_ready(pg, 2)
        _play(pg)
        p = _pool(pg)
        assert p["wanted"] and not p["idle"] and p["here"] >= 1, p
        assert p["jobs"] > 0 and p["fallbacks"] == 0, p
        assert _actions(pg) == _actions_alone(browser, dist_url, 1, None)
    finally:
        ctx.close()
    problems.check()


def _actions_alone(browser, dist_url, *turns):
    """The actions of the same level-4 game without a pool, the person's choices made by the same
    calls of ``_play`` (``turns`` each) as in the pooled game."""
    ctx, pg, problems = _page(browser, dist_url, 1)
    try:
        for t in turns:
            _play(pg, t)
        got = _actions(pg)
    finally:
        ctx.close()
    problems.check()
    return got


def test_dead_search_worker_falls_back(browser, dist_url):
    ctx, pg, problems = _page(browser, dist_url, 2)
    try:
        pg.evaluate("() => atutPage.request('debug_pool', {timeout_ms: 2000})")
        pg.evaluate("() => window.atutPool.kill(0)")
        _play(pg, turns=3)
        p = _pool(pg)
        assert p["fallbacks"] >= 1 and p["workers"] == 1 and p["jobs"] > 0, json.dumps(p)
        got = _actions(pg)
    finally:
        ctx.close()
    problems.check()
    assert _actions_alone(browser, dist_url, 3) == got
