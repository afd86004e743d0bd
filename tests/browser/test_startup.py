"""Start-up (docs/PAGE.md): the menu works before Python has loaded.  The worker's runtime file
(pyodide.asm.wasm) is held back by Playwright routing, so the engine cannot be ready; meanwhile
the menu is rendered from build.json's info, New game is enabled, a click on it waits (the
loading bar and the button say so) and, once the runtime is let through, the game asked for
starts.  A game link waits likewise.  And build.json's info is the worker's own `info` reply.
No time is asserted: the order of events is."""

from __future__ import annotations

import json

import build

HELD = "**/pyodide/pyodide.asm.wasm"


class Hold:
    """Hold back the GET requests for the runtime's wasm until release(); HEAD passes."""

    def __init__(self, page):
        self.page = page
        self.held = []
        self.released = False
        page.route(HELD, self._route)

    def _route(self, route):
        if self.released or route.request.method != "GET":
            route.continue_()
        else:
            self.held.append(route)

    def wait_held(self):
        for _ in range(600):
            if self.held:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError("the worker never asked for pyodide.asm.wasm")

    def release(self):
        self.released = True
        for r in self.held:
            r.continue_()
        self.held = []


def menu_new_game(page):
    return page.locator("[data-testid=menu] [data-testid=new-game]")


def test_menu_usable_and_new_game_waits_for_the_engine(page, dist_url):
    hold = Hold(page)
    page.goto(dist_url + "#lang=en")
    hold.wait_held()
    button = menu_new_game(page)
    button.wait_for(state="visible")
    # the engine is still loading, yet the menu is whole and New game is enabled
    assert page.evaluate("document.body.dataset.engine") == "loading"
    assert button.is_enabled()
    tiles = page.locator("[data-testid=menu] input[name=game]")
    assert tiles.count() == 5 and all(tiles.nth(i).is_enabled() for i in range(5))
    # choose euchre: its seat count (4) and its options come from build.json
    page.locator("[data-testid=menu] input[name=game][value=euchre]").check(force=True)
    players = page.locator("[data-testid=menu] select[data-k=players]")
    assert players.locator("option").all_inner_texts() == ["4"]
    assert page.locator("[data-testid=menu] select[data-option=redeal]").count() == 1
    page.locator("[data-testid=menu] select[data-k=delay]").select_option("0")
    page.locator("[data-testid=menu] input[data-k=seed]").fill("5")
    menu_new_game(page).click()
    # the click waits: the button and the loading bar say so, no table yet
    page.wait_for_selector("[data-testid=new-game][data-waiting][aria-busy=true]")
    assert "your game starts" in page.locator("[data-testid=loading] .text").inner_text()
    assert page.locator("[data-testid=loading]").evaluate("e => e.classList.contains('waiting')")
    assert page.locator("#table").is_hidden()
    assert page.evaluate("document.body.dataset.engine") == "loading"
    hold.release()
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.wait_for_selector("[data-testid=hand] [data-card]", timeout=60_000)
    view = page.evaluate("() => window.atutPage.view")
    assert view["players"] == 4
    assert "game=euchre" in page.evaluate("location.hash")
    assert "seed=5" in page.evaluate("location.hash")
    assert page.locator("[data-testid=menu]").is_hidden()
    assert not page.locator("[data-testid=loading]").evaluate(
        "e => e.classList.contains('waiting')")


def test_game_link_waits_for_the_engine(page, dist_url):
    hold = Hold(page)
    page.goto(dist_url + "#game=imperial&players=3&seed=4&seat=1&bots=random&delay=0&lang=pl")
    hold.wait_held()
    page.wait_for_selector("[data-testid=loading].waiting")
    # Polish, with the words of the wait
    assert "gra zacznie się" in page.locator("[data-testid=loading] .text").inner_text()
    assert page.evaluate("document.body.dataset.engine") == "loading"
    hold.release()
    page.wait_for_selector("[data-testid=hand] [data-card]", timeout=120_000)
    assert page.evaluate("() => window.atutPage.seat") == 1
    assert page.evaluate("() => window.atutPage.view")["players"] == 3


def test_bad_link_says_why_before_the_engine_is_ready(page, dist_url):
    hold = Hold(page)
    page.goto(dist_url + "#game=imperial&players=7&lang=en")
    hold.wait_held()
    err = page.locator("[data-testid=error]")
    err.wait_for(state="visible")
    assert "7" in err.inner_text()
    assert page.evaluate("document.body.dataset.engine") == "loading"
    assert menu_new_game(page).is_visible()
    hold.release()
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    assert page.locator("#table").is_hidden()


def test_static_info_is_the_workers(page, dist_url):
    static = json.loads((build.DIST / "web" / "build.json").read_text(encoding="utf-8"))["info"]
    page.goto(dist_url + "#debug=1")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    # the worker's info with every game module imported (no build.json shortcut)
    live = page.evaluate("() => window.atutPage.request('info', {})")
    assert static == live
    assert set(static) >= {"games", "built", "classes", "levels", "version"}
