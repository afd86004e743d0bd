"""Play a game through the page, like a person — reusable by every game's browser test.

    from harness import open_game, play_whole_game, page_cards, page_actions, saved_game

    def test_my_game_page(page, dist_url):
        clicks = play_whole_game(page, dist_url, "euchre", players=4, seed=3, seat=0)
        assert clicks > 0
        assert page.locator("[data-testid=game-over]").is_visible()

The fixtures `page` (fails on console errors and requests to other origins) and `dist_url`
(dist/ served on localhost) come from conftest.py.

- ``open_game(page, url, game, players, seed, seat=0, bots="random", delay=0, lang="en")``
  opens ``#game=…&bots=…&delay=0&debug=1`` and waits for ``body[data-engine=ready]`` and the
  first view.  ``debug=1`` only enables the test-only worker ops (``saved_game``,
  ``worker_random_play``).
- ``wait_for_turn(page)`` returns ``"over"`` when ``[data-testid=game-over]`` is shown, or
  ``"turn"`` when an enabled ``[data-action]`` control exists.
- ``play_whole_game(page, url, game, players, seed, seat=0, choose=None, rng_seed=None,
  on_turn=None, max_clicks=3000)`` opens the game, then loops: wait for the game's end or the
  person's turn, call ``on_turn(page)`` if given, pick one enabled ``[data-action]`` control with
  ``choose(actions, rng)`` (default: a seeded ``rng.choice``; ``actions`` is the list of parsed
  ``data-action`` dicts) and click it; returns the number of clicks.
- ``page_cards(page)`` every ``data-card`` in the DOM; ``page_actions(page)`` the canonical
  JSON strings of the enabled ``[data-action]`` controls.
- ``saved_game(page)`` the table's ``to_json()`` text (load it in CPython with
  ``atut.load_game`` to compare the page with the engine).
- ``visible_cards(view)`` every card code that appears anywhere in a view.
- ``stored(page)`` the app's IndexedDB as it is: ``{"saves": [save texts], "metas": [...],
  "bad": count of refused records}``; ``person_actions(save_text, seat)`` the actions of
  ``seat`` in a save, replayed in CPython.
"""

from __future__ import annotations

import json
import random
import time

ENABLED_ACTION = "[data-action]:not([disabled])"
GAME_OVER = "[data-testid=game-over]"


def game_url(url: str, game: str, players: int | None = None, seed: int | None = None,
             seat: int = 0, bots="random", delay: int = 0, lang: str = "en",
             debug: bool = True, **extra) -> str:
    parts = [f"game={game}"]
    if players is not None:
        parts.append(f"players={players}")
    if seed is not None:
        parts.append(f"seed={seed}")
    parts += [f"seat={seat}", f"bots={bots}", f"delay={delay}", f"lang={lang}"]
    parts += [f"{k}={v}" for k, v in extra.items()]
    if debug:
        parts.append("debug=1")
    return url + "#" + "&".join(parts)


def open_game(page, url: str, game: str, players: int | None = None, seed: int | None = None,
              seat: int = 0, bots="random", delay: int = 0, lang: str = "en", **extra) -> None:
    if page.url.startswith(url):          # a new hash alone would not reload the page
        page.goto("about:blank")
    page.goto(game_url(url, game, players, seed, seat, bots, delay, lang, **extra))
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.wait_for_function("() => window.atutPage && window.atutPage.view !== null")


def wait_for_turn(page, timeout: float = 60_000) -> str:
    page.wait_for_selector(f"{GAME_OVER}, {ENABLED_ACTION}", timeout=timeout)
    if page.locator(GAME_OVER).count():
        return "over"
    return "turn"


def page_actions(page) -> list[str]:
    return page.eval_on_selector_all(ENABLED_ACTION, "els => els.map(e => e.dataset.action)")


def page_cards(page) -> list[str]:
    return page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")


def _default_choose(actions: list[dict], rng: random.Random) -> int:
    return rng.randrange(len(actions))


def play_whole_game(page, url: str, game: str, players: int | None = None, seed: int = 0,
                    seat: int = 0, choose=None, rng_seed: int | None = None, on_turn=None,
                    max_clicks: int = 3000, open_page: bool = True, **extra) -> int:
    """Play until ``[data-testid=game-over]``; returns the number of clicks."""
    if open_page:
        open_game(page, url, game, players, seed, seat, **extra)
    rng = random.Random(seed if rng_seed is None else rng_seed)
    choose = choose or _default_choose
    clicks = 0
    while True:
        if wait_for_turn(page) == "over":
            return clicks
        if on_turn is not None:
            on_turn(page)
        controls = page.locator(ENABLED_ACTION)
        texts = page_actions(page)
        assert texts, "the person's turn, but no enabled [data-action] control"
        actions = [json.loads(t) for t in texts]
        i = choose(actions, rng)
        controls.nth(i).click()
        clicks += 1
        assert clicks <= max_clicks, f"no game over after {max_clicks} clicks"


def wait_until(page, js: str, arg=None, timeout: float = 120_000, every: float = 200):
    """Evaluate ``js`` (which may return a promise: Playwright's ``wait_for_function`` takes a
    promise for a truthy value and does not wait for it) every ``every`` ms until its value is
    truthy; returns that value, or raises ``TimeoutError`` after ``timeout`` ms."""
    end = time.monotonic() + timeout / 1000
    while True:
        got = page.evaluate(js, arg)
        if got:
            return got
        if time.monotonic() > end:
            raise TimeoutError(f"{js} stayed false for {timeout / 1000:.0f} s (last: {got!r})")
        page.wait_for_timeout(every)


def play_first_deal(page, rng: random.Random, turns: int | None = None,
                    timeout: float = 180_000) -> bool:
    """The person (seat 0) clicks one of the enabled controls at random (``rng``) on each of
    the first deal's turns, at most ``turns`` times; True when the first deal (or the game) is
    over, False when the turns ran out first."""
    n = 0
    while turns is None or n < turns:
        page.wait_for_selector(f"{GAME_OVER}, {ENABLED_ACTION}", timeout=timeout)
        v = page.evaluate("() => atutPage.view")
        if v["is_over"] or v["deal_no"] != 1:
            return True
        if v["to_move"] != 0:
            page.wait_for_timeout(20)
            continue
        before = json.dumps(v)
        controls = page.locator(ENABLED_ACTION)
        controls.nth(rng.randrange(controls.count())).click()
        n += 1
        page.wait_for_function("(b) => JSON.stringify(window.atutPage.view) !== b", arg=before,
                               timeout=timeout)
    return page.evaluate("() => atutPage.view.is_over || atutPage.view.deal_no !== 1")


def saved_game(page) -> str:
    """The table's save file (needs the page opened with debug=1, as open_game does)."""
    return page.evaluate("() => window.atutPage.request('save')")


def worker_random_play(page, game: str, players: int, seed: int, action_seed: int) -> dict:
    """A throwaway game played inside the page's worker (Pyodide) with
    ``random.Random(action_seed).choice`` over ``legal_actions()``; returns its events."""
    return page.evaluate("(a) => window.atutPage.request('debug_random_play', a)",
                         {"game": game, "players": players, "seed": seed,
                          "action_seed": action_seed})


def visible_cards(view) -> set[str]:
    """Every card code appearing anywhere in a view (keys and values, recursively)."""
    import atut.cards as C
    out: set[str] = set()

    def walk(x):
        if isinstance(x, str):
            if x in C.CARD:
                out.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
    walk(view)
    return out


# seats are named by their place at the table seen from the person (web/lib/seat-names.js)
PLACE_NAMES = {
    "en": {2: ["You", "Opponent"], 3: ["You", "Left", "Right"],
           4: ["You", "Left", "Across", "Right"], 5: ["You", "Left", "Far left", "Far right", "Right"]},
    "pl": {2: ["Ty", "Przeciwnik"], 3: ["Ty", "Gracz z lewej", "Gracz z prawej"],
           4: ["Ty", "Gracz z lewej", "Gracz naprzeciw", "Gracz z prawej"],
           5: ["Ty", "Gracz z lewej", "Drugi z lewej", "Drugi z prawej", "Gracz z prawej"]},
}
PARTNER = {"en": "Partner", "pl": "Partner"}


def seat_name(seat: int, me: int, players: int, lang: str = "en", partners: bool = False) -> str:
    """The page's name of `seat` for the person at `me` ("Left", "Across", …); with
    `partners` (euchre) the seat across is "Partner"."""
    rel = (seat - me) % players
    if partners and players == 4 and rel == 2:
        return PARTNER[lang]
    return PLACE_NAMES[lang][players][rel]


STORED = """async () => {
  const db = await new Promise((res, rej) => { const r = indexedDB.open('atut', 1); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const get = (name) => new Promise((res) => { const r = db.transaction(name).objectStore(name).getAll(); r.onsuccess = () => res(r.result); });
  const out = { saves: (await get('saves')).map((s) => s.text), metas: await get('meta'), bad: (await get('bad')).length };
  db.close();
  return out;
}"""  # noqa: E501


def stored(page) -> dict:
    """The app's IndexedDB, read straight from the page: kept saves, metas, refused records."""
    return page.evaluate(STORED)


def person_actions(save_text: str, seat: int) -> list[dict]:
    """The actions of ``seat`` in a kept save, replayed in CPython."""
    import atut
    d = json.loads(save_text)
    g = atut.new_game(d["game"], players=d["players"], seed=d["seed"], dealer=d["dealer"],
                      options=d["options"] or None)
    mine = []
    for a in d["actions"]:
        if g.to_move == seat:
            mine.append(a)
        g.apply(a)
    return mine
