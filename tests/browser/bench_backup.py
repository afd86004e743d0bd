"""Backup speed in Chromium: `python3 build.py bench-backup [--games N] [--runs N]`.

A browser is filled with N finished sixty_six games (default 200, the most the page keeps:
web/lib/saved-games.js KEEP_FINISHED) through the worker's own ops (as
tests/browser/test_backup_page.py does) and three lab bots; then the Settings panel's buttons
are timed from the click until the result is on the page: *Export to a file* (the download), the
file's import into a fresh browser (every game added), the same file again (nothing new: every
game compared), a file cut short (refused at once) and a file whose last game holds an illegal
move (refused after every other save was replayed: the worst case).  Printed per run, with the
file's size and, for scale, CPython's atut.backup.check of the same file in this process.
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import sync_playwright  # noqa: E402
from test_backup_page import BOTS, BULK, SAVE_BOTS  # noqa: E402

import build  # noqa: E402
from atut.backup import check  # noqa: E402


def _open(browser, url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(600_000)
    pg.goto(url + "#lang=en&debug=1")
    pg.wait_for_selector("body[data-engine=ready]", timeout=300_000)
    pg.locator("[data-testid=open-settings]").click()
    pg.locator("[data-testid=backup-export]").wait_for(state="visible")
    return ctx, pg


def _timed(pg, seq, start) -> tuple[float, str]:
    t = time.perf_counter()
    start()
    box = pg.locator(f"[data-testid=backup-result][data-seq='{seq}']")
    box.wait_for(state="attached")
    return (time.perf_counter() - t) * 1000, box.get_attribute("data-outcome")


def _feed(pg, raw: bytes):
    """A starter for _timed: the file given to the Import button's input."""
    return lambda: pg.set_input_files("[data-testid=backup-file]", files=[
        {"name": "b.json", "mimeType": "application/json", "buffer": raw}])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--runs", type=int, default=2)
    a = ap.parse_args()
    os.environ.setdefault("ATUT_DIST_BUILT", "1")
    with build.served_dist() as url, sync_playwright() as p:
        browser = build.launch_chromium(p)
        ctx, pg = _open(browser, url)
        t = time.perf_counter()
        pg.evaluate(BULK, [list(range(1000, 1000 + a.games)), None])
        pg.evaluate(SAVE_BOTS, BOTS)
        fill = time.perf_counter() - t
        print(f"profile: {a.games} finished games and {len(BOTS)} bots kept through the worker's "
              f"ops in {fill:.1f} s")
        pg.reload()
        pg.wait_for_selector("body[data-engine=ready]", timeout=300_000)
        pg.locator("[data-testid=open-settings]").click()
        rows = []
        raw = b""
        for run in range(1, a.runs + 1):
            with pg.expect_download() as d:
                ms, out = _timed(pg, run, lambda: pg.locator("[data-testid=backup-export]").click())
            raw = Path(d.value.path()).read_bytes()
            rows.append(("export", ms, out))
        t = time.perf_counter()
        check(raw)
        cpython = (time.perf_counter() - t) * 1000
        ctx.close()
        data = json.loads(raw)
        save = json.loads(data["games"][-1]["save"])
        save["actions"][-1] = {"type": "play", "card": "XX"}
        data["games"][-1]["save"] = json.dumps(save)
        illegal = json.dumps(data).encode()
        for _ in range(a.runs):
            ctx, pg = _open(browser, url)
            rows.append(("import (all new)", *_timed(pg, 1, _feed(pg, raw))))
            rows.append(("import again (nothing new)", *_timed(pg, 2, _feed(pg, raw))))
            rows.append(("refused: cut short", *_timed(pg, 3, _feed(pg, raw[:len(raw) // 2]))))
            rows.append(("refused: illegal move in the last game", *_timed(pg, 4, _feed(pg, illegal))))
            ctx.close()
        browser.close()
    print(f"file: {len(raw) / 1024:.0f} KiB, {a.games} games; CPython's atut.backup.check of it: "
          f"{cpython:.0f} ms")
    for name in dict.fromkeys(r[0] for r in rows):
        ms = [r[1] for r in rows if r[0] == name]
        outs = sorted({r[2] for r in rows if r[0] == name})
        print(f"{name:42s} runs {len(ms)}  median {statistics.median(ms):7.0f} ms  "
              f"max {max(ms):7.0f} ms  ({', '.join(outs)})")
    print(f"load average: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
