"""The table's pace (docs/PAGE.md): the only legal card played by itself (option), a finished trick
kept on the table until a key or a click (option), cards that glide (and do not under
prefers-reduced-motion), sounds off by default with a mute button, and what the bots play read
out to screen readers with the cards' spoken names.  The options live in the browser
(localStorage), set here before the page loads."""

from __future__ import annotations

import json
import random

import atut
from harness import ENABLED_ACTION, GAME_OVER, open_game, saved_game, wait_for_turn

CONTINUE = "[data-testid=continue]"


def set_options(page, **kv):
    items = "".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in kv.items())
    page.add_init_script(f"try {{ {items} }} catch (e) {{}}")


def view(page):
    return page.evaluate("() => window.atutPage.view")


def only_card(v) -> bool:
    la = v.get("legal_actions") or []
    return len(la) == 1 and isinstance(la[0].get("card"), str)


def auto_count(page) -> int:
    return page.evaluate("() => parseInt(document.body.dataset.autoPlayed || '0', 10)")


def click_random(page, rng):
    controls = page.locator(ENABLED_ACTION)
    controls.nth(rng.randrange(controls.count())).click()


def person_turns(text: str, seat: int = 0) -> list[list[dict]]:
    """The legal actions of each of the person's turns of a saved game, replayed in CPython."""
    data = json.loads(text)
    g = atut.new_game(data["game"], data["players"], seed=data["seed"], dealer=data["dealer"],
                      deck=data["deck"], options=data["options"])
    turns = []
    for a in data["actions"]:
        if g.to_move == seat:
            turns.append(g.legal_actions())
        g.apply(a)
    return turns


def test_the_only_legal_card_plays_itself_and_nothing_else_does(page, dist_url):
    """1001 has turns with one card, and turns with one action that is no card (a forced pass,
    an announcement): only the former play themselves.  The test clicks only on turns with a
    choice (or with one action that is no card) and never on a turn with one card; the game,
    replayed in CPython, then shows that the page played every one-card turn itself and no other."""
    set_options(page, **{"atut.pace.autoplay": "on"})
    open_game(page, dist_url, "tysiac1001", 3, seed=0, bots="1")
    rng = random.Random(0)
    clicks = others = 0
    while True:
        if wait_for_turn(page) == "over":
            break
        v = view(page)
        assert (v.get("deal_no") or 0) < 10, "no turn with one action that is no card in nine deals"
        if v["to_move"] != v["seat"]:
            continue
        if only_card(v):
            # no click: the page plays it, and the game goes on
            page.wait_for_function("([d, n]) => { const v = window.atutPage.view; return v.deal_no !== d || v.log.length !== n; }",
                                   arg=[v["deal_no"], len(v["log"])])
            continue
        assert page.locator("#hand[data-auto]").count() == 0, f"marked to play itself: {v['legal_actions']}"
        if (v.get("deal_no") or 0) >= 3 and others:
            break                         # a turn with a choice: nothing of the page's pending
        others += len(v["legal_actions"]) == 1
        click_random(page, rng)
        clicks += 1
        page.wait_for_function("([d, n]) => { const v = window.atutPage.view; return v.deal_no !== d || v.log.length !== n; }",
                               arg=[v["deal_no"], len(v["log"])])
    turns = person_turns(saved_game(page))
    one_card = [t for t in turns if len(t) == 1 and isinstance(t[0].get("card"), str)]
    one_other = [t for t in turns if len(t) == 1 and not isinstance(t[0].get("card"), str)]
    assert len(one_card) >= 3 and len(one_other) >= 1, (len(one_card), len(one_other))
    assert auto_count(page) == len(one_card), "not every one-card turn played itself"
    assert clicks == len(turns) - len(one_card), "the page played a turn with a choice by itself"


def test_autoplay_is_off_by_default(page, dist_url):
    open_game(page, dist_url, "sixty_six", 2, seed=3, bots="1")
    rng = random.Random(3)
    seen = 0
    while seen < 1:
        assert wait_for_turn(page) == "turn"
        v = view(page)
        if only_card(v):
            seen += 1
            assert page.locator("#hand[data-auto]").count() == 0
        click_random(page, rng)
    assert auto_count(page) == 0


def test_a_finished_trick_waits_for_a_key_or_a_click(page, dist_url):
    set_options(page, **{"atut.pace.keeptrick": "on"})
    open_game(page, dist_url, "sixty_six", 2, seed=3, bots="1")
    rng = random.Random(3)
    keys = clicks = 0
    while keys < 2 or clicks < 2:
        page.wait_for_selector(f"{GAME_OVER}, {ENABLED_ACTION}, {CONTINUE}")
        if page.locator(GAME_OVER).count():
            break
        if not page.locator(CONTINUE).count():
            click_random(page, rng)
            continue
        before = view(page)
        assert before["to_move"] != before["seat"]          # a bot would lead: it waits
        trick = page.locator("#center .trick[data-taken]")
        assert trick.count() == 1 and trick.locator(".tcard").count() >= 2
        page.wait_for_timeout(400)                          # the bots stay put meanwhile
        assert view(page) == before and page.locator(CONTINUE).is_visible()
        if keys <= clicks:
            page.keyboard.press("x")
            keys += 1
        else:
            page.click("#felt")
            clicks += 1
        page.wait_for_selector(CONTINUE, state="detached")
    assert keys >= 2 and clicks >= 2


AUDIO_SPY = """(() => {
  window.__audio = { made: 0, started: 0 };
  const AC = window.AudioContext;
  if (!AC) return;
  class Spy extends AC {
    constructor(...a) { super(...a); window.__audio.made += 1; }
    createOscillator() { const o = super.createOscillator(); const s = o.start.bind(o); o.start = (...a) => { window.__audio.started += 1; return s(...a); }; return o; }
    createBufferSource() { const o = super.createBufferSource(); const s = o.start.bind(o); o.start = (...a) => { window.__audio.started += 1; return s(...a); }; return o; }
  }
  window.AudioContext = Spy;
})();"""


def play_moves(page, rng, n):
    for _ in range(n):
        if wait_for_turn(page) == "over":
            return
        click_random(page, rng)


def test_sounds_are_off_by_default_and_the_mute_button_toggles_them(page, dist_url):
    page.add_init_script(AUDIO_SPY)
    open_game(page, dist_url, "sixty_six", 2, seed=5, bots="1")
    mute = page.locator("[data-testid=mute]")
    assert mute.get_attribute("aria-pressed") == "true"          # muted
    assert mute.get_attribute("aria-label")
    rng = random.Random(5)
    play_moves(page, rng, 4)
    assert page.evaluate("() => window.__audio") == {"made": 0, "started": 0}, "an AudioContext before the sounds were on"
    mute.click()
    assert mute.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('atut.sound')") == "on"
    play_moves(page, rng, 3)
    page.wait_for_function("() => window.__audio.started > 0")
    assert page.evaluate("() => window.__audio.made") == 1
    # the settings panel shows the same state; turning it off there mutes the button
    page.click("[data-testid=open-settings]")
    box = page.locator("[data-testid=settings] input[data-sound]")
    assert box.is_checked()
    box.uncheck()
    page.keyboard.press("Escape")
    assert mute.get_attribute("aria-pressed") == "true"
    started = page.evaluate("() => window.__audio.started")
    play_moves(page, rng, 3)
    assert page.evaluate("() => window.__audio.started") == started


def test_the_pace_options_are_in_the_settings_panel_in_both_languages(page, dist_url):
    open_game(page, dist_url, "euchre", 4, seed=2, bots="1", lang="pl")
    page.click("[data-testid=open-settings]")
    panel = page.locator("[data-testid=settings]")
    text = panel.text_content()
    assert "Zagrywaj samoczynnie" in text and "Zostawiaj każdą zakończoną lewę" in text and "Dźwięki" in text
    panel.locator("input[data-pace=autoplay]").check()
    assert page.evaluate("() => localStorage.getItem('atut.pace.autoplay')") == "on"
    assert "autoplay" not in page.evaluate("() => location.hash")      # the look and pace: not in the link
    page.click("[data-testid=lang-en]")
    text = page.locator("[data-testid=settings]").text_content()
    assert "Play my only legal card by itself" in text and "Keep each finished trick" in text


def moves_after_bot_cards(page, rng, turns):
    """Play `turns` turns; returns body[data-moves] (the card moves started) and the longest
    list of running animations seen right after a move."""
    most = 0
    for _ in range(turns):
        if wait_for_turn(page) == "over":
            break
        click_random(page, rng)
        most = max(most, page.evaluate("() => document.getAnimations().length"))
    return page.evaluate("() => parseInt(document.body.dataset.moves || '0', 10)"), most


def test_cards_glide_at_a_bot_speed_and_not_with_reduced_motion(page, dist_url):
    open_game(page, dist_url, "sixty_six", 2, seed=3, bots="1", delay=300)
    moved, _ = moves_after_bot_cards(page, random.Random(3), 4)
    assert moved > 0, "no card moved at the fast bot speed"
    page.emulate_media(reduced_motion="reduce")
    open_game(page, dist_url, "sixty_six", 2, seed=3, bots="1", delay=300)
    moved, most = moves_after_bot_cards(page, random.Random(3), 4)
    assert moved == 0 and most == 0, f"{moved} moves, {most} animations under reduced motion"


def test_a_bot_card_is_read_out_by_its_spoken_name(page, dist_url):
    for lang, turn in (("en", "Your turn"), ("pl", "Twój ruch")):
        open_game(page, dist_url, "sixty_six", 2, seed=4, bots="1", lang=lang)
        rng = random.Random(4)
        for _ in range(30):
            assert wait_for_turn(page) == "turn"
            v = view(page)
            bots = [e for e in v.get("trick") or [] if e["seat"] != v["seat"]]
            if bots:
                break
            click_random(page, rng)
        assert bots, "no bot card on the table at the person's turn"
        name = page.get_attribute(f"#center .tcard[data-seat='{bots[-1]['seat']}'] [data-card]", "aria-label")
        assert name and name != bots[-1]["card"]
        text = page.locator("[data-testid=announce]").text_content()
        assert name in text, f"{name!r} not in {text!r}"
        assert turn in text
        assert page.get_attribute("[data-testid=announce]", "lang") == lang
