"""The bot lab (#lab=GAME, docs/LAB.md) in Chromium with real Pyodide: a bot typed into the
CodeMirror editor races level 1 for 20 deals and the report appears; a `while True: pass` bot
is stopped by the per-decision limit (its box ended) while the page stays responsive; a crashing
bot ends its box only and the arena says why; a bot that raises shows its line; an illegal
answer is refused by name with the legal ones; a seeded arena equals the CPython arena; a saved
bot survives a reload; an exported bot runs in the CPython arena; the lab's tab is in the link;
a fetch to another origin is blocked by the Content-Security-Policy.  The bot files run in
boxes (tests/browser/test_boxes.py tries hostile ones).  Screenshots go to /tmp (a person
looks)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from conftest import ROOT

READY = "[data-testid=lab-state][data-state=ready]"
EDITOR = "[data-testid=lab-editor] .cm-content"
ERROR = "[data-testid=lab-error]"
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
FIRST = textwrap.dedent("""\
    import random

    def choose(view):
        # the first legal action
        return view["legal_actions"][0]
    """)


def open_lab(page, url, game="sixty_six", lang="en"):
    page.goto(f"{url}#lab={game}&lang={lang}")
    page.wait_for_selector(READY, timeout=240_000)
    page.wait_for_function("() => window.atutLab && window.atutLab.text && "
                           "window.atutLab.text.includes('def choose')", timeout=60_000)


def set_code(page, code, typing=False):
    """Replace the editor's text: key by key (typing=True) or as one insertion."""
    page.locator(EDITOR).click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    if typing:
        page.keyboard.type(code)
    else:
        page.keyboard.insert_text(code)


def editor_text(page):
    return page.evaluate("() => window.atutLab.text")


def run(page, deals=20, opponent="level:1", players=None):
    page.fill("[data-testid=lab-deals]", str(deals))
    page.select_option("[data-testid=lab-opponent]", opponent)
    if players:
        page.select_option("[data-testid=lab-players]", str(players))
    page.click("[data-testid=lab-run]")


def wait_error(page, timeout=120_000):
    page.wait_for_selector(f"{ERROR}:not([hidden])", timeout=timeout)
    return page.locator(ERROR).inner_text()


def test_typed_bot_runs_20_deals_against_level_1(page, dist_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    open_lab(page, dist_url)
    set_code(page, FIRST, typing=True)
    # typed key by key: the indentation as typed (Enter's own indentation gives way to typed
    # spaces; only the empty last line keeps it)
    assert [x.rstrip() for x in editor_text(page).rstrip().splitlines()] == FIRST.rstrip().splitlines()
    assert page.locator("[data-testid=lab-editor] .tok-keyword, "
                        "[data-testid=lab-editor] [class*=tok-]").count() > 0 or \
        page.locator("[data-testid=lab-editor] .cm-line span").count() > 0   # highlighted
    run(page, deals=20)
    page.wait_for_selector("[data-testid=lab-report]", timeout=240_000)
    report = page.locator("[data-testid=lab-report]").inner_text()
    assert "20 duplicate" in report and "bot.py" in report
    r = page.evaluate("() => window.atutLab.result")
    assert r["deals"] == 20 and len(r["rows"]) == 20 and len(r["running"][0]) == 20
    assert r["bots"][0]["name"] == "bot.py" and r["bots"][1]["level"] == 1
    assert 0 <= r["bots"][0]["share"] <= 1
    cells = page.locator("[data-testid=lab-results] .lab-report tbody tr").count()
    assert cells == 2
    page.wait_for_selector("[data-testid=lab-chart] canvas")
    assert page.locator(ERROR).is_hidden()
    with page.expect_download() as d:
        page.click("[data-testid=lab-csv]")
    csv_text = open(d.value.path(), encoding="utf-8").read()
    assert len(csv_text.strip().splitlines()) == 21          # a header and one row per deal
    for w, h in ((1280, 800), (390, 844), (1920, 1080)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(300)
        page.screenshot(path=f"/tmp/lab-{w}.png", full_page=False)


def test_endless_loop_is_stopped_by_the_limit_and_the_page_stays_responsive(page, dist_url):
    open_lab(page, dist_url)
    set_code(page, "def choose(view):\n    while True:\n        pass\n")
    page.fill("[data-testid=lab-limit]", "1.5")
    run(page, deals=5)
    # while the bot loops, the page's thread answers and the editor takes keys
    page.wait_for_selector("[data-testid=lab-progress]:not([hidden]), "
                           f"{ERROR}:not([hidden])", timeout=120_000)
    for _ in range(3):
        assert page.evaluate("() => 1 + 1") == 2
    text = wait_error(page)
    assert "longer than 1.5 s" in text and "bot.py" in text
    # only the bot's box was ended (its frame removed); the code is kept and a fixed bot runs
    assert "while True" in editor_text(page)
    page.wait_for_function("() => document.querySelectorAll('iframe[data-testid=bot-box]')"
                           ".length === 0", timeout=10_000)
    page.wait_for_selector(READY, timeout=240_000)
    set_code(page, FIRST)
    run(page, deals=3)
    page.wait_for_selector("[data-testid=lab-report]", timeout=240_000)
    assert page.locator(ERROR).is_hidden()


def test_stop_button_ends_a_running_arena(page, dist_url):
    open_lab(page, dist_url)
    set_code(page, "def choose(view):\n    while True:\n        pass\n")
    page.fill("[data-testid=lab-limit]", "600")
    run(page, deals=5)
    page.wait_for_selector("[data-testid=lab-run]:disabled")
    page.wait_for_timeout(500)
    page.click("[data-testid=lab-stop]")
    page.wait_for_function("() => document.querySelector('[data-testid=lab-note]').textContent"
                           ".includes('Stopped')", timeout=30_000)
    page.wait_for_selector(READY, timeout=240_000)
    assert page.locator("[data-testid=lab-run]").is_enabled()


def test_exception_shows_the_students_line(page, dist_url):
    open_lab(page, dist_url)
    code = ("def helper(view):\n    return 1 / 0\n\n\n"
            "def choose(view):\n    x = helper(view)\n    return view['legal_actions'][0]\n")
    set_code(page, code)
    run(page, deals=3)
    text = wait_error(page)
    assert "ZeroDivisionError" in text and "line 2" in text
    assert page.locator(ERROR).get_attribute("data-line") == "2"
    marked = page.locator("[data-testid=lab-editor] .cm-error-line")
    assert marked.count() == 1 and marked.get_attribute("data-error-line") == "2"
    assert "1 / 0" in marked.inner_text()
    assert 'File "bot.py", line 6, in choose' in text      # the student's frames only
    assert "atut" not in text.split("Traceback", 1)[-1].split("ZeroDivisionError")[0]


def test_illegal_action_is_refused_with_the_legal_ones(page, dist_url):
    open_lab(page, dist_url, game="euchre")
    set_code(page, "def choose(view):\n    return {'type': 'play', 'card': 'XX'}\n")
    run(page, deals=2)
    text = wait_error(page)
    assert '{"card":"XX","type":"play"}' in text and "not a legal action" in text
    legal = text.split("legal actions are", 1)[1]
    assert '"type":' in legal


def test_saved_bot_survives_a_reload_and_exports_for_the_cpython_arena(page, dist_url, tmp_path):
    open_lab(page, dist_url)
    code = ("from atut import botkit\n\n\ndef choose(view):\n"
            "    return botkit.rng(view).choice(view['legal_actions'])\n")
    set_code(page, code)
    page.fill("[data-testid=lab-name]", "my_first.py")
    page.click("[data-testid=lab-save]")
    page.wait_for_selector("[data-testid=lab-saved] [data-bot='my_first.py']")
    page.reload()
    page.wait_for_selector(READY, timeout=240_000)
    page.wait_for_selector("[data-testid=lab-saved] [data-bot='my_first.py']")
    set_code(page, "# something else\n")
    page.click("[data-testid=lab-saved] [data-open='my_first.py']")
    page.wait_for_function("(c) => window.atutLab.text === c", arg=code)
    # the saved bot is an opponent too
    assert page.locator("[data-testid=lab-opponent] option[value='bot:my_first.py']").count() == 1
    with page.expect_download() as d:
        page.click("[data-testid=lab-export]")
    assert d.value.suggested_filename == "my_first.py"
    path = tmp_path / "my_first.py"
    d.value.save_as(path)
    assert path.read_text(encoding="utf-8") == code
    r = subprocess.run([sys.executable, "-m", "atut", "arena", "sixty_six", "--bots",
                        f"{path},1", "--players", "2", "--deals", "4", "--seed", "3"],
                       cwd=ROOT, capture_output=True, text=True,
                       env={"PYTHONPATH": str(ROOT / "engine"), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    assert "my_first.py" in r.stdout and "4 duplicate" in r.stdout
    # a saved bot as the opponent (three players: it fills the other two seats)
    run(page, deals=2, opponent="bot:my_first.py", players=3)
    page.wait_for_selector("[data-testid=lab-report]", timeout=240_000)
    res = page.evaluate("() => window.atutLab.result")
    assert [b["name"] for b in res["bots"]] == ["my_first.py", "opponent_my_first.py"]
    assert res["players"] == 3 and [b["seats"] for b in res["bots"]] == [1, 2]


def test_cross_origin_fetch_from_the_page_is_blocked(page, dist_url, page_problems):
    """The page itself: a fetch to another origin is refused by the Content-Security-Policy
    (a bot's own reach is its box's: tests/browser/test_boxes.py)."""
    open_lab(page, dist_url)
    page_problems.allowed_errors.append("Content Security Policy")
    page_problems.allowed_errors.append("Failed to fetch")
    out = page.evaluate("""async () => {
        const seen = [];
        document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
        let error = null;
        try { await fetch('http://example.invalid:9/x'); } catch (e) { error = String(e); }
        await new Promise((r) => setTimeout(r, 200));
        return { error, seen };
    }""")
    assert out["error"] and "connect-src" in " ".join(out["seen"])
    page_problems.foreign.clear()                      # the refused request is the point


def test_crashing_bot_ends_its_box_only_and_the_arena_says_why(page, dist_url):
    open_lab(page, dist_url)
    set_code(page, (HOSTILE / "crash.py").read_text())
    run(page, deals=2)
    text = wait_error(page)
    assert "bot.py" in text and "box" in text and "exit(3)" in text, text
    # the lab goes on: its worker was never ended, a fixed bot runs at once
    assert page.locator(READY).count() == 1
    set_code(page, FIRST)
    run(page, deals=2)
    page.wait_for_selector("[data-testid=lab-report]", timeout=240_000)
    assert page.locator(ERROR).is_hidden()


def test_seeded_arena_equals_the_cpython_arena(page, dist_url):
    """The arena in the page (the lab's worker plays atut.arena.deal_steps, the bot files in
    their boxes) gives the command line's result for the same seed: the same per-deal rows,
    win shares, margins and intervals; a saved bot as the opponent too."""
    from atut import arena, lab
    open_lab(page, dist_url)
    src = lab.examples("sixty_six")["sixty_six_rules.py"]
    set_code(page, src)
    page.fill("[data-testid=lab-name]", "rules.py")
    page.fill("[data-testid=lab-seed]", "3")
    run(page, deals=4)
    page.wait_for_selector("[data-testid=lab-report]", timeout=240_000)
    got = page.evaluate("() => window.atutLab.result")
    want = arena.run("sixty_six", [lab.bot_from_source(src, "rules.py"), 1], players=2,
                     deals=4, seed=3)
    assert plain(got) == plain(json.loads(json.dumps(want)))
    # the same file as the opponent (three players: it fills two seats, a box each)
    page.click("[data-testid=lab-save]")
    page.wait_for_selector("[data-testid=lab-saved] [data-bot='rules.py']")
    run(page, deals=2, opponent="bot:rules.py", players=3)
    page.wait_for_function("() => window.atutLab.result && window.atutLab.result.players === 3",
                           timeout=240_000)
    got = page.evaluate("() => window.atutLab.result")
    want = arena.run("sixty_six", [lab.bot_from_source(src, "rules.py"),
                                   lab.bot_from_source(src, "opponent_rules.py")],
                     players=3, deals=2, seed=3)
    assert plain(got) == plain(json.loads(json.dumps(want)))


def plain(r):
    """An arena's result without its timings, its numbers to 9 places (Pyodide's libm and
    CPython's may differ in the last bit of a logarithm)."""
    def walk(x):
        if isinstance(x, float):
            return round(x, 9)
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [walk(v) for v in x]
        return x
    return walk({k: v for k, v in r.items() if k not in ("seconds", "deals_per_second")})


def test_the_labs_tab_is_in_the_link(page, dist_url):
    page.goto(f"{dist_url}#lab=sixty_six&tab=tournament&lang=en")
    page.wait_for_selector("[data-testid=lab-tab-tournament][aria-selected=true]", timeout=120_000)
    assert page.locator("#lab-pane-tournament").is_visible()
    page.click("[data-testid=lab-tab-editor]")
    page.wait_for_function("() => !location.hash.includes('tab=')")
    assert "lab=sixty_six" in page.evaluate("location.hash")
    page.click("[data-testid=lab-tab-tournament]")
    page.wait_for_function("() => location.hash.includes('tab=tournament')")
    page.reload()
    page.wait_for_selector("[data-testid=lab-tab-tournament][aria-selected=true]", timeout=120_000)
    assert page.locator("#lab-pane-editor").is_hidden()


@pytest.mark.parametrize("lang", ["pl"])
def test_lab_in_polish(page, dist_url, lang):
    open_lab(page, dist_url, lang=lang)
    assert page.locator("[data-testid=lab-run]").inner_text() == "Uruchom arenę"
    assert "Laboratorium" in page.locator(".lab-head h2").inner_text()
    set_code(page, "def choose(view):\n    return {'type': 'nope'}\n")
    run(page, deals=1)
    text = wait_error(page)
    assert "dozwolone akcje" in text, text


def test_every_html_page_declares_the_policy_and_inline_scripts_match_its_hashes():
    """The policy is a <meta> (static hosts send no headers); an inline script runs only when
    its sha256 is in script-src, so editing one without its hash would silently break it.
    The bot box's frame (web/box/box.html) has a stricter policy: no request at all
    (tests/test_box_frame.py)."""
    import base64
    import hashlib
    import re
    pages = [ROOT / "index.html"] + sorted((ROOT / "web").rglob("*.html"))
    for p in pages:
        text = p.read_text(encoding="utf-8")
        m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text)
        assert m, p
        policy = dict((d.split()[0], d.split()[1:]) for d in m.group(1).split("; "))
        if p.parent.name == "box":
            assert policy["default-src"] == ["'none'"] and policy["connect-src"] == ["'none'"]
        else:
            assert policy["default-src"] == ["'self'"] and policy["connect-src"] == ["'self'"]
            # blob: for the bot boxes' workers, which the box page (given to its frame as
            # srcdoc, under this policy too) makes from the source the page hands it
            assert policy["worker-src"] == ["'self'", "blob:"]
        assert "'unsafe-eval'" not in policy["script-src"]
        assert "'unsafe-inline'" not in policy["script-src"]
        scripts = re.findall(r"<script>(.*?)</script>", text, re.S)
        if p.name == "index.html":      # the box's page keeps the app's policy (srcdoc)
            box = (ROOT / "web" / "box" / "box.html").read_text(encoding="utf-8")
            scripts += re.findall(r"<script>(.*?)</script>", box, re.S)
        for body in scripts:
            h = "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
            assert h in policy["script-src"], (p, h)


def _wheel(path):
    """A pure-Python wheel of one module, labhelper (made here: name, version, RECORD)."""
    import base64
    import hashlib
    import zipfile
    files = {
        "labhelper/__init__.py": "def first(view):\n    return view['legal_actions'][-1]\n",
        "labhelper-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: labhelper\n"
                                            "Version: 0.1\n",
        "labhelper-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\n"
                                         "Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{name},sha256={digest.decode()},{len(text.encode())}")
    record.append("labhelper-0.1.dist-info/RECORD,,")
    files["labhelper-0.1.dist-info/RECORD"] = "\n".join(record) + "\n"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return path


def test_a_wheel_from_a_file_is_installed_and_imported_by_the_bot(page, dist_url, tmp_path):
    open_lab(page, dist_url)
    set_code(page, "from labhelper import first\n\n\ndef choose(view):\n    return first(view)\n")
    page.click("[data-testid=lab-check]")
    assert "labhelper" in wait_error(page)              # not there yet: ModuleNotFoundError
    whl = _wheel(tmp_path / "labhelper-0.1-py3-none-any.whl")
    page.set_input_files("[data-testid=lab-wheel-file]", str(whl))
    page.wait_for_function("() => document.querySelector('[data-testid=lab-note]').textContent"
                           ".includes('Installed labhelper')", timeout=120_000)
    run(page, deals=2)
    page.wait_for_selector("[data-testid=lab-report]", timeout=240_000)
    assert page.locator(ERROR).is_hidden()
    # a file that is not a pure-Python wheel is refused, nothing else changes
    bad = tmp_path / "native-0.1-cp313-cp313-linux_x86_64.whl"
    bad.write_bytes(whl.read_bytes())
    page.set_input_files("[data-testid=lab-wheel-file]", str(bad))
    page.wait_for_function("() => document.querySelector('[data-testid=lab-note]').textContent"
                           ".includes('not a pure-Python wheel')", timeout=60_000)


def test_watch_a_whole_game_with_open_hands(page, dist_url):
    open_lab(page, dist_url)
    set_code(page, FIRST)
    page.select_option("[data-testid=lab-speed]", "0")
    page.click("[data-testid=lab-watch]")
    page.wait_for_selector("[data-testid=lab-watch-status][data-over='1']", timeout=240_000)
    steps = int(page.locator("[data-testid=lab-watch-status]").get_attribute("data-steps"))
    assert steps > 10
    assert page.locator("[data-watch-seat]").count() == 2
    assert page.locator(ERROR).is_hidden()
    # open hands are drawn as past cards: no data-card outside the table's own view
    assert page.locator("[data-testid=lab] [data-card]").count() == 0
    page.screenshot(path="/tmp/lab-watch-1280.png")


def test_the_lab_works_offline_after_one_visit(page, page_problems):
    """The lab's files (editor bundle, worker, bridge, micropip, the wheel, the box's page and
    worker) are precached: with the server gone and the network off, the lab starts and the
    arena plays the student's file in its boxes (a box's page is given to its frame as text,
    docs/LAB.md "Boxes", so it needs nothing from the network)."""
    from test_offline_page import wait_sw

    import build
    srv, base = build.serve_in_thread(build.DIST)
    page_problems.base = base
    try:
        open_lab(page, base)
        wait_sw(page)
    finally:
        srv.shutdown()
        srv.server_close()
    page.context.set_offline(True)
    page_problems.allowed_errors.append("ERR_INTERNET_DISCONNECTED")
    try:
        page.goto("about:blank")
        open_lab(page, base)
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        set_code(page, FIRST)
        run(page, deals=2)
        page.wait_for_selector("[data-testid=lab-report]", timeout=240_000)
        r = page.evaluate("() => window.atutLab.result")
        assert r["deals"] == 2 and r["bots"][0]["name"] == "bot.py"
        assert page.locator(ERROR).is_hidden()
    finally:
        page.context.set_offline(False)
