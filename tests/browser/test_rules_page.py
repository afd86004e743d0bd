"""Rules in the app (docs/PAGE.md): each game's rules, generated at build time from
docs/rules/<game>.md (tools/rules_html.py -> web/rules/<game>.<lang>.json), in English and
Polish, opened from the top bar's Rules button, from the menu and with the key "?"; every rule
and worked example of the notes under its id; the rules that depart from a common variant
marked as such; Esc closes the panel; a refusal that names a rule opens the panel at it."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import build
from harness import open_game, wait_for_turn

sys.path.insert(0, str(Path(build.ROOT) / "tests"))
from test_rules_docs import doc_entries  # noqa: E402

GAMES = ["cesarz", "euchre", "imperial", "sixty_six", "tysiac1001"]


@pytest.mark.parametrize("game", GAMES)
def test_generated_files_hold_every_entry(dist_url, game):
    """The built JSON (both languages) has every entry of the notes, in order, with the
    departures marked, and no developer note (Code, Test)."""
    entries = doc_entries(game)
    for lang in ("en", "pl"):
        d = json.loads((build.DIST / "web" / "rules" / f"{game}.{lang}.json").read_text("utf-8"))
        ids = [e["id"] for p in d["parts"] for g in p["groups"] for e in g["entries"]]
        assert ids == list(entries), lang
        got = {e["id"]: e for p in d["parts"] for g in p["groups"] for e in g["entries"]}
        for rid, e in entries.items():
            assert got[rid]["departs"] == bool({"Our reading", "Common variant"} & set(e["notes"]))
            kinds = {n["kind"] for n in got[rid]["notes"]}
            assert not kinds & {"Code", "Test"}
            if rid.startswith("E"):
                assert "Outcome" in kinds
        assert d["summary"].startswith("<p>")
        if lang == "pl":
            assert d["summary_lang"] == "pl" and d["parts"][0]["title"] == "Zasady"
            assert d["parts"][1]["title"] == "Przykłady"


def test_rules_from_the_table_button_key_and_refusal(page, dist_url):
    open_game(page, dist_url, "euchre", players=4, seed=3, seat=0, bots="1")
    wait_for_turn(page)
    button = page.locator("[data-testid=open-rules]")
    assert button.inner_text() == "Rules"
    button.click()
    panel = page.locator("[data-testid=rules]")
    panel.wait_for(state="visible")
    assert panel.get_attribute("data-game") == "euchre"
    assert "Rules: Euchre" in panel.locator("h2").inner_text()
    ids = page.eval_on_selector_all("[data-testid=rules] [data-rule]", "els => els.map(e => e.dataset.rule)")
    assert ids == list(doc_entries("euchre"))
    # the departures say so plainly, the worked examples have their outcome
    g4 = panel.locator("#rule-G4")
    assert "differs from a common variant" in g4.inner_text() and "Our reading:" in g4.inner_text()
    assert "Outcome:" in panel.locator("#rule-E1").inner_text()
    # inside the viewport, Esc closes it and the table's controls are back
    box = panel.bounding_box()
    vw = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= vw["width"] + 1
    page.keyboard.press("Escape")
    panel.wait_for(state="detached")
    # the key ? opens it (and again closes it); in Polish the words are Polish
    page.keyboard.press("?")
    panel.wait_for(state="visible")
    page.locator("[data-testid=rules-close]").click()
    panel.wait_for(state="detached")
    page.locator("[data-testid=lang-pl]").click()
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    assert button.inner_text() == "Zasady"
    page.keyboard.press("?")
    panel.wait_for(state="visible")
    text = panel.inner_text()
    assert "Zasady: Euchre" in text and "Przykłady" in text and "Atut i starszeństwo kart" in text
    assert "inaczej niż w popularnym wariancie" in panel.locator("#rule-G4").inner_text()
    assert "Czterech graczy w stałych parach" in text
    page.keyboard.press("Escape")
    panel.wait_for(state="detached")


def test_rules_from_the_menu_for_the_chosen_game(page, dist_url):
    page.goto(dist_url + "#lang=en")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.locator("input[name=game][value=sixty_six]").check(force=True)
    page.locator("[data-testid=menu-rules]").click()
    panel = page.locator("[data-testid=rules]")
    panel.wait_for(state="visible")
    assert panel.get_attribute("data-game") == "sixty_six"
    assert panel.locator("[data-rule]").count() == len(doc_entries("sixty_six"))


def test_a_refusal_opens_its_rule(page, dist_url):
    """Tapping a card that cannot be played says why with the rule id; clicking the message
    opens the rules at that rule."""
    open_game(page, dist_url, "euchre", players=4, seed=3, seat=0, bots="1")
    for _ in range(40):
        wait_for_turn(page)
        dimmed = page.locator("#hand .card.disabled")
        if dimmed.count():
            dimmed.first.click()
            refusal = page.locator("[data-testid=refusal]")
            refusal.wait_for(state="visible")
            rule = refusal.get_attribute("data-rule")
            if rule:
                refusal.click()
                panel = page.locator("[data-testid=rules]")
                panel.wait_for(state="visible")
                target = panel.locator(f"#rule-{rule}")
                assert "pointed" in target.get_attribute("class")
                assert re.match(r"[GE]\d+$", rule)
                return
        page.locator("[data-action]:not([disabled])").first.click()
    pytest.fail("no refused card with a rule id in 40 turns")
