"""The worker's request protocol under hostile requests, through the REAL worker in Chromium
(the CPython fuzzer of the bridge sends many thousands more: tests/test_fuzz_bridge.py).

For a table of every game on the person's turn, a few hundred seeded requests built in the page
(real op names and junk ones; arguments of the wrong type, missing, extra, huge, deeply nested,
and what JSON cannot say: undefined, NaN, Infinity, a function, a symbol, a BigInt, a cycle) go
through the page's worker client (`window.atutPage.request`, debug=1).  Every reply must be an
error with a readable message (a string, never "internal error", a traceback or "[object
Object]", not thousands of characters) within a generous timeout; the table's save is the same
before and after; and the person can still make a legal move.  Of the query ops, `explain` of a
junk action may answer (legal: false with its reason) instead.

The JS side on its own: a request the client cannot send (postMessage refuses a function) and
malformed messages from the worker (no id, a wrong id, no result, an error that is no string,
junk types) give an error or are ignored, never an exception in the console (the `page` fixture
fails the test on any console error or uncaught page error).
"""

from __future__ import annotations

import json
import zlib

from harness import ENABLED_ACTION, open_game, saved_game, wait_for_turn

OPS = ["info", "new_game", "view", "act", "bot_step", "explain", "hint", "undo", "can_undo",
       "review", "review_grade", "finished_deal", "save", "load", "debug_random_play",
       "debug_memory"]
PER_GAME = 200
TIMEOUT_MS = 60_000

# Requests built and sent inside the page; returns one record per request.
FUZZ = """async ([seed, count, ops, timeoutMs]) => {
  let s = seed >>> 0;
  const rnd = () => { s = (s + 0x6D2B79F5) >>> 0; let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const P = window.atutPage;
  const view = P.view;
  const legal = new Set(view.legal_actions.map((a) => P.canonical(a)));
  const cards = [...new Set(JSON.stringify(view).match(/\\b(10|[2-9JQKA])[SHDC]\\b/g) || [])];
  const deep = (n, leaf) => { let x = leaf; for (let i = 0; i < n; i++) x = rnd() < 0.5 ? [x] : {a: x}; return x; };
  const cyc = () => { const o = {a: 1}; o.self = o; return o; };
  const junk = () => pick([
    undefined, null, NaN, Infinity, -Infinity, -0, true, false, 0, -1, 1.5, 2 ** 60, 1e308,
    Number.MAX_SAFE_INTEGER + 2, "", "x", "ąę😀", "\\u0000", "\\ud800", "a".repeat(100000),
    [], [1, "2", null], {}, {type: "play"}, {"__proto__": 1}, () => 1, Symbol("s"), 10n,
    cyc(), deep(50, 1), deep(5000, "x"), new Date(0), /re/, new Map([[1, 2]]), new Uint8Array(4),
    pick(cards) || "AS", pick(view.legal_actions) || {},
  ]);
  // an action near a legal one (never a legal one)
  const nearAction = () => {
    for (let i = 0; i < 20; i++) {
      const a = nearAction1();
      let c = null;
      try { c = P.canonical(JSON.parse(JSON.stringify(a))); } catch (_) { /* not JSON */ }
      if (!legal.has(c)) return a;
    }
    return {type: "zz"};
  };
  const nearAction1 = () => {
    const base = JSON.parse(JSON.stringify(pick(view.legal_actions) || {type: "play"}));
    const keys = Object.keys(base);
    const how = Math.floor(rnd() * 6);
    if (how === 0 && keys.length) delete base[pick(keys)];
    else if (how === 1) base[pick(["zz", "seat", "card", "type", "bid", "suit"])] = junk();
    else if (how === 2 && keys.length) base[pick(keys)] = junk();
    else if (how === 3) base.card = pick(cards) || "2S";
    else if (how === 4) base.type = pick(["play", "bid", "pass", ["play"], 5, null, "PLAY", ""]);
    else return junk();
    return base;
  };
  const argsFor = (op) => {
    const r = rnd();
    // (no arguments at all, undefined or null, is a well-formed call: not sent)
    if (r < 0.08) return pick([5, "x", [], [1], true, NaN, -Infinity, () => 1, Symbol("a"), 5n]);
    const a = {};
    if (op === "act" || op === "explain") a.action = nearAction();
    else if (op === "new_game") {
      a.game = pick(["Euchre", "euchre ", "zz", "", 5, null, undefined, ["euchre"], {}]);
      a.players = junk(); a.seed = junk(); a.seat = junk(); a.levels = junk(); a.options = junk();
    } else if (op === "load") a.text = pick([junk(), "{", "[]", "{}", '{"game": {}}', "[".repeat(100000), "null"]);
    else if (op === "review_grade") { a.i = junk(); a.budget = junk(); }
    else if (op === "hint") a.budget = pick([junk(), "x", [], -1, {zz: 1}, {samples: "x"}, {samples: -5}, {samples: 1e9}]);
    else if (op === "debug_random_play") { a.game = junk(); a.players = junk(); a.seed = junk(); a.max_actions = junk(); }
    else if (op === "info") { a.built = junk(); a.classes = junk(); }
    if (rnd() < 0.3 && Object.keys(a).length) delete a[pick(Object.keys(a))];
    // one argument the op does not take (ops whose arguments above are malformed by
    // construction: half of the time)
    if (!MALFORMED_ARGS.includes(op) || rnd() < 0.5) a[pick(["zz", "seat2", "__class__", "self", "op", "x".repeat(300)])] = junk() ?? 0;
    return a;
  };
  const junkOps = ["", "_x", "__init__", "__class__", "handle", "op_view", "debug_", "toString",
    "constructor", "__proto__", "VIEW", "view ", " view", "view\\u0000", "ąę", "😀", "x".repeat(5000),
    5, null, undefined, {}, ["view"], () => "view", NaN];
  const describe = (x, depth = 0) => {
    if (typeof x === "function") return "<function>";
    if (typeof x === "symbol") return "<symbol>";
    if (typeof x === "bigint") return x + "n";
    if (typeof x === "string") return x.length > 40 ? JSON.stringify(x.slice(0, 40)) + `…(${x.length})` : JSON.stringify(x);
    if (x === undefined) return "undefined";
    if (typeof x === "number") return String(x);
    if (x === null || typeof x !== "object") return String(x);
    if (depth > 2) return "…";
    if (Array.isArray(x)) return "[" + x.slice(0, 4).map((v) => describe(v, depth + 1)).join(",") + "]";
    return "{" + Object.keys(x).slice(0, 6).map((k) => describe(k) + ":" + describe(x[k], depth + 1)).join(",") + "}";
  };
  const out = [];
  const MALFORMED_ARGS = ["act", "explain", "new_game", "load", "review_grade", "debug_random_play"];
  for (let i = 0; i < count; i++) {
    const op = rnd() < 0.8 ? pick(ops) : pick(junkOps);
    const args = argsFor(op);
    const rec = {op: describe(op), args: describe(args), onlyAction: op === "explain" && args && typeof args === "object" && Object.keys(args).every((k) => k === "action")};
    const t0 = performance.now();
    let timer;
    try {
      const r = await Promise.race([
        P.request(op, args),
        new Promise((_, rej) => { timer = setTimeout(() => rej(new Error("__timeout__")), timeoutMs); }),
      ]);
      rec.ok = true;
      rec.result = describe(r);
      rec.legal = r && typeof r === "object" ? r.legal : undefined;
      rec.reason = r && typeof r === "object" ? r.reason : undefined;
    } catch (err) {
      rec.ok = false;
      rec.isError = err instanceof Error;
      rec.error = err && err.message !== undefined ? err.message : String(err);
      rec.errorType = typeof rec.error;
    } finally {
      clearTimeout(timer);
    }
    rec.ms = Math.round(performance.now() - t0);
    out.push(rec);
  }
  return out;
}"""


def readable(msg) -> str | None:
    """Why an error message is not readable (None: it is)."""
    if not isinstance(msg, str) or not msg.strip():
        return "no message"
    if msg == "__timeout__":
        return "no reply within the timeout"
    low = msg.lower()
    for bad in ("internal error", "traceback", "[object object]", "unknown error"):
        if bad in low:
            return f"says {bad!r}"
    if len(msg) > 2000:
        return f"{len(msg)} characters long"
    return None


def problems_of(records: list[dict]) -> list[str]:
    out = []
    for r in records:
        what = f"{r['op']}({r['args']})"
        if r["ok"]:
            if r["onlyAction"] and r.get("legal") is False and isinstance(r.get("reason"), str):
                continue                    # explain of a junk action: its reason
            out.append(f"{what}: answered {r['result']}")
        elif not r.get("isError"):
            out.append(f"{what}: rejected with a non-Error {r['error']!r}")
        else:
            why = readable(r["error"])
            if why:
                out.append(f"{what}: {why}: {str(r['error'])[:300]!r}")
    return out


GAMES = [("sixty_six", 3), ("euchre", 4), ("imperial", 2), ("tysiac1001", 3), ("cesarz", 4)]


def start_by_hash(page, game: str, players: int, seed: int) -> None:
    """A new game in the same page (hashchange), on the person's turn."""
    page.evaluate("(h) => { location.hash = h; }",
                  f"#game={game}&players={players}&seed={seed}&seat=0&bots=random&delay=0"
                  "&lang=en&debug=1")
    page.wait_for_function("([g, n]) => { const v = window.atutPage.view; return v && "
                           "v.game === g && v.players === n; }", arg=[game, players])
    assert wait_for_turn(page) == "turn"


def test_hostile_requests_leave_the_table(page, dist_url):
    """PER_GAME hostile requests on a table of every game (one page, the games started by
    hashchange): each refused readably, the table's save unchanged, the page plays on."""
    open_game(page, dist_url, "sixty_six", 2, seed=1, seat=0, bots="random", delay=0)
    failures, counts = [], []
    for game, players in GAMES:
        start_by_hash(page, game, players, 19)
        before = saved_game(page)
        view_before = page.evaluate("() => window.atutPage.view")
        records = page.evaluate(FUZZ, [zlib.crc32(game.encode()), PER_GAME, OPS, TIMEOUT_MS])
        assert len(records) == PER_GAME
        failures += [f"{game}: {p}" for p in problems_of(records)]
        assert saved_game(page) == before, f"{game}: the table's game changed"
        assert page.evaluate("() => window.atutPage.view") == view_before
        # the page plays on: one of the person's legal actions, then the next turn or the end
        page.locator(ENABLED_ACTION).first.click()
        wait_for_turn(page)
        assert saved_game(page) != before, f"{game}: the legal move was not taken"
        assert page.locator("#error").is_hidden()
        counts.append((game, len(records), sum(1 for r in records if not r["ok"]),
                       max(r["ms"] for r in records)))
    assert not failures, f"{len(failures)} requests:\n" + "\n".join(failures[:25])
    for game, n, refused, slowest in counts:
        print(f"{game}: {n} requests, {refused} refused, slowest {slowest} ms")


# a spy on the worker's message handler (installed before the page's scripts): the test can hand
# the client messages of its own, as if the worker had sent them
SPY = """(() => {
  const d = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m) {
    if (m && m.id !== undefined) window.__lastId = m.id;
    return post.call(this, m);
  };
  Object.defineProperty(Worker.prototype, 'onmessage', {
    configurable: true,
    get() { return d.get.call(this); },
    set(fn) { window.__fromWorker = fn; d.set.call(this, fn); },
  });
})();"""

MALFORMED = """async () => {
  const P = window.atutPage;
  const feed = window.__fromWorker;
  const out = {};
  // the reply to a real request replaced by a malformed one sent first
  const replies = {
    no_result: (id) => ({id, ok: true}),
    no_error: (id) => ({id, ok: false}),
    error_object: (id) => ({id, ok: false, error: {a: 1}}),
    error_empty: (id) => ({id, ok: false, error: ""}),
    ok_string: (id) => ({id, ok: "yes", result: 1}),
  };
  for (const [name, make] of Object.entries(replies)) {
    const p = P.request('view', {});
    feed({data: make(window.__lastId)});
    try { out[name] = {ok: true, value: JSON.stringify(await p)}; }
    catch (err) { out[name] = {ok: false, isError: err instanceof Error, message: err.message}; }
  }
  // messages that answer nothing: ignored
  for (const data of [null, undefined, 5, "x", [], {}, {id: -1, ok: true, result: 1}, {type: "zz"},
                      {type: "progress", pct: "x", stage: {}}, {type: "ready", info: null}]) {
    feed({data});
  }
  // a request postMessage cannot send (a function, a symbol)
  for (const [name, args] of [["function", {f: () => 1}], ["symbol", {s: Symbol("s")}]]) {
    try { await P.request('view', args); out["send_" + name] = {ok: true}; }
    catch (err) { out["send_" + name] = {ok: false, isError: err instanceof Error, message: err.message}; }
  }
  // the client still works
  out.after = {ok: true, value: JSON.stringify(await P.request('view', {}))};
  return out;
}"""


def test_malformed_worker_messages_and_unsendable_requests(page, dist_url):
    page.add_init_script(SPY)
    open_game(page, dist_url, "sixty_six", 2, seed=3, seat=0, bots="random", delay=0)
    assert wait_for_turn(page) == "turn"
    before = saved_game(page)
    out = page.evaluate(MALFORMED)
    for name in ("no_result", "no_error", "error_object", "error_empty", "ok_string",
                 "send_function", "send_symbol"):
        r = out[name]
        assert not r["ok"] and r["isError"], (name, r)
        assert readable(r["message"]) is None, (name, r)
    assert json.loads(out["after"]["value"])["game"] == "sixty_six"
    assert page.locator("body[data-engine=ready]").count() == 1
    assert saved_game(page) == before
    # the page plays on
    page.locator(ENABLED_ACTION).first.click()
    wait_for_turn(page)
    assert saved_game(page) != before


DEEP = """async () => {
  const P = window.atutPage;
  const out = {};
  const tries = {
    load_text: () => P.request('load', {text: '['.repeat(100000)}),
    load_object_text: () => P.request('load', {text: '{"a":'.repeat(20000)}),
    args_2000: () => { let x = 1; for (let i = 0; i < 2000; i++) x = [x]; return P.request('view', {zz: x}); },
    args_200: () => { let x = 1; for (let i = 0; i < 200; i++) x = {a: x}; return P.request('act', {action: x}); },
  };
  for (const [name, f] of Object.entries(tries)) {
    try { out[name] = {ok: true, value: JSON.stringify(await f())}; }
    catch (err) { out[name] = {ok: false, message: err.message}; }
  }
  return out;
}"""


def test_deep_nesting_is_refused_not_fatal(page, dist_url):
    """JSON nested thousands deep (a save's text, request arguments) is refused with a message;
    before the bridge's nesting check it overflowed Pyodide's stack inside json.loads, a fatal
    error of the runtime (a console error, caught by the `page` fixture)."""
    open_game(page, dist_url, "euchre", 4, seed=2, seat=0, bots="random", delay=0)
    assert wait_for_turn(page) == "turn"
    before = saved_game(page)
    out = page.evaluate(DEEP)
    for name, r in out.items():
        assert not r["ok"], (name, r)
        assert readable(r["message"]) is None, (name, r)
    assert "nested" in out["load_text"]["message"]
    assert saved_game(page) == before
    page.locator(ENABLED_ACTION).first.click()
    wait_for_turn(page)
    assert saved_game(page) != before
