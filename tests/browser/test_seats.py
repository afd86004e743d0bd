"""Seats named by their place at the table (docs/PAGE.md): You, Left, Across / Partner, Right (Far
left and Far right with five, the Opponent with two) in the page's language instead of
"Seat 2"; in euchre the person's partner marked; in the 4-player tysiac1001 and the 5-player
cesarz the seat sitting out the deal plainly shown as such (view.seats[s].sitting_out)."""

from __future__ import annotations

import re

import pytest

from harness import open_game, seat_name, wait_for_turn


def names(page) -> dict[int, str]:
    return {int(k): v for k, v in page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#felt .seat')].map(e => [e.dataset.seat, e.querySelector('.name').textContent]))""").items()}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_euchre_seats_by_place_and_the_partner_marked(page, dist_url, lang):
    open_game(page, dist_url, "euchre", players=4, seed=3, seat=1, bots="1", lang=lang)
    wait_for_turn(page)
    got = names(page)
    assert got == {s: seat_name(s, 1, 4, lang, partners=True) for s in range(4)}
    assert got[3] == "Partner" and got[1] == ("You" if lang == "en" else "Ty")
    assert got[2] == ("Left" if lang == "en" else "Gracz z lewej")
    assert got[0] == ("Right" if lang == "en" else "Gracz z prawej")
    # the partner's box is marked, the others not; no "Seat n" / "Gracz n" left on the table
    assert page.locator("#felt .seat.partner").count() == 1
    assert page.locator("#felt .seat.partner").get_attribute("data-seat") == "3"
    text = page.locator("#table").inner_text()
    assert not re.search(r"Seat \d|Gracz \d", text)
    # the seat's number is still there for who needs it (the name's title)
    assert page.locator('#felt .seat[data-seat="2"] .name').get_attribute("title") in ("seat 2", "miejsce 2")


@pytest.mark.parametrize("game,players,seat", [("cesarz", 5, 0), ("tysiac1001", 4, 2)])
def test_the_seat_sitting_out_is_shown_as_such(page, dist_url, game, players, seat):
    open_game(page, dist_url, game, players=players, seed=4, seat=seat, bots="1")
    wait_for_turn(page)
    view = page.evaluate("() => window.atutPage.view")
    out = [x["seat"] for x in view["seats"] if x.get("sitting_out")]
    assert len(out) == 1, view["seats"]
    box = page.locator(f'#felt .seat[data-seat="{out[0]}"]')
    assert "out" in box.get_attribute("class").split()
    badge = box.locator("[data-testid=sitting-out]")
    assert badge.is_visible() and badge.inner_text() == "sits out this deal"
    assert page.locator("#felt [data-testid=sitting-out]").count() == 1
    # the names by place, as seen from the person's seat
    assert names(page) == {s: seat_name(s, seat, players) for s in range(players)}
    # Polish
    page.locator("[data-testid=lang-pl]").click()
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    assert box.locator("[data-testid=sitting-out]").inner_text() == "pauzuje w tym rozdaniu"
    assert names(page) == {s: seat_name(s, seat, players, "pl") for s in range(players)}


def test_two_players_face_the_opponent(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=2, seed=2, seat=1, bots="1")
    wait_for_turn(page)
    assert names(page) == {0: "Opponent", 1: "You"}
    heads = page.eval_on_selector_all(".sheet thead th", "els => els.map(e => e.textContent)")
    assert not any(h.startswith("S") and h[1:].isdigit() for h in heads)
