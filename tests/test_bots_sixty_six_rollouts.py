"""sixty_six bots with 3-4 players: the rollouts play the level-2 rules from what each seat knows
in the sampled state, and the determinization uses what the others' plays imply when they play
by those rules."""

from __future__ import annotations

import random

import pytest

import atut
from atut import bots as B
from atut import cards as C
from atut.bots import sixty_six as P


def _rule_games(n, games):
    """Positions of deals played by the level-2 rules throughout, with some random moves."""
    for seed in range(games):
        g = atut.new_game("sixty_six", players=n, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            v = g.view(g.to_move)
            a = P.rule_policy(v, random.Random(0))
            yield g, v, a
            g.apply(a if rng.random() < 0.8 else rng.choice(g.legal_actions()))


@pytest.mark.parametrize("n", [3, 4])
def test_rule_rollouts_play_like_the_rules_on_the_true_state(n):
    """On the true state (voids from the view) the rollout policy picks the rules' action; the
    only differences allowed come from who drew the trump card (G7), which the view tells and
    the state does not."""
    total = same = 0
    for g, v, a in _rule_games(n, 40):
        c = B.fast_clone(g)
        c.voids = list(P.Knowledge(v).voids)
        b = P.rule_rollout_policy(c, random.Random(0))
        assert b in g._legal()
        total += 1
        same += atut.canonical(a) == atut.canonical(b)
    assert same >= 0.99 * total


@pytest.mark.parametrize("n", [3, 4])
def test_inference_holds_against_rule_players(n):
    """Against players who follow the rules, a card inferred absent is never in the hand, a
    seat inferred to hold no marriage holds none, one inferred to hold at most one trump holds
    no more, and sampled hands respect the cards inferred absent."""
    lacks = pairs = few = 0
    rng = random.Random(n)
    for seed in range(60):
        g = atut.new_game("sixty_six", players=n, seed=seed)
        while not g.is_over:
            v = g.view(g.to_move)
            k = P.Knowledge(v)
            for s in range(n):
                if s == g.to_move:
                    continue
                assert not g.hands[s] & k.lacks[s]
                assert not (k.no_pair[s] and P._marriage_parts(g.hands[s]))
                assert C.count(g.hands[s] & C.SUIT_MASK[k.trump]) <= k.max_trumps[s]
                lacks += bool(k.lacks[s] & k.unseen)
                few += k.max_trumps[s] < 9
                pairs += k.no_pair[s]
            if any(k.lacks[s] & k.unseen for s in range(n)):
                d = P.determinize(v, rng)
                for s in range(n):
                    if s != g.to_move:
                        assert not d.hands[s] & k.lacks[s]
            g.apply(P.rule_policy(v, random.Random(0)))
    assert lacks > 0 and pairs > 0 and few > 0


def test_inference_yields_to_a_player_who_breaks_the_rules():
    """A seat that plays against the rules' habits must not make the sampling fail."""
    rng = random.Random(3)
    for seed in range(15):
        g = atut.new_game("sixty_six", players=3, seed=seed)
        while not g.is_over:
            v = g.view(g.to_move)
            k = P.Knowledge(v)
            k.lacks = [P.DECK_MASK] * 3               # absurd: nobody holds anything
            d = P._sample(k, {"stock": k.stock_down,
                              **{s: k.counts[s] - C.count(k.known[s])
                                 for s in range(3) if s != k.seat}},
                          {s: P.DECK_MASK for s in range(3) if s != k.seat}, rng)
            assert C.count(sum(d.values())) == C.count(k.unseen)
            g.apply(rng.choice(g.legal_actions()))


def _finish(g, seat, own):
    """Play ``g`` (a copy) to the end by the rule rollouts, but ``seat`` by its own-line search
    (``rollout_policy`` with ``searcher`` set) when ``own``; the deal's winner."""
    g = B.fast_clone(g)
    g.searcher = seat if own else None
    while g.to_move is not None:
        g._apply(P.rollout_policy(g, random.Random(0)) if g.to_move == seat and own else
                 P.rule_rollout_policy(g, None))
    return g.deal_winner


@pytest.mark.parametrize("n", [3, 4])
def test_own_line_search_of_the_last_cards_never_loses_what_the_rules_win(n):
    """With 3-4 players and the stock gone (G8), the searching seat plays its last cards by
    trying each of its own lines against the others' rules (G12: the last trick wins): on the
    true state it wins every deal the rules win, and some they lose."""
    assert P.OWN_MAX[n] >= 2
    better = 0
    for g, v, _a in _rule_games(n, 40):
        if g.trump_card is not None or C.count(g.hands[g.to_move]) > P.OWN_MAX[n]:
            continue
        c = B.fast_clone(g)
        c.voids = list(P.Knowledge(v).voids)
        c._recording = False
        seat = g.to_move
        ruled = _finish(c, seat, False) == seat
        own = _finish(c, seat, True) == seat
        assert own or not ruled
        better += own and not ruled
    assert better > 0
