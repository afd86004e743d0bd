"""sixty_six through the page: whole games by clicking, scores and winner, an illegal action,
no hidden card in the page, and the same game in CPython and in Pyodide."""

from __future__ import annotations

import json
import random

import pytest

import atut
from atut.game import canonical
from harness import (
    open_game,
    page_actions,
    page_cards,
    play_whole_game,
    saved_game,
    seat_name,
    visible_cards,
    wait_for_turn,
    worker_random_play,
)


def seat_label(seat, me, players):
    return seat_name(seat, me, players)


@pytest.mark.parametrize("players,seed,seat", [(2, 12, 0), (3, 5, 1), (4, 9, 3)])
def test_whole_game_by_clicking(page, dist_url, players, seed, seat):
    checked = []

    def on_turn(pg):
        # every legal action of the person is one enabled control with canonical data-action,
        # and the page holds exactly the person's view
        game = atut.load_game(saved_game(pg))
        view = game.view(seat, explain=True)      # the page's view: rule ids and score lines
        assert sorted(page_actions(pg)) == sorted(canonical(a) for a in view["legal_actions"])
        assert pg.evaluate("() => window.atutPage.view") == view
        checked.append(1)

    clicks = play_whole_game(page, dist_url, "sixty_six", players=players, seed=seed, seat=seat,
                             on_turn=on_turn)
    assert clicks >= 1 and len(checked) == clicks
    game = atut.load_game(saved_game(page))
    assert game.is_over
    over = page.locator("[data-testid=game-over]")
    assert over.is_visible()
    text = over.inner_text()
    if game.winner == seat:
        assert "You win" in text
    else:
        assert f"{seat_label(game.winner, seat, players)} wins" in text
    assert over.get_attribute("data-winner") == str(game.winner)
    # the scores panel: one row per seat with its running score
    rows = page.locator("[data-testid=scores] tbody tr")
    assert rows.count() == players
    for s in range(players):
        cells = rows.nth(s).inner_text().split()
        assert seat_label(s, seat, players) in rows.nth(s).inner_text()
        assert cells[-1] == str(game.scores[s])
    assert sum(game.scores) == 1 and game.scores[game.winner] == 1
    # no action control is left enabled after the game
    assert page.locator("[data-action]:not([disabled])").count() == 0


def test_illegal_action_shows_error_and_game_goes_on(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=2, seed=3, seat=0)
    assert wait_for_turn(page) == "turn"
    before = page.evaluate("() => window.atutPage.view")
    legal_before = sorted(page_actions(page))
    for bad in ({"type": "play", "card": "XX"}, {"type": "play", "card": "7H"},
                {"type": "bid", "value": 100}, "not an action"):
        ok = page.evaluate("(a) => window.atutPage.act(a)", bad)
        assert ok is False
        err = page.locator("[data-testid=error]")
        err.wait_for(state="visible")
        assert "Not allowed" in err.inner_text()
        # nothing changed: same view, the same controls enabled again
        assert page.evaluate("() => window.atutPage.view") == before
        page.wait_for_selector("[data-action]:not([disabled])")
        assert sorted(page_actions(page)) == legal_before
    # a card not in the hand, in plain words
    page.evaluate("(a) => window.atutPage.act(a)", {"type": "play", "card": "7H"})
    assert "7H" in page.locator("[data-testid=error]").inner_text()
    # the game goes on to its end, and the error goes away with the next good action
    clicks = play_whole_game(page, dist_url, "sixty_six", seed=3, open_page=False)
    assert clicks >= 1
    assert page.locator("[data-testid=error]").is_hidden()
    assert page.locator("[data-testid=game-over]").is_visible()


def test_page_never_holds_a_hidden_card(page, dist_url):
    seat = 1
    seen = []

    def on_turn(pg):
        game = atut.load_game(saved_game(pg))
        mine = visible_cards(game.view(seat))
        dom = set(page_cards(pg))
        assert dom <= mine, f"the page shows cards seat {seat} may not see: {dom - mine}"
        hidden = set()
        for s in range(game.players):
            if s != seat:
                hidden |= {atut.cards.code(c) for c in atut.cards.cards_of(game.hands[s])}
        hidden |= {atut.cards.code(c) for c in game.stock}
        # nothing hidden anywhere in the page's HTML either
        html = pg.content()
        for c in hidden - mine:
            assert f'"{c}"' not in html and f">{c}<" not in html
        seen.append(len(dom))

    play_whole_game(page, dist_url, "sixty_six", players=3, seed=21, seat=seat, on_turn=on_turn)
    assert seen


def _cpython_random_play(game_id, players, seed, action_seed):
    g = atut.new_game(game_id, players=players, seed=seed)
    rng = random.Random(action_seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_same_game_in_cpython_and_pyodide(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=2, seed=1)
    for players, seed, action_seed in [(2, 1, 10), (3, 77, 3), (4, 2024, 99)]:
        g = _cpython_random_play("sixty_six", players, seed, action_seed)
        r = worker_random_play(page, "sixty_six", players, seed, action_seed)
        assert r["events"] == json.loads(json.dumps(g.events))
        assert r["scores"] == g.scores and r["winner"] == g.winner


def test_bad_links_show_an_error_and_the_menu(page, dist_url):
    page.goto(dist_url + "#game=nope&players=2")
    page.wait_for_selector("body[data-engine=ready]")
    err = page.locator("[data-testid=error]")
    err.wait_for(state="visible")
    assert "nope" in err.inner_text()
    assert page.locator("[data-testid=menu]").is_visible()
    page.evaluate("() => { location.hash = 'game=sixty_six&players=7&delay=0' }")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=error]').innerText.includes('7')")
    assert "players" in err.inner_text()
    page.evaluate("() => { location.hash = 'game=sixty_six&bots=9' }")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=error]').innerText.includes('bots')")
    # a good link starts the game
    page.evaluate("() => { location.hash = 'game=sixty_six&players=3&seed=4&delay=0' }")
    page.wait_for_selector("[data-testid=hand] [data-card]")
    assert page.locator("[data-testid=menu]").is_hidden()
    assert err.is_hidden()


def test_menu_language_and_hash(page, dist_url):
    page.goto(dist_url)
    menu = page.locator("[data-testid=menu]")
    menu.wait_for(state="visible")
    page.wait_for_selector("body[data-engine=ready]")
    info = atut.built_games()
    for g in atut.GAME_IDS:
        radio = page.locator(f"input[name=game][value={g}]")
        assert radio.count() == 1
        assert radio.is_enabled() == (g in info)
    page.locator("input[name=game][value=sixty_six]").check(force=True)
    page.select_option("select[data-k=players]", "4")
    page.select_option("select[data-k=seat]", "2")
    page.select_option("select[data-k=delay]", "0")
    page.fill("input[data-k=seed]", "31")
    page.click("[data-testid=new-game]")
    page.wait_for_selector("[data-testid=hand] [data-card]")
    h = page.evaluate("() => location.hash")
    for part in ("game=sixty_six", "players=4", "seed=31", "seat=2", "bots=3", "delay=0"):
        assert part in h
    assert page.locator(".seat.me").get_attribute("data-seat") == "2"
    # Polish: words and card ranks change (Q -> D, J -> W)
    page.click("[data-testid=lang-pl]")
    assert "lang=pl" in page.evaluate("() => location.hash")
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    assert "wyniki" in page.locator("[data-testid=scores]").inner_text().lower()
    labels = page.eval_on_selector_all("[data-testid=hand] [data-card]",
                                       "els => els.map(e => [e.dataset.card, e.getAttribute('aria-label')])")
    names = {"A": "as", "10": "dziesiątka", "K": "król", "Q": "dama", "J": "walet",
             "9": "dziewiątka"}
    suits = {"S": "pik", "C": "trefl", "D": "karo", "H": "kier"}
    for code, label in labels:
        assert label.startswith(f"{names[code[:-1]]} {suits[code[-1]]}")
    page.click("[data-testid=lang-en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert "scores" in page.locator("[data-testid=scores]").inner_text().lower()


def test_canonical_json_matches_python(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=2, seed=8)
    samples = [{"type": "play", "card": "QH", "meld": "KH"}, {"type": "bid", "value": 110},
               {"type": "alone", "value": True}, {"type": "pass"},
               {"z": [1, {"b": None, "a": "ż"}], "type": "x", "n": -3}]
    for s in samples:
        assert page.evaluate("(a) => window.atutPage.canonical(a)", s) == canonical(s)


def test_first_view_before_python_shows_the_menu_and_progress(page, dist_url):
    page.goto(dist_url)
    # the shell and the menu render before the worker is ready
    page.wait_for_selector("[data-testid=menu] [data-testid=new-game]")
    state = page.evaluate("() => document.body.dataset.engine")
    assert state in ("loading", "ready")
    page.wait_for_selector("body[data-engine=ready]")
    assert page.locator("[data-testid=loading]").is_hidden()
    assert page.locator("[data-testid=new-game]").is_enabled()
