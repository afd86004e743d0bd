"""Hostile URL hashes (hostile input): the valid shareable link of every game cut at every position,
and seeded junk (unknown keys, bad numbers, huge seeds, negative seats, unknown games, bad
levels and options, percent-encoding junk, unicode, huge values, duplicated keys), each given to
one page by changing location.hash (hashchange), plus a sample of fresh loads.

Each hash is judged by an oracle of its own here (`expect`: the page's documented link keys,
docs in web/lib/hash.js): a hash naming no game changes nothing; a valid one starts its game
(the menu closed, the table showing that game, players and seat, no error); any other shows the
error bar with the link notice in the page's language (Polish or English, never an i18n key,
never an English sentence on a Polish page) over the open menu.  Never a blank page, and the
`page` fixture fails the test on any console error or uncaught page error.
"""

from __future__ import annotations

import json
import random
import re
from urllib.parse import parse_qsl, quote

import pytest

from atut.bots.catalogue import NAMES as CATALOGUE_NAMES
from atut.bots.catalogue import NUMBERS as CATALOGUE_NUMBERS
from harness import ENABLED_ACTION

GAMES = {"sixty_six": [2, 3, 4], "euchre": [4], "imperial": [2, 3], "tysiac1001": [3, 4],
         "cesarz": [2, 3, 4, 5]}
OPTIONS = {"euchre": {"redeal": [False, True], "defend_alone": [True, False]},
           "tysiac1001": {"handout": ["przykup", "any"]}}
# the bot levels as the engine's level table names them (atut.bots.catalogue)
LEVEL_NAMES = dict(CATALOGUE_NAMES)
LEVEL_NUMBERS = tuple(str(n) for n in CATALOGUE_NUMBERS)
MAX_SEED = 2**53 - 1
MAX_DELAY = 60000
PREFIX = {"en": "This link could not start a game: ", "pl": "Ten link nie mógł uruchomić gry: "}
ENGLISH = re.compile(r"\b(must|not|unknown|whole|number|has no|one of|from|to)\b")

# Counts the page's requests to the worker in flight (a spy on Worker, installed before the
# page's scripts): a hash has settled when its hashchange was handled and no request has been
# in flight for a while.
SPY = """(() => {
  window.__inflight = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m) {
    if (m && m.id !== undefined) window.__inflight++;
    return post.call(this, m);
  };
  const d = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
  Object.defineProperty(Worker.prototype, 'onmessage', {
    configurable: true,
    get() { return d.get.call(this); },
    set(fn) {
      d.set.call(this, (e) => {
        if (e.data && e.data.id !== undefined) window.__inflight--;
        return fn(e);
      });
    },
  });
})();"""

# Set one hash (through a neutral one when the page already shows it), wait for its
# hashchange and for the worker to be idle, then report what the page shows.
TRY = """async ([h, quiet]) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const close = document.querySelector('#error .close');
  if (!document.getElementById('error').hidden) close.click();
  const go = (x) => new Promise((res) => {
    window.addEventListener('hashchange', () => res(true), {once: true});
    location.hash = x;
  });
  const u = new URL(location.href);
  u.hash = h;
  if (u.hash === location.hash || u.hash === '') await go('#_=' + Math.random());
  if (u.hash !== '') await go(h); else { location.hash = ''; await sleep(20); }
  let idle = 0;
  for (let i = 0; i < 2000 && idle < quiet; i++) {
    await sleep(10);
    idle = window.__inflight === 0 ? idle + 10 : 0;
  }
  const err = document.getElementById('error');
  const menu = document.getElementById('menu');
  const v = window.atutPage.view;
  return {
    error: err.hidden ? null : err.querySelector('.text').textContent,
    menu: !menu.hidden,
    view: v ? {game: v.game, players: v.players, is_over: v.is_over} : null,
    seat: window.atutPage.seat,
    lang: document.documentElement.lang,
    hash: location.hash,
    blank: menu.hidden && !(v && document.getElementById('table').innerText.trim()),
  };
}"""


def parse(h: str) -> tuple[dict, dict]:
    """What parseHash() reads: the first value of each key, and the opt_ keys (the last wins),
    their values JSON where they parse as JSON."""
    plain, options = {}, {}
    for k, v in parse_qsl(h.lstrip("#"), keep_blank_values=True, errors="replace"):
        if k.startswith("opt_"):
            try:
                options[k[4:]] = json.loads(v, parse_constant=_no_constant)
            except ValueError:
                options[k[4:]] = v
        elif k not in plain and k != "options":
            plain[k] = v
    return plain, options


def _no_constant(name):
    raise ValueError(name)


def _whole(s: str):
    if not re.fullmatch(r"-?[0-9]+", s):
        return None
    n = int(s)
    return n if abs(n) <= MAX_SEED else None


def expect(h: str):
    """("ignore", None) for a hash without a game, ("error", None) for a malformed link, or
    ("game", (game, players, seat)) for a valid one."""
    p, options = parse(h)
    if "game" not in p:
        return "ignore", None
    game = p["game"]
    if game not in GAMES:
        return "error", None
    players = GAMES[game][0]
    if "players" in p:
        players = _whole(p["players"])
        if players not in GAMES[game]:
            return "error", None
    seat = 0
    if "seat" in p:
        seat = _whole(p["seat"])
        if seat is None or not 0 <= seat < players:
            return "error", None
    if "delay" in p:
        d = _whole(p["delay"])
        if d is None or not 0 <= d <= MAX_DELAY:
            return "error", None
    if "seed" in p and _whole(p["seed"]) is None:
        return "error", None
    if "bots" in p:
        levels = p["bots"].split(",")
        if any(x.lower() not in LEVEL_NAMES and x not in LEVEL_NUMBERS for x in levels):
            return "error", None
        if len(levels) not in (1, players - 1):
            return "error", None
    known = OPTIONS.get(game, {})
    for k, v in options.items():
        if k not in known or all(json.dumps(v) != json.dumps(x) for x in known[k]):
            return "error", None
    return "game", (game, players, seat)


def judge(h: str, got: dict, lang: str) -> list[str]:
    """The problems of one hash's outcome (empty: as expected)."""
    kind, want = expect(h)
    bad = []
    if got["blank"]:
        bad.append("a blank page: no menu and no table")
    if kind == "ignore":
        if got["error"] is not None:
            bad.append(f"a hash without a game showed an error: {got['error']!r}")
    elif kind == "error":
        text = got["error"]
        if text is None:
            bad.append(f"no notice for a malformed link (the page shows {got['view']})")
        else:
            if not text.startswith(PREFIX[lang]) or len(text) <= len(PREFIX[lang]):
                bad.append(f"the notice is not the {lang} link notice: {text!r}")
            if re.search(r"\bui\.\w", text):
                bad.append(f"an i18n key in the notice: {text!r}")
            if lang == "pl" and ENGLISH.search(re.sub(r"[„“][^”]*”", "", text)):
                bad.append(f"English in the Polish notice: {text!r}")
        if not got["menu"]:
            bad.append("the menu is not open after a malformed link")
    else:
        game, players, seat = want
        if got["error"] is not None:
            bad.append(f"a valid link showed an error: {got['error']!r}")
        v = got["view"]
        if got["menu"] or v is None or (v["game"], v["players"], got["seat"]) != want:
            bad.append(f"a valid link did not start {game} with {players} players in seat "
                       f"{seat}: menu {got['menu']}, view {v}, seat {got['seat']}")
    if got["lang"] != lang:
        bad.append(f"the page is in {got['lang']!r}, not {lang!r}")
    return bad


def next_lang(h: str, lang: str) -> str:
    p, _ = parse(h)
    return p["lang"] if p.get("lang") in ("pl", "en") else lang


def base_hash(game: str, players: int, seed: int, lang: str = "en", **options) -> str:
    opts = "".join(f"&opt_{k}={v if isinstance(v, str) else json.dumps(v)}"
                   for k, v in options.items())
    return (f"#game={game}&players={players}&seed={seed}&seat={players - 1}&bots=random"
            f"&delay=0&lang={lang}{opts}")


JUNK_VALUES = ["", "-1", "1.5", "1e3", "0x10", " 1", "+1", "01", "١", "NaN", "Infinity", "null",
               "true", "[]", "{}", "%", "%zz", "%E0%A4%A", "%00", "%FF", "%C4%85", "ąę", "😀",
               "\u202e", "9" * 20, "-" + "9" * 17, str(MAX_SEED), str(MAX_SEED + 1), "2," * 5,
               "1,,2", "0", "6", "strongest", "RANDOM", "Search", "3,3,3,3,3", "4,1", "x" * 5000,
               "<script>", "'\"", "__proto__", "constructor", "toString", "#", "&", "=="]
JUNK_KEYS = ["game", "players", "seed", "seat", "bots", "delay", "lang", "open", "debug",
             "opt_redeal", "opt_defend_alone", "opt_handout", "opt_zz", "opt___proto__",
             "opt_", "__proto__", "constructor", "options", "gam", "GAME", "ąę", "%", "x" * 300]


def junk_hashes(rng: random.Random, n: int) -> list[str]:
    out = ["#", "#&&&", "#=", "#game", "#game=", "#%", "#%%%", "#?game=euchre", "#game=euchre&&",
           "#game=__proto__", "#game=constructor", "#game=toString", "#game=sixty_six%00",
           "#game=Sixty_Six", "#game=euchre&players=4&seed=" + "9" * 400,
           "#game=euchre&players=4&seed=-9007199254740991", "#game=cesarz&players=5&seat=-1",
           "#game=cesarz&players=5&seat=5", "#game=imperial&players=3&bots=1,2",
           "#game=imperial&players=3&bots=1,2,3", "#game=tysiac1001&opt_handout=%22any%22",
           "#game=tysiac1001&opt_handout=any&opt_handout=bad", "#game=euchre&opt_redeal=1",
           "#game=euchre&opt_redeal=true&opt_defend_alone=false&players=4",
           "#game=euchre&opt___proto__=%7B%22a%22%3A1%7D", "#game=euchre&delay=60001",
           "#game=euchre&delay=60000&players=4", "#game=sixty_six&game=euchre&players=4",
           "#lang=pl&zz=1", "#game=euchre&options=x&opt_redeal=true", "#lang=xx&game=xx", "#" + "ą" * 2000, "#game=" + "😀" * 50]
    games = list(GAMES)
    while len(out) < n:
        g = rng.choice(games)
        n_players = rng.choice(GAMES[g])
        pairs = [("game", g), ("players", str(n_players)), ("seed", str(rng.randrange(1000))),
                 ("bots", "random"), ("delay", "0")]
        for _ in range(rng.randint(1, 3)):
            k, v = rng.choice(JUNK_KEYS), rng.choice(JUNK_VALUES)
            how = rng.random()
            if how < 0.5:
                pairs = [(a, b) for a, b in pairs if a != k] + [(k, v)]
            elif how < 0.7:
                pairs.append((k, v))
            elif how < 0.85:
                pairs = [(a, b) for a, b in pairs if a != k]
            else:
                rng.shuffle(pairs)
        if rng.random() < 0.3:
            pairs.append(("lang", rng.choice(["pl", "en", "xx", ""])))
        enc = rng.random() < 0.5
        text = "&".join(f"{quote(a, safe='%') if enc else a}={quote(b, safe='%,') if enc else b}"
                        for a, b in pairs)
        out.append("#" + text)
    return out


def open_menu_page(page, dist_url, lang="en"):
    page.add_init_script(SPY)
    page.goto(f"{dist_url}#lang={lang}&debug=1")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.wait_for_selector("[data-testid=menu]:not([hidden])")


def try_hash(page, h: str, quiet: int = 30) -> dict:
    return page.evaluate(TRY, [h, quiet])


def shareable_links(page) -> list[str]:
    """The link the page writes for a game of each kind (every game, an option not default)."""
    links = []
    for g, counts in GAMES.items():
        opts = {k: v[-1] for k, v in OPTIONS.get(g, {}).items()}
        got = try_hash(page, base_hash(g, counts[-1], 17, **opts), quiet=150)
        assert got["error"] is None and got["view"] and got["view"]["game"] == g, got
        links.append(got["hash"].replace("&debug=1", ""))    # as a person shares it
    return links


def run_hashes(page, hashes: list[str], lang: str) -> tuple[list[str], str]:
    problems = []
    for h in hashes:
        lang = next_lang(h, lang)
        got = try_hash(page, h)
        for b in judge(h, got, lang):
            problems.append(f"{h[:120]!r}: {b}")
    return problems, lang


def play_one_move(page):
    """The page still plays: a valid link, then one of the person's legal actions."""
    got = try_hash(page, "#game=sixty_six&players=2&seed=5&seat=0&bots=random&delay=0&lang=en",
                   quiet=150)
    assert got["error"] is None and not got["menu"], got
    page.wait_for_selector(ENABLED_ACTION)
    before = page.evaluate("() => window.atutPage.view")
    page.locator(ENABLED_ACTION).first.click()
    page.wait_for_function("(b) => JSON.stringify(window.atutPage.view) !== b",
                           arg=json.dumps(before))
    assert page.locator("#error").is_hidden()


def test_truncated_links_of_every_game(page, dist_url):
    """Every game's shareable link cut at every position (the link notice or that game)."""
    open_menu_page(page, dist_url)
    links = shareable_links(page)
    hashes = [link[:i] for link in links for i in range(1, len(link) + 1)]
    problems, _ = run_hashes(page, hashes, "en")
    assert not problems, f"{len(problems)} of {len(hashes)} truncated links:\n" + \
        "\n".join(problems[:30])
    play_one_move(page)
    print(f"{len(hashes)} truncated links of {len(links)} games")


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_junk_hashes(page, dist_url, lang):
    """Seeded junk: unknown keys, bad numbers, huge seeds, negative seats, unknown games, bad
    levels and options, percent-encoding junk, unicode, huge values, duplicated keys."""
    open_menu_page(page, dist_url, lang)
    hashes = junk_hashes(random.Random(19 if lang == "pl" else 20), 80)
    problems, _ = run_hashes(page, hashes, lang)
    assert not problems, f"{len(problems)} of {len(hashes)} junk hashes:\n" + \
        "\n".join(problems[:30])
    play_one_move(page)
    print(f"{len(hashes)} junk hashes ({lang})")


# (a key `options` once replaced the parsed options by its string: a TypeError at start-up, a
# blank page)
FRESH = ["#game=euchre&players=4&seed=3&seat=0&bots=ra", "#game=cesarz&players=6&lang=pl",
         "#options=5&game=tysiac1001&opt_handout=any&lang=en", "#zz=1&lang=pl", "#%E0%A4%A&game=%"]


def test_fresh_loads(page, dist_url):
    """A sample of hostile hashes on a fresh load: the same outcome as by hashchange."""
    page.add_init_script(SPY)
    problems = []
    lang = "en"                            # the context's browser language, then the last chosen
    for h in FRESH:
        page.goto("about:blank")
        page.goto(dist_url + h)
        page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
        got = page.evaluate("""async () => {
          const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
          let idle = 0;
          for (let i = 0; i < 2000 && idle < 150; i++) {
            await sleep(10);
            idle = window.__inflight === 0 ? idle + 10 : 0;
          }
          const err = document.getElementById('error');
          const menu = document.getElementById('menu');
          const v = window.atutPage.view;
          return {error: err.hidden ? null : err.querySelector('.text').textContent,
                  menu: !menu.hidden, seat: window.atutPage.seat,
                  view: v ? {game: v.game, players: v.players, is_over: v.is_over} : null,
                  lang: document.documentElement.lang, hash: location.hash,
                  blank: menu.hidden && !(v && document.getElementById('table').innerText.trim())};
        }""")
        lang = next_lang(h, lang)
        kind, _ = expect(h)
        if kind == "ignore" and not got["menu"]:
            problems.append(f"{h!r}: no menu on a fresh load without a game")
        problems += [f"{h!r}: {b}" for b in judge(h, got, lang)]
    assert not problems, "\n".join(problems)


def test_oracle_sanity():
    """The oracle itself (CPython only): a few hashes of each outcome."""
    assert expect("#zz=1") == ("ignore", None)
    assert expect("#game=euchre&players=4") == ("game", ("euchre", 4, 0))
    assert expect("#game=euchre&players=4&se") == ("game", ("euchre", 4, 0))
    assert expect("#game=euchre&players=") == ("error", None)
    assert expect("#game=euchre&players=3") == ("error", None)
    assert expect("#game=cesarz&players=3&seat=-1") == ("error", None)
    assert expect("#game=cesarz&players=3&seat=2&bots=1,4") == ("game", ("cesarz", 3, 2))
    assert expect("#game=cesarz&players=3&bots=1,4,2") == ("error", None)
    assert expect("#game=tysiac1001&opt_handout=%22any%22") == ("game", ("tysiac1001", 3, 0))
    assert expect("#game=euchre&opt_redeal=1") == ("error", None)
    assert expect("#game=euchre&seed=" + "9" * 17) == ("error", None)
    assert expect("#game=euchre&delay=-1") == ("error", None)
