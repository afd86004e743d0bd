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
    yield pg
    ctx.close()
    page_problems.check()
