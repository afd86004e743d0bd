"""The suite's short version of the Chromium soak (`python3 build.py soak-page`,
tests/browser/soak_page.py): four whole games in one page without a reload, each started by a
new URL hash, level-2 bots (quick) and the person's seat random, then the page still plays.
Every game must end; the worker's memory after the last game stays within a generous bound of
that after the first (the Python heap: gc objects and the wasm memory; the worker's JS heap);
no console error.  Not timed: the full soak prints figures instead.
"""

from __future__ import annotations

import json

from soak_page import growth, soak

from harness import ENABLED_ACTION, wait_for_turn

CYCLE = [("sixty_six", 2), ("imperial", 2), ("euchre", 4), ("sixty_six", 3)]


def still_plays(page):
    page.evaluate("(h) => { location.hash = h; }",
                  "#game=imperial&players=2&seed=99&seat=0&bots=1&delay=0&lang=en&debug=1")
    page.wait_for_function("() => { const v = window.atutPage.view; return v && "
                           "v.game === 'imperial' && !v.is_over; }")
    assert wait_for_turn(page) == "turn"
    before = json.dumps(page.evaluate("() => window.atutPage.view"))
    page.locator(ENABLED_ACTION).first.click()
    page.wait_for_function("(b) => JSON.stringify(window.atutPage.view) !== b", arg=before)
    assert page.locator("#error").is_hidden()


def test_four_games_in_one_page(browser, dist_url):
    lines = []
    rows, errors = soak(browser, dist_url, len(CYCLE), seed=3, out=lines.append, hint=False,
                        level=2, cycle=CYCLE, after=still_plays)
    print("\n".join(lines))
    assert not errors, errors
    assert [r["over"] for r in rows] == [True] * len(CYCLE), "\n".join(lines)
    assert all(r["decisions"] > 0 for r in rows)
    g = growth(rows)
    assert g["py_objects"] < 1.5, (g, lines)
    assert g["wasm_bytes"] < 1.5, (g, lines)
    assert g["worker_js"] < 2.0, (g, lines)
