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


# --- the reason for the best action (atut.analysis.reason): from the view alone -------------

def _sixty_six(mine, trump_card="9H"):
    """A 2-player 66 deal where seat 1 leads holding ``mine`` (six cards) under ``trump_card``."""
    from atut import cards as C
    rest = [x for x in C.codes(atut.game_class("sixty_six").deck_for(2))
            if x not in mine and x != trump_card]
    deck = [x for pair in zip(mine, rest[:6]) for x in pair] + [trump_card] + rest[6:]
    game = atut.new_game("sixty_six", players=2, seed=0, dealer=0, deck=deck)
    assert game.to_move == 1 and sorted(game.view(1)["hand"]) == sorted(mine)
    return game


def test_reason_marriage_sure_winner_and_none():
    from atut.analysis import reason
    game = _sixty_six(["AH", "KH", "QH", "AS", "9C", "9D"])
    view = game.view(1)
    assert reason("sixty_six", view, {"type": "play", "card": "KH", "meld": "QH"}) == \
        {"key": "marriage", "suit": "H"}
    # the ace of trumps led: nothing the other may hold beats it
    assert reason("sixty_six", view, {"type": "play", "card": "AH"}) == \
        {"key": "sure_winner", "card": "AH"}
    # the ace of spades led: a trump not seen could take it; the nine of trumps neither
    assert reason("sixty_six", view, {"type": "play", "card": "AS"}) is None
    assert reason("sixty_six", view, {"type": "play", "card": "QH"}) is None
    # the second card of the trick, higher in the suit led: it takes the trick
    game.apply({"type": "play", "card": "9C"})
    view = game.view(0)
    assert reason("sixty_six", view, {"type": "play", "card": "AC"}) == \
        {"key": "sure_winner", "card": "AC"}
    assert reason("sixty_six", view, {"type": "play", "card": "9S"}) is None
    # a game without reasons, and actions that are not a card played
    assert reason("no_such_game", view, {"type": "play", "card": "AC"}) is None
    assert reason("sixty_six", view, {"type": "close"}) is None


def _reason_positions(game_id, players, seeds):
    """(game, view, action, reason) of every card play with a reason in randomly played deals."""
    from atut.analysis import reason
    for seed in seeds:
        game = atut.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game.history) < 400:
            s = game.to_move
            view = game.view(s)
            legal = game.legal_actions()
            for a in legal:
                why = reason(game_id, view, a)
                if why is not None:
                    yield game, view, a, why
            game.apply(rng.choice(legal))


@pytest.mark.parametrize("game_id,players", [("sixty_six", 2), ("sixty_six", 3),
                                             ("tysiac1001", 3)])
def test_every_reason_is_true_of_the_hidden_cards_too(game_id, players):
    from atut import cards as C
    from atut.tricks import beats
    seen = set()
    for game, view, a, why in _reason_positions(game_id, players, range(4)):
        seen.add(why["key"])
        if why["key"] == "marriage":
            assert a.get("meld")
        elif why["key"] == "sure_winner":
            # no card in the hand of a seat still to play beats it (nor one on the table)
            c = C.card(a["card"])
            trump = C.SUITS.index(view["trump"]) if view["trump"] else None
            table = [C.card(e["card"]) for e in view["trick"]]
            assert not any(beats(x, c, trump, C.ACE_TEN_POWER) for x in table[:1])
            done = {e["seat"] for e in view["trick"]}
            for s in view.get("active") or range(players):
                if s != view["seat"] and s not in done:
                    assert not any(beats(x, c, trump, C.ACE_TEN_POWER)
                                   for x in C.cards_of(game.hands[s]))
        else:
            suit = C.SUITS.index(why["suit"])
            assert not any(C.suit_of(x) == suit for x in C.cards_of(game.hands[why["seat"]]))
    assert seen >= {"marriage", "sure_winner"}
    assert players < 3 or "void_shown" in seen


@pytest.mark.parametrize("game_id,players", [("sixty_six", 2), ("tysiac1001", 3)])
def test_the_reason_is_the_same_when_unseen_cards_lie_elsewhere(game_id, players):
    rng = random.Random(3)
    checked = 0
    for seed in range(1, 5):
        for deck, dealer, history, seat in positions(game_id, players, seed, 4):
            pair = twin(game_id, players, seed, dealer, deck, history, seat, rng)
            if pair is None:
                continue
            a, b = (g.view(seat) for g in pair)
            assert a == b
            out_a = atut.analyse(game_id, a, 3, seed=5, budget=LIFTED)
            out_b = atut.analyse(game_id, b, 3, seed=5, budget=LIFTED)
            assert out_a.get("reason") == out_b.get("reason")
            from atut.analysis import reason
            assert out_a.get("reason") == reason(game_id, a, out_a["best"])
            checked += 1
    assert checked >= 4
