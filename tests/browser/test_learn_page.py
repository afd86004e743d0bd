"""Learn to play in the page (docs/PAGE.md "Learn to play"): each game's first lesson followed to
its end by the suggested moves alone.  Every step showed an explanation (what is happening, what
the person may do with its rule ids, the suggestion with its reason), the others' moves were told
in words, the guide never named a card the person cannot see (its cards, and those of the
engine's learn_step reply, are all in the person's view), and the score walk-through adds up to
the scores shown.  The menu has a lesson link per game; the suggestion is played by keyboard."""

from __future__ import annotations

import pytest

from harness import visible_cards

GAMES = ["cesarz", "euchre", "imperial", "sixty_six", "tysiac1001"]
GUIDE = "[data-testid=learn]:not([hidden])"
PLAY = "[data-testid=learn-play]:not([disabled])"
END = "[data-testid=learn-end]"


def open_lesson(page, url, game, lesson=0, lang="en", delay=0):
    if page.url.startswith(url):
        page.goto("about:blank")
    page.goto(f"{url}#learn={game}&lesson={lesson}&lang={lang}&delay={delay}&debug=1")
    page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
    page.wait_for_selector(GUIDE, timeout=60_000)


def step_ready(page, timeout=60_000):
    """Wait for the guide's next stop: a suggestion to play (for the view on the table) or the
    lesson's end."""
    page.wait_for_function(
        """() => {
          if (document.querySelector('[data-testid=learn-end]')) return true;
          const b = document.querySelector('[data-testid=learn-play]:not([disabled])');
          const v = window.atutPage.view;
          return !!b && !!v && v.to_move === window.atutPage.seat
            && (v.legal_actions || []).some((a) => window.atutPage.canonical(a) === b.dataset.action);
        }""", timeout=timeout)
    return "end" if page.locator(END).count() else "turn"


def check_fair(page):
    """The guide's cards and the engine's step name only cards of the person's view."""
    view = page.evaluate("() => window.atutPage.view")
    seen = visible_cards(view)
    shown = set(page.eval_on_selector_all(f"{GUIDE} [data-card]", "els => els.map((e) => e.dataset.card)"))
    assert shown <= seen, f"the guide shows cards the person cannot see: {shown - seen}"
    step = page.evaluate("() => window.atutPage.request('learn_step')")
    named = visible_cards(step)
    assert named <= seen, f"the guide's step names hidden cards: {named - seen}"


def follow(page, keyboard=False):
    """Take the suggested moves to the lesson's end; per step what the guide showed."""
    steps = []
    for _ in range(120):
        if step_ready(page) == "end":
            return steps
        guide = page.locator(GUIDE)
        check_fair(page)
        now = guide.locator("[data-testid=learn-step]").inner_text().strip()
        may = guide.locator("[data-testid=learn-may] li").count()
        may_rules = guide.locator("[data-testid=learn-may] [data-open-rule]").count()
        reason = guide.locator("[data-testid=learn-reason]").inner_text().strip()
        bots = guide.locator("[data-testid=learn-bot]").count()
        steps.append({"now": now, "may": may, "may_rules": may_rules, "reason": reason,
                      "bots": bots, "phase": guide.get_attribute("data-phase")})
        n = page.evaluate("() => window.atutPage.view.log.length")
        deal = page.evaluate("() => window.atutPage.view.deal_no")
        if keyboard:
            for _ in range(80):
                if page.evaluate("() => document.activeElement && document.activeElement.dataset.testid === 'learn-play'"):
                    break
                page.keyboard.press("ArrowRight")
            else:
                raise AssertionError("the arrow keys never reached the suggestion's button")
            page.keyboard.press("Enter")
        else:
            page.locator(PLAY).click()
        page.wait_for_function(
            "([n, d]) => { const v = window.atutPage.view; return v.deal_no !== d || v.log.length > n; }",
            arg=[n, deal], timeout=30_000)
    raise AssertionError("the lesson did not end")


def check_end(page):
    end = page.locator(END)
    walk = end.locator("[data-testid=score-walk]")
    assert walk.count() == 1, "the score walk-through is shown"
    assert walk.locator("[data-testid=walk-line]").count() > 0
    totals = {int(e.get_attribute("data-seat")): int(e.get_attribute("data-total"))
              for e in walk.locator("[data-testid=walk-total]").all()}
    shown = {int(e.get_attribute("data-seat")): int(e.get_attribute("data-after"))
             - int(e.get_attribute("data-before"))
             for e in end.locator("[data-testid=learn-score]").all()}
    assert totals == shown, f"the walk-through {totals} is not the change of the scores {shown}"
    # every line's rule id opens the rules panel
    assert walk.locator("[data-open-rule]").count() >= walk.locator("[data-testid=walk-line]").count()
    assert end.locator("[data-testid=learn-real]").count() == 1


@pytest.mark.parametrize("game", GAMES)
def test_a_lesson_followed_by_its_suggestions(page, dist_url, game):
    open_lesson(page, dist_url, game)
    guide = page.locator(GUIDE)
    assert guide.locator("[data-testid=learn-intro]").inner_text().strip()
    assert guide.locator(".learn-live").get_attribute("aria-live") == "polite"
    steps = follow(page)
    assert len(steps) >= 3
    for s in steps:
        assert s["now"] and s["may"] >= 1 and s["may_rules"] >= 1 and s["reason"], s
    assert any(s["bots"] for s in steps), "the others' moves were never told"
    # the rules' words are shown beside their ids
    check_end(page)
    # every game has two lessons or more: the next one starts from the end's button
    page.locator(f"{GUIDE} [data-testid=learn-next]").click()
    page.wait_for_function("() => location.hash.includes('lesson=1')")
    page.wait_for_selector(f"{GUIDE}:not([data-done='1']) [data-testid=learn-intro]")
    assert "lesson 2 of" in page.locator(f"{GUIDE} .learn-title").inner_text()


def test_the_menu_links_and_the_rules_words(page, dist_url):
    page.goto(dist_url + "#lang=pl")
    page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
    links = page.locator("[data-testid=learn-link]")
    links.first.wait_for()
    assert sorted(links.evaluate_all("els => els.map((e) => e.dataset.game)")) == GAMES
    assert "Naucz się" in page.locator("[data-testid=menu-learn]").inner_text()
    page.locator("[data-testid=learn-link][data-game=sixty_six]").click()
    page.wait_for_selector(GUIDE)
    step_ready(page)
    # the rules of the step in words (web/rules/<game>.pl.json) with their ids
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=learn-rule] .learn-rule-words')].some((e) => e.textContent.trim().length > 10)")
    assert "Podpowiedź" in page.locator(GUIDE).inner_text()
    rules = page.locator(f"{GUIDE} [data-testid=learn-rules]")
    if rules.get_attribute("open") is None:          # folded on a laptop's screen
        rules.locator("summary").click()
    page.locator(f"{GUIDE} [data-testid=learn-rule] [data-open-rule]").first.click()
    page.wait_for_selector("[data-testid=rules]")


def test_a_lesson_played_by_keyboard(page, dist_url):
    open_lesson(page, dist_url, "sixty_six", lesson=1)
    page.locator("body").click(position={"x": 2, "y": 2})
    steps = follow(page, keyboard=True)
    assert steps
    check_end(page)
    # the end's buttons are reached with Tab
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => (document.activeElement.dataset || {}).testid === 'learn-real'"):
            break
    else:
        raise AssertionError("Tab never reached 'Play a real game'")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash.includes('game=sixty_six') && !document.querySelector('[data-testid=learn]:not([hidden])')")
