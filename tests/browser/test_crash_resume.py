"""A crash mid-move loses at most the move being made (docs/PAGE.md "One writer, crashes and
persistent storage"): Chromium with a profile on disk plays a move, and its browser process is
killed with SIGKILL at a seeded moment 0-300 ms after the click, twenty times over.  Each restart
resumes the game at a whole step: the person's actions in the kept save are exactly the moves
made, or all but the last one; no record is set aside as unreadable, and the resumed table is
the kept save's (the worker's game equals IndexedDB's).  Real Chromium, real Pyodide, real
IndexedDB, a real kill."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import build
from harness import (
    ENABLED_ACTION,
    game_url,
    person_actions,
    saved_game,
    stored,
    wait_for_turn,
    wait_until,
)

GAME = dict(game="euchre", players=4, seed=31, seat=0, bots="1", delay=0)
KILLS = 20

def _processes(profile: Path) -> tuple[int | None, set[int]]:
    """The browser process of `profile` (no --type) and every process under it."""
    parent: dict[int, int] = {}
    main = None
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            cmd = (d / "cmdline").read_bytes().split(b"\0")
            stat = (d / "stat").read_text()
        except OSError:
            continue
        parent[int(d.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        if f"--user-data-dir={profile}".encode() in cmd and not any(c.startswith(b"--type=") for c in cmd):
            main = int(d.name)
    kids: set[int] = set()
    if main is not None:
        grew = True
        while grew:
            grew = False
            for pid, ppid in parent.items():
                if (ppid == main or ppid in kids) and pid not in kids:
                    kids.add(pid)
                    grew = True
    return main, kids


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _kill(main: int, kids: set[int]) -> None:
    """SIGKILL the browser process `main`; its children end by themselves (they are killed too
    if they have not after 5 s, so that the next start finds the profile free)."""
    os.kill(main, signal.SIGKILL)
    end = time.monotonic() + 5
    while time.monotonic() < end and any(_alive(p) for p in kids | {main}):
        time.sleep(0.05)
    for p in kids:
        if _alive(p):
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_a_killed_browser_resumes_at_a_whole_step(browser, dist_url, tmp_path):
    rng = random.Random(20261207)
    profile = tmp_path / "profile"
    link = game_url(dist_url, **GAME)
    made: list[dict] = []
    lost = 0
    start = time.monotonic()
    chromium = browser.browser_type          # the session's Playwright starts a browser of its own
    for i in range(KILLS + 1):
        ctx = chromium.launch_persistent_context(
            str(profile), executable_path=build.CHROMIUM, headless=True,
            args=build.CHROMIUM_ARGS, viewport={"width": 1280, "height": 800}, locale="en-US")
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.set_default_timeout(60_000)
        page.goto(link)
        page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
        wait_until(page, "() => window.atutPage && window.atutPage.view !== null", timeout=60_000)
        assert wait_for_turn(page) == "turn", "the game ended before the kills did"
        db = stored(page)
        assert db["bad"] == 0, f"restart {i}: a record was set aside as unreadable"
        assert page.locator("[data-testid=notice-bad]").count() == 0
        assert len(db["saves"]) == 1 and len(db["metas"]) == 1, f"restart {i}: {db['metas']}"
        kept = person_actions(db["saves"][0], GAME["seat"])
        # a whole step: the moves made, or all but the one being made when it died
        if kept == made[:-1] and made:
            made.pop()
            lost += 1
        assert kept == made, f"restart {i}: kept {kept}, made {made}"
        # the table is the kept save's
        assert person_actions(saved_game(page), GAME["seat"]) == kept
        if i == KILLS:
            ctx.close()
            break
        main, kids = _processes(profile)
        assert main is not None, "the browser process was not found"
        button = page.locator(ENABLED_ACTION).first
        made.append(json.loads(button.get_attribute("data-action")))
        button.click()
        # half the kills within the first 30 ms: while the move is on its way or written
        time.sleep(rng.uniform(0, 0.03) if rng.random() < 0.5 else rng.uniform(0, 0.3))
        _kill(main, kids)
        try:
            ctx.close()
        except Exception:        # the browser is gone: Playwright may say so
            pass
    print(f"{KILLS} kills: {len(made)} moves kept, {lost} lost at the kill, "
          f"{time.monotonic() - start:.0f} s")
