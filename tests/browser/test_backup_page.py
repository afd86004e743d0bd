"""Backup and move (docs/PAGE.md "Backup file", web/lib/backup.js, atut.backup): a browser with
50 finished games, 2 unfinished ones, 3 saved lab bots and a setting exports everything through
Settings' *Export to a file* (a real download); a fresh browser imports it through *Import a
file…* (the real file chooser): the history, the statistics, the bots and the setting are there,
both unfinished games resume where they were and play on, and the same file imported again
(dropped onto the panel) changes nothing; once the games were played on here the file's older
versions leave them as they are, and a version that went another way is kept beside them.  Then a seeded fuzzer's few hundred truncated and
mutated files (truncation at random points, byte flips, deleted and duplicated keys, wrong types,
huge numbers, an illegal move in a save, a save of another game, other format versions) are each
refused with the reason shown, the same reason as CPython's atut.backup.check gives, and the
stores (IndexedDB and the page's localStorage) are byte for byte what they were.

The profile is filled through the page itself: seeded sixty_six games against level-1 bots
played with window.atutPage.act (each step kept by the page's autosave, as when clicking), and
the bots saved with the lab's own module (lib/lab/saved.js).  The fuzzed files go through the
same hidden file input that the *Import a file…* button opens (Playwright's set_input_files on
it), not through the file chooser each time: the chooser adds a round trip per file and nothing
else (the first import uses it)."""

from __future__ import annotations

import json
import random
import re

import pytest
from conftest import VIEWPORT, PageProblems

import atut
from atut.backup import BackupError, check
from harness import ENABLED_ACTION, wait_for_turn

FINISHED, FIRST_SEED = 50, 100
PLAYED = 3                   # of the finished games, played in the page (the rest: BULK)
UNFINISHED = [("euchre", 4, 7), ("tysiac1001", 3, 3)]
BOTS = {f"bot{i}.py": ("euchre" if i != 2 else "sixty_six",
                       f"def choose(view):\n    return view['legal_actions'][{i % 2}]\n")
        for i in range(3)}

PLAY = """async ([hash, acts]) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const P = window.atutPage;
  const old = JSON.stringify(P.view);
  location.hash = hash;
  for (let k = 0; !(P.view && !P.view.is_over && JSON.stringify(P.view) !== old); k++) {
    if (k > 3000) throw new Error("the game did not start: " + hash);
    await sleep(10);
  }
  let done = 0;
  for (let k = 0; k < 20000 && (acts < 0 || done < acts); k++) {
    const v = P.view;
    if (v.is_over) break;
    if (v.to_move === P.seat && Array.isArray(v.legal_actions) && v.legal_actions.length) {
      if (await P.act(v.legal_actions[k % v.legal_actions.length])) done += 1;
      else await sleep(5);
    } else await sleep(5);
  }
  for (let k = 0; P.view.to_move !== P.seat && !P.view.is_over; k++) {
    if (k > 3000) throw new Error("the bots did not finish their turn");
    await sleep(10);
  }
  await P.flush();
  return P.view;
}"""

# A finished game through the worker's own ops (debug=1): new_game, the person's act and the
# bots' bot_step to the end, then `keep` with the record autosave.js would write (its metaNow):
# the save kept is the worker's.  Seconds for dozens of games; the page's own path (PLAY) costs
# about two seconds a game (a new table, the moves drawn, each step kept, the background grading
# of the review).
BULK = """async ([seeds, lastDeal]) => {
  const R = window.atutPage.request;
  for (const seed of seeds) {
    const started = Date.now();
    let r = await R("new_game", { game: "sixty_six", players: 2, seed, seat: 0, levels: [1] });
    for (let k = 0; !r.view.is_over; k++) {
      if (k > 500) throw new Error("the game did not end");
      r = r.view.to_move === 0 ? await R("act", { action: r.view.legal_actions[k % r.view.legal_actions.length] }) : await R("bot_step", {});
    }
    const v = r.view;
    const won = v.winner === 0 || (Array.isArray(v.winner) && v.winner.includes(0));
    const meta = { format: 1, id: `bulk-${seed}`, game: "sixty_six", players: 2, seed, seat: 0, levels: [1], delay: 0,
      options: {}, started, updated: Date.now(), finished: true, deal_no: v.deal_no || 0, scores: [...v.scores],
      last_deal: lastDeal, aids: { hints: seed % 3, undo: 0 }, version: null,
      result: { winner: v.winner === undefined ? null : v.winner, won, score: v.scores[0] } };
    const k = await R("keep", { meta });
    if (!k.stored) throw new Error("not kept: " + k.error);
  }
  return seeds.length;
}"""

# what the browser keeps: every record and save (IndexedDB "atut") and the page's settings and
# bots (localStorage "atut.*"); `digest` gives its SHA-256 only
DUMP = """async (digest) => {
  const db = await new Promise((res, rej) => { const r = indexedDB.open("atut"); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const all = (s) => new Promise((res, rej) => { const r = db.transaction(s).objectStore(s).getAll(); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const out = { meta: (await all("meta")).sort(byId), saves: (await all("saves")).sort(byId), bad: await all("bad"), ls: {} };
  db.close();
  for (const k of Object.keys(localStorage).sort()) if (k.startsWith("atut.")) out.ls[k] = localStorage.getItem(k);
  if (!digest) return out;
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(out)));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}"""

SAVE_BOTS = """async (bots) => {
  const m = await import("./web/lib/lab/saved.js");
  for (const [name, [game, source]] of Object.entries(bots)) if (!m.save(name, source, game)) throw new Error("not saved");
  return m.list().map((b) => b.name);
}"""

WAIT_VIEW = """async () => {
  for (let k = 0; !window.atutPage.view; k++) {
    if (k > 6000) throw new Error("no table");
    await new Promise((r) => setTimeout(r, 10));
  }
}"""

# the same File dropped onto the Settings panel (drag and drop: docs/PAGE.md)
DROP = """([text, name]) => {
  const dt = new DataTransfer();
  dt.items.add(new File([text], name, { type: "application/json" }));
  document.querySelector("[data-testid=settings]").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
}"""


def _new_page(browser, dist_url, problems: list):
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-US", accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(120_000)
    pp = PageProblems(dist_url)
    pg.on("console", pp.on_console)
    pg.on("pageerror", pp.on_pageerror)
    pg.on("request", pp.on_request)
    problems.append(pp)
    return ctx, pg


def _menu(pg, dist_url):
    pg.goto("about:blank")
    pg.goto(dist_url + "#lang=en&debug=1")
    pg.wait_for_selector("body[data-engine=ready]", timeout=180_000)
    pg.wait_for_selector("[data-testid=history]", state="attached")


def _settings(pg):
    if not pg.locator("[data-testid=settings]").count():
        pg.locator("[data-testid=open-settings]").click()
    pg.locator("[data-testid=backup-export]").wait_for(state="visible")


def _result(pg, seq: int) -> dict:
    box = pg.locator(f"[data-testid=backup-result][data-seq='{seq}']")
    box.wait_for(state="attached", timeout=120_000)
    return {"outcome": box.get_attribute("data-outcome"), "code": box.get_attribute("data-code"),
            "text": box.inner_text()}


def _stats(pg) -> list:
    return pg.eval_on_selector_all(
        "[data-testid=stats] tbody tr",
        "rows => rows.map(r => ({...r.dataset}))")


@pytest.fixture(scope="module")
def exported(browser, dist_url, tmp_path_factory):
    """Browser A's profile, exported: {file (bytes), name, dump, stats, views: {game: view}}."""
    problems = []
    ctx, pg = _new_page(browser, dist_url, problems)
    _menu(pg, dist_url)
    # most finished games through the worker's ops, a few as a person plays them in the page
    # (their records with all the page writes: the finished deal's items, the result)
    bulk = list(range(FIRST_SEED, FIRST_SEED + FINISHED - PLAYED))
    assert pg.evaluate(BULK, [bulk, None]) == len(bulk)
    _menu(pg, dist_url)
    for seed in range(FIRST_SEED + len(bulk), FIRST_SEED + FINISHED):
        v = pg.evaluate(PLAY, [f"#game=sixty_six&players=2&seed={seed}&seat=0&bots=1"
                               f"&delay=0&lang=en&debug=1", -1])
        assert v["is_over"]
    views = {}
    for game, players, seed in UNFINISHED:
        views[game] = pg.evaluate(PLAY, [f"#game={game}&players={players}&seed={seed}&seat=0"
                                         f"&bots=1&delay=0&lang=en&debug=1", 3])
        assert not views[game]["is_over"]
    assert pg.evaluate(SAVE_BOTS, BOTS) == sorted(BOTS)
    _menu(pg, dist_url)
    _settings(pg)
    pg.locator("input[data-look=four]").check()
    with pg.expect_download() as d:
        pg.locator("[data-testid=backup-export]").click()
    dl = d.value
    path = tmp_path_factory.mktemp("backup") / dl.suggested_filename
    dl.save_as(path)
    r = _result(pg, 1)
    assert r["outcome"] == "exported", r
    assert f"games {FINISHED + 2}, bots 3" in r["text"]
    out = {"file": path.read_bytes(), "path": path, "name": dl.suggested_filename,
           "dump": pg.evaluate(DUMP, False), "stats": _stats(pg), "views": views}
    ctx.close()
    for pp in problems:
        pp.check()
    return out


def test_export_names_the_file_by_date_and_holds_everything(exported):
    assert re.fullmatch(r"atut-backup-\d{4}-\d{2}-\d{2}\.json", exported["name"])
    got = check(exported["file"])
    assert len(got["games"]) == FINISHED + 2
    assert sum(g["meta"]["finished"] for g in got["games"]) == FINISHED
    assert {b["name"]: (b["game"], b["source"]) for b in got["bots"]} == BOTS
    assert got["settings"]["atut.look.four"] == "on" and "atut.lang" not in got["settings"]
    assert sum(int(r["played"]) for r in exported["stats"]) == FINISHED


def _import_good(pg, exported, seq=1, chooser=True) -> dict:
    if chooser:
        with pg.expect_file_chooser() as fc:
            pg.locator("[data-testid=backup-import]").click()
        fc.value.set_files(exported["path"])
    else:
        pg.evaluate(DROP, [exported["file"].decode(), exported["name"]])
    return _result(pg, seq)


def test_a_fresh_browser_imports_everything_once_and_the_unfinished_games_play_on(
        browser, dist_url, exported):
    problems = []
    ctx, pg = _new_page(browser, dist_url, problems)
    try:
        _menu(pg, dist_url)
        _settings(pg)
        r = _import_good(pg, exported)
        assert r["outcome"] == "imported", r
        assert f"Games: {FINISHED + 2} added, 0 updated" in r["text"]
        assert "Bots: 3 added" in r["text"] and "Settings: " in r["text"]
        a, b = exported["dump"], pg.evaluate(DUMP, False)
        assert b["meta"] == a["meta"] and b["saves"] == a["saves"] and b["bad"] == []
        for k, v in a["ls"].items():
            if k == "atut.lab.bots" or k.startswith(("atut.look.", "atut.delay")):
                assert b["ls"].get(k) == v, k
        assert "look-four" in pg.locator("body").get_attribute("class")   # applied at once
        # the same file again, dropped onto the panel: nothing changes
        r = _import_good(pg, exported, seq=2, chooser=False)
        assert r["outcome"] == "imported" and "Nothing new" in r["text"], r
        assert f"{FINISHED + 2} here already" in r["text"]
        assert pg.evaluate(DUMP, False) == b
        # the history, the statistics and the lab's bots
        pg.keyboard.press("Escape")
        assert f"({FINISHED})" in pg.locator("[data-testid=history] summary").inner_text()
        assert _stats(pg) == exported["stats"]
        assert pg.evaluate("async () => (await import('./web/lib/lab/saved.js')).list()"
                           ".map((b) => b.name)") == sorted(BOTS)
        # both unfinished games resume where they were, and play on
        ids = {m["game"]: m["id"] for m in b["meta"] if not m["finished"]}
        assert sorted(ids) == sorted(g for g, _, _ in UNFINISHED)
        for game, _, _ in UNFINISHED:
            _menu(pg, dist_url)
            pg.locator(f"[data-continue='{ids[game]}']").click()
            pg.evaluate(WAIT_VIEW)
            assert wait_for_turn(pg) == "turn"
            assert pg.evaluate("() => window.atutPage.view") == exported["views"][game]
            for _ in range(2):
                assert wait_for_turn(pg) == "turn"
                pg.locator(ENABLED_ACTION).first.click()
                pg.wait_for_selector("[data-action][disabled]", state="detached")
            assert pg.evaluate("() => window.atutPage.flush()") is True
            after = {s["id"]: s for s in pg.evaluate(DUMP, False)["saves"]}
            before = {s["id"]: s for s in b["saves"]}
            assert len(json.loads(after[ids[game]]["text"])["actions"]) \
                > len(json.loads(before[ids[game]]["text"])["actions"])
        # played on here, the file's versions are older: kept as they are; a version of the
        # euchre game that went another way from the file's point is kept beside this one
        played = {s["id"]: s["text"] for s in pg.evaluate(DUMP, False)["saves"]}
        _menu(pg, dist_url)
        _settings(pg)
        r = _import_good(pg, exported, seq=1)
        assert "0 updated" in r["text"] and "2 kept as they are (newer here)" in r["text"], r
        data = json.loads(exported["file"])
        [g] = [g for g in data["games"] if g["meta"]["id"] == ids["euchre"]]
        here = json.loads(played[ids["euchre"]])["actions"]
        apart = atut.load_game(g["save"])
        at = len(json.loads(g["save"])["actions"])
        apart.apply(next(a for a in apart.legal_actions() if a != here[at]))
        data["games"] = [{"meta": g["meta"], "save": apart.to_json()}]
        pg.set_input_files("[data-testid=backup-file]", files=[
            {"name": "apart.json", "mimeType": "application/json",
             "buffer": json.dumps(data).encode()}])
        r = _result(pg, 2)
        assert "1 kept in both versions" in r["text"] and "Both versions kept" in r["text"], r
        pg.keyboard.press("Escape")
        assert pg.locator(f"[data-continue='{ids['euchre']}~2']").count() == 1
        assert played == {s["id"]: s["text"] for s in pg.evaluate(DUMP, False)["saves"]
                          if s["id"] != ids["euchre"] + "~2"}
    finally:
        ctx.close()
    for pp in problems:
        pp.check()


# --- the fuzzer -----------------------------------------------------------------------------

def _paths(data: dict, rng: random.Random):
    """A random place in a backup's content: (container, key)."""
    g = rng.choice(data["games"])
    choices = [(data, k) for k in data] + [(g, k) for k in g] + [(g["meta"], k) for k in g["meta"]]
    if data["bots"]:
        b = rng.choice(data["bots"])
        choices += [(b, k) for k in b]
    if data["settings"]:
        choices.append((data["settings"], rng.choice(sorted(data["settings"]))))
    return rng.choice(choices)


def _structural(good: bytes, rng: random.Random) -> bytes:
    data = json.loads(good)
    kind = rng.choice(["delete", "type", "huge", "dup_entry", "dup_key", "illegal", "other_game",
                       "version"])
    if kind == "delete":
        box, key = _paths(data, rng)
        del box[key]
    elif kind == "type":
        box, key = _paths(data, rng)
        box[key] = rng.choice(["x", [], {}, None, True, 1.5, -1, [[[]]], {"a": {"b": 1}}])
    elif kind == "huge":
        g = rng.choice(data["games"])["meta"]
        g[rng.choice(["players", "seed", "seat", "delay", "updated", "deal_no", "started"])] = "HUGE"
        huge = rng.choice(["1e400", "-1e400", str(10 ** 40), "9" * 5000, "1" + "0" * 400])
        return json.dumps(data).replace('"HUGE"', huge, 1).encode()
    elif kind == "dup_entry":
        box = rng.choice([data["games"], data["bots"]])
        box.append(json.loads(json.dumps(rng.choice(box))))
    elif kind == "dup_key":
        # a key twice in one record: JSON keeps the later value, of the wrong kind here
        g = rng.choice(data["games"])["meta"]
        key = rng.choice(["players", "seat", "finished", "levels"])
        was = f'"{key}": {json.dumps(g[key])}'
        meta = json.dumps(g)
        dup = meta.replace(was, was + f', "{key}": ' + rng.choice(['"2"', "null", "[]", "-3"]), 1)
        return json.dumps(data).replace(meta, dup, 1).encode()
    elif kind == "illegal":
        g = rng.choice(data["games"])
        save = json.loads(g["save"])
        acts = save["actions"]
        i = rng.randrange(len(acts))
        acts[i] = rng.choice([{"type": "play", "card": "XX"}, {"type": "bid", "value": 10 ** 6},
                              {"type": "exchange"}, acts[(i + 1) % len(acts)], {}])
        g["save"] = json.dumps(save)
    elif kind == "other_game":
        g = rng.choice(data["games"])["meta"]
        g[rng.choice(["seed", "players"])] += 1
    else:
        data["version"] = rng.choice([0, 2, "1", 1.0, None])
    return json.dumps(data).encode()


def _fuzzed(good: bytes, n_trunc=100, n_flip=100, n_struct=120, seed=2026):
    """Seeded hostile files, each with CPython's verdict: [(kind, bytes, code)].  A mutant that
    CPython's check accepts (a flip inside a bot's source, say) is not one of them."""
    rng = random.Random(seed)
    out, accepted = [], 0
    makers = [("truncated", n_trunc, lambda: good[:rng.randrange(len(good))]),
              ("flipped", n_flip, lambda: _flip(good, rng)),
              ("structural", n_struct, lambda: _structural(good, rng))]
    for kind, n, make in makers:
        got = 0
        while got < n:
            raw = make()
            try:
                check(raw)
            except BackupError as e:
                out.append((kind, raw, e.code))
                got += 1
            else:
                accepted += 1
    return out, accepted


def _flip(good: bytes, rng: random.Random) -> bytes:
    raw = bytearray(good)
    for _ in range(rng.randint(1, 3)):
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    return bytes(raw)


def test_fuzzed_files_are_refused_with_a_reason_and_change_nothing(browser, dist_url, exported):
    files, accepted = _fuzzed(exported["file"])
    assert len(files) == 320 and accepted < 320
    codes = {code for _, _, code in files}
    assert {"json", "shape", "save", "duplicate", "older", "newer", "format"} <= codes, codes
    problems = []
    ctx, pg = _new_page(browser, dist_url, problems)
    try:
        _menu(pg, dist_url)
        _settings(pg)
        assert _import_good(pg, exported)["outcome"] == "imported"
        before = pg.evaluate(DUMP, True)
        seq = 1
        for i, (kind, raw, code) in enumerate(files):
            seq += 1
            pg.set_input_files("[data-testid=backup-file]",
                               files=[{"name": f"fuzz-{i}.json", "mimeType": "application/json",
                                       "buffer": raw}])
            r = _result(pg, seq)
            assert (r["outcome"], r["code"]) == ("refused", code), (i, kind, r)
            assert r["text"].startswith("The file was not imported: "), r
            assert "backup.reason" not in r["text"] and "Nothing was changed." in r["text"], r
            assert pg.evaluate(DUMP, True) == before, (i, kind)
        # the same in Polish
        pg.locator("input[name=settings-lang][value=pl]").check()
        pg.wait_for_selector("html[lang=pl] [data-testid=backup-export]")
        pg.set_input_files("[data-testid=backup-file]",
                           files=[{"name": "x.json", "mimeType": "application/json",
                                   "buffer": files[0][1]}])
        r = _result(pg, seq + 1)
        assert r["outcome"] == "refused" and "Pliku nie zaimportowano" in r["text"], r
        assert "Niczego nie zmieniono." in r["text"]
        r = _import_good(pg, exported, seq=seq + 2, chooser=False)
        assert r["outcome"] == "imported" and "Nic nowego" in r["text"], r
        assert pg.evaluate(DUMP, True) != before      # only the language: the page's own setting
        dump = pg.evaluate(DUMP, False)
        assert dump["ls"]["atut.lang"] == "pl" and len(dump["meta"]) == FINISHED + 2
    finally:
        ctx.close()
    for pp in problems:
        pp.check()
