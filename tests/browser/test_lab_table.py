"""Your bot at the table (docs/LAB.md, web/lib/lab/table.js) in Chromium with real Pyodide: a bot
typed into the lab's editor is seated against the person, who plays a deal to the end; the
bot watched in the person's seat plays a whole game with open hands while the person's
controls stay disabled; a bot that raises (or loops) at the table shows the notice in the
page's language and the level-2 rules finish the game; partnering it in euchre seats it
across; a reload resumes the game with the bot taken from the saved bots by name, and a bot no
longer saved is said so and replaced by level 2.

Every check that the student's bot (and not the level-2 stand-in) played compares the table's
save (debug=1) with the bot's rule replayed in CPython: each of its seat's actions is the
first legal action of that seat's view then.  Screenshots go to /tmp (a person looks)."""

from __future__ import annotations

import json

import pytest
from test_lab_page import READY, set_code

import atut
from harness import ENABLED_ACTION, GAME_OVER, page_actions, saved_game, wait_for_turn

FIRST = "def choose(view):\n    # the first legal action\n    return view['legal_actions'][0]\n"
TABLE_BOT = "[data-testid=seat-bot]"
NOTICE = "[data-testid=notice-labbot]"


def open_lab(page, url, game="sixty_six", lang="en"):
    page.goto(f"{url}#lab={game}&lang={lang}&debug=1")
    page.wait_for_selector(READY, timeout=240_000)
    page.wait_for_function("() => window.atutLab && window.atutLab.text && "
                           "window.atutLab.text.includes('def choose')", timeout=60_000)
    page.wait_for_selector("body[data-engine=ready]", timeout=240_000)


def seat(page, mode, name="bot.py", players=None, against=None, speed=None, limit=None):
    page.fill("[data-testid=lab-name]", name)
    if players:
        page.select_option("[data-testid=lab-players]", str(players))
    if against:
        page.select_option("[data-testid=lab-against-seats]", against)
    if speed is not None:
        page.select_option("[data-testid=lab-speed]", str(speed))
    if limit is not None:
        page.fill("[data-testid=lab-limit]", str(limit))
    testid = {"against": "lab-play-against", "partner": "lab-partner",
              "watch": "lab-table-watch"}[mode]
    page.click(f"[data-testid={testid}]")
    page.wait_for_function("() => window.atutLabTable && window.atutLabTable.bot", timeout=240_000)
    assert page.locator("[data-testid=lab]").is_hidden()


def bot_moves(page, seats, first=True):
    """The bot's seats' actions in the table's save, checked against the first-legal rule
    replayed in CPython (``first``), or the count of those that are not (``first=False``)."""
    data = json.loads(saved_game(page))
    g = atut.new_game(data["game"], players=data["players"], seed=data["seed"],
                      options=data.get("options") or {})
    mine = other = 0
    for a in data["actions"]:
        s = g.to_move
        if s in seats:
            if a == g.view(s)["legal_actions"][0]:
                mine += 1
            else:
                other += 1
        g.apply(a)
    if first:
        assert other == 0, f"{other} of the bot seats' moves were not the bot's"
    return mine, other


def play_to_the_end(page, max_clicks=400, on_turn=None):
    clicks = 0
    while wait_for_turn(page, timeout=120_000) == "turn":
        if on_turn:
            on_turn(page)
        page.locator(ENABLED_ACTION).first.click()
        clicks += 1
        assert clicks < max_clicks
    return clicks


def test_a_typed_bot_plays_against_you_a_deal_to_the_end(page, dist_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_lab(page, dist_url, "sixty_six")
    set_code(page, FIRST, typing=True)
    for w, h in ((390, 844), (1280, 800)):         # the lab's "At the table" buttons
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(200)
        page.screenshot(path=f"/tmp/lab-table-buttons-{w}.png")
    assert page.locator("[data-testid=lab-partner]").is_hidden()      # euchre only
    seat(page, "against", name="firstbot.py", players=2)
    assert page.evaluate("() => window.atutLabTable.bot") == {
        "name": "firstbot.py", "mode": "against", "seats": {"1": "firstbot.py"}, "fallen": False}
    tag = page.locator(f"[data-seat='1'] {TABLE_BOT}")
    tag.wait_for()
    assert "firstbot.py" in tag.inner_text() and tag.get_attribute("data-bot") == "firstbot.py"
    # the link cannot carry the bot's code: level 2 in its seat
    assert "bots=2" in page.evaluate("() => location.hash")
    page.screenshot(path="/tmp/lab-table-against-1280.png")
    clicks = play_to_the_end(page)
    assert clicks > 0 and page.locator(GAME_OVER).is_visible()
    mine, _ = bot_moves(page, {1})
    assert mine >= 5                               # the student's bot played its seat
    assert page.locator(NOTICE).count() == 0
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    page.screenshot(path="/tmp/lab-table-over-390.png")


def test_watch_mode_plays_a_whole_game_with_the_bot(page, dist_url):
    page.set_viewport_size({"width": 390, "height": 844})
    open_lab(page, dist_url, "sixty_six")
    set_code(page, FIRST)
    seat(page, "watch", name="watched.py", players=3, speed=0)
    page.locator(f"[data-seat='0'] {TABLE_BOT}").wait_for()
    assert page.evaluate("() => document.querySelector('#felt').dataset.teach") # open hands
    shot = False
    enabled = []
    while not page.locator(GAME_OVER).count():
        enabled += page_actions(page)             # the person only watches
        if not shot and page.locator("[data-testid=hand] [data-card]").count():
            page.screenshot(path="/tmp/lab-table-watch-390.png")
            shot = True
        page.wait_for_timeout(150)
    assert enabled == [], enabled
    assert page.locator(NOTICE).count() == 0, page.locator(NOTICE).inner_text()
    mine, _ = bot_moves(page, {0})
    assert mine >= 5
    assert page.evaluate("() => window.atutPage.view.is_over")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(300)
    page.screenshot(path="/tmp/lab-table-watch-1280.png")


RAISES = ("n = 0\n\n\ndef choose(view):\n    global n\n    n += 1\n"
          "    if n == 1:\n        raise ZeroDivisionError(str(view['hand']))\n"
          "    return view['legal_actions'][0]\n")


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_bot_that_raises_at_the_table_shows_the_notice_and_the_game_goes_on(page, dist_url, lang):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_lab(page, dist_url, "sixty_six", lang=lang)
    set_code(page, RAISES)
    seat(page, "against", name="raiser.py", players=2)
    for _ in range(40):                           # the bot's first decision raises
        if page.locator(NOTICE).count():
            break
        assert wait_for_turn(page, timeout=120_000) == "turn"
        page.locator(ENABLED_ACTION).first.click()
        page.wait_for_timeout(100)
    page.wait_for_selector(NOTICE, timeout=240_000)
    text = page.locator(NOTICE).inner_text()
    assert "raiser.py" in text and "ZeroDivisionError" in text and "8" in text   # line 8
    if lang == "en":
        assert "rest of the game" in text and "level-2" in text
    else:
        assert "resztę gry" in text and "poziomu 2" in text
    # the bot's message (its hand) is not shown: the page never gets the bot seat's cards
    hand = page.evaluate("() => window.atutPage.view.hand")
    assert "[" not in text and not any(c in text.split() for c in hand)
    assert page.evaluate("() => window.atutLabTable.bot.fallen")
    page.locator(f"[data-seat='1'] {TABLE_BOT}.fallen").wait_for()
    page.screenshot(path=f"/tmp/lab-table-notice-{lang}.png")
    play_to_the_end(page)
    assert page.locator(GAME_OVER).is_visible()
    mine, other = bot_moves(page, {1}, first=False)
    assert mine + other >= 3                      # level 2 played its seat after the error
    assert page.locator(NOTICE).count() == 1      # the notice stays until closed


def test_an_endless_loop_at_the_table_is_stopped_by_the_limit(page, dist_url):
    open_lab(page, dist_url, "sixty_six")
    set_code(page, "def choose(view):\n    while True:\n        pass\n")
    seat(page, "against", name="looper.py", players=2, limit=1)
    page.wait_for_selector(NOTICE, timeout=240_000)
    text = page.locator(NOTICE).inner_text()
    assert "looper.py" in text and "longer than 1 s" in text
    assert page.evaluate("() => 1 + 1") == 2      # the page answers
    play_to_the_end(page)
    assert page.locator(GAME_OVER).is_visible()


def test_partner_it_in_euchre_and_a_reload_resumes_with_the_saved_bot(page, dist_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_lab(page, dist_url, "euchre")
    set_code(page, FIRST)
    seat(page, "partner", name="partner.py")
    tag = page.locator(f"[data-seat='2'] {TABLE_BOT}")
    tag.wait_for()
    assert page.locator("[data-seat='2']").get_attribute("data-place") == "partner"
    page.screenshot(path="/tmp/lab-table-partner-1280.png")
    # a few decisions of the person, then a reload: the game resumes with the bot
    for _ in range(3):
        assert wait_for_turn(page, timeout=120_000) == "turn"
        page.locator(ENABLED_ACTION).first.click()
    wait_for_turn(page, timeout=120_000)
    page.evaluate("() => window.atutPage.flush()")
    before = json.loads(saved_game(page))["actions"]
    page.reload()
    page.wait_for_function("() => window.atutLabTable && window.atutLabTable.bot", timeout=240_000)
    assert page.evaluate("() => window.atutLabTable.bot.seats") == {"2": "partner.py"}
    page.locator(f"[data-seat='2'] {TABLE_BOT}").wait_for()
    assert json.loads(saved_game(page))["actions"][:len(before)] == before
    for _ in range(4):
        if wait_for_turn(page, timeout=120_000) == "over":
            break
        page.locator(ENABLED_ACTION).first.click()
    wait_for_turn(page, timeout=120_000)
    mine, _ = bot_moves(page, {2})
    assert mine >= 2
    assert page.locator(NOTICE).count() == 0
    # the bot deleted from the saved bots: the reload says so and seats level 2
    page.evaluate("() => window.atutPage.flush()")
    page.evaluate("() => localStorage.setItem('atut.lab.bots', '{}')")
    page.reload()
    page.wait_for_selector(NOTICE, timeout=240_000)
    assert "partner.py" in page.locator(NOTICE).inner_text()
    assert page.evaluate("() => window.atutLabTable.notice") == "lab.table.missing"
    n = len(json.loads(saved_game(page))["actions"])
    for _ in range(3):
        if wait_for_turn(page, timeout=120_000) == "over":
            break
        page.locator(ENABLED_ACTION).first.click()
    wait_for_turn(page, timeout=120_000)
    assert len(json.loads(saved_game(page))["actions"]) > n      # level 2 plays its seat


def test_a_reload_while_watching_resumes_the_watched_game(page, dist_url):
    open_lab(page, dist_url, "sixty_six")
    set_code(page, FIRST)
    seat(page, "watch", name="again.py", players=3, speed=300)
    page.wait_for_function("() => window.atutPage.view && window.atutPage.view.log.length > 4",
                           timeout=120_000)
    page.evaluate("() => window.atutPage.flush()")
    n = len(json.loads(saved_game(page))["actions"])
    page.reload()
    page.wait_for_function("() => window.atutLabTable && window.atutLabTable.bot", timeout=240_000)
    assert page.evaluate("() => window.atutLabTable.bot") == {
        "name": "again.py", "mode": "watch", "seats": {"0": "again.py"}, "fallen": False}
    enabled = []
    while not page.locator(GAME_OVER).count():
        enabled += page_actions(page)
        page.wait_for_timeout(150)
    assert enabled == [], enabled
    data = json.loads(saved_game(page))
    assert len(data["actions"]) > n
    mine, _ = bot_moves(page, {0})
    assert mine >= 5
    assert page.locator(NOTICE).count() == 0
