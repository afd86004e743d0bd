"""The table's layout checked, not hoped for (docs/PAGE.md): every game (and the 4-player
tysiac1001, the 5-player cesarz) at 390x844 (phone), 1280x800 and 1920x1080, measured in the
page with getBoundingClientRect on every turn of the person through the first deal and into the
second (where the last trick of deal 1 and the new deal's mark are shown):

- no label or caption overflows its box (scrollWidth > clientWidth) or is squeezed to a word a
  line;
- the seats, the centre's trump label, stock and piles, the trick and its caption never overlap;
- nothing laid over the table (absolutely placed boxes such as the old "Deal 2" banner) covers
  the trick or the last-trick caption;
- every enabled control ([data-action]) and every button of the table lies inside the viewport
  without scrolling, and the person's hand is above the fold (on the phone, where the page
  scrolls, at least the hand's cards and the controls are within the screen's width and the
  hand starts above the fold);
- the top bar takes at most two rows (icons for the secondary buttons on a phone);
- and one game per size is played to its end (bots at level 1, delay 0, the person's moves made
  through the [data-action] controls), checked on every turn and at the game-over box.

Screenshots of the first turn of deal 2 go to $ATUT_SHOTS (if set) for a person to look at.
"""

from __future__ import annotations

import os
import random

import pytest

from harness import ENABLED_ACTION, GAME_OVER, open_game, wait_for_turn

SIZES = {"phone": (390, 844), "laptop": (1280, 800), "hd": (1920, 1080)}
TABLES = [("cesarz", 3), ("cesarz", 5), ("euchre", 4), ("imperial", 3), ("sixty_six", 2),
          ("tysiac1001", 3), ("tysiac1001", 4)]
# one whole game per size: a short game for each (checked on every turn and at its end)
WHOLE = {"phone": ("sixty_six", 2, 5), "laptop": ("euchre", 4, 2), "hd": ("sixty_six", 2, 8)}

# the boxes whose text must fit (block-level ones: an inline box has no clientWidth)
LABELS = (".seat .name, .seat .stats, .seat-head, .tlabel, .tcaption, .trumpinfo, .decklabel, "
          ".pilelabel, .status .msg, .status .phase, .act, .ghead, .gameover h2, .final span, "
          ".top-actions button, .title")

# the sentences among them (a flex row of stats wraps by design)
SQUEEZABLE = ".tcaption, .trumpinfo, .status .msg, .gameover h2, .seat .name, .tlabel"

MEASURE = """([labels, squeezable]) => {
  const W = document.documentElement.clientWidth, H = window.innerHeight;
  const out = [];
  const shown = (e) => { const r = e.getBoundingClientRect(); const cs = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && cs.visibility !== "hidden" && !e.closest("[hidden]"); };
  const nm = (e) => e.tagName.toLowerCase() + (typeof e.className === "string" && e.className.trim()
    ? "." + e.className.trim().split(/\\s+/).join(".") : "") + (e.dataset.action ? e.dataset.action : "")
    + ' "' + (e.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40) + '"';
  const cut = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
  const R = (e) => e.getBoundingClientRect();
  // 1. text that does not fit its box, or is squeezed to a word a line
  for (const e of document.querySelectorAll(labels)) {
    if (!shown(e) || getComputedStyle(e).display === "inline") continue;
    if (e.scrollWidth > e.clientWidth + 1) out.push(`text overflows: ${nm(e)} ${e.scrollWidth}>${e.clientWidth}`);
    const lh = parseFloat(getComputedStyle(e).lineHeight) || parseFloat(getComputedStyle(e).fontSize) * 1.25;
    const lines = Math.round((e.clientHeight - parseFloat(getComputedStyle(e).paddingTop) - parseFloat(getComputedStyle(e).paddingBottom)) / lh);
    const words = (e.textContent || "").trim().split(/\\s+/).length;
    if (e.matches(squeezable) && words >= 3 && lines >= 3 && lines >= words - 1) out.push(`text squeezed to a word a line: ${nm(e)} (${lines} lines)`);
  }
  // 2. the table's boxes never overlap: seats, the centre's pieces, the trick's cards, its caption
  const seats = [...document.querySelectorAll("#felt .seat")].filter(shown);
  const centre = [...document.querySelectorAll("#center .trumpinfo, #center .deck, #center .decklabel, #center .pile, #center .tcard, #center .tcaption")].filter(shown);
  for (let i = 0; i < seats.length; i++) {
    for (let j = i + 1; j < seats.length; j++) if (cut(R(seats[i]), R(seats[j]))) out.push(`seats overlap: ${nm(seats[i])} / ${nm(seats[j])}`);
    for (const c of centre) if (cut(R(seats[i]), R(c))) out.push(`centre runs into a seat: ${nm(c)} / ${nm(seats[i])}`);
  }
  const felt = document.querySelector("#felt");
  if (felt && shown(felt)) {
    const f = R(felt);
    for (const e of [...seats, ...centre]) {
      const r = R(e);
      if (r.left < f.left - 1 || r.right > f.right + 1) out.push(`outside the felt: ${nm(e)}`);
    }
  }
  const caps = [...document.querySelectorAll("#center .tcaption")].filter(shown);
  const tcards = [...document.querySelectorAll("#center .tcard")].filter(shown);
  for (const c of caps) for (const k of tcards) if (cut(R(c), R(k))) out.push(`caption over a trick card: ${nm(c)}`);
  // 3. nothing laid over the trick or its caption (the game-over box may cover the table)
  const trickParts = [...tcards, ...caps];
  for (const e of document.querySelectorAll("body *")) {
    const pos = getComputedStyle(e).position;
    if ((pos !== "absolute" && pos !== "fixed") || !shown(e)) continue;
    if (e.closest(".trick, .seat, .deck, .overlay, .menu, .hint-panel, .sr-only") || e.matches("input")) continue;
    for (const k of trickParts) if (cut(R(e), R(k))) { out.push(`laid over the trick: ${nm(e)}`); break; }
  }
  // 4. every control inside the viewport (inside the board's visible part: it may scroll)
  const board = document.querySelector(".board");
  const b = board ? R(board) : { top: 0, bottom: H };
  const phone = W <= 760;
  const controls = [...document.querySelectorAll(".board [data-action]:not([disabled]), .board button, .topbar button, " +
    "[data-testid=game-over] button")].filter(shown);
  for (const e of controls) {
    const r = R(e);
    const bottom = e.closest(".board") && !phone ? Math.min(H, b.bottom) : H;
    if (r.left < -1 || r.right > W + 1) out.push(`control outside the screen's width: ${nm(e)} ${Math.round(r.left)}..${Math.round(r.right)} of ${W}`);
    if (!phone && (r.top < -1 || r.bottom > bottom + 1)) out.push(`control below the fold: ${nm(e)} bottom ${Math.round(r.bottom)} > ${Math.round(bottom)}`);
  }
  // 5. the person's hand above the fold
  const hand = [...document.querySelectorAll("#hand > .card")].filter(shown);
  for (const e of hand) {
    const r = R(e);
    const bottom = phone ? H : Math.min(H, b.bottom);
    if (r.left < -1 || r.right > W + 1) out.push(`hand card outside the screen's width: ${nm(e)}`);
    if (phone ? r.top > bottom - r.height * 0.5 : r.bottom > bottom + 1) out.push(`hand card below the fold: ${e.dataset.card} ${Math.round(r.top)}..${Math.round(r.bottom)} > ${Math.round(bottom)}`);
  }
  if (board && !phone && board.scrollTop > 0) out.push(`the board is scrolled (${board.scrollTop}px)`);
  return out;
}"""


# the top bar in at most two rows (it once took four at 390x844): its items' rows counted
# by their tops, and its height no more than two of its tallest item plus its gaps and padding
TOPBAR = """() => {
  const bar = document.querySelector(".topbar");
  if (!bar) return ["no top bar"];
  const items = [...bar.querySelectorAll(".brand, .title, .top-actions > button, .top-actions > .langs")]
    .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
  const rows = [];
  for (const e of items) {
    const r = e.getBoundingClientRect();
    if (!rows.some((y) => Math.abs(y - (r.top + r.bottom) / 2) < r.height / 2)) rows.push((r.top + r.bottom) / 2);
  }
  const cs = getComputedStyle(bar);
  const tallest = Math.max(...items.map((e) => e.getBoundingClientRect().height));
  const room = 2 * tallest + (parseFloat(cs.rowGap) || 0) + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom)
    + parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth) + 2;
  const h = bar.getBoundingClientRect().height;
  const out = [];
  if (rows.length > 2) out.push(`the top bar takes ${rows.length} rows`);
  if (h > room) out.push(`the top bar is ${Math.round(h)}px high, more than two rows (${Math.round(room)}px)`);
  return out;
}"""


def problems(page) -> list[str]:
    return page.evaluate(MEASURE, [LABELS, SQUEEZABLE]) + page.evaluate(TOPBAR)


def deal_no(page) -> int:
    return page.evaluate("() => window.atutPage.view.deal_no || 0")


def check(page, where: str, name: str = "") -> None:
    found = problems(page)
    if found and name:
        shot(page, name + "-fail")
    assert not found, f"{where}:\n  " + "\n  ".join(dict.fromkeys(found))


def shot(page, name: str) -> None:
    folder = os.environ.get("ATUT_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, name + ".png"))


@pytest.fixture(scope="module")
def contexts(browser):
    """One browser context per size for the module (its HTTP cache warm after the first
    table: each table still loads the page and starts Pyodide afresh)."""
    made: dict[str, object] = {"_browser": browser}
    yield made
    made.pop("_browser")
    for ctx in made.values():
        ctx.close()


@pytest.fixture
def sized(contexts, dist_url, page_problems, request):
    """A new page at the size in request.param (the page fails its test on console errors
    and foreign requests, as the `page` fixture)."""
    w, h = SIZES[request.param]
    if request.param not in contexts:
        contexts[request.param] = contexts.get("_browser").new_context(
            viewport={"width": w, "height": h}, locale="en-US")
    ctx = contexts[request.param]
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    pg.on("console", page_problems.on_console)
    pg.on("pageerror", page_problems.on_pageerror)
    pg.on("request", page_problems.on_request)
    yield pg
    pg.close()
    page_problems.check()


def play_checked(page, rng, until_deal: int | None, label: str, max_clicks: int = 2000,
                 turns: int | None = None) -> int:
    """Click random enabled [data-action] controls, checking the layout on every turn, until
    the game ends, the first turn of deal `until_deal` or after `turns` turns; returns the
    number of clicks."""
    clicks = 0
    shot_taken = False
    while True:
        state = wait_for_turn(page)
        page.wait_for_timeout(30)                     # let fitHand() settle
        n = deal_no(page)
        check(page, f"{label}, deal {n}, click {clicks}, {state}", label)
        if state == "over":
            shot(page, label + "-over")
            return clicks
        if n >= 2 and not shot_taken:
            shot(page, label + "-deal2")
            shot_taken = True
        if (until_deal is not None and n >= until_deal) or (turns is not None and clicks >= turns):
            return clicks
        controls = page.locator(ENABLED_ACTION)
        controls.nth(rng.randrange(controls.count())).click()
        clicks += 1
        assert clicks <= max_clicks


@pytest.mark.parametrize("sized", list(SIZES), indirect=True)
@pytest.mark.parametrize("game,players", TABLES)
def test_table_layout_through_the_first_deal(sized, dist_url, game, players):
    size = [k for k, v in SIZES.items() if v == (sized.viewport_size["width"], sized.viewport_size["height"])][0]
    open_game(sized, dist_url, game, players, seed=11, bots="1")
    # into deal 2 (the last trick's caption, the new deal's mark) for the 4-player tysiac1001
    # everywhere and for three games on the phone, where the caption was squeezed; else the
    # first six turns (the whole games below cover the later deals at each size)
    whole_deal = (game, players) == ("tysiac1001", 4) or (
        size == "phone" and (game, players) in (("sixty_six", 2), ("cesarz", 5), ("euchre", 4)))
    clicks = play_checked(sized, random.Random(5), until_deal=2 if whole_deal else None,
                          turns=None if whole_deal else 6, label=f"{game}{players}-{size}")
    assert clicks > 0
    # the last trick of deal 1 is shown with its caption at the start of deal 2, under the trick
    if sized.locator(GAME_OVER).count() == 0 and sized.locator("#center .tcaption").count():
        cap = sized.locator("#center .tcaption").bounding_box()
        assert cap and cap["width"] > 100


@pytest.mark.parametrize("sized", list(SIZES), indirect=True)
def test_a_whole_game_in_each_size(sized, dist_url):
    size = [k for k, v in SIZES.items() if v == (sized.viewport_size["width"], sized.viewport_size["height"])][0]
    game, players, seed = WHOLE[size]
    open_game(sized, dist_url, game, players, seed=seed, bots="1")
    play_checked(sized, random.Random(seed), until_deal=None, label=f"whole-{game}{players}-{size}")
    assert sized.locator(GAME_OVER).is_visible()
    assert sized.locator("[data-testid=play-again]").is_visible()
