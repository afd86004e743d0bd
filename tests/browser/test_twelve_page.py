"""A game from outside the engine (``tests/twelve.py``) joins the page's engine from its source
alone (``atutPage.registerGame``, debug=1): the menu lists it with the names and words of its
``GameSpec`` in both languages, and a whole game against a level-3 bot is played by clicking
(docs/ADDING_A_GAME.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import atut
from harness import play_whole_game, saved_game

PATH = Path(__file__).resolve().parents[1] / "twelve.py"
SOURCE = PATH.read_text(encoding="utf-8")


def twelve_module():
    """tests/twelve.py, the very file the page was given, as the module ``twelve``."""
    if "twelve" not in sys.modules:
        spec = importlib.util.spec_from_file_location("twelve", PATH)
        sys.modules["twelve"] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules["twelve"]


def open_menu(page, url, lang):
    page.goto(f"{url}#lang={lang}&debug=1")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    return page.evaluate("([n, s]) => window.atutPage.registerGame(n, s)", ["twelve", SOURCE])


def tile(page):
    return page.locator("label.tile", has=page.locator("input[value=twelve]"))


def test_the_menu_lists_it_in_both_languages(page, dist_url):
    assert open_menu(page, dist_url, "pl") == "twelve"
    t = tile(page)
    assert t.locator(".tname").inner_text() == "Dwanaście"
    assert "Dokładaj do koloru" in t.locator(".trules").inner_text()
    assert not t.locator("input").is_disabled()
    page.locator("[data-testid=lang-en]").click()
    page.wait_for_function("() => [...document.querySelectorAll('label.tile .tname')]"
                           ".some((e) => e.textContent === 'Twelve')")
    # the engine's info lists it after the built-in games, with its seat counts
    info = page.evaluate("() => window.atutPage.request('info', {})")
    assert info["games"] == [*atut.GAME_IDS, "twelve"] and info["classes"]["twelve"]["players"] == [2]


def test_a_whole_game_is_played_in_the_page(page, dist_url):
    open_menu(page, dist_url, "en")
    t = tile(page)
    assert t.locator(".tname").inner_text() == "Twelve"
    t.click()
    page.locator("select[data-level='0']").select_option("3")
    page.locator("select[data-k=delay]").select_option("0")
    page.locator("[data-testid=new-game]").click()
    page.wait_for_function("() => window.atutPage.view && window.atutPage.view.game === 'twelve'")
    clicks = play_whole_game(page, dist_url, "twelve", seed=1, open_page=False)
    assert clicks >= 1
    over = page.locator("[data-testid=game-over]")
    assert over.is_visible()
    view = page.evaluate("() => window.atutPage.view")
    assert view["is_over"] and sum(view["tricks_won"]) == 5
    assert over.get_attribute("data-winner") is not None
    # the page's saved game replays in CPython with the same game registered there
    twelve = twelve_module()
    twelve.register()
    try:
        g = atut.load_game(saved_game(page))
        assert g.is_over and g.tricks_won == view["tricks_won"]
    finally:
        twelve.unregister()
