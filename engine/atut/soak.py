"""``python -m atut soak``: many seeded whole games between bots, the contract checked at every
step.

    python -m atut soak [--games g1,g2] [--players N] [--count 10000] [--jobs J] [--seed S]
                        [--level 2]

For every game and player count (``--players`` keeps one count), ``--count`` games with seeds
``S``, ``S+1``, ... are played to their end, every seat a bot of ``--level`` (bot seed
``seed * 7919 + seat``; levels 3 and 4 with the time cap lifted and CPU time as the clock, so a
run repeats exactly).  At every step the checks of the random-play test (``atut.invariants``:
legal actions listed once each, with a string type and no null; the mover's view lists them;
views are JSON; the game's own ``check_invariants``) and that the bot's action is one of the
legal ones; at the end a winner and a score per seat, and that the save loads to the same
event record.  The work is spread over ``--jobs`` processes (default: every core).  It prints
a table per setting (games, deals, actions, CPU seconds, games per CPU second, failures) and
each failure with the command that plays it again; the exit status is 1 when any failed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import signal
import sys
import time
import traceback

import atut
from atut import invariants
from atut.bots.catalogue import NUMBERS, SEARCH_LEVELS

CHUNK = 25                      # games per task handed to a worker


def play_one(game_id: str, players: int, seed: int, level: int) -> tuple[int, int]:
    """One seeded game between ``level`` bots to its end, every check made; (deals,
    actions), or the first broken check raised."""
    game = atut.new_game(game_id, players=players, seed=seed)
    bots = bots_for(game_id, players, seed, level)
    while not game.is_over:
        legal = invariants.before_step(game, check_views=True)
        seat = game.to_move
        action = bots[seat].choose(game.view(seat))
        if action not in legal:
            raise invariants.InvariantError(f"the level-{level} bot at seat {seat} chose "
                                            f"{atut.canonical(action)}, not a legal action")
        game.apply(action)
        invariants.after_step(game)
    invariants.at_end(game)
    if atut.load_game(game.to_json()).events != game.events:
        raise invariants.InvariantError("the save does not replay to the same event record")
    return game.deal_no, len(game.history)


def bots_for(game_id: str, players: int, seed: int, level: int) -> list:
    """The seats' bots of a seeded game: ``level`` everywhere, strict, and for levels 3 and 4
    the time cap lifted (CPU clock), as the arena plays: the same seed, the same decisions."""
    from atut.bots import make_bot
    budget = {"time_cap": 1e9, "clock": "cpu"} if level in SEARCH_LEVELS else None
    return [make_bot(game_id, level, seed=(seed * 7919 + s) & 0x7FFFFFFF, budget=budget,
                     strict=True) for s in range(players)]


def record(game_id: str, players: int, seed: int, level: int, deals: int | None = None) -> dict:
    """A seeded game between ``level`` bots (``bots_for``), whole or its first ``deals``
    deals: its actions, a SHA-256 of its event record, the scores and the winner, JSON-safe.
    ``tests/test_pyodide_agree.py`` compares this in CPython and in Pyodide."""
    game = atut.new_game(game_id, players=players, seed=seed)
    bots = bots_for(game_id, players, seed, level)
    while not game.is_over and (deals is None or game.deal_no <= deals):
        seat = game.to_move
        game.apply(bots[seat].choose(game.view(seat)))
    events = atut.canonical(game.events)
    return {"game": game_id, "players": players, "seed": seed, "level": level, "deals": deals,
            "actions": [atut.canonical(a) for a in game.history], "n_events": len(game.events),
            "events_sha256": hashlib.sha256(events.encode()).hexdigest(),
            "scores": list(game.scores), "winner": game.winner, "deal_no": game.deal_no,
            "over": game.is_over}


def run_chunk(task: tuple) -> dict:
    """Play the seeds of one task; its totals and failures (seed, error)."""
    game_id, players, seeds, level = task
    start = time.process_time()
    out = {"game": game_id, "players": players, "games": 0, "deals": 0, "actions": 0,
           "failures": []}
    for seed in seeds:
        try:
            deals, actions = play_one(game_id, players, seed, level)
        except Exception as e:                      # noqa: BLE001 - every failure is reported
            last = traceback.extract_tb(e.__traceback__)[-1]
            where = f"{os.path.basename(last.filename)}:{last.lineno}"
            out["failures"].append((seed, f"{type(e).__name__}: {str(e)[:300]} ({where})"))
        else:
            out["deals"] += deals
            out["actions"] += actions
        out["games"] += 1
    out["cpu"] = time.process_time() - start
    return out


def _worker_signals() -> None:
    """A worker stops at SIGTERM and leaves Ctrl-C to the parent, which reports and ends it."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def settings(games, players) -> list[tuple[str, int]]:
    out = []
    for g in games:
        counts = atut.game_class(g).PLAYERS
        if players is not None and players not in counts:
            continue
        out += [(g, p) for p in counts if players is None or p == players]
    return out


def soak(games, players=None, count=10_000, jobs=None, seed=0, level=2, progress=False):
    """Run the soak; returns ({(game, players): totals}, [failures], wall seconds)."""
    jobs = jobs or os.cpu_count() or 1
    tasks = []
    for g, p in settings(games, players):
        for lo in range(seed, seed + count, CHUNK):
            tasks.append((g, p, range(lo, min(lo + CHUNK, seed + count)), level))
    totals: dict = {}
    failures = []
    t0 = time.perf_counter()

    def take(r):
        key = (r["game"], r["players"])
        t = totals.setdefault(key, {"games": 0, "deals": 0, "actions": 0, "cpu": 0.0,
                                    "failures": 0})
        for k in ("games", "deals", "actions", "cpu"):
            t[k] += r[k]
        t["failures"] += len(r["failures"])
        failures.extend((r["game"], r["players"], s, msg) for s, msg in r["failures"])

    done, shown = 0, t0
    try:
        if jobs == 1:
            for t in tasks:
                take(run_chunk(t))
        else:
            from concurrent.futures import ProcessPoolExecutor, as_completed
            pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_signals)
            stopped = True
            try:
                for f in as_completed([pool.submit(run_chunk, t) for t in tasks]):
                    take(f.result())
                    done += 1
                    if progress and time.perf_counter() - shown > 60:
                        shown = time.perf_counter()
                        print(f"soak: {done}/{len(tasks)} tasks of {CHUNK} games, "
                              f"{len(failures)} failed, {shown - t0:.0f} s", file=sys.stderr,
                              flush=True)
                stopped = False
            finally:
                if stopped:                 # interrupted: do not wait for the games in hand
                    for proc in list(getattr(pool, "_processes", {}).values()):
                        proc.terminate()
                pool.shutdown(wait=False, cancel_futures=True)
    except KeyboardInterrupt:               # Ctrl-C or SIGTERM: the table of what was played
        totals["interrupted"] = True
    return totals, sorted(failures), time.perf_counter() - t0


def report(totals, failures, wall, level, jobs, out=None) -> None:
    out = out or sys.stdout
    stopped = totals.pop("interrupted", False)
    print(f"soak: level-{level} bots, {jobs} process(es), {wall:.1f} s wall"
          + (" (interrupted: the games finished so far)" if stopped else ""), file=out)
    print(f"{'game':<12}{'players':>8}{'games':>8}{'deals':>9}{'actions':>10}{'cpu s':>9}"
          f"{'games/s':>9}{'failed':>8}", file=out)
    for (g, p), t in sorted(totals.items(), key=lambda kv: (atut.GAME_IDS.index(kv[0][0]),
                                                            kv[0][1])):
        rate = t["games"] / t["cpu"] if t["cpu"] else 0.0
        print(f"{g:<12}{p:>8}{t['games']:>8}{t['deals']:>9}{t['actions']:>10}{t['cpu']:>9.1f}"
              f"{rate:>9.1f}{t['failures']:>8}", file=out)
    for g, p, s, msg in failures:
        print(f"FAILED {g} {p} players seed {s}: {msg}\n  again: python -m atut soak --games {g}"
              f" --players {p} --count 1 --seed {s} --level {level} --jobs 1", file=out)
    if not failures:
        print("no failures", file=out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m atut soak", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=None, help="comma-separated game ids (default: all built)")
    ap.add_argument("--players", type=int, default=None, help="one player count (default: all)")
    ap.add_argument("--count", type=int, default=10_000, help="games per game and player count")
    ap.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    ap.add_argument("--seed", type=int, default=0, help="the first game's seed")
    ap.add_argument("--level", type=int, default=2, choices=NUMBERS, help="bot level")
    a = ap.parse_args(argv)
    games = a.games.split(",") if a.games else list(atut.built_games())
    try:
        for g in games:
            atut.game_class(g)
    except ValueError as e:
        ap.error(str(e))
    if a.count < 1:
        ap.error("--count must be at least 1")
    if a.jobs is not None and a.jobs < 1:
        ap.error("--jobs must be at least 1")
    if not settings(games, a.players):
        ap.error(f"no game of {', '.join(games)} is played by {a.players} players")
    jobs = a.jobs or os.cpu_count() or 1

    def stop(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    totals, failures, wall = soak(games, a.players, a.count, jobs, a.seed, a.level, progress=True)
    report(totals, failures, wall, a.level, jobs)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
