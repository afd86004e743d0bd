"""The play aids on the page: a hint lists every legal action with a value and marks the
suggested one; undo (button and key U) twice gives back exactly the earlier views; the deal then
plays to its end.  Screenshots of the hint panel go to /tmp (a person looks at them)."""

from __future__ import annotations

import json

import atut
from harness import (
    ENABLED_ACTION,
    GAME_OVER,
    open_game,
    page_actions,
    play_whole_game,
    wait_for_turn,
)

SAME = "(v) => JSON.stringify(window.atutPage.view) === JSON.stringify(v)"


def _view(page):
    return page.evaluate("() => window.atutPage.view")


def _decide(page):
    """Play the first enabled action at the person's next turn with a choice; the view before."""
    while True:
        assert wait_for_turn(page) == "turn"
        v = _view(page)
        page.locator(ENABLED_ACTION).first.click()
        if len(v["legal_actions"]) > 1:
            return v


def test_hint_undo_twice_and_finish_the_deal(page, dist_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_game(page, dist_url, "sixty_six", players=2, seed=11, bots="rules")
    before = [_decide(page), _decide(page)]
    assert wait_for_turn(page) == "turn"
    page.wait_for_selector("[data-testid=hint]")
    page.locator("[data-testid=hint]").click()
    panel = page.wait_for_selector("[data-testid=hint-panel]", timeout=60_000)
    rows = page.eval_on_selector_all(
        "[data-testid=hint-panel] [data-hint-action]",
        "els => els.map(e => [e.dataset.hintAction, Number(e.dataset.value)])")
    legal = sorted(json.dumps(a, sort_keys=True, separators=(",", ":"))
                   for a in _view(page)["legal_actions"])
    assert sorted(k for k, _ in rows) == legal
    assert sorted(page_actions(page)) == legal
    assert all(isinstance(v, float) and v == v for _, v in rows)
    assert page.locator(".hinted").count() >= 1
    page.screenshot(path="/tmp/hint-1280.png")
    page.set_viewport_size({"width": 390, "height": 844})
    panel.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/hint-390.png")
    page.set_viewport_size({"width": 1280, "height": 800})
    # undo twice: the button, then the key
    page.locator("[data-testid=undo]").click()
    page.wait_for_function(SAME, arg=before[1], timeout=30_000)
    assert _view(page) == before[1]
    page.wait_for_selector("[data-testid=undo]")
    page.keyboard.press("u")
    page.wait_for_function(SAME, arg=before[0], timeout=30_000)
    assert _view(page) == before[0]
    assert page.locator("[data-testid=hint-panel]").count() == 0
    save = json.loads(page.evaluate("() => window.atutPage.request('save')"))
    assert len(save["undos"]) == 2
    play_whole_game(page, dist_url, "sixty_six", players=2, seed=11, open_page=False)
    assert page.locator(GAME_OVER).is_visible()
    # the grades are computed in the background from the deal's end, before Review is opened
    page.wait_for_selector("body[data-pregrade=done]", timeout=180_000)
    # the deal's review: open hands (past cards, no data-card), grades as they arrive
    page.locator("[data-testid=review]").click()
    page.wait_for_selector("[data-testid=review-panel]")
    assert page.locator("[data-testid=review-panel] .review-grade.pending").count() == 0
    assert page.locator("[data-testid=review-panel] [data-card]").count() == 0
    assert page.locator("[data-testid=review-panel] [data-past-card]").count() > 0
    page.wait_for_function("() => /\\(([1-9]\\d*) /.test(document.querySelector("
                           "'[data-testid=review-summary]').textContent)", timeout=120_000)
    first = page.locator("[data-testid=review-step]").get_attribute("data-step-index")
    page.locator("[data-testid=review-next]").click()
    page.keyboard.press("ArrowRight")
    assert int(page.locator("[data-testid=review-step]").get_attribute("data-step-index")) \
        == int(first) + 2
    page.keyboard.press("End")
    assert page.locator("[data-testid=review-next]").is_disabled()
    page.screenshot(path="/tmp/review-1280.png")
    # "Why did the bot do that?": at a bot's move the review tells its search, the deal over
    page.keyboard.press("Home")
    for _ in range(40):
        if page.locator("[data-testid=review-why]").count():
            break
        page.keyboard.press("ArrowRight")
    page.locator("[data-testid=review-why]").click()
    why = page.wait_for_selector("[data-testid=review-why-panel]", timeout=120_000)
    assert page.locator("[data-testid=review-why-panel] .teach-opt").count() >= 2
    assert "Teach" not in why.inner_text() and why.inner_text().strip()
    page.screenshot(path="/tmp/review-why-1280.png")


def test_hints_and_undo_can_be_turned_off(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=2, seed=5, bots="rules")
    assert wait_for_turn(page) == "turn"
    page.wait_for_selector("[data-testid=hint]")
    page.locator("[data-testid=open-menu]").click()
    page.locator("input[data-aid=hints]").uncheck()
    page.locator("input[data-aid=undo]").uncheck()
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    assert wait_for_turn(page) == "turn"
    page.keyboard.press("h")
    page.wait_for_timeout(300)
    assert page.locator("[data-testid=hint]").count() == 0
    assert page.locator("[data-testid=hint-panel], [data-testid=hint-progress]").count() == 0
    assert page.locator("[data-testid=undo]").count() == 0


def test_teaching_mode_opens_every_hand_and_shows_the_bots_options(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=2, seed=8, bots="search", open="1")
    page.wait_for_selector("[data-testid=teach-panel]")
    save = json.loads(page.evaluate("() => window.atutPage.request('save')"))
    assert save["teach"] is True
    g = atut.load_game(json.dumps(save))
    bot_cards = set(atut.cards.codes(atut.cards.cards_of(g.hands[1])))
    shown = set(page.eval_on_selector_all("[data-testid=teach-panel] [data-card]",
                                          "els => els.map(e => e.dataset.card)"))
    assert bot_cards <= shown
    assert "open=1" in page.url
    for _ in range(8):
        if page.locator("[data-testid=teach-note]").count():
            break
        assert wait_for_turn(page) == "turn"
        page.locator(ENABLED_ACTION).first.click()
        page.wait_for_timeout(500)
    assert page.locator("[data-testid=teach-note]").count() >= 1
    # what the bot believed about the person, beside its options: the same as its analysis
    bel = page.locator("[data-testid=teach-beliefs][data-seat='1'] li[data-about='0']")
    assert bel.count() == 1 and "{" not in bel.inner_text() and "ui.teach" not in bel.inner_text()
    shown = set(bel.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert shown                                # sure or likely cards, drawn as cards
    assert page.locator(".felt[data-teach]").count() == 1       # marked on the table
    page.screenshot(path="/tmp/teach-1280.png")


def test_the_hint_gives_its_reason_in_a_sentence(page, dist_url):
    from atut.analysis import reason
    open_game(page, dist_url, "sixty_six", players=2, seed=11, bots="rules")
    found = 0
    for _ in range(12):
        if wait_for_turn(page) != "turn":
            break
        v = _view(page)
        if len(v["legal_actions"]) > 1:
            page.wait_for_selector("[data-testid=hint]")
            page.locator("[data-testid=hint]").click()
            page.wait_for_selector("[data-testid=hint-panel]", timeout=60_000)
            best = json.loads(page.locator("[data-action].hinted").first.get_attribute("data-action"))
            want = reason("sixty_six", v, best)
            got = page.locator("[data-testid=hint-reason]")
            assert got.count() == (1 if want else 0)
            if want:
                assert got.get_attribute("data-reason") == want["key"]
                text = got.inner_text()
                assert "reason." not in text and "{" not in text and len(text) > 10
                found += 1
                if found == 1:
                    page.screenshot(path="/tmp/hint-reason.png")
        page.locator(ENABLED_ACTION).first.click()
    assert found >= 1


# hold the worker's hint replies back (as a slow search would) until the test calls
# window.__releaseHints() (then they pass until window.__holdHints()); every other reply passes
# at once
SLOW_HINTS = """(() => {
  const Orig = window.Worker;
  const held = [];
  let open = false;
  window.__releaseHints = () => { open = true; while (held.length) held.shift()(); };
  window.__holdHints = () => { open = false; };
  window.Worker = class extends Orig {
    constructor(url, opts) { super(url, opts); this.hintIds = new Set(); }
    postMessage(m, ...rest) {
      if (m && m.op === "hint") this.hintIds.add(m.id);
      return super.postMessage(m, ...rest);
    }
    set onmessage(fn) {
      super.onmessage = (e) => {
        if (!open && e.data && this.hintIds.has(e.data.id)) held.push(() => fn(e));
        else fn(e);
      };
    }
    get onmessage() { return super.onmessage; }
  };
})();"""
CLICK_HINT = """() => { document.querySelector('[data-testid=hint]').click();
  return document.querySelectorAll('[data-testid=hint-progress], [data-testid=hint-panel]').length; }"""


def _to_decision(page):
    while True:
        assert wait_for_turn(page) == "turn"
        v = _view(page)
        if len(v["legal_actions"]) > 1:
            return v
        page.locator(ENABLED_ACTION).first.click()


def test_a_slow_hint_shows_its_progress_and_the_table_stays_playable(page, dist_url):
    page.add_init_script(SLOW_HINTS)
    open_game(page, dist_url, "sixty_six", players=2, seed=11, bots="rules")
    v = _to_decision(page)
    page.wait_for_selector("[data-testid=hint]")
    # nothing at once (a quick hint shows no progress), then the progress line with the seconds
    assert page.evaluate(CLICK_HINT) == 0
    prog = page.wait_for_selector("[data-testid=hint-progress]")
    assert page.locator(".hint-spin").count() == 1
    page.wait_for_function("() => /\\d\\.\\d s/.test(document.querySelector("
                           "'[data-testid=hint-progress] .hint-secs').textContent)")
    assert "hint" in prog.inner_text().lower()
    page.screenshot(path="/tmp/hint-progress-1280.png")
    # still playable: a card played meanwhile is taken; the late hint (of the old view) is dropped
    page.locator(ENABLED_ACTION).first.click()
    page.wait_for_function("(v) => JSON.stringify(window.atutPage.view) !== JSON.stringify(v)",
                           arg=v, timeout=30_000)
    page.evaluate("() => window.__releaseHints()")
    page.wait_for_function("() => !document.querySelector('[data-testid=hint-progress]')")
    v = _to_decision(page)
    assert page.locator("[data-testid=hint-panel], [data-testid=hint-progress]").count() == 0
    # the next hint, held back as well, shows its panel once its reply is let through
    page.evaluate("() => window.__holdHints()")
    page.wait_for_selector("[data-testid=hint]")
    assert page.evaluate(CLICK_HINT) == 0
    page.wait_for_selector("[data-testid=hint-progress]")
    page.evaluate("() => window.__releaseHints()")
    page.wait_for_selector("[data-testid=hint-panel]", timeout=60_000)
    assert page.locator("[data-testid=hint-progress]").count() == 0
    assert page.locator(".hinted").count() >= 1
