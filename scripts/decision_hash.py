#!/usr/bin/env python3
"""Decision hash: a fingerprint of every bot decision over seeded games, per game and level.

    python3 scripts/decision_hash.py [--games g1,g2] [--levels 2,3,4] [--seeds 4]

For each game, player count and level: seat 0 plays a bot of that level, the other seats level
2; levels 3-4 play the first deal (level 4 half as many seeds), level 2 plays every seat for two
deals.  The time cap is lifted and the clock is CPU time, so a decision depends only on the seed
and the view.  The printed SHA-256 (first 16 hex digits) covers every action taken, in order: a
refactor that keeps the bots' decisions keeps every hash.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engine"))

import atut  # noqa: E402
from atut.bots import make_bot  # noqa: E402
from atut.game import canonical  # noqa: E402


def play(game_id: str, players: int, level: int, seed: int) -> tuple[str, int]:
    game = atut.new_game(game_id, players=players, seed=seed)
    lifted = {"time_cap": 1e9, "clock": "cpu"}
    if level == 2:
        bots = [atut.make_bot(game_id, 2, seed=seed * 7 + s) for s in range(players)]
        deals = 2
    else:
        bots = [make_bot(game_id, level, seed=seed, budget=lifted)]
        bots += [atut.make_bot(game_id, 2, seed=seed * 7 + s) for s in range(1, players)]
        deals = 1
    h = hashlib.sha256()
    start = game.deal_no
    n = 0
    while not game.is_over and game.deal_no < start + deals:
        s = game.to_move
        a = bots[s].choose(game.view(s))
        h.update(canonical(a).encode())
        game.apply(a)
        n += 1
    h.update(canonical(game.scores).encode())
    return h.hexdigest(), n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default=",".join(atut.GAME_IDS))
    ap.add_argument("--levels", default="2,3,4")
    ap.add_argument("--seeds", type=int, default=4)
    a = ap.parse_args(argv)
    total = hashlib.sha256()
    for g in a.games.split(","):
        cls = atut.game_class(g)
        for players in cls.PLAYERS:
            for lv in (int(x) for x in a.levels.split(",")):
                h = hashlib.sha256()
                n = 0
                t = time.process_time()
                seeds = a.seeds if lv < 4 else max(1, a.seeds // 2)
                for seed in range(1, seeds + 1):
                    d, k = play(g, players, lv, seed)
                    h.update(d.encode())
                    n += k
                digest = h.hexdigest()[:16]
                total.update(digest.encode())
                print(f"{g:<11} {players}p L{lv}  {digest}  {n:5d} actions  "
                      f"{time.process_time() - t:6.1f} s CPU", flush=True)
    print(f"all         {total.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
