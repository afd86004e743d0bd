"""Tapping a card of the hand that cannot be played: the page asks the engine (the worker's
`explain` op) and says why in the status line, in English the engine's reason, in Polish a Polish
sentence naming the rule; the game does not change."""

from __future__ import annotations

import re

import pytest

import atut
from atut.game import canonical
from harness import open_game, page_actions, saved_game, wait_for_turn

UNPLAYABLE = "[data-testid=hand] .card.disabled[data-card]"


def _to_an_unplayable_card(page, max_clicks: int = 200) -> str:
    """Click the first enabled control until the person's hand shows a card that cannot be
    played; returns its code."""
    for _ in range(max_clicks):
        assert wait_for_turn(page) == "turn", "the game ended before a card was unplayable"
        if page.locator(UNPLAYABLE).count():
            return page.locator(UNPLAYABLE).first.get_attribute("data-card")
        page.locator("[data-action]:not([disabled])").first.click()
    raise AssertionError("no unplayable card in the hand")


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_an_unplayable_card_says_why_and_changes_nothing(page, dist_url, lang):
    open_game(page, dist_url, "euchre", players=4, seed=3, seat=0, lang=lang)
    card = _to_an_unplayable_card(page)
    el = page.locator(f"{UNPLAYABLE}[data-card='{card}']")
    # it carries data-card, is no action and does not look enabled
    assert el.get_attribute("data-action") is None
    # (after the hand's short fade to its dimmed look)
    page.wait_for_function("(c) => parseFloat(getComputedStyle(document.querySelector("
                           "`[data-testid=hand] [data-card='${c}']`)).opacity) < 0.5", arg=card)
    before = page.evaluate("() => window.atutPage.view")
    actions = sorted(page_actions(page))
    game = atut.load_game(saved_game(page))
    reason = game.explain({"type": "play", "card": card})
    assert reason, f"{card} is legal for the engine"
    rule = re.search(r"\b([GE]\d+)\b", reason)
    el.click()
    refusal = page.locator("[data-testid=refusal]")
    refusal.wait_for(state="visible")
    text = refusal.text_content()
    if lang == "en":
        assert text == reason
    elif rule:
        assert text == f"Ten ruch jest niedozwolony (zasada {rule.group(1)})"
    else:
        assert text == "Ten ruch jest teraz niedozwolony"
    assert refusal.get_attribute("data-rule") == (rule.group(1) if rule else None)
    assert refusal.get_attribute("data-refused-card") == card
    # the game is unchanged: the same view, the same enabled controls, no error
    assert page.evaluate("() => window.atutPage.view") == before
    assert sorted(page_actions(page)) == actions
    assert sorted(page_actions(page)) == sorted(canonical(a) for a in before["legal_actions"])
    assert atut.load_game(saved_game(page)).to_json() == game.to_json()
    assert page.locator("[data-testid=error]").is_hidden()
    # the other language says it too
    other = "pl" if lang == "en" else "en"
    page.click(f"[data-testid=lang-{other}]")
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=other)
    text = refusal.text_content()
    assert text == (reason if other == "en" else
                    f"Ten ruch jest niedozwolony (zasada {rule.group(1)})" if rule else
                    "Ten ruch jest teraz niedozwolony")
    # a legal action plays on, and the notice goes away
    page.locator("[data-action]:not([disabled])").first.click()
    page.wait_for_function("() => !document.querySelector('[data-testid=refusal]')")
    assert len(atut.load_game(saved_game(page)).history) > len(game.history)
