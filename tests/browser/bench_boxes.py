"""Browser box benchmark: `python3 build.py bench-boxes-page [--boxes N] [--decisions N]`.

Figures only, nothing asserted (docs/LAB.md, "Boxes"):
- memory per box: the proportional set size (PSS, /proc/PID/smaps_rollup) of every Chromium
  process, summed, before and after N boxes (web/lib/box.js) are open with a bot loaded, over N;
- a box's start: seconds from BotBox.open to the bot loaded;
- decisions per second through a box: a random-legal bot file answering the views of a
  level-1-vs-level-1 game of 66 (the views made in CPython, sent one at a time from the page,
  each answer awaited), beside the same bot's choose called in-process in the page's lab-free
  Python (the table's worker is not involved: this is the box's round trip alone);
- deals per second, same run: level 1 against level 1 in 66 (2 players, both rotations of
  each deal, a tournament's games: atut.tournament.game_steps in the lab's worker driven by
  web/lib/lab/games.js), boxed (level 1 as a bot file, a random legal action, each file in a
  box) beside in-process (our level 1 itself, played inside the lab worker's Python); one game
  at a time, and --lanes games at once as the tournament runs them (as many as the machine's
  cores: while a box thinks, the lab worker plays another game).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "engine"))

from playwright.sync_api import sync_playwright  # noqa: E402

import atut  # noqa: E402
import build  # noqa: E402

BOT = ("import random\n\n_rng = random.Random(0)\n\n\ndef choose(view):\n"
       "    return _rng.choice(view['legal_actions'])\n")


def chromium_pss_mb() -> float:
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            exe = os.readlink(f"/proc/{pid}/exe")
            if "chrom" not in exe:
                continue
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def views(n: int) -> list[dict]:
    out = []
    seed = 1
    while len(out) < n:
        g = atut.new_game("sixty_six", players=2, seed=seed)
        bots = [atut.make_bot("sixty_six", 1, seed=seed + s) for s in range(2)]
        while not g.is_over and len(out) < n:
            v = g.view(g.to_move)
            out.append(v)
            g.apply(bots[g.to_move].choose(v))
        seed += 1
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boxes", type=int, default=3)
    ap.add_argument("--decisions", type=int, default=400)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--lanes", type=int, default=os.cpu_count() or 2,
                    help="games at once, as the tournament runs them (as many as cores)")
    a = ap.parse_args(argv)
    vs = views(a.decisions)
    with build.served_dist() as url, sync_playwright() as p:
        b = build.launch_chromium(p)
        page = b.new_page()
        page.goto(url + "index.html#game=sixty_six&players=2&lang=en")
        page.wait_for_selector("body[data-engine=ready]", timeout=240_000)
        page.evaluate("async () => { const m = await import('./web/lib/box.js'); await m.boxFiles(); }")
        time.sleep(2)
        before = chromium_pss_mb()
        starts = page.evaluate("""async ([src, n]) => {
          const { BotBox } = await import('./web/lib/box.js');
          window.__boxes = []; const out = [];
          for (let i = 0; i < n; i++) {
            const t = performance.now();
            const box = await BotBox.open({ source: src, name: 'random_bot.py', timeLimit: 10 });
            await box.request({ op: 'fresh' });
            out.push((performance.now() - t) / 1000); window.__boxes.push(box);
          }
          return out; }""", [BOT, a.boxes])
        time.sleep(2)
        after = chromium_pss_mb()
        per_box = (after - before) / a.boxes
        rate = page.evaluate("""async (vs) => {
          const box = window.__boxes[0]; const t = performance.now();
          for (const v of vs) { const r = await box.choose(v); if (!('ok' in r)) throw new Error(JSON.stringify(r)); }
          return vs.length / ((performance.now() - t) / 1000); }""", vs)
        from atut import tournament
        specs = [{"name": "a.py", "level": None, "source": BOT},
                 {"name": "b.py", "level": None, "source": BOT}]
        tasks = [["sixty_six", 2, specs, list(t), list(st), d, 1, "game"]
                 for t, st, d in tournament.schedule("sixty_six", 2, 2, a.deals)]
        ours = [{"name": "1 random", "level": 1, "source": None},
                {"name": "1 random", "level": 1, "source": None}]
        tasks_in = [[*t[:2], ours, *t[3:]] for t in tasks]
        dps = page.evaluate("""async ([tasks, tasksIn, deals, lanes]) => {
          const { LabWorker } = await import('./web/lib/lab/client.js');
          const { BoxPool, playGame } = await import('./web/lib/lab/games.js');
          const w = new LabWorker(); w.limitMs = 60000;
          if (!(await w.ready)) throw new Error('the lab worker did not start');
          // the games `n` at a time, each lane taking the next (the tournament's lanes)
          const rate = async (list, pool, n) => {
            let next = 0;
            const t = performance.now();
            const lane = async () => { while (next < list.length) await playGame(w, list[next++], pool); };
            await Promise.all(Array.from({ length: n }, lane));
            return deals / ((performance.now() - t) / 1000);
          };
          const pool = new BoxPool(10);
          // the boxes started (as many as the lanes use), then timed
          await Promise.all(tasks.slice(0, lanes).map((task) => playGame(w, task, pool)));
          const out = {};
          for (const n of [1, lanes]) {
            const none = new BoxPool(10);
            out[n] = { boxed: await rate(tasks, pool, n), inproc: await rate(tasksIn, none, n) };
          }
          pool.close();
          return out; }""", [tasks, tasks_in, a.deals, a.lanes])
        b.close()
    for n, r in dps.items():
        at = "one game at a time" if n == "1" else f"{n} games at once (the tournament's lanes)"
        print(f"66, level 1 against level 1, {a.deals} deals (both rotations), {at}: "
              f"{r['boxed']:.2f} deals/s boxed, {r['inproc']:.2f} in-process "
              f"({r['boxed'] / r['inproc']:.2f} of it)")
    print(f"box start (s): {', '.join(f'{s:.2f}' for s in starts)}")
    print(f"memory: {before:.0f} MB before, {after:.0f} MB after {a.boxes} boxes "
          f"(PSS of every Chromium process): {per_box:.1f} MB per box")
    print(f"decisions through one box: {rate:.0f}/s ({a.decisions} views of level-1 games of 66)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
