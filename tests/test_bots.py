"""Generic bot tests: levels, seeding, the view as the only input, plug-in determinizers,
the constrained card sampler, the solver and the arena."""

from __future__ import annotations

import copy
import json
import random

import pytest

import atut
from atut import arena
from atut import bots as B

SMALL = {"rollouts": 12, "min_samples": 2, "time_cap": 30.0}
BUILT = atut.built_games()


def _mid_game(game_id, players, seed, steps):
    """A game after ``steps`` random actions (fewer if it ends)."""
    g = atut.new_game(game_id, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


# --- make_bot -------------------------------------------------------------------------------

def test_make_bot_levels_and_names():
    assert [type(B.make_bot("sixty_six", lv)).__name__ for lv in (1, 2, 3, 4)] == \
        ["RandomBot", "RuleBot", "SearchBot", "StrongBot"]
    for name, lv in (("random", 1), ("rules", 2), ("search", 3), ("strong", 4), ("3", 3)):
        assert B.make_bot("sixty_six", name).level == lv
    assert atut.make_bot("sixty_six", 3, seed=2).level == 3


@pytest.mark.parametrize("bad", [0, 6, True, "best", None, 2.0])
def test_make_bot_rejects_bad_level(bad):
    with pytest.raises(ValueError, match="level"):
        B.make_bot("sixty_six", bad)


def test_make_bot_rejects_bad_game_seed_budget():
    with pytest.raises(ValueError, match="unknown game"):
        B.make_bot("poker", 1)
    with pytest.raises(ValueError, match="seed"):
        B.make_bot("sixty_six", 1, seed="x")
    with pytest.raises(ValueError, match="budget"):
        B.make_bot("sixty_six", 3, budget={"samples": 3})
    with pytest.raises(ValueError, match="budget"):
        B.make_bot("sixty_six", 1, budget={"rollouts": 3})


def test_bot_refuses_a_view_without_legal_actions():
    g = atut.new_game("sixty_six", players=2, seed=1)
    other = 1 - g.to_move
    for lv in (1, 2, 3, 4):
        with pytest.raises(ValueError, match="not to move"):
            B.make_bot("sixty_six", lv).choose(g.view(other))
    with pytest.raises(ValueError, match="plays"):
        B.make_bot("euchre", 1).choose(g.view(g.to_move))


def test_budgets_come_from_defaults_plugin_and_arguments():
    b = B.make_bot("sixty_six", 3)
    assert b.budget["rollouts"] == B.plugin("sixty_six").BUDGETS[3]["rollouts"]
    assert b.budget["time_cap"] == B.BUDGETS[3]["time_cap"] == 0.3
    assert B.make_bot("sixty_six", 4).budget["time_cap"] == 1.0
    assert B.make_bot("sixty_six", 3, budget={"rollouts": 7}).budget["rollouts"] == 7


# --- every built game, every level ----------------------------------------------------------

@pytest.mark.parametrize("game_id", BUILT)
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_every_level_plays_legal_actions(game_id, level):
    cls = atut.game_class(game_id)
    for players in cls.PLAYERS:
        for seed in range(2):
            g = _mid_game(game_id, players, seed, 7 * seed + 3)
            if g.is_over:
                continue
            bot = B.make_bot(game_id, level, seed=seed,
                             budget=SMALL if level >= 3 else None, strict=True)
            for _ in range(4):
                if g.is_over:
                    break
                v = g.view(g.to_move)
                a = bot.choose(v)
                assert a in v["legal_actions"]
                g.apply(a)


@pytest.mark.parametrize("game_id", [g for g in BUILT
                                     if hasattr(B.plugin(g), "determinize")])
def test_determinize_matches_the_view(game_id):
    """Sampled states have the view's seat to move and exactly its legal actions."""
    p = B.plugin(game_id)
    cls = atut.game_class(game_id)
    for players in cls.PLAYERS:
        for seed in range(4):
            g = atut.new_game(game_id, players=players, seed=seed)
            rng = random.Random(seed)
            for _ in range(60):
                if g.is_over:
                    break
                v = g.view(g.to_move)
                d = p.determinize(v, rng)
                B.check_determinization(d, v, [atut.canonical(a) for a in v["legal_actions"]])
                assert d.scores == g.scores and d.phase == g.phase
                g.apply(rng.choice(v["legal_actions"]))


def test_fallback_without_plugin(monkeypatch):
    """A game with no plug-in still gets legal actions at levels 2-4 (random)."""
    monkeypatch.setattr(B.levels, "plugin", lambda game_id: None)
    g = atut.new_game("sixty_six", players=3, seed=4)
    v = g.view(g.to_move)
    for lv in (2, 3, 4):
        bot = B.make_bot("sixty_six", lv, seed=1, strict=True)
        assert bot.plugin is None
        assert bot.choose(v) in v["legal_actions"]


# --- seeding and the view as the only input ---------------------------------------------------

@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_same_seed_same_decisions(level):
    budget = SMALL if level >= 3 else None
    for seed in range(3):
        g = _mid_game("sixty_six", 2, seed, 5)
        v = g.view(g.to_move)
        a1 = B.make_bot("sixty_six", level, seed=9, budget=budget, strict=True).choose(v)
        a2 = B.make_bot("sixty_six", level, seed=9, budget=budget,
                        strict=True).choose(copy.deepcopy(v))
        assert a1 == a2


def test_seed_changes_random_decisions():
    g = atut.new_game("sixty_six", players=2, seed=3)
    v = g.view(g.to_move)
    picks = {atut.canonical(B.make_bot("sixty_six", 1, seed=s).choose(v)) for s in range(30)}
    assert len(picks) > 1


# That a bot sees nothing but the view, and decides the same when the cards its seat cannot
# see are dealt differently, is tested for every game and level in tests/test_fair_play.py.


def test_search_never_touches_the_view():
    g = _mid_game("sixty_six", 3, 2, 6)
    v = g.view(g.to_move)
    before = json.dumps(v, sort_keys=True)
    B.make_bot("sixty_six", 4, seed=1, budget=SMALL, strict=True).choose(v)
    assert json.dumps(v, sort_keys=True) == before


# --- helpers ----------------------------------------------------------------------------------

def test_sample_cards_respects_sizes_and_constraints():
    rng = random.Random(1)
    cards = list(range(12))
    low = sum(1 << c for c in range(6))
    for _ in range(200):
        out = B.sample_cards(cards, {"a": 4, "b": 4, "c": 4}, {"a": low, "b": ~low}, rng)
        assert sorted(bin(m).count("1") for m in out.values()) == [4, 4, 4]
        assert out["a"] | out["b"] | out["c"] == (1 << 12) - 1
        assert out["a"] & ~low == 0 and out["b"] & low == 0


def test_sample_cards_finds_the_only_deal_and_refuses_impossible():
    rng = random.Random(2)
    # "a" may only take 0 and 1, "b" only 2 and 3: a tight matching
    out = B.sample_cards([0, 1, 2, 3], {"a": 2, "b": 2}, {"a": 0b0011, "b": 0b1100}, rng)
    assert out == {"a": 0b0011, "b": 0b1100}
    with pytest.raises(ValueError):
        B.sample_cards([0, 1, 2], {"a": 2, "b": 1}, {"a": 0b001, "b": 0b001}, rng)
    with pytest.raises(ValueError):
        B.sample_cards([0, 1], {"a": 3}, {}, rng)


def _plain_sample_cards(cards, sizes, allowed, rng):
    """The plain form of ``sample_cards``'s random tries (as it was written first), the oracle
    of its fast loop: the same deals from the same draws."""
    from atut.bots.sampling import match_cards
    places = list(sizes)
    ok = {c: [q for q in places if (allowed.get(q, -1) >> c) & 1] for c in cards}
    order = sorted(cards, key=lambda c: len(ok[c]))
    for _ in range(30):
        left = dict(sizes)
        out = {q: 0 for q in places}
        shuffled = list(order)
        rng.shuffle(shuffled)
        shuffled.sort(key=lambda c: len(ok[c]))
        for c in shuffled:
            opts = [q for q in ok[c] if left[q] > 0]
            if not opts:
                break
            r = rng.randrange(sum(left[q] for q in opts))
            for q in opts:
                r -= left[q]
                if r < 0:
                    break
            out[q] |= 1 << c
            left[q] -= 1
        else:
            return out
    return match_cards(cards, sizes, allowed, rng)


def test_sample_cards_deals_as_its_plain_form():
    # the same deal from the same RNG state, and the RNG left in the same state: with voids,
    # without, and constraints that only the exhaustive matching meets
    from atut import cards as C
    from atut.bots.sampling import sample_cards
    rng = random.Random(3)
    deck = list(range(24))
    cases = 0
    for i in range(300):
        cards = rng.sample(deck, 12)
        sizes = {0: 5, 1: 4, "przykup": 3} if i % 2 else {0: 6, 1: 6}
        allowed = {}
        for q in list(sizes)[:2]:
            if rng.random() < 0.6:
                allowed[q] = ~(C.SUIT_MASK[rng.randrange(4)])
        if i % 7 == 0:                      # tight: one seat takes only the cards it must
            allowed = {0: C.mask_of(cards[:sizes[0]])}
        r1, r2 = random.Random(i), random.Random(i)
        try:
            want = _plain_sample_cards(cards, sizes, allowed, r1)
        except ValueError:
            with pytest.raises(ValueError):
                sample_cards(cards, sizes, allowed, r2)
            continue
        assert sample_cards(cards, sizes, allowed, r2) == want
        assert r1.random() == r2.random()
        cases += 1
    assert cases > 200


def test_sample_cards_is_roughly_uniform_without_constraints():
    rng = random.Random(3)
    hits = 0
    for _ in range(2000):
        out = B.sample_cards(list(range(6)), {"a": 2, "b": 4}, {}, rng)
        hits += out["a"] & 1
    assert 550 < hits < 780          # expected 2000 * 2/6 = 667


def test_fast_clone_is_independent():
    g = _mid_game("sixty_six", 2, 1, 3)
    c = B.fast_clone(g)
    a = c._legal()[0]
    before = g.view(g.to_move)
    c._apply(a)
    assert g.view(g.to_move) == before


# --- arena --------------------------------------------------------------------------------------

def test_arena_lineup_and_rotations():
    assert arena.lineup("sixty_six", [3, 2], 4) == [0, 1, 1, 1]
    assert arena.lineup("euchre", [3, 2], 4) == [0, 1, 0, 1]
    assert len(arena.rotations("sixty_six", [0, 1, 1, 1])) == 4
    assert arena.rotations("euchre", [0, 1, 0, 1]) == [[0, 1, 0, 1], [1, 0, 1, 0]]
    with pytest.raises(ValueError):
        arena.lineup("sixty_six", [1, 2, 3], 2)


def test_arena_run_is_duplicate_and_consistent():
    r = arena.run("sixty_six", [2, 1], 3, deals=6, seed=4)
    shares = [b["share"] for b in r["bots"]]
    assert abs(sum(shares) - 1) < 1e-9
    assert r["bots"][0]["fair"] == pytest.approx(1 / 3)
    assert r["bots"][0]["margin"] > -120
    # the same bot on both sides of a duplicate deal wins exactly half
    same = arena.run("sixty_six", [1, 1], 2, deals=5, seed=2)
    assert [b["share"] for b in same["bots"]] == [0.5, 0.5]
    assert same["bots"][0]["margin"] == 0
    assert "win share" in arena.report(r)
    assert arena.run("sixty_six", [2, 1], 3, deals=6, seed=4)["bots"] == r["bots"]


def test_arena_report_counts_games_in_game_mode():
    """``--mode game`` plays whole games: the report counts games and the margin per game."""
    r = arena.run("euchre", [2, 1], 4, deals=2, seed=3, mode="game")
    out = arena.report(r)
    assert "2 duplicate games" in out and "per game" in out and "per deal" not in out
    d = arena.report(arena.run("euchre", [2, 1], 4, deals=2, seed=3))
    assert "2 duplicate deals" in d and "per deal" in d


def test_arena_elo_and_ci():
    assert arena.elo(0.5, 0.5) == pytest.approx(0)
    assert arena.elo(0.76, 0.5) == pytest.approx(200, abs=2)
    assert arena.elo(0.25, 0.25) == pytest.approx(0)
    m, ci = arena.mean_ci([0.0, 1.0] * 50)
    assert m == 0.5 and 0.09 < ci < 0.11


def test_arena_main_rejects_bad_input(capsys):
    assert arena.main(["sixty_six", "--bots", "9,1", "--deals", "1"]) == 2
    assert "level" in capsys.readouterr().err
    assert arena.main(["sixty_six", "--bots", "1,1", "--players", "7", "--deals", "1"]) == 2
    assert arena.main(["sixty_six", "--bots", "2,1", "--players", "2", "--deals", "2"]) == 0
    assert "rules" in capsys.readouterr().out


def test_bench_bots_prints_times(capsys):
    assert arena.bench_bots(["--games", "sixty_six", "--levels", "1,2", "--deals", "1"]) == 0
    out = capsys.readouterr().out
    assert "sixty_six" in out and "mean ms" in out
    assert arena.bench_bots(["--games", "poker"]) == 2


def test_a_failing_search_falls_back_to_the_rules_unless_strict(monkeypatch):
    def broken(view, rng):
        raise RuntimeError("plug-in bug")
    g = atut.new_game("sixty_six", players=2, seed=1)
    v = g.view(g.to_move)
    bot = B.make_bot("sixty_six", 3, seed=1, strict=True)
    monkeypatch.setattr(bot.plugin, "determinize", broken)
    with pytest.raises(RuntimeError):
        bot.choose(v)
    bot = B.make_bot("sixty_six", 3, seed=1, strict=False)
    with pytest.warns(RuntimeWarning, match="plug-in bug"):
        a = bot.choose(v)
    assert a == B.make_bot("sixty_six", 2, seed=1).choose(v)
    assert bot.stats["errors"] == 1
