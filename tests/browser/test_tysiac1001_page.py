"""tysiac1001 through the page: whole games for 3 and 4 players by clicking (bidding panel with
only legal bids, the przykup shown when taken, handing out cards, the contract, marriages offered
on the K or Q when leading, trump shown as it changes, the score sheet), no hidden card in the
page, and the Polish words."""

from __future__ import annotations

import pytest

import atut
from atut.bots.tysiac1001 import rule_policy
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
)


def seat_label(seat, me, players):
    return seat_name(seat, me, players)


def person(view_of):
    """A person who bids, hands out and announces like the level-2 rules, declares every
    marriage offered and otherwise plays at random."""
    def choose(actions, rng):
        types = {a["type"] for a in actions}
        idx = list(range(len(actions)))
        if types & {"bid", "pass", "give", "announce", "play_on", "give_up"}:
            a = rule_policy(view_of(), rng)
            return next(i for i in idx if actions[i] == a)
        melds = [i for i in idx if "meld" in actions[i]]
        if melds:
            return rng.choice(melds)
        return rng.randrange(len(actions))
    return choose


@pytest.mark.parametrize("players,seed,seat,bots", [(3, 4, 0, "2"), (4, 7, 1, "2")])
def test_whole_game_by_clicking(page, dist_url, players, seed, seat, bots):
    seen = set()
    turns = [0]

    def on_turn(pg):
        view = pg.evaluate("() => window.atutPage.view")
        turns[0] += 1
        if turns[0] % 5 == 1 or view["phase"] != "play":
            # the page holds exactly the person's view (the engine replayed in CPython)
            assert atut.load_game(saved_game(pg)).view(seat, explain=True) == view
        # every legal action is one enabled control
        assert sorted(page_actions(pg)) == sorted(canonical(a) for a in view["legal_actions"])
        # no card the person may not see
        assert set(page_cards(pg)) <= visible_cards(view)
        types = {a["type"] for a in view["legal_actions"]}
        seen.update(types)
        if "bid" in types:                              # the bidding panel: legal bids only
            legal_bids = [a for a in view["legal_actions"] if a["type"] == "bid"]
            for a in legal_bids:
                ctl = pg.locator(f"[data-action='{canonical(a)}']")
                assert ctl.count() == 1 and ctl.is_visible() and ctl.is_enabled()
                assert str(a["value"]) in ctl.inner_text()
            assert pg.locator('[data-action*="\\"bid\\""]').count() == len(legal_bids)
            assert pg.locator('[data-action="{\\"type\\":\\"pass\\"}"]').is_visible()
        if view["przykup"]:                             # the revealed przykup on the table
            shown = pg.eval_on_selector_all("[data-pile=przykup] [data-card]",
                                            "els => els.map(e => e.dataset.card)")
            assert shown == view["przykup"]
            seen.add("przykup")
        else:
            assert pg.locator("[data-pile=przykup] [data-card]").count() == 0
        if "give" in types:                             # which card to whom, one control each
            for a in view["legal_actions"]:
                ctl = pg.locator(f"[data-action='{canonical(a)}']")
                assert ctl.count() == 1 and ctl.is_visible() and ctl.is_enabled()
        for a in view["legal_actions"]:
            if "meld" in a:                             # a marriage: a visible control
                ctl = pg.locator(f"[data-action='{canonical(a)}']")
                assert ctl.is_visible() and ctl.is_enabled()
                seen.add("meld")
        trump = pg.locator(".trumpinfo").inner_text()
        if view["trump"]:
            suit = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}[view["trump"]]
            assert suit in trump
            seen.add("trump")
        else:
            assert "no trump" in trump
        rows = pg.locator(".panel.sheet tbody tr")
        assert rows.count() == len(view["score_sheet"]["rows"])
        if view["contract"]:
            assert any(f"must take {view['contract']}" in x for x in
                       pg.eval_on_selector_all(".panel.summary li",
                                               "els => els.map(e => e.innerText)"))

    clicks = play_whole_game(page, dist_url, "tysiac1001", players=players, seed=seed, seat=seat,
                             choose=person(lambda: page.evaluate("() => window.atutPage.view")),
                             on_turn=on_turn, max_clicks=2500, bots=bots)
    assert clicks > 20
    assert {"bid", "pass", "play", "przykup", "give", "announce", "meld", "trump"} <= seen
    game = atut.load_game(saved_game(page))
    assert game.is_over and max(game.scores) >= 1001
    over = page.locator("[data-testid=game-over]")
    assert over.is_visible()
    text = over.inner_text()
    if game.winner == seat:
        assert "You win" in text
    else:
        assert f"{seat_label(game.winner, seat, players)} wins" in text
    rows = page.locator("[data-testid=scores] tbody tr")
    assert rows.count() == players
    for s in range(players):
        assert seat_label(s, seat, players) in rows.nth(s).inner_text()
        assert rows.nth(s).inner_text().split()[-1] == str(game.scores[s])
    sheet = page.locator(".panel.sheet tbody tr")
    assert sheet.count() == game.deal_no
    assert page.locator("[data-action]:not([disabled])").count() == 0


def click(page, action):
    page.locator(f"[data-action='{canonical(action)}']").click()


def current_view(page):
    return page.evaluate("() => window.atutPage.view")


def test_bid_hand_out_and_announce_by_clicking(page, dist_url):
    """Seat 0 opens with 120 in a deal where neither bot holds a marriage (so both must pass),
    hands out two przykup cards, announces, and sees the contract and the przykup."""
    from atut.games.tysiac1001 import has_marriage
    for seed in range(1, 200):
        g = atut.new_game("tysiac1001", players=3, seed=seed)
        if g.to_move == 0 and not has_marriage(g.hands[1]) and not has_marriage(g.hands[2]):
            break
    open_game(page, dist_url, "tysiac1001", players=3, seed=seed, seat=0)
    assert wait_for_turn(page) == "turn"
    assert page.locator("[data-pile=przykup]").is_visible()
    click(page, {"type": "bid", "value": 120})
    assert wait_for_turn(page) == "turn"
    view = current_view(page)
    assert view["phase"] == "give" and view["declarer"] == 0 and len(view["hand"]) == 10
    shown = page.eval_on_selector_all("[data-pile=przykup] [data-card]",
                                      "els => els.map(e => e.dataset.card)")
    assert shown == view["przykup"] and len(shown) == 3
    gave = []
    for to in (1, 2):
        view = current_view(page)
        assert {a["to"] for a in view["legal_actions"]} == {to}
        a = view["legal_actions"][-1]
        gave.append(a["card"])
        click(page, a)
        assert wait_for_turn(page) == "turn"
    view = current_view(page)
    assert view["phase"] == "announce" and len(view["hand"]) == 8
    assert not set(gave) & set(view["hand"])
    a = view["legal_actions"][0]
    assert a["value"] == 120
    click(page, a)
    assert wait_for_turn(page) == "turn"
    view = current_view(page)
    assert view["contract"] == 120 and view["phase"] == "play" and view["to_move"] == 0
    text = page.locator(".panel.summary").inner_text()
    assert "must take 120" in text and text.count("You gave") == 2
    assert "No trump" in text


def test_polish_words(page, dist_url):
    open_game(page, dist_url, "tysiac1001", players=4, seed=2, seat=1, lang="pl")
    assert wait_for_turn(page) in ("turn", "over")
    html = page.content()
    assert "Przykup" in html
    view = page.evaluate("() => window.atutPage.view")
    if view["phase"] == "bid" and view["to_move"] == 1:
        assert "Licytuj" in html and "Pas" in html
