"""A game from outside the engine (``tests/twelve.py``), registered from this test alone, is
played by every level, analysed, run in the arena and in the OpenSpiel adapter, described by
the lab and saved and loaded (docs/ADDING_A_GAME.md): the registry (``atut.games``) is the only
place the engine looks a game up."""

from __future__ import annotations

import json
import random

import pytest
import twelve

import atut
from atut import arena, botkit
from atut import lab as atut_lab

GAME = "twelve"


@pytest.fixture(autouse=True)
def registered():
    twelve.register()
    yield
    twelve.unregister()


def play(levels, seed):
    g = atut.new_game(GAME, seed=seed)
    bots = [atut.make_bot(GAME, lv, seed=seed * 10 + s) for s, lv in enumerate(levels)]
    for b in bots:
        b.strict = True                   # a failed search raises instead of playing the rules
    while not g.is_over:
        v = g.view(g.to_move)
        a = bots[g.to_move].choose(v)
        assert a in v["legal_actions"]
        g.apply(a)
    return g, bots


def test_the_registry_knows_it_only_while_registered():
    assert GAME in atut.games.ids() and GAME in atut.built_games()
    assert GAME not in atut.GAME_IDS                  # the contract's five built-in games
    assert atut.games.spec(GAME).info()["names"] == {"en": "Twelve", "pl": "Dwanaście"}
    twelve.unregister()
    assert GAME not in atut.games.ids()
    with pytest.raises(ValueError, match="unknown game"):
        atut.new_game(GAME)
    with pytest.raises(ValueError, match="unknown game"):
        atut.make_bot(GAME, 2)


def test_registering_checks_the_spec():
    with pytest.raises(ValueError, match="built-in"):
        atut.games.register(atut.games.spec("euchre"))
    with pytest.raises(ValueError, match="GameSpec"):
        atut.games.register(twelve.Twelve)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_levels_play_it_to_the_end(level):
    for seed in (1, 2):
        g, bots = play([level, 2], seed)
        assert g.is_over and sum(g.scores) == 1 and g.winner in (0, 1)
        assert sum(g.tricks_won) == twelve.HAND
        if level == 3:
            assert bots[0].stats["samples"] > 0       # it searched, not fell back to the rules


def test_level_three_beats_random_play_more_often_than_not():
    wins = sum(play([3, 1], seed)[0].winner == 0 for seed in range(1, 13))
    assert wins >= 7


def test_a_game_is_saved_and_loaded():
    g, _ = play([2, 2], 3)
    again = atut.load_game(g.to_json())
    assert again.history == g.history and again.scores == g.scores


def test_it_is_analysed_and_the_best_action_is_the_bots():
    rng = random.Random(4)
    seen = 0
    for seed in range(1, 8):
        g = atut.new_game(GAME, seed=seed)
        while not g.is_over:
            v = g.view(g.to_move)
            if len(v["legal_actions"]) > 1:
                out = atut.analyse(GAME, v, level=3, seed=1)
                json.dumps(out)
                assert out["best"] == atut.make_bot(GAME, 3, seed=1).choose(v)
                assert all(a["value"] is not None and a["win"] is None for a in out["actions"])
                assert out["beliefs"][str(1 - v["seat"])]["p"]
                seen += 1
            g.apply(rng.choice(v["legal_actions"]))
    assert seen >= 5


def test_botkit_reads_its_views():
    g = atut.new_game(GAME, seed=2)
    g.apply(g.legal_actions()[0])
    v = g.view(g.to_move)
    led = v["trick"][0]["card"]
    assert botkit.current_winner(v)["card"] == led
    assert botkit.played(v) == [led]
    assert len(botkit.unseen(v)) == 12 - 1 - len(v["hand"])
    assert botkit.strength(led[:-1] == "A" and led or "A" + led[-1], v) == 3


def test_the_arena_runs_it():
    r = arena.run(GAME, [3, 1], deals=3, seed=1)
    assert r["mode"] == "game" and [b["name"] for b in r["bots"]] == ["3 search", "1 random"]
    assert "games (one deal each)" in arena.report(r)


def test_the_lab_describes_its_view():
    h = atut_lab.view_help(GAME)
    assert h["fields"]["tricks_won"]["pl"] == "Lewy wzięte przez każde miejsce."
    assert set(h["phases"]) == {"play"}
    assert atut_lab.examples(GAME) == {}


def test_openspiel_plays_it():
    import pyspiel

    from atut import openspiel as O
    assert O.PREFIX + GAME in O.register()
    game = pyspiel.load_game(O.PREFIX + GAME, {})
    assert game.num_distinct_actions() == 12
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    s = game.new_initial_state()
    rng = random.Random(3)
    while s.is_chance_node():
        s.apply_action(rng.choice(s.chance_outcomes())[0])
    s.apply_action(rng.choice(s.legal_actions()))
    p = s.current_player()
    r = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r.atut_game().view(p) == s.atut_game().view(p)
    bot = O.ismcts_bot(GAME, 30, seed=1)
    g = atut.new_game(GAME, seed=5)
    v = g.view(g.to_move)
    assert bot.choose(v) in v["legal_actions"]


def test_a_game_joins_from_its_source_text_and_bad_source_changes_nothing():
    import sys
    from pathlib import Path
    twelve.unregister()
    source = (Path(__file__).parent / "twelve.py").read_text(encoding="utf-8")
    try:
        spec = atut.games.register_source("twelve_text", source)
        assert spec.id == GAME and atut.new_game(GAME, seed=1).view(0)["game"] == GAME
        assert spec.page_words()["pl"]["name"] == "Dwanaście"
    finally:
        sys.modules.pop("twelve_text", None)
    before = (atut.games.ids(), set(sys.modules))
    for name, text in [("bad_game", "def ("), ("bad_game", "SPEC = 1"), ("json", source),
                       ("no name", source)]:
        with pytest.raises(ValueError, match="register_source"):
            atut.games.register_source(name, text)
        assert (atut.games.ids(), set(sys.modules)) == before
