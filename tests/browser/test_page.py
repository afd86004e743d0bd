"""The page in general: dist/ under a sub-path of another host, save and load through the UI."""

from __future__ import annotations

import json
import os

import atut
import build
from harness import open_game, page_actions, saved_game, wait_for_turn


def test_dist_works_under_a_sub_path(page, tmp_path, page_problems):
    site = tmp_path / "site"
    (site / "games" / "cards").mkdir(parents=True)
    os.symlink(build.DIST, site / "games" / "cards" / "atut")
    srv, root = build.serve_in_thread(site)
    try:
        base = root + "games/cards/atut/"
        page_problems.base = root
        page.goto(base + "#game=sixty_six&players=2&seed=2&delay=0&bots=1")
        page.wait_for_selector("body[data-engine=ready]")
        assert wait_for_turn(page) == "turn"
        assert page_actions(page)
    finally:
        srv.shutdown()
        srv.server_close()


def test_save_and_load_through_the_page(page, dist_url, tmp_path):
    open_game(page, dist_url, "sixty_six", players=3, seed=40, seat=2)
    for _ in range(4):
        assert wait_for_turn(page) == "turn"
        page.locator("[data-action]:not([disabled])").first.click()
    assert wait_for_turn(page) == "turn"
    view = page.evaluate("() => window.atutPage.view")
    with page.expect_download() as dl:
        page.click("#btnSave")
    path = tmp_path / "save.json"
    dl.value.save_as(path)
    text = path.read_text()
    data = json.loads(text)
    assert data.pop("seat") == 2 and data.pop("bots") == [1, 1]
    assert data == json.loads(saved_game(page))
    assert atut.load_game(text).view(2) == view
    # another game, then load the file back: the same table, the same seat, play goes on
    open_game(page, dist_url, "sixty_six", players=2, seed=1, seat=0)
    page.set_input_files("#fileInput", str(path))
    page.wait_for_function("() => window.atutPage.view && window.atutPage.view.players === 3")
    assert page.evaluate("() => window.atutPage.view") == view
    assert "seed=40" in page.evaluate("() => location.hash")
    assert wait_for_turn(page) == "turn"
    # a broken file: a clear error, the table stays
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}')
    page.set_input_files("#fileInput", str(bad))
    err = page.locator("[data-testid=error]")
    err.wait_for(state="visible")
    assert "malformed saved game" in err.inner_text()
    assert page.evaluate("() => window.atutPage.view") == view


def test_a_broken_runtime_shows_an_error(page, tmp_path, page_problems):
    site = tmp_path / "broken"
    (site / "web" / "pyodide").mkdir(parents=True)
    os.symlink(build.DIST / "index.html", site / "index.html")
    for p in (build.DIST / "web").iterdir():
        if p.name != "pyodide":
            os.symlink(p, site / "web" / p.name)
    for p in (build.DIST / "web" / "pyodide").iterdir():
        if p.name != "pyodide.asm.wasm":                     # the runtime cannot start
            os.symlink(p, site / "web" / "pyodide" / p.name)
    srv, root = build.serve_in_thread(site)
    try:
        page_problems.base = root
        page_problems.allowed_errors += ["404", "Failed to load resource", "wasm", "WebAssembly",
                                         "Aborted", "pyodide"]
        page.goto(root + "#game=sixty_six&delay=0")
        page.wait_for_selector("body[data-engine=error]", timeout=120_000)
        err = page.locator("[data-testid=error]")
        assert err.is_visible()
        assert "could not be loaded" in err.inner_text()
        assert page.locator("[data-testid=loading]").is_visible()
    finally:
        srv.shutdown()
        srv.server_close()


# --- the hash's bot levels --------------------------------------------------------------------

def _go(page, hash_: str) -> None:
    """Start another game on the open page through a hash change (no reload)."""
    page.evaluate("(h) => { location.hash = h }", hash_)


def _levels(page) -> dict[int, str]:
    return dict(page.eval_on_selector_all(
        ".seat[data-seat]:not(.me) .lvl",
        "els => els.map(e => [+e.closest('.seat').dataset.seat, e.textContent])"))


def test_bots_accept_level_names(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=4, seed=3, seat=0, bots="random,rules,strong")
    assert _levels(page) == {1: "bot 1", 2: "bot 2", 3: "bot 4"}
    assert "bots=1,2,4" in page.evaluate("() => location.hash")
    _go(page, "game=sixty_six&players=3&seed=4&seat=1&bots=search&delay=0")
    page.wait_for_function("() => window.atutPage.view && window.atutPage.view.players === 3")
    assert _levels(page) == {0: "bot 3", 2: "bot 3"}
    _go(page, "game=sixty_six&players=3&seed=4&seat=1&bots=Strong,1&delay=0")
    page.wait_for_function("() => location.hash.includes('bots=4,1')")
    assert _levels(page) == {0: "bot 4", 2: "bot 1"}
    # an unknown level name: a clear error, the table goes on unchanged
    _go(page, "game=sixty_six&players=3&seed=4&seat=1&bots=genius&delay=0")
    err = page.locator("[data-testid=error]")
    err.wait_for(state="visible")
    assert 'not "genius"' in err.inner_text() and "strong" in err.inner_text()
