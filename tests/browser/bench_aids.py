"""Play-aid speed in Chromium: `python3 build.py bench-aids [--deals N] [--only GAME[:PLAYERS],...]`.

Per game and player count, a few seeded deals are played through the page (bots at level 2,
no delay, the person choosing a seeded random action).  At each of the person's decisions (a
choice of two or more) *Hint* is pressed and the time from the click until the hint panel is on
the page is taken (the level-3 search of the person's view in Pyodide, counted budget); when the
first deal ends *Review* is pressed at once and the time until every decision of the deal is
graded (level 4, one request after the other) is taken.  Printed: per setting the hints'
count, median and p95, how many showed the progress line (over 300 ms), the same searches' CPU
time in CPython in this process (for scale: the page's time over it is Pyodide and the
machine's load), and each deal's review time; then the goals (hint p95 <= 1 s, review <= 30 s)
and the load average.  Figures only: nothing is asserted.
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
from atut.table.checks import COUNTED  # noqa: E402  (the hint's and the grades' budget)
from harness import game_url  # noqa: E402

SETTINGS = [("cesarz", 3), ("cesarz", 4), ("cesarz", 5), ("euchre", 4), ("imperial", 2),
            ("imperial", 3), ("tysiac1001", 3), ("tysiac1001", 4), ("sixty_six", 2),
            ("sixty_six", 3), ("sixty_six", 4)]

HINT = """() => new Promise((res) => {
  const b = document.querySelector('[data-testid=hint]');
  if (!b || b.disabled) return res(null);
  let slow = false;
  const t0 = performance.now();
  const o = new MutationObserver(() => {
    if (document.querySelector('[data-testid=hint-progress]')) slow = true;
    if (document.querySelector('[data-testid=hint-panel]')) { o.disconnect(); res({ms: performance.now() - t0, slow}); }
  });
  o.observe(document.body, {subtree: true, childList: true});
  b.click();
})"""  # noqa: E501

REVIEW = """() => new Promise((res) => {
  const b = document.querySelector('[data-testid=review]');
  if (!b) return res(null);
  const t0 = performance.now();
  const check = () => {
    const s = document.querySelector('[data-testid=review-summary]');
    if (!s) return false;
    const m = /\\((\\d+) of (\\d+)/.exec(s.textContent);
    if (m && m[1] === m[2]) { res({ms: performance.now() - t0, graded: Number(m[2])}); return true; }
    if (!m && s.textContent.trim()) { res({ms: performance.now() - t0, graded: 0}); return true; }
    return false;
  };
  const o = new MutationObserver(() => { if (check()) o.disconnect(); });
  o.observe(document.body, {subtree: true, childList: true, characterData: true});
  b.click();
})"""

TURN = "[data-testid=game-over], [data-action]:not([disabled])"


def view(page):
    return page.evaluate("() => window.atutPage.view")


def one_deal(page, game, players, seed):
    """Play the first deal of a seeded game; returns (hint timings, review timing)."""
    first = atut.new_game(game, players=players, seed=seed).view(0)["log"]
    page.evaluate("(h) => { location.hash = h; }", game_url("", game, players, seed, 0, "rules",
                                                          0, "en", debug=False)[1:])
    t0 = time.monotonic()
    while True:                       # the new game's table: its deal begins as in the engine
        v = view(page)
        if v and v.get("deal_no") == 1 and v.get("log", [])[:len(first)] == first:
            break
        assert time.monotonic() - t0 < 120, f"{game} seed {seed}: the game did not start"
        page.wait_for_timeout(100)
    rng = random.Random(seed)
    hints = []
    deal = None
    while True:
        page.wait_for_selector(TURN, timeout=300_000)
        v = view(page)
        if deal is None:
            deal = v["deal_no"]
        if v["is_over"] or v["deal_no"] != deal:
            break
        if v["to_move"] != 0:
            page.wait_for_timeout(20)
            continue
        if len(v["legal_actions"]) > 1:
            page.wait_for_selector("[data-testid=hint]", timeout=60_000)
            h = page.evaluate(HINT)
            if h is not None:
                # the same search in CPython here (CPU time): how much of the page's time is
                # the machine's load and Pyodide rather than the search itself
                c0 = time.process_time()
                atut.analyse(game, v, 3, seed=0, budget=COUNTED)
                h["cpython"] = (time.process_time() - c0) * 1000
                hints.append(h)
        before = json.dumps(v)
        controls = page.locator("[data-action]:not([disabled])")
        controls.nth(rng.randrange(controls.count())).click()
        page.wait_for_function("(b) => JSON.stringify(window.atutPage.view) !== b", arg=before,
                               timeout=300_000)
    page.wait_for_selector("[data-testid=review]", timeout=60_000)
    review = page.evaluate(REVIEW)
    page.keyboard.press("Escape")
    return hints, review


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2, help="seeded deals per setting (2)")
    ap.add_argument("--only", default="", help="comma list of game or game:players")
    a = ap.parse_args(argv)
    todo = SETTINGS
    if a.only:
        want = [x.split(":") for x in a.only.split(",")]
        todo = [(g, p) for g, p in SETTINGS
                if any(w[0] == g and (len(w) == 1 or int(w[1]) == p) for w in want)]
    with build.served_dist() as url:
        return run(url, todo, a.deals)


def run(url, todo, deals):
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"bench-aids: {len(todo)} settings x {deals} deals, load {load:.1f}", flush=True)
    rows = []
    with sync_playwright() as p:
        b = build.launch_chromium(p)
        ctx = b.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
        page = ctx.new_page()
        page.set_default_timeout(120_000)
        page.goto(url + "#" + game_url("", *todo[0], 1, 0, "rules", 0, "en", debug=False)
                  .split("#", 1)[1])
        page.wait_for_selector("body[data-engine=ready]", timeout=240_000)
        for game, players in todo:
            hints, reviews = [], []
            t0 = time.monotonic()
            for seed in range(1, deals + 1):
                h, r = one_deal(page, game, players, 100 + seed)
                hints += h
                if r is not None:
                    reviews.append(r)
            ms = [x["ms"] for x in hints]
            slow = sum(x["slow"] for x in hints)
            ref = [x["cpython"] for x in hints]
            rv = [x["ms"] / 1000 for x in reviews]
            graded = [x["graded"] for x in reviews]
            row = (game, players, len(ms), statistics.median(ms) if ms else float("nan"),
                   pct(ms, 0.95) if ms else float("nan"), max(ms) if ms else float("nan"), slow,
                   rv, graded)
            rows.append(row)
            print(f"{game:>10} {players}p  hints {len(ms):3d}  median {row[3]:6.0f} ms  "
                  f"p95 {row[4]:6.0f} ms  max {row[5]:6.0f} ms  progress shown {slow:2d}  "
                  f"(CPython CPU median {statistics.median(ref) if ref else 0:4.0f} ms, "
                  f"p95 {pct(ref, 0.95) if ref else 0:4.0f} ms)  "
                  f"review {', '.join(f'{x:.1f}' for x in rv)} s "
                  f"({', '.join(map(str, graded))} moves)  [{time.monotonic() - t0:.0f} s]",
                  flush=True)
        ctx.close()
        b.close()
    worst_hint = max(r[4] for r in rows)
    worst_review = max((x for r in rows for x in r[7]), default=float("nan"))
    print(f"goals: hint p95 <= 1000 ms (worst {worst_hint:.0f} ms), review <= 30 s "
          f"(worst {worst_review:.1f} s); load now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
