"""The bot lab (#lab=GAME, issue 15) in Chromium with real Pyodide: a bot typed into the
CodeMirror editor races level 1 for 20 deals and the report appears; a `while True: pass` bot
is stopped by the per-decision limit while the page stays responsive; a bot that raises shows
its line; an illegal answer is refused by name with the legal ones; a saved bot survives a
reload; an exported bot runs in the CPython arena; `import js` is refused; a fetch to another
origin is blocked by the Content-Security-Policy.  Screenshots go to /tmp (a person looks)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT

READY = "[data-testid=lab-state][data-state=ready]"
EDITOR = "[data-testid=lab-editor] .cm-content"
ERROR = "[data-testid=lab-error]"
FIRST = textwrap.dedent("""\
    import random

    def choose(view):
        # the first legal action
        return view["legal_actions"][0]
    """)


def open_lab(page, url, game="sixty_six", lang="en"):
    page.goto(f"{url}#lab={game}&lang={lang}")
    page.wait_for_selector(READY, timeout=240_000)
    page.wait_for_function("() => window.atutLab && window.atutLab.text && "
                           "window.atutLab.text.includes('def choose')", timeout=60_000)


def set_code(page, code, typing=False):
    """Replace the editor's text: key by key (typing=True) or as one insertion."""
    page.locator(EDITOR).click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    if typing:
        page.keyboard.type(code)
    else:
        page.keyboard.insert_text(code)


def editor_text(page):
    return page.evaluate("() => window.atutLab.text")


def run(page, deals=20, opponent="level:1", players=None):
    page.fill("[data-testid=lab-deals]", str(deals))
    page.select_option("[data-testid=lab-opponent]", opponent)
    if players:
        page.select_option("[data-testid=lab-players]", str(players))
    page.click("[data-testid=lab-run]")


def wait_error(page, timeout=120_000):
    page.wait_for_selector(f"{ERROR}:not([hidden])", timeout=timeout)
    return page.locator(ERROR).inner_text()


def test_typed_bot_runs_20_deals_against_level_1(page, dist_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_lab(page, dist_url)
    set_code(page, FIRST, typing=True)
    # typed key by key: the indentation as typed (Enter's own indentation gives way to typed
    # spaces; only the empty last line keeps it)
    assert [x.rstrip() for x in editor_text(page).rstrip().splitlines()] == FIRST.rstrip().splitlines()
    assert page.locator("[data-testid=lab-editor] .tok-keyword, "
                        "[data-testid=lab-editor] [class*=tok-]").count() > 0 or \
        page.locator("[data-testid=lab-editor] .cm-line span").count() > 0   # highlighted
    run(page, deals=20)
    page.wait_for_selector("[data-testid=lab-report]", timeout=240_000)
    report = page.locator("[data-testid=lab-report]").inner_text()
    assert "20 duplicate" in report and "bot.py" in report
    r = page.evaluate("() => window.atutLab.result")
    assert r["deals"] == 20 and len(r["rows"]) == 20 and len(r["running"][0]) == 20
    assert r["bots"][0]["name"] == "bot.py" and r["bots"][1]["level"] == 1
    assert 0 <= r["bots"][0]["share"] <= 1
    cells = page.locator("[data-testid=lab-results] .lab-report tbody tr").count()
    assert cells == 2
    page.wait_for_selector("[data-testid=lab-chart] canvas")
    assert page.locator(ERROR).is_hidden()
    with page.expect_download() as d:
        page.click("[data-testid=lab-csv]")
    csv_text = open(d.value.path(), encoding="utf-8").read()
    assert len(csv_text.strip().splitlines()) == 21          # a header and one row per deal
    for w, h in ((1280, 800), (390, 844), (1920, 1080)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(300)
        page.screenshot(path=f"/tmp/lab-{w}.png", full_page=False)
