"""``atut.analyse``: every legal action valued once, best first; ``best`` is the bot's own choice
at levels 3 and 4; a function of the view alone (unseen cards dealt differently change nothing);
plain JSON."""

from __future__ import annotations

import json
import random

import pytest
from test_fair_play import positions, twin

import atut
from atut.bots import make_bot

LIFTED = {"time_cap": 1e9, "clock": "cpu"}      # counted budgets only: decisions are seeded
SETTINGS = [("cesarz", 3), ("euchre", 4), ("imperial", 2), ("imperial", 3),
            ("tysiac1001", 3), ("sixty_six", 2), ("sixty_six", 3)]


def _views(game_id, players, seed=1, count=3):
    for deck, dealer, history, seat in positions(game_id, players, seed, count):
        game = atut.new_game(game_id, players=players, seed=seed, dealer=dealer, deck=deck)
        for a in history:
            game.apply(a)
        yield game.view(seat)


@pytest.mark.parametrize("level", [3, 4])
@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_every_action_once_and_best_is_the_bots_choice(game_id, players, level):
    for view in _views(game_id, players, count=3 if level == 3 else 2):
        out = atut.analyse(game_id, view, level, seed=5, budget=LIFTED)
        keys = [atut.canonical(a["action"]) for a in out["actions"]]
        assert sorted(keys) == sorted(atut.canonical(a) for a in view["legal_actions"])
        assert len(set(keys)) == len(keys)
        bot = make_bot(game_id, level, seed=5, budget=LIFTED, strict=True)
        assert out["best"] == bot.choose(view)
        assert out["actions"][0]["action"] == out["best"]
        assert out["seat"] == view["seat"] and out["level"] == level
        for a in out["actions"]:
            assert isinstance(a["value"], float) and a["samples"] > 0
            assert a["win"] is None or 0.0 <= a["win"] <= 1.0
        assert json.loads(json.dumps(out)) == out
        for s, b in out["beliefs"].items():
            assert int(s) != view["seat"]
            assert set(b["holds"]) <= set(b["p"]) and not set(b["p"]) & set(view["hand"])
            assert all(0 < p <= 1 for p in b["p"].values())


def test_the_default_budget_gives_the_bots_choice_too():
    view = next(_views("sixty_six", 2))
    assert atut.analyse("sixty_six", view)["best"] == make_bot("sixty_six", 3).choose(view)


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_unseen_cards_dealt_differently_give_the_same_analysis(game_id, players):
    rng = random.Random(3)
    tried = 0
    for seed in (1, 2):
        for deck, dealer, history, seat in positions(game_id, players, seed, 3):
            pair = twin(game_id, players, seed, dealer, deck, history, seat, rng)
            if pair is None:
                continue
            g1, g2 = pair
            a1 = atut.analyse(game_id, g1.view(seat), 3, seed=2, budget=LIFTED)
            a2 = atut.analyse(game_id, g2.view(seat), 3, seed=2, budget=LIFTED)
            assert json.dumps(a1, sort_keys=True) == json.dumps(a2, sort_keys=True)
            tried += 1
    assert tried >= 1


def test_a_view_without_a_choice_is_refused():
    game = atut.new_game("sixty_six", players=2, seed=1)
    other = 1 - game.to_move
    with pytest.raises(ValueError):
        atut.analyse("sixty_six", game.view(other))
    with pytest.raises(ValueError):
        atut.analyse("sixty_six", game.view(game.to_move), level=2)
