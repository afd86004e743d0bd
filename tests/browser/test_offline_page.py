"""Installable and offline (sw.js from workbox-build, web/lib/offline.js): after one visit the
app starts and plays a whole game with the network off, under a sub-path with the service
worker's scope right; a rebuilt dist/ is taken as a whole (never mixed with the old build), and
old caches go.  Also the build's manifests, icons and precache list (no browser)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import time

import build
from harness import open_game, play_whole_game, wait_for_turn

SW_ACTIVE = """async () => {
  const r = await navigator.serviceWorker.getRegistration();
  return r && r.active && r.active.state === 'activated' ? r.scope : null;
}"""


def wait_sw(page, timeout: float = 120) -> str:
    end = time.time() + timeout
    while time.time() < end:
        scope = page.evaluate(SW_ACTIVE)
        if scope:
            return scope
        time.sleep(0.3)
    raise AssertionError("the service worker did not activate")


def _serve(site):
    srv, root = build.serve_in_thread(site)
    return srv, root


def test_offline_after_one_visit_under_a_sub_path(page, tmp_path, page_problems):
    site = tmp_path / "site"
    (site / "games" / "cards").mkdir(parents=True)
    os.symlink(build.DIST, site / "games" / "cards" / "atut")
    srv, root = _serve(site)
    base = root + "games/cards/atut/"
    page_problems.base = root
    try:
        open_game(page, base, "sixty_six", players=2, seed=7, seat=0)
        assert wait_sw(page) == base                        # the scope is the app's folder
        assert page.evaluate("() => window.atutPage.build") == json.loads(
            (build.DIST / "web" / "build.json").read_text())["build"]
    finally:
        srv.shutdown()
        srv.server_close()
    # the server is gone and the browser is offline: the app starts from the service worker
    page.context.set_offline(True)
    try:
        page.goto("about:blank")
        page.goto(base + "#game=sixty_six&players=2&seed=8&seat=0&bots=1&delay=0&lang=pl&debug=1")
        page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        assert page.evaluate("() => window.atutPage.engineBuild") == page.evaluate(
            "() => window.atutPage.build")
        clicks = play_whole_game(page, base, "sixty_six", players=2, seed=8, seat=0,
                                 open_page=False)
        assert clicks > 0 and page.locator("[data-testid=game-over]").is_visible()
        # every game's rules are there too (each game module is imported when it starts)
        for game, n in (("cesarz", 3), ("euchre", 4), ("imperial", 2), ("tysiac1001", 3)):
            page.goto("about:blank")
            page.goto(base + f"#game={game}&players={n}&seed=1&bots=1&delay=0&debug=1")
            page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
            assert wait_for_turn(page) in ("turn", "over")
    finally:
        page.context.set_offline(False)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const c = await caches.open(name);
    const files = {};
    for (const req of await c.keys()) {
      const body = await (await c.match(req)).arrayBuffer();
      const d = await crypto.subtle.digest('SHA-256', body);
      files[new URL(req.url).pathname] = [...new Uint8Array(d)].map(b => b.toString(16).padStart(2, '0')).join('');
    }
    out[name] = files;
  }
  return out;
}"""  # noqa: E501


# build B's bridge: its info reply carries a mark
MARK_B = """

_handle_a = handle


def handle(op, args_json, caller="page"):
    import json
    r = json.loads(_handle_a(op, args_json, caller))
    if op == "info" and r.get("ok"):
        r["result"]["mark"] = "B"
    return json.dumps(r)
"""


def test_a_new_build_is_taken_whole_and_old_caches_go(page, tmp_path, page_problems):
    a = tmp_path / "a"
    shutil.copytree(build.DIST, a, symlinks=False)
    b = tmp_path / "b"
    shutil.copytree(a, b)
    # build B: a changed page file and a changed bridge, then its own build id and sw.js
    core = b / "web" / "i18n" / "core.js"
    core.write_text(core.read_text().replace("offline in your browser.",
                                             "offline in your browser (B)."))
    bridge = b / "web" / "bridge.py"
    bridge.write_text(bridge.read_text() + MARK_B)
    build.write_service_worker(b)
    id_a = json.loads((a / "web" / "build.json").read_text())["build"]
    id_b = json.loads((b / "web" / "build.json").read_text())["build"]
    assert id_a != id_b
    site = tmp_path / "site"
    site.mkdir()
    os.symlink(a, site / "app")
    srv, root = _serve(site)
    base = root + "app/"
    page_problems.base = root
    try:
        open_game(page, base, "sixty_six", players=3, seed=30, seat=0)
        wait_sw(page)
        # a start under the service worker: build A, all from its cache
        open_game(page, base, "sixty_six", players=3, seed=30, seat=0)
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        assert page.evaluate("() => window.atutPage.build") == id_a
        for _ in range(2):
            assert wait_for_turn(page) == "turn"
            page.locator("[data-action]:not([disabled])").first.click()
        assert wait_for_turn(page) == "turn"
        view = page.evaluate("() => window.atutPage.view")
        # deploy B; the page finds it in the background and offers to reload
        os.unlink(site / "app")
        os.symlink(b, site / "app")
        page.evaluate("() => window.atutPage.checkForUpdate()")
        note = page.locator("[data-testid=notice-update]")
        note.wait_for(state="visible", timeout=120_000)
        assert "new version" in note.inner_text()
        # meanwhile the page runs A whole: a file asked for now is A's
        text = page.evaluate("() => fetch('web/i18n/core.js').then(r => r.text())")
        assert "(B)" not in text
        info = page.evaluate("() => window.atutPage.request('info')")
        assert "mark" not in info
        # reload: B, all of it; the game in progress goes on where it was
        responses = []
        page.on("response", lambda r: responses.append(r))
        page.click("[data-testid=update-reload]")
        page.wait_for_function(f"() => window.atutPage && window.atutPage.build === '{id_b}'",
                               timeout=120_000)
        page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
        page.wait_for_function("() => window.atutPage.view !== null")
        assert page.evaluate("() => window.atutPage.engineBuild") == id_b
        assert page.evaluate("() => window.atutPage.request('info')")["mark"] == "B"
        assert page.evaluate("() => window.atutPage.view") == view
        page.wait_for_load_state("networkidle")
        ours = [r for r in responses if r.url.startswith(base)]
        seen = {r.url[len(base):].split("?")[0] for r in ours}
        assert {"index.html", "web/worker.js", "web/bridge.py", "web/pyodide/pyodide.asm.wasm",
                "web/pyodide/python_stdlib.zip", "web/build.json"} <= (seen | {"index.html"})
        assert any(p.startswith("web/wheels/") for p in seen)
        for r in ours:
            path = r.url[len(base):].split("?")[0].split("#")[0] or "index.html"
            if r.request.method != "GET" or path == "sw.js":
                continue
            assert r.from_service_worker, r.url
            assert _sha(r.body()) == _sha((b / path).read_bytes()), f"{path} is not build B's"
        # one cache left, exactly build B's files
        caches = page.evaluate(CACHED)
        assert list(caches) == [f"atut-{id_b}-precache-v2-{base}"]
        files = caches[f"atut-{id_b}-precache-v2-{base}"]
        prefix = "/app/"
        for pathname, digest in files.items():
            assert digest == _sha((b / pathname[len(prefix):]).read_bytes()), pathname
        want = {p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file()} - {"sw.js"}
        assert {p[len(prefix):] for p in files} == want
    finally:
        srv.shutdown()
        srv.server_close()


# --- the build's parts, no browser -------------------------------------------------------------

def test_manifests_icons_and_the_precache_list():
    d = build.DIST
    for name, lang in (("manifest.webmanifest", "en"), ("manifest.pl.webmanifest", "pl")):
        m = json.loads((d / name).read_text(encoding="utf-8"))
        assert m["lang"] == lang and m["display"] == "standalone" and m["theme_color"]
        assert m["start_url"] == "./" and m["scope"] == "./"
        assert ("gry karciane" in m["name"]) == (lang == "pl")
        for icon in m["icons"]:
            f = d / icon["src"]
            assert f.is_file(), icon
            if f.suffix == ".png":
                data = f.read_bytes()
                assert data[:8] == b"\x89PNG\r\n\x1a\n"
                w, h = struct.unpack(">II", data[16:24])
                assert icon["sizes"] == f"{w}x{h}"
    html = (d / "index.html").read_text()
    assert 'rel="manifest" href="manifest.webmanifest"' in html
    sw = (d / "sw.js").read_text()
    info = json.loads((d / "web" / "build.json").read_text())
    assert info["build"] == build.build_id(d)
    assert f'"atut-{info["build"]}"' in sw or f"atut-{info['build']}" in sw
    assert "importScripts" not in sw and "googleapis" not in sw and "cdn" not in sw.lower()
    listed = set(re.findall(r'url:"([^"]+)"', sw))
    files = {p.relative_to(d).as_posix() for p in d.rglob("*") if p.is_file()} - {"sw.js"}
    assert listed == files
    assert len(re.findall(r"integrity:\"sha384-", sw)) == len(files)
