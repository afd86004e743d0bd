"""A seat's view, and every bot's decision, depend only on what that seat may see.

For every game and bot levels 2-5 (the expert's tree search with a smaller counted budget):
play into the first deal, then deal the cards the seat to move cannot see differently (two
cards swap between other seats' hands, everything the seat has seen kept: the replay of the
same actions must stay legal and show the seat and a spectator the same), and check that the
seat's view and the bot's decision are the same in both games.
``test_the_check_catches_a_bot_that_reads_the_game``
shows that the check fails for a bot that looks at the game object instead of the view.
"""

from __future__ import annotations

import json
import random
import sys

import pytest

import atut
from atut import cards as C
from atut.bots import make_bot
from helpers import cards_in

# the usual player counts; they differ in what is hidden
SETTINGS = [("cesarz", 3), ("cesarz", 5), ("euchre", 4), ("imperial", 2), ("imperial", 3),
            ("tysiac1001", 3), ("tysiac1001", 4), ("sixty_six", 2), ("sixty_six", 4)]
LIFTED = {"time_cap": 1e9, "clock": "cpu"}      # counted budgets only: decisions are seeded


def _seen_by(game, seat: int) -> set[str]:
    """Every card code in an event of the game that ``seat`` was shown, and in its hand."""
    seen = cards_in(game.visible_events(seat))
    seen |= {C.code(c) for c in C.cards_of(game.hands[seat])}
    return seen


def positions(game_id: str, players: int, seed: int, count: int):
    """Up to ``count`` (deck, dealer, actions, seat) of the first deal, where the seat to move has
    a choice, spread over the deal; played by level-2 bots from a seeded deck."""
    cls = atut.game_class(game_id)
    rng = random.Random(seed)
    deck = C.codes(cls.deck_for(players))
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    game = atut.new_game(game_id, players=players, seed=seed, dealer=dealer, deck=deck)
    bots = [make_bot(game_id, 2, seed=seed + s, strict=True) for s in range(players)]
    found = []
    first = game.deal_no
    while not game.is_over and game.deal_no == first:
        s = game.to_move
        if len(game.legal_actions()) > 1:
            found.append((list(game.history), s))
        game.apply(bots[s].choose(game.view(s)))
    if not found:
        return []
    picks = [found[(i * (len(found) - 1)) // max(1, count - 1)] for i in range(count)]
    return [(deck, dealer, hist, s) for hist, s in picks]


def replay(game_id, players, seed, dealer, deck, history):
    game = atut.new_game(game_id, players=players, seed=seed, dealer=dealer, deck=deck)
    for a in history:
        game.apply(a)
    return game


def twin(game_id, players, seed, dealer, deck, history, seat, rng):
    """A game with the same actions whose cards hidden from ``seat`` lie elsewhere: a card of
    another seat's hand swapped in the first deck with a card the seat has not seen either (of a
    third hand, or not in a hand: stock, talon, musik).  ``None`` when no swap keeps the replay
    legal, every event shown to the seat and all that is public (a spectator's view) the same
    (the seat has seen too much).  Then the seat's view may not differ: it is a function of
    the public view, the seat's hand and the events it was shown."""
    game = replay(game_id, players, seed, dealer, deck, history)
    seen = _seen_by(game, seat)
    owner = {C.code(c): o for o in range(players) for c in C.cards_of(game.hands[o])}
    hidden = [x for x in deck if x not in seen]
    pairs = [(a, b) for a in hidden for b in hidden
             if owner.get(a, seat) != seat and owner.get(b) != owner[a] and a < b]
    rng.shuffle(pairs)
    for a, b in pairs[:200]:
        other = [b if x == a else a if x == b else x for x in deck]
        try:
            alt = replay(game_id, players, seed, dealer, other, history)
        except atut.IllegalAction:
            continue                       # the swap contradicts a play the seat saw
        if alt.hands == game.hands:
            continue
        if (alt.visible_events(seat) != game.visible_events(seat)
                or alt.view(None) != game.view(None)):
            continue                       # it changed what was shown (a public declaration)
        return game, alt
    return None


def decide(game, bot):
    """How the page and the arena ask a bot: nothing but the seat's view."""
    return bot.choose(game.view(game.to_move))


def unfair_decisions(game_id, players, bot_for, seeds=(1, 2), count=3):
    """The positions (with both games' decisions) where a bot decides differently although the
    seat's view is the same; raises if a view differs (a view that leaks a hidden card)."""
    rng = random.Random(7)
    differ = []
    tried = 0
    for seed in seeds:
        for deck, dealer, history, seat in positions(game_id, players, seed, count):
            pair = twin(game_id, players, seed, dealer, deck, history, seat, rng)
            if pair is None:
                continue
            g1, g2 = pair
            v1, v2 = g1.view(seat), g2.view(seat)
            assert json.dumps(v1, sort_keys=True) == json.dumps(v2, sort_keys=True), (
                f"{game_id}: seat {seat}'s view changed when hidden cards moved")
            assert json.loads(json.dumps(v1)) == v1          # plain JSON, no game object
            # the page's view: the rule ids and score lines of its log (docs/ENGINE.md) show
            # nothing of a hidden card either
            e1, e2 = g1.view(seat, explain=True), g2.view(seat, explain=True)
            assert json.dumps(e1, sort_keys=True) == json.dumps(e2, sort_keys=True), (
                f"{game_id}: seat {seat}'s explained view changed when hidden cards moved")
            tried += 1
            a1, a2 = decide(g1, bot_for(seed)), decide(g2, bot_for(seed))
            if a1 != a2:
                differ.append((seed, len(history), a1, a2))
    assert tried >= 2, f"{game_id} {players}p: too few positions with hidden cards to swap"
    return differ


@pytest.mark.parametrize("level", [2, 3, 4, 5])
@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_view_and_decision_ignore_cards_the_seat_cannot_see(game_id, players, level):
    def bot_for(seed):
        budget = LIFTED if level >= 3 else None
        if level == 5:
            budget = {**LIFTED, "iterations": 250}
        return make_bot(game_id, level, seed=seed, budget=budget, strict=True)
    seeds = (1, 2) if level < 4 else (1,)
    assert unfair_decisions(game_id, players, bot_for, seeds=seeds) == []


class PeekingBot:
    """A bot that cheats: it finds the game in its caller's frame and plays by the hidden
    hands (the legal action picked by a hash of every other seat's hand)."""

    def choose(self, view):
        frame = sys._getframe(1)
        game = next(v for v in frame.f_locals.values() if isinstance(v, atut.Game))
        others = [h for s, h in enumerate(game.hands) if s != view["seat"]]
        legal = view["legal_actions"]
        return legal[hash(tuple(others)) % len(legal)]


@pytest.mark.parametrize("game_id,players", [("sixty_six", 2), ("euchre", 4), ("cesarz", 3)])
def test_the_check_catches_a_bot_that_reads_the_game(game_id, players):
    assert unfair_decisions(game_id, players, lambda seed: PeekingBot(), seeds=(1, 2, 3))
