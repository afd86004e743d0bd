"""Start-up benchmark of the page: `python3 build.py bench-page [--runs N] [--dist DIR]`.

Each run launches headless Chromium with a fresh profile (empty cache, no service worker) and
opens the served dist/ like a person who clicks *New game* the moment it can be clicked:

- first paint          performance's first-paint entry
- menu usable          [data-testid=new-game] present and enabled (the click is made then)
- engine ready         the page's `atut-engine-ready` mark (body[data-engine=ready])
- playable             the first table view rendered after that click (a card in the hand)

all in ms since the navigation started.  The same profile is then opened again (warm: the
service worker's precache and the HTTP cache filled), and a fresh profile opens a game link
(`#game=sixty_six&players=3&seed=1&delay=0`: playable = its first hand).  Printed: median, min
and max of the runs, and the worker's own stages (window.atutTimings, ms since the worker
started).  Figures only: nothing here is asserted.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402

LINK = "#game=sixty_six&players=3&seed=1&delay=0"

# installed before the page's own scripts: clicks New game as soon as it is enabled, and notes
# when that was and when the first hand is on the table
WATCH = """(() => {
  const B = window.__bench = { menu: null, click: null, table: null };
  const look = () => {
    if (B.menu === null) {
      const b = document.querySelector('[data-testid=menu] [data-testid=new-game]');
      if (b && !b.disabled && !b.closest('[hidden]')) {
        B.menu = performance.now();
        if (window.__benchClick) { B.click = B.menu; b.click(); }
      }
    }
    if (B.table === null && document.querySelector('[data-testid=hand] [data-card]')) {
      B.table = performance.now();
    }
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
})()"""

CLICK = "window.__benchClick = true;"

READ = """() => {
  const p = Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]));
  const r = performance.getEntriesByName('atut-engine-ready')[0];
  return { fp: p['first-paint'] ?? null, menu: window.__bench.menu, ready: r ? r.startTime : null,
           table: window.__bench.table, worker: window.atutTimings || {},
           sw: !!(navigator.serviceWorker && navigator.serviceWorker.controller) };
}"""

SW_READY = """async () => { const r = await navigator.serviceWorker.ready; return !!r.active; }"""


def _context(p, profile: str):
    return p.chromium.launch_persistent_context(profile, executable_path=build.CHROMIUM,
                                                headless=True, args=build.CHROMIUM_ARGS,
                                                viewport={"width": 1366, "height": 800})


def _measure(ctx, url: str, click: bool):
    page = ctx.new_page()
    if click:
        page.add_init_script(CLICK)
    page.add_init_script(WATCH)
    page.goto(url)
    page.wait_for_selector("body[data-engine=ready]", timeout=180_000)
    page.wait_for_selector("[data-testid=hand] [data-card]", timeout=180_000)
    page.wait_for_function("() => window.__bench.table !== null")
    return page, page.evaluate(READ)


def one_run(p, url: str) -> dict:
    """A fresh profile: cold start from the menu, then a warm start; a fresh one: the link."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="atut-bench-") as profile:
        ctx = _context(p, profile)
        page, out["cold"] = _measure(ctx, url, click=True)
        page.evaluate(SW_READY)
        page.evaluate("() => window.atutPage.flush()")
        page.close()
        page, out["warm"] = _measure(ctx, url, click=True)
        ctx.close()
    with tempfile.TemporaryDirectory(prefix="atut-bench-") as profile:
        ctx = _context(p, profile)
        page, out["link"] = _measure(ctx, url + LINK, click=False)
        ctx.close()
    return out


def report(rows: list[dict]) -> None:
    n = len(rows)
    print(f"page start-up, headless Chromium, median [min-max] of {n} runs, ms since navigation:")
    print(f"{'':22}{'cold, New game':>24}{'warm, New game':>24}{'cold, game link':>24}")
    for key, name in (("fp", "first paint"), ("menu", "menu usable"),
                      ("ready", "engine ready"), ("table", "playable")):
        cells = []
        for which in ("cold", "warm", "link"):
            vals = [r[which][key] for r in rows if r[which].get(key) is not None]
            if key == "menu" and which == "link":
                vals = []                         # a game link opens no menu
            cells.append(f"{statistics.median(vals):6.0f} [{min(vals):.0f}-{max(vals):.0f}]"
                         if vals else "n/a")
        print(f"  {name:20}" + "".join(f"{c:>24}" for c in cells))
    for which in ("cold", "warm", "link"):
        print(f"  served by the service worker, {which}: {sum(r[which]['sw'] for r in rows)}/{n}")
    for which in ("cold", "warm"):
        stages: dict[str, list] = {}
        for r in rows:
            for k, v in r[which]["worker"].items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    stages.setdefault(k, []).append(v)
        snap = sum(bool(r[which]["worker"].get("snapshot")) for r in rows)
        print(f"  inside the worker, {which} (median ms since the worker started): "
              + ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in stages.items())
              + f"; Python from the snapshot {snap}/{n}")


def main(argv: list[str]) -> int:
    runs = 5
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--runs" and args:
            runs = max(1, int(args.pop(0)))
        elif a == "--dist" and args:
            build.DIST = Path(args.pop(0)).resolve()
        else:
            print("usage: build.py bench-page [--runs N] [--dist DIR]", file=sys.stderr)
            return 2
    rows = []
    with build.served_dist() as url:
        with sync_playwright() as p:
            for _ in range(runs):
                rows.append(one_run(p, url))
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
