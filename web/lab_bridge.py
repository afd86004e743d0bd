"""The bot lab's side of Python, run by Pyodide in the lab's own worker (web/lab-worker.js),
never in the table's worker: a student's code can stop, loop or fail here and the table's game
is untouched.

``handle(op, args_json)`` returns JSON text ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": "message"}``, plus ``"bot_error"`` (``atut.lab.BotError.to_dict()``:
kind, line, messages in both languages, the student's traceback) when the student's code failed.

Ops: ``info`` (the game's example bots and view help), ``check`` (load a bot, report its error),
``arena`` (atut.arena.run with the student's bot and opponents: levels or other saved bots),
``watch`` and ``watch_step`` (a whole game of the lab's own, the student's bot in seat 0, every
hand open, one action a step), ``game_start``, ``game_send`` and ``game_drop`` (a tournament
game of ``atut.tournament.game_steps``: the page answers its requests with the bots' boxes);
``tournament_plan``, ``tournament_begin``, ``tournament_add``, ``tournament_results``,
``tournament_open`` and ``tournament_review``: a class tournament's entries, schedule, records,
board (``atut.tournament.board``), export, import and review (web/lib/lab/tournament.js).
``install_wheel`` (not an op: awaited by the worker) installs a pure-Python wheel of the
student's from bytes by micropip, no index reached.

While a student's code runs (loading it, each decision) the worker is told ``tick`` start/end
(``_tick``), so that the page's watchdog can end the worker when one decision takes longer than
the limit.  A bot cannot import Pyodide's bridges to JavaScript (``js``, ``pyodide``,
``pyodide_js``, ``_pyodide*``) nor micropip nor this module: while bot code runs they are out of
``sys.modules`` and a meta-path finder refuses them with an ImportError that says why.  Python
in one interpreter is no sandbox (frames and the garbage collector still reach everything), so
this guards against the plain ways only; the page's Content-Security-Policy (index.html) keeps
the page's own requests in its origin (a worker takes its policy from its response's headers,
which a static host does not send).
"""

from __future__ import annotations

import json
import sys
import time

import js  # the worker's global scope: postMessage for ticks and progress (never given to a bot)

import atut
import atut.lab as lab
from atut import arena

BLOCKED = ("js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core", "micropip",
           "atut_lab_bridge")
_post = js.postMessage
_ticks = 0


def _blocked(name: str) -> bool:
    top = name.split(".", 1)[0]
    return top in BLOCKED or top.startswith("_pyodide")


class _Refuse:
    """A meta-path finder that refuses the bridges to JavaScript while bot code runs."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if _blocked(name):
            raise ImportError(
                f"the bot lab does not let a bot import {name!r}: a bot gets its view only, with "
                f"no way to the page, the storage or the network / laboratorium botów nie "
                f"pozwala botowi importować {name!r}: bot dostaje tylko swój widok", name=name)
        return None


class _Sandbox:
    """While active: the blocked modules are out of sys.modules and the finder refuses them."""

    def __init__(self):
        self.saved = {}
        self.finder = _Refuse()

    def __enter__(self):
        for k in [k for k in sys.modules if _blocked(k)]:
            self.saved[k] = sys.modules.pop(k)
        sys.meta_path.insert(0, self.finder)
        return self

    def __exit__(self, *exc):
        while self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)
        for k, m in self.saved.items():
            sys.modules.setdefault(k, m)
        self.saved = {}
        return False


def _tick(on: bool, what: str) -> None:
    global _ticks
    if on:
        _ticks += 1
    _post(json.dumps({"type": "tick", "n": _ticks, "on": on, "what": what}))


class _Watched:
    """A student's bot whose code runs between tick start and end (the page's watchdog)."""

    def __init__(self, bot, label):
        self.bot = bot
        self.label = label

    def choose(self, view):
        _tick(True, self.label)
        try:
            return self.bot.choose(view)
        finally:
            _tick(False, self.label)

    def reset(self):
        if hasattr(self.bot, "reset"):
            _tick(True, self.label)
            try:
                self.bot.reset()
            finally:
                _tick(False, self.label)


def _load(source: str, name: str):
    if not isinstance(source, str):
        raise ValueError("the bot's source must be text")
    if not isinstance(name, str) or not name.endswith(".py") or "/" in name:
        raise ValueError(f"a bot's name must be a file name ending in .py, not {name!r}")
    _tick(True, name)
    try:
        with _Sandbox():
            return lab.bot_from_source(source, name=name)
    finally:
        _tick(False, name)


def _factory(student, label):
    """A zero-argument factory for the arena: a fresh instance of the student's module (its
    top-level code runs again, watched) for each seat of each game."""
    def make():
        _tick(True, label)
        try:
            bot = student.fresh()
        finally:
            _tick(False, label)
        return _Watched(bot, label)
    make.name = label                    # how the arena's report names the entry
    return make


def op_info(args):
    game = args.get("game")
    if game not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game!r}")
    try:
        help_ = lab.view_help(game)
    except Exception as e:  # noqa: BLE001 - the lab works without its help panel
        help_ = {"error": f"{type(e).__name__}: {e}"}
    return {"examples": lab.examples(game), "help": help_}


def op_check(args):
    _load(args.get("source"), args.get("name", "bot.py"))
    return {"ok": True}


def op_arena(args):
    game = args.get("game")
    if game not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game!r}")
    specs = []
    for i, b in enumerate(args.get("bots") or []):
        if isinstance(b, dict) and "source" in b:
            name = b.get("name") or f"bot{i}.py"
            specs.append(_factory(_load(b["source"], name), name))
        elif isinstance(b, dict) and "level" in b:
            specs.append(int(b["level"]))
        else:
            raise ValueError(f"a bot is a level or a saved bot's source, not {b!r}")
    players = int(args.get("players"))
    deals = int(args.get("deals"))
    seed = int(args.get("seed", 1))
    t0 = time.perf_counter()
    last = [0.0]

    def progress(done, total, partial):
        now = time.perf_counter()
        if done < total and now - last[0] < 0.1:
            return
        last[0] = now
        run = partial.get("running") or [[]]
        point = run[0][-1] if run and run[0] else None
        _post(json.dumps({"type": "progress", "done": done, "total": total,
                          "dps": done / max(now - t0, 1e-9), "point": point}))

    with _Sandbox():
        r = arena.run(game, specs, players=players, deals=deals, seed=seed, progress=progress)
    return {"result": r, "report": arena.report(r), "csv": arena.to_csv(r)}


async def install_wheel(path: str) -> dict:
    import micropip
    name = path.rsplit("/", 1)[-1]
    if not name.endswith("-none-any.whl"):
        raise ValueError(f"{name} is not a pure-Python wheel (its name must end in -none-any.whl)"
                         f" / {name} nie jest kołem czystego Pythona (nazwa musi kończyć się "
                         f"na -none-any.whl)")
    await micropip.install("emfs:" + path, deps=False, index_urls=[])
    return {"installed": name}


_watch: dict = {}                    # the game being watched (op watch, watch_step)


def op_watch(args):
    """A whole game to watch with open hands, one action per ``watch_step``: the student's bot
    in seat 0, the opponent in the other seats (the lab's own game: no table is involved)."""
    game_id = args.get("game")
    if game_id not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game_id!r}")
    g = atut.new_game(game_id, players=int(args.get("players")), seed=int(args.get("seed", 1)))
    specs = args.get("bots") or []
    if len(specs) != 2:
        raise ValueError("watch takes the student's bot and one opponent")
    mine = _load(specs[0]["source"], specs[0].get("name", "bot.py"))
    other = specs[1]
    if "source" in other:
        theirs = _load(other["source"], other.get("name", "opponent.py"))
        make_other = _factory(theirs, other.get("name", "opponent.py"))
    else:
        level = int(other["level"])
        def make_other():
            return atut.make_bot(game_id, level, seed=g.seed * 31 + level)
    bots = [_factory(mine, specs[0].get("name", "bot.py"))()]
    bots += [make_other() for _ in range(g.players - 1)]
    _watch.clear()
    _watch.update(game=g, bots=bots, last=None)
    return _watch_state()


def _watch_state():
    g = _watch["game"]
    views = [g.view(s) for s in range(g.players)]
    v = views[0]
    return {"hands": [x.get("hand", []) for x in views], "trick": v.get("trick"),
            "scores": v.get("scores"), "deal_no": v.get("deal_no"), "phase": v.get("phase"),
            "to_move": v.get("to_move"), "is_over": bool(v.get("is_over")),
            "trump": v.get("trump"), "last": _watch["last"], "steps": len(g.history)}


def op_watch_step(args):
    g = _watch.get("game")
    if g is None:
        raise ValueError("no game is being watched")
    if not g.is_over:
        s = g.to_move
        with _Sandbox():
            action = _watch["bots"][s].choose(g.view(s))
        g.apply(action)
        _watch["last"] = {"seat": s, "action": action}
    return _watch_state()


# --- one tournament game as an exchange (atut.tournament.game_steps, docs/LAB.md "Boxes") -----
# The page's driver (web/lib/lab/games.js) answers each request with the bots' boxes: this
# worker holds the game and our levels, never a bot file's code.

_games: dict = {}                    # id -> the game's generator
_next_game = [0]


def _step(gid, gen, answer):
    try:
        req = gen.send(answer)
    except StopIteration as done:
        _games.pop(gid, None)
        return {"id": gid, "done": done.value}
    return {"id": gid, "req": req}


def op_game_start(args):
    """``{task}``: a game of ``tournament.game_steps``; its first request, or its record."""
    from atut import tournament
    task = args.get("task")
    if not isinstance(task, list) or len(task) != 8:
        raise ValueError("game_start needs a task of tournament.game_steps")
    if task[0] not in atut.GAME_IDS:
        raise ValueError(f"unknown game {task[0]!r}")
    _next_game[0] += 1
    gid = _next_game[0]
    gen = tournament.game_steps(tuple(task))
    _games[gid] = gen
    return _step(gid, gen, None)


def op_game_send(args):
    """``{id, answer}``: the answer to the game's request; its next request, or its record."""
    gid = args.get("id")
    gen = _games.get(gid)
    if gen is None:
        raise ValueError(f"no game {gid!r} is running")
    return _step(gid, gen, args.get("answer"))


def op_game_drop(args):
    _games.pop(args.get("id"), None)
    return True


# --- a class tournament (docs/LAB.md "Tournament"; the page's web/lib/lab/tournament.js) -----
# The page plays the games (game_start/game_send above, bot files in boxes); this worker holds
# the tournament's settings and records and computes the board with the engine's
# atut.tournament.board (openskill, installed by web/lab-worker.js before the first of these
# ops).  No bot file's code runs here.

_tourney: dict = {}


def _int(args, key, lo, hi):
    v = args.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{key} must be a whole number from {lo} to {hi}, not {v!r}")
    return v


def op_tournament_plan(args):
    """``{game, players, deals, seed, time_limit, entries: [{name, level} | {name, source}]}``:
    the entries as the command line names them (``Entry``: a level "2 rules", a file its name,
    made unique), the mode, the table's size, and per entry the task of its self-play check
    (``self_play_check``: the file in every seat; ``None`` for a level)."""
    from atut import tournament as T
    game = args.get("game")
    if game not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game!r}")
    players = _int(args, "players", 1, 10)
    if players not in atut.game_class(game).PLAYERS:
        raise ValueError(f"{game} is played by {atut.game_class(game).PLAYERS} players")
    _int(args, "deals", 1, 100000)
    seed = _int(args, "seed", 0, 2**31 - 1)
    entries = []
    for b in args.get("entries") or []:
        if isinstance(b, dict) and isinstance(b.get("source"), str):
            name = str(b.get("name") or "bot.py")
            entries.append(T.Entry(name, source=b["source"]))
        elif isinstance(b, dict) and b.get("level") is not None:
            entries.append(T.Entry.parse(str(b["level"])))
        else:
            raise ValueError(f"an entry is a level or a bot file, not {b!r}")
    T._unique_names(entries)
    mode = T._mode(game)
    out = []
    for e in entries:
        d = {"name": e.name, "level": e.level, "sha256": e.sha256}
        d["check"] = None if e.source is None else [
            game, players, [{"name": e.name, "source": None, "level": None}], [0],
            [0] * players, -1, seed, mode]
        out.append(d)
    return {"entries": out, "mode": mode, "table": T.table_size(game, players)}


def op_tournament_begin(args):
    """``{game, players, deals, seed, time_limit, entries: [{name, level, sha256}], excluded}``
    (the entries that passed their check; the ones left out with their error): the schedule's
    games as ``[table, seats, deal]`` in the board's order."""
    from atut import tournament as T
    game = args.get("game")
    if game not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game!r}")
    players, deals = _int(args, "players", 1, 10), _int(args, "deals", 1, 100000)
    entries = [{k: v for k, v in (("name", e["name"]), ("level", e.get("level")),
                                  ("sha256", e.get("sha256"))) if v is not None}
               for e in args.get("entries") or []]
    k = T.table_size(game, players)
    if len(entries) < k:
        raise ValueError(f"{len(entries)} bot(s) passed the self-play check; a table needs {k}")
    sched = T.schedule(game, players, len(entries), deals)
    limit = args.get("time_limit")
    _tourney.clear()
    _tourney.update(game=game, players=players, deals=deals, seed=_int(args, "seed", 0, 2**31 - 1),
                    time_limit=float(limit) if limit else None, entries=entries,
                    excluded=list(args.get("excluded") or []), games={}, total=len(sched))
    return {"schedule": [[list(t), list(s), d] for t, s, d in sched], "mode": T._mode(game)}


def _prefix() -> list:
    games = _tourney.get("games") or {}
    out = []
    while len(out) in games:
        out.append(games[len(out)])
    return out


def op_tournament_add(args):
    """``{games: [[index, record], ...], board: bool}``: records kept; with ``board`` the board
    of the games done so far in the schedule's order (the longest run from the first)."""
    if not _tourney:
        raise ValueError("no tournament has begun")
    for i, rec in args.get("games") or []:
        if not isinstance(i, int) or not 0 <= i < _tourney["total"] or not isinstance(rec, dict):
            raise ValueError(f"no game {i!r} in this tournament")
        _tourney["games"][i] = rec
    out = {"done": len(_tourney["games"]), "total": _tourney["total"]}
    if args.get("board"):
        from atut import tournament as T
        games = _prefix()
        out["board"] = T.board([e["name"] for e in _tourney["entries"]], games)
        out["rated"] = len(games)
    return out


def op_tournament_results(args):
    """``{seconds}``: the results JSON (the command line's ``--out``) as text, and the board as
    CSV (``to_csv``)."""
    from atut import tournament as T
    if not _tourney:
        raise ValueError("no tournament has begun")
    t = _tourney
    r = T.results(t["game"], t["players"], t["deals"], t["seed"], t["time_limit"],
                  t["entries"], t["excluded"], _prefix(), float(args.get("seconds") or 0.0))
    return {"json": json.dumps(r, separators=(",", ":")), "csv": T.to_csv(r),
            "complete": len(r["games"]) == t["total"]}


def op_tournament_open(args):
    """``{text}``: a results JSON read again (the command line's or the lab's export): every
    game replayed and checked (``verify``), the board computed again; its settings, entries,
    the files left out, the board and the problems found."""
    from atut import tournament as T
    try:
        r = json.loads(args.get("text") or "")
    except ValueError as e:
        raise ValueError(f"not JSON: {e}") from None
    problems = T.verify(r)
    if problems and problems[0].startswith(("not a ", "version ", "malformed")):
        raise ValueError(problems[0])
    games = r["games"]
    _tourney.clear()
    _tourney.update(game=r["game"], players=r["players"], deals=r["deals"], seed=r["seed"],
                    time_limit=r.get("time_limit"), entries=r["entries"],
                    excluded=r.get("excluded") or [], games=dict(enumerate(games)),
                    total=len(T.schedule(r["game"], r["players"], len(r["entries"]),
                                         r["deals"])))
    return {"game": r["game"], "players": r["players"], "deals": r["deals"], "seed": r["seed"],
            "time_limit": r.get("time_limit"), "entries": r["entries"],
            "excluded": _tourney["excluded"], "seconds": r.get("seconds"),
            "board": T.board([e["name"] for e in r["entries"]], games), "problems": problems,
            "games": [{"table": g["table"], "seats": g["seats"], "deal": g["deal"],
                       "ranks": g["ranks"], "error": g.get("error")} for g in games]}


def op_tournament_review(args):
    """``{index}``: that game of the tournament step by step with every hand open."""
    from atut import tournament as T
    i = args.get("index")
    rec = (_tourney.get("games") or {}).get(i)
    if rec is None:
        raise ValueError(f"no game {i!r} has been played in this tournament")
    names = [e["name"] for e in _tourney["entries"]]
    out = T.review(_tourney["game"], rec)
    out["names"] = [names[e] for e in rec["seats"]]
    return out


OPS = {"info": op_info, "check": op_check, "arena": op_arena, "watch": op_watch,
       "watch_step": op_watch_step, "game_start": op_game_start, "game_send": op_game_send,
       "game_drop": op_game_drop, "tournament_plan": op_tournament_plan,
       "tournament_begin": op_tournament_begin, "tournament_add": op_tournament_add,
       "tournament_results": op_tournament_results, "tournament_open": op_tournament_open,
       "tournament_review": op_tournament_review}


def handle(op: str, args_json: str) -> str:
    try:
        args = json.loads(args_json) if args_json else {}
        if op not in OPS:
            raise ValueError(f"unknown lab op {op!r}")
        return json.dumps({"ok": True, "result": OPS[op](args)})
    except lab.BotError as e:
        d = e.to_dict()
        d["deal"] = getattr(e, "deal", None)
        return json.dumps({"ok": False, "error": d["messages"]["en"], "bot_error": d})
    except Exception as e:  # noqa: BLE001 - every failure goes back to the page as text
        return json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"})
