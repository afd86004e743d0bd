"""A class tournament: many bots, every bot file in a box of its own, duplicate deals, a
leaderboard with confidence (``docs/LAB.md``, "Tournament").

    python -m atut tournament GAME BOT... [--players N] [--deals N] [--time-limit S]
                              [--seed S] [--jobs N] [--cluster ADDR|local] [--out results.json]
    python -m atut tournament --verify results.json

A BOT is a bot file (``mybot.py``) or one of our levels (``3``, ``search``).  The format:

- **Self-play check first.**  Each file plays one deal against itself in every seat (a box a
  seat); a file that cannot finish it legally is left out, with the reason.
- **Tables.**  Every set of entries that fills a table plays: every pairing in a two-player
  game (and in euchre, whose pairs sit A B A B), every set of N in an N-player game.
- **Duplicate deals.**  Each table plays the same ``deals`` deals (seeded by their number, as
  the arena), once per rotation of its entries through the seats, so that each entry holds each
  hand.  A deal is scored by the points each seat gained (a whole game where a game is one deal,
  as 66), as in the arena's ``deal`` mode.
- **A bot that fails** (an error, an illegal answer, no answer within ``--time-limit``, a
  crash) loses that game: it is ranked last, the others share the first place, the game stops
  there, and the board counts the error and names it.  The tournament goes on.
- **The board.**  OpenSkill's Plackett-Luce rating (the ``openskill`` package: ``pip install
  'atut[tournament]'``), updated game by game in the schedule's order, so the same games give
  the same board whatever ran them; the 95% interval is mu ± 1.96 sigma.  Per entry also the
  wins (first places, ties shared), the mean margin (its seats' gain minus the others'), the
  errors, the time-outs and the mean decision time; a pairwise table (the share of games in
  which the row ranked above the column); each entry's rating after every deal (a chart).

The JSON that ``--out`` writes names the settings, the seeds, each file's SHA-256 and every
game's record (``atut.load_game`` replays it); ``--verify`` replays every record, checks the
deal it was dealt, the seats, the outcome and the board.  ``run`` is the same for the lab
(its ``progress`` callback sees every table-deal as it ends).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import sys
import time

import atut

from .arena import (
    _dask_results,
    _margin_points,
    _pool_results,
    _winners,
    deal_setup,
    lineup,
    rotations,
)
from .bots import NAMES, make_bot, parse_level
from .lab import KINDS, BotError, check_action, read_bot_file

_KINDS = KINDS + ("timeout", "crash", "protocol")
FORMAT = "atut-tournament"
VERSION = 1
LEVEL_NAME = {v: k for k, v in NAMES.items()}
Z95 = 1.96

__all__ = ["Entry", "run", "board", "results", "review", "verify", "main"]


# --- entries ----------------------------------------------------------------------------------

class Entry:
    """One player of the tournament: a level (``level``) or a bot file (``source``, ``sha256``,
    played in boxes)."""

    def __init__(self, name: str, level: int | None = None, source: str | None = None):
        self.name = name
        self.level = level
        self.source = source
        self.sha256 = (hashlib.sha256(source.encode("utf-8")).hexdigest()
                       if source is not None else None)

    @classmethod
    def parse(cls, spec: str) -> Entry:
        """``"3"``, ``"search"`` (a level) or a path to a ``.py`` file."""
        spec = spec.strip()
        if spec.endswith(".py"):
            return cls(os.path.basename(spec), source=read_bot_file(spec)[0])
        level = parse_level(spec)
        return cls(f"{level} {LEVEL_NAME[level]}", level=level)

    def to_dict(self) -> dict:
        d = {"name": self.name}
        if self.level is not None:
            d["level"] = self.level
        else:
            d["sha256"] = self.sha256
        return d


def _unique_names(entries: list[Entry]) -> None:
    seen: dict[str, int] = {}
    for e in entries:
        n = seen.get(e.name, 0)
        seen[e.name] = n + 1
        if n:
            e.name = f"{e.name} ({n + 1})"


# --- one game, in a worker --------------------------------------------------------------------

_BOXES: dict = {}          # in each worker process: (sha256, time limit) -> BoxedBot


def _boxed(source: str, name: str, time_limit: float | None):
    from .box import BoxedBot
    key = (hashlib.sha256(source.encode("utf-8")).hexdigest(), name, time_limit)
    bot = _BOXES.get(key)
    if bot is None:
        bot = _BOXES[key] = BoxedBot(source, name, time_limit=time_limit)
    return bot


def _close_boxes() -> None:
    while _BOXES:
        _BOXES.popitem()[1].close()


def _ranks(values: list[float]) -> list[int]:
    """1 for the best value; ties share the better rank."""
    return [1 + sum(1 for w in values if w > v) for v in values]


def game_steps(task: tuple):
    """One game of a table as an exchange with whatever runs the bot files' boxes (a process
    here, a sandboxed worker in the page): a generator that yields requests, is sent the
    answers and returns the game's record (JSON-safe).  Our levels play inside it.

    ``task`` = (game_id, players, entries as dicts with ``name`` and ``level`` or ``source``,
    the table's entry indices, seats (entry index per seat), deal, seed, mode).  Requests:

    - ``{"op": "open", "seats": [seat, ...]}``: a box for each of these seats (a file's seats),
      with a fresh namespace of its bot; answer ``{seat: None or an error dict}`` (str keys);
    - ``{"op": "choose", "seat": s, "entry": e, "view": view}``: answer ``{"ok": action}`` or
      ``{"error": {"kind", "messages": {"en", "pl"}, "line"}}``, with ``"seconds"`` (the time
      the box took).  The answer is checked here against the view's legal actions.
    """
    game_id, players, specs, table, seats, d, seed, mode = task
    deal_seed, deck, dealer = deal_setup(game_id, players, seed, d)
    game = atut.new_game(game_id, players=players, seed=deal_seed, dealer=dealer, deck=deck)
    start = list(game.scores)
    deal_no = game.deal_no
    bots: list = [None] * players
    files = []
    for s in range(players):
        spec = specs[seats[s]]
        if spec.get("level") is not None:
            lv = spec["level"]
            bots[s] = make_bot(game_id, lv, seed=deal_seed * 31 + lv, strict=True)
            if lv >= 3:
                bots[s].budget["clock"] = "cpu"
        else:
            files.append(s)
    times: dict[str, float] = {}
    decisions: dict[str, int] = {}
    error = None
    if files:
        opened = yield {"op": "open", "seats": files}
        for s in files:
            err = (opened or {}).get(str(s))
            if err:
                error = _error_record(err, s, seats[s], at="open")
                break
    while error is None and not game.is_over:
        if mode == "deal" and game.deal_no != deal_no:
            break
        s = game.to_move
        key = str(seats[s])
        view = game.view(s)
        if bots[s] is not None:
            t0 = time.perf_counter()
            action = bots[s].choose(view)
            seconds = time.perf_counter() - t0
        else:
            answer = yield {"op": "choose", "seat": s, "entry": seats[s], "view": view}
            answer = answer if isinstance(answer, dict) else {}
            seconds = float(answer.get("seconds") or 0.0)
            try:
                if "error" in answer:
                    err = answer["error"] if isinstance(answer["error"], dict) else {}
                    error = _error_record(err, s, seats[s])
                else:
                    action = check_action(view, answer.get("ok"), specs[seats[s]]["name"])
            except BotError as e:
                error = _error_record(e.to_dict(), s, seats[s])
        times[key] = times.get(key, 0.0) + seconds
        decisions[key] = decisions.get(key, 0) + 1
        if error is None:
            game.apply(action)
    rec = {"table": list(table), "deal": d, "seats": list(seats), "deal_seed": deal_seed,
           "save": json.loads(game.to_json()), "times": times, "decisions": decisions}
    rec.update(outcome(game_id, game, start, seats, error, mode))
    return rec


def play_game(task: tuple) -> dict:
    """One game of a table, its bot files in process boxes (``atut.box``): ``task`` as
    ``game_steps`` takes it, with the time limit of a decision last."""
    *inner, time_limit = task
    steps = game_steps(tuple(inner))
    specs, seats = inner[2], inner[4]
    boxes: dict = {}
    answer = None
    try:
        while True:
            req = steps.send(answer)
            if req["op"] == "open":
                answer = {}
                for s in req["seats"]:
                    spec = specs[seats[s]]
                    try:
                        boxes[s] = _boxed(spec["source"], spec["name"], time_limit).fresh()
                        answer[str(s)] = None
                    except BotError as e:
                        answer[str(s)] = e.to_dict()
                        break
            else:
                t0 = time.perf_counter()
                try:
                    answer = {"ok": boxes[req["seat"]].ask(req["view"])}
                except BotError as e:
                    answer = {"error": e.to_dict()}
                answer["seconds"] = time.perf_counter() - t0
    except StopIteration as done:
        return done.value
    finally:
        for b in boxes.values():
            b.release()


def _error_record(err: dict, seat: int, entry: int, at: str = "choose") -> dict:
    """A failed bot's record: its ``kind``, messages (English and Polish) and line."""
    msgs = err.get("messages") if isinstance(err.get("messages"), dict) else {}
    en = str(msgs.get("en") or err.get("kind"))
    kind = err.get("kind") if err.get("kind") in _KINDS else "protocol"
    line = err.get("line") if isinstance(err.get("line"), int) else None
    return {"seat": seat, "entry": entry, "kind": kind, "at": at,
            "messages": {"en": en, "pl": str(msgs.get("pl") or en)}, "line": line}


def outcome(game_id: str, game, start: list[int], seats: list[int], error: dict | None,
            mode: str) -> dict:
    """Each entry's rank and margin in a game: from the seats' gains (``arena``'s rule), or,
    where a bot failed, that bot last and the others sharing the first place (no margin)."""
    entries = sorted(set(seats))
    if error is not None:
        bad = error["entry"]
        return {"ranks": {str(e): (2 if e == bad else 1) for e in entries},
                "margin": None, "error": error}
    ws, gain = _winners(game, start, mode)
    pts = _margin_points(game, gain)
    share = {e: sum(1 for s in ws if seats[s] == e) / len(ws) for e in entries}
    ranks = _ranks([share[e] for e in entries])
    margin = {}
    for e in entries:
        mine = [pts[s] for s in range(len(seats)) if seats[s] == e]
        other = [pts[s] for s in range(len(seats)) if seats[s] != e]
        margin[str(e)] = (sum(mine) / len(mine) - sum(other) / len(other)) if other else 0.0
    return {"ranks": {str(e): r for e, r in zip(entries, ranks)}, "margin": margin,
            "error": None}


# --- the schedule -----------------------------------------------------------------------------

def _mode(game_id: str) -> str:
    """The arena's default: whole games where a game is one deal, else single deals."""
    return "game" if atut.games.spec(game_id).one_deal else "deal"


def table_size(game_id: str, players: int) -> int:
    """How many entries sit at a table: 2 in a game of two sides (``GameSpec.partners``: the
    arena seats two bots as pairs, A B A B), else one entry a seat."""
    return 2 if atut.games.spec(game_id).partners and players == 4 else players


def schedule(game_id: str, players: int, n_entries: int, deals: int) -> list[tuple]:
    """Every game in the board's order: (table, seats, deal) for each table (a combination of
    entries), each deal, each rotation of the table's lineup."""
    k = table_size(game_id, players)
    out = []
    for table in itertools.combinations(range(n_entries), k):
        line = [table[i] for i in lineup(game_id, list(range(k)), players)]
        for d in range(deals):
            for rot in rotations(game_id, line):
                out.append((table, rot, d))
    return out


def self_play_check(game_id: str, players: int, entry: Entry, seed: int,
                    time_limit: float | None) -> dict | None:
    """A file plays one deal against itself, a box a seat: ``None`` if it finished legally,
    else the error record (its ``messages`` in English and Polish)."""
    specs = [{"name": entry.name, "source": entry.source}]
    mode = _mode(game_id)
    rec = play_game((game_id, players, specs, (0,), [0] * players, -1, seed, mode, time_limit))
    return rec["error"]


# --- the board --------------------------------------------------------------------------------

def board(names: list[str], games: list[dict]) -> dict:
    """The leaderboard from the game records in schedule order (``docs/LAB.md``): per entry
    ``mu``, ``sigma``, ``lo``/``hi`` (95%), ``games``, ``wins``, ``margin`` (mean), ``errors``,
    ``timeouts``, ``ms`` (mean decision time); ``order`` (entries best first by ``lo``...),
    ``pairwise`` [i][j] (share of their games in which i ranked above j; ``None`` if they never
    met) and ``history`` (each entry's mu after each table-deal)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ValueError("the tournament's ratings need the openskill package: "
                         "pip install 'atut[tournament]'") from None
    model = PlackettLuce()
    n = len(names)
    ratings = [model.rating(name=str(i)) for i in range(n)]
    stat = [{"games": 0, "wins": 0.0, "margin_sum": 0.0, "margin_n": 0, "errors": 0,
             "timeouts": 0, "seconds": 0.0, "decisions": 0} for _ in range(n)]
    above = [[0.0] * n for _ in range(n)]
    met = [[0] * n for _ in range(n)]
    history = [[] for _ in range(n)]
    last_key = None
    for g in games:
        ranks = {int(k): v for k, v in g["ranks"].items()}
        es = sorted(ranks)
        new = model.rate([[ratings[e]] for e in es], ranks=[ranks[e] for e in es])
        for e, team in zip(es, new):
            ratings[e] = team[0]
        firsts = [e for e in es if ranks[e] == 1]
        for e in es:
            st = stat[e]
            st["games"] += 1
            if ranks[e] == 1:
                st["wins"] += 1.0 / len(firsts)
            if g["margin"] is not None:
                st["margin_sum"] += g["margin"][str(e)]
                st["margin_n"] += 1
            st["seconds"] += g["times"].get(str(e), 0.0)
            st["decisions"] += g["decisions"].get(str(e), 0)
        err = g.get("error")
        if err:
            stat[err["entry"]]["errors"] += 1
            if err["kind"] == "timeout":
                stat[err["entry"]]["timeouts"] += 1
        for a in es:
            for b in es:
                if a != b:
                    met[a][b] += 1
                    above[a][b] += 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] \
                        else 0.0
        key = (tuple(g["table"]), g["deal"])
        if key != last_key:
            last_key = key
            for e in range(n):
                history[e].append(round(ratings[e].mu, 4))
        else:
            for e in range(n):
                history[e][-1] = round(ratings[e].mu, 4)
    rows = []
    for e in range(n):
        r, st = ratings[e], stat[e]
        rows.append({"entry": e, "name": names[e], "mu": r.mu, "sigma": r.sigma,
                     "lo": r.mu - Z95 * r.sigma, "hi": r.mu + Z95 * r.sigma,
                     "games": st["games"], "wins": st["wins"],
                     "margin": (st["margin_sum"] / st["margin_n"]) if st["margin_n"] else None,
                     "errors": st["errors"], "timeouts": st["timeouts"],
                     "ms": (1000 * st["seconds"] / st["decisions"]) if st["decisions"] else None})
    order = sorted(range(n), key=lambda e: (-rows[e]["lo"], -rows[e]["mu"], e))
    pairwise = [[(above[i][j] / met[i][j]) if met[i][j] else None for j in range(n)]
                for i in range(n)]
    return {"rating": "openskill PlackettLuce, mu ± 1.96 sigma", "rows": rows, "order": order,
            "pairwise": pairwise, "history": history}


def _rounded(x, places: int = 6):
    if isinstance(x, float):
        return round(x, places)
    if isinstance(x, list):
        return [_rounded(v, places) for v in x]
    if isinstance(x, dict):
        return {k: _rounded(v, places) for k, v in x.items()}
    return x


def _comparable(b: dict) -> dict:
    """The board without the decision times (measured, not replayed)."""
    rows = [{k: v for k, v in r.items() if k != "ms"} for r in b["rows"]]
    return _rounded({**b, "rows": rows})


# --- running it -------------------------------------------------------------------------------

def _results(tasks, jobs: int, cluster: str | None):
    if cluster:                         # in schedule order: the board rates game by game
        yield from _dask_results(tasks, cluster, jobs, play_game, ordered=True)
        return
    if jobs > 1:
        yield from _pool_results(tasks, jobs, play_game)
        return
    try:
        for t in tasks:
            yield play_game(t)
    finally:
        _close_boxes()


def run(game_id: str, bots: list, players: int | None = None, deals: int = 20, seed: int = 1,
        time_limit: float | None = 1.0, jobs: int = 1, cluster: str | None = None,
        progress=None) -> dict:
    """Play the tournament and return its results (the JSON ``--out`` writes).  ``bots``:
    ``Entry`` objects or strings as ``Entry.parse`` takes them.  ``progress(done, total)``
    after every game."""
    cls = atut.game_class(game_id)
    if players is None:
        players = cls.PLAYERS[0]
    if players not in cls.PLAYERS:
        raise ValueError(f"{game_id} is played by {cls.PLAYERS} players, not {players}")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    entries = [b if isinstance(b, Entry) else Entry.parse(str(b)) for b in bots]
    _unique_names(entries)
    mode = _mode(game_id)
    t0 = time.perf_counter()
    excluded, playing = [], []
    for e in entries:
        if e.source is None:
            playing.append(e)
            continue
        err = self_play_check(game_id, players, e, seed, time_limit)
        if err is None:
            playing.append(e)
        else:
            excluded.append({**e.to_dict(), "error": err})
    _close_boxes()
    k = table_size(game_id, players)
    if len(playing) < k:
        raise ValueError(f"{len(playing)} bot(s) passed the self-play check; a table needs {k}")
    specs = [{"name": e.name, "level": e.level, "source": e.source} for e in playing]
    sched = schedule(game_id, players, len(playing), deals)
    tasks = [(game_id, players, specs, table, seats, d, seed, mode, time_limit)
             for table, seats, d in sched]
    games = []
    for rec in _results(tasks, jobs, cluster):
        games.append(rec)
        if callable(progress):
            progress(len(games), len(tasks))
    return results(game_id, players, deals, seed, time_limit, [e.to_dict() for e in playing],
                   excluded, games, time.perf_counter() - t0)


def results(game_id: str, players: int, deals: int, seed: int, time_limit: float | None,
            entries: list[dict], excluded: list[dict], games: list[dict],
            seconds: float) -> dict:
    """The results JSON (``--out``; the lab's export): the settings, the deal seeds, the
    entries that played (``Entry.to_dict``: a file's SHA-256), the files left out with their
    reason, every game's record in schedule order and the board."""
    return {"format": FORMAT, "version": VERSION, "game": game_id, "players": players,
            "deals": deals, "seed": seed, "mode": _mode(game_id), "time_limit": time_limit,
            "deal_seeds": [seed * 1_000_003 + d for d in range(deals)],
            "entries": entries, "excluded": excluded, "seconds": seconds, "games": games,
            "board": board([e["name"] for e in entries], games)}


def review(game_id: str, rec: dict) -> dict:
    """A tournament game's record step by step with every hand open (the game is over, or
    stopped by a failed bot): ``{"steps": [{"i", "seat", "action", "hands", "trick"}],
    "scores", "error"}``, as the table's review (``atut.table``) gives a finished deal."""
    from . import cards as C
    data = dict(rec["save"])
    if data.get("game") != game_id:
        raise ValueError(f"the record is not a game of {game_id}")
    actions = list(data.get("actions") or [])
    data["actions"] = []
    g = atut.load_game(data)
    steps = []
    for i, a in enumerate(actions):
        pub = g.view(None)
        steps.append({"i": i, "seat": g.to_move, "action": a,
                      "hands": [C.codes(C.cards_of(h)) for h in g.hands],
                      "trick": pub.get("trick") or []})
        g.apply(a)
    return {"steps": steps, "scores": list(g.scores), "error": rec.get("error"),
            "seats": rec.get("seats"), "deal": rec.get("deal")}


# --- verifying a results file -----------------------------------------------------------------

def verify(results: dict) -> list[str]:
    """Replay every game of a results JSON and check it: the format, the schedule (tables,
    seats, deals), each record's deal (its seed, deck and dealer), the replay of its actions
    (``atut.load_game``: every action legal), the outcome (ranks and margins from the replayed
    scores, or a named error at the seat to move) and the board.  The problems found, in
    English (empty: it all follows)."""
    problems: list[str] = []
    if not isinstance(results, dict) or results.get("format") != FORMAT:
        return [f"not a {FORMAT} file"]
    if results.get("version") != VERSION:
        return [f"version {results.get('version')!r} is not {VERSION}"]
    try:
        game_id, players = results["game"], results["players"]
        deals, seed, mode = results["deals"], results["seed"], results["mode"]
        entries, games = results["entries"], results["games"]
        atut.game_class(game_id)
        sched = schedule(game_id, players, len(entries), deals)
    except (KeyError, TypeError, ValueError) as e:
        return [f"malformed results: {e}"]
    if len(games) != len(sched):
        problems.append(f"{len(games)} games recorded, the schedule has {len(sched)}")
    for i, (g, (table, seats, d)) in enumerate(zip(games, sched)):
        where = f"game {i} (table {list(table)}, deal {d})"
        try:
            if g["table"] != list(table) or g["seats"] != list(seats) or g["deal"] != d:
                problems.append(f"{where}: not the schedule's table, seats or deal")
                continue
            deal_seed, deck, dealer = deal_setup(game_id, players, seed, d)
            save = g["save"]
            if (save.get("seed"), save.get("deck"), save.get("dealer")) != \
                    (deal_seed, deck, dealer):
                problems.append(f"{where}: not the duplicate deal {d}")
                continue
            game = atut.load_game(json.dumps(save))
            start = atut.new_game(game_id, players=players, seed=deal_seed, dealer=dealer,
                                  deck=deck).scores
            if g.get("error"):
                err = g["error"]
                opened = err.get("at") == "open" and not save["actions"]
                if (game.to_move != err["seat"] and not opened) or \
                        seats[err["seat"]] != err["entry"]:
                    problems.append(f"{where}: the failed bot was not the one to move")
            got = outcome(game_id, game, start, list(seats), g.get("error"), mode)
            if _rounded(got["ranks"]) != _rounded(g["ranks"]) or \
                    _rounded(got["margin"]) != _rounded(g["margin"]):
                problems.append(f"{where}: the outcome does not follow from the replay")
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            problems.append(f"{where}: {type(e).__name__}: {e}")
    if not problems:
        again = board([e["name"] for e in entries], games)
        if _comparable(again) != _comparable(results.get("board") or {}):
            problems.append("the board does not follow from the games")
    return problems


# --- the command ------------------------------------------------------------------------------

def report(r: dict) -> str:
    b = r["board"]
    rows = b["rows"]
    w = max([8] + [len(x["name"]) for x in rows])
    lines = [f"tournament {r['game']}, {r['players']} players, {r['deals']} duplicate deals a "
             f"table (seed {r['seed']}), {len(r['games'])} games, {r['seconds']:.0f} s; "
             f"rating: {b['rating']}",
             f"{'#':>2} {'bot':<{w}} {'rating':>7} {'95% interval':>16} {'games':>6} "
             f"{'wins':>7} {'margin':>8} {'errors':>6} {'time-outs':>9} {'ms':>7}"]
    for place, e in enumerate(b["order"], 1):
        x = rows[e]
        margin = "" if x["margin"] is None else f"{x['margin']:+.2f}"
        ms = "" if x["ms"] is None else f"{x['ms']:.1f}"
        interval = "[{:.2f}, {:.2f}]".format(x["lo"], x["hi"])
        lines.append(f"{place:>2} {x['name']:<{w}} {x['mu']:>7.2f} "
                     f"{interval:>16} {x['games']:>6} "
                     f"{x['wins']:>7.1f} {margin:>8} {x['errors']:>6} {x['timeouts']:>9} "
                     f"{ms:>7}")
    for x in r["excluded"]:
        lines.append(f"left out: {x['error']['messages']['en'].splitlines()[0]}")
    errs = [g["error"] for g in r["games"] if g.get("error")]
    for e in errs[:20]:
        lines.append(f"error: {e['messages']['en'].splitlines()[0]}")
    if len(errs) > 20:
        lines.append(f"... and {len(errs) - 20} more errors")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m atut tournament",
                                description="A tournament of bot files and levels on "
                                            "duplicate deals (see atut.tournament).")
    p.add_argument("game", nargs="?")
    p.add_argument("bots", nargs="*", help="bot files (.py) or levels (1-4)")
    p.add_argument("--players", type=int)
    p.add_argument("--deals", type=int, default=20, help="duplicate deals a table (20)")
    p.add_argument("--time-limit", type=float, default=1.0,
                   help="seconds a decision of a bot file (1.0; 0: no limit)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--cluster", help="a Dask scheduler's address, or 'local'")
    p.add_argument("--out", help="write the results as JSON")
    p.add_argument("--csv", help="write the board as CSV")
    p.add_argument("--verify", metavar="RESULTS", help="replay a results JSON and check it")
    a = p.parse_args(argv)
    if a.verify:
        try:
            with open(a.verify, encoding="utf-8") as f:
                results = json.load(f)
        except (OSError, ValueError) as e:
            print(f"error: cannot read {a.verify}: {e}", file=sys.stderr)
            return 2
        problems = verify(results)
        for x in problems:
            print(x)
        print(f"{len(results.get('games') or [])} games replayed: "
              f"{'all follow' if not problems else f'{len(problems)} problem(s)'}")
        return 1 if problems else 0
    if not a.game or len(a.bots) < 1:
        p.error("name a game and the bots")
    total = [0]

    def progress(done, n):
        total[0] = n
        if done % max(1, n // 20) == 0 or done == n:
            print(f"  {done}/{n} games", file=sys.stderr)

    if a.jobs <= 1 and not a.cluster:
        from .box import pin_to_one_cpu
        pin_to_one_cpu()                  # this process and its boxes on one CPU (atut.box)
    try:
        r = run(a.game, a.bots, a.players, a.deals, a.seed, a.time_limit or None, a.jobs,
                a.cluster, progress)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report(r))
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(r, f, separators=(",", ":"))
    if a.csv:
        with open(a.csv, "w", encoding="utf-8") as f:
            f.write(to_csv(r))
    return 0


def to_csv(r: dict) -> str:
    """The board as CSV: one row an entry, best first."""
    import csv
    import io
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["place", "bot", "sha256", "rating", "lo95", "hi95", "games", "wins", "margin",
                "errors", "timeouts", "ms_per_decision"])
    ents = r["entries"]
    for place, e in enumerate(r["board"]["order"], 1):
        x = r["board"]["rows"][e]
        w.writerow([place, x["name"], ents[e].get("sha256") or "", f"{x['mu']:.4f}",
                    f"{x['lo']:.4f}", f"{x['hi']:.4f}", x["games"], f"{x['wins']:.2f}",
                    "" if x["margin"] is None else f"{x['margin']:.4f}", x["errors"],
                    x["timeouts"], "" if x["ms"] is None else f"{x['ms']:.3f}"])
    return buf.getvalue()


# --- the benchmark ----------------------------------------------------------------------------

LEVEL1_FILE = '''"""Level 1 as a bot file: a random legal action."""
import random

rng = random.Random(1)


def choose(view):
    return rng.choice(view["legal_actions"])
'''


def _rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def bench(argv=None) -> int:
    """``python -m atut bench-boxes``: level 1 against level 1, in this Python and as bot files
    in boxes, deals per second in the same run (the arena's duplicate deals), and each box's
    memory (resident set).  The process is pinned to one CPU first (``pin_to_one_cpu``), as the
    tournament's command is."""
    import tempfile
    p = argparse.ArgumentParser(prog="python -m atut bench-boxes")
    p.add_argument("--games", default=",".join(atut.GAME_IDS))
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    from .box import BoxedBot, pin_to_one_cpu
    cpu = pin_to_one_cpu()            # both rows on one CPU, the boxes with the engine
    print(f"one CPU: {cpu}" if cpu is not None else "no CPU affinity on this system")
    print(f"{'game':<11} {'in-process':>11} {'boxed':>9} {'ratio':>6} {'MB a box':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "level1.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(LEVEL1_FILE)
        for game_id in a.games.split(","):
            from .arena import run as arena_run
            t0 = time.perf_counter()
            arena_run(game_id, [1, 1], None, a.deals, a.seed)
            inproc = a.deals / (time.perf_counter() - t0)
            bot = BoxedBot.from_file(path).load()
            t0 = time.perf_counter()
            arena_run(game_id, [bot, bot], None, a.deals, a.seed)
            boxed = a.deals / (time.perf_counter() - t0)
            rss = [_rss_mb(b._proc.pid) for b in bot._idle if b._proc]
            rss = [x for x in rss if x is not None]
            bot.close()
            mb = f"{max(rss):.1f}" if rss else "?"
            print(f"{game_id:<11} {inproc:>8.1f}/s {boxed:>7.1f}/s {boxed / inproc:>6.2f} "
                  f"{mb:>9}")
    return 0
