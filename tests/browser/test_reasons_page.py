"""The hint's reason on the page for a game that gained reasons (euchre): the sentence the
panel shows is the engine's reason for the hinted action (``atut.analysis.reason`` of the
person's view), worded in English and, after the language switch, in Polish, with no key or
placeholder left.  Screenshots go to /tmp (a person looks at them)."""

from __future__ import annotations

import json

from atut.analysis import reason
from harness import ENABLED_ACTION, open_game, wait_for_turn

SIZES = ((1280, 800), (390, 844), (1920, 1080))


def _reason_text(page):
    got = page.locator("[data-testid=hint-reason]")
    return got.get_attribute("data-reason"), got.inner_text()


def _clean(text):
    return "reason." not in text and "{" not in text and "undefined" not in text and len(text) > 10


def test_a_euchre_hint_says_why_in_english_and_in_polish(page, dist_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_game(page, dist_url, "euchre", players=4, seed=3, bots="rules", lang="en")
    for _ in range(30):
        assert wait_for_turn(page) == "turn", "the game ended before a hint with a reason"
        v = page.evaluate("() => window.atutPage.view")
        if len(v["legal_actions"]) < 2:
            page.locator(ENABLED_ACTION).first.click()
            continue
        page.wait_for_selector("[data-testid=hint]")
        page.locator("[data-testid=hint]").click()
        page.wait_for_selector("[data-testid=hint-panel]", timeout=60_000)
        best = json.loads(page.locator("[data-action].hinted").first.get_attribute("data-action"))
        want = reason("euchre", v, best)
        shown = page.locator("[data-testid=hint-reason]").count()
        assert shown == (1 if want else 0), (want, best)
        if want:
            key, en = _reason_text(page)
            assert key == want["key"] and _clean(en), en
            for w, h in SIZES:
                page.set_viewport_size({"width": w, "height": h})
                page.locator("[data-testid=hint-reason]").scroll_into_view_if_needed()
                page.screenshot(path=f"/tmp/reason-euchre-en-{w}.png")
            page.set_viewport_size({"width": 1280, "height": 800})
            page.locator("[data-lang=pl]").first.click()
            page.wait_for_function("() => document.documentElement.lang === 'pl'")
            if not page.locator("[data-testid=hint-reason]").count():   # redrawn without it
                page.locator("[data-testid=hint]").click()
                page.wait_for_selector("[data-testid=hint-reason]", timeout=60_000)
            key_pl, pl = _reason_text(page)
            assert key_pl == key and _clean(pl) and pl != en, (en, pl)
            page.locator("[data-testid=hint-reason]").scroll_into_view_if_needed()
            page.screenshot(path="/tmp/reason-euchre-pl-1280.png")
            print(f"\n{key}\n  en: {en}\n  pl: {pl}")
            return
        page.locator("[data-action].hinted").first.click()
    raise AssertionError("no euchre hint with a reason in 30 turns")


def test_imperial_and_cesarz_hints_say_why(page, dist_url):
    """The other two games that gained reasons: the first hint with one shows a clean sentence
    matching the engine's reason."""
    page.set_viewport_size({"width": 1280, "height": 800})
    for game, players, seed in (("imperial", 2, 4), ("cesarz", 3, 2)):
        open_game(page, dist_url, game, players=players, seed=seed, bots="rules", lang="en")
        for _ in range(40):
            assert wait_for_turn(page) == "turn", game
            v = page.evaluate("() => window.atutPage.view")
            if len(v["legal_actions"]) < 2:
                page.locator(ENABLED_ACTION).first.click()
                continue
            page.locator("[data-testid=hint]").click()
            page.wait_for_selector("[data-testid=hint-panel]", timeout=60_000)
            best = json.loads(
                page.locator("[data-action].hinted").first.get_attribute("data-action"))
            want = reason(game, v, best)
            assert page.locator("[data-testid=hint-reason]").count() == (1 if want else 0)
            if want:
                key, en = _reason_text(page)
                assert key == want["key"] and _clean(en), en
                page.locator("[data-testid=hint-reason]").scroll_into_view_if_needed()
                page.screenshot(path=f"/tmp/reason-{game}-en-1280.png")
                print(f"\n{game} {key}: {en}")
                break
            page.locator("[data-action].hinted").first.click()
        else:
            raise AssertionError(f"no {game} hint with a reason in 40 turns")
