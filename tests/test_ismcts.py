"""The expert level (5): single-tree information-set MCTS (``atut.bots.ismcts``) with exact
endgames, on every game's plug-in (docs/BOTS.md, "The expert").  Strength is measured by the
arena's benchmark rows, never here; here: it plays every game legally, its decisions are seeded
and repeatable, and the tree's counts add up.  The fair-play test (tests/test_fair_play.py)
covers it too."""

from __future__ import annotations

import random

import pytest

import atut
from atut.bots import hooks, ismcts, make_bot, plugin
from atut.bots.catalogue import BY_NUMBER
from atut.game import canonical

SMALL = {"iterations": 120, "time_cap": 1e9, "clock": "cpu"}
SETTINGS = [("sixty_six", 2), ("sixty_six", 3), ("euchre", 4), ("imperial", 2),
            ("tysiac1001", 3), ("cesarz", 2), ("cesarz", 5)]


def _position(game_id, players, seed, moves):
    """A seeded game after ``moves`` level-2 decisions (fewer if it ends), at a seat with a
    choice."""
    g = atut.new_game(game_id, players=players, seed=seed)
    rules = make_bot(game_id, 2, seed=seed)
    k = 0
    while g.to_move is not None:
        v = g.view(g.to_move)
        if k >= moves and len(v["legal_actions"]) > 1:
            return g
        g.apply(rules.choose(v))
        k += 1
    return None


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_the_expert_plays_a_deal_legally(game_id, players):
    g = atut.new_game(game_id, players=players, seed=11)
    bots = [make_bot(game_id, 5 if s == 0 else 2, seed=s, budget=SMALL if s == 0 else None,
                     strict=True) for s in range(players)]
    deal = g.deal_no
    while g.to_move is not None and g.deal_no == deal:
        g.apply(bots[g.to_move].choose(g.view(g.to_move)))       # apply checks legality
    assert bots[0].stats.get("decisions", 0) > 0


@pytest.mark.parametrize("game_id,players", [("sixty_six", 2), ("euchre", 4), ("cesarz", 3)])
def test_decisions_are_seeded_and_repeatable(game_id, players):
    g = _position(game_id, players, 3, 4)
    view = g.view(g.to_move)
    a = make_bot(game_id, 5, seed=9, budget=SMALL).evaluate(view)
    b = make_bot(game_id, 5, seed=9, budget=SMALL).evaluate(view)
    assert a == b
    assert make_bot(game_id, 5, seed=9, budget=SMALL).choose(view) == \
        make_bot(game_id, 5, seed=9, budget=SMALL).choose(view)


def test_the_tree_counts_add_up_and_the_most_visited_action_is_played():
    g = _position("cesarz", 3, 5, 3)
    view = g.view(g.to_move)
    legal = view["legal_actions"]
    p = plugin("cesarz")
    values, visits = ismcts.search(p, view, legal, random.Random(4), dict(SMALL, uct_c=0.4))
    assert sum(visits) == SMALL["iterations"] and min(visits) >= 1
    bot = make_bot("cesarz", 5, seed=1, budget=SMALL)
    found = bot.evaluate(view)
    best = max(range(len(legal)), key=lambda i: found[1][i])
    rng = bot.decision_rng(view)
    rng.getrandbits(32)                 # the seed of the bot's probe deal (is it solvable?)
    again = ismcts.search(p, view, legal, rng, dict(bot.budget))[1]
    assert again == [int(x) for x in found[1]]             # its scores: visits + under 1
    assert again[best] == max(again)                       # the most visited action
    assert canonical(bot.choose(view)) == canonical(legal[best])


def test_an_open_endgame_is_solved_exactly_not_sampled():
    """66 with two players once the stock is gone (G8): every hidden card is known, so the
    expert values the actions with the exact solver (``solvable``), as level 4 does."""
    rng = random.Random(2)
    for seed in range(40):
        g = atut.new_game("sixty_six", players=2, seed=seed)
        while g.to_move is not None:
            v = g.view(g.to_move)
            probe = hooks(plugin("sixty_six")).determinize(v, rng)
            if len(v["legal_actions"]) > 1 and hooks(plugin("sixty_six")).solvable(probe, probe):
                bot = make_bot("sixty_six", 5, seed=1, budget=dict(SMALL))
                bot.choose(v)
                assert bot.stats.get("solved", 0) >= 1
                return
            g.apply(make_bot("sixty_six", 2, seed=seed).choose(v))
    pytest.fail("no open endgame reached")


def test_the_expert_is_a_row_of_the_level_table():
    lv = BY_NUMBER[5]
    assert (lv.name, lv.algorithm) == ("expert", "ismcts")
    assert make_bot("euchre", "expert").level == 5
    assert {"iterations", "uct_c"} <= set(make_bot("euchre", 5).budget)


def test_the_expert_explores_on_each_game_s_scale_of_values():
    """``uct_c`` is on ``evaluate``'s scale: the level table's 0.4 is 66's (a won deal 1);
    euchre's values (a pair's points and ``DEAL_BONUS``) spread about nine times as far
    (``scripts/value_spread.py``), so its plug-in gives the expert its own constant, and that
    constant reaches the tree."""
    import atut.bots.euchre as E

    table = BY_NUMBER[5].budget["uct_c"]
    assert make_bot("sixty_six", 5).budget["uct_c"] == table
    own = E.BUDGETS[5]["uct_c"]
    assert own >= 9 * table
    assert make_bot("euchre", 5).budget["uct_c"] == own
    # the tree reads it: a decision with the table's constant explores less evenly
    g = atut.new_game("euchre", players=4, seed=2)
    bot = make_bot("euchre", 2, seed=0)
    while g.phase != "play" or len(g.view(g.to_move)["legal_actions"]) < 4:
        g.apply(bot.choose(g.view(g.to_move)))
    view = g.view(g.to_move)
    legal = view["legal_actions"]
    small = dict(SMALL, iterations=400)
    _, narrow = ismcts.search(E, view, legal, random.Random(1), dict(small, uct_c=table))
    _, wide = ismcts.search(E, view, legal, random.Random(1), dict(small, uct_c=own))
    assert min(wide) > min(narrow)


def test_euchre_s_calls_are_left_to_its_own_search_at_level_4():
    """``TREE_ACTIONS`` (euchre: only card play): a call is level 4's decision, same seed."""
    g = atut.new_game("euchre", players=4, seed=8)
    view = g.view(g.to_move)
    assert {a["type"] for a in view["legal_actions"]} - {"play"}
    cap = {"time_cap": 1e9, "clock": "cpu"}
    expert = make_bot("euchre", 5, seed=3, budget=cap)
    assert expert.choose(view) == make_bot("euchre", 4, seed=3, budget=cap).choose(view)
    assert expert.stats.get("decisions") == 1


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_tree_keys_tell_actions_apart_as_their_canonical_json_does(game_id, players):
    """The tree's keys (``ismcts._key``) are equal exactly when two actions' canonical JSON is,
    over every legal action met in random play, the view's copies beside the game's own, and
    an action holding a list falls back to its JSON."""
    rng = random.Random(5)
    by_key, by_json = {}, {}
    for seed in range(3):
        g = atut.new_game(game_id, players=players, seed=seed)
        steps = 0
        while g.to_move is not None and steps < 400:
            own = g._legal()
            shown = g.view(g.to_move)["legal_actions"]
            for a in own + shown:
                by_key.setdefault(ismcts._key(a), set()).add(canonical(a))
                by_json.setdefault(canonical(a), set()).add(ismcts._key(a))
            g._apply(rng.choice(own))
            steps += 1
    assert all(len(v) == 1 for v in by_key.values())
    assert all(len(v) == 1 for v in by_json.values())
    assert ismcts._key({"type": "give", "cards": ["AH", "KH"]}) == canonical(
        {"cards": ["AH", "KH"], "type": "give"})


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_a_determinizer_deals_what_determinize_deals(game_id, players):
    """``determinizer(view)`` (read once, many samples: imperial keeps its declarations' memo)
    makes the very states ``determinize(view, rng)`` makes, draw for draw."""
    h = hooks(plugin(game_id))
    for moves in (0, 6, 14):
        g = _position(game_id, players, 3, moves)
        if g is None:
            continue
        view = g.view(g.to_move)
        deal = h.determinizer(view)
        a, b = random.Random(9), random.Random(9)
        for _ in range(4):
            x, y = deal(a), h.determinize(view, b)
            assert [canonical(x.view(s)) for s in range(players)] == \
                [canonical(y.view(s)) for s in range(players)]
            assert a.random() == b.random()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_cesarz_int_moves_are_its_legal_actions_in_order(players):
    """G8, G11-G19: ``Cesarz._moves()`` lists the moves of ``_legal()`` in the same order (the
    tree's choices depend on the order), and ``_do`` reaches the state ``_apply`` reaches, in
    every phase, over random whole games."""
    from atut.games.cesarz import _play_action, move_parts
    rng = random.Random(players)
    g = atut.new_game("cesarz", players=players, seed=players)
    g._recording = False
    steps = 0
    while g.to_move is not None and steps < 3000:
        legal, moves = g._legal(), g._moves()
        assert len(moves) == len(legal)
        for m, a in zip(moves, legal):
            if g.phase == "play":
                assert _play_action(m) == a and list(_play_action(m)) == list(a)
                assert move_parts(m)[0] >= 0
        j = rng.randrange(len(moves))
        a, b = g.clone(), g.clone()
        a._apply(legal[j])
        b._do(moves[j])
        assert canonical([a.view(s) for s in range(players)]) == \
            canonical([b.view(s) for s in range(players)])
        g._do(moves[j])
        g._cache = None
        steps += 1


@pytest.mark.parametrize("game_id,players", [("cesarz", 3), ("euchre", 4), ("imperial", 2),
                                             ("tysiac1001", 3)])
def test_a_search_state_stops_at_the_end_of_its_deal(game_id, players):
    """A state a search plays (``_one_deal``) counts the next deal without dealing it
    (``Game._next_deal``): ``deal_over`` holds, and ``evaluate`` gives what the same play
    gives on a state that deals on; a game played for real deals on."""
    h = hooks(plugin(game_id))
    for seed in range(3):
        g = atut.new_game(game_id, players=players, seed=seed)
        g._recording = False
        start = g.clone()
        marked = g.clone()
        marked._one_deal = True
        rng = random.Random(seed)
        while g.deal_no == start.deal_no and g.to_move is not None:
            a = rng.choice(g._legal())
            g._apply(a)
            g._cache = None
            marked._apply(a)
            marked._cache = None
        assert marked.deal_no == g.deal_no
        assert h.deal_over(marked, start) and h.deal_over(g, start)
        for s in range(players):     # (imperial scores the next deal's declarations at once)
            assert h.evaluate(marked, s, start) == h.evaluate(g, s, start)
        if g.to_move is not None:
            assert g.phase != "deal" and g._legal()
            assert marked.phase == "deal" and marked._legal() == []


def test_cesarz_rollout_play_is_its_rollout_policy_applied():
    """The plug-in's ``rollout_play`` (ints straight to ``_play_card``) makes the draws and
    reaches the states of ``_apply(rollout_policy(...))``."""
    from atut.bots import cesarz as plug
    for seed in range(3):
        g = atut.new_game("cesarz", players=3, seed=seed)
        g._recording = False
        a, b = g.clone(), g.clone()
        ra, rb = random.Random(seed), random.Random(seed)
        while a.to_move is not None and a.deal_no == g.deal_no:
            plug.rollout_play(a, ra)
            b._apply(plug.rollout_policy(b, rb))
            assert canonical(a.view(None)) == canonical(b.view(None))
        assert ra.random() == rb.random()
