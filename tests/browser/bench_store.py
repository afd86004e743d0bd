"""What keeping each step costs in Chromium: `.venv/bin/python tests/browser/bench_store.py
[--writes N]`.

A euchre game is played a few moves in the page (debug=1) to get a real save text; then, in the
page, web/lib/saved-games.js put() writes that save and its meta record N times, each in one
IndexedDB transaction: with the writer check the worker uses for every step (the record is read
and compared in the same transaction, docs/PAGE.md "One writer, crashes and persistent
storage") and without it.  Printed: the save's size, each way's median and p95 in ms, and the
load average.  Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402
from harness import ENABLED_ACTION, game_url, saved_game, wait_for_turn  # noqa: E402

WRITES = """async ({ n, save, meta }) => {
  const store = await import('./web/lib/saved-games.js');
  await store.open();
  const time = async (writer) => {
    const ms = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await store.put({ ...meta, id: 'bench-' + (writer ? 'w' : 'plain'), updated: Date.now() }, save, writer);
      if (!r.ok) throw new Error(r.error);
      ms.push(performance.now() - t0);
    }
    await store.remove('bench-' + (writer ? 'w' : 'plain'));
    return ms;
  };
  return { checked: await time('bench-writer'), plain: await time(undefined) };
}"""


def _stats(ms: list[float]) -> str:
    s = sorted(ms)
    return f"median {s[len(s) // 2]:.2f} ms, p95 {s[int(len(s) * 0.95)]:.2f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--writes", type=int, default=200)
    a = ap.parse_args()
    with build.served_dist() as url, sync_playwright() as p:
        b = build.launch_chromium(p)
        page = b.new_context().new_page()
        page.goto(game_url(url, "euchre", players=4, seed=8, seat=0, bots="1", delay=0))
        page.wait_for_selector("body[data-writer=held]", timeout=120_000)
        for _ in range(6):
            if wait_for_turn(page) != "turn":
                break
            page.locator(ENABLED_ACTION).first.click()
            page.wait_for_timeout(150)
        save = saved_game(page)
        meta = page.evaluate("() => ({ format: 1, id: 'x', game: 'euchre', players: 4, seed: 8, seat: 0,"
                             " levels: [1, 1, 1], delay: 0, options: {}, started: 0, updated: 0,"
                             " finished: false, deal_no: 1, scores: [0, 0, 0, 0], last_deal: null,"
                             " aids: { hints: 0, undo: 0 }, version: null, result: null })")
        r = page.evaluate(WRITES, {"n": a.writes, "save": save, "meta": meta})
        b.close()
    print(f"one step kept: the save ({len(save)} characters) and its meta record in one transaction, "
          f"{a.writes} writes each way")
    print(f"  with the writer check (what the worker does): {_stats(r['checked'])}")
    print(f"  without it:                                   {_stats(r['plain'])}")
    print(f"load average: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
