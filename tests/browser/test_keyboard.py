"""Playing from the keyboard alone (docs/PAGE.md, CONTRACT.md): the arrow keys move the focus over
the enabled [data-action] controls, Enter plays the focused one, the focus is visible, Esc
closes a panel; whose turn it is and each move are in aria-live regions.

A whole game of each of the five games, with no click at all: the bots at level 1 with no
delay; the person's choices are made by the rule-based level-2 bot (run here, in CPython, on the
page's own view: it only picks which control to go to, the arrows and Enter do the playing), so
that the long games (cesarz to 2000, 1001 to 1001 points; no game has an option for a lower
target) end in about 150 decisions instead of many hundreds.  In sixty_six the finished tricks
are kept on the table (the pace option) and `N` takes the game on after each."""

from __future__ import annotations

import json
import random

import pytest

import atut
from harness import ENABLED_ACTION, GAME_OVER, open_game, wait_for_turn

FOCUSED = """() => { const e = document.activeElement;
  return e && e.matches('[data-action]:not([disabled])')
    ? {action: e.dataset.action, visible: e.matches(':focus-visible')} : null; }"""
CONTINUE = "[data-testid=continue]"
# the focused control's place, the target's, and how many there are (the arrows' order: the
# enabled [data-action] controls of the table as they are on the page)
PLACES = """(target) => {
  const canon = (x) => Array.isArray(x) ? "[" + x.map(canon).join(",") + "]"
    : x && typeof x === "object" ? "{" + Object.keys(x).sort().map((k) => JSON.stringify(k) + ":" + canon(x[k])).join(",") + "}"
    : JSON.stringify(x);
  const list = [...document.querySelectorAll("#table [data-action]:not([disabled])")].filter((b) => b.offsetParent !== null);
  return [list.indexOf(document.activeElement), list.findIndex((b) => canon(JSON.parse(b.dataset.action)) === target), list.length];
}"""


def canon(a) -> str:
    return json.dumps(a, sort_keys=True, separators=(",", ":"))


def play_by_keys(page, rng, chooser=None, until_deal=None, max_moves=1500, held=False) -> int:
    """Play with the arrows and Enter (N after a kept trick) until the game's end (or the first
    turn of deal `until_deal`); returns the number of the person's moves."""
    moves = 0
    continued = 0
    while True:
        page.wait_for_selector(f"{GAME_OVER}, {ENABLED_ACTION}, {CONTINUE}", timeout=60_000)
        if page.locator(GAME_OVER).count():
            assert not held or continued > 0, "no finished trick was kept on the table"
            return moves
        if page.locator(CONTINUE).count():
            assert held, "a finished trick waits for a key, with the option off"
            page.keyboard.press("n")
            page.wait_for_function("() => !document.querySelector('[data-testid=continue]')")
            continued += 1
            continue
        v = page.evaluate("() => window.atutPage.view")
        if until_deal is not None and (v.get("deal_no") or 0) >= until_deal:
            return moves
        legal = {canon(a) for a in v["legal_actions"]}
        target = canon(chooser.choose(v)) if chooser else None
        step = rng.choice(["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"])
        presses = rng.randrange(3) + 1
        if target is not None:
            # how many presses of the arrow reach the chosen control (in the table's order)
            at, to, n = page.evaluate(PLACES, target)
            assert to >= 0, f"no control of the table plays {target}"
            back = step in ("ArrowLeft", "ArrowUp")
            first = (n - 1 if back else 0) if at < 0 else at
            presses = (1 if at < 0 else 0) + ((first - to) % n if back else (to - first) % n)
        for _ in range(presses):
            page.keyboard.press(step)
        got = page.evaluate(FOCUSED)
        assert got is not None, "the arrows did not focus an enabled control"
        assert got["visible"], "the focus is not visible"
        picked = canon(json.loads(got["action"]))
        assert picked in legal
        assert target is None or picked == target, f"the arrows reached {picked}, not {target}"
        page.keyboard.press("Enter")
        moves += 1
        assert moves <= max_moves


@pytest.mark.parametrize("game,players,seed", [("sixty_six", 2, 3), ("euchre", 4, 5), ("cesarz", 3, 2),
                                               ("imperial", 2, 4), ("tysiac1001", 3, 2)])
def test_whole_game_from_the_keyboard(page, dist_url, game, players, seed):
    held = game == "sixty_six"
    if held:         # the finished tricks wait on the table: N goes on
        page.add_init_script("try { localStorage.setItem('atut.pace.keeptrick', 'on'); } catch (e) {}")
    open_game(page, dist_url, game, players, seed=seed, bots="1")
    moves = play_by_keys(page, random.Random(seed), atut.make_bot(game, 2, seed=seed), held=held)
    assert moves >= 3
    assert page.locator(GAME_OVER).is_visible()
    # the last move was read out
    assert page.locator("[data-testid=announce]").text_content().strip()
    # N: on to the next game (the menu)
    page.keyboard.press("n")
    page.locator("[data-testid=menu]").wait_for(state="visible", timeout=10_000)


def test_random_keys_into_the_second_deal(page, dist_url):
    """Any enabled control may be played from the keyboard (random arrows, not a bot's pick)."""
    open_game(page, dist_url, "tysiac1001", 3, seed=2, bots="1")
    moves = play_by_keys(page, random.Random(1), until_deal=2)
    assert moves > 5
    assert page.get_attribute("[data-testid=status]", "aria-live") == "polite"


def test_escape_closes_panels_and_question_mark_opens_rules(page, dist_url):
    open_game(page, dist_url, "sixty_six", 2, seed=3, bots="1")
    wait_for_turn(page)
    page.keyboard.press("?")
    page.locator("[data-testid=rules]").wait_for(state="visible")
    page.keyboard.press("ArrowRight")           # the panel is open: the table keeps its focus
    assert page.evaluate(FOCUSED) is None
    page.keyboard.press("Escape")
    page.locator("[data-testid=rules]").wait_for(state="detached")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED) is not None
