"""The sixty_six search's short cuts change nothing: with 3 players a rollout settled by the
own-line search of the last cards (``rollout_policy``, ``deal_over``) has the value and leaves
the random stream exactly as the played-out rollout; the own-line search's memo gives what the
search without it gives; the rules' judgement on masks agrees with its plain definitions."""

from __future__ import annotations

import random

import pytest

import atut
from atut import cards as C
from atut.bots import sixty_six as P
from atut.bots.search import fast_clone, rollout
from atut.games.sixty_six import POWER, VALUE


def _sampled_states(n, seeds):
    """Sampled states (``determinize``) of the level-2 bots' deals at the searching seat's turn,
    many with the stock gone."""
    for seed in range(seeds):
        g = atut.new_game("sixty_six", players=n, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            v = g.view(g.to_move)
            if len(v["legal_actions"]) > 1:
                yield P.determinize(v, random.Random(seed * 100 + len(g.history))), v
            g.apply(P.rule_policy(v, rng))


def _played_out(g, seat, rng):
    """The 3-player rollout played to the end as the policy defines it, without settling: the
    own-line search's move on the seat's last cards, else one draw of the stream (the rules'
    chance of a tournament move, ``ROLLOUT_EPS`` = 0) and the rules' move."""
    assert P.ROLLOUT_EPS == 0 and 3 in P.RULE_ROLLOUTS
    while g.to_move is not None:
        s = g.to_move
        if s == g.searcher and g.trump_card is None and \
                C.count(g.hands[s]) <= P.OWN_MAX[g.n]:
            g._do(P._own_node(g, s)[1])
        else:
            rng.random()
            g._do(P._rule_rollout_move(g))
    return P.evaluate(g, seat, None)


def test_a_settled_rollout_is_the_played_out_one():
    settled = 0
    for g, v in _sampled_states(3, 10):
        seat = v["seat"]
        for k, a in enumerate(g._legal()):
            P._own_memo.clear()
            c = fast_clone(g)
            c._apply(a)
            ref = fast_clone(c)
            r1, r2 = random.Random(k), random.Random(k)
            value = rollout(P, c, g, seat, r1)
            settled += c.settled is not None
            P._own_memo.clear()
            assert value == _played_out(ref, seat, r2)
            assert r1.getstate() == r2.getstate()        # the same draws, so the same search
    assert settled > 50


def test_four_players_rollouts_are_never_settled():
    """With 4 players the others' rollout moves are random (the tournament policy): no rollout
    ends before the deal does."""
    n = 0
    for g, v in _sampled_states(4, 4):
        c = fast_clone(g)
        c._apply(g._legal()[0])
        rollout(P, c, g, v["seat"], random.Random(1))
        assert c.settled is None and c.to_move is None
        n += 1
    assert n > 20


def _own_plain(g, seat):
    """The own-line search without the memo: (value, best move)."""
    best = bv = None
    for m in P._own_moves(g):
        c = fast_clone(g)
        c._do(m)
        while c.to_move is not None and c.to_move != seat:
            c._do(P._rule_rollout_move(c))
        v = P.evaluate(c, seat, None) if c.to_move is None else _own_plain(c, seat)[0]
        if bv is None or v > bv:
            best, bv = m, v
            if v >= 1.0:
                break
    return bv, best


@pytest.mark.parametrize("n", [3, 4])
def test_the_own_line_memo_changes_no_answer(n):
    checked = 0
    for g, v in _sampled_states(n, 12):
        seat = v["seat"]
        if g.trump_card is not None or C.count(g.hands[seat]) > P.OWN_MAX[n]:
            continue
        P._own_memo.clear()
        first = P._own_node(fast_clone(g), seat)
        again = P._own_node(fast_clone(g), seat)          # from the memo
        assert first == again
        assert first[:2] == _own_plain(fast_clone(g), seat)
        checked += 1
    assert checked > 10


def test_card_judgement_on_masks():
    """The mask forms of the rules' helpers against their plain definitions, every hand of
    random deals and every trump suit."""
    rng = random.Random(7)
    deck = list(P.DECK)
    for _ in range(3000):
        hand = C.mask_of(rng.sample(deck, rng.randint(1, 8)))
        cards = C.cards_of(hand)
        parts = 0
        for su in range(4):
            k, q = C.make(C.KING, su), C.make(C.QUEEN, su)
            if hand >> k & 1 and hand >> q & 1:
                parts |= 1 << k | 1 << q
        assert P._marriage_parts(hand) == parts
        for tr in range(4):
            assert P._cheapest(cards, tr, parts) == min(cards, key=lambda c: (
                C.suit_of(c) == tr, parts >> c & 1, VALUE[c], POWER[c], c))
            trumps = [c for c in cards if C.suit_of(c) == tr]

            class K:
                pass
            k = K()
            k.hand, k.trump = hand, tr
            assert P._keeper(k) == (max(trumps, key=POWER.__getitem__) if trumps else None)
