"""The rule coach (docs/PAGE.md): in a person's first games of a game, the first time an event
names a rule, one short callout below the hand with the rule's id (opening the rules at it),
read out to screen readers; never twice for the same rule in a game, never over a card; off by
choice, and off by itself after the first games."""

from __future__ import annotations

import random

from harness import ENABLED_ACTION, GAME_OVER, open_game

COACH = "[data-testid=coach]:not([hidden])"


def overlaps(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def play_watching(page, rng, max_clicks=200, limits=None) -> list[str]:
    """Click random legal controls to the game's end; the rules the coach named, in order of
    appearance, checked at every turn: never over a card, read out (aria-live).  ``limits``
    (a list) gets the rules the view said keep cards of the hand from being played."""
    named = []
    for _ in range(max_clicks):
        page.wait_for_selector(f"{GAME_OVER}, {ENABLED_ACTION}", timeout=120_000)
        if limits is not None:
            for r in page.evaluate("() => (window.atutPage.view || {}).limits || []"):
                if r not in limits:
                    limits.append(r)
        coach = page.locator(COACH)
        if coach.count():
            rule = coach.get_attribute("data-rule")
            if not named or named[-1] != rule:
                named.append(rule)
            assert coach.get_attribute("aria-live") == "polite"
            assert coach.locator(f"[data-open-rule={rule}]").count() == 1
            box = coach.bounding_box()
            cards = page.evaluate(
                "() => [...document.querySelectorAll('[data-card]')]"
                ".filter((e) => !e.closest('[data-testid=coach]'))"
                ".map((e) => e.getBoundingClientRect().toJSON()).filter((r) => r.width > 0)")
            for other in cards:
                assert not overlaps(box, other), "the coach covers a card"
        if page.locator(GAME_OVER).count():
            return named
        controls = page.locator(ENABLED_ACTION)
        n = controls.count()
        if n:
            try:
                controls.nth(rng.randrange(n)).click(timeout=5_000)
            except Exception:
                continue
    return named


def test_the_coach_names_each_rule_once_and_opens_it(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=2, seed=12, seat=0, bots="random", lang="pl")
    named = play_watching(page, random.Random(5))
    assert named, "the coach said nothing in a first game"
    assert len(named) == len(set(named)), f"a rule named twice: {named}"
    # the event that named it has its rule (the engine's), and the words are Polish
    page.locator(GAME_OVER).wait_for()
    rule = named[-1]
    seen = page.evaluate("() => JSON.parse(localStorage.getItem('atut.coach.seen'))")
    assert rule in next(iter(seen.values()))


def test_the_coach_says_a_rule_that_keeps_cards_from_being_played(page, dist_url):
    """Following suit (and trumping) changes what is legal without an event: the view's
    ``limits`` name the rule, and the coach says it the first time, once."""
    open_game(page, dist_url, "euchre", players=4, seed=8, seat=0, bots="random", lang="en")
    limits: list[str] = []
    named = play_watching(page, random.Random(2), limits=limits)
    assert limits, "no card of the hand was ever refused in a whole game"
    assert set(limits) <= set(named), f"limits {limits}, named {named}"
    assert len(named) == len(set(named)), f"a rule named twice: {named}"


def test_the_coach_callout_opens_the_rules_at_its_rule(page, dist_url):
    open_game(page, dist_url, "cesarz", players=3, seed=4, seat=0, bots="random", lang="en")
    page.wait_for_selector(COACH, timeout=60_000)
    coach = page.locator(COACH)
    assert "New rule" in coach.inner_text()
    rule = coach.get_attribute("data-rule")
    coach.locator(f"[data-open-rule={rule}]").click()
    page.wait_for_selector(f"[data-testid=rules] #rule-{rule}.pointed")


def test_the_coach_is_off_by_choice_and_after_the_first_games(page, dist_url):
    open_game(page, dist_url, "cesarz", players=3, seed=4, seat=0, bots="random", lang="en")
    page.wait_for_selector(COACH, timeout=60_000)
    # by choice: the setting
    page.click("#btnSettings")
    page.select_option("[data-testid=settings-coach]", "off")
    assert page.evaluate("() => localStorage.getItem('atut.coach')") == "off"
    assert page.locator(COACH).count() == 0
    open_game(page, dist_url, "cesarz", players=3, seed=5, seat=0, bots="random", lang="en")
    page.wait_for_selector(ENABLED_ACTION)
    page.wait_for_timeout(500)
    assert page.locator(COACH).count() == 0
    # by itself: three games of cesarz counted already, the fourth has no coach
    page.evaluate("() => { localStorage.removeItem('atut.coach');"
                  " localStorage.setItem('atut.coach.games.cesarz', JSON.stringify(['a', 'b', 'c'])); }")
    open_game(page, dist_url, "cesarz", players=3, seed=6, seat=0, bots="random", lang="en")
    page.wait_for_selector(ENABLED_ACTION)
    page.wait_for_timeout(500)
    assert page.locator(COACH).count() == 0
    # another game's first game still has it
    open_game(page, dist_url, "euchre", players=4, seed=6, seat=0, bots="random", lang="en")
    page.wait_for_selector(COACH, timeout=60_000)
