"""The bot lab's side of Python, run by Pyodide in the lab's own worker (web/lab-worker.js),
never in the table's worker.  No bot file's code runs here (docs/LAB.md, "Boxes"): the lab's
arena, its watch mode and the tournament's games are exchanges in which this worker holds the
game and our levels and the page answers each decision of a bot file with the bot's box
(web/lib/box.js, web/lib/lab/games.js); every answer is checked here against the view's legal
actions.

``handle(op, args_json)`` returns JSON text ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": "message"}``, plus ``"bot_error"`` (``atut.lab.BotError.to_dict()``:
kind, line, messages in both languages, the student's traceback, the deal and the seat) when a
bot file's answer failed.

Ops: ``info`` (the game's example bots and view help); ``arena_start`` (the lab's arena:
``atut.arena.deal_steps`` deal after deal, the student's bot and the opponent as levels or
bot files) and ``game_start`` (a tournament game of ``atut.tournament.game_steps``), both
continued by ``game_send`` (or the worker's own loop, ``game_run_step``) and dropped by
``game_drop``; ``watch`` and ``watch_step`` (a whole
game of the lab's own, the student's bot in seat 0, every hand open, one action a step);
``tournament_plan``, ``tournament_begin``, ``tournament_add``, ``tournament_results``,
``tournament_open`` and ``tournament_review``: a class tournament's entries, schedule, records,
board (``atut.tournament.board``), export, import and review (web/lib/lab/tournament.js).
"""

from __future__ import annotations

import json
import time

import atut
import atut.lab as lab
from atut import arena


def op_info(args):
    game = args.get("game")
    if game not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game!r}")
    try:
        help_ = lab.view_help(game)
    except Exception as e:  # noqa: BLE001 - the lab works without its help panel
        help_ = {"error": f"{type(e).__name__}: {e}"}
    return {"examples": lab.examples(game), "help": help_}


def _entries(args) -> list:
    """The lineup's entries: ``{level}`` a level, ``{name, file: true}`` a bot file whose
    decisions the page answers with its box (``arena.Asked``)."""
    out = []
    for i, b in enumerate(args.get("bots") or []):
        if isinstance(b, dict) and b.get("file"):
            name = b.get("name") or f"bot{i}.py"
            if not isinstance(name, str) or not name.endswith(".py") or "/" in name:
                raise ValueError(f"a bot's name must be a file name ending in .py, not {name!r}")
            out.append(arena.Asked(name))
        elif isinstance(b, dict) and b.get("level") is not None:
            out.append(int(b["level"]))
        else:
            raise ValueError(f"a bot is a level or a bot file, not {b!r}")
    return out


def _arena_steps(game, bots, players, deals, seed):
    """The arena as one exchange: each deal's requests (``deal_steps``), then after a deal
    (at most ten a second, and the last) ``{"op": "deal", done, total, dps, point}`` (the
    running win share of the student's bot; the answer is ignored); returns the result, the
    command line's report and the CSV."""
    bots, players, mode = arena._check(game, bots, players, deals, None)
    line = arena.lineup(game, bots, players)
    t0 = time.perf_counter()
    last = 0.0
    results = []
    for d in range(deals):
        results.append((yield from arena.deal_steps(
            (game, players, bots, d, seed, mode, 3.0, {}))))
        now = time.perf_counter()
        if d + 1 < deals and now - last < 0.1:
            continue
        last = now
        point = arena._running([r["share"][0] for r in results])[-1]
        yield {"op": "deal", "done": d + 1, "total": deals,
               "dps": (d + 1) / max(now - t0, 1e-9), "point": point}
    r = arena.summary(game, bots, players, seed, mode, line, results,
                      time.perf_counter() - t0)
    return {"result": r, "report": arena.report(r), "csv": arena.to_csv(r)}


def op_arena_start(args):
    """``{game, players, deals, seed, bots: [{name, file: true} | {level}]}``: the arena's first
    request (continued by ``game_send``)."""
    game = args.get("game")
    if game not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game!r}")
    gen = _arena_steps(game, _entries(args), int(args.get("players")), int(args.get("deals")),
                       int(args.get("seed", 1)))
    return _begin(gen)


_watch: dict = {}                    # the game being watched (op watch, watch_step)


def op_watch(args):
    """A whole game to watch with open hands, one action per ``watch_step``: the student's bot
    in seat 0, the opponent (a level or a bot file) in the other seats (the lab's own game: no
    table is involved).  A bot file's seat to move comes with ``ask`` (its view), which the
    page answers with the bot's box in the next ``watch_step``."""
    game_id = args.get("game")
    if game_id not in atut.GAME_IDS:
        raise ValueError(f"unknown game {game_id!r}")
    g = atut.new_game(game_id, players=int(args.get("players")), seed=int(args.get("seed", 1)))
    specs = _entries(args)
    if len(specs) != 2:
        raise ValueError("watch takes the student's bot and one opponent")
    entries = [0] + [1] * (g.players - 1)
    bots = [None if isinstance(specs[e], arena.Asked)
            else atut.make_bot(game_id, specs[e], seed=g.seed * 31 + specs[e])
            for e in entries]
    _watch.clear()
    _watch.update(game=g, bots=bots, entries=entries, specs=specs, last=None)
    return _watch_state()


def _watch_state():
    g = _watch["game"]
    views = [g.view(s) for s in range(g.players)]
    v = views[0]
    out = {"hands": [x.get("hand", []) for x in views], "trick": v.get("trick"),
           "scores": v.get("scores"), "deal_no": v.get("deal_no"), "phase": v.get("phase"),
           "to_move": v.get("to_move"), "is_over": bool(v.get("is_over")),
           "trump": v.get("trump"), "last": _watch["last"], "steps": len(g.history),
           "ask": None}
    if not g.is_over and _watch["bots"][g.to_move] is None:
        s = g.to_move
        out["ask"] = {"seat": s, "entry": _watch["entries"][s], "view": views[s]}
    return out


def op_watch_step(args):
    """``{answer}``: the box's answer when the seat to move is a bot file's (as ``ask`` said);
    one action applied."""
    g = _watch.get("game")
    if g is None:
        raise ValueError("no game is being watched")
    if not g.is_over:
        s = g.to_move
        view = g.view(s)
        bot = _watch["bots"][s]
        if bot is not None:
            action = bot.choose(view)
        else:
            spec = _watch["specs"][_watch["entries"][s]]
            answer = args.get("answer")
            answer = answer if isinstance(answer, dict) else {}
            if "error" in answer or "ok" not in answer:
                arena._raise(answer.get("error"), spec, None, s)
            action = lab.check_action(view, answer["ok"], spec.name)
        g.apply(action)
        _watch["last"] = {"seat": s, "action": action}
    return _watch_state()


# --- exchanges: the arena's and a tournament game (docs/LAB.md "Boxes") -----------------------
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
    except BaseException:
        _games.pop(gid, None)
        raise
    return {"id": gid, "req": req}


def _begin(gen):
    _next_game[0] += 1
    gid = _next_game[0]
    _games[gid] = gen
    return _step(gid, gen, None)


def op_game_start(args):
    """``{task}``: a game of ``tournament.game_steps``; its first request, or its record."""
    from atut import tournament
    task = args.get("task")
    if not isinstance(task, list) or len(task) != 8:
        raise ValueError("game_start needs a task of tournament.game_steps")
    if task[0] not in atut.GAME_IDS:
        raise ValueError(f"unknown game {task[0]!r}")
    return _begin(tournament.game_steps(tuple(task)))


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


OPS = {"info": op_info, "arena_start": op_arena_start, "watch": op_watch,
       "watch_step": op_watch_step, "game_start": op_game_start, "game_send": op_game_send,
       "game_drop": op_game_drop, "tournament_plan": op_tournament_plan,
       "tournament_begin": op_tournament_begin, "tournament_add": op_tournament_add,
       "tournament_results": op_tournament_results, "tournament_open": op_tournament_open,
       "tournament_review": op_tournament_review}


def _reply(fn, *args) -> str:
    """``fn(*args)``'s JSON text, or the failure's: ``{"ok": false, "error", "bot_error"}``."""
    try:
        return fn(*args)
    except lab.BotError as e:
        d = e.to_dict()
        d["deal"] = getattr(e, "deal", None)
        return json.dumps({"ok": False, "error": d["messages"]["en"], "bot_error": d})
    except Exception as e:  # noqa: BLE001 - every failure goes back to the page as text
        return json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"})


def _handle(op, args_json):
    args = json.loads(args_json) if args_json else {}
    if op not in OPS:
        raise ValueError(f"unknown lab op {op!r}")
    return json.dumps({"ok": True, "result": OPS[op](args)})


def handle(op: str, args_json: str) -> str:
    return _reply(_handle, op, args_json)


def _run_step(gid, answer_json):
    r = op_game_send({"id": gid, "answer": json.loads(answer_json)})
    req = r.get("req")
    if req is not None and req.get("op") == "choose":
        return f"choose {req['seat']} " + json.dumps({"op": "choose", "view": req["view"]},
                                                     separators=(",", ":"))
    return json.dumps({"ok": True, "result": r})


def game_run_step(gid: int, answer_json: str) -> str:
    """One step of a game's exchange for the lab worker's own loop (web/lab-worker.js, op
    ``game_run``): the answer (JSON) sent, and then either ``"choose SEAT REQUEST"`` (the
    box protocol's request for that seat's box, as JSON, which the worker sends the box
    itself) or the reply's JSON text as ``handle`` gives it (any other request, the end, a
    failure)."""
    return _reply(_run_step, gid, answer_json)
