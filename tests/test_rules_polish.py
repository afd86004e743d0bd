"""Rules in Polish: every rule and worked example of every game has its Polish text in
docs/rules/<game>.md ("Po polsku" → "Reguły", paired with the English entry by id), and the
Polish page (tools/rules_html.py) shows it instead of the English one."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
import rules_html  # noqa: E402

GAMES = ("cesarz", "euchre", "imperial", "tysiac1001", "sixty_six")


def _doc(game):
    return rules_html.parse((REPO / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"))


def _english(doc):
    return {e["id"]: e for part in doc["parts"] for g in part["groups"] for e in g["entries"]}


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_has_a_polish_text(game):
    doc = _doc(game)
    en, pl = _english(doc), doc["pl"]["entries"]
    assert en, game
    assert sorted(set(en) - set(pl)) == [], f"{game}: ids without a Polish text"
    assert sorted(set(pl) - set(en)) == [], f"{game}: Polish ids that are no English entry"
    for rid, e in en.items():
        assert pl[rid]["text"].strip(), (game, rid)
        # each shown note of the English entry (Our reading, Common variant, Outcome …) too
        shown = [k for k in e["notes"] if k in rules_html.SHOWN_NOTES]
        assert sorted(shown) == sorted(pl[rid]["notes"]), (game, rid)


@pytest.mark.parametrize("game", GAMES)
def test_polish_texts_are_not_copies_of_the_english(game):
    doc = _doc(game)
    en, pl = _english(doc), doc["pl"]["entries"]
    for rid, tr in pl.items():
        assert tr["text"].strip() != en[rid]["text"].strip(), (game, rid)
        for k, v in tr["notes"].items():
            if not re.search(r"[a-z]{3}", re.sub(r"`[^`]*`", "", v)):
                continue        # a note of figures and card codes only ("+20; +40.")
            assert v.strip() != en[rid]["notes"].get(k, "").strip(), (game, rid, k)
    # and they are Polish: the Polish letters turn up in the game's texts
    joined = " ".join(t["text"] for t in pl.values())
    assert any(ch in joined for ch in "ąęłńóśźżć"), game


@pytest.mark.parametrize("game", GAMES)
def test_polish_page_shows_polish_everywhere(game):
    """G-ids and E-ids alike: the pl page has no English entry, so no 'shown in English' notice."""
    doc = _doc(game)
    page = rules_html.page_data(game, doc, "pl")
    langs = {e["id"]: e["lang"] for p in page["parts"] for g in p["groups"] for e in g["entries"]}
    assert langs and set(langs.values()) == {"pl"}, sorted(k for k, v in langs.items() if v != "pl")
    assert page["summary_lang"] == "pl"
    en_page = rules_html.page_data(game, doc, "en")
    en_langs = {e["lang"] for p in en_page["parts"] for g in p["groups"] for e in g["entries"]}
    assert en_langs == {"en"}


def test_a_missing_polish_text_falls_back_to_english():
    text = ("# X — the project's rules\n\n## Summary\nS.\n\n## Rules\n"
            "- **G1** One.\n- **G2** Two.\n\n## Po polsku\n\n### Reguły\n- [G1] Jeden.\n")
    page = rules_html.page_data("x", rules_html.parse(text), "pl")
    ents = page["parts"][0]["groups"][0]["entries"]
    got = [(e["id"], e["lang"], e["html"]) for e in ents]
    assert got == [("G1", "pl", "Jeden."), ("G2", "en", "Two.")]
