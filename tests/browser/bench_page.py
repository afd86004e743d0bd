"""Cold-cache and warm page benchmark: `python3 build.py bench-page [--runs N]`.

Each run launches headless Chromium with a fresh profile (empty cache), opens the served dist/
and prints: first paint and first contentful paint (performance paint timing), the time until
body[data-engine=ready], and with a game link the time until the first hand is on the table.
Then, side by side, cold start (a fresh profile: empty cache, no service worker) and warm
start (the same profile again: the service worker active, its precache and the HTTP cache
filled): first paint and the time until the table is playable (the first hand on the table
with body[data-engine=ready]), each from the game link, median of the runs.
Figures only: nothing here is asserted.
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

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def one_run(p, url: str, hash_: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="atut-bench-") as profile:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=build.CHROMIUM,
                                                   headless=True, args=ARGS,
                                                   viewport={"width": 1366, "height": 800})
        page = ctx.new_page()
        page.goto(url + hash_)
        page.wait_for_selector("body[data-engine=ready]", timeout=180_000)
        out = {}
        if hash_:
            out["table"] = page.evaluate("""() => new Promise(res => {
                const ok = () => document.querySelector('[data-testid=hand] [data-card]');
                if (ok()) return res(performance.now());
                new MutationObserver((_, o) => { if (ok()) { o.disconnect(); res(performance.now()); } })
                  .observe(document.body, {subtree: true, childList: true});
            })""")  # noqa: E501
        out.update(page.evaluate("""() => {
            const p = Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]));
            const r = performance.getEntriesByName('atut-engine-ready')[0];
            const nav = performance.getEntriesByType('navigation')[0];
            return {worker: window.atutTimings || {}, fp: p['first-paint'], fcp: p['first-contentful-paint'], ready: r ? r.startTime : null,
                    dcl: nav ? nav.domContentLoadedEventEnd : null};
        }"""))  # noqa: E501
        ctx.close()
        return out


MEASURE = """() => new Promise(res => {
    const ok = () => document.body.dataset.engine === 'ready' && document.querySelector('[data-testid=hand] [data-card]');
    const done = () => {
      const p = Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]));
      res({fp: p['first-paint'] ?? null, fcp: p['first-contentful-paint'] ?? null, table: performance.now(),
           worker: window.atutTimings || {}, sw: !!navigator.serviceWorker.controller});
    };
    if (ok()) return done();
    new MutationObserver((_, o) => { if (ok()) { o.disconnect(); done(); } })
      .observe(document.body, {subtree: true, childList: true, attributes: true});
})"""  # noqa: E501

SW_READY = """async () => { const r = await navigator.serviceWorker.ready; return !!r.active; }"""


def cold_and_warm(p, url: str, hash_: str, warm_runs: int = 1) -> tuple[dict, list[dict]]:
    """One fresh profile: the first visit (cold), then `warm_runs` new starts (warm)."""
    with tempfile.TemporaryDirectory(prefix="atut-bench-") as profile:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=build.CHROMIUM,
                                                   headless=True, args=ARGS,
                                                   viewport={"width": 1366, "height": 800})
        page = ctx.new_page()
        page.goto(url + hash_)
        cold = page.evaluate(MEASURE)
        page.evaluate(SW_READY)
        page.evaluate("() => window.atutPage.flush()")
        warm = []
        for _ in range(warm_runs):
            page.close()
            page = ctx.new_page()
            page.goto(url + hash_)
            warm.append(page.evaluate(MEASURE))
            page.evaluate("() => window.atutPage.flush()")
        ctx.close()
        return cold, warm


def side_by_side(p, url: str, runs: int) -> None:
    hash_ = "#game=sixty_six&players=3&seed=1&delay=0"
    colds, warms = [], []
    for _ in range(runs):
        c, w = cold_and_warm(p, url, hash_, warm_runs=2)
        colds.append(c)
        warms.extend(w)

    def med(rows, key):
        vals = [r[key] for r in rows if r.get(key) is not None]
        return f"{statistics.median(vals):7.0f} ms" if vals else "     n/a"
    print(f"\ncold and warm start from a game link ({hash_}), median of {runs} cold and "
          f"{len(warms)} warm starts:")
    print("                                          cold         warm")
    print(f"  first paint                        {med(colds, 'fp')}   {med(warms, 'fp')}")
    print(f"  first contentful paint             {med(colds, 'fcp')}   {med(warms, 'fcp')}")
    print(f"  playable table (hand, engine ready){med(colds, 'table')}   {med(warms, 'table')}")
    print(f"  served by the service worker        {sum(r['sw'] for r in colds)}/{len(colds)}"
          f"          {sum(r['sw'] for r in warms)}/{len(warms)}")
    for name, rows in (("cold", colds), ("warm", warms)):
        keys = [k for k in ("start", "runtime", "wheel", "games") if k in rows[-1]["worker"]]
        stages = {k: statistics.median(r["worker"][k] for r in rows if k in r["worker"])
                  for k in keys}
        print(f"  inside the worker, {name} (median ms since the worker started): "
              + ", ".join(f"{k} {v:.0f}" for k, v in stages.items()))


def main(argv: list[str]) -> int:
    runs = 3
    if argv[:1] == ["--runs"] and len(argv) > 1:
        runs = max(1, int(argv[1]))
    if not (build.DIST / "index.html").exists():
        build.build(quiet=True)
    srv, url = build.serve_in_thread(build.DIST)
    rows = {"menu": [], "game": []}
    try:
        with sync_playwright() as p:
            for _ in range(runs):
                rows["menu"].append(one_run(p, url, ""))
                rows["game"].append(one_run(p, url, "#game=sixty_six&players=3&seed=1&delay=0"))
            side_by_side(p, url, runs)
    finally:
        srv.shutdown()

    def med(key, which):
        vals = [r[key] for r in rows[which] if r.get(key) is not None]
        return f"{statistics.median(vals):7.0f} ms" if vals else "     n/a"

    print(f"cold-cache page timings, headless Chromium, fresh profile each run, median of {runs}:")
    print(f"  first paint                         {med('fp', 'menu')}")
    print(f"  first contentful paint              {med('fcp', 'menu')}")
    print(f"  DOMContentLoaded                    {med('dcl', 'menu')}")
    print(f"  engine ready (body[data-engine])    {med('ready', 'menu')}")
    print(f"  game link: first hand on the table  {med('table', 'game')}")
    stages = rows["menu"][-1].get("worker") or {}
    if stages:
        print("  inside the worker (last run, ms since the worker started): "
              + ", ".join(f"{k} {v}" for k, v in stages.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
