#!/usr/bin/env python3
"""Value spread: how far apart a game's play-outs end, on the scale of its ``evaluate``.

    python3 scripts/value_spread.py [--games g1,g2] [--seeds 6] [--outs 24]

(a game not in ``SETTINGS`` is measured at every player count it has)

The expert's tree (``bots.ismcts``) adds ``uct_c`` times a visit term to a node's mean value,
so the exploration constant only means the same in every game when it is read against the
spread of the values the tree backs up.  This prints, for each game and player count, the mean
standard deviation of ``evaluate`` over ``--outs`` play-outs (fresh deals of the hidden cards
and the plug-in's ``rollout_policy``) from about one decision in seven of seeded level-2 games,
and the ``uct_c`` that gives the game the same exploration as 0.4 gives two-player 66 (the
level table's constant, docs/BOTS.md "The expert").
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engine"))

import atut  # noqa: E402
from atut.bots.catalogue import BY_NUMBER  # noqa: E402
from atut.bots.interface import hooks, plugin  # noqa: E402
from atut.bots.search import play_out  # noqa: E402

SETTINGS = (("sixty_six", 2), ("sixty_six", 3), ("sixty_six", 4), ("euchre", 4),
            ("cesarz", 2), ("cesarz", 4), ("tysiac1001", 3), ("imperial", 2))
REFERENCE = ("sixty_six", 2)


def spread(game_id: str, players: int, seeds: int, outs: int) -> tuple[float, int]:
    """The mean standard deviation of ``evaluate`` over play-outs, and how many decisions."""
    h = hooks(plugin(game_id))
    sds = []
    for seed in range(seeds):
        g = atut.new_game(game_id, players, seed=100 + seed)
        bot = atut.make_bot(game_id, 2, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while g.to_move is not None and steps < 400:
            seat = g.to_move
            v = g.view(seat)
            if len(v["legal_actions"]) > 1 and rng.random() < 0.15:
                values = []
                for _ in range(outs):
                    start = h.determinize(v, rng)
                    s = h.clone(start)
                    play_out(h, s, start, rng)
                    values.append(h.evaluate(s, seat, start))
                sds.append(statistics.pstdev(values))
            g.apply(bot.choose(v))
            steps += 1
    return (statistics.mean(sds) if sds else 0.0), len(sds)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--outs", type=int, default=24)
    a = ap.parse_args(argv)
    wanted = list(filter(None, a.games.split(",")))
    rows = [s for s in SETTINGS if not wanted or s[0] in wanted]
    for gid in wanted:                      # a game of its own (docs/ADDING_A_GAME.md)
        if not any(r[0] == gid for r in rows):
            rows += [(gid, n) for n in atut.games.spec(gid).players]
    ref_sd, ref_k = spread(*REFERENCE, a.seeds, a.outs)
    c = BY_NUMBER[5].budget["uct_c"]
    print(f"{'game':<12} {'players':>7} {'sd':>8} {'x 66 2p':>8} {'uct_c':>7} {'decisions':>9}")
    for gid, n in rows:
        sd, k = (ref_sd, ref_k) if (gid, n) == REFERENCE else spread(gid, n, a.seeds, a.outs)
        ratio = sd / ref_sd if ref_sd else float("nan")
        print(f"{gid:<12} {n:>7} {sd:>8.3f} {ratio:>8.2f} {c * ratio:>7.2f} {k:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
