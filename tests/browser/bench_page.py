"""Cold-cache page benchmark: `python3 build.py bench-page [--runs N]`.

Each run launches headless Chromium with a fresh profile (empty cache), opens the served dist/
and prints: first paint and first contentful paint (performance paint timing), the time until
body[data-engine=ready], and with a game link the time until the first hand is on the table.
Figures only: nothing here is asserted.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

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
            })""")
        out.update(page.evaluate("""() => {
            const p = Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]));
            const r = performance.getEntriesByName('atut-engine-ready')[0];
            const nav = performance.getEntriesByType('navigation')[0];
            return {worker: window.atutTimings || {}, fp: p['first-paint'], fcp: p['first-contentful-paint'], ready: r ? r.startTime : null,
                    dcl: nav ? nav.domContentLoadedEventEnd : null};
        }"""))
        ctx.close()
        return out


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
