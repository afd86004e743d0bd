"""Learn to play (atut.learn, docs/PAGE.md "Learn to play"): every guided deal played by its
suggested moves shows what its lesson claims, every step is explained in both languages, and no
step names a card the person cannot see."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import atut
from atut import learn
from atut.game import line_sums
from atut.table.ops import Dispatcher
from atut.table.session import Table
from helpers import cards_in

ROOT = Path(__file__).resolve().parents[1]
LESSONS = [(g, i) for g, xs in learn.LESSONS.items() for i in range(len(xs))]


def keys_of(game: str) -> dict[str, set[str]]:
    """The i18n keys of web/i18n/<game>.js (or core.js), per language."""
    text = (ROOT / "web" / "i18n" / f"{game}.js").read_text(encoding="utf-8")
    parts = re.split(r"^  (en|pl): \{", text, flags=re.M)
    return {lang: set(re.findall(r'^\s*"([^"]+)"\s*:', body, re.M))
            for lang, body in zip(parts[1::2], parts[2::2])}


def doc_ids(game: str) -> dict[str, set[str]]:
    from tools.rules_html import parse
    doc = parse((ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"))
    en = {e["id"] for part in doc["parts"] for g in part["groups"] for e in g["entries"]}
    return {"en": en, "pl": set(doc["pl"]["entries"])}


def walk(game: str, number: int):
    """The lesson played by the suggested moves: (the table, the steps shown to the person,
    the view at each step)."""
    t = Table()
    r = t.learn_start(game, number)
    steps, views = [r["learn"]], [t.view()]
    for _ in range(400):
        st = steps[-1]
        if st["done"]:
            return t, steps, views
        if st["turn"]:
            t.act(st["suggest"]["action"])
        else:
            t.bot_step()
        steps.append(t.learn_step())
        views.append(t.view())
    raise AssertionError("the lesson did not end")


@pytest.mark.parametrize("game,number", LESSONS)
def test_lesson_shows_what_it_claims(game, number):
    info = learn.lesson(game, number)
    t, steps, views = walk(game, number)
    phases, rules = set(), set()
    for st, v in zip(steps, views):
        if not st["done"]:
            rules |= {e["rule"] for e in v["log"] if e.get("rule")}
        if st["turn"]:
            phases |= {st["phase"], st["suggest"]["kind"]}
            rules |= set(st["rules"])
    end = steps[-1]["end"]
    ev = end["event"]
    assert ev is not None and ev["lines"], "the deal's score lines"
    rules |= {e["rule"] for e in (t.finished or {}).get("log", []) if e.get("rule")}
    rules |= {ln["rule"] for ln in ev["lines"]} | {ev["rule"]}
    assert set(info["phases"]) <= phases, set(info["phases"]) - phases
    assert set(info["rules"]) <= rules, set(info["rules"]) - rules
    # the walk-through adds up to the scores after the deal
    sums = line_sums(ev["lines"], info["players"])
    assert [b + s for b, s in zip(end["before"], sums)] == end["after"]
    if info.get("not_dealer"):
        assert t.game.first_dealer != learn.SEAT
    assert 5 <= len(steps) <= 80


@pytest.mark.parametrize("game,number", LESSONS)
def test_every_step_is_explained_in_both_languages(game, number):
    _, steps, _ = walk(game, number)
    words = keys_of(game)
    ids = doc_ids(game)
    info = learn.lesson(game, number)
    needed = {f"learn.lesson.{info['id']}"}
    named = set(steps[0]["count_rules"]) | set(steps[0]["score_rules"])
    for st in steps:
        needed.add(f"learn.phase.{st['phase']}")
        named |= set(st["rules"])
        for m in st["may"]:
            needed.add(f"learn.may.{m['kind']}")
            named |= set(m["rules"])
            assert m["rules"], f"{m['kind']} names no rule"
        if st["turn"]:
            assert st["may"] and st["suggest"] and st["rules"]
            named |= set(st["suggest"]["rules"])
    for lang in ("en", "pl"):
        assert needed <= words[lang], (lang, needed - words[lang])
        assert named <= ids[lang], (lang, named - ids[lang])


@pytest.mark.parametrize("game,number", LESSONS)
def test_no_step_names_a_hidden_card(game, number):
    _, steps, views = walk(game, number)
    for st, v in zip(steps, views):
        if st["done"]:
            continue                    # the deal is over (the walk-through names its cards)
        shown = cards_in(v)
        assert cards_in(st) <= shown, cards_in(st) - shown


def test_the_ops():
    d = Dispatcher()
    r = d.call("learn_start", {"game": "sixty_six", "lesson": 1})["result"]
    assert r["learn"]["lesson"]["id"] == "sixty_six-4" and r["view"]["players"] == 4
    assert d.call("learn_step", {})["result"]["lesson"]["number"] == 1
    with pytest.raises(ValueError):
        d.call("learn_start", {"game": "sixty_six", "lesson": 9})
    with pytest.raises(ValueError):
        d.call("learn_start", {"game": "chess"})
    d.call("new_game", {"game": "sixty_six"})
    with pytest.raises(ValueError, match="no lesson"):
        d.call("learn_step", {})
    json.dumps(r)


def test_every_game_has_lessons():
    assert set(learn.LESSONS) == set(atut.games.ids())


def test_the_page_doc_lists_the_lessons():
    """docs/PAGE.md's table of lessons names each lesson's seed (the data is atut.learn's)."""
    doc = (ROOT / "docs" / "PAGE.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\w+) \| (\d+)[^|]*\| (\d+) \|", doc, re.M)
    assert rows == [(g, str(i + 1), str(x["seed"])) for g, xs in learn.LESSONS.items()
                    for i, x in enumerate(xs)]


# rule ids no lesson needs to name: how the engine shuffles (the page offers no cut)
UNTAUGHT = {"cesarz": {"G26"}}


@pytest.mark.parametrize("game", list(learn.LESSONS))
def test_the_lessons_cover_every_phase_and_rule(game):
    """Together a game's lessons have the person act in every phase the game has and name
    every rule id of docs/rules/<game>.md (steps, the log, the score lines)."""
    phases, rules = set(), set()
    for number in range(len(learn.LESSONS[game])):
        t, steps, views = walk(game, number)
        for st, v in zip(steps, views):
            if not st["done"]:
                rules |= {e["rule"] for e in v["log"] if e.get("rule")}
            rules |= set(st["rules"]) | set(st["count_rules"]) | set(st["score_rules"])
            if st["turn"]:
                phases.add(st["phase"])
        ev = steps[-1]["end"]["event"]
        rules |= {ln["rule"] for ln in ev["lines"]}
    assert set(learn.PHASE_RULES[game]) <= phases, set(learn.PHASE_RULES[game]) - phases
    ids = {i for i in doc_ids(game)["en"] if i.startswith("G")} - UNTAUGHT.get(game, set())
    assert ids <= rules, sorted(ids - rules)


@pytest.mark.parametrize("game", list(learn.LESSONS))
def test_the_guide_follows_another_move(game):
    """The person plays something else than suggested at each decision of two or more: the guide
    follows the actual game to the deal's end, each step's suggestion legal there."""
    t = Table()
    st = t.learn_start(game, 0)["learn"]
    other = 0
    for _ in range(400):
        if st["done"]:
            break
        if st["turn"]:
            legal = t.view()["legal_actions"]
            assert st["suggest"]["action"] in legal
            pick = next((a for a in legal if a != st["suggest"]["action"]), legal[0])
            other += pick != st["suggest"]["action"]
            t.act(pick)
        else:
            t.bot_step()
        st = t.learn_step()
    assert st["done"] and other > 0
    ev = st["end"]["event"]
    sums = line_sums(ev["lines"], t.game.players)
    assert [b + s for b, s in zip(st["end"]["before"], sums)] == st["end"]["after"]
