"""atut.openspiel: the five games as OpenSpiel games (docs/OPENSPIEL.md).

OpenSpiel's own checks (random simulations with serialisation), the action tables, the
information states (nothing a seat cannot see), resampling, clone and serialisation, our
euchre against OpenSpiel's C++ euchre move for move (apart from G9: our dealer may discard the
upcard, docs/rules/euchre.md), and a short seeded arena run with an IS-MCTS seat.

``open-spiel`` is installed by ``build.py test``; without it these tests are skipped locally
and fail under ``CI=true``.
"""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut import arena
from atut import lockstep as L
from atut import openspiel as O
from atut.game import canonical
from helpers import need_pyspiel

pyspiel = need_pyspiel()

O.register()

COUNTS = {"euchre": (4,), "sixty_six": (2, 3, 4), "imperial": (2, 3), "tysiac1001": (3, 4),
          "cesarz": (2, 3, 4, 5)}
CONFIGS = [(g, n) for g, ns in COUNTS.items() for n in ns]


def load(gid, **params):
    return pyspiel.load_game(O.PREFIX + gid, params)


def random_state(game, rng, decisions):
    """A state after the deal and ``decisions`` random decisions (fewer if the deal ends)."""
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.choice(s.chance_outcomes())[0])
    for _ in range(decisions):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def play_out(s, rng):
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return s


# --- OpenSpiel's own API check ----------------------------------------------------------------

@pytest.mark.parametrize("gid,n", CONFIGS)
def test_random_sim_test_one_deal(gid, n):
    game = load(gid, players=n)
    assert game.num_players() == n
    assert game.num_distinct_actions() == len(O.action_table(gid, n))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("gid,n", [("euchre", 4), ("sixty_six", 2), ("imperial", 2),
                                   ("tysiac1001", 3), ("cesarz", 3)])
def test_match_and_options(gid, n):
    """The whole game (``match``), with a fixed dealer and each game's non-default options:
    OpenSpiel's check on the shorter games, a random game to its end where random play ends
    one (random bidders in 1000 and cesarz fall below zero and never reach the target: there,
    three deals)."""
    cls = atut.game_class(gid)
    opts = {k: v[-1] for k, v in cls.OPTIONS.items()}
    game = load(gid, players=n, match=True, dealer=n - 1, **opts)
    if gid in ("euchre", "sixty_six"):
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    rng = random.Random(5)
    s = random_state(game, rng, 0)
    g = s.atut_game()
    assert g.dealer == n - 1 and g.options == opts
    while not s.is_terminal() and (gid not in ("tysiac1001", "cesarz") or g.deal_no <= 3):
        assert s.returns() == [0.0] * n
        s.apply_action(rng.choice(s.legal_actions()))
    if s.is_terminal():
        r = s.returns()
        assert abs(sum(r)) < 1e-9 and max(r) == 1.0      # the winner's side: +1 (zero-sum)
    else:
        assert g.deal_no == 4                           # the game went on to the next deals


def test_parameters_and_chance_layout():
    game = load("euchre", redeal=True, dealer=2)
    assert game.get_parameters() == {"players": 4, "match": False, "dealer": 2, "redeal": True,
                                     "defend_alone": True}
    s = game.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 24     # the dealer is fixed
    s.apply_action(s.chance_outcomes()[0][0])
    assert len(s.chance_outcomes()) == 23
    m = load("sixty_six", match=True).new_initial_state()
    assert len(m.chance_outcomes()) == O.SEED_OUTCOMES               # the engine's seed first
    m.apply_action(7)
    assert len(m.chance_outcomes()) == 2                             # then the dealer
    assert m.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "dealer 0"
    with pytest.raises((ValueError, pyspiel.SpielError)):
        load("euchre", players=3)
    with pytest.raises((ValueError, pyspiel.SpielError)):
        load("tysiac1001", handout="nope")


# --- action tables ----------------------------------------------------------------------------

@pytest.mark.parametrize("gid,n", CONFIGS)
def test_action_table_covers_random_games(gid, n):
    """Every legal action met in seeded random whole games is in the table (and the table
    is sorted canonical JSON without repeats)."""
    table = O.action_table(gid, n)
    assert table == sorted(set(table))
    known = set(table)
    cls = atut.game_class(gid)
    rng = random.Random(n * 101)
    met = set()
    for _ in range(5 if gid in ("tysiac1001", "cesarz") else 12):   # long games: fewer
        opts = {k: rng.choice(v) for k, v in cls.OPTIONS.items()}
        g = atut.new_game(gid, players=n, seed=rng.randrange(10 ** 6), options=opts)
        steps = 0
        while not g.is_over and steps < 3000:
            legal = g.legal_actions()
            keys = {canonical(a) for a in legal}
            assert keys <= known, sorted(keys - known)
            met |= keys
            g.apply(rng.choice(legal))
            steps += 1
    assert len(met) > len(table) // 8                      # the games were really played


# --- information states -----------------------------------------------------------------------

def _shows(g, p, cards):
    """Whether seat ``p``'s view (its log included) shows one of ``cards``."""
    text = canonical(g.view(p))
    return any(f'"{c}"' in text for c in cards)


def _swapped_decks(gid, n, p, rng):
    """Two decks whose deals differ only in where two cards lie, one of them in another
    seat's hand, neither shown to seat ``p`` (whose first views are the same: imperial's
    declarations, for one, show what a hand holds without its cards); or None."""
    cls = atut.game_class(gid)
    for _ in range(40):
        deck = cls.deck_for(n)
        rng.shuffle(deck)
        dealer = rng.randrange(n)
        codes = [atut.cards.code(c) for c in deck]
        g = atut.new_game(gid, players=n, seed=1, dealer=dealer, deck=codes)
        others = [s for s in range(n) if s != p and g.view(s)["hand"]]
        if not others:
            continue
        a = rng.choice(others)
        c1 = rng.choice(g.view(a)["hand"])
        c2 = rng.choice([c for c in codes if c != c1 and c not in g.view(a)["hand"]])
        if _shows(g, p, (c1, c2)):
            continue
        i, j = codes.index(c1), codes.index(c2)
        swapped = list(codes)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        h = atut.new_game(gid, players=n, seed=1, dealer=dealer, deck=swapped)
        if g.view(p) == h.view(p) and h.view(a)["hand"] != g.view(a)["hand"]:
            return dealer, deck, [atut.cards.card(x) for x in swapped], (c1, c2), a
    return None


@pytest.mark.parametrize("gid,n", CONFIGS)
def test_information_state_hides_unseen_cards(gid, n):
    """Two states that differ only in where two cards lie, neither shown to seat p, give p
    the same information state and observation strings for as long as neither card shows in
    p's view (played, drawn, revealed); the seat holding one of them sees the difference (the
    check can fail)."""
    rng = random.Random(sum(map(ord, gid)) * 10 + n)
    game = load(gid, players=n)
    checked = 0
    for p in range(n):
        found = _swapped_decks(gid, n, p, rng)
        if found is None:
            continue
        dealer, d1, d2, cards, holder = found
        states = []
        for deck in (d1, d2):
            s = game.new_initial_state()
            s.apply_action(dealer)
            for c in deck:
                s.apply_action(c)
            states.append(s)
        s1, s2 = states
        assert s1.information_state_string(holder) != s2.information_state_string(holder)
        for _ in range(300):
            if any(_shows(x.atut_game(), p, cards) for x in states):
                break
            assert s1.information_state_string(p) == s2.information_state_string(p)
            assert s1.observation_string(p) == s2.observation_string(p)
            if s1.is_terminal() or s2.is_terminal():
                break
            common = sorted(set(s1.legal_actions()) & set(s2.legal_actions()))
            if not common:
                break
            a = rng.choice(common)
            s1.apply_action(a)
            s2.apply_action(a)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("gid,n", [("euchre", 4), ("sixty_six", 3), ("imperial", 3),
                                   ("tysiac1001", 4), ("cesarz", 5)])
def test_view_without_log_is_the_view(gid, n):
    rng = random.Random(3)
    game = load(gid, players=n, match=True)
    for k in range(6):
        s = random_state(game, rng, 10 * k)
        g = s.atut_game()
        for p in range(n):
            v = g.view(p)
            v.pop("log")
            assert O.view_without_log(g, p) == v


def test_information_state_has_the_whole_match():
    """Match mode: the information state keeps what the seat saw in earlier deals (perfect
    recall), though the view's log starts afresh with each deal."""
    game = load("euchre", match=True)
    rng = random.Random(2)
    s = random_state(game, rng, 0)
    g = s.atut_game()
    first_hand = {"cards": g.view(0)["hand"], "seat": 0, "type": "hand"}
    while not s.is_terminal() and g.deal_no == 1:
        s.apply_action(rng.choice(s.legal_actions()))
    assert g.deal_no == 2
    assert first_hand not in g.view(0)["log"]
    info = s.information_state_string(0)
    assert canonical(first_hand) in info
    assert canonical(first_hand) not in s.information_state_string(1)


# --- returns ----------------------------------------------------------------------------------

@pytest.mark.parametrize("gid,n", CONFIGS)
def test_returns_are_the_deals_margin(gid, n):
    game = load(gid, players=n)
    rng = random.Random(n)
    for _ in range(6):
        s = play_out(game.new_initial_state(), rng)
        g = s.atut_game()
        r = s.returns()
        assert abs(sum(r)) < 1e-9
        assert all(game.min_utility() <= x <= game.max_utility() for x in r)
        gain = g.scores
        for seat in range(n):
            side = [o for o in range(n) if (o - seat) & 1] if gid == "euchre" else \
                [o for o in range(n) if o != seat]
            assert r[seat] == pytest.approx(gain[seat] - sum(gain[o] for o in side) / len(side))


# --- resampling, clone, serialisation ---------------------------------------------------------

@pytest.mark.parametrize("gid,n", CONFIGS)
def test_resample_from_infostate(gid, n):
    """The resampled state shows the player the same view and information state, its hidden
    cards are dealt anew (some sample differs), and it plays on to the end."""
    rng = random.Random(17 * n)
    game = load(gid, players=n)
    differs = 0
    for _ in range(8):
        s = random_state(game, rng, rng.randrange(0, 25))
        if s.is_terminal():
            continue
        p = s.current_player()
        hidden = [sorted(s.atut_game().view(q)["hand"]) for q in range(n)]
        for _ in range(3):
            r = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.atut_game().view(p) == s.atut_game().view(p)
            assert r.legal_actions() == s.legal_actions()
            differs += [sorted(r.atut_game().view(q)["hand"]) for q in range(n)] != hidden
            play_out(r, rng)
    assert differs > 0


def test_resample_is_seeded_by_the_sampler():
    game = load("euchre")
    s = random_state(game, random.Random(1), 6)
    p = s.current_player()
    a = O.resample(s, p, random.Random(5))
    b = O.resample(s, p, random.Random(5))
    assert str(a) == str(b)


@pytest.mark.parametrize("gid,n", [("euchre", 4), ("sixty_six", 2), ("tysiac1001", 3),
                                   ("cesarz", 4), ("imperial", 3)])
def test_clone_and_serialisation(gid, n):
    for match in (False, True):
        game = load(gid, players=n, match=match)
        rng = random.Random(9)
        s = random_state(game, rng, 7)
        text = str(s)
        c = s.clone()
        assert str(c) == text and c.history() == s.history()
        if not c.is_terminal():
            c.apply_action(c.legal_actions()[-1])
            assert str(s) == text                       # the clone is a copy
        g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, s))
        assert str(g2) == str(game) and str(s2) == text
        assert s2.information_state_string(0) == s.information_state_string(0)
        assert s2.legal_actions() == s.legal_actions()


# --- against OpenSpiel's C++ euchre -----------------------------------------------------------

# the card and action mapping, shared with the lockstep runs (atut.lockstep)
OS_SUITS, _os_card, _os_to_ours, _deck_for_ours = (L.OS_SUITS, L.os_card, L.os_to_ours,
                                                    L.deck_for_ours)


def test_euchre_agrees_with_openspiel_euchre():
    """Random play driven move for move in both: the same legal actions, hands, trump, turn
    and points in every deal, apart from G9 (our dealer may discard the upcard; OpenSpiel's
    may not): the dealer's discard sets differ by exactly the upcard, and a deal where our
    random dealer buries it is skipped and counted.  OpenSpiel's ``stick_the_dealer`` is our
    ``redeal`` off (a deal passed out twice is rare in random play; both score it 0);
    ``allow_lone_defender`` off is our ``defend_alone`` off (OpenSpiel would ask defenders also
    after a partnered maker, G10)."""
    rng = random.Random(20)
    compared = skipped = alone = 0
    for k in range(240):
        stick = k % 4 != 0
        cg = pyspiel.load_game("euchre", {"allow_lone_defender": False,
                                          "stick_the_dealer": stick})
        cs = cg.new_initial_state()
        while cs.is_chance_node():
            cs.apply_action(rng.choice(cs.chance_outcomes())[0])
        dealer = cs.dealer()
        os_cards = [_os_card(cs.action_to_string(-1, h.action)) for h in cs.full_history()[1:]]
        game = load("euchre", redeal=not stick, defend_alone=False)
        s = game.new_initial_state()
        s.apply_action(dealer)
        for c in _deck_for_ours(dealer, os_cards):
            s.apply_action(atut.cards.card(c))
        g = s.atut_game()
        up = g.view(0)["upcard"]
        assert up == os_cards[20]
        buried = False
        while not cs.is_terminal():
            assert not s.is_terminal()
            assert s.current_player() == cs.current_player()
            holder = cs.card_holder()
            for seat in range(4):
                theirs = sorted(_os_card(pyspiel.euchre.card_string(c)) for c in range(24)
                                if holder[c] == seat)
                assert sorted(g.view(seat)["hand"]) == theirs
            t = int(cs.trump_suit())
            assert g.view(0)["trump"] == (OS_SUITS[t] if t >= 0 else None)
            phase = g.phase
            mapped = {canonical(_os_to_ours(cs, a, phase)): a for a in cs.legal_actions()}
            ours = {s.action_to_string(s.current_player(), a): a for a in s.legal_actions()}
            if phase == "discard":                  # G9: ours may also discard the upcard
                assert set(ours) == set(mapped) | {canonical({"type": "discard", "card": up})}
            else:
                assert set(ours) == set(mapped)
            key = rng.choice(sorted(ours))
            if key not in mapped:
                buried = True
                break
            alone += key == canonical({"type": "alone", "value": True})
            cs.apply_action(mapped[key])
            s.apply_action(ours[key])
        if buried:
            skipped += 1
            continue
        assert s.is_terminal()
        assert s.returns() == cs.returns()           # ±1, 2 or 4 for the makers' pair (G14)
        compared += 1
    assert compared > 180 and alone > 5
    assert 0 < skipped < 50          # G9: our random dealer buries the upcard 1 time in 6


# --- the IS-MCTS seat -------------------------------------------------------------------------

def test_ismcts_seat_chooses_legal_actions_from_the_view_only():
    g = atut.new_game("sixty_six", players=2, seed=4)
    bot = O.ismcts_bot("sixty_six", 40, seed=1)
    twin = atut.new_game("sixty_six", players=2, seed=4)
    v = g.view(g.to_move)
    a = bot.choose(v)
    assert a in v["legal_actions"]
    assert bot.choose(twin.view(twin.to_move)) == a             # seeded by seed and view
    with pytest.raises(ValueError):
        O.ismcts_spec("ismcts:0")
    with pytest.raises(ValueError):
        arena.bot_spec("ismcts:lots")


def test_arena_with_an_ismcts_seat_is_repeatable():
    runs = [arena.run("euchre", [3, "ismcts:30"], deals=1, seed=2) for _ in range(2)]
    for r in runs:
        assert [b["name"] for b in r["bots"]] == ["3 search", "ismcts:30"]
    strip = [json.dumps([{k: v for k, v in b.items()} for b in r["bots"]], sort_keys=True)
             for r in runs]
    assert strip[0] == strip[1]
