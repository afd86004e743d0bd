"""The browser's bot boxes (docs/LAB.md, "Boxes"; web/lib/box.js, web/box/) in Chromium with real
Pyodide: each bot file runs in a worker inside a sandboxed iframe (an opaque origin) whose
policy forbids every request, with a Pyodide of its own made from bytes the page handed in.

Hostile files (tests/fixtures/hostile/) are judged from the outside: the test server's own
request log shows no request from a box, the app's IndexedDB is unchanged, and the page
receives no message from a box; a bot that looks for the game (gc, frames, sys.modules,
builtins) finds none and plays; a looping bot times out and only its box ends.  The lab's arena
plays the same hostile files in their boxes (the lab's worker runs none of them)."""

from __future__ import annotations

import functools
import json
import threading
from pathlib import Path

import pytest

import atut
import build
from tools.build import serve

HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"
FIRST = "def choose(view):\n    return view['legal_actions'][0]\n"

OPEN = """async ([source, name, limit]) => {
  const { BotBox } = await import('./web/lib/box.js');
  window.__boxes = window.__boxes || [];
  const box = await BotBox.open({ source, name, timeLimit: limit });
  window.__boxes.push(box);
  const fresh = box.loadError ? null : await box.request({ op: 'fresh' });
  return { i: window.__boxes.length - 1, dead: box.dead, loadError: box.loadError, fresh };
}"""
CHOOSE = """async ([i, view]) => {
  const box = window.__boxes[i];
  const r = await box.choose(view);
  return { ok: r.ok, error: r.error, dead: box.dead,
           frames: document.querySelectorAll('iframe[data-testid=bot-box]').length };
}"""
# every message the page's window receives from another window (a box's frame), but the frame's
# own {box: "here"} when its page loaded (its script, by hash: no bot's code)
LISTEN = """() => { window.__fromFrames = [];
  window.addEventListener('message', (e) => {
    const m = JSON.stringify(e.data);
    if (e.source !== window && m !== '{"box":"here"}') window.__fromFrames.push(m); }); }"""
# the app's IndexedDB: every database, store and record (as JSON)
IDB_DUMP = """async () => {
  const out = {};
  for (const d of await indexedDB.databases()) {
    const db = await new Promise((res, rej) => { const r = indexedDB.open(d.name);
      r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
    const stores = {};
    for (const s of db.objectStoreNames) {
      stores[s] = await new Promise((res) => { const r = db.transaction(s).objectStore(s).getAll();
        r.onsuccess = () => res(JSON.stringify(r.result)); });
    }
    db.close();
    out[d.name + '@' + d.version] = stores;
  }
  return out;
}"""


class _LoggingHandler(serve.Handler):
    def log_message(self, format, *args):
        # a request from a box (an opaque origin) is cross-site with Origin null; the page's
        # own are same-origin
        self.server.requests.append((self.path, self.headers.get("Sec-Fetch-Site"),
                                     self.headers.get("Origin")))


def from_boxes(requests):
    """The requests that did not come from the page itself (none may come from a box)."""
    return [r for r in requests if r[1] not in ("same-origin", "none") or r[2] == "null"
            or "box-probe" in r[0]]


@pytest.fixture(scope="module")
def logged_url(dist_url):
    """dist/ (built by the session's dist_url) served again, with a log of every request path."""
    srv = serve.Server(("127.0.0.1", 0),
                       functools.partial(_LoggingHandler, directory=str(build.DIST)))
    srv.requests = []
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv, f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def app(page, logged_url, page_problems):
    srv, url = logged_url
    page_problems.base = url
    page.goto(url + "index.html#game=sixty_six&players=2&seed=5&lang=en")
    page.wait_for_selector("body[data-engine=ready]", timeout=240_000)
    page.evaluate(LISTEN)
    return page, srv, url


def a_view(seed=5):
    g = atut.new_game("sixty_six", players=2, seed=seed)
    return g.view(g.to_move)


def open_box(page, source, name="bot.py", limit=20):
    return page.evaluate(OPEN, [source, name, limit])


def test_box_plays_a_legal_action_and_fetches_nothing(app):
    page, srv, _ = app
    b = open_box(page, FIRST)
    assert b["dead"] is None and b["loadError"] is None and b["fresh"] == {"ok": True}
    view = a_view()
    r = page.evaluate(CHOOSE, [b["i"], view])
    assert r["ok"] == view["legal_actions"][0]
    assert any(r[0].endswith("/web/box/box.html") for r in srv.requests)   # the log is kept
    assert from_boxes(srv.requests) == []


def test_snooping_bot_finds_no_game_in_its_box(app):
    """snoop.py walks gc, the stack's frames, sys.modules and builtins for the live game; in
    the engine's Python it finds it (tests/test_tournament.py), in a box it finds nothing."""
    page, _, _ = app
    b = open_box(page, (HOSTILE / "snoop.py").read_text(), "snoop.py")
    view = a_view()
    r = page.evaluate(CHOOSE, [b["i"], view])
    assert r["error"] is None and r["ok"] == view["legal_actions"][0]


def test_bot_reaching_for_network_storage_and_page_gets_nothing_through(app, page_problems):
    page, srv, url = app
    page_problems.allowed_errors.append("box-probe")          # the policy's own refusals
    page_problems.allowed_errors.append("Content Security Policy")
    before = page.evaluate(IDB_DUMP)
    assert before, "the app keeps its IndexedDB (the test compares it)"
    source = (HOSTILE / "reach_js.py").read_text().replace("__SERVER__", url)
    b = open_box(page, source, "reach_js.py")
    view = a_view()
    first = page.evaluate(CHOOSE, [b["i"], view])
    assert first["ok"] == view["legal_actions"][0]
    report = None
    for _ in range(200):                                     # until every attempt settled
        r = page.evaluate(CHOOSE, [b["i"], view])
        assert r["error"] is None, r
        if isinstance(r["ok"], dict) and r["ok"].get("type") == "report":
            report = r["ok"]["found"]
            break
    assert report is not None
    for what in ("fetch", "xhr", "websocket", "importScripts", "import", "indexedDB",
                 "caches", "parent", "bridge"):
        assert report[what].startswith("refused"), (what, report[what])
    assert from_boxes(srv.requests) == []
    assert page.evaluate("window.__fromFrames") == []
    assert page.evaluate(IDB_DUMP) == before
    print("reach_js.py found:", json.dumps(report, indent=1))


def test_looping_bot_times_out_and_only_its_box_ends(app):
    page, _, _ = app
    good = open_box(page, FIRST)
    loop = open_box(page, (HOSTILE / "loop.py").read_text(), "loop.py", limit=1)
    view = a_view()
    r = page.evaluate(CHOOSE, [loop["i"], view])
    assert r["error"]["kind"] == "timeout" and r["dead"] == "timeout"
    assert r["error"]["messages"]["pl"] and r["error"]["messages"]["en"]
    again = page.evaluate(CHOOSE, [loop["i"], view])
    assert again["error"]["kind"] == "gone"
    ok = page.evaluate(CHOOSE, [good["i"], view])
    assert ok["ok"] == view["legal_actions"][0] and ok["dead"] is None and ok["frames"] == 1


@pytest.mark.parametrize("name, kind", [("nochoose.py", "no_choose"), ("recurse.py", "exception"),
                                        ("nonjson.py", "not_dict"), ("crash.py", "crash")])
def test_bad_bot_is_named_and_ends_only_its_box(app, name, kind):
    page, _, _ = app
    b = open_box(page, (HOSTILE / name).read_text(), name)
    if kind == "no_choose":
        assert b["loadError"]["kind"] == kind
        assert b["loadError"]["messages"]["pl"] != b["loadError"]["messages"]["en"]
        return
    r = page.evaluate(CHOOSE, [b["i"], a_view()])
    assert r["error"]["kind"] == kind, r
    assert (r["dead"] == "crash") == (kind == "crash")


# --- tournament games: the lab's worker plays atut.tournament.game_steps, the boxes answer ------

RAISES = ("n = 0\n\n\ndef choose(view):\n    global n\n    n += 1\n"
          "    if n == 4:\n        raise ValueError('no')\n    return view['legal_actions'][-1]\n")
GAMES = """async ([tasks, limit]) => {
  const { LabWorker } = await import('./web/lib/lab/client.js');
  const { BoxPool, playGame } = await import('./web/lib/lab/games.js');
  const w = new LabWorker();
  if (!(await w.ready)) throw new Error('the lab worker did not start');
  const pool = new BoxPool(limit);
  const out = [];
  for (const t of tasks) out.push(await playGame(w, t, pool));
  pool.close();
  return out;
}"""


def _same(rec: dict) -> dict:
    """A game's record without its timings (wall seconds differ between runs)."""
    out = {k: v for k, v in rec.items() if k != "times"}
    if out.get("error"):
        out["error"] = {k: v for k, v in out["error"].items() if k != "messages"}
    return out


def test_tournament_games_in_boxes_are_the_command_lines_games(app):
    """The same tasks of atut.tournament.game_steps played in the page (the lab's worker, the
    bot files in browser boxes) and by the command line's driver (process boxes): the same
    records (actions, scores, ranks, margins, the failing bot's error kind and line)."""
    from atut import tournament
    page, _, _ = app
    specs = [{"name": "first.py", "level": None, "source": FIRST},
             {"name": "snoop.py", "level": None, "source": (HOSTILE / "snoop.py").read_text()},
             {"name": "raises.py", "level": None, "source": RAISES},
             {"name": "1", "level": 1, "source": None}]
    sched = tournament.schedule("sixty_six", 2, len(specs), 1)
    tasks = [["sixty_six", 2, specs, list(table), list(seats), d, 7, "game"]
             for table, seats, d in sched if 0 in table or 2 in table][:6]
    got = page.evaluate(GAMES, [tasks, 10])
    want = [tournament.play_game(tuple(t) + (10.0,)) for t in tasks]
    assert [_same(g) for g in got] == [_same(w) for w in want]
    assert any(w["error"] and w["error"]["kind"] == "exception" for w in want)
    assert any(w["error"] is None for w in want)


SEEN = """async ([tasks]) => {
  const { LabWorker } = await import('./web/lib/lab/client.js');
  const { BotBox } = await import('./web/lib/box.js');
  const { BoxPool, playGame } = await import('./web/lib/lab/games.js');
  // every message the page gets from the lab's worker and from the boxes' ports
  const seen = [];
  const message = LabWorker.prototype.message;
  LabWorker.prototype.message = function (data) { seen.push(JSON.stringify(data)); return message.call(this, data); };
  const onAnswer = BotBox.prototype._onAnswer;
  BotBox.prototype._onAnswer = function (m) { seen.push(JSON.stringify(m)); return onAnswer.call(this, m); };
  const w = new LabWorker();
  if (!(await w.ready)) throw new Error('the lab worker did not start');
  const pool = new BoxPool(10);
  const out = [];
  try {
    for (const t of tasks) out.push(await playGame(w, t, pool));
  } finally {
    pool.close();
    LabWorker.prototype.message = message;
    BotBox.prototype._onAnswer = onAnswer;
  }
  return { records: out, seen };
}"""


def test_tournament_games_decisions_do_not_pass_through_the_page(app):
    """The lab's worker asks the boxes for a game's decisions over ports of their own: the page
    receives no view and a handful of messages a game (the box opened, its fresh namespace,
    the game's end), not two a decision as when the page relayed each one."""
    from atut import tournament
    page, _, _ = app
    specs = [{"name": "first.py", "level": None, "source": FIRST},
             {"name": "last.py", "level": None,
              "source": "def choose(view):\n    return view['legal_actions'][-1]\n"}]
    tasks = [["sixty_six", 2, specs, [0, 1], list(seats), 0, 3, "game"] for seats in ([0, 1], [1, 0])]
    got = page.evaluate(SEEN, [tasks])
    decisions = sum(sum(r["decisions"].values()) for r in got["records"])
    assert decisions >= 20 and all(r["error"] is None for r in got["records"])
    assert not [m for m in got["seen"] if "legal_actions" in m]
    assert len(got["seen"]) <= 8 * len(tasks) < decisions
    want = [tournament.play_game(tuple(t) + (10.0,)) for t in tasks]
    assert [_same(g) for g in got["records"]] == [_same(w) for w in want]


# --- the lab's arena: the lab's worker plays atut.arena.deal_steps, the boxes answer ----------

def _lab(page, url, code, deals=2, limit="5"):
    """The lab on ``url``: ``code`` races level 1 in the arena; the report's or the error's
    text."""
    page.evaluate("(c) => window.atutLab.setText(c)", code)
    page.fill("[data-testid=lab-deals]", str(deals))
    page.fill("[data-testid=lab-limit]", limit)
    page.click("[data-testid=lab-run]")
    page.wait_for_selector("[data-testid=lab-report], [data-testid=lab-error]:not([hidden])",
                           timeout=240_000)
    err = page.locator("[data-testid=lab-error]")
    return ("error", err.inner_text()) if err.is_visible() else (
        "report", page.locator("[data-testid=lab-report]").inner_text())


def test_the_labs_arena_plays_hostile_files_in_their_boxes(app, page_problems):
    """snoop.py (gc, frames, sys.modules, builtins: in the engine's Python it finds the game and
    raises LEAK) plays its arena to the end in its boxes; reach_js.py's reach for the network,
    the storage and the page gets nothing through: judged from the outside (the server's log,
    the app's IndexedDB, the page's messages), and by its own report, which the arena refuses
    as an illegal action and shows."""
    page, srv, url = app
    page_problems.allowed_errors.append("box-probe")
    page_problems.allowed_errors.append("Content Security Policy")
    page.goto(url + "index.html#lab=sixty_six&lang=en")
    page.wait_for_selector("[data-testid=lab-state][data-state=ready]", timeout=240_000)
    page.wait_for_function("() => window.atutLab && window.atutLab.text", timeout=60_000)
    before = page.evaluate(IDB_DUMP)
    what, text = _lab(page, url, (HOSTILE / "snoop.py").read_text())
    assert what == "report" and "bot.py" in text, text
    code = (HOSTILE / "reach_js.py").read_text().replace("__SERVER__", url)
    what, text = _lab(page, url, code, deals=40)
    assert what == "error" and "not a legal action" in text and '"report"' in text, text
    for probe in ("fetch", "xhr", "websocket", "importScripts", "import", "indexedDB",
                  "caches", "parent", "bridge"):
        assert f'"{probe}":"refused' in text, (probe, text)
    assert from_boxes(srv.requests) == []
    assert page.evaluate("window.__fromFrames") == []
    assert page.evaluate(IDB_DUMP) == before
