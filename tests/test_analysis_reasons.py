"""The hint's reason (``atut.analysis.reason``) in euchre, imperial and cesarz: every reason the
view gives is true of the real hidden hands (a sure winner takes the trick whatever the others
play legally: every legal continuation of the trick is tried in the real game), and the reason
is a function of the view alone (the same view with the unseen cards dealt differently gives
the same reason).  Each game must give reasons in a good share of positions, so that no check
here passes for want of cases.  66 and 1000: tests/test_analysis.py."""

from __future__ import annotations

import collections
import random

import pytest
from test_fair_play import positions, twin

import atut
from atut import cards as C
from atut.analysis import reason
from atut.bots import make_bot
from atut.games import euchre as EU
from atut.games import imperial as IM

SETTINGS = [("euchre", 4), ("imperial", 2), ("imperial", 3), ("cesarz", 2), ("cesarz", 3),
            ("cesarz", 4), ("cesarz", 5)]
# the keys each game must give at least once over the seeded deals below (all of them:
# the test then covers every claim of each game)
EXPECTED = {
    "euchre": {"sure_winner", "partner_wins", "void_shown", "void_made", "trumps_held",
               "trumps_pickup"},
    "imperial": {"honour_lead", "sure_winner", "seventh_trick", "void_shown"},
    "cesarz": {"sure_winner", "joker_winner", "void_shown", "marriage_trump", "meld_pair",
               "emperor", "emperor_interrupts", "emperor_trick"},
}
DEALS = {"euchre": 8, "imperial": 2, "cesarz": 1}
TAKES = ("trick", "interrupted")            # the events of cards taken, with their "winner"
NODE_CAP = 60_000                            # continuations tried for one claim, at most


def _recording(game):
    """A clone of ``game`` that records its events (``Game.clone`` does not)."""
    g = game.clone()
    g._recording = True
    return g


def _takes(game, action, need, playouts=0):
    """Every sequence of the first ``need`` winners of the cards taken after ``action``, over
    every legal continuation of the real game (each seat's every legal action in turn); with
    ``playouts``, over that many random legal continuations only."""
    found = set()
    nodes = [0]
    rng = random.Random(len(game.history))

    def walk(g, a, won):
        nodes[0] += 1
        assert nodes[0] <= NODE_CAP, "too many continuations to try"
        g = _recording(g)
        g.apply(a)
        won = won + [e["winner"] for e in g.events if e["type"] in TAKES]
        if len(won) >= need or g.is_over:
            found.add(tuple(won[:need]))
            return
        legal = g.legal_actions()
        for b in ([rng.choice(legal)] if playouts else legal):
            walk(g, b, won)

    for _ in range(playouts or 1):
        walk(game, action, [])
    return found


def _events(game, action):
    """The game after ``action``, its record read without the fields that explain an event
    (``EXPLAIN_FIELDS``: rule ids and score lines, docs/ENGINE.md)."""
    from atut.game import EXPLAIN_FIELDS
    g = _recording(game)
    g.apply(action)
    g.events = [{k: v for k, v in e.items() if k not in EXPLAIN_FIELDS} for e in g.events]
    return g


def _eff_suit(game_id, game, c):
    """The suit ``c`` counts as in this deal (euchre's left bower is a trump, G5)."""
    if game_id == "euchre":
        return EU.EFF[game.trump][c]
    return C.suit_of(c)


def check(game_id, game, view, action, why, playouts=0):
    """Assert that ``why`` (the reason for ``action`` in ``view``) is true of the real game:
    a claim about who takes the trick over every legal continuation (or, with ``playouts``, that
    many random ones)."""
    seat = view["seat"]
    key = why["key"]
    if key in ("sure_winner", "joker_winner", "seventh_trick", "emperor"):
        assert _takes(game, action, 1, playouts) == {(seat,)}, (key, action)
        if key == "seventh_trick":
            assert game.tricks_won[seat] == 6
        if key == "emperor":
            assert action["card"] == "EMPEROR" and not game.trick
    elif key == "emperor_interrupts":
        # G14: the cards on the table go to their winner, the emperor trick to the seat
        assert action["card"] == "EMPEROR"
        assert _takes(game, action, 2, playouts) == {(why["winner"], seat)}
    elif key in ("partner_wins", "emperor_trick"):
        assert _takes(game, action, 1, playouts) == {(why["seat"],)}, (key, action)
        if key == "partner_wins":
            assert why["seat"] == (seat + 2) % 4
            assert {"seat": why["seat"], "card": why["card"]} in view["trick"]
    elif key == "void_shown":
        s, suit = why["seat"], C.SUITS.index(why["suit"])
        assert s != seat and s not in {e["seat"] for e in view["trick"]}
        assert not any(_eff_suit(game_id, game, x) == suit for x in C.cards_of(game.hands[s]))
    elif key == "honour_lead":                                    # imperial G4, G14
        assert not game.trick and IM.HONOURS[(game.n, game.trump)] >> C.card(action["card"]) & 1
        g = _events(game, action)
        assert {"type": "honour_lead", "seat": seat, "card": action["card"],
                "points": why["points"]} in g.events
    elif key in ("marriage_trump", "meld_pair", "marriage"):       # cesarz §7, G16, G17
        g = _events(game, action)
        melds = [e for e in g.events if e["type"] == "meld"]
        assert len(melds) == 1 and melds[0]["seat"] == seat
        if key == "meld_pair":
            assert melds[0]["value"] == why["points"] and melds[0]["kind"] == 2
            assert melds[0]["cards"] == [why["card"], why["meld"]]
        else:
            assert melds[0]["kind"] == 1
            assert C.SUITS[g.trump] == why["suit"]
        if key == "marriage_trump":
            assert melds[0]["value"] == why["points"]
            assert {"type": "trump", "suit": why["suit"], "seat": seat} in g.events
    elif key in ("trumps_held", "trumps_pickup"):                 # euchre G4, G5, G9
        g = _events(game, action)
        t = C.SUITS.index(why["suit"])
        assert g.trump == t
        trumps = [x for x in C.cards_of(g.hands[seat]) if EU.EFF[t][x] == t]
        assert len(trumps) == why["count"] >= 2
        assert max(trumps, key=lambda x: EU.POWER[t][x]) == C.card(why["card"])
        assert (key == "trumps_pickup") == (action["type"] == "order_up" and seat == g.dealer)
        if key == "trumps_pickup":
            assert C.card(why["upcard"]) in trumps
    elif key == "void_made":                                       # euchre G9
        g = _events(game, action)
        t, s = g.trump, C.SUITS.index(why["suit"])
        left = C.cards_of(g.hands[seat])
        assert s != t and not any(EU.EFF[t][x] == s for x in left)
        assert any(EU.EFF[t][x] == t for x in left)
        assert EU.EFF[t][C.card(action["card"])] == s
    else:
        raise AssertionError(f"a reason the test does not know: {why}")


def _deal_positions(game_id, players, seed, deals):
    """(game, view) of every decision of ``deals`` deals played by level-2 bots."""
    game = atut.new_game(game_id, players=players, seed=seed)
    bots = [make_bot(game_id, 2, seed=seed * 7 + s) for s in range(players)]
    last = game.deal_no + deals
    while not game.is_over and game.deal_no < last:
        s = game.to_move
        view = game.view(s)
        yield game, view
        game.apply(bots[s].choose(view))


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_every_reason_is_true_of_the_hidden_hands(game_id, players):
    """Every legal action of every decision is asked for its reason (the best action is one of
    them), and every reason given is checked against the real game: exhaustively for the first
    action of each card (cesarz's emperor and jokers come with many companions), with random
    continuations for the card's other companions."""
    keys = collections.Counter()
    decisions = with_reason = 0
    for seed in (1, 2, 3):
        for game, view in _deal_positions(game_id, players, seed, DEALS[game_id]):
            decisions += 1
            given = False
            done = set()
            for a in view["legal_actions"]:
                why = reason(game_id, view, a)
                if why is None:
                    continue
                given = True
                keys[why["key"]] += 1
                assert set(why) >= {"key"} and atut.canonical(why)     # JSON-safe
                card = a.get("card")
                check(game_id, game, view, a, why, playouts=8 if card in done else 0)
                done.add(card)
            with_reason += given
    # a good share of the decisions have a reason for some action
    assert with_reason >= decisions // 5, (with_reason, decisions, keys)
    assert keys["sure_winner"] >= 1 and keys["void_shown"] + keys["partner_wins"] >= 1, keys


def _all_keys():
    seen = collections.defaultdict(set)
    for game_id, players in SETTINGS:
        for seed in (1, 2, 3):
            for _game, view in _deal_positions(game_id, players, seed, DEALS[game_id]):
                for a in view["legal_actions"]:
                    why = reason(game_id, view, a)
                    if why is not None:
                        seen[game_id].add(why["key"])
    return seen


def test_every_reason_key_of_each_game_occurs():
    seen = _all_keys()
    for game_id, keys in EXPECTED.items():
        assert seen[game_id] >= keys, (game_id, keys - seen[game_id])


@pytest.mark.parametrize("game_id,players", SETTINGS)
def test_the_reason_is_the_same_when_unseen_cards_lie_elsewhere(game_id, players):
    """The fair-play rule: twin deals (tests/test_fair_play.py) show the seat the same view,
    and every legal action gets the same reason in both; the analysis carries it unchanged."""
    rng = random.Random(5)
    checked = reasons = 0
    for seed in range(1, 6):
        for deck, dealer, history, seat in positions(game_id, players, seed, 10):
            pair = twin(game_id, players, seed, dealer, deck, history, seat, rng)
            if pair is None:
                continue
            a, b = (g.view(seat) for g in pair)
            assert a == b
            for act in a["legal_actions"]:
                ra, rb = reason(game_id, a, act), reason(game_id, b, act)
                assert ra == rb
                reasons += ra is not None
            checked += 1
    assert checked >= 5, checked
    # with two cesarz players every card hidden in the play is in the other hand: no twin
    # deal exists there, only in the bidding (no reasons)
    assert reasons >= 1 or (game_id, players) == ("cesarz", 2), (checked, reasons)


def test_the_analysis_gives_the_reason_of_its_best_action():
    budget = {"rollouts": 24, "min_samples": 4, "time_cap": 1e9, "clock": "cpu"}
    for game_id, players in (("euchre", 4), ("imperial", 3), ("cesarz", 3)):
        found = 0
        for game, view in _deal_positions(game_id, players, 1, 1):
            if len(view["legal_actions"]) < 2:
                continue
            out = atut.analyse(game_id, view, 3, seed=1, budget=budget)
            why = reason(game_id, view, out["best"])
            assert out.get("reason") == why
            if why is not None:
                check(game_id, game, view, out["best"], why)
                found += 1
            if found >= 2:
                break
        assert found >= 1, game_id


# --- hand-built positions: what each claim rests on ----------------------------------------------

def _euchre(hands, upcard, kitty=(), dealer=0):
    from test_euchre import make_deck
    return atut.new_game("euchre", players=4, seed=0, dealer=dealer,
                         deck=make_deck(dealer, hands, upcard, kitty))


def test_euchre_the_bowers_rank_first():
    # hearts trump (seat 2 orders up 9H, E1): the right bower led is sure, the left bower is not
    # while the right bower is unseen, and the ace of a plain suit is not (a trump may ruff)
    game = _euchre({1: "JD 10C 9C AS 9S".split(), 2: "JH KC QC KS QS".split(),
                    3: "AH KH QH AD KD".split()}, "9H", ("10H", "9D", "QD"))
    game.apply({"type": "pass"})                                     # seat 1
    game.apply({"type": "order_up"})                                 # seat 2: hearts
    game.apply({"type": "discard", "card": "9H"})                    # the dealer, seat 0
    game.apply({"type": "alone", "value": False})
    view = game.view(1)
    assert view["trump"] == "H" and game.to_move == 1
    assert reason("euchre", view, {"type": "play", "card": "JD"}) is None    # JH unseen
    assert reason("euchre", view, {"type": "play", "card": "AS"}) is None
    game.apply({"type": "play", "card": "JD"})
    view = game.view(2)
    assert reason("euchre", view, {"type": "play", "card": "JH"}) == \
        {"key": "sure_winner", "card": "JH"}


def test_euchre_a_call_counts_the_left_bower_as_a_trump():
    game = _euchre({1: "JD AH 9C AS 9S".split()}, "KH", ("10H", "9D", "QD"))
    view = game.view(1)
    assert reason("euchre", view, {"type": "order_up"}) == \
        {"key": "trumps_held", "suit": "H", "count": 2, "card": "JD"}
    assert reason("euchre", view, {"type": "pass"}) is None


def test_imperial_an_honour_led_scores_and_the_rest_needs_proof():
    game = atut.new_game("imperial", players=2, seed=4)
    view = game.view(game.to_move)
    trump = view["trump"]
    k_trump = "K" + trump
    got = {a["card"]: reason("imperial", view, a) for a in view["legal_actions"]}
    for card, why in got.items():
        honour = card in {r + trump for r in ("K", "Q", "J", "7")}
        assert (why is not None and why["key"] == "honour_lead") == honour, (card, why)
    if k_trump in got:                   # the king of trumps is the highest card (G13)
        assert got[k_trump]["key"] == "honour_lead"


def _words(game_id):
    """The i18n keys of web/i18n/core.js and the game's file, per language."""
    import pathlib
    import re
    root = pathlib.Path(__file__).resolve().parents[1] / "web" / "i18n"
    out = {}
    for lang in ("en", "pl"):
        keys = set()
        for name in ("core.js", f"{game_id}.js"):
            text = (root / name).read_text(encoding="utf-8")
            m = re.search(rf"\b{lang}: \{{(.*?)\n  \}}", text, re.S)
            keys |= set(re.findall(r'"([^"]+)":', m.group(1)))
        out[lang] = keys
    return out


@pytest.mark.parametrize("game_id", sorted(EXPECTED))
def test_every_reason_has_a_sentence_in_both_languages(game_id):
    words = _words(game_id)
    for key in EXPECTED[game_id] | {"sure_winner", "void_shown"}:
        for lang in ("en", "pl"):
            assert f"reason.{key}" in words[lang], (game_id, lang, key)
