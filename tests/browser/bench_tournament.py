"""Class tournament in the page: `python3 build.py bench-tournament-page [--files N] [--deals N]`.

Figures only, nothing asserted (docs/LAB.md, "Tournament"; web/lib/lab/tournament.js): N bot
files that play as level 2 does (each calls ``atut.make_bot(game, 2)`` inside its box: a
level-2-speed bot file) are added to the lab's Tournament tab through its file picker, and a
round robin of 66 for two is played through the tab's own Start button, as many games at once
as the page's navigator.hardwareConcurrency says.  Printed: the self-play checks' time (boxes
starting), the games' time from the first game to the board's last update, duplicate deals a
second (a pairing's deal: both rotations of the seats) and games a second, and the projection
to a class of 30 files with 20 deals a pairing (435 pairings: 8,700 deals, 17,400 games) at
the same rate.
"""

from __future__ import annotations

import argparse
import sys
import time
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "engine"))

from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402

LEVEL2 = '''"""{name}: our level 2 (rules) as a bot file, in its box."""
import atut

_bot = {{}}


def choose(view):
    b = _bot.get("b")
    if b is None:
        b = _bot["b"] = atut.make_bot("sixty_six", 2, seed={seed})
    return b.choose(view)
'''


def clock(s: float) -> str:
    return f"{s / 3600:.1f} h" if s >= 3600 else f"{s / 60:.1f} min"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=6)
    ap.add_argument("--deals", type=int, default=4, help="duplicate deals a pairing")
    ap.add_argument("--limit", type=float, default=5.0, help="seconds a decision")
    a = ap.parse_args(argv)
    files = [{"name": f"class{i:02d}.py", "mimeType": "text/x-python",
              "buffer": LEVEL2.format(name=f"class{i:02d}.py", seed=i).encode()}
             for i in range(a.files)]
    with build.served_dist() as url, sync_playwright() as p:
        b = build.launch_chromium(p)
        page = b.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url + "index.html#lab=sixty_six&lang=en")
        page.click("[data-testid=lab-tab-tournament]", timeout=240_000)
        page.wait_for_selector("[data-testid=tny-start]")
        cores = page.evaluate("navigator.hardwareConcurrency")
        page.set_input_files("[data-testid=tny-files]", files=files)
        page.select_option("[data-testid=tny-players]", "2")
        page.fill("[data-testid=tny-deals]", str(a.deals))
        page.fill("[data-testid=tny-limit]", str(a.limit))
        t0 = time.perf_counter()
        page.click("[data-testid=tny-start]")
        page.wait_for_selector("[data-testid=tny-state][data-state=running]", timeout=600_000)
        t1 = time.perf_counter()
        page.wait_for_selector("[data-testid=tny-state][data-state=done]", timeout=3_600_000)
        t2 = time.perf_counter()
        bar = page.locator("[data-testid=tny-progress]")
        games = int(bar.get_attribute("data-done"))
        timeouts = page.eval_on_selector_all(
            "[data-testid=tny-board] tbody tr", "rs => rs.reduce((n, r) => n + Number(r.dataset.timeouts), 0)")
        b.close()
    deals = comb(a.files, 2) * a.deals
    assert games == 2 * deals, (games, deals)
    secs = t2 - t1
    class_deals = comb(30, 2) * 20
    print(f"66 for two, {a.files} level-2-speed bot files, {a.deals} deals a pairing: "
          f"{deals} duplicate deals ({games} games), {cores} games at once "
          f"(navigator.hardwareConcurrency), {timeouts} time-outs")
    print(f"self-play checks (boxes starting): {t1 - t0:.1f} s; games: {secs:.1f} s")
    print(f"{deals / secs:.2f} deals/s ({games / secs:.2f} games/s)")
    print(f"projected, 30 files x 20 deals a pairing ({class_deals} deals, {2 * class_deals} "
          f"games): {clock(class_deals / (deals / secs))} at this rate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
