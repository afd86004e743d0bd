"""Playing from the keyboard alone (issue #17, CONTRACT.md): the arrow keys move the focus over
the enabled [data-action] controls, Enter plays the focused one, the focus is visible, Esc
closes a panel; whose turn it is and each move are in aria-live regions.  Whole games of
sixty_six and euchre, and each other game into its second deal, with no click at all."""

from __future__ import annotations

import json
import random

import pytest

from harness import GAME_OVER, open_game, wait_for_turn

FOCUSED = """() => { const e = document.activeElement;
  return e && e.matches('[data-action]:not([disabled])')
    ? {action: e.dataset.action, visible: e.matches(':focus-visible')} : null; }"""


def play_by_keys(page, rng, until_deal=None, max_moves=3000) -> int:
    moves = 0
    while True:
        if wait_for_turn(page) == "over":
            return moves
        v = page.evaluate("() => window.atutPage.view")
        if until_deal is not None and (v.get("deal_no") or 0) >= until_deal:
            return moves
        legal = sorted(json.dumps(a, sort_keys=True) for a in v["legal_actions"])
        for _ in range(rng.randrange(4) + 1):
            page.keyboard.press(rng.choice(["ArrowRight", "ArrowDown", "ArrowLeft"]))
        got = page.evaluate(FOCUSED)
        assert got is not None, "the arrows did not focus an enabled control"
        assert got["visible"], "the focus is not visible"
        assert json.dumps(json.loads(got["action"]), sort_keys=True) in legal
        page.keyboard.press("Enter")
        moves += 1
        assert moves <= max_moves


@pytest.mark.parametrize("game,players,seed", [("sixty_six", 2, 3), ("euchre", 4, 5)])
def test_whole_game_from_the_keyboard(page, dist_url, game, players, seed):
    open_game(page, dist_url, game, players, seed=seed, bots="1")
    moves = play_by_keys(page, random.Random(seed))
    assert moves >= 3
    assert page.locator(GAME_OVER).is_visible()
    # the last move was read out
    assert page.locator("[data-testid=announce]").text_content().strip()


@pytest.mark.parametrize("game,players", [("cesarz", 3), ("imperial", 2), ("tysiac1001", 3)])
def test_first_deal_from_the_keyboard(page, dist_url, game, players):
    open_game(page, dist_url, game, players, seed=2, bots="1")
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
