"""The score walk-through in the page (docs/PAGE.md, "How the deal scored"): after a deal of
each game, played by clicking against bots, the table shows one line per score line the engine
gave, in the page's language, each with its rule id as a button that opens the rules at that
rule; the per-seat totals are the lines' sums and the change of the scores shown."""

from __future__ import annotations

import random
import re

import pytest

from harness import ENABLED_ACTION, GAME_OVER, open_game

WALK = "[data-testid=score-walk]"
LAST_WALK = f"[data-testid=last-deal] {WALK}"
TITLE = {"en": "How the deal scored", "pl": "Jak policzono rozdanie"}


def play_until_walk(page, rng, max_clicks=400) -> str:
    """Click random legal controls until a walk-through appears (the last deal's, or the game
    over box's); returns "deal" or "over"."""
    for _ in range(max_clicks):
        page.wait_for_selector(f"{LAST_WALK}, {GAME_OVER}, {ENABLED_ACTION}", timeout=120_000)
        if page.locator(LAST_WALK).count():
            return "deal"
        if page.locator(GAME_OVER).count():
            return "over"
        controls = page.locator(ENABLED_ACTION)
        n = controls.count()
        if not n:
            continue
        try:
            controls.nth(rng.randrange(n)).click(timeout=5_000)
        except Exception:            # the table was redrawn under the click: look again
            continue
    raise AssertionError("no deal ended")


def walk_numbers(walk) -> tuple[list[dict], dict[int, int]]:
    lines = walk.locator("[data-testid=walk-line]").evaluate_all(
        "els => els.map(e => ({key: e.dataset.key, rule: e.dataset.rule, seats: e.dataset.seats,"
        " score: e.dataset.score, text: e.innerText}))")
    totals = walk.locator("[data-testid=walk-total]").evaluate_all(
        "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.total)])")
    return lines, dict(totals)


def sums_of(lines, players) -> dict[int, int]:
    out = {s: 0 for s in range(players)}
    for line in lines:
        if line["score"] is None:
            continue
        for s in filter(None, line["seats"].split(",")):
            out[int(s)] += int(line["score"])
    return out


def check_lines(lines, lang):
    assert lines, "a walk-through without lines"
    for line in lines:
        assert re.fullmatch(r"G[1-9]\d*", line["rule"])
        assert "line." not in line["text"], f"no words for {line['key']} in {lang}"
        assert line["rule"] in line["text"]                  # the rule id's button


@pytest.mark.parametrize("game,players,lang", [
    ("cesarz", 3, "pl"), ("euchre", 4, "en"), ("imperial", 2, "pl"), ("tysiac1001", 3, "en"),
    ("tysiac1001", 4, "pl"), ("cesarz", 4, "en")])
def test_a_deals_walk_through_adds_up_to_the_score_change(page, dist_url, game, players, lang):
    open_game(page, dist_url, game, players=players, seed=11, seat=0, bots="random", lang=lang)
    if play_until_walk(page, random.Random(3)) == "over":
        pytest.fail("the game ended within its first deal")       # not for these seeds
    walk = page.locator(LAST_WALK)
    assert walk.locator("h3").inner_text().startswith(TITLE[lang])
    lines, totals = walk_numbers(walk)
    check_lines(lines, lang)
    assert totals == sums_of(lines, players)
    if game == "imperial":
        # points are scored during a deal and the next deal's declarations at once (G12): the
        # score sheet's row of the deal is its change
        row = page.locator(".sheet tbody tr").first.locator("td").all_inner_texts()
        assert [int(x) for x in row[1:]] == [totals[s] for s in range(players)]
    else:
        # the scores the last-deal panel shows ("name: before → after", or just the score):
        # after the first deal, the whole score is the deal's change (a sitting-out dealer's
        # credit came earlier in the deal, G16 / G10, and is one of its lines)
        spans = page.locator("[data-testid=last-deal] .dealscores span").all_inner_texts()
        assert len(spans) == players
        for s, text in enumerate(spans):
            after = int(re.findall(r"-?\d+", text.split(":", 1)[1])[-1])
            assert totals[s] == after, f"seat {s}: lines {totals[s]}, scores {text}"
    # a rule id opens the rules panel at that rule
    rule = lines[-1]["rule"]
    walk.locator(f"[data-testid=walk-line] [data-open-rule={rule}]").last.click()
    page.wait_for_selector(f"[data-testid=rules] #rule-{rule}.pointed")
    assert page.locator("[data-testid=rules]").get_attribute("lang") == lang


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_sixty_six_game_over_shows_the_walk_through(page, dist_url, lang):
    open_game(page, dist_url, "sixty_six", players=2, seed=12, seat=0, bots="random", lang=lang)
    assert play_until_walk(page, random.Random(5)) == "over"
    walk = page.locator(f"{GAME_OVER} {WALK}")
    assert walk.is_visible()
    assert walk.locator("h3").inner_text().startswith(TITLE[lang])
    lines, totals = walk_numbers(walk)
    check_lines(lines, lang)
    assert totals == sums_of(lines, 2)
    winner = int(page.locator(GAME_OVER).get_attribute("data-winner"))
    assert totals == {winner: 1, 1 - winner: 0}
    rows = page.locator("[data-testid=scores] tbody tr .score").all_inner_texts()
    assert [int(x) for x in rows] == [totals[0], totals[1]]
    assert lines[-1]["rule"] == "G14" and lines[-1]["score"] == "1"
