"""The one generic random-play test every built game passes (after OpenSpiel's
random-simulation test): seeded random legal actions to the end, for every supported player
count, checking the contract at every step."""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut import invariants

# (game, players) -> how many seeded full games.  Games to 1001 and 2000 take many deals, so
# they get fewer here; their own test files add thousands of seeded random deals.
GAMES_PER_COUNT = {"sixty_six": 2000, "euchre": 300, "imperial": 300, "tysiac1001": 30,
                   "cesarz": 20}
CASES = [(g, p) for g in atut.built_games() for p in atut.game_class(g).PLAYERS]

# In tysiac1001 a uniformly random auction climbs to 120-400 every deal (dozens of bid values
# against one pass), every declarer fails, all scores drift below zero and nobody ever reaches
# 1001.  For such games pick the action type first, and mostly the lowest bid or contract.
LOW_VALUE_GAMES = {"tysiac1001"}


def pick(rng, legal, game_id):
    if game_id not in LOW_VALUE_GAMES:
        return rng.choice(legal)
    t = rng.choice(sorted({a["type"] for a in legal}))
    acts = [a for a in legal if a["type"] == t]
    if t in ("bid", "announce") and rng.random() < 0.8:
        return acts[0]
    return rng.choice(acts)


def play_random(game_id, players, seed, check_views=False):
    """A seeded random game to its end, the contract checked at every step (``atut.invariants``,
    which ``python -m atut soak`` checks too)."""
    game = atut.new_game(game_id, players=players, seed=seed)
    rng = random.Random(seed * 7919 + players)
    while not game.is_over:
        legal = invariants.before_step(game, check_views)
        game.apply(pick(rng, legal, game_id))
        invariants.after_step(game)
    invariants.at_end(game)
    return game


def test_a_broken_invariant_is_reported_with_the_game_and_the_step():
    game = atut.new_game("sixty_six", players=2, seed=1)
    game.apply(game.legal_actions()[0])
    game.hands[1] |= game.hands[0]              # a card in two places
    with pytest.raises(invariants.InvariantError, match=r"sixty_six \(2 players, seed 1, action 1"):
        invariants.after_step(game)
    game.legal_actions = lambda: [{"type": "play", "card": "AH"}] * 2      # a faked engine bug
    with pytest.raises(invariants.InvariantError, match="listed twice"):
        invariants.before_step(game)
    game.legal_actions = lambda: []
    with pytest.raises(invariants.InvariantError, match="no legal action"):
        invariants.before_step(game)


@pytest.mark.parametrize("game_id,players", CASES)
def test_random_play(game_id, players):
    n = GAMES_PER_COUNT.get(game_id, 100)
    winners = set()
    for seed in range(n):
        game = play_random(game_id, players, seed, check_views=seed < 20)
        w = game.winner
        winners.update(w if isinstance(w, list) else [w])
    assert winners <= set(range(players))


@pytest.mark.parametrize("game_id,players", CASES)
def test_save_load_replays_exactly(game_id, players):
    """A game saved at any point and loaded continues exactly as the saved one would."""
    for seed in range(5):
        game = atut.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        cut = rng.randrange(5, 60)
        i = 0
        while not game.is_over and i < cut:
            game.apply(pick(rng, game.legal_actions(), game_id))
            i += 1
        loaded = atut.load_game(game.to_json())
        assert loaded.events == game.events
        assert loaded.to_move == game.to_move
        for s in [None, *range(players)]:
            assert loaded.view(s) == game.view(s)
        state = random.Random(seed + 1)
        while not game.is_over:
            a = pick(state, game.legal_actions(), game_id)
            game.apply(a)
            loaded.apply(a)
        assert loaded.events == game.events and loaded.scores == game.scores


@pytest.mark.parametrize("game_id,players", CASES)
def test_illegal_actions_change_nothing(game_id, players):
    game = atut.new_game(game_id, players=players, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        if game.is_over:
            break
        before = game.to_json(), json.dumps(game.view(game.to_move)), list(game.events)
        for bad in ({"type": "nonsense"}, {"type": "play", "card": "ZZ"}, "play", None, 5,
                    {"type": "play"}, {"type": "play", "card": ["AH"]},
                    {"type": "bid", "value": "x"}):
            with pytest.raises(atut.IllegalAction):
                game.apply(bad)
        assert before == (game.to_json(), json.dumps(game.view(game.to_move)), game.events)
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("game_id,players", CASES)
def test_same_seed_same_game(game_id, players):
    a = play_random(game_id, players, 11)
    b = play_random(game_id, players, 11)
    assert a.events == b.events


@pytest.mark.parametrize("game_id", atut.built_games())
def test_clone_is_independent(game_id):
    game = atut.new_game(game_id, seed=5)
    snapshot = game.to_json(), json.dumps(game.view(None))
    copy = game.clone()
    rng = random.Random(1)
    while not copy.is_over:
        copy.apply(pick(rng, copy.legal_actions(), game_id))
    assert snapshot == (game.to_json(), json.dumps(game.view(None)))
