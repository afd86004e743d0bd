"""One writer per game (docs/PAGE.md "One writer, crashes and persistent storage"): the same game
open in two tabs of one browser.  The second tab says the game is held elsewhere and offers to
take it over; taking over hands it across with every move kept, and the tab that lost it says
so and refuses a move; a reload resumes the game with every move the person made, in order, in
either tab.  Real Chromium, real Pyodide, the real Web Locks, BroadcastChannel and IndexedDB."""

from __future__ import annotations

import json

from conftest import VIEWPORT

from harness import (
    ENABLED_ACTION,
    game_url,
    person_actions,
    saved_game,
    stored,
    wait_for_turn,
    wait_until,
)

GAME = dict(game="euchre", players=4, seed=21, seat=0, bots="1", delay=0)
READY = "body[data-engine=ready]"


def _open(ctx, url):
    p = ctx.new_page()
    p.set_default_timeout(60_000)
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.goto(url)
    p.wait_for_selector(READY, timeout=120_000)
    return p, errors


def _view(page):
    return page.evaluate("() => window.atutPage.view")


def _move(page, made):
    """The person plays the first legal control; waits until the table moved on."""
    assert wait_for_turn(page) == "turn"
    before = page.evaluate("() => JSON.stringify(window.atutPage.view)")
    button = page.locator(ENABLED_ACTION).first
    made.append(json.loads(button.get_attribute("data-action")))
    button.click()
    wait_until(page, "(b) => JSON.stringify(window.atutPage.view) !== b || false", before, timeout=60_000)
    kept = _kept(page)
    assert kept == made, f"kept {json.dumps(kept)}\nmade {json.dumps(made)}"


def _kept(page):
    """The person's actions in the store's one unfinished game, read straight from IndexedDB."""
    texts = stored(page)["saves"]
    assert len(texts) == 1
    return person_actions(texts[0], GAME["seat"])


def _take(page, button):
    """Press the notice's take-over button; the game is on this tab's table again."""
    page.click(f"[data-testid={button}]")
    page.wait_for_selector("body[data-writer=held]")
    wait_until(page, "() => window.atutPage.view !== null")


def _refuses(page):
    """A tab that lost the game says so and takes no move: the game is played in the other tab."""
    page.wait_for_selector("body[data-writer=lost]")
    note = page.locator("[data-testid=notice-writer]")
    assert "another tab" in note.inner_text()
    legal = (_view(page) or {}).get("legal_actions") or []
    if legal:
        assert page.evaluate("(a) => window.atutPage.act(a)", legal[0]) is False
    assert page.locator("[data-testid=notice-writer]").count() == 1


def test_two_tabs_hand_one_game_across_and_keep_every_move(browser, dist_url):
    link = game_url(dist_url, **GAME)
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-US")
    try:
        made = []
        a, errors_a = _open(ctx, link)
        wait_until(a, "() => window.atutPage.view !== null")
        a.wait_for_selector("body[data-writer=held]")
        _move(a, made)
        _move(a, made)
        # the second tab: the game is held elsewhere, and it says so (no table of its own)
        b, errors_b = _open(ctx, link)
        b.wait_for_selector("body[data-writer=elsewhere]")
        assert "another tab" in b.locator("[data-testid=notice-writer]").inner_text()
        assert b.evaluate("() => window.atutPage.view") is None
        for turn in range(3):
            _take(b, "writer-take" if turn == 0 else "writer-take-back")
            _refuses(a)
            _move(b, made)
            _move(b, made)
            _take(a, "writer-take-back")
            _refuses(b)
            _move(a, made)
        # a reload of the holder: every move the person made, in order
        a.reload()
        a.wait_for_selector(READY, timeout=120_000)
        wait_until(a, "() => window.atutPage.view !== null")
        a.wait_for_selector("body[data-writer=held]")
        kept = person_actions(saved_game(a), GAME["seat"])
        assert kept == made, f"kept {json.dumps(kept)}\nmade {json.dumps(made)}"
        # the other tab reloaded: held elsewhere again, and taking over shows the same game
        b.reload()
        b.wait_for_selector("body[data-writer=elsewhere]")
        _take(b, "writer-take")
        assert person_actions(saved_game(b), GAME["seat"]) == made
        a.wait_for_selector("body[data-writer=lost]")
        assert _view(b) == _view(a)
        for errs in (errors_a, errors_b):
            assert not errs, errs
    finally:
        ctx.close()


def test_the_notice_speaks_polish(browser, dist_url):
    link = game_url(dist_url, **{**GAME, "seed": 22, "lang": "pl"})
    ctx = browser.new_context(viewport=VIEWPORT, locale="pl-PL")
    try:
        a, _ = _open(ctx, link)
        wait_until(a, "() => window.atutPage.view !== null")
        made = []
        _move(a, made)
        b, _ = _open(ctx, link)
        b.wait_for_selector("body[data-writer=elsewhere]")
        assert "innej karcie" in b.locator("[data-testid=notice-writer]").inner_text()
        assert b.locator("[data-testid=writer-take]").inner_text() == "Przejmij tutaj"
        _take(b, "writer-take")
        a.wait_for_selector("body[data-writer=lost]")
        assert "innej karcie" in a.locator("[data-testid=notice-writer]").inner_text()
        assert a.locator("[data-testid=writer-take-back]").inner_text() == "Przejmij z powrotem"
        assert person_actions(saved_game(b), 0) == made
    finally:
        ctx.close()


def test_a_frozen_holder_loses_the_game_and_cannot_write(browser, dist_url):
    """The holder does not answer (its page frozen by Chromium, as a tab in the background
    is): the taking tab waits 3 s, steals the lock and resumes; once the holder runs again it
    learns it lost the game, and its worker's writes are refused by the store's writer check."""
    link = game_url(dist_url, **{**GAME, "seed": 23})
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-US")
    try:
        made = []
        a, errors_a = _open(ctx, link)
        wait_until(a, "() => window.atutPage.view !== null")
        a.wait_for_selector("body[data-writer=held]")
        _move(a, made)
        cdp = ctx.new_cdp_session(a)
        cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
        b, errors_b = _open(ctx, link)
        b.wait_for_selector("body[data-writer=elsewhere]")
        _take(b, "writer-take")
        _move(b, made)
        _move(b, made)
        cdp.send("Page.setWebLifecycleState", {"state": "active"})
        _refuses(a)
        # the holder's worker, run again, wrote nothing over the other tab's moves
        assert _kept(b) == made
        b.reload()
        b.wait_for_selector(READY, timeout=120_000)
        wait_until(b, "() => window.atutPage.view !== null")
        b.wait_for_selector("body[data-writer=held]")
        assert person_actions(saved_game(b), GAME["seat"]) == made
        for errs in (errors_a, errors_b):
            assert not errs, errs
    finally:
        ctx.close()
