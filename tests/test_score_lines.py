"""The engine says why: the rule ids on events and the score lines of each deal's end
(docs/ENGINE.md, "Rule ids and score lines").

Seeded whole games of every game and player count, played by level-2 bots: each deal's score
lines add up exactly to the change of the scores; every rule id cited in an event, a score line
or a refusal (``Game.explain``) has its entry in docs/rules/<game>.md in English and in Polish
(the rules panel opens at it); every line's key has its words in web/i18n/<game>.js in both
languages.  The views leave the explaining fields out unless asked, and show them to a seat
only for events that seat may see.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import atut
from atut.game import EXPLAIN_FIELDS, RULE_ID, line_sums
from helpers import cards_in

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("rule_coverage",
                                               ROOT / "scripts" / "rule_coverage.py")
coverage = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(coverage)

SETTINGS = [(g, p) for g, counts in coverage.PLAYERS.items() for p in counts]
SEEDS = (0, 1)
_played: dict = {}


def played(game_id, players):
    key = (game_id, players)
    if key not in _played:
        _played[key] = coverage.occurring(game_id, players, SEEDS)
    return _played[key]


def test_every_game_and_player_count_is_covered():
    assert set(coverage.PLAYERS) == set(atut.GAME_IDS)
    for g, counts in coverage.PLAYERS.items():
        assert tuple(counts) == tuple(atut.games.spec(g).players)


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_each_deals_score_lines_add_up_to_its_score_change(game_id, players):
    *_, deals = played(game_id, players)
    assert len(deals) >= len(SEEDS)
    for lines, change in deals:
        assert line_sums(lines, players) == change
        for line in lines:
            assert set(line) <= {"rule", "key", "seats", "score", "args"}
            assert isinstance(line["rule"], str) and isinstance(line["key"], str)
            assert all(type(s) is int and 0 <= s < players for s in line["seats"])
            assert type(line.get("score", 0)) is int
            json.dumps(line)
        assert any("score" in line for line in lines)


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_every_cited_rule_id_has_its_text_in_both_languages(game_id, players):
    events, lines, refusals, _, _ = played(game_id, players)
    assert events and lines, "no rule id cited"
    en, pl = coverage.doc_ids(game_id)
    cited = events | lines | refusals
    assert cited - en == set(), f"{game_id}: ids without an English entry"
    assert cited - pl == set(), f"{game_id}: ids without a Polish entry"


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_every_line_key_has_words_in_both_languages(game_id, players):
    *_, keys, _ = played(game_id, players)
    words = coverage.line_words(game_id)
    assert keys - words["en"] == set(), f"{game_id}: line keys without English words"
    assert keys - words["pl"] == set(), f"{game_id}: line keys without Polish words"


def test_the_words_check_finds_a_missing_key():
    # the parser reads the real files: a key of one language only would be caught
    words = coverage.line_words("sixty_six")
    assert "card_points" in words["en"] and "card_points" in words["pl"]
    assert "no_such_line" not in words["en"]


@pytest.mark.parametrize("game_id,players", [("sixty_six", 2), ("tysiac1001", 4),
                                             ("cesarz", 5), ("imperial", 2), ("euchre", 4)])
def test_views_show_the_explaining_fields_only_when_asked_and_only_what_the_seat_sees(
        game_id, players):
    game = atut.new_game(game_id, players=players, seed=3)
    bots = [atut.make_bot(game_id, 2, seed=s) for s in range(players)]
    steps = 0
    while not game.is_over and steps < 400:
        for seat in [None, *range(players)]:
            plain, told = game.view(seat), game.view(seat, explain=True)
            assert all(k not in e for e in plain["log"] for k in EXPLAIN_FIELDS)
            stripped = [{k: v for k, v in e.items() if k not in EXPLAIN_FIELDS}
                        for e in told["log"]]
            assert stripped == plain["log"]
            # "limits": the seat to move's rule ids that keep cards of its hand from being played
            assert "limits" not in plain and ("limits" in told) == (seat == game.to_move)
            assert {**{k: v for k, v in told.items() if k != "limits"}, "log": stripped} == plain
            # the cards a seat's explaining fields name are cards the seat has been shown
            shown = cards_in(plain) | cards_in(game.visible_events(seat))
            named = cards_in([{k: e[k] for k in EXPLAIN_FIELDS if k in e} for e in told["log"]])
            assert named <= shown, f"seat {seat} is told of {named - shown}"
        game.apply(bots[game.to_move].choose(game.view(game.to_move)))
        steps += 1


def test_a_view_holder_cannot_change_the_recorded_lines():
    game = atut.new_game("sixty_six", players=2, seed=5)
    bots = [atut.make_bot("sixty_six", 2, seed=s) for s in range(2)]
    while not game.is_over:
        game.apply(bots[game.to_move].choose(game.view(game.to_move)))
    end = game.view(0, explain=True)["log"][-1]
    assert end["type"] == "deal_over" and end["lines"]
    end["lines"][0]["seats"].append(9)
    end["lines"][-1]["score"] = 100
    again = game.view(0, explain=True)["log"][-1]
    assert 9 not in again["lines"][0]["seats"] and again["lines"][-1]["score"] == 1


def test_sixty_six_lines_name_the_rules_that_scored():
    """G11/G12 say how the deal was won, G14 gives the game's one point, G11 the card points
    and G9 the marriages."""
    game = atut.new_game("sixty_six", players=3, seed=4)
    bots = [atut.make_bot("sixty_six", 2, seed=s) for s in range(3)]
    while not game.is_over:
        game.apply(bots[game.to_move].choose(game.view(game.to_move)))
    end = game.events[-1]
    rules = [line["rule"] for line in end["lines"]]
    assert rules[-1] == "G14" and end["lines"][-1]["score"] == 1
    assert end["lines"][-2]["rule"] == ("G11" if end["reason"] == "66" else "G12")
    cards = {line["seats"][0]: line["args"]["points"] for line in end["lines"]
             if line["key"] == "card_points"}
    melds = [(line["seats"][0], line["args"]["value"]) for line in end["lines"]
             if line["key"] == "marriage"]
    for s in range(3):
        assert cards[s] + sum(v for m, v in melds if m == s) == end["points"][s]


@pytest.mark.parametrize("game_id,players", [("sixty_six", 2), ("tysiac1001", 3),
                                             ("cesarz", 4), ("imperial", 3), ("euchre", 4)])
def test_the_limits_are_the_rules_that_refuse_cards_of_the_hand(game_id, players):
    """An explained view's ``limits`` name, in the hand's order, each rule that refuses a card of
    the hand now; every refused card's reason names its rule (the coach says the rule)."""
    game = atut.new_game(game_id, players=players, seed=4)
    bots = [atut.make_bot(game_id, 2, seed=s) for s in range(players)]
    limited = 0
    while not game.is_over:
        seat = game.to_move
        v = game.view(seat, explain=True)
        plays = {a["card"] for a in v["legal_actions"] if a["type"] == "play"}
        want: list[str] = []
        for c in v["hand"] if plays else []:
            if c not in plays:
                why = game.explain({"type": "play", "card": c})
                ids = RULE_ID.findall(why or "")
                assert ids, f"{c} is refused without a rule: {why!r}"
                want += [r for r in ids if r not in want]
        assert v["limits"] == want
        limited += bool(want)
        game.apply(bots[seat].choose(game.view(seat)))
    assert limited > 0
