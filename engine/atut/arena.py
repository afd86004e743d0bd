"""The arena: bots against bots on duplicate deals, and bot decision times.

    python -m atut arena GAME --bots A,B[,...] --players N --deals K --seed S [--jobs J]
                         [--mode deal|game] [--cap-scale X] [--cluster tcp://HOST:8786|local]
    python -m atut bench-bots [--games g,...] [--levels 1,2,3,4] [--players N] [--games-per 4]

Bots are named by level ``1``..``4`` or ``random``, ``rules``, ``search``, ``strong``, or by the
path of a bot file (``mybot.py``: a module defining ``choose(view)``, ``atut.load_bot``); the
importable ``run`` also takes a ``StudentBot``, any object with ``choose`` or a factory of one
(``bot_spec``).  With fewer
bots than players the last bot fills the remaining seats (``--bots 3,2 --players 4``: one level-3
bot against three level-2 bots); in euchre two bots for four players sit as pairs (A B A B).

Duplicate: every deal is played once per rotation of the lineup through the seats, from the
same deck and dealer, so each bot holds each hand.  A deal is scored from the seats' score
changes: ``--mode deal`` (default for games played to a target) plays one deal from a fresh
game and compares the score each seat gained in it; ``--mode game`` plays whole games (66 is
one deal, so both are the same there).  The deal's winner is the seat (or the pair) that gained
most (ties shared); in ``game`` mode the game's winner.

Per bot the arena prints: its share of wins (summed over its seats) and the fair share (its
seats / players), a 95% confidence interval over deals (all rotations of a deal form one
observation, so the interval is honest for paired play), the mean score margin per deal (its
seats' gain minus the other bots' seats' mean gain; in 66 card points), and an Elo difference
against the field from the win share, odds-adjusted for the fair share.  The last line gives
the time and the deals per second.

``--jobs J`` plays the deals in J processes, ``--cluster`` as Dask distributed tasks (the
optional extra ``pip install 'atut[cluster]'``; ``local`` starts a local cluster of ``--jobs``
worker processes, at least 2; a remote scheduler's workers need ``atut`` installed): the
report is the same as with ``--jobs 1`` for the same seed (deals are independent, seeded by
their number, and gathered in order), provided the bots are repeatable (``botkit.rng``).
For the lab, ``run`` takes a ``progress(done, total, partial)`` callback and ``steps`` yields
after every deal; the result also holds per-deal ``rows`` (``to_csv``) and the ``running`` win
share with its interval (a chart).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

import atut

from . import cards as C
from .bots import make_bot, parse_level
from .bots.catalogue import LEVEL_TABLE, NUMBERS, SEARCH_LEVELS, spelled
from .lab import BotError, StudentBot, check_action, load_bot

LEVEL_NAME = {lv.number: lv.name for lv in LEVEL_TABLE}


# --- one duplicate deal ----------------------------------------------------------------------

def bot_spec(x):
    """One entry of the arena's lineup: a level (an int 1-4, ``"3"``, ``"search"``...) as an
    int; a path ending in ``.py`` as the ``StudentBot`` of that file; a ``StudentBot``, an object
    with ``choose``, a zero-argument factory or an ``Asked`` entry as it is.  ``ValueError``
    otherwise."""
    if isinstance(x, bool):
        raise ValueError(f"not a bot: {x!r}")
    if isinstance(x, int):
        return parse_level(x)
    if isinstance(x, str):
        x = x.strip()
        if x.endswith(".py"):
            return file_bot(x)
        if x.startswith("ismcts:"):                 # OpenSpiel's IS-MCTS (atut.openspiel)
            from .openspiel import ismcts_spec
            return ismcts_spec(x)
        return parse_level(x)
    if isinstance(x, Asked) or hasattr(x, "choose") or hasattr(x, "fresh") or callable(x):
        return x
    raise ValueError(f"not a bot: {x!r} (a level 1-4, a .py file, or an object with choose)")


def file_bot(path: str, time_limit: float | None = None):
    """A bot file as an entry: in a box of its own (``atut.box``, a process) where this Python
    can start processes, else (Pyodide, where the page's lab plays a file in a box of its own
    through ``deal_steps`` instead) in this Python.  ``BotError`` at once for a file that
    cannot be a bot."""
    if sys.platform == "emscripten":
        return load_bot(path)
    from .box import BoxedBot
    return BoxedBot.from_file(path, time_limit=time_limit).load()


def bot_name(spec) -> str:
    """How the report names an entry: ``"3 search"`` for a level, a bot file's name."""
    if isinstance(spec, int):
        return f"{spec} {LEVEL_NAME[spec]}"
    if isinstance(spec, StudentBot) or type(spec).__name__ == "BoxedBot":
        import os
        return os.path.basename(spec.name)
    name = getattr(spec, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(spec, "__name__", None) or type(spec).__name__


def _seat_bot(spec):
    """A bot of its own for one seat of one game: ``fresh()`` of a StudentBot, a factory's
    product, or the object itself; its ``reset()`` called if it has one."""
    if hasattr(spec, "fresh"):
        b = spec.fresh()
    elif hasattr(spec, "choose"):
        b = spec
    else:
        b = spec()
    reset = getattr(b, "reset", None)
    if callable(reset):
        reset()
    return b


def lineup(game_id: str, bots: list, players: int) -> list[int]:
    """Entry index (into ``bots``) of each seat before rotation."""
    if len(bots) > players:
        raise ValueError(f"{len(bots)} bots for {players} players")
    if atut.games.spec(game_id).partners and len(bots) == 2 and players == 4:
        return [0, 1, 0, 1]                     # two sides: each bot plays one
    return list(range(len(bots))) + [len(bots) - 1] * (players - len(bots))


def rotations(game_id: str, line: list[int]) -> list[list[int]]:
    n = len(line)
    out = []
    for r in range(n):
        rot = [line[(s - r) % n] for s in range(n)]
        if rot not in out:
            out.append(rot)
    return out


def _winners(game, start_scores, mode):
    """Seats sharing the win and each seat's gain."""
    gain = [game.scores[s] - start_scores[s] for s in range(game.n)]
    if mode == "game" or atut.games.spec(game.game_id).one_deal:
        w = game.winner
        ws = list(w) if isinstance(w, (list, tuple)) else [w]
        return ws, gain
    best = max(gain)
    return [s for s in range(game.n) if gain[s] == best], gain


def _margin_points(game, gain):
    """Per-seat points for the margin: the deal's points where the game keeps them
    (``GameSpec.deal_points``: 66's card points), else the score gain."""
    field = atut.games.spec(game.game_id).deal_points
    return list(getattr(game, field)) if field else gain


def deal_setup(game_id: str, players: int, seed: int, d: int) -> tuple[int, list[str], int]:
    """Duplicate deal ``d`` of an arena seeded ``seed``: its seed, deck (codes) and dealer."""
    deal_seed = seed * 1_000_003 + d
    rng = random.Random(deal_seed)
    deck = atut.game_class(game_id).deck_for(players)
    rng.shuffle(deck)
    return deal_seed, C.codes(deck), rng.randrange(players)


class Asked:
    """An entry of the lineup whose decisions the driver of ``deal_steps`` answers (a bot file
    in a box of its own: the lab's arena in the page, ``docs/LAB.md`` "Boxes"); ``name`` names
    it in the report."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"Asked({self.name!r})"


def _level_bot(game_id, lv, deal_seed, cap_scale, budgets):
    if lv in SEARCH_LEVELS:
        budget = dict(budgets.get(lv, {}))
        # strict: a plug-in error must show, not be played around
        b = make_bot(game_id, lv, seed=deal_seed * 31 + lv, budget=budget or None, strict=True)
        b.budget["time_cap"] *= cap_scale
        b.budget["clock"] = "cpu"
        return b
    return make_bot(game_id, lv, seed=deal_seed * 31 + lv, strict=True)


def deal_steps(args):
    """Deal ``d`` in every rotation as an exchange with whatever plays the entries that are not
    levels (a generator: it yields requests, is sent the answers and returns ``play_deal``'s
    result).  Our levels play inside it.  ``args`` as ``play_deal`` takes them.  Requests:

    - ``{"op": "open", "seats": [seat, ...], "entries": [entry, ...]}`` at the start of each
      rotation: a bot of its own for each of these seats (the entry's fresh namespace, its
      ``reset`` called); answer ``{seat: None or an error dict}`` (str keys);
    - ``{"op": "choose", "seat": s, "entry": e, "view": view}``: answer ``{"ok": action}`` or
      ``{"error": BotError.to_dict()}``.  The answer is checked here against the view's legal
      actions (``check_action``).

    A failure is raised as ``BotError`` with ``deal`` and ``seat``."""
    game_id, players, bots, d, seed, mode, cap_scale, budgets = args
    deal_seed, deck_codes, dealer = deal_setup(game_id, players, seed, d)
    line = lineup(game_id, bots, players)
    entries = len(bots)
    share = [0.0] * entries
    margin = [0.0] * entries
    decisions = capped = 0
    rots = rotations(game_id, line)
    for rot in rots:
        game = atut.new_game(game_id, players=players, seed=deal_seed, dealer=dealer,
                             deck=deck_codes)
        seat_bots = [_level_bot(game_id, bots[rot[s]], deal_seed, cap_scale, budgets)
                     if isinstance(bots[rot[s]], int) else None for s in range(players)]
        asked = [s for s in range(players) if seat_bots[s] is None]
        if asked:
            opened = yield {"op": "open", "seats": asked, "entries": [rot[s] for s in asked]}
            for s in asked:
                err = (opened or {}).get(str(s))
                if err:
                    _raise(err, bots[rot[s]], d, s)
        start = list(game.scores)
        deal_no = game.deal_no
        steps = 0
        while not game.is_over:
            if mode == "deal" and game.deal_no != deal_no:
                break
            s = game.to_move
            view = game.view(s)
            if seat_bots[s] is not None:
                action = seat_bots[s].choose(view)
            else:
                answer = yield {"op": "choose", "seat": s, "entry": rot[s], "view": view}
                answer = answer if isinstance(answer, dict) else {}
                if "error" in answer or "ok" not in answer:
                    _raise(answer.get("error"), bots[rot[s]], d, s)
                try:
                    action = check_action(view, answer["ok"], bot_name(bots[rot[s]]))
                except BotError as err:
                    err.deal, err.seat = d, s
                    raise
            game.apply(action)
            steps += 1
            if steps > 200_000:
                raise RuntimeError(f"{game_id} deal {d} does not end")
        ws, gain = _winners(game, start, mode)
        pts = _margin_points(game, gain)
        for s in range(players):
            e = rot[s]
            if s in ws:
                share[e] += 1.0 / len(ws)
        for e in range(entries):
            mine = [pts[s] for s in range(players) if rot[s] == e]
            other = [pts[s] for s in range(players) if rot[s] != e]
            if mine and other:
                margin[e] += sum(mine) / len(mine) - sum(other) / len(other)
        for b in seat_bots:
            stats = getattr(b, "stats", None) or {}
            decisions += stats.get("decisions", 0)
            capped += stats.get("capped", 0)
    k = len(rots)
    return {"deal": d, "share": [x / k for x in share], "margin": [x / k for x in margin],
            "decisions": decisions, "capped": capped}


def _raise(err, spec, d, s):
    """A failure the driver answered (``BotError.to_dict()``, or a box's own: ``timeout``,
    ``crash``...) raised as a ``BotError`` of that kind."""
    from .lab import KINDS
    err = err if isinstance(err, dict) else {}
    name = bot_name(spec)
    msgs = err.get("messages") if isinstance(err.get("messages"), dict) else {}
    kind = err.get("kind")
    kind = kind if kind in KINDS + ("timeout", "crash", "protocol") else (
        "crash" if kind in ("gone", "start") else "protocol")
    en = str(msgs.get("en") or err.get("message") or kind)
    pl = str(msgs.get("pl") or en)
    prefix = f"{name}: "
    en, pl = (x[len(prefix):] if x.startswith(prefix) else x for x in (en, pl))
    e = BotError(kind, name, en, pl,
                 line=err.get("line") if isinstance(err.get("line"), int) else None,
                 tb=str(err.get("traceback") or ""))
    e.deal, e.seat = d, s
    raise e


def play_deal(args) -> dict:
    """Play deal ``d`` in every rotation; per entry: summed win share and margin per rotation.
    The driver of ``deal_steps`` with the entries' own objects (``_seat_bot``: a box's
    namespace for a bot file, ``atut.box``)."""
    bots = args[2]
    steps = deal_steps(args)
    seat_bots: dict = {}
    answer = None
    try:
        while True:
            req = steps.send(answer)
            s = req["seat"] if req["op"] == "choose" else None
            try:
                if req["op"] == "open":
                    _release(seat_bots)
                    answer = {}
                    for s, e in zip(req["seats"], req["entries"]):
                        seat_bots[s] = _seat_bot(bots[e])
                        answer[str(s)] = None
                else:
                    answer = {"ok": seat_bots[s].choose(req["view"])}
            except BotError as err:
                err.deal, err.seat = args[3], s
                raise
    except StopIteration as done:
        return done.value
    finally:
        _release(seat_bots)


def _release(seat_bots: dict) -> None:
    """Each seat's box back to its bot's idle ones."""
    for b in seat_bots.values():
        release = getattr(b, "release", None)
        if callable(release):
            release()
    seat_bots.clear()


# --- statistics -------------------------------------------------------------------------------

def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval (normal approximation)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def elo(share: float, fair: float) -> float:
    """Elo difference against the field from a win share, odds-adjusted for the fair share."""
    p = min(max(share, 1e-4), 1 - 1e-4)
    return 400 * math.log10((p / (1 - p)) / (fair / (1 - fair)))


def _check(game_id, bots, players, deals, mode):
    cls = atut.game_class(game_id)
    if players is None:
        players = cls.PLAYERS[0]
    if players not in cls.PLAYERS:
        raise ValueError(f"{game_id} is played by {cls.PLAYERS} players, not {players}")
    if not bots:
        raise ValueError("name at least one bot")
    bots = [bot_spec(b) for b in bots]
    if mode is None:
        mode = "game" if atut.games.spec(game_id).one_deal else "deal"
    if mode not in ("deal", "game"):
        raise ValueError(f"mode must be deal or game, not {mode!r}")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    return bots, players, mode


def _pin_worker() -> None:
    """A worker process of the pool on a CPU of its own, its boxes with it (``atut.box``)."""
    import multiprocessing as mp

    from .box import pin_to_one_cpu
    ident = mp.current_process()._identity
    pin_to_one_cpu(ident[0] - 1 if ident else 0)


def _pool_results(tasks, jobs, fn=None):
    """``fn`` (a deal, ``play_deal``) over ``tasks`` in ``jobs`` processes, in order."""
    import multiprocessing as mp
    with mp.get_context("spawn" if sys.platform == "win32" else "fork").Pool(
            jobs, initializer=_pin_worker) as pool:
        yield from pool.imap(fn or play_deal, tasks, chunksize=1)


def _dask_results(tasks, cluster: str, jobs: int, fn=None, ordered: bool = False):
    """``fn`` (a deal, ``play_deal``) over ``tasks`` as Dask distributed tasks: in the order they
    finish, or in the tasks' order (``ordered``).  ``cluster``: a scheduler's address, or
    ``"local"`` (a local cluster of ``jobs`` worker processes, at least 2)."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ValueError("--cluster needs Dask: pip install 'atut[cluster]'") from None
    local = None
    if cluster == "local":
        local = LocalCluster(n_workers=max(jobs, 2), threads_per_worker=1, processes=True,
                             dashboard_address=None)
        client = Client(local)
    else:
        client = Client(cluster)
    try:
        futures = client.map(fn or play_deal, tasks, pure=False)
        for fut in (futures if ordered else as_completed(futures)):
            yield fut.result()
    finally:
        client.close()
        if local is not None:
            local.close()


def steps(game_id: str, bots: list, players: int | None = None, deals: int = 200,
          seed: int = 1, jobs: int = 1, mode: str | None = None, cap_scale: float = 3.0,
          budgets: dict | None = None, cluster: str | None = None, partial: bool = True):
    """Play the arena, yielding ``{"done", "total", "seconds", "result"}`` after every deal
    (``result``: the statistics of the deals done so far, as ``run`` returns them; ``None``
    before the last deal with ``partial=False``); the last one is the whole arena's.
    Arguments as ``run``."""
    bots, players, mode = _check(game_id, bots, players, deals, mode)
    line = lineup(game_id, bots, players)
    tasks = [(game_id, players, bots, d, seed, mode, cap_scale, budgets or {})
             for d in range(deals)]
    t0 = time.perf_counter()
    if cluster:
        source = _dask_results(tasks, cluster, jobs)
    elif jobs > 1:
        source = _pool_results(tasks, jobs)
    else:
        source = (play_deal(t) for t in tasks)
    results = []
    for r in source:
        results.append(r)
        seconds = time.perf_counter() - t0
        res = None
        if partial or len(results) == deals:
            res = summary(game_id, bots, players, seed, mode, line,
                          sorted(results, key=lambda x: x["deal"]), seconds)
        yield {"done": len(results), "total": deals, "seconds": seconds, "result": res}


def run(game_id: str, bots: list, players: int | None = None, deals: int = 200, seed: int = 1,
        jobs: int = 1, mode: str | None = None, cap_scale: float = 3.0,
        budgets: dict | None = None, progress=None, cluster: str | None = None) -> dict:
    """Play the arena and return the per-entry statistics (see ``report`` and ``summary``).

    ``bots``: entries as ``bot_spec`` takes them.  ``jobs`` worker processes, or ``cluster``
    (a Dask scheduler's address, or ``"local"``).  ``progress``: a callable
    ``progress(done, total, partial_result)`` after every deal, or an int N to print a line to
    stderr every N deals."""
    last = None
    for step in steps(game_id, bots, players, deals, seed, jobs, mode, cap_scale, budgets,
                      cluster, partial=callable(progress)):
        last = step
        done = step["done"]
        if callable(progress):
            progress(done, deals, step["result"])
        elif progress and done % progress == 0:
            print(f"  {done}/{deals} deals, {step['seconds']:.0f} s", file=sys.stderr)
    return last["result"]


def _running(xs: list[float]) -> list[dict]:
    """The mean of ``xs[:k]`` with its 95% interval for every k (the lab's chart)."""
    out = []
    s = s2 = 0.0
    for k, x in enumerate(xs, 1):
        s += x
        s2 += x * x
        m = s / k
        if k < 2:
            half = math.inf
        else:
            var = max(s2 - k * m * m, 0.0) / (k - 1)
            half = 1.96 * math.sqrt(var / k)
        lo = max(m - half, 0.0) if half != math.inf else 0.0
        hi = min(m + half, 1.0) if half != math.inf else 1.0
        out.append({"deals": k, "share": m, "lo": lo, "hi": hi})
    return out


def summary(game_id: str, bots: list, players: int, seed: int, mode: str, line: list[int],
            results: list[dict], seconds: float) -> dict:
    """The arena's statistics from the per-deal results (in deal order): per entry its win
    share with the half-width of its 95% interval (``None`` for a single deal), the margin
    likewise, the Elo difference; JSON-safe (no infinity);
    ``rows`` (per deal: each entry's share and margin) and ``running`` (per entry, the win
    share and its interval after each deal)."""
    n = len(results)
    out = {"game": game_id, "players": players, "deals": n, "seed": seed, "mode": mode,
           "lineup": line, "seconds": seconds,
           "deals_per_second": n / max(seconds, 1e-9),
           "decisions": sum(r["decisions"] for r in results),
           "capped": sum(r["capped"] for r in results), "bots": [],
           "rows": [{"deal": r["deal"], "share": list(r["share"]), "margin": list(r["margin"])}
                    for r in results],
           "running": []}
    for e, lv in enumerate(bots):
        seats = line.count(e)
        fair = seats / players
        shares = [r["share"][e] for r in results]
        m, ci = mean_ci(shares)
        mm, mci = mean_ci([r["margin"][e] for r in results])
        out["bots"].append({"entry": e, "name": bot_name(lv),
                            "level": lv if isinstance(lv, int) else None, "seats": seats,
                            "fair": fair, "share": m, "share_ci": _finite(ci),
                            "ratio": m / fair, "margin": mm, "margin_ci": _finite(mci),
                            "elo": elo(m, fair),
                            "elo_lo": elo(max(m - ci, 0.0), fair),
                            "elo_hi": elo(min(m + ci, 1.0), fair)})
        out["running"].append(_running(shares))
    return out


def _finite(x: float) -> float | None:
    """The result is JSON-safe: an interval of one deal (infinite) is ``None``."""
    return x if math.isfinite(x) else None


def _inf(x):
    return math.inf if x is None else x


def to_csv(r: dict) -> str:
    """The per-deal rows as CSV text: ``deal`` then each entry's win share and margin (columns
    named by the entries' names)."""
    import csv
    import io
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    head = ["deal"]
    for b in r["bots"]:
        head += [f"{b['name']} share", f"{b['name']} margin"]
    w.writerow(head)
    for row in r["rows"]:
        cells = [row["deal"]]
        for e in range(len(r["bots"])):
            cells += [f"{row['share'][e]:.6g}", f"{row['margin'][e]:.6g}"]
        w.writerow(cells)
    return buf.getvalue()


def report(r: dict) -> str:
    spec = atut.games.spec(r["game"])
    unit = ("games (one deal each)" if spec.one_deal else
            "single deals from fresh games, scored by the points each seat gained"
            if r["mode"] == "deal" else "whole games")
    margin_unit = "card points" if spec.deal_points else "score points"
    per = "game" if r["mode"] == "game" and not spec.one_deal else "deal"
    w = max([10] + [len(b["name"]) for b in r["bots"]])
    lines = [f"arena {r['game']}, {r['players']} players, {r['deals']} duplicate {per}s "
             f"(seed {r['seed']}; {unit}); seats {r['lineup']} rotated",
             f"{'bot':<{w}} {'seats':>5} {'win share':>10} {'95% CI':>15} {'fair':>6} "
             f"{'x fair':>6} {'margin':>8} {'95% CI':>8} {'Elo':>6} {'Elo 95% CI':>14}"]
    for b in r["bots"]:
        name = b["name"]
        ci, mci = _inf(b["share_ci"]), _inf(b["margin_ci"])
        lo, hi = b['share'] - ci, b['share'] + ci
        lines.append(
            f"{name:<{w}} {b['seats']:>5} {b['share']:>10.3f} "
            f"{f'[{lo:.3f}, {hi:.3f}]':>15} "
            f"{b['fair']:>6.3f} {b['ratio']:>6.2f} {b['margin']:>+8.2f} "
            f"{f'±{mci:.2f}':>8} {b['elo']:>+6.0f} "
            f"{'[{:+.0f}, {:+.0f}]'.format(b['elo_lo'], b['elo_hi']):>14}")
    lines.append(f"margin in {margin_unit} per {per}; {r['decisions']} search decisions, "
                 f"{r['capped']} cut by the time cap; {r['seconds']:.0f} s, "
                 f"{r['deals_per_second']:.1f} deals/s")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m atut arena",
                                 description="Bots against bots on duplicate deals.")
    ap.add_argument("game", choices=atut.GAME_IDS)
    ap.add_argument("--bots", required=True,
                    help=f"comma-separated levels ({spelled()}), or bot files (mybot.py: "
                         "a module defining choose(view))")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (0: every core)")
    ap.add_argument("--mode", choices=("deal", "game"), default=None,
                    help="deal: single deals from fresh games (default for games to a target); "
                         "game: whole games")
    ap.add_argument("--cap-scale", type=float, default=3.0,
                    help="multiply the bots' time caps (safety nets sized for Pyodide, here "
                         "counted in CPU time so that other load does not cut searches); "
                         "default 3")
    ap.add_argument("--progress", type=int, default=0, help="report every N deals")
    ap.add_argument("--cluster", default=None,
                    help="run the deals as Dask distributed tasks: a scheduler's address "
                         "(tcp://HOST:8786) or 'local' (a local cluster of --jobs workers, at "
                         "least 2); needs pip install 'atut[cluster]'")
    a = ap.parse_args(argv)
    try:
        bots = [bot_spec(x) for x in a.bots.split(",")]
        players = a.players if a.players is not None else atut.game_class(a.game).PLAYERS[0]
        jobs = a.jobs
        if jobs == 0:
            import os
            jobs = os.cpu_count() or 1
        r = run(a.game, bots, players, a.deals, a.seed, jobs, a.mode, a.cap_scale,
                progress=a.progress, cluster=a.cluster)
    except BotError as e:
        where = f" (deal {e.deal}, seat {e.seat})" if getattr(e, "deal", None) is not None \
            else ""
        if e.traceback:
            print(e.traceback.rstrip(), file=sys.stderr)
        print(f"arena: {e}{where}", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 2
    except OSError as e:                        # a Dask scheduler that cannot be reached
        print(f"arena: cannot reach the cluster {a.cluster}: {e}", file=sys.stderr)
        return 2
    print(report(r))
    return 0


# --- decision times ---------------------------------------------------------------------------

def bench_bots(argv=None) -> int:
    """Print per game, player count and level the bot's decision times (CPython, CPU time of
    the deciding process, so that other load on the machine does not count)."""
    ap = argparse.ArgumentParser(prog="python -m atut bench-bots",
                                 description="Bot decision times per game and level.")
    ap.add_argument("--games", default=None, help="comma-separated game ids (default: built)")
    ap.add_argument("--levels", default=",".join(map(str, NUMBERS)))
    ap.add_argument("--players", type=int, default=None,
                    help="player count (default: each game's smallest)")
    ap.add_argument("--deals", type=int, default=3, help="deals per game and level")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    try:
        games = a.games.split(",") if a.games else list(atut.built_games())
        levels = [parse_level(x) for x in a.levels.split(",")]
        for g in games:
            atut.game_class(g)
    except ValueError as e:
        print(f"bench-bots: {e}", file=sys.stderr)
        return 2
    print(f"{'game':<11} {'pl':>2} {'level':>5} {'decisions':>9} {'mean ms':>8} {'p95 ms':>7} "
          f"{'max ms':>7} {'capped':>6}  budget (Pyodide: 300 ms at 3, 1000 ms at 4)")
    for g in games:
        cls = atut.game_class(g)
        players = a.players if a.players is not None else cls.PLAYERS[0]
        for lv in levels:
            times = bench_times(g, players, lv, a.deals, a.seed)
            ts = sorted(times["times"])
            if not ts:
                continue
            p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
            print(f"{g:<11} {players:>2} {lv:>5} {len(ts):>9} {1000 * sum(ts) / len(ts):>8.1f} "
                  f"{1000 * p95:>7.1f} {1000 * ts[-1]:>7.1f} {times['capped']:>6}")
    return 0


def bench_times(game_id: str, players: int, level: int, deals: int, seed: int) -> dict:
    """Decision times of a ``level`` bot in seat 0 (others level 2) over ``deals`` deals."""
    times = []
    capped = 0
    for d in range(deals):
        game = atut.new_game(game_id, players=players, seed=seed * 1000 + d)
        cpu = {"clock": "cpu"} if level in SEARCH_LEVELS else None
        bot = make_bot(game_id, level, seed=d, budget=cpu)
        others = make_bot(game_id, 2, seed=d + 1)
        deal_no = game.deal_no
        while not game.is_over and game.deal_no == deal_no:
            s = game.to_move
            v = game.view(s)
            if s == 0:
                t = time.process_time()             # CPU time: fair on a shared machine
                a = bot.choose(v)
                times.append(time.process_time() - t)
            else:
                a = others.choose(v)
            game.apply(a)
        capped += bot.stats.get("capped", 0)
    return {"times": times, "capped": capped}


def decision_times(game_id: str, players: int, level: int, seeds=(1, 2), clock=None,
                   warmup: int = 1) -> dict:
    """The bots' decision benchmark (``tools/bench_bots.py`` runs it in Pyodide and in
    CPython): a ``level`` bot in seat 0 against level-2 bots, the first deal of each seed, the
    time cap lifted (so that the whole counted search is timed, and decisions depend only on
    the seed and the view, as in ``scripts/decision_hash.py``).  Only decisions with more than
    one legal action are timed, by ``clock`` (seconds of CPU time: ``time.process_time`` by
    default).  First the bot makes ``warmup`` such decisions in seed 0's deal, not counted.  Returns
    ``{"times": [...], "hash": ..., "capped": n}``, ``hash`` a fingerprint of every action
    taken, so that two runtimes can be shown to have made the same decisions."""
    import hashlib
    clock = clock or time.process_time
    h = hashlib.sha256()
    times: list[float] = []
    capped = 0
    if warmup:
        _first_deal(game_id, players, level, 0, clock, [], None, warmup)
    for seed in seeds:
        capped += _first_deal(game_id, players, level, seed, clock, times, h)
    return {"times": times, "hash": h.hexdigest()[:16], "capped": capped}


def _first_deal(game_id, players, level, seed, clock, times, h, stop_after=None) -> int:
    """Play the first deal of ``seed`` for ``decision_times`` (up to ``stop_after`` timed
    decisions); the times go to ``times``, the actions into the hash ``h``; the number of
    decisions cut by the time cap."""
    game = atut.new_game(game_id, players=players, seed=seed)
    bots = [make_bot(game_id, level, seed=seed, budget={"time_cap": 1e9, "clock": "cpu"})]
    bots += [make_bot(game_id, 2, seed=seed * 7 + s) for s in range(1, players)]
    deal_no = game.deal_no
    while not game.is_over and game.deal_no == deal_no and len(times) != stop_after:
        s = game.to_move
        v = game.view(s)
        if s == 0 and len(v["legal_actions"]) > 1:
            t = clock()
            a = bots[0].choose(v)
            times.append(clock() - t)
        else:
            a = bots[s].choose(v)
        if h is not None:
            h.update(atut.canonical(a).encode())
        game.apply(a)
    return bots[0].stats.get("capped", 0)

if __name__ == "__main__":
    sys.exit(main())
