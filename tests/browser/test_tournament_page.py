"""The lab's Tournament tab (docs/LAB.md, "Tournament"; web/lib/lab/tournament.js) in Chromium
with real Pyodide: a small class tournament of 66 played in the page (bot files in boxes, a
level in the lab's worker), its JSON exported through the real button and checked in CPython:
``atut.tournament.verify`` accepts it and ``atut.tournament.run`` (process boxes) with the same
seeds and files plays the same games and gives the same board.  A file that fails its
self-play check is left out with its reason; a hostile file (tests/fixtures/hostile/loop.py,
looping in some deals only) loses those games by time-out, named on the board, and the
tournament goes on; the exported file opened again shows the same board; a game opens in the
review with every hand open; the tab in Polish, by keyboard, with bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import atut
from atut import tournament
from atut.arena import deal_setup

HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"
FIRST = "def choose(view):\n    return view['legal_actions'][0]\n"
LAST = "def choose(view):\n    return view['legal_actions'][-1]\n"
TAB = "[data-testid=lab-tab-tournament]"
STATE = "[data-testid=tny-state]"


def open_tab(page, url, lang="en"):
    page.goto(f"{url}#lab=sixty_six&lang={lang}")
    page.wait_for_selector(TAB, timeout=120_000)
    page.click(TAB)
    page.wait_for_selector("[data-testid=tny] [data-testid=tny-start]", timeout=60_000)


def add_files(page, files: dict[str, str]):
    page.set_input_files("[data-testid=tny-files]", files=[
        {"name": n, "mimeType": "text/x-python", "buffer": s.encode()} for n, s in files.items()])


def add_level(page, level: int):
    page.select_option("[data-testid=tny-level]", str(level))
    page.click("[data-testid=tny-add-level]")


def settings(page, deals=2, limit=10, seed=1):
    page.select_option("[data-testid=tny-players]", "2")
    page.fill("[data-testid=tny-deals]", str(deals))
    page.fill("[data-testid=tny-limit]", str(limit))
    page.fill("[data-testid=tny-seed]", str(seed))


def run_to_end(page):
    page.click("[data-testid=tny-start]")
    page.wait_for_selector(f"{STATE}[data-state=done]", timeout=600_000)


def export_json(page, tmp_path) -> tuple[Path, dict]:
    with page.expect_download() as dl:
        page.click("[data-testid=tny-json]")
    path = tmp_path / "results.json"
    dl.value.save_as(path)
    return path, json.loads(path.read_text(encoding="utf-8"))


def board_text(page) -> str:
    return page.inner_text("[data-testid=tny-board] tbody")


def _same(rec: dict) -> dict:
    """A game's record without its timings (measured, not replayed)."""
    out = {k: v for k, v in rec.items() if k != "times"}
    if out.get("error"):
        out["error"] = {k: v for k, v in out["error"].items() if k != "messages"}
    return out


def test_tournament_in_the_page_is_the_command_lines(page, dist_url, tmp_path):
    """Two files and level 2, 66 for two, two duplicate deals a pairing: the exported JSON
    verifies, and the command line's run of the same files and seed has the same games and
    board; opened again it shows the same board; a game reviews with both hands open."""
    open_tab(page, dist_url)
    add_files(page, {"first.py": FIRST, "last.py": LAST})
    add_level(page, 2)
    assert page.locator("[data-testid=tny-entries] li[data-entry]").count() == 3
    settings(page, deals=2, limit=10, seed=3)
    run_to_end(page)
    bar = page.locator("[data-testid=tny-progress]")
    assert bar.get_attribute("data-done") == bar.get_attribute("data-total") == "12"
    shown = board_text(page)
    path, got = export_json(page, tmp_path)

    assert tournament.verify(got) == []
    want = tournament.run("sixty_six", [tournament.Entry("first.py", source=FIRST),
                                        tournament.Entry("last.py", source=LAST), "2"],
                          players=2, deals=2, seed=3, time_limit=10.0)
    for key in ("format", "version", "game", "players", "deals", "seed", "mode", "time_limit",
                "deal_seeds", "entries", "excluded"):
        assert got[key] == want[key], key
    assert [_same(g) for g in got["games"]] == [_same(g) for g in want["games"]]
    assert tournament._comparable(got["board"]) == tournament._comparable(want["board"])
    names = [got["board"]["rows"][e]["name"] for e in got["board"]["order"]]
    assert page.eval_on_selector_all("[data-testid=tny-board] tbody tr",
                                     "rows => rows.map(r => r.dataset.name)") == names

    # the CSV is the engine's to_csv
    with page.expect_download() as dl:
        page.click("[data-testid=tny-csv]")
    csv_text = Path(dl.value.path()).read_text(encoding="utf-8")
    assert csv_text.splitlines()[0] == tournament.to_csv(want).splitlines()[0]
    assert [r.split(",")[1] for r in csv_text.splitlines()[1:]] == names

    # a game of the tournament in the review, every hand open, step by step
    page.fill("[data-testid=tny-game]", "5")
    page.click("[data-testid=tny-review]")
    panel = page.locator("[data-testid=tny-review-panel]")
    panel.wait_for()
    assert panel.get_attribute("data-game") == "4"
    assert int(panel.get_attribute("data-steps")) == len(got["games"][4]["save"]["actions"])
    assert panel.locator(".review-hand").count() == 2
    assert panel.locator(".review-hand").nth(0).locator(".chip, svg, [class*=card]").count() > 0
    page.keyboard.press("End")
    assert panel.locator("[data-step-index]").get_attribute("data-step-index") == \
        str(int(panel.get_attribute("data-steps")) - 1)

    # the exported file opened again, in a fresh tab: the same board
    page.reload()
    page.wait_for_selector(TAB, timeout=120_000)
    page.click(TAB)
    page.wait_for_selector("[data-testid=tny-open]")
    page.set_input_files("[data-testid=tny-open-file]", str(path))
    page.wait_for_selector(f"{STATE}[data-state=opened]", timeout=300_000)
    assert board_text(page) == shown
    assert "12" in page.inner_text("[data-testid=tny-note]")


def _loops_in_deal_zero(seed: int) -> str:
    """loop.py's endless loop, entered only when the trump is deal 0's (not the self-play
    check's deal): the file passes its check, then times out in the tournament's deal 0."""
    trumps = []
    for d in (-1, 0):
        ds, deck, dealer = deal_setup("sixty_six", 2, seed, d)
        g = atut.new_game("sixty_six", players=2, seed=ds, dealer=dealer, deck=deck)
        trumps.append(g.view(g.to_move)["trump"])
    assert trumps[0] != trumps[1]
    loop = (HOSTILE / "loop.py").read_text().replace("def choose(view):", "def _never(view):")
    return (loop + f"\n\ndef choose(view):\n    if view['trump'] == {trumps[1]!r}:\n"
            "        return _never(view)\n    return view['legal_actions'][0]\n")


def test_failing_files_are_left_out_or_lose_and_the_tournament_goes_on(page, dist_url):
    """nochoose.py fails its self-play check (shown with its reason, left out, named on the
    board); a looping file loses its deal-0 games by time-out, each named with its reason, and
    every game of the schedule is still played."""
    open_tab(page, dist_url)
    add_files(page, {"first.py": FIRST, "nochoose.py": (HOSTILE / "nochoose.py").read_text(),
                     "looper.py": _loops_in_deal_zero(2)})
    add_level(page, 1)
    settings(page, deals=2, limit=3, seed=2)
    run_to_end(page)
    out = page.locator("[data-testid=tny-entries] li[data-name='nochoose.py']")
    assert out.get_attribute("data-status") == "out"
    assert "choose" in out.inner_text()
    assert page.locator("[data-testid=tny-excluded] li[data-name='nochoose.py']").count() == 1
    for name in ("first.py", "looper.py", "1 random"):
        assert page.locator(f"[data-testid=tny-entries] li[data-name='{name}']") \
            .get_attribute("data-status") == "ok"
    bar = page.locator("[data-testid=tny-progress]")
    assert bar.get_attribute("data-done") == bar.get_attribute("data-total") == "12"
    row = page.locator("[data-testid=tny-board] tr[data-name='looper.py']")
    assert int(row.get_attribute("data-timeouts")) == 4          # 2 opponents x 2 rotations
    assert int(row.get_attribute("data-errors")) == 4
    errs = page.locator("[data-testid=tny-errors] li[data-name='looper.py'][data-kind=timeout]")
    assert errs.count() == 4
    assert "no answer within 3 s" in errs.first.inner_text()
    first = page.locator("[data-testid=tny-board] tr[data-name='first.py']")
    assert first.get_attribute("data-errors") == "0"


def test_tab_in_polish_by_keyboard_and_bad_input_changes_nothing(page, dist_url):
    page.goto(f"{dist_url}#lab=sixty_six&lang=pl")
    tab = page.locator(TAB)
    tab.wait_for(timeout=120_000)
    assert tab.text_content() == "Turniej"
    page.locator("[data-testid=lab-tab-editor]").focus()
    page.keyboard.press("ArrowRight")                          # the tab pattern
    page.wait_for_selector("[data-testid=tny]")
    assert tab.get_attribute("aria-selected") == "true"
    assert page.evaluate("document.activeElement.dataset.testid") == "lab-tab-tournament"
    assert page.text_content("#tny-title") == "Turniej klasowy"
    assert page.text_content("[data-testid=tny-start]") == "Rozpocznij turniej"
    # a level added with the keyboard: focus the select's button, Enter
    page.locator("[data-testid=tny-add-level]").focus()
    page.keyboard.press("Enter")
    assert page.locator("[data-testid=tny-entries] li[data-entry]").count() == 1
    page.locator("[data-testid=tny-start]").focus()
    page.keyboard.press("Space")
    assert "Stół potrzebuje 2 uczestników" in page.inner_text("[data-testid=tny-note]")
    page.locator("[data-testid=tny-add-level]").focus()
    page.keyboard.press("Enter")
    page.fill("[data-testid=tny-deals]", "0")
    page.click("[data-testid=tny-start]")
    assert "Liczba rozdań na parę" in page.inner_text("[data-testid=tny-note]")
    assert page.get_attribute(STATE, "data-state") == "idle"
    assert page.locator("[data-testid=tny-progress]").is_hidden()
    # a file that is no .py is refused by name, in Polish
    page.set_input_files("[data-testid=tny-files]", files=[
        {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"x"}])
    assert "notes.txt" in page.inner_text("[data-testid=tny-note]")
    assert "nie dodano" in page.inner_text("[data-testid=tny-note]")
    assert page.locator("[data-testid=tny-entries] li[data-entry]").count() == 2
    # remove by keyboard
    page.locator("[data-testid=tny-entries] [data-remove]").first.focus()
    page.keyboard.press("Enter")
    assert page.locator("[data-testid=tny-entries] li[data-entry]").count() == 1


def test_files_dropped_and_saved_bots_are_added(page, dist_url):
    page.goto(f"{dist_url}#lab=sixty_six&lang=en")
    page.wait_for_selector(TAB, timeout=120_000)
    page.evaluate("""([a, b]) => localStorage.setItem('atut.lab.bots', JSON.stringify({
        'saved_a.py': {source: a, game: 'sixty_six', saved: 1},
        'saved_b.py': {source: b, game: 'sixty_six', saved: 2}}))""", [FIRST, LAST])
    open_tab(page, dist_url)
    page.select_option("[data-testid=tny-saved]", "saved_b.py")
    page.click("[data-testid=tny-add-saved]")
    page.click("[data-testid=tny-add-all-saved]")
    page.evaluate("""([a, b]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([a], 'dropped_one.py', {type: 'text/x-python'}));
        dt.items.add(new File([b], 'dropped_two.py', {type: 'text/x-python'}));
        const zone = document.querySelector('[data-testid=tny-drop]');
        zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
    }""", [FIRST, LAST])
    page.wait_for_selector("[data-testid=tny-entries] li[data-name='dropped_two.py']")
    names = page.eval_on_selector_all("[data-testid=tny-entries] li[data-entry]",
                                      "ls => ls.map(l => l.dataset.name)")
    assert names == ["saved_b.py", "saved_a.py", "saved_b.py", "dropped_one.py",
                     "dropped_two.py"]


def test_pause_holds_the_games_and_stop_ends_the_tournament(page, dist_url):
    """Levels only (no box to start): Pause starts no new game, Resume goes on, Stop ends
    the tournament with the games played on the board."""
    open_tab(page, dist_url)
    add_level(page, 1)
    add_level(page, 2)
    settings(page, deals=300, limit=5, seed=1)
    page.click("[data-testid=tny-start]")
    page.wait_for_selector(f"{STATE}[data-state=running]", timeout=120_000)
    bar = page.locator("[data-testid=tny-progress]")
    page.wait_for_selector("[data-testid=tny-progress][data-done]:not([data-done='0'])")
    page.click("[data-testid=tny-pause]")
    assert page.get_attribute(STATE, "data-state") == "paused"
    assert page.get_attribute("[data-testid=tny-pause]", "aria-pressed") == "true"
    page.wait_for_timeout(1500)                     # the games under way end
    held = bar.get_attribute("data-done")
    page.wait_for_timeout(1500)
    assert bar.get_attribute("data-done") == held and int(held) < 600
    page.click("[data-testid=tny-pause]")
    page.wait_for_function("(n) => Number(document.querySelector("
                           "'[data-testid=tny-progress]').dataset.done) > n", arg=int(held))
    page.click("[data-testid=tny-stop]")
    page.wait_for_selector(f"{STATE}[data-state=stopped]", timeout=60_000)
    done = int(bar.get_attribute("data-done"))
    assert int(held) < done < 600
    games = page.eval_on_selector_all("[data-testid=tny-board] tbody tr",
                                      "rs => rs.map(r => Number(r.cells[4].textContent))")
    assert games == [done, done]
    assert not page.is_disabled("[data-testid=tny-start]")


@pytest.mark.parametrize("bad", ["{", json.dumps({"format": "something else"})])
def test_opening_a_file_that_is_no_results_says_so(page, dist_url, bad):
    open_tab(page, dist_url)
    page.set_input_files("[data-testid=tny-open-file]", files=[
        {"name": "x.json", "mimeType": "application/json", "buffer": bad.encode()}])
    note = page.locator("[data-testid=tny-note]")
    page.wait_for_selector("[data-testid=tny-note]:has-text('is not a tournament')",
                           timeout=240_000)
    assert "x.json" in note.inner_text()
    assert page.get_attribute(STATE, "data-state") == "idle"
