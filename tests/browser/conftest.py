"""Browser test fixtures: dist/ built once and served on a free localhost port, headless
Chromium (/usr/bin/chromium) through Playwright, and a `page` that fails its test on any console
error, uncaught page error or request to another origin.

Run them with `python3 build.py test` (it sets up .venv with playwright, the npm packages and
Chromium).  Helpers for playing through the page are in harness.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import build  # noqa: E402  (the project's build.py)

# ATUT_DIST=<folder>: test a copy of dist/ (so that a build running meanwhile cannot change it)
if os.environ.get("ATUT_DIST"):
    build.DIST = Path(os.environ["ATUT_DIST"]).resolve()

try:
    from playwright.sync_api import sync_playwright
    _PLAYWRIGHT_ERROR = None
except ImportError as e:              # plain `python3 -m pytest` without the venv
    sync_playwright = None
    _PLAYWRIGHT_ERROR = e

if sync_playwright is not None:
    from playwright.sync_api import Page

    # Every wait_for_function polls on a timer, not on animation frames (Playwright's default):
    # a headless renderer may schedule no frame for a while, and a predicate that is already
    # true is then never evaluated; the wait times out though the page is right.
    _wait_for_function = Page.wait_for_function

    def _wait_polling(self, expression, *, arg=None, timeout=None, polling=100):
        return _wait_for_function(self, expression, arg=arg, timeout=timeout, polling=polling)

    Page.wait_for_function = _wait_polling

CHROMIUM_ARGS = build.CHROMIUM_ARGS
VIEWPORT = {"width": 1366, "height": 800}


@pytest.fixture(scope="session")
def dist_url():
    """dist/ built once for the session and served in a thread; yields its base URL."""
    with build.served_dist() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    if sync_playwright is None:
        pytest.fail(f"playwright is not installed ({_PLAYWRIGHT_ERROR}): run the browser tests "
                    "with `python3 build.py test`", pytrace=False)
    if not Path(build.CHROMIUM).exists():
        pytest.fail(f"{build.CHROMIUM} is missing: `python3 build.py test` installs it (Debian, "
                    "root) or install the chromium package", pytrace=False)
    with sync_playwright() as p:
        b = build.launch_chromium(p)
        yield b
        b.close()


class PageProblems:
    """Console errors, page errors and foreign requests seen by one page."""

    def __init__(self, base_url: str):
        self.base = base_url
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.allowed_errors: list[str] = []      # substrings a test expects (rarely needed)
        self.crashed = False

    def on_crash(self, _page):
        self.crashed = True
        self.errors.append("the page's renderer crashed")

    def on_console(self, msg):
        if msg.type == "error":
            self.errors.append(f"console.error: {msg.text} @ {msg.location}")

    def on_pageerror(self, err):
        self.errors.append(f"page error: {err}")

    def on_request(self, req):
        url = req.url
        if url.startswith(self.base) or url.startswith(("data:", "blob:", "about:")):
            return
        self.foreign.append(url)

    def check(self):
        errors = [e for e in self.errors if not any(a in e for a in self.allowed_errors)]
        assert not self.foreign, f"requests to another origin: {self.foreign}"
        assert not errors, "errors in the page:\n" + "\n".join(errors)


@pytest.fixture
def page_problems(dist_url):
    return PageProblems(dist_url)


@pytest.fixture
def page(browser, dist_url, page_problems):
    """A fresh context and page (cold cache); the test fails on console errors and foreign
    requests."""
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-US")
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    pg.on("console", page_problems.on_console)
    pg.on("pageerror", page_problems.on_pageerror)
    pg.on("request", page_problems.on_request)
    pg.on("crash", page_problems.on_crash)
    pg.atut_problems = page_problems
    yield pg
    ctx.close()
    page_problems.check()


# What the page showed when a test failed: a flaky wait says more than "Timeout 60000ms".
PAGE_STATE = """() => {
  const v = window.atutPage && window.atutPage.view;
  const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent.trim())
    .filter(Boolean).join(" | ").slice(0, 400);
  return {
    hash: location.hash, lang: document.documentElement.lang, body: {...document.body.dataset},
    view: v ? {game: v.game, players: v.players, seat: v.seat, to_move: v.to_move,
               is_over: v.is_over, phase: v.phase} : null,
    menu_open: !!document.querySelector("#menu:not([hidden])"),
    notices: text("[data-notice], .notice:not([hidden])"),
    error: text("[data-testid=error], #error"),
  };
}"""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    pg = getattr(item, "funcargs", {}).get("page")
    if report.when != "call" or not report.failed or pg is None:
        return
    lines = []
    problems = getattr(pg, "atut_problems", None)
    if problems is not None and problems.crashed:
        lines.append("the renderer had crashed")
    try:
        if pg.is_closed():
            lines.append("the page was closed")
        else:
            # a page whose main thread is stuck answers no evaluate: ask with a timeout first
            pg.wait_for_function("() => true", timeout=5_000)
            lines.append(repr(pg.evaluate(PAGE_STATE)))
    except Exception as e:  # noqa: BLE001  (a report of the failure must not fail itself)
        lines.append(f"the page did not answer: {type(e).__name__}: {str(e)[:200]}")
    if problems is not None and problems.errors:
        lines += problems.errors[-5:]
    report.sections.append(("page state at the failure", "\n".join(lines)))
