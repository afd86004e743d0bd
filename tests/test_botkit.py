"""atut.botkit against the engine: its trick winner is the engine's (every game, cesarz's
jokers and emperor included), the voids it reports are true, the unseen cards are exactly the
ones the view does not place, card points add up to each deck's total."""

from __future__ import annotations

import doctest
import random

import pytest

import atut
from atut import botkit
from atut import cards as C
from helpers import cards_in


def test_botkit_doctests_run():
    result = doctest.testmod(botkit, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 25 and result.failed == 0


def _games(game_id, seeds=range(4), levels=(1, 2)):
    """(game, view of the seat to move) at every decision of seeded games (three deals)."""
    cls = atut.game_class(game_id)
    for players in cls.PLAYERS:
        for seed in seeds:
            game = atut.new_game(game_id, players=players, seed=seed)
            lv = levels[seed % len(levels)]
            bots = [atut.make_bot(game_id, lv, seed=s) for s in range(game.n)]
            while not game.is_over and game.deal_no <= 3:
                view = game.view(game.to_move)
                yield game, view
                game.apply(bots[game.to_move].choose(view))


@pytest.mark.parametrize("game_id", atut.GAME_IDS)
def test_trick_winner_is_the_engines(game_id):
    """After every finished trick the view's last_trick names its winner; botkit, given the
    trick's cards and the view (its trump), names the same seat."""
    checked = 0
    for players in atut.game_class(game_id).PLAYERS:
        for seed in range(4):
            game = atut.new_game(game_id, players=players, seed=seed)
            bots = [atut.make_bot(game_id, 1 + seed % 2, seed=s) for s in range(game.n)]
            last = None
            while not game.is_over and game.deal_no <= 2:
                deal = game.deal_no
                game.apply(bots[game.to_move].choose(game.view(game.to_move)))
                if game.is_over or game.deal_no != deal:
                    last = None
                    continue
                v = game.view(None)
                lt = v.get("last_trick")
                if lt and lt != last:
                    last = lt
                    w = botkit.trick_winner(lt["cards"], v)
                    assert w["seat"] == lt["winner"], (game_id, players, seed, lt, v["trump"])
                    checked += 1
    assert checked > 25


@pytest.mark.parametrize("game_id", ["sixty_six", "tysiac1001", "imperial", "euchre"])
def test_beats_agrees_with_the_winner_of_two_cards(game_id):
    rng = random.Random(1)
    deck = C.codes(atut.game_class(game_id).deck_for(atut.game_class(game_id).PLAYERS[0]))
    for trump in "SCDH":
        view = {"game": game_id, "trump": trump}
        for _ in range(300):
            a, b = rng.sample(deck, 2)
            w = botkit.trick_winner([a, b], view)["card"]
            assert botkit.beats(b, a, view) == (w == b)


def test_current_winner_and_an_empty_trick():
    view = {"game": "sixty_six", "trump": "H", "trick": []}
    assert botkit.current_winner(view) is None
    view["trick"] = [{"seat": 1, "card": "AS"}, {"seat": 0, "card": "9H"}]
    assert botkit.current_winner(view) == {"seat": 0, "card": "9H"}


def test_cesarz_specials():
    view = {"game": "cesarz", "trump": "S", "emperor_trick": False}
    joker = {"seat": 1, "card": "RED_JOKER", "companion": "AH", "counts_as": "H"}
    trick = [{"seat": 0, "card": "KH"}, joker, {"seat": 2, "card": "AD"}]
    assert botkit.trick_winner(trick, view) == joker          # counts by its companion
    assert botkit.trick_winner(trick + [{"seat": 3, "card": "9S"}], view)["seat"] == 3
    emperor = dict(view, emperor_trick=True)
    assert botkit.trick_winner([{"seat": 2, "card": "EMPEROR", "companion": "9C"},
                                {"seat": 0, "card": "AS"}], emperor)["seat"] == 2
    assert botkit.suit("BLUE_JOKER", view) is None and botkit.points("EMPEROR", view) == 0
    assert not botkit.beats("AD", "9H", view)                 # neither trump nor the suit led
    assert botkit.beats("AD", "9H", view, led="D")


@pytest.mark.parametrize("game_id, total", [("sixty_six", 120), ("tysiac1001", 120),
                                            ("euchre", 0)])
def test_card_points_add_up(game_id, total):
    cls = atut.game_class(game_id)
    deck = C.codes(cls.deck_for(cls.PLAYERS[0]))
    assert sum(botkit.points(c, game_id) for c in deck) == total


def test_cesarz_and_imperial_points_are_the_games_tables():
    from atut.games import cesarz
    for c in C.codes(cesarz.DECK):
        assert botkit.points(c, "cesarz") == cesarz.VALUE[C.card(c)]
    assert [botkit.points(c, "imperial") for c in ("AS", "KS", "10S", "9S", "7S")] == \
        [11, 10, 10, 9, 7]


def _hand_of(game, seat):
    return C.codes(C.cards_of(game.hands[seat]))


@pytest.mark.parametrize("game_id", atut.GAME_IDS)
def test_voids_are_true_and_unseen_is_what_the_view_does_not_place(game_id):
    voids_seen = 0
    for game, view in _games(game_id, seeds=range(3)):
        seat = view["seat"]
        for s, suits in botkit.voids(view).items():
            for su in suits:
                held = botkit.cards_of_suit(_hand_of(game, s), su, view)
                if game_id == "cesarz":     # a joker's companion is a suited card: none held
                    held = [c for c in _hand_of(game, s) if C.SUIT_OF[C.card(c)] ==
                            C.SUITS.index(su)]
                assert not held, (game_id, s, su, held)
                voids_seen += 1
        unseen = set(botkit.unseen(view))
        assert not unseen & set(view["hand"])
        assert not unseen & set(botkit.played(view))
        assert not unseen & set(c for e in view.get("trick") or [] for c in cards_in(e))
        # every card of another hand that the view shows nowhere is unseen
        shown = cards_in({k: x for k, x in view.items() if k != "legal_actions"})
        for s in range(game.n):
            if s != seat:
                for c in _hand_of(game, s):
                    if c not in shown:
                        assert c in unseen, (game_id, s, c)
    assert voids_seen > 0


@pytest.mark.parametrize("game_id", atut.GAME_IDS)
def test_played_is_every_card_played_this_deal(game_id):
    for _game, view in _games(game_id, seeds=range(2)):
        from_log = set()
        for e in view["log"]:
            if e.get("type") == "action" and e["action"]["type"] == "play":
                from_log.add(e["action"]["card"])
                if "companion" in e["action"]:
                    from_log.add(e["action"]["companion"])
        assert set(botkit.played(view)) == from_log


def test_euchre_suits_with_and_without_trump():
    bidding = {"game": "euchre", "trump": None}
    assert botkit.suit("JS", bidding) == "S"
    assert botkit.beats("AS", "KS", bidding) and not botkit.beats("JC", "AS", bidding)
    hearts = {"game": "euchre", "trump": "H"}
    assert botkit.suit("JD", hearts) == "H"
    order = sorted(["AH", "JH", "JD", "KH", "9H"], key=lambda c: botkit.strength(c, hearts))
    assert order == ["9H", "KH", "AH", "JD", "JH"]
    assert botkit.cheapest(["JD", "9S", "AC"], hearts) == "9S"


def test_analyse_is_the_search_of_the_views_game():
    game = atut.new_game("sixty_six", players=2, seed=7)
    view = game.view(0)
    budget = {"rollouts": 20}
    assert botkit.analyse(view, budget=budget) == atut.analyse("sixty_six", view, 3, 0, budget)


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="not a view of a game"):
        botkit.suit("AS", {"hand": []})
    with pytest.raises(ValueError, match="not a card code"):
        botkit.points("ZZ", "sixty_six")
    with pytest.raises(ValueError, match="a suit is one of"):
        botkit.cards_of_suit(["AS"], "X", {"game": "sixty_six", "trump": "H"})
    with pytest.raises(ValueError, match="cheapest of no cards"):
        botkit.cheapest([], {"game": "sixty_six", "trump": "H"})
