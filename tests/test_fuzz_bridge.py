"""Fuzzing the worker's request protocol (``atut.table.Dispatcher.handle(op, args_json,
caller)``, which ``web/bridge.py`` calls) in CPython, as tests/browser/test_hostile_worker.py
does through the page's worker.

Tables of every game, at their start, mid-deal, between deals, at the person's turn or a bot's,
and over, get random requests: the real op names and junk ones, with arguments of the right
names and of wrong types, extra and missing arguments, huge values, cut and nested JSON, and
near-legal actions, from the callers each op has and from others.  Every reply must be JSON
``{"ok": true, "result": ...}`` (the result JSON too) or ``{"ok": false, "error": <a short
readable message>}`` — never an "internal error" — and after a refused request the table's
game is unchanged (the same save, seat and bots).  The requests are drawn from a seeded
``random.Random`` (each failure names its seed, request and arguments); ``ATUT_FUZZ_SCALE``
(see ``tests/test_fuzz_saves.py``) scales their number.
"""

from __future__ import annotations

import inspect
import json
import os
import random
from collections import Counter

import pytest

import atut
from atut import cards as C
from atut.bots import make_bot, shards
from atut.table import CALLERS, OPS, PAGE, Dispatcher

SCALE = float(os.environ.get("ATUT_FUZZ_SCALE", "1") or 1)
PER_TABLE = 200                       # requests per table; 5 games x 2 seeds x 5 stops
MAX_MESSAGE = 600
SLOW = {"hint", "review_grade"}       # a search: only with a small budget
TINY = {"rollouts": 4, "min_samples": 1, "time_cap": 0.02}
NAMES = sorted(OPS)
PARAMS = {name: list(inspect.signature(op.handler).parameters)[1 if op.on else 0:]
          for name, op in OPS.items()}
JUNK_OPS = ["", " ", "View", "view ", "act;", "_apply", "__init__", "_need_game", "op_act",
            "debug_random_play", "debug_memory", "__class__", "reply", "game", "nonsense",
            "shards_done", "outside_turn", "call", "handle", "\u0000", "новая", None, 5, ["act"]]
TRIED: Counter = Counter()


def scalar(rng):
    return rng.choice([None, True, False, 0, 1, -1, 2, 3, 7, 10 ** 30, -10 ** 30, 2 ** 63, 1.5,
                       -0.0, 1e308, "", "x", "0", "AH", "sixty_six", "euchre", "play", "ĄŚ🂡",
                       "\ud800", "a" * 5000, rng.choice(sorted(C.CARD))])


def junk(rng, depth=0):
    r = rng.random()
    if depth > 2 or r < 0.55:
        return scalar(rng)
    if r < 0.75:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(3))]
    if r < 0.8:
        v = "AH"
        for _ in range(rng.choice((50, 500))):
            v = [v]
        return v
    return {rng.choice(["type", "card", "game", "x", ""]): junk(rng, depth + 1)
            for _ in range(rng.randrange(3))}


def near_action(rng, table, sound=False):
    """A legal action of the person's view (when it has some) made a little wrong, or junk."""
    v = table.view() if table.game is not None else {}
    legal = v.get("legal_actions") or [{"type": "play", "card": rng.choice(sorted(C.CARD))}]
    a = dict(rng.choice(legal))
    r = rng.random()
    if sound or r < 0.15:
        return a                                        # a legal one (when it is my turn)
    if r < 0.3:
        return junk(rng)
    k = rng.choice(list(a) + ["extra", "card", "value"])
    if rng.random() < 0.2 and k in a:
        del a[k]
    else:
        old = a.get(k)
        a[k] = rng.choice([junk(rng), [old], str(old), True, 1.0, 10 ** 40, None,
                           rng.choice(sorted(C.CARD))])
    return a


def value_for(rng, op, name, table, sound=False):
    """A value for argument ``name`` of ``op``: often a sound one, often not."""
    good = sound or rng.random() < 0.5
    g = table.game
    if name == "action":
        return near_action(rng, table, sound)
    if name == "game":
        return rng.choice(list(atut.GAME_IDS)) if good else junk(rng)
    if name == "players":
        return rng.choice([None, 2, 3, 4, 5]) if good else junk(rng)
    if name in ("seed", "action_seed"):
        return rng.randrange(10 ** 6) if good else junk(rng)
    if name == "seat":
        return rng.randrange(5) if good else junk(rng)
    if name == "levels":                                 # never 3 or 4: their bots are slow
        return rng.choice([[1], [2], 1, 2, "random", ["rules"], None, [1, 2]]) if good \
            else rng.choice([[5], [0], -1, "strong!", [[1]], {"1": 1}, [True], "", [1.5]])
    if name == "options":
        return rng.choice([{}, None, {"redeal": True}, {"handout": "any"}]) if good else junk(rng)
    if name == "teach":
        return rng.choice([True, False]) if good else junk(rng)
    if name == "text":
        if g is not None and good:
            save = json.loads(g.to_json())
            r = rng.random()
            if r < 0.3:
                save["actions"] = save["actions"][:rng.randrange(len(save["actions"]) + 1)]
            elif r < 0.6 and save["actions"]:
                save["actions"][rng.randrange(len(save["actions"]))] = junk(rng)
            elif r < 0.8:
                save[rng.choice(list(save))] = junk(rng)
            text = json.dumps(save)
            return text[:rng.randrange(len(text) + 1)] if rng.random() < 0.2 else text
        return junk(rng)
    if name == "budget":                                  # never a lifted time cap
        return rng.choice([{"rollouts": 4, "min_samples": 1, "time_cap": 0.02},
                           {"rollouts": rng.choice(["x", None, [], -1, 1.5, True])},
                           {"time_cap": rng.choice(["1", None, [0.1], {}])},
                           {"nonsense": 1}, "fast", [1], 7, {"clock": 5}])
    if name == "i":
        n = len(g.history) if g is not None else 10
        return rng.randrange(n + 2) if good else junk(rng)
    if name == "on":                                      # the pool of search workers
        return rng.choice([True, False]) if good else junk(rng)
    if name == "job":                                     # a shard of a level-4 search, small
        if g is None or g.to_move is None or not good and rng.random() < 0.5:
            return junk(rng)
        job = make_bot(g.game_id, 4, seed=1, budget=TINY).shard_jobs(g.view(g.to_move))[0]
        if not good:
            job[rng.choice(sorted(job))] = junk(rng)
        return job
    if name == "answer":                                  # a student's bot's answer
        return rng.choice([None, {"failed": "timeout"}, {"action": near_action(rng, table)}]) \
            if good else junk(rng)
    if name == "results":
        if good:
            return rng.choice([[], None])
        return rng.choice([junk(rng), [junk(rng)], [{"key": "x", "values": [1], "samples": 1,
                                                     "solved": None, "capped": junk(rng)}]])
    if name == "max_actions":
        return rng.choice([0, 5, 50]) if good else rng.choice(["x", None, [], 1.5, -3, True])
    return junk(rng)


def request(rng, table):
    """(op, args_json, caller) of a random request: mostly from a caller the op has."""
    op = rng.choice(NAMES) if rng.random() < 0.85 else rng.choice(JUNK_OPS)
    op_callers = sorted(OPS[op].callers) if isinstance(op, str) and op in OPS else [PAGE]
    caller = rng.choice(op_callers) if rng.random() < 0.9 else rng.choice(CALLERS)
    op, args_json = _request(rng, table, op)
    return op, args_json, caller


def _request(rng, table, op):
    names = list(PARAMS.get(op, []) if isinstance(op, str) else [])
    if rng.random() < 0.3:                              # a sound request, or nearly
        args = {n: value_for(rng, op, n, table, sound=True) for n in names
                if n not in ("built", "classes")}
        return op, json.dumps(args)
    args = {n: value_for(rng, op, n, table) for n in names if rng.random() < 0.8}
    if rng.random() < 0.15:
        args[rng.choice(["extra", "self", "kwargs", "actions", "", "__class__"])] = junk(rng)
    slow = isinstance(op, str) and op in SLOW
    if slow and "budget" not in args:
        args["budget"] = dict(TINY)
    if slow and isinstance(args.get("budget"), dict) and "time_cap" in args["budget"] and \
            isinstance(args["budget"]["time_cap"], (int, float)):
        args["budget"]["time_cap"] = 0.02              # a number: never a lifted cap
    r = rng.random()
    if r < 0.04:
        return op, rng.choice(["[", "{", "nul", "[]", "5", '"x"', "null", "{\"a\":", "\ufeff{}",
                               "[" * 50_000, "{\"action\":" * 20_000, "NaN", "1e999"])
    if r < 0.06:
        return op, json.dumps(args)[:rng.randrange(1, len(json.dumps(args)) + 1)]
    return op, json.dumps(args)


def state(table):
    g = table.game
    return None if g is None else (g.to_json(), table.seat, dict(table.levels), id(g))


def readable(msg) -> str | None:
    if not isinstance(msg, str) or not msg.strip():
        return "empty"
    if msg.startswith("internal error"):
        return "an internal error"
    if len(msg) > MAX_MESSAGE:
        return f"{len(msg)} characters long"
    for bad in (" object at 0x", "<atut.", "<class ", "Traceback", "<function ", "<bound "):
        if bad in msg:
            return f"shows {bad.strip()!r}"
    return None


def check_reply(op, args_json, reply, before, desk, seed, caller=PAGE):
    where = f"seed {seed}: {op!r} {args_json[:300]!r} from {caller}"
    table = desk.table
    assert isinstance(reply, str), where
    r = json.loads(reply)
    if desk.pool and isinstance(r, dict) and set(r) == {"ok", "jobs"}:
        # the pool is on: a level-4 search asks for its shards and changes nothing
        assert r["ok"] is True and r["jobs"], where
        assert all(set(j) == set(shards.JOB_KEYS) for j in r["jobs"]), where
        assert state(table) == before, f"{where}: a request for shards changed the table"
        TRIED["shards asked"] += 1
        return
    assert isinstance(r, dict) and set(r) in ({"ok", "result"}, {"ok", "error"}), \
        (where, reply[:300])
    if r["ok"] is True:
        TRIED["ok " + str(op)] += 1
        if op in ("act", "bot_step", "new_game", "learn_start", "undo", "load"):
            assert r["result"]["view"] == table.game.view(table.seat, explain=True), where
        return
    assert r["ok"] is False, (where, reply[:300])
    why = readable(r["error"])
    assert why is None, f"{where}: {why}: {r['error'][:400]!r}"
    assert state(table) == before, f"{where}: a refused request changed the table"
    TRIED["refused"] += 1


def to_stop(table, rng, stop):
    """Move the table on to a stop: "start", "mid" (some steps), "deal2" (the second deal),
    "mine" (the person to move), "over" (the game over)."""
    g = table.game
    steps = {"start": 0, "mid": rng.randrange(3, 20), "mine": 10 ** 6, "deal2": 10 ** 6,
             "over": 10 ** 6}[stop]
    for _ in range(steps):
        if g.is_over:
            break
        if stop == "mine" and g.to_move == table.seat and len(g.legal_actions()) > 1:
            break
        if stop == "deal2" and g.deal_no >= 2:
            break
        s = g.to_move
        g.apply(rng.choice(g.legal_actions()) if s == table.seat else
                table.bots[s].choose(g.view(s)))


GAMES = [("cesarz", 3), ("euchre", 4), ("imperial", 2), ("tysiac1001", 3), ("sixty_six", 2)]
STOPS = ["start", "mid", "deal2", "mine", "over"]


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("game,players", GAMES)
def test_random_requests_get_a_clear_reply_and_a_refusal_changes_nothing(game, players, stop):
    for seed in (1, 2):
        desk = Dispatcher(debug=seed == 2)                    # the debug ops too
        table = desk.table
        r = json.loads(desk.handle("new_game", json.dumps(
            {"game": game, "players": players, "seed": seed, "seat": 0, "levels": [2]})))
        assert r["ok"], r
        rng = random.Random(f"{game}-{stop}-{seed}")
        to_stop(table, rng, stop)
        for _ in range(int(PER_TABLE * SCALE)):
            op, args_json, caller = request(rng, table)
            before = state(table)
            reply = desk.handle(op, args_json, caller)
            TRIED["requests"] += 1
            check_reply(op, args_json, reply, before, desk, seed, caller)
            if table.game is not None and table.game.is_over and rng.random() < 0.1:
                desk.handle("new_game", json.dumps({"game": game, "players": players,
                                                    "seed": rng.randrange(99), "levels": [1]}))


def test_no_game_yet_every_op_is_refused_clearly():
    desk = Dispatcher()
    rng = random.Random(0)
    for op in NAMES:
        if op in ("info", "new_game", "learn_start", "load", "debug_random_play",
                  "debug_memory", "pool", "shard_run", "kept_ops"):     # these need no game
            continue
        for _ in range(20):
            args = {n: value_for(rng, op, n, desk.table) for n in PARAMS[op]
                    if rng.random() < 0.5}
            if op in SLOW:
                args["budget"] = {"time_cap": 0.02}
            reply = json.loads(desk.handle(op, json.dumps(args), min(OPS[op].callers)))
            assert reply["ok"] is False and readable(reply["error"]) is None, (op, args, reply)
            TRIED["requests"] += 1


def test_an_engine_bug_is_not_called_bad_arguments(monkeypatch):
    """A TypeError raised inside an op (an engine bug) is an internal error, not "bad
    arguments"; a TypeError of the call itself (an unknown argument) is "bad arguments"."""
    desk = Dispatcher()
    desk.handle("new_game", json.dumps({"game": "sixty_six", "players": 2, "levels": [1]}))

    def broken(self, *a, **k):
        raise TypeError("unsupported operand")
    monkeypatch.setattr(desk.table.game.__class__, "view", broken)
    r = json.loads(desk.handle("save", "{}"))
    assert r["ok"] is True                                 # save needs no view
    desk.table._shown = (None, -1, 0, None)            # no cached view
    r = json.loads(desk.handle("view", "{}"))
    assert r["ok"] is False and r["error"].startswith("internal error: TypeError")
    r = json.loads(desk.handle("view", json.dumps({"extra": 1})))
    assert r["ok"] is False and r["error"].startswith("bad arguments for view")


def test_the_requests_were_many(capsys):
    with capsys.disabled():
        print(f"\nbridge requests (ATUT_FUZZ_SCALE={SCALE:g}): " +
              ", ".join(f"{k} {v}" for k, v in sorted(TRIED.items())))
    if TRIED["requests"] < 100:
        pytest.skip("run with the whole file to count")
    assert TRIED["requests"] >= len(GAMES) * len(STOPS) * 2 * int(PER_TABLE * min(SCALE, 1))
    assert TRIED["refused"] > TRIED["requests"] // 3


# --- the bugs the fuzzing found, one test each ------------------------------------------------

@pytest.fixture
def desk():
    d = Dispatcher()
    r = json.loads(d.handle("new_game", json.dumps(
        {"game": "sixty_six", "players": 2, "seed": 1, "levels": [1]})))
    assert r["ok"]
    return d


@pytest.fixture
def table(desk):
    return desk.table


def _refused(op, args_json, table, desk):
    before = state(table)
    r = json.loads(desk.handle(op, args_json))
    assert r["ok"] is False and readable(r["error"]) is None, r
    assert state(table) == before
    return r["error"]


def test_deeply_nested_arguments_are_refused_not_a_recursion_error(table, desk):
    for text in ("[" * 100_000, '{"action":' * 50_000 + "1" + "}" * 50_000):
        assert "nested" in _refused("act", text, table, desk)


def test_info_with_junk_built_or_classes_is_refused(table, desk):
    for args in ({"built": 3, "classes": {}}, {"built": ["euchre"], "classes": "x"},
                 {"built": [1], "classes": {}}):
        _refused("info", json.dumps(args), table, desk)
    r = json.loads(desk.handle("info", json.dumps({"built": ["euchre"], "classes": {}})))
    assert r["ok"] and r["result"]["built"] == ["euchre"]


def test_debug_random_play_with_junk_counts_is_refused(table, desk):
    desk.debug = True
    for args in ({"max_actions": "x"}, {"action_seed": []}, {"max_actions": 1.5}):
        _refused("debug_random_play", json.dumps({"game": "sixty_six", **args}), table, desk)


def test_a_huge_argument_gives_a_short_message(table, desk):
    for op, args in (("load", {"text": "{}", "seat": "s" * 100_000}),
                     ("new_game", {"game": "sixty_six", "seat": ["x"] * 100_000}),
                     ("hint", {"budget": "b" * 100_000}),
                     ("act", {"action": {"type": "play", "card": "c" * 100_000}})):
        assert len(_refused(op, json.dumps(args), table, desk)) < 500


def test_a_budget_value_of_the_wrong_type_is_refused_not_a_failed_search(table, desk):
    g = table.game
    while g.to_move != table.seat:
        g.apply(table.bots[g.to_move].choose(g.view(g.to_move)))
    for budget in ({"rollouts": "x"}, {"time_cap": [1]}, {"clock": 5},
                   {"common_rollouts": "yes"}, {"min_samples": 1.5}):
        assert "budget" in _refused("hint", json.dumps({"budget": budget}), table, desk)
    ok = json.loads(desk.handle("hint", json.dumps({"budget": {"rollouts": 4,
                                                                  "time_cap": 0.5}})))
    assert ok["ok"], ok


def test_bot_levels_given_by_name_play_in_teaching_mode():
    # found by the fuzzing: levels ["rules"] kept the name, and teaching mode's bot step
    # compared it with 3 (a TypeError, an internal error)
    desk = Dispatcher()
    r = json.loads(desk.handle("new_game", json.dumps(
        {"game": "sixty_six", "players": 3, "seed": 2, "seat": 0, "levels": ["rules", "search"],
         "teach": True})))
    assert r["ok"], r
    assert desk.table.levels == {1: 2, 2: 3}
    g = desk.table.game
    while g.to_move == 0:
        g.apply(g.legal_actions()[0])
    r = json.loads(desk.handle("bot_step", "{}"))
    assert r["ok"], r


def test_every_op_refuses_a_caller_it_does_not_have():
    """The registry says who may call each op: the page cannot run the pool's or the lab's
    ops, a search worker nothing but its own; the refusal changes nothing."""
    desk = Dispatcher(debug=True)
    desk.handle("new_game", json.dumps({"game": "euchre", "players": 4, "levels": [1]}))
    for name, op in OPS.items():
        for caller in set(CALLERS) - op.callers:
            before = state(desk.table)
            r = json.loads(desk.handle(name, "{}", caller))
            assert r["ok"] is False and readable(r["error"]) is None, (name, caller, r)
            assert ("a search worker has no op" if caller == "pool" else "is the worker's own") \
                in r["error"], (name, caller, r)
            assert state(desk.table) == before
