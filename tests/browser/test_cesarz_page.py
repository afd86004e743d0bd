"""cesarz through the page: whole games by clicking for 3 and 5 players (bidding with pass or
+10, the musik shown and the sitting-out dealer's credit explained, giving a card to each
player, a joker or the emperor with its added card as a two-step choice, melds, the trump as it
changes, interrupted tricks, the sitting-out dealer, the score sheet per deal), Polish words,
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


def summary_items(page):
    return page.eval_on_selector_all(".panel.summary li", "els => els.map(e => e.innerText)")


def log_items(page):
    return page.eval_on_selector_all(".loglist li", "els => els.map(e => e.innerText)")


def prefer(actions, rng):
    """Mostly random, but show the special plays when they are offered: a meld, the emperor, a
    joker with its added card; keep bidding low so that deals end quickly."""
    idx = list(range(len(actions)))
    special = [i for i in idx if "meld" in actions[i] or "companion" in actions[i]]
    if special and rng.random() < 0.6:
        return rng.choice(special)
    passes = [i for i in idx if actions[i]["type"] == "pass"]
    if passes and rng.random() < 0.7:
        return passes[0]
    return rng.choice(idx)


class Enough(Exception):
    """Raised by a turn check to stop a partial game."""


@pytest.mark.parametrize("players,seed,seat,deals", [(3, 4, 0, None), (5, 9, 2, 3)])
def test_whole_game_by_clicking(page, dist_url, players, seed, seat, deals):
    """The 3-player game is played to its end against level-2 bots (their contracts succeed,
    so the game ends in about half the deals of random play); the 5-player one (slower: the
    dealer sits out) through its first deals, with the same checks."""
    seen = set()
    turns = [0]

    def on_turn(pg):
        turns[0] += 1
        full = turns[0] <= 40 or turns[0] % 25 == 0 or deals
        if not full:
            return
        game = atut.load_game(saved_game(pg))
        if deals and game.deal_no > deals:
            raise Enough
        view = game.view(seat, explain=True)      # the page's view: rule ids and score lines
        # every legal action is one enabled control; the page holds exactly the person's view
        assert sorted(page_actions(pg)) == sorted(canonical(a) for a in view["legal_actions"])
        assert pg.evaluate("() => window.atutPage.view") == view
        assert set(page_cards(pg)) <= visible_cards(view)
        items = summary_items(pg)
        assert len(items) == len(view["summary"])
        text = "\n".join(items)
        if view["phase"] == "bid":
            seen.add("bid")
            assert pg.locator('[data-action="{\\"type\\":\\"pass\\"}"]').count() == 1
            assert "Highest bid" in text
        if view["contract"] is not None:
            assert f"Contract: {view['contract']}" in text
            assert pg.locator("[data-pile=musik] [data-card]").count() == len(
                [p for p in view["piles"] if p["id"] == "musik"][0]["cards"])
        if view["sitting_out"] is not None:
            seen.add("sitting_out")
            out = pg.locator(f".seat.out[data-seat=\"{view['sitting_out']}\"]")
            assert out.count() == 1 and "sits out" in out.inner_text()
            if view["contract"] is not None:
                assert "sitting on the musik, is credited" in text
        if view["phase"] == "give":
            seen.add("give")
            to = view["legal_actions"][0]["to"]
            assert all(a["to"] == to for a in view["legal_actions"])
        if view["trump"]:
            seen.add("trump")
            info = pg.locator(".trumpinfo").inner_text()
            assert {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}[view["trump"]] \
                in info and "Trump: " in text
        for a in view["legal_actions"]:
            if "companion" in a:
                seen.add("companion")
                # the two-step choice: the joker / emperor in the hand, then its added card
                assert pg.locator(f'.hand [data-options="{a["card"]}"]').count() == 1
                group = pg.locator(f'[data-group-card="{a["card"]}"]')
                assert group.count() == 1
                assert group.locator(f'[data-action=\'{canonical(a)}\']').count() == 1
            if "meld" in a:
                seen.add("meld_offered")
        if view["last_trick"] and view["last_trick"]["kind"] == "interrupted":
            seen.add("interrupted")
            assert any("interrupts the trick" in x for x in log_items(pg))
        if view["emperor_trick"]:
            assert "Emperor trick" in text
        sheet = pg.locator(".panel.sheet tbody tr")
        assert sheet.count() == len(view["score_sheet"]["rows"]) == view["deal_no"] - 1

    try:
        clicks = play_whole_game(page, dist_url, "cesarz", players=players, seed=seed,
                                 seat=seat, choose=prefer, on_turn=on_turn, max_clicks=4000,
                                 bots="2")
    except Enough:
        assert {"bid", "companion", "sitting_out"} <= seen
        assert "sits on the musik" in "\n".join(log_items(page))
        return
    assert clicks >= 20
    game = atut.load_game(saved_game(page))
    assert game.is_over and max(game.scores) >= 2000
    assert {"bid", "trump", "companion", "meld_offered"} <= seen
    over = page.locator("[data-testid=game-over]")
    assert over.is_visible()
    if game.winner == seat:
        assert "You win" in over.inner_text()
    else:
        assert f"{seat_name(game.winner, seat, players)} wins" in over.inner_text()
    rows = page.locator("[data-testid=scores] tbody tr")
    assert rows.count() == players
    for s in range(players):
        assert rows.nth(s).inner_text().split()[-1] == str(game.scores[s])
    sheet = page.locator(".panel.sheet tbody tr")
    assert sheet.count() == game.deal_no
    assert page.locator("[data-action]:not([disabled])").count() == 0


def test_joker_or_emperor_two_step_and_meld_controls(page, dist_url):
    """A seed where the person (seat 0, 3 players) is declarer-to-be and holds a joker or the
    emperor: the hand card only points at its group; each added card is its own control."""
    for seed in range(1, 200):
        g = atut.new_game("cesarz", players=3, seed=seed)
        if g.dealer == 0 and g.hands[0] & atut.cards.mask_of([44, 45, 46, 47]):
            break
    open_game(page, dist_url, "cesarz", players=3, seed=seed, seat=0)
    # bots pass or bid at random; keep passing until the play reaches the person
    while True:
        assert wait_for_turn(page) == "turn"
        v = page.evaluate("() => window.atutPage.view")
        if v["phase"] == "play" and any("companion" in a for a in v["legal_actions"]):
            break
        a = v["legal_actions"][0] if v["phase"] != "bid" else {"type": "pass"}
        if v["phase"] == "play":
            a = next((x for x in v["legal_actions"] if "companion" not in x and "meld" not in x),
                     v["legal_actions"][0])
        page.locator(f"[data-action='{canonical(a)}']").first.click()
        page.wait_for_function("(n) => window.atutPage.view && "
                               "JSON.stringify(window.atutPage.view.log).length !== n",
                               arg=len(json.dumps(v["log"], separators=(",", ":"))))
    joker_actions = [a for a in v["legal_actions"] if "companion" in a]
    card = joker_actions[0]["card"]
    hand_btn = page.locator(f'.hand [data-options="{card}"]')
    assert hand_btn.count() == 1 and hand_btn.get_attribute("data-action") is None
    hand_btn.click()                                            # step 1: points at the group
    group = page.locator(f'[data-group-card="{card}"]')
    mine = [a for a in joker_actions if a["card"] == card]
    assert group.locator("[data-action]").count() == len(mine)
    target = mine[-1]
    before = page.evaluate("() => window.atutPage.view.trick.length")
    group.locator(f"[data-action='{canonical(target)}']").click()   # step 2: the added card
    page.wait_for_function("(n) => window.atutPage.view.trick.length !== n "
                           "|| window.atutPage.view.to_move === 0", arg=before)
    game = atut.load_game(saved_game(page))
    assert target in game.history
    assert any(e["type"] == "action" and e["action"] == target for e in game.view(0)["log"])


def test_polish_words(page, dist_url):
    open_game(page, dist_url, "cesarz", players=4, seed=2, seat=1, lang="pl")
    assert wait_for_turn(page) == "turn"
    content = page.content()
    assert "Licytacja" in content
    text = "\n".join(summary_items(page))
    assert "siedzi na musiku" in text
    assert "Kontrakt, atut i meldunki" in content


def test_rules_line_states_the_failed_contract_departure(page, dist_url):
    page.goto(dist_url)
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.wait_for_selector("text=failed contract costs the shortfall", timeout=30_000)


def test_page_never_holds_a_hidden_card(page, dist_url):
    seat = 1
    count = [0]

    def on_turn(pg):
        count[0] += 1
        game = atut.load_game(saved_game(pg))
        if game.deal_no > 2:
            raise Enough
        mine = visible_cards(game.view(seat))
        hidden = set()
        for s in range(game.players):
            if s != seat:
                hidden |= {atut.cards.code(c) for c in atut.cards.cards_of(game.hands[s])}
        known = {c for c in mine}
        hidden -= known
        assert set(page_cards(pg)) <= mine
        html = pg.content()
        for c in hidden:
            assert f'"{c}"' not in html and f'data-card="{c}"' not in html

    with pytest.raises(Enough):
        play_whole_game(page, dist_url, "cesarz", players=4, seed=21, seat=seat,
                        on_turn=on_turn, choose=prefer, max_clicks=4000)
    assert count[0] > 10


def test_same_game_in_cpython_and_pyodide(page, dist_url):
    open_game(page, dist_url, "cesarz", players=3, seed=1)
    for players, seed, action_seed in [(2, 1, 10), (5, 77, 3)]:
        g = atut.new_game("cesarz", players=players, seed=seed)
        rng = random.Random(action_seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        r = worker_random_play(page, "cesarz", players, seed, action_seed)
        assert r["events"] == json.loads(json.dumps(g.events))
        assert r["scores"] == g.scores and r["winner"] == g.winner
