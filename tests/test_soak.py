"""A small seeded sample of ``python -m atut soak`` (the full run: 10,000 games per game and
player count, outside the suite): a few whole games per setting between level-2 bots, every
step checked by ``atut.invariants``; a failure is reported with the seed that plays it again."""

from __future__ import annotations

import io

import pytest

import atut
from atut import invariants, soak


def test_a_seeded_sample_of_every_setting_has_no_failure():
    totals, failures, _ = soak.soak(list(atut.built_games()), count=2, jobs=1, seed=1000)
    assert failures == []
    want = {(g, p) for g in atut.built_games() for p in atut.game_class(g).PLAYERS}
    assert set(totals) == want
    assert all(t["games"] == 2 and t["deals"] >= 2 and t["actions"] > 0 for t in totals.values())


def test_the_sample_runs_in_worker_processes_too():
    totals, failures, _ = soak.soak(["sixty_six"], players=3, count=30, jobs=2, seed=7)
    assert failures == [] and totals[("sixty_six", 3)]["games"] == 30


def test_the_same_seed_plays_the_same_game():
    assert soak.play_one("imperial", 3, 5, 2) == soak.play_one("imperial", 3, 5, 2)


def test_a_failure_is_reported_with_its_seed_and_the_command_that_repeats_it(monkeypatch):
    real = invariants.after_step

    def broken(game):
        if game.seed == 3 and len(game.history) == 4:
            raise invariants.InvariantError("made up")
        real(game)
    monkeypatch.setattr(invariants, "after_step", broken)
    totals, failures, wall = soak.soak(["sixty_six"], players=2, count=5, jobs=1, seed=1)
    assert [(g, p, s) for g, p, s, _ in failures] == [("sixty_six", 2, 3)]
    assert "InvariantError: made up" in failures[0][3]
    assert totals[("sixty_six", 2)]["failures"] == 1
    out = io.StringIO()
    soak.report(totals, failures, wall, 2, 1, out=out)
    assert ("again: python -m atut soak --games sixty_six --players 2 --count 1 --seed 3"
            in out.getvalue())


def test_the_command_prints_the_table_and_refuses_bad_options(capsys):
    assert soak.main(["--games", "sixty_six", "--players", "2", "--count", "3", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "sixty_six" in out and "no failures" in out
    for bad in (["--games", "nope"], ["--count", "0"], ["--games", "euchre", "--players", "2"]):
        with pytest.raises(SystemExit):
            soak.main(bad)


def test_an_interrupted_soak_reports_the_games_played_so_far(monkeypatch):
    real = soak.run_chunk
    calls = []

    def once(task):
        if calls:
            raise KeyboardInterrupt
        calls.append(task)
        return real(task)
    monkeypatch.setattr(soak, "run_chunk", once)
    totals, failures, wall = soak.soak(["sixty_six"], players=2, count=3 * soak.CHUNK, jobs=1)
    assert totals.pop("interrupted") is True and failures == []
    assert totals[("sixty_six", 2)]["games"] == soak.CHUNK
