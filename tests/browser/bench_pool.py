"""Search pool speed in Chromium: `python3 build.py bench-pool [--workers 1,2,4] [--only GAME:PLAYERS,...]
[--moves N]`.

Per number of search workers (the setting "Search workers": 1 is the table's worker alone) a
fresh page (debug=1) starts its pool, waits until every search worker has booted, then plays the
first deal of each seeded setting with level-4 bots and no delay (the person choosing seeded
random actions), then the review grades of the person's decisions (started by the page as the
deal ends).  The page times each request to its worker (send to reply): a level-4 bot's
decision is a `bot_step` whose seat had a choice (found by replaying the save in CPython), a
grade a `review_grade`.  Printed: per setting and worker count the decisions' count, median and
p95, the grades' median and p95, whether the actions were those of the pool-less run, and each
worker's wasm memory (the bridge's debug_memory: the table's worker and each search worker).
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import sync_playwright  # noqa: E402

import atut  # noqa: E402
import build  # noqa: E402
from harness import game_url, play_first_deal, wait_until  # noqa: E402

SETTINGS = [("cesarz", 3), ("tysiac1001", 3)]
SEED = 7

# every request to the table's worker and its reply, timed in the page (ops and times only)
TIMES = """(() => {
  const Orig = window.Worker;
  window.__atutTimes = [];
  window.Worker = class extends Orig {
    constructor(url, opts) {
      super(url, opts);
      if (opts && opts.name === "atut-search") return;
      const sent = new Map();
      this.__sent = sent;
      this.addEventListener("message", (e) => {
        const m = e.data;
        const s = m && sent.get(m.id);
        if (s) { sent.delete(m.id); window.__atutTimes.push({op: s.op, ms: performance.now() - s.t}); }
      });
    }
    postMessage(m, ...rest) {
      if (this.__sent && m && m.id !== undefined) this.__sent.set(m.id, {op: m.op, t: performance.now()});
      return super.postMessage(m, ...rest);
    }
  };
})();"""



def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] if xs else float("nan")


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def bot_choices(text, seat=0):
    """Per bot action of the save, in order: whether the bot had a choice."""
    data = json.loads(text)
    g = atut.new_game(data["game"], players=data["players"], seed=data["seed"],
                      dealer=data.get("dealer"), options=data.get("options") or None)
    out = []
    for a in data["actions"]:
        if g.to_move != seat:
            out.append(len(g.legal_actions()) > 1)
        g.apply(a)
    return out


def one_deal(page, game, players, moves):
    page.evaluate("() => { window.__atutTimes.length = 0; }")
    page.evaluate("(h) => { location.hash = h; }",
                  game_url("", game, players, SEED, 0, "4", 0, "en")[1:])
    page.wait_for_function("(g) => atutPage.view && atutPage.view.game === g && "
                           "atutPage.view.deal_no === 1", arg=game, timeout=120_000)
    ended = play_first_deal(page, random.Random(SEED), moves, timeout=600_000)
    if ended:
        page.wait_for_selector("body[data-pregrade=done]", timeout=600_000)
    else:                              # stopped within the deal: the bots' replies
        page.wait_for_function("() => atutPage.view.to_move === 0", timeout=600_000)
    times = page.evaluate("() => window.__atutTimes")
    text = page.evaluate("() => atutPage.request('save')")
    choice = bot_choices(text)
    steps = [t["ms"] for t in times if t["op"] == "bot_step"]
    decisions = [ms for ms, c in zip(steps, choice) if c]
    grades = [t["ms"] for t in times if t["op"] == "review_grade"]
    return decisions, grades, json.loads(text)["actions"]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="1,2,4", help="search worker counts (1,2,4)")
    ap.add_argument("--only", default="", help="comma list of game:players")
    ap.add_argument("--moves", type=int, default=1000, help="the person's moves per deal at most")
    a = ap.parse_args(argv)
    todo = SETTINGS
    if a.only:
        todo = [(x.split(":")[0], int(x.split(":")[1])) for x in a.only.split(",")]
    counts = [int(x) for x in a.workers.split(",")]
    with build.served_dist() as url:
        return run(url, todo, counts, a.moves)


def run(url, todo, counts, moves):
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"bench-pool: {', '.join(f'{g} {p}p' for g, p in todo)}; search workers "
          f"{', '.join(map(str, counts))}; seed {SEED}; {os.cpu_count()} cores, load {load:.1f}",
          flush=True)
    first = {}
    with sync_playwright() as p:
        b = build.launch_chromium(p)
        for n in counts:
            ctx = b.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
            ctx.add_init_script(f"try {{ localStorage.setItem('atut.pool', '{n}'); }} catch (_) {{}}")
            ctx.add_init_script(TIMES)
            page = ctx.new_page()
            page.set_default_timeout(120_000)
            t0 = time.monotonic()
            page.goto(url + "#debug=1&lang=en")
            page.wait_for_selector("body[data-engine=ready]", timeout=240_000)
            want = n if n >= 2 else 0
            page.evaluate("() => window.atutPool.start()")      # at once, not at the first need
            wait_until(page, "(n) => atutPage.request('debug_pool').then((p) => p.workers === n && "
                       "p.ready === n)", want, timeout=240_000)
            print(f"{n} search worker(s): ready in {time.monotonic() - t0:.1f} s", flush=True)
            for game, players in todo:
                t1 = time.monotonic()
                dec, grades, actions = one_deal(page, game, players, moves)
                same = first.setdefault((game, players), actions) == actions
                print(f"  {game:>10} {players}p  level-4 decisions {len(dec):3d}  median "
                      f"{med(dec):6.0f} ms  p95 {pct(dec, 0.95):6.0f} ms   grades {len(grades):2d}  "
                      f"median {med(grades):6.0f} ms  p95 {pct(grades, 0.95):6.0f} ms   "
                      f"same actions as the first run: {'yes' if same else 'NO'}  "
                      f"[{time.monotonic() - t1:.0f} s]", flush=True)
            table = page.evaluate("() => atutPage.request('debug_memory')")
            mem = page.evaluate("() => atutPage.request('debug_pool_memory')")
            pool = page.evaluate("() => atutPage.request('debug_pool')")
            mb = lambda m: f"{m['wasm_bytes'] / 2**20:.0f}" if m.get("wasm_bytes") else "?"  # noqa: E731
            print(f"  wasm memory: table's worker {mb(table)} MB; search workers "
                  f"{', '.join(mb(m) for m in mem) or '-'} MB   pool: {pool['jobs']} jobs, "
                  f"{pool['fallbacks']} fallbacks, {pool['capped']} capped, {pool['here']} before it was up", flush=True)
            ctx.close()
        b.close()
    print(f"load now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
