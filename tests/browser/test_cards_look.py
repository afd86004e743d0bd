"""How the cards look (docs/PAGE.md, "At the table"): the four-colour deck (spades black, hearts
red, diamonds blue, clubs green) turned on in the settings panel, read back from the computed
colours of each suit's symbol on a card in the hand and on a chip in the log; every suit's ink
passes WCAG AA (contrast 4.5:1, computed here in Python from the computed colours) against the
background it is drawn on, for the normal deck, the four-colour deck and large print; the option
is kept over a reload and is not in the shareable hash.  Projector mode at 1920x1080 fills the
screen.  No timing assertions."""

from __future__ import annotations

import re

from harness import ENABLED_ACTION, GAME_OVER, open_game, wait_for_turn

SUITS = "SHDC"
AA = 4.5

# For every card picture in `sel`: its suit (svg.face.suit-X), the computed fill of its rank and
# symbols (.ink), of the card face (the frame, first rect) and of a court card's tint (.tint).
FACES_JS = r"""(sel) => [...document.querySelectorAll(sel + ' svg.face')].map(svg => {
  const m = [...svg.classList].find(c => c.startsWith('suit-'));
  const tint = svg.querySelector('.tint');
  let opacity = 1, under = [];
  for (let e = svg; e; e = e.parentElement) {
    opacity *= parseFloat(getComputedStyle(e).opacity);
    if (e.id === 'felt') {
      const s = getComputedStyle(e);
      under = (s.backgroundImage.match(/rgba?\([^)]*\)/g) || []).concat([s.backgroundColor]);
      break;
    }
  }
  return { suit: m ? m.slice(5) : null,
           ink: [...svg.querySelectorAll('.ink')].map(e => getComputedStyle(e).fill),
           face: getComputedStyle(svg.querySelector('rect')).fill,
           tint: tint ? getComputedStyle(tint).fill : null, opacity, under };
}).filter(c => c.suit)"""

# For every chip in `sel`: its suit, the computed text colour, the symbol's fill and the first
# opaque background colour behind it (the chip's own or an ancestor's; a gradient in between is
# reported, since no contrast could be computed against it).
CHIPS_JS = r"""(sel) => [...document.querySelectorAll(sel + ' .chip')].map(ch => {
  const m = [...ch.classList].find(c => c.startsWith('suit-'));
  let bg = null, gradient = false;
  for (let e = ch; e && !bg; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.backgroundImage !== 'none') { gradient = true; break; }
    const c = s.backgroundColor;
    if (c && c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c)) bg = c;
  }
  const icon = ch.querySelector('svg.suit');
  return { suit: m ? m.slice(5) : null, text: getComputedStyle(ch).color,
           icon: icon ? getComputedStyle(icon).fill : null, bg, gradient };
}).filter(c => c.suit)"""


def rgb(css: str) -> tuple[int, int, int]:
    m = re.match(r"rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)", css or "")
    assert m, f"not an rgb colour: {css!r}"
    assert m.group(4) is None or float(m.group(4)) == 1.0, f"a see-through colour: {css}"
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def luminance(c: tuple[int, int, int]) -> float:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(rgb(a)), luminance(rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def over(css: str, under: str, opacity: float) -> str:
    """`css` drawn `opacity` opaque over `under` (an opaque colour), as a css colour."""
    a, b = rgb(css), rgb(under)
    return "rgb({}, {}, {})".format(*(round(opacity * x + (1 - opacity) * y) for x, y in zip(a, b)))


def ratios_on(ink: str, bg: str, card: dict) -> list[float]:
    """The contrast of an ink on a card's face; a see-through card on the felt (a finished
    trick) is composited over each colour of the felt's gradient."""
    if card["opacity"] >= 0.999 or not card["under"]:
        return [contrast(ink, bg)]
    out = []
    for u in card["under"]:
        if re.match(r"rgba\(.*,\s*0\)$", u):
            continue
        out.append(contrast(over(ink, u, card["opacity"]), over(bg, u, card["opacity"])))
    return out


def hue(css: str) -> str:
    """The colour family of an ink: black, red, blue or green."""
    r, g, b = rgb(css)
    if max(r, g, b) < 70:
        return "black"
    if r > g and r > b:
        return "red"
    if b > r and b > g:
        return "blue"
    if g > r and g > b:
        return "green"
    return f"other {css}"


NORMAL = {"S": "black", "C": "black", "H": "red", "D": "red"}
FOUR = {"S": "black", "C": "green", "H": "red", "D": "blue"}


def check_faces(page, sel: str, want: dict, ratios: dict, tag: str) -> set[str]:
    cards = page.evaluate(FACES_JS, sel)
    assert cards, f"no card pictures in {sel}"
    for c in cards:
        assert c["ink"], c
        for ink in c["ink"]:
            assert hue(ink) == want[c["suit"]], (tag, c)
            # a see-through card off the felt is a hand card that cannot be played now (a
            # disabled control, dimmed on purpose; WCAG 1.4.3 leaves inactive controls out):
            # its colour family is checked above, its contrast is not
            if c["opacity"] < 0.999 and not c["under"]:
                continue
            faded = "" if c["opacity"] >= 0.999 else " faded"
            for bg, kind in ((c["face"], "card"), (c["tint"], "court")):
                if not bg:
                    continue
                r = min(ratios_on(ink, bg, c))
                key = (tag, kind + faded, c["suit"])
                ratios[key] = min(r, ratios.get(key, 99))
                assert r >= AA, (tag, kind + faded, c, r)
    return {c["suit"] for c in cards}


def check_chips(page, sel: str, want: dict, ratios: dict, tag: str) -> set[str]:
    chips = page.evaluate(CHIPS_JS, sel)
    assert chips, f"no chips in {sel}"
    for c in chips:
        assert not c["gradient"] and c["bg"], (tag, "a chip with no plain background", c)
        for ink in (c["text"], c["icon"]):
            assert hue(ink) == want[c["suit"]], (tag, c)
            r = contrast(ink, c["bg"])
            ratios[(tag, "chip", c["suit"])] = min(r, ratios.get((tag, "chip", c["suit"]), 99))
            assert r >= AA, (tag, c, r)
    return {c["suit"] for c in chips}


def set_look(page, name: str, on: bool) -> None:
    page.locator("[data-testid=open-settings]").click()
    panel = page.locator("[data-testid=settings]")
    panel.wait_for(state="visible")
    box = panel.locator(f"input[data-look={name}]")
    box.check() if on else box.uncheck()
    page.keyboard.press("Escape")
    panel.wait_for(state="detached")
    assert ("look-" + name in (page.locator("body").get_attribute("class") or "").split()) == on


def play_until_log_has_all_suits(page, max_clicks: int = 60) -> None:
    for _ in range(max_clicks):
        chips = page.evaluate(CHIPS_JS, ".loglist")
        if {c["suit"] for c in chips} >= set(SUITS):
            return
        if wait_for_turn(page) == "over" or page.locator(GAME_OVER).count():
            break
        page.locator(ENABLED_ACTION).first.click()
    raise AssertionError("the log never showed a card of every suit")


def play_until_finished_trick_shown(page, max_clicks: int = 30) -> None:
    for _ in range(max_clicks):
        if wait_for_turn(page) == "over":
            break
        if page.locator("#felt .tcard.done").count():
            return
        page.locator(ENABLED_ACTION).first.click()
    raise AssertionError("no finished trick was left on the felt at the person's turn")


def test_four_colour_deck_contrast_and_kept(page, dist_url):
    page.emulate_media(reduced_motion="reduce")     # colours read at rest, not mid-animation
    # imperial, seed 1: the person's first hand holds all four suits (12 cards)
    open_game(page, dist_url, "imperial", players=2, seed=1, seat=0, bots="1", delay=0)
    wait_for_turn(page)
    ratios: dict = {}
    assert check_faces(page, "#hand", NORMAL, ratios, "normal") == set(SUITS)

    hash_before = page.evaluate("() => location.hash")
    set_look(page, "four", True)
    assert page.evaluate("() => location.hash") == hash_before        # only the look
    assert page.evaluate("() => localStorage.getItem('atut.look.four')") == "on"
    assert check_faces(page, "#hand", FOUR, ratios, "four") == set(SUITS)
    set_look(page, "large", True)
    assert check_faces(page, "#hand", FOUR, ratios, "four+large") == set(SUITS)

    # cards played: the log's chips, all four suits
    play_until_log_has_all_suits(page)
    play_until_finished_trick_shown(page)
    assert check_chips(page, ".loglist", FOUR, ratios, "four+large") == set(SUITS)
    set_look(page, "large", False)
    assert check_chips(page, ".loglist", FOUR, ratios, "four") == set(SUITS)
    check_chips(page, ".side", FOUR, ratios, "four")                   # last trick too
    felt_suits = check_faces(page, "#felt", FOUR, ratios, "four")     # the trick, the trump
    set_look(page, "four", False)
    assert check_chips(page, ".loglist", NORMAL, ratios, "normal") == set(SUITS)
    check_faces(page, "#felt", NORMAL, ratios, "normal")
    set_look(page, "large", True)
    assert check_chips(page, ".loglist", NORMAL, ratios, "normal+large") == set(SUITS)
    check_faces(page, "#hand", NORMAL, ratios, "normal+large")

    # kept over a reload (the browser keeps it, the hash does not carry it)
    set_look(page, "four", True)
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.wait_for_function("() => window.atutPage && window.atutPage.view !== null")
    assert "look-four" in page.locator("body").get_attribute("class").split()
    assert "four" not in page.evaluate("() => location.hash")
    check_faces(page, "#hand", FOUR, ratios, "four after reload")
    page.locator("[data-testid=open-settings]").click()
    assert page.locator("input[data-look=four]").is_checked()
    assert "Four-colour deck" in page.locator("[data-testid=settings]").text_content()
    page.locator("input[name=settings-lang][value=pl]").check()
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    assert "Talia czterokolorowa" in page.locator("[data-testid=settings]").text_content()
    assert felt_suits, "no card on the felt"
    assert any(w.endswith("faded") for _, w, _ in ratios), "no finished trick's card on the felt"
    for (tag, where, suit), r in sorted(ratios.items()):
        print(f"contrast {tag:18} {where:12} {suit}: {r:.2f}")


def test_projector_mode_fills_1920x1080(page, dist_url):
    page.set_viewport_size({"width": 1920, "height": 1080})
    open_game(page, dist_url, "imperial", players=2, seed=1, seat=0, bots="1", delay=0)
    wait_for_turn(page)
    set_look(page, "projector", True)
    assert page.locator(".side").is_hidden()
    felt = page.locator("#felt").bounding_box()
    share = felt["width"] * felt["height"] / (1920 * 1080)
    card = page.locator("#hand .card").first.bounding_box()
    print(f"projector 1920x1080: felt {felt['width']:.0f}x{felt['height']:.0f} "
          f"({share:.0%} of the screen), hand card {card['width']:.0f}x{card['height']:.0f}")
    assert felt["width"] >= 0.9 * 1920, felt
    assert share >= 0.6, felt
    assert card["height"] >= 150, card
    # the hand's cards are on the screen, not below the fold
    assert card["y"] + card["height"] <= 1080, card
