"""The page in general: dist/ under a sub-path of another host, save and load through the UI."""

from __future__ import annotations

import json
import os
import random
import re

import pytest

import atut
import build
from atut.game import canonical
from harness import (
    open_game,
    page_actions,
    page_cards,
    saved_game,
    seat_name,
    visible_cards,
    wait_for_turn,
)


def test_dist_works_under_a_sub_path(page, tmp_path, page_problems):
    site = tmp_path / "site"
    (site / "games" / "cards").mkdir(parents=True)
    os.symlink(build.DIST, site / "games" / "cards" / "atut")
    srv, root = build.serve_in_thread(site)
    try:
        base = root + "games/cards/atut/"
        page_problems.base = root
        page.goto(base + "#game=sixty_six&players=2&seed=2&delay=0&bots=1")
        page.wait_for_selector("body[data-engine=ready]")
        assert wait_for_turn(page) == "turn"
        assert page_actions(page)
    finally:
        srv.shutdown()
        srv.server_close()


def test_save_and_load_through_the_page(page, dist_url, tmp_path):
    open_game(page, dist_url, "sixty_six", players=3, seed=40, seat=2)
    for _ in range(4):
        assert wait_for_turn(page) == "turn"
        page.locator("[data-action]:not([disabled])").first.click()
    assert wait_for_turn(page) == "turn"
    view = page.evaluate("() => window.atutPage.view")
    with page.expect_download() as dl:
        page.click("#btnSave")
    path = tmp_path / "save.json"
    dl.value.save_as(path)
    text = path.read_text()
    data = json.loads(text)
    assert data.pop("seat") == 2 and data.pop("bots") == [1, 1]
    assert data == json.loads(saved_game(page))
    assert atut.load_game(text).view(2, explain=True) == view
    # another game, then load the file back: the same table, the same seat, play goes on
    open_game(page, dist_url, "sixty_six", players=2, seed=1, seat=0)
    page.set_input_files("#fileInput", str(path))
    page.wait_for_function("() => window.atutPage.view && window.atutPage.view.players === 3")
    assert page.evaluate("() => window.atutPage.view") == view
    assert "seed=40" in page.evaluate("() => location.hash")
    assert wait_for_turn(page) == "turn"
    # a broken file: a clear error, the table stays
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}')
    page.set_input_files("#fileInput", str(bad))
    err = page.locator("[data-testid=error]")
    err.wait_for(state="visible")
    assert "malformed saved game" in err.inner_text()
    assert page.evaluate("() => window.atutPage.view") == view


def test_a_broken_runtime_shows_an_error(page, tmp_path, page_problems):
    site = tmp_path / "broken"
    (site / "web" / "pyodide").mkdir(parents=True)
    os.symlink(build.DIST / "index.html", site / "index.html")
    for p in (build.DIST / "web").iterdir():
        if p.name != "pyodide":
            os.symlink(p, site / "web" / p.name)
    for p in (build.DIST / "web" / "pyodide").iterdir():
        if p.name != "pyodide.asm.wasm":                     # the runtime cannot start
            os.symlink(p, site / "web" / "pyodide" / p.name)
    srv, root = build.serve_in_thread(site)
    try:
        page_problems.base = root
        page_problems.allowed_errors += ["404", "Failed to load resource", "wasm", "WebAssembly",
                                         "Aborted", "pyodide"]
        page.goto(root + "#game=sixty_six&delay=0")
        page.wait_for_selector("body[data-engine=error]", timeout=120_000)
        err = page.locator("[data-testid=error]")
        assert err.is_visible()
        assert "could not be loaded" in err.inner_text()
        assert page.locator("[data-testid=loading]").is_visible()
    finally:
        srv.shutdown()
        srv.server_close()


# --- the hash's bot levels --------------------------------------------------------------------

def _go(page, hash_: str) -> None:
    """Start another game on the open page through a hash change (no reload)."""
    page.evaluate("(h) => { location.hash = h }", hash_)


def _levels(page) -> dict[int, str]:
    return dict(page.eval_on_selector_all(
        ".seat[data-seat]:not(.me) .lvl",
        "els => els.map(e => [+e.closest('.seat').dataset.seat, e.textContent])"))


def test_bots_accept_level_names(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=4, seed=3, seat=0, bots="random,rules,strong")
    assert _levels(page) == {1: "bot 1", 2: "bot 2", 3: "bot 4"}
    assert "bots=1,2,4" in page.evaluate("() => location.hash")
    _go(page, "game=sixty_six&players=3&seed=4&seat=1&bots=search&delay=0")
    page.wait_for_function("() => window.atutPage.view && window.atutPage.view.players === 3")
    assert _levels(page) == {0: "bot 3", 2: "bot 3"}
    _go(page, "game=sixty_six&players=3&seed=4&seat=1&bots=Strong,1&delay=0")
    page.wait_for_function("() => location.hash.includes('bots=4,1')")
    assert _levels(page) == {0: "bot 4", 2: "bot 1"}
    # an unknown level name: a clear error, the table goes on unchanged
    _go(page, "game=sixty_six&players=3&seed=4&seat=1&bots=genius&delay=0")
    err = page.locator("[data-testid=error]")
    err.wait_for(state="visible")
    assert 'not “genius”' in err.inner_text() and "strong" in err.inner_text()


# --- log sentences ----------------------------------------------------------------------------

LOG_GAMES = [("cesarz", (2, 3, 4, 5)), ("euchre", (4,)), ("imperial", (2, 3)),
             ("tysiac1001", (3, 4)), ("sixty_six", (2, 3, 4))]
SEAT_FIELDS = ("seat", "winner", "to", "declarer", "maker", "dealer", "seats")


def _mine(item, seat):
    return tuple(k for k in SEAT_FIELDS if item.get(k) == seat
                 or (isinstance(item.get(k), list) and seat in item[k]))


def _log_events(game_id, players, seeds=range(3), seat=0):
    """One event of each kind seat 0 sees in seeded random games: kinds differ by type, the
    action's type, fields and (for a one-field action) value, and which seat fields name seat 0;
    and one summary item of each kind (key, fields, seat fields naming seat 0)."""
    out = {}
    summary = {}
    for seed in seeds:
        g = atut.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        for i in range(3000):             # random 1001 may never reach 1001: enough deals
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
            if i % 3 == 0 or g.is_over:
                for item in g.view(seat).get("summary") or []:
                    summary.setdefault((item.get("key"), tuple(sorted(item)), _mine(item, seat)),
                                       item)
        for ev in g.visible_events(seat):
            a = ev.get("action")
            akind = None
            if isinstance(a, dict):
                akind = tuple(sorted(a)) + ((a.get("value"),) if isinstance(a.get("value"), bool) else ())
            out.setdefault((ev["type"], akind, _mine(ev, seat), tuple(sorted(ev))), ev)
    return list(out.values()), list(summary.values())


def _bad_sentence(line: str, lang: str, ev: dict) -> str | None:
    if "{" in line or "}" in line:
        return "a placeholder is left"
    if ev["type"] == "action" and re.match(r"^(Seat \d+|You|Gracz \d+|Ty|Left|Right|Across|Partner|Opponent|Far left|Far right|Gracz z lewej|Gracz z prawej|Gracz naprzeciw|Przeciwnik|Drugi z lewej|Drugi z prawej): ", line):
        return "the generic '{seat}: {action}' fallback"
    if lang == "en":
        m = re.search(r"\b[Yy]ou (\w+)", line)
        if m and m.group(1).endswith("s") and not m.group(1).endswith("ss"):
            return f"'you {m.group(1)}'"
        if re.search(r"[a-z,(] You\b", line):
            return "a capital 'You' inside the sentence"
    else:
        if re.search(r"\b[Tt]y\s+(?!i\b)\w", line):
            return "'ty' with a third-person verb"
        if re.search(r"\byou\b|\bYou\b", line):
            return "English inside a Polish sentence"
    return None


def test_log_sentences_read_well_in_both_languages(page, dist_url):
    """Every kind of event and summary item seat 0 sees, in every game, as seat 0 reads it: a
    sentence of its own (no generic fallback), the person's variants in the second person ("You
    play", "Zagrywasz")."""
    open_game(page, dist_url, "sixty_six", players=2, seed=1, seat=0)
    bad = []
    n = 0
    for game_id, counts in LOG_GAMES:
        for players in counts:
            events, summary = _log_events(game_id, players)
            for lang in ("en", "pl"):
                _go(page, f"game={game_id}&players={players}&seed=1&seat=0&bots=1&delay=0"
                          f"&lang={lang}&debug=1")
                page.wait_for_function(
                    "([g, n, l]) => { const v = window.atutPage.view; return v && v.game === g"
                    " && v.players === n && document.documentElement.lang === l }",
                    arg=[game_id, players, lang])
                lines = page.evaluate("(evs) => evs.map((e) => window.atutPage.logLine(e))",
                                      events)
                for ev, line in zip(events, lines):
                    n += 1
                    why = _bad_sentence(line, lang, ev)
                    if why:
                        bad.append(f"{game_id}/{players}/{lang}: {line!r} ({why}) from {ev}")
                lines = page.evaluate("(s) => s.map((x) => window.atutPage.summaryLine(x))",
                                      summary)
                for item, line in zip(summary, lines):
                    n += 1
                    why = _bad_sentence(line, lang, {"type": "summary"})
                    if line.startswith(str(item.get("key"))):
                        why = "no summary sentence for this key"
                    if why:
                        bad.append(f"{game_id}/{players}/{lang} summary: {line!r} ({why}) "
                                   f"from {item}")
    assert n > 300
    assert not bad, "\n".join(bad)


def test_action_sentences_follow_the_action_fields(page, dist_url):
    open_game(page, dist_url, "cesarz", players=3, seed=1, seat=0)
    line = lambda ev: page.evaluate("(e) => window.atutPage.logLine(e)", ev)  # noqa: E731
    play = {"type": "action", "seat": 1, "action": {"type": "play", "card": "RED_JOKER",
                                                    "companion": "AH"}}
    assert line(play) == "Left plays [RED_JOKER] with [AH]"
    play["seat"] = 0
    assert line(play) == "You play [RED_JOKER] with [AH]"
    meld = {"type": "action", "seat": 2, "action": {"type": "play", "card": "KH", "meld": "QH"}}
    assert line(meld) == "Right plays [KH] and melds it with [QH]"
    give = {"type": "action", "seat": 2, "action": {"type": "give", "card": "9S", "to": 0}}
    assert line(give) == "Right gives you [9S]"
    _go(page, "game=cesarz&players=3&seed=1&seat=0&bots=1&delay=0&lang=pl&debug=1")
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    assert line(play) == "Zagrywasz [RED_JOKER] razem z [AH]"
    assert line(give) == "Gracz z prawej daje ci [9S]"


# --- the last deal ----------------------------------------------------------------------------

RANK_NAMES = {"A": "ace", "10": "ten", "K": "king", "Q": "queen", "J": "jack", "9": "nine",
              "8": "eight", "7": "seven", "6": "six", "PR": "prince", "YP": "young princess"}
SUIT_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
SPECIAL_NAMES = {"EMPEROR": "Emperor", "RED_JOKER": "Red joker", "BLACK_JOKER": "Black joker",
                 "BLUE_JOKER": "Blue joker"}


def _card_name(code: str) -> str:
    """A card's English name as the page says it (aria-label)."""
    if code in SPECIAL_NAMES:
        return SPECIAL_NAMES[code]
    return f"{RANK_NAMES[code[:-1]]} of {SUIT_NAMES[code[-1]]}"


def test_last_deal_panel_shows_the_final_trick_and_result(page, dist_url):
    """The engine deals the next deal inside the step that ends a deal: the page keeps the final
    trick and the result in sight (a side panel and the centre) without blocking play."""
    seat = 0
    open_game(page, dist_url, "cesarz", players=3, seed=5, seat=seat)
    panel = page.locator("[data-testid=last-deal]")
    clicks = 0
    while not panel.count():
        assert wait_for_turn(page) == "turn", "the game ended before a deal did"
        page.locator("[data-action]:not([disabled])").first.click()
        clicks += 1
        assert clicks < 300
    # no extra click needed: it is the person's turn in the new deal with every legal action
    assert wait_for_turn(page) == "turn"
    view = page.evaluate("() => window.atutPage.view")
    assert view["deal_no"] == 2
    assert sorted(page_actions(page)) == sorted(canonical(a) for a in view["legal_actions"])
    text = panel.inner_text()
    assert "(1)" in text and "takes the trick" in text and "Deal 1 over" in text
    # the finished deal as the engine recorded it: its last trick's cards are in the panel
    game = atut.load_game(saved_game(page))
    tricks = [e for e in game.visible_events(seat, explain=True) if e["type"] == "trick"]
    last = [e for e in tricks if game.events.index(e) < game._deal_event][-1]
    # (drawn without data-card, which marks only the cards of the current view; the score
    # walk-through below the trick draws the cards its lines name)
    shown = page.eval_on_selector_all("[data-testid=last-deal] > ul [data-past-card]",
                                      "els => els.map(e => e.getAttribute('aria-label'))")
    assert shown == [_card_name(c) for c in last["cards"]]
    assert set(page_cards(page)) <= visible_cards(view)
    assert not any(f'"{c}"' in page.content() for c in last["cards"]
                   if c not in visible_cards(view))
    # the centre still shows that trick (the new deal has no card played yet)
    if not view["trick"]:
        centre = page.eval_on_selector_all("[data-testid=trick] [data-past-card]",
                                           "els => els.map(e => e.getAttribute('aria-label'))")
        assert _card_name(last["cards"][-1]) in centre
        assert "last trick of deal 1" in page.locator("[data-testid=trick]").inner_text()
    # the person closes it; play goes on
    page.click("[data-testid=last-deal-close]")
    assert panel.count() == 0
    assert wait_for_turn(page) == "turn"


# --- layout -----------------------------------------------------------------------------------

def _play_until(page, done: str, max_clicks: int = 400) -> None:
    """Click the first enabled control until the JS expression `done` (on `view`) holds."""
    for _ in range(max_clicks):
        if page.evaluate(f"() => {{ const view = window.atutPage.view; return !!({done}) }}"):
            return
        assert wait_for_turn(page) == "turn"
        page.locator("[data-action]:not([disabled])").first.click()
    raise AssertionError(f"not reached: {done}")


def test_score_sheet_fits_the_side_panel(page, dist_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_game(page, dist_url, "cesarz", players=5, seed=2, seat=0)
    _play_until(page, "view.score_sheet && view.score_sheet.rows.length >= 2")
    for lang in ("en", "pl"):
        page.click(f"[data-testid=lang-{lang}]")
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        fit = page.evaluate("""() => {
            const side = document.querySelector('.side').getBoundingClientRect();
            const box = document.querySelector('.sheet .scroll');
            const heads = [...document.querySelectorAll('.sheet thead th')];
            return {inside: box.getBoundingClientRect().right <= side.right + 0.5,
                    fits: box.scrollWidth <= box.clientWidth + 1,
                    titled: heads.every((h) => h.title),
                    oneLine: heads.every((h) => h.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(h).fontSize) + 8)};
        }""")
        assert fit == {"inside": True, "fits": True, "titled": True, "oneLine": True}, (lang, fit)


HIT_TEST = """() => {
    // every control of the person and every card of the hand, brought into view, is the topmost
    // element at its own centre (nothing of the table lies over it)
    const bad = [];
    for (const el of document.querySelectorAll('[data-testid=hand] [data-card], [data-testid=actions] [data-action]')) {
        el.scrollIntoView({block: 'center', inline: 'center'});
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        // the part of a card not covered by its right-hand neighbour in an overlapping hand
        const next = el.nextElementSibling && el.parentElement.matches('[data-testid=hand]') ? el.nextElementSibling.getBoundingClientRect() : null;
        const right = next && next.top < r.bottom - 2 && next.left > r.left ? Math.min(r.right, next.left) : r.right;
        const x = (r.left + right) / 2, y = r.top + r.height / 2;
        const top = document.elementFromPoint(x, y);
        if (!top || !(el === top || el.contains(top))) bad.push([el.dataset.card || el.dataset.action, top ? top.className || top.tagName : null]);
    }
    return bad;
}"""


COVER_TEST = """(sel) => {
    // push parts of the felt over a control with a transform (no layout change): the control
    // must still be what a pointer at its centre reaches
    const target = document.querySelector(sel);
    target.scrollIntoView({block: 'center'});
    const r = target.getBoundingClientRect();
    const moved = [...document.querySelectorAll('.trick, .center, .myseat, .opponents > .seat')];
    const bad = [];
    for (const e of moved) {
        const b = e.getBoundingClientRect();
        e.style.transform = `translate(${r.left + r.width / 2 - b.left - b.width / 2}px, ${r.top + r.height / 2 - b.top - b.height / 2}px)`;
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!target.contains(top)) bad.push(e.className);
        e.style.transform = '';
    }
    return bad;
}"""


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080), (390, 844)])
def test_nothing_covers_the_hand_or_the_choices(page, dist_url, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_game(page, dist_url, "cesarz", players=5, seed=11, seat=0)
    assert wait_for_turn(page) == "turn"
    # the bidding: number buttons in the action panel, and the hand's cards
    for sel in ("[data-testid=actions] [data-action]", "[data-testid=hand] [data-card]"):
        bad = page.evaluate(COVER_TEST, sel)
        assert not bad, f"{bad} can lie over {sel} at {size}"
    turns = 0
    for _ in range(60):
        if wait_for_turn(page) == "over":
            break
        bad = page.evaluate(HIT_TEST)
        assert not bad, f"covered at {size}: {bad}"
        turns += 1
        controls = page.locator("[data-action]:not([disabled])")
        controls.nth(turns % controls.count()).click()
    assert turns >= 20


# --- while a bot thinks ------------------------------------------------------------------------

def test_menu_and_language_work_while_a_bot_thinks(page, dist_url):
    open_game(page, dist_url, "euchre", players=4, seed=3, seat=2, bots="strong", delay=1500)
    # one atomic step, taken while the status says a bot is thinking: open the menu, switch to
    # Polish, and read the page back
    got = page.wait_for_function("""() => {
        const st = document.querySelector('[data-testid=status]').textContent;
        const v = window.atutPage.view;
        if (v.to_move === 2) {                 // the person's turn: pass it on to the bots
            const b = document.querySelector('[data-action]:not([disabled])');
            if (b) b.click();
            return false;
        }
        if (!/ is thinking/.test(st)) return false;
        document.querySelector('[data-testid=open-menu]').click();
        document.querySelector('[data-testid=lang-pl]').click();
        return {bot: v.to_move, menu: !document.querySelector('[data-testid=menu]').hidden,
                lang: document.documentElement.lang,
                status: document.querySelector('[data-testid=status]').textContent,
                thinking: !!document.querySelector(`.seat[data-seat="${v.to_move}"] .thinking`)};
    }""").json_value()
    assert got["bot"] != 2 and got["menu"] and got["lang"] == "pl" and got["thinking"]
    assert got["status"].startswith(f"{seat_name(got['bot'], 2, 4, 'pl', partners=True)} myśli")
    # the menu is usable at once: back to the table, and the bots play on to the person's turn
    assert "Nowa gra" in page.locator("[data-testid=menu]").inner_text()
    page.click("[data-testid=menu] [data-close]")
    assert page.locator("[data-testid=menu]").is_hidden()
    assert wait_for_turn(page) == "turn"
    assert page.locator("[data-testid=status]").inner_text().startswith("Twój ruch")
