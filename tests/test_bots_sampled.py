"""``Game.sampled``: the one constructor of a sampled state.  Every game declares its own fields
once (``STATE_FIELDS``), a fresh game has exactly the base fields and those, and every bot
plug-in's ``determinize`` builds its state through ``Game.sampled``."""

from __future__ import annotations

import random

import pytest

import atut
from atut import bots as B
from atut.game import Game

CASES = [(g, n) for g in atut.built_games() for n in atut.game_class(g).PLAYERS]


def _fields(cls) -> list[str]:
    return list(Game.BASE_FIELDS) + list(cls.STATE_FIELDS)


@pytest.mark.parametrize("game_id,players", CASES)
def test_a_fresh_game_has_the_base_fields_and_its_state_fields(game_id, players):
    cls = atut.game_class(game_id)
    assert len(set(cls.STATE_FIELDS)) == len(cls.STATE_FIELDS), "a state field twice"
    assert not set(cls.STATE_FIELDS) & set(Game.BASE_FIELDS)
    for seed in range(3):
        g = atut.new_game(game_id, players=players, seed=seed)
        assert sorted(g.__dict__) == sorted(_fields(cls)), \
            f"declare every field of {cls.__name__} in STATE_FIELDS (and nothing else)"


@pytest.mark.parametrize("game_id,players", CASES)
def test_play_adds_no_undeclared_field(game_id, players):
    cls = atut.game_class(game_id)
    want = sorted(_fields(cls))
    rng = random.Random(7)
    g = atut.new_game(game_id, players=players, seed=7)
    for _ in range(300):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
        assert sorted(g.__dict__) == want


def _views(game_id, players, seeds=3, steps=40):
    """Views of the seat to move in random games, for determinizing."""
    for seed in range(seeds):
        g = atut.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        for i in range(steps):
            if g.is_over:
                break
            if i % 7 == 3:
                yield g.view(g.to_move)
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("game_id,players", CASES)
def test_every_determinize_builds_through_sampled(game_id, players, monkeypatch):
    p = B.plugin(game_id)
    assert hasattr(p, "determinize")
    made = []
    real = Game.sampled.__func__

    def spy(cls, view, rng, **state):
        g = real(cls, view, rng, **state)
        made.append(g)
        return g

    monkeypatch.setattr(Game, "sampled", classmethod(spy))
    n = 0
    for v in _views(game_id, players):
        made.clear()
        g = p.determinize(v, random.Random(n))
        assert len(made) == 1 and made[0] is g, "determinize must build its state by Game.sampled"
        assert isinstance(g, atut.game_class(game_id))
        assert set(_fields(type(g))) <= set(g.__dict__)
        B.check_determinization(g, v, [atut.canonical(a) for a in v["legal_actions"]])
        n += 1
    assert n >= 3


def test_sampled_refuses_a_missing_or_unknown_field():
    cls = atut.game_class("sixty_six")
    g = atut.new_game("sixty_six", players=2, seed=1)
    v = g.view(g.to_move)
    state = {k: getattr(g, k) for k in cls.STATE_FIELDS}
    s = cls.sampled(v, random.Random(1), **state)
    assert s.to_move == g.to_move and s._legal() == g._legal()
    assert s._recording is False and s.events == [] and s.history == []
    missing = dict(state)
    del missing["stock"]
    with pytest.raises(ValueError, match=r"missing state fields \['stock'\]"):
        cls.sampled(v, random.Random(1), **missing)
    with pytest.raises(ValueError, match=r"unknown state fields \['stok'\]"):
        cls.sampled(v, random.Random(1), **state, stok=[])
    with pytest.raises(ValueError, match="missing .*unknown"):
        cls.sampled(v, random.Random(1), **missing, stok=[])
