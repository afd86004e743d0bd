"""Chromium soak: `python3 build.py soak-page [--games N] [--seed S] [--person hint|random]`
(long runs, docs/RESULTS.md).

One page, never reloaded, plays N whole games (50 by default) one after the other, cycling
through every built game and player count: each game starts by a new URL hash (hashchange) with
`bots=3&delay=0`, so every bot seat is level 3, and the person's seat is played by the level-3
analysis too (the page's `hint` request, the very search of the level-3 bot, through the
`[data-action]` control of its best action; a decision of one action is just clicked).

After every game it records the worker's memory: the Python heap (the test-only bridge op
`debug_memory`: the gc object count after a collection and the wasm memory's size, which holds
the whole Python heap) and the worker's JS heap (a CDP session on the worker target:
`HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage`), and the page's JS heap the same way.
It prints the curve (one row per game) and whether the last game's figures are within 20% of
those after the first game.  Figures only: nothing here is asserted (the suite's short version
is tests/browser/test_soak_page.py).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402

LEVEL = 3
TOLERANCE = 0.20

# The person's seat, played inside the page: one enabled [data-action] control is clicked; of
# several, the one of the level-3 analysis's best action (the hint; `--person random`: a random
# one, which halves the run time of a two-player game), else a random one.
PLAY_TO_END = """async ([maxSteps, useHint]) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const P = window.atutPage;
  let decisions = 0, waited = 0;
  for (let step = 0; step < maxSteps; step++) {
    if (document.querySelector('[data-testid=game-over]')) return {decisions, over: true};
    const bs = [...document.querySelectorAll('[data-action]:not([disabled])')];
    if (!bs.length) {
      await sleep(15);
      waited += 15;
      if (waited > 600000) return {decisions, over: false, stuck: true};
      continue;
    }
    waited = 0;
    let pick = bs[Math.floor(Math.random() * bs.length)];
    if (bs.length > 1 && useHint) {
      try {
        const h = await P.request('hint', {});
        const want = P.canonical(h.best);
        pick = bs.find((b) => b.dataset.action === want) || bs[0];
      } catch (_) { /* the turn moved on: take the first */ }
    }
    if (!pick.isConnected || pick.disabled) continue;
    pick.click();
    decisions++;
    await sleep(0);
  }
  return {decisions, over: false};
}"""

NEW_GAME = """(hash) => new Promise((resolve) => {
  const before = window.atutPage.view;
  location.hash = hash;
  const t0 = performance.now();
  const check = () => {
    const v = window.atutPage.view;
    const over = document.querySelector('[data-testid=game-over]');
    if (v && !over && !v.is_over && (!before || JSON.stringify(v) !== JSON.stringify(before))) return resolve(true);
    if (performance.now() - t0 > 120000) return resolve(false);
    setTimeout(check, 20);
  };
  check();
})"""  # noqa: E501


class WorkerCDP:
    """A CDP session on the page's worker target (Runtime.getHeapUsage of the worker)."""

    def __init__(self, browser, page):
        self.page = page
        self.cdp = browser.new_browser_cdp_session()
        targets = self.cdp.send("Target.getTargets")["targetInfos"]
        worker = [t for t in targets if t["type"] == "worker" and "worker.js" in t["url"]]
        if not worker:
            raise RuntimeError("no worker target")
        self.session = self.cdp.send("Target.attachToTarget", {"targetId": worker[0]["targetId"],
                                                               "flatten": False})["sessionId"]
        self.replies: dict[int, dict] = {}
        self.next_id = 1
        self.cdp.on("Target.receivedMessageFromTarget", self._on_message)

    def _on_message(self, e):
        m = json.loads(e["message"])
        if "id" in m:
            self.replies[m["id"]] = m

    def send(self, method: str, params: dict | None = None, timeout: float = 30.0) -> dict:
        i = self.next_id
        self.next_id += 1
        self.cdp.send("Target.sendMessageToTarget", {
            "sessionId": self.session,
            "message": json.dumps({"id": i, "method": method, "params": params or {}})})
        end = time.monotonic() + timeout
        while i not in self.replies:
            if time.monotonic() > end:
                raise TimeoutError(f"no reply to {method} from the worker")
            self.page.wait_for_timeout(20)
        m = self.replies.pop(i)
        if "error" in m:
            raise RuntimeError(f"{method}: {m['error']}")
        return m["result"]

    def heap(self) -> int:
        self.send("HeapProfiler.collectGarbage")
        return int(self.send("Runtime.getHeapUsage")["usedSize"])


def configs(page) -> list[tuple[str, int]]:
    """(game, players) of every built game and seat count, from the engine's info."""
    info = page.evaluate("() => window.atutPage.request('info', {})")
    return [(g, n) for g in info["built"] for n in info["classes"][g]["players"]]


def game_hash(game: str, players: int, seed: int, lang: str = "en", level: int = LEVEL) -> str:
    return (f"#game={game}&players={players}&seed={seed}&seat=0&bots={level}&delay=0"
            f"&lang={lang}&debug=1")


def measure(page, worker: WorkerCDP, page_cdp) -> dict:
    py = page.evaluate("() => window.atutPage.request('debug_memory', {collect: true})")
    page_cdp.send("HeapProfiler.collectGarbage")
    return {"py_objects": py["gc_objects"], "wasm_bytes": py["wasm_bytes"],
            "worker_js": worker.heap(),
            "page_js": int(page_cdp.send("Runtime.getHeapUsage")["usedSize"])}


def open_page(browser, url: str, first: str):
    ctx = browser.new_context(viewport={"width": 1366, "height": 800}, locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + first)
    page.wait_for_selector("body[data-engine=ready]", timeout=180_000)
    page.wait_for_function("() => window.atutPage && window.atutPage.view !== null")
    return ctx, page, errors


def soak(browser, url: str, games: int, seed: int = 1, out=print, max_steps: int = 20000,
         hint: bool = True, level: int = LEVEL, cycle: list | None = None, after=None):
    """Play `games` whole games in one page (cycling through `cycle`, [(game, players)], by
    default every built game and seat count); returns (rows, errors).  Each row: game,
    players, seed, decisions, seconds, over and the memory figures after the game.  `after`
    (page) runs on the same page after the last game."""
    first = game_hash("sixty_six", 2, seed, level=level)
    ctx, page, errors = open_page(browser, url, first)
    try:
        cycle = cycle or configs(page)
        worker = WorkerCDP(browser, page)
        page_cdp = ctx.new_cdp_session(page)
        rows = []
        out(f"{'#':>3} {'game':<11} {'n':>2} {'seed':>5} {'moves':>5} {'s':>6} "
            f"{'py objects':>10} {'wasm MB':>8} {'worker JS MB':>12} {'page JS MB':>10}")
        for k in range(games):
            game, players = cycle[k % len(cycle)]
            s = seed + k
            if k > 0 or (game, players) != ("sixty_six", 2):
                if not page.evaluate(NEW_GAME, game_hash(game, players, s, level=level)):
                    raise RuntimeError(f"game {k + 1} ({game}, {players}) did not start")
            t0 = time.monotonic()
            r = page.evaluate(PLAY_TO_END, [max_steps, hint])
            secs = time.monotonic() - t0
            m = measure(page, worker, page_cdp)
            row = {"k": k + 1, "game": game, "players": players, "seed": s,
                   "decisions": r["decisions"], "over": r["over"], "seconds": secs, **m}
            rows.append(row)
            out(f"{k + 1:>3} {game:<11} {players:>2} {s:>5} {r['decisions']:>5} {secs:>6.1f} "
                f"{m['py_objects']:>10} {(m['wasm_bytes'] or 0) / 2**20:>8.1f} "
                f"{m['worker_js'] / 2**20:>12.2f} {m['page_js'] / 2**20:>10.2f}"
                + ("" if r["over"] else "  NOT OVER"))
        if after is not None:
            after(page)
        return rows, errors
    finally:
        ctx.close()


def growth(rows: list[dict]) -> dict:
    """The last row's figures relative to the first row's (1.0 = no growth)."""
    a, z = rows[0], rows[-1]
    out = {}
    for key in ("py_objects", "wasm_bytes", "worker_js", "page_js"):
        if a.get(key):
            out[key] = z[key] / a[key]
    return out


def main(argv: list[str]) -> int:
    games, seed, hint = 50, 1, True
    i = 0
    while i < len(argv):
        if argv[i] == "--games" and i + 1 < len(argv):
            games = max(1, int(argv[i + 1]))
            i += 2
        elif argv[i] == "--person" and i + 1 < len(argv) and argv[i + 1] in ("hint", "random"):
            hint = argv[i + 1] == "hint"
            i += 2
        elif argv[i] == "--seed" and i + 1 < len(argv):
            seed = int(argv[i + 1])
            i += 2
        else:
            print(__doc__)
            return 2
    from playwright.sync_api import sync_playwright
    t0 = time.monotonic()
    with build.served_dist() as url:
        with sync_playwright() as p:
            b = build.launch_chromium(p)
            rows, errors = soak(b, url, games, seed, out=lambda s: print(s, flush=True), hint=hint)
            b.close()
    person = f"the person's seat by the level-{LEVEL} hint" if hint else "the person's seat random"
    print(f"\n{len(rows)} games in one page, level-{LEVEL} bots, {person}, "
          f"{time.monotonic() - t0:.0f} s; {sum(r['over'] for r in rows)} finished")
    names = {"py_objects": "Python objects", "wasm_bytes": "wasm memory",
             "worker_js": "worker JS heap", "page_js": "page JS heap"}
    for key, ratio in growth(rows).items():
        verdict = "within" if ratio <= 1 + TOLERANCE else "NOT within"
        print(f"  {names[key]:<15} last / after the first game = {ratio:5.2f}  "
              f"({verdict} {TOLERANCE:.0%})")
    print(f"  console errors: {len(errors)}" + "".join(f"\n    {e}" for e in errors[:10]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
