"""imperial through the page: whole games for 2 and 3 players by clicking, the declarations
summary before the first lead, scores as imperials + points, honour leads shown as they happen,
no hidden card in the page, and the same game in CPython and in Pyodide."""

from __future__ import annotations

import json
import random
import re

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


def summary_items(page):
    return page.eval_on_selector_all(".panel.summary li", "els => els.map(e => e.innerText)")


@pytest.mark.parametrize("players,seed,seat", [(2, 12, 0), (3, 5, 1)])
def test_whole_game_by_clicking(page, dist_url, players, seed, seat):
    checked = []
    leads_seen = []

    def on_turn(pg):
        game = atut.load_game(saved_game(pg))
        view = game.view(seat, explain=True)      # the page's view: rule ids and score lines
        # every legal action is one enabled control; the page holds exactly the person's view
        assert sorted(page_actions(pg)) == sorted(canonical(a) for a in view["legal_actions"])
        assert pg.evaluate("() => window.atutPage.view") == view
        # the declarations and bonuses: one readable line per summary entry
        items = summary_items(pg)
        assert len(items) == len(view["summary"])
        text = "\n".join(items)
        assert "longest suit" in text and "imp. +" in text
        for s in range(players):
            sc = game.scores[s]
            assert f"{seat_label(s, seat, players)}: {sc // 24} imp. + {sc % 24} pts" in text
        n_leads = sum(1 for x in view["summary"] if x["key"] == "honour_lead")
        assert len(re.findall(r"leads? the honour", text)) == n_leads   # or "You lead …"
        leads_seen.append(n_leads)
        # the page shows no card the person may not see
        assert set(page_cards(pg)) <= visible_cards(view)
        checked.append(1)

    clicks = play_whole_game(page, dist_url, "imperial", players=players, seed=seed, seat=seat,
                             on_turn=on_turn)
    assert clicks >= 12 and len(checked) == clicks
    assert any(leads_seen), "no honour lead was ever shown"
    game = atut.load_game(saved_game(page))
    assert game.is_over and max(game.scores) >= 120
    over = page.locator("[data-testid=game-over]")
    assert over.is_visible()
    text = over.inner_text()
    if game.winner == seat:
        assert "You win" in text
    else:
        assert f"{seat_label(game.winner, seat, players)} wins" in text
    assert over.get_attribute("data-winner") == str(game.winner)
    rows = page.locator("[data-testid=scores] tbody tr")
    assert rows.count() == players
    for s in range(players):
        assert seat_label(s, seat, players) in rows.nth(s).inner_text()
        assert rows.nth(s).inner_text().split()[-1] == str(game.scores[s])
    assert page.locator("[data-action]:not([disabled])").count() == 0


def test_declarations_shown_before_the_first_lead(page, dist_url):
    # seat 0 of a 2-player game with seed 3: find a seed where the person leads first
    for seed in range(1, 40):
        g = atut.new_game("imperial", players=2, seed=seed)
        if g.to_move == 0:
            break
    open_game(page, dist_url, "imperial", players=2, seed=seed, seat=0)
    assert wait_for_turn(page) == "turn"
    view = page.evaluate("() => window.atutPage.view")
    assert view["trick"] == [] and view["deal_no"] == 1 and view["to_move"] == 0
    assert view == g.view(0, explain=True)
    items = summary_items(page)
    assert items[0].startswith("Turned trump card")
    assert sum("longest suit" in x for x in items) == 2
    assert any(re.search(r"wins? the point", x) for x in items)
    assert sum(("honours in hand" in x) or ("no honours" in x) for x in items) == 2
    # the turned card and the unused pile are on the table
    assert page.locator(".trumpcard [data-card]").get_attribute("data-card") == view["trump_card"]
    assert page.locator("[data-pile=unused]").inner_text().strip().endswith("7")


def test_polish_words(page, dist_url):
    open_game(page, dist_url, "imperial", players=3, seed=2, seat=0, lang="pl")
    assert wait_for_turn(page) == "turn"
    text = "\n".join(summary_items(page))
    assert "najdłuższy kolor" in text and "imp. +" in text
    assert "Zgłoszenia i premie" in page.content()


def test_page_never_holds_a_hidden_card(page, dist_url):
    seat = 1

    def on_turn(pg):
        game = atut.load_game(saved_game(pg))
        mine = visible_cards(game.view(seat))
        hidden = {atut.cards.code(c) for c in atut.cards.cards_of(game.unused)}
        for s in range(game.players):
            if s != seat:
                hidden |= {atut.cards.code(c)
                           for c in atut.cards.cards_of(game.hands[s] & ~game.revealed[s])}
        assert not hidden & mine
        assert set(page_cards(pg)) <= mine
        html = pg.content()
        for c in hidden:
            assert f'"{c}"' not in html and f">{c}<" not in html

    play_whole_game(page, dist_url, "imperial", players=2, seed=21, seat=seat, on_turn=on_turn)


def test_same_game_in_cpython_and_pyodide(page, dist_url):
    open_game(page, dist_url, "imperial", players=2, seed=1)
    for players, seed, action_seed in [(2, 1, 10), (3, 77, 3)]:
        g = atut.new_game("imperial", players=players, seed=seed)
        rng = random.Random(action_seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        r = worker_random_play(page, "imperial", players, seed, action_seed)
        assert r["events"] == json.loads(json.dumps(g.events))
        assert r["scores"] == g.scores and r["winner"] == g.winner
