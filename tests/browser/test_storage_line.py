"""Storage that stays (docs/PAGE.md "One writer, crashes and persistent storage"): Settings says
whether the browser keeps the page's storage (navigator.storage.persisted()) and how much it
uses (navigator.storage.estimate()), plainly and in both languages; its button asks the browser
(navigator.storage.persist()), which here grants it once the site has Chromium's durable-storage
permission (given over the DevTools protocol, as a browser does for an installed app).  A profile
on disk: an off-the-record context never keeps its storage."""

from __future__ import annotations

import re

import pytest

import build

try:
    from playwright.sync_api import sync_playwright
except ImportError:                  # plain `python3 -m pytest` without the venv
    sync_playwright = None

LINE = "[data-testid=storage-line][data-ready='1']"


def _line(page) -> dict:
    page.wait_for_selector(LINE)
    el = page.locator(LINE)
    return {"text": el.inner_text(), "persisted": el.get_attribute("data-persisted"),
            "usage": el.get_attribute("data-usage")}


def _settings(page):
    if page.locator("[data-testid=settings]").count() == 0:
        page.click("#btnSettings")
    page.wait_for_selector("[data-testid=settings-storage]")


def _lang(page, lang):
    page.click(f"[data-lang={lang}]")
    page.wait_for_selector(f"[data-testid=settings][lang={lang}] {LINE}")


@pytest.fixture
def disk_page(browser, dist_url, tmp_path):
    """A page of Chromium with its profile on disk (a browser of its own, started by the
    session's Playwright); fails its test on a page error."""
    errors = []
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=build.CHROMIUM, headless=True,
        args=build.CHROMIUM_ARGS, viewport={"width": 1280, "height": 800}, locale="en-US")
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page
    ctx.close()
    assert not errors, errors


def test_settings_say_whether_storage_is_persistent_and_what_it_uses(disk_page, dist_url):
    page = disk_page
    page.goto(dist_url + "#lang=pl")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    _settings(page)
    # not persistent: said plainly, with the space used, in Polish and in English
    pl = _line(page)
    assert page.evaluate("() => navigator.storage.persisted()") is False
    assert pl["persisted"] == "false"
    assert "Pamięć nie jest trwała" in pl["text"] and "Zajęte:" in pl["text"]
    usage = int(pl["usage"])
    assert usage >= 0
    assert re.search(r"Zajęte: [\d ,]+ (B|kB|MB|GB) z [\d ,]+ (B|kB|MB|GB)\.", pl["text"]), pl["text"]
    assert page.locator("[data-testid=storage-persist]").is_visible()
    assert page.locator("[data-testid=storage-persist]").inner_text() == "Poproś przeglądarkę o trwałą pamięć"
    _lang(page, "en")
    en = _line(page)
    assert en["persisted"] == "false"
    assert "Storage is not persistent: the browser may clear your saved games" in en["text"]
    assert re.search(r"Used: [\d,.]+ (B|kB|MB|GB) of [\d,.]+ (B|kB|MB|GB)\.", en["text"]), en["text"]
    # the browser lets the site keep its storage: the button asks, and the line says so
    cdp = page.context.new_cdp_session(page)
    cdp.send("Browser.grantPermissions", {"origin": dist_url.rstrip("/"), "permissions": ["durableStorage"]})
    page.click("[data-testid=storage-persist]")
    page.wait_for_selector("[data-testid=storage-line][data-asked=granted]")
    en = _line(page)
    assert en["persisted"] == "true"
    assert "Storage is persistent: the browser will not clear your saved games on its own." in en["text"]
    assert "Used:" in en["text"]
    assert page.locator("[data-testid=storage-persist]").is_hidden()
    assert page.evaluate("() => navigator.storage.persisted()") is True
    _lang(page, "pl")
    pl = _line(page)
    assert pl["persisted"] == "true"
    assert "Pamięć jest trwała" in pl["text"] and "Zajęte:" in pl["text"]

