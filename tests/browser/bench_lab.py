"""Bot lab benchmark: `python3 build.py bench-lab [--deals N] [--games g,...]`.

For each game: arena deals per second in the browser (the lab's worker playing the deals and
level 1, the bot file in its boxes, in headless Chromium) for a level-1-like student bot (a
random legal action, written as a bot file) against level 1 on duplicate deals, beside the same arena in CPython (atut.arena.run in this process,
the same bot source through atut.bot_from_source).  Figures only: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "engine"))

from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402

BOT = ("import random\n\n_rng = random.Random(0)\n\n\ndef choose(view):\n"
       "    return _rng.choice(view['legal_actions'])\n")
PLAYERS = {"cesarz": 4, "euchre": 4, "imperial": 2, "tysiac1001": 3, "sixty_six": 2}


def cpython(game: str, deals: int) -> float:
    import atut
    from atut import arena
    r = arena.run(game, [atut.bot_from_source(BOT, name="random_bot.py"), 1],
                  players=PLAYERS[game], deals=deals, seed=1)
    return r["deals_per_second"]


def browser(page, url: str, game: str, deals: int) -> float:
    page.goto(f"{url}#lab={game}&lang=en")
    page.wait_for_selector("[data-testid=lab-state][data-state=ready]", timeout=240_000)
    page.wait_for_function("() => window.atutLab && window.atutLab.text", timeout=60_000)
    page.evaluate("(s) => window.atutLab.setText(s)", BOT)
    page.fill("[data-testid=lab-deals]", str(deals))
    page.select_option("[data-testid=lab-players]", str(PLAYERS[game]))
    page.select_option("[data-testid=lab-opponent]", "level:1")
    page.click("[data-testid=lab-run]")
    page.wait_for_selector("[data-testid=lab-report]", timeout=600_000)
    return page.evaluate("() => window.atutLab.result.deals_per_second")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="build.py bench-lab")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--games", default=",".join(PLAYERS))
    a = ap.parse_args(argv)
    games = [g for g in a.games.split(",") if g]
    rows = []
    with build.served_dist() as url:
        with sync_playwright() as p:
            b = build.launch_chromium(p)
            page = b.new_page(viewport={"width": 1280, "height": 800})
            for g in games:
                web = browser(page, url, g, a.deals)
                cpy = cpython(g, a.deals)
                rows.append((g, web, cpy))
                print(f"{g:<11} players {PLAYERS[g]}  browser {web:7.1f} deals/s   "
                      f"CPython {cpy:7.1f} deals/s   ratio {cpy / web:5.1f}x", flush=True)
            b.close()
    print(f"({a.deals} duplicate deals each, a random-legal-action bot file vs level 1, seed 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
