"""Fair play in the page, every game: two twin deals give the person the same view
while the cards the person cannot see lie in other hands (``tests/test_fair_play.py``'s
``twin``: two hidden cards swapped between other seats' hands, every shown event kept).  Each
twin is loaded into the page through *Load game* (the person's seat, teaching mode off) and,
on the person's turn, a hint is taken, a card that cannot be played is tapped (the engine says
why) and, where there is one, the person's decision before is taken back (undo).  Every message
the worker sends the page is captured by an init script (a ``Worker`` that records its
requests and replies).  Then:

- what the page receives is the same for both twins (the view, the hint with its values,
  beliefs and reason, the refusal, the undo, the store's answers to keeping each step: the
  worker writes the save file itself, so the page never receives it);
- no reply names a card of another seat's hand that the person has not seen (a hint's beliefs
  *name* unseen cards with their share of samples: the same for both twins, so they say
  nothing of where a card lies);
- the DOM has no ``data-card`` for a card the person has not seen, and the same cards for
  both twins.

(66 with two players has no refused card on a twin position: a card is refused only once the
stock is gone, and then every card the person has not seen is in the one other hand.)

The page never asks for the save file during a deal: autosave.js sends the worker the settings
record (``keep``) and the worker stores the save in IndexedDB itself; a save downloaded as a file
is a blob URL made by the worker.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest

from harness import open_game, page_cards, wait_for_turn

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from test_fair_play import _seen_by, positions, twin  # noqa: E402

import atut  # noqa: E402
from atut import cards as C  # noqa: E402

# every game, at the player counts tests/test_fair_play.py uses (they differ in what is hidden)
SETTINGS = [("cesarz", 3), ("cesarz", 5), ("euchre", 4), ("imperial", 2), ("imperial", 3),
            ("tysiac1001", 3), ("tysiac1001", 4), ("sixty_six", 2), ("sixty_six", 4)]

# a Worker that keeps every request the page posts and every message it gets back
CAPTURE = """(() => {
  const Orig = window.Worker;
  window.__atutSent = [];
  window.__atutGot = [];
  const OrigChannel = window.MessageChannel;
  let channels = 0;
  window.MessageChannel = class extends OrigChannel {
    constructor() {
      super();
      const w = "box#" + (++channels);
      this.port1.addEventListener("message", (e) => {
        window.__atutGot.push({ w, m: JSON.parse(JSON.stringify(e.data === undefined ? null : e.data)) });
      });
    }
  };
  window.Worker = class extends Orig {
    constructor(url, opts) {
      super(url, opts);
      this.addEventListener("message", (e) => {
        window.__atutGot.push(JSON.parse(JSON.stringify(e.data === undefined ? null : e.data)));
      });
    }
    postMessage(m, ...rest) {
      window.__atutSent.push(JSON.parse(JSON.stringify(m)));
      return super.postMessage(m, ...rest);
    }
  };
})();"""

SETTLED = """() => {
  const got = new Set(window.__atutGot.filter((m) => m && m.id !== undefined).map((m) => m.id));
  return window.__atutSent.length > 0 && window.__atutSent.every((m) => got.has(m.id));
}"""

CODE = re.compile(r"(?<![A-Za-z0-9_])(?:10|[2-9JQKA])[SCDH](?![A-Za-z0-9_])|"
                  r"EMPEROR|RED_JOKER|BLACK_JOKER|BLUE_JOKER")


def cards_named(x, out=None, skip_beliefs=True) -> set[str]:
    """Every card code in a message: in keys, values and inside text (a reason, a JSON text);
    a hint's ``beliefs`` (shares of unseen cards, compared between the twins) left out."""
    out = set() if out is None else out
    if isinstance(x, str):
        out.update(c for c in CODE.findall(x) if c in C.CARD)
    elif isinstance(x, dict):
        for k, v in x.items():
            if skip_beliefs and k == "beliefs":
                continue
            cards_named(k, out, skip_beliefs)
            cards_named(v, out, skip_beliefs)
    elif isinstance(x, (list, tuple)):
        for v in x:
            cards_named(v, out, skip_beliefs)
    return out


def _pick(game, players):
    """(twin games, seat, a card of the hand that cannot be played or None) at a decision of
    the person with hidden cards to swap, one with such a card where there is one."""
    rng = random.Random(11)
    best = None
    for seed in range(1, 9):
        # late in the deal first: more shown, and an earlier decision to take back
        for deck, dealer, history, seat in reversed(positions(game, players, seed, 6)):
            pair = twin(game, players, seed, dealer, deck, history, seat, rng)
            if pair is None:
                continue
            g = pair[0]
            v = g.view(seat)
            playable = {a.get("card") for a in v["legal_actions"]}
            blocked = [c for c in v.get("hand") or [] if c not in playable]
            if blocked and any(a.get("type") == "play" for a in v["legal_actions"]):
                return pair, seat, blocked[0]
            best = best or (pair, seat, None)
    return best


def _load_and_ask(page, g, seat, blocked):
    """Load one twin through the file input; take a hint; tap the blocked card.  Returns the
    replies in order as (op, message) and the data-card values of the DOM."""
    page.evaluate("() => { window.__atutSent.length = 0; window.__atutGot.length = 0; }")
    data = {**json.loads(g.to_json()), "seat": seat, "bots": [2] * (g.players - 1)}
    page.set_input_files("#fileInput", files=[{"name": "twin.json", "mimeType": "application/json",
                                               "buffer": json.dumps(data).encode()}])
    page.wait_for_function("() => window.__atutSent.some((m) => m.op === 'load')")
    page.wait_for_function(SETTLED, timeout=60_000)
    assert wait_for_turn(page) == "turn"
    # the page's view, its rule ids and score lines included (docs/ENGINE.md)
    assert page.evaluate("() => window.atutPage.view") == g.view(seat, explain=True)
    dom = [page_cards(page)]
    page.locator("[data-testid=hint]").click()
    page.wait_for_selector("[data-testid=hint-panel]", timeout=120_000)
    dom.append(page_cards(page))
    if blocked is not None:
        page.locator(f"[data-testid=hand] [data-card='{blocked}']").click()
        page.wait_for_function(
            "() => window.__atutSent.some((m) => m.op === 'explain')", timeout=30_000)
    page.wait_for_function(SETTLED, timeout=120_000)
    page.wait_for_timeout(200)                 # a reply's rendering
    page.wait_for_function(SETTLED, timeout=120_000)
    dom.append(page_cards(page))
    if page.locator("[data-testid=undo]:not([disabled])").count():
        # back to the person's decision before: the views of that time, and their cards
        page.locator("[data-testid=undo]").click()
        page.wait_for_function("() => window.__atutSent.some((m) => m.op === 'undo')")
        page.wait_for_function(SETTLED, timeout=120_000)
        assert wait_for_turn(page) == "turn"
        page.wait_for_function(SETTLED, timeout=120_000)
        dom.append(page_cards(page))
    sent = {m["id"]: m["op"] for m in page.evaluate("() => window.__atutSent")}
    got = [m for m in page.evaluate("() => window.__atutGot") if m and "id" in m]
    replies = [(sent[m["id"]], {k: v for k, v in m.items() if k != "id"}) for m in got]
    return replies, dom


@pytest.fixture(scope="module")
def twin_page(browser, dist_url):
    """One page for every game (the engine starts once), the worker's messages captured; it
    fails the test that sees a console error or a request to another origin."""
    from conftest import VIEWPORT, PageProblems
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-US")
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    pg.add_init_script(CAPTURE)
    # the rule coach repeats an event of the log once per game, so whether it shows depends on
    # the games loaded before in this page (lib/table/coach.js): off, the twins draw alike
    pg.add_init_script("try { localStorage.setItem('atut.coach', 'off'); } catch (_) {}")
    problems = PageProblems(dist_url)
    pg.on("console", problems.on_console)
    pg.on("pageerror", problems.on_pageerror)
    pg.on("request", problems.on_request)
    open_game(pg, dist_url, "sixty_six", players=2, seed=1, bots="rules", delay=0)
    yield pg, problems
    ctx.close()


@pytest.mark.parametrize("game,players", SETTINGS)
def test_the_page_receives_the_same_for_twin_deals(twin_page, game, players):
    page, problems = twin_page
    picked = _pick(game, players)
    assert picked is not None, f"{game} {players}p: no position with hidden cards to swap"
    (g1, g2), seat, blocked = picked
    assert g1.view(seat, explain=True) == g2.view(seat, explain=True) and g1.hands != g2.hands
    try:
        runs = [_load_and_ask(page, g, seat, blocked) for g in (g1, g2)]
    finally:
        problems.check()
    _compare(g1, g2, seat, blocked, runs)


def _compare(g1, g2, seat, blocked, runs):
    seen = _seen_by(g1, seat)
    assert seen == _seen_by(g2, seat)
    for g, (replies, dom) in zip((g1, g2), runs):
        ops = [op for op, _ in replies]
        assert ops.count("load") == 1 and ops.count("hint") == 1, ops
        assert (blocked is None) or ops.count("explain") == 1, ops
        assert all(m["ok"] for _, m in replies), replies
        assert "save" not in ops and "keep" in ops, ops     # the worker keeps the save itself
        hidden = {C.code(c) for s in range(g.players) if s != seat
                  for c in C.cards_of(g.hands[s])} - seen
        assert hidden                           # the check has something to find
        for op, m in replies:
            leaked = cards_named(m) & hidden
            assert not leaked, f"{op} reply names {sorted(leaked)} of a hidden hand"
        for cards in dom:
            assert set(cards) <= seen, f"data-card of unseen cards {sorted(set(cards) - seen)}"
        if blocked is not None:
            why = next(m["result"] for op, m in replies if op == "explain")
            assert why["legal"] is False and why["reason"]
    # the twins: the same replies, the same cards drawn
    strip = [list(replies) for replies, _ in runs]
    assert json.dumps(strip[0], sort_keys=True) == json.dumps(strip[1], sort_keys=True)
    assert runs[0][1] == runs[1][1]
    hint = next(m["result"] for op, m in strip[0] if op == "hint")
    assert atut.canonical(hint["best"]) in {atut.canonical(a) for a in g1.view(seat)["legal_actions"]}


# --- a student's bot seated at the table (docs/LAB.md) ------------------------------------------
# The bot plays in a box of its own (web/lib/box.js: a worker in a sandboxed iframe); the table's
# worker sends it the view of its seat over a MessageChannel the page does not listen to.  The bot below names its hand in the error it
# raises at its third decision (each seat's own): the notice the page shows names the error's
# type and line only.  Checked on each of the person's turns of the first deal (after it, the
# deal's review shows every hand of it, as it may).

# every worker's messages, each tagged with the worker's file and its number in the order the
# workers were started (ids are counted per worker): worker.js#1 the table's, lab-worker.js#2
# the lab's own (editor, help, arena); box#k what the page hears from the k-th channel it made
# (the bot's box at the table: its load, and ticks and notices while it plays); search#k the
# pool's search workers, if the machine has the cores for them
CAPTURE_EACH = """(() => {
  const Orig = window.Worker;
  window.__atutSent = [];
  window.__atutGot = [];
  let count = 0;
  let searchers = 0;
  const OrigChannel = window.MessageChannel;
  let channels = 0;
  window.MessageChannel = class extends OrigChannel {
    constructor() {
      super();
      const w = "box#" + (++channels);
      this.port1.addEventListener("message", (e) => {
        window.__atutGot.push({ w, m: JSON.parse(JSON.stringify(e.data === undefined ? null : e.data)) });
      });
    }
  };
  window.Worker = class extends Orig {
    constructor(url, opts) {
      super(url, opts);
      // the search workers of the pool (as many as the machine's cores allow) apart
      const w = opts && opts.name === "atut-search" ? "search#" + (++searchers)
        : String(url).split("/").pop().split("?")[0] + "#" + (++count);
      this.addEventListener("message", (e) => {
        window.__atutGot.push({ w, m: JSON.parse(JSON.stringify(e.data === undefined ? null : e.data)) });
      });
      this.__w = w;
    }
    postMessage(m, ...rest) {
      window.__atutSent.push({ w: this.__w, m: JSON.parse(JSON.stringify(m)) });
      return super.postMessage(m, ...rest);
    }
  };
})();"""

SETTLED_EACH = """() => {
  const got = new Set(window.__atutGot.filter((x) => x.m && x.m.id !== undefined).map((x) => x.w + ':' + x.m.id));
  return window.__atutSent.length > 0 && window.__atutSent.every((x) => got.has(x.w + ':' + x.m.id));
}"""

LEAKY = ("n = 0\n\n\ndef choose(view):\n    global n\n    n += 1\n"
         "    if n == 3:\n        raise ValueError('my hand: ' + ' '.join(view['hand']))\n"
         "    return view['legal_actions'][0]\n")


def test_the_page_never_receives_the_view_of_a_student_bots_seat(browser, dist_url):
    from conftest import VIEWPORT, PageProblems
    from test_lab_page import READY
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.add_init_script(CAPTURE_EACH)
    problems = PageProblems(dist_url)
    page.on("console", problems.on_console)
    page.on("pageerror", problems.on_pageerror)
    page.on("request", problems.on_request)
    try:
        page.goto(f"{dist_url}#lab=euchre&lang=en&debug=1")
        page.wait_for_selector(READY, timeout=240_000)
        page.wait_for_selector("body[data-engine=ready]", timeout=240_000)
        page.wait_for_function("() => window.atutLab && window.atutLab.text", timeout=60_000)
        page.evaluate("(s) => window.atutLab.setText(s)", LEAKY)
        page.fill("[data-testid=lab-name]", "leaky.py")
        page.fill("[data-testid=lab-seed]", "5")
        page.select_option("[data-testid=lab-against-seats]", "all")
        page.click("[data-testid=lab-play-against]")
        page.wait_for_function("() => window.atutLabTable && window.atutLabTable.bot",
                               timeout=240_000)
        assert page.evaluate("() => window.atutLabTable.bot.seats") == {
            "1": "leaky.py", "2": "leaky.py", "3": "leaky.py"}
        checked = 0
        for _ in range(12):
            if wait_for_turn(page, timeout=120_000) == "over":
                break
            page.wait_for_function(SETTLED_EACH, timeout=120_000)
            g = atut.load_game(page.evaluate("() => window.atutPage.request('save')"))
            page.wait_for_function(SETTLED_EACH, timeout=120_000)
            if g.deal_no > 1:
                break
            if g.to_move != 0:
                continue
            seen = _seen_by(g, 0)
            hidden = {C.code(c) for s in range(1, 4) for c in C.cards_of(g.hands[s])} - seen
            sent = {(x["w"], x["m"]["id"]): x["m"].get("op")
                    for x in page.evaluate("() => window.__atutSent") if "id" in x["m"]}
            got = [x for x in page.evaluate("() => window.__atutGot") if isinstance(x["m"], dict)]
            assert {x["w"] for x in got if not x["w"].startswith("search#")} == {
                "worker.js#1", "lab-worker.js#2", "box#1"}
            for x in got:
                w, m = x["w"], x["m"]
                op = sent.get((w, m.get("id")), m.get("type"))
                if w == "worker.js#1" and op == "save":    # the test's own request (debug=1)
                    continue
                if w == "lab-worker.js#2" and op == "info":
                    continue                     # the help panel's example view: another game
                leaked = cards_named(m) & hidden
                assert not leaked, f"{w} {op} names {sorted(leaked)}"
                if w.startswith(("box#", "search#")):
                    # no card at all from the bot's box or a search worker (they answer the
                    # table's worker over their ports, never the page)
                    assert not cards_named(m), f"{w} {op} names {sorted(cards_named(m))}"
                view = (m.get("result") or {}).get("view") if isinstance(m.get("result"), dict) else None
                assert view is None or view.get("seat") == 0, "a view of another seat"
            assert set(page_cards(page)) <= seen
            checked += bool(hidden)
            page.locator("[data-action]:not([disabled])").first.click()
        assert checked >= 3                      # hidden cards were there to leak
        # the bot raised with its hand in the message: the notice names the type and the line
        page.wait_for_selector("[data-testid=notice-labbot]", timeout=120_000)
        text = page.locator("[data-testid=notice-labbot]").inner_text()
        assert "ValueError" in text and "line 8" in text and "my hand" not in text
        assert not cards_named(text)
        ops = [x["m"].get("op") for x in page.evaluate("() => window.__atutSent")]
        assert "table_choose" not in ops and "outside_turn" not in ops   # worker to worker only
    finally:
        ctx.close()
    problems.check()


# --- learn to play (docs/PAGE.md "Learn to play"): the guide's steps ------------------------------
# A lesson followed by its suggested moves in the same page: every learn_step reply (and the
# learn_start reply's first step) names only cards of the person's view as it was when the reply
# came (the latest view the worker sent before it; within a deal what the person has seen only
# grows), and the guide's panel draws no data-card the person has not seen.

@pytest.mark.parametrize("game", ["cesarz", "euchre", "imperial", "sixty_six", "tysiac1001"])
def test_the_guide_names_no_hidden_card(twin_page, game):
    from harness import visible_cards
    page, problems = twin_page
    page.evaluate("() => { window.__atutSent.length = 0; window.__atutGot.length = 0; }")
    page.evaluate("(g) => { location.hash = `learn=${g}&lesson=0&delay=0&lang=en&debug=1`; }", game)
    guide = "[data-testid=learn]:not([hidden])"
    try:
        for _ in range(120):
            page.wait_for_selector("[data-testid=learn-play]:not([disabled]), [data-testid=learn-end]")
            if page.locator("[data-testid=learn-end]").count():
                break
            view = page.evaluate("() => window.atutPage.view")
            drawn = set(page.eval_on_selector_all(f"{guide} [data-card]", "els => els.map((e) => e.dataset.card)"))
            assert drawn <= visible_cards(view), f"the guide draws unseen {drawn - visible_cards(view)}"
            n = len(view["log"])
            page.locator("[data-testid=learn-play]:not([disabled])").click()
            page.wait_for_function("(n) => { const v = window.atutPage.view; return v.deal_no !== 1 || v.log.length > n; }", arg=n)
        else:
            raise AssertionError("the lesson did not end")
        page.wait_for_function(SETTLED, timeout=60_000)
    finally:
        problems.check()
    sent = {m["id"]: m["op"] for m in page.evaluate("() => window.__atutSent")}
    got = [m for m in page.evaluate("() => window.__atutGot") if m and "id" in m]
    seen, steps = None, 0
    for m in got:
        op = sent.get(m["id"])
        assert m["ok"], m
        res = m.get("result") or {}
        if op in ("learn_start", "act", "bot_step") and isinstance(res, dict) and res.get("view"):
            seen = visible_cards(res["view"])
        step = res.get("learn") if op == "learn_start" else res if op == "learn_step" else None
        if step is None or step.get("done"):
            continue                # the deal is over: its walk-through may name every card
        steps += 1
        leaked = cards_named(step) - seen
        assert not leaked, f"{op} names {sorted(leaked)}, not in the person's view"
    assert steps > 5
