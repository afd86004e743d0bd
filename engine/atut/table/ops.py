"""Every operation of the table, declared once, with who may call it.

The callers are named by where a request comes from (the page's worker, ``web/worker.js``,
names them):

- ``page``: the page (``web/lib/worker-client.js``), through the table's worker;
- ``pool``: the table's worker on a search worker of the pool (over its port);
- ``lab``: the table's worker passing on what the lab's worker said for a student's bot;
- ``worker``: the table's worker itself (the browser's store, the pool's results).

``Dispatcher.call(name, args, caller)`` checks the caller and the arguments and runs the op.
An op that needs something from outside (``atut.table.exchange``) is answered here, or handed
out: a level-4 search's shards (``{"jobs": [...]}``) while the pool is on, a student's bot's
move (``{"ask": {"seat", "name", "view"}}``) always.  The op then waits, the table unchanged,
until ``search_results`` or ``outside_answer`` brings the answer and it decides.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Callable
from dataclasses import dataclass

import atut

from .. import backup
from ..bots import NAMES as LEVEL_NAMES
from ..bots import shards
from ..bots.catalogue import describe as describe_levels
from ..game import short
from .checks import check_job, check_nesting
from .exchange import Ask, Jobs, Need, answer_here, check_results
from .session import Table

PAGE, POOL, LAB, WORKER = "page", "pool", "lab", "worker"
CALLERS = (PAGE, POOL, LAB, WORKER)


# --- the ops that need no table ------------------------------------------------------------------

def game_classes() -> tuple[list[str], dict]:
    """(built game ids, {game: {"players": [...], "options": {key: [values]}, "partners":
    two sides of partners (GameSpec.partners)}}); the build puts the same into build.json."""
    built = list(atut.built_games())
    classes = {}
    for g in built:
        cls = atut.game_class(g)
        classes[g] = {"players": list(cls.PLAYERS),
                      "options": {k: list(v) for k, v in cls.OPTIONS.items()},
                      "partners": bool(atut.games.spec(g).partners)}
    return built, classes


def info(built: list | None = None, classes: dict | None = None) -> dict:
    """The games, their seat counts and options.  The worker passes what the build found
    (build.json) so that no game module is imported before a game starts; without it every
    game module is imported here."""
    if built is None or classes is None:
        built, classes = game_classes()
    elif not (isinstance(built, list) and all(isinstance(g, str) for g in built)
              and isinstance(classes, dict)):
        raise ValueError("info: built must be a list of game ids and classes an object")
    return {"games": list(atut.games.ids()), "built": list(built), "classes": classes,
            "levels": dict(LEVEL_NAMES), "level_table": describe_levels(),
            "version": atut.__version__}


def debug_register_game(name, source) -> dict:
    """A game module's source text joins the engine (``atut.games.register_source``): the
    tests' way to play a game that lives under ``tests/`` in the page."""
    spec = atut.games.register_source(name, source)
    return {"game": spec.id, "words": spec.page_words(), "info": info()}


def shard_run(job=None, time_cap=None) -> dict:
    """Run one search shard (a job an op of another worker's table asked for): the op of a
    search worker of the pool.  Its result is values only, no card.  ``time_cap``: the
    seconds this shard may take, at most the job's own (a worker that runs several shards of
    a decision shares the decision's cap among them)."""
    check_job(job)
    cap = job["budget"].get("time_cap")
    if time_cap is not None and not (type(time_cap) in (int, float)
                                     and 0 < time_cap <= (cap or 0)):
        raise ValueError(f"shard_run: time_cap must be a number of seconds above 0 and at "
                         f"most the job's {cap!r}")
    try:
        return shards.run_shard(job, time_cap)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, AssertionError) as e:
        # the view came from outside this worker: one that no game made fails the search
        raise ValueError(f"shard_run: the job's view is not one this search can read "
                         f"({type(e).__name__})") from None


def debug_random_play(game, players=None, seed=0, action_seed=0, max_actions=5000) -> dict:
    """A throwaway game of random moves, never the table's (the tests)."""
    if not all(type(v) is int for v in (action_seed, max_actions)):
        raise ValueError("action_seed and max_actions must be integers")
    g = atut.new_game(game, players=players, seed=seed)
    rng = random.Random(action_seed)
    n = 0
    while not g.is_over and n < max_actions:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return {"events": g.events, "actions": n, "scores": g.scores, "winner": g.winner}


def debug_memory(collect=True) -> dict:
    """The worker's Python memory (the Chromium soak, tests/browser/soak_page.py)."""
    import gc
    import sys
    if collect:
        gc.collect()
    out = {"gc_objects": len(gc.get_objects()), "gc_counts": list(gc.get_count()),
           "allocated_blocks": sys.getallocatedblocks(), "wasm_bytes": None}
    try:                                    # Pyodide: the wasm memory's size
        import pyodide_js
        out["wasm_bytes"] = int(pyodide_js._module.HEAPU8.buffer.byteLength)
    except Exception:                       # CPython, or a runtime without it
        pass
    return out


# --- the registry --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Op:
    """An operation: ``handler`` runs it; ``on`` what it is called on first ("table", the
    dispatcher: "desk", or nothing: None); ``callers`` who may ask for it; a ``debug`` op
    only when the page was opened with ``debug=1``; an op that ``resumes`` brings the answer
    to the op that waits and replies as that op does."""
    name: str
    handler: Callable
    callers: frozenset[str]
    on: str | None = "table"
    debug: bool = False
    resumes: bool = False
    keeps: str | None = None


def _op(name, handler, *callers, on="table", debug=False, resumes=False,
        keeps=None) -> tuple[str, Op]:
    return name, Op(name, handler, frozenset(callers), on, debug, resumes, keeps)


def kept_ops() -> dict:
    """Which ops the worker keeps a step after (``"step"``: the game moved on) and which start
    a new table (``"table"``), from ``OPS``'s ``keeps`` (docs/PAGE.md "One writer, crashes and
    persistent storage"): worker.js names no op of the page."""
    return {k: sorted(n for n, op in OPS.items() if op.keeps == k) for k in ("step", "table")}


class Dispatcher:
    """The table of one worker, and the ops asked of it."""

    def __init__(self, table: Table | None = None, debug: bool = False) -> None:
        self.table = table if table is not None else Table()
        self.debug = debug             # the debug ops answer (the page opened with debug=1)
        self.pool = False              # the pool of search workers runs the shards
        self.waiting = None            # (op name, its steps, the need handed out, the stamp)

    def pool_mode(self, on=False) -> dict:
        """Turn the pool on (the worker has search workers: shards are handed out) or off
        (every shard runs here)."""
        if not isinstance(on, bool):
            raise ValueError(f"pool: on must be true or false, not {short(repr(on))}")
        self.pool = on
        return {"on": on}

    def search_results(self, results=None) -> dict:
        """The results of the jobs the waiting op asked for (``shard_run``'s replies, from the
        pool), or None: run them here.  Returns what the op returns then."""
        return self._resume(Jobs, check_results(results))

    def outside_answer(self, answer=None) -> dict:
        """What the lab's worker answered for the outside seat the waiting op asked about:
        ``{"action": ...}`` or ``{"failed": kind}`` (None: nobody to ask).  Returns what the
        op returns then; ``refused`` names the seat when its action was not legal."""
        if answer is not None and not isinstance(answer, dict):
            raise ValueError("outside_answer: the answer is {action} or {failed}")
        self.table.refused = None
        out = self._resume(Ask, answer)
        if self.table.refused is not None:
            out["refused"] = self.table.refused
        return out

    def _stamp(self):
        t = self.table
        return (t.game, len(t.game.history) if t.game is not None else 0, t.seat)

    def _resume(self, kind, answer) -> dict:
        if self.waiting is None or not isinstance(self.waiting[2], kind):
            if kind is Ask:
                raise ValueError("no outside bot's turn is open: the table changed meanwhile")
            raise ValueError("no search is waiting for results")
        name, steps, _, stamp = self.waiting
        self.waiting = None
        if stamp != self._stamp():
            steps.close()
            raise ValueError("the table changed meanwhile")
        return self._run(name, steps, answer)

    def _run(self, name, steps, answer=None, first=False) -> dict:
        """Run an op's steps: the needs this worker answers here, up to one it hands out."""
        try:
            need = next(steps) if first else steps.send(answer)
            while not self._hands_out(need):
                need = steps.send(answer_here(need))
        except StopIteration as done:
            return {"result": done.value}
        self.waiting = (name, steps, need, self._stamp())
        if isinstance(need, Jobs):
            return {"jobs": need.jobs}
        return {"ask": need.to_json()}

    def _hands_out(self, need: Need) -> bool:
        return isinstance(need, Ask) or self.pool

    def handle(self, name, args_json, caller: str = PAGE) -> str:
        """A JSON request: JSON text ``{"ok": true, ...call's reply}`` or ``{"ok": false,
        "error": "message"}``; a bug inside an op is an "internal error" and keeps the table."""
        try:
            try:
                check_nesting(args_json, "request arguments are")
                args = json.loads(args_json) if args_json else {}
            except RecursionError:
                raise ValueError("request arguments are nested too deeply") from None
            return json.dumps({"ok": True, **self.call(name, args, caller)})
        except ValueError as e:                     # includes atut.IllegalAction
            return json.dumps({"ok": False, "error": short(str(e))})    # a huge value cut short
        except Exception as e:                      # a bug: say so, keep the table
            return json.dumps({"ok": False,
                               "error": short(f"internal error: {type(e).__name__}: {e}")})

    def call(self, name, args: dict, caller: str = PAGE) -> dict:
        """Run op ``name`` with ``args`` for ``caller``: ``{"result": ...}``, or what the op
        asks for (``{"jobs"}``, ``{"ask"}``).  A request that is not sound raises ValueError
        and changes nothing."""
        if not isinstance(args, dict):
            raise ValueError("request arguments must be an object")
        op = OPS.get(name) if isinstance(name, str) else None
        if caller == POOL and (op is None or POOL not in op.callers):
            raise ValueError(f"a search worker has no op {json.dumps(name)}")
        if op is None:
            raise ValueError(f"unknown op {name!r}")
        if caller not in op.callers:
            raise ValueError(f"{name} is the worker's own")
        if op.debug and not self.debug:
            raise ValueError(f"{name} needs the page opened with debug=1")
        target = {"table": (self.table,), "desk": (self,), None: ()}[op.on]
        try:
            inspect.signature(op.handler).bind(*target, **args)
        except TypeError as e:
            raise ValueError(f"bad arguments for {name}: {e}") from None
        result = op.handler(*target, **args)
        if op.resumes:
            return result
        if inspect.isgenerator(result):
            return self._run(name, result, first=True)
        return {"result": result}


OPS: dict[str, Op] = dict([
    # the table: starting, playing, resuming
    _op("info", info, PAGE, WORKER, on=None),
    _op("kept_ops", kept_ops, WORKER, on=None),
    _op("new_game", Table.new_game, PAGE, keeps="table"),
    _op("load", Table.load, PAGE, WORKER, keeps="table"),
    _op("save", Table.save, PAGE, WORKER),
    _op("view", Table.view, PAGE),
    _op("act", Table.act, PAGE, keeps="step"),
    _op("bot_step", Table.bot_step_steps, PAGE, keeps="step"),
    _op("finished_deal", Table.finished_deal, PAGE),
    # learn to play: a guided deal (atut.learn)
    _op("learn_start", Table.learn_start, PAGE, keeps="table"),
    _op("learn_step", Table.learn_step, PAGE),
    # the aids: why not, hints, undo, the review
    _op("explain", Table.explain, PAGE),
    _op("hint", Table.hint, PAGE),
    _op("undo", Table.undo, PAGE, keeps="step"),
    _op("can_undo", Table.can_undo, PAGE),
    _op("review", Table.review, PAGE),
    _op("review_grade", Table.review_grade_steps, PAGE),
    _op("review_bot", Table.review_bot_steps, PAGE),
    # outside seats: a student's bot, played in the lab's worker
    _op("outside_seats", Table.outside_seats, PAGE),
    _op("outside_answer", Dispatcher.outside_answer, LAB, on="desk", resumes=True),
    _op("outside_drop", Table.outside_drop, LAB),
    # the pool of search workers
    _op("pool", Dispatcher.pool_mode, WORKER, on="desk"),
    _op("search_results", Dispatcher.search_results, WORKER, on="desk", resumes=True),
    _op("shard_run", shard_run, POOL, on=None),
    # the backup file (atut.backup, docs/PAGE.md "Backup file"): the worker reads the store,
    # Python makes the file or checks and merges one, the worker writes the plan
    _op("backup_make", backup.make, WORKER, on=None),
    _op("backup_plan", backup.plan_import, WORKER, on=None),
    # the tests' (debug=1)
    _op("debug_random_play", debug_random_play, PAGE, on=None, debug=True),
    _op("debug_memory", debug_memory, PAGE, POOL, on=None, debug=True),
    _op("debug_register_game", debug_register_game, PAGE, on=None, debug=True),
])
