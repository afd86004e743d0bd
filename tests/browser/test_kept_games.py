"""Every move kept in the browser (web/lib/saved-games.js, autosave.js): a reload resumes the game where
it was, "Continue" in the menu, finished games in the statistics, and bad stored data (a
corrupt record, an older format, a full storage, a storage that refuses writes) with its notice
while the page goes on playing."""

from __future__ import annotations

import json
import time

from harness import (
    ENABLED_ACTION,
    open_game,
    page_actions,
    page_cards,
    play_whole_game,
    wait_for_turn,
)


def _table(page) -> dict:
    """What the person sees: the view, the cards and controls on the page, the scores."""
    return {"view": page.evaluate("() => window.atutPage.view"),
            "cards": sorted(page_cards(page)),
            "actions": sorted(page_actions(page)),
            "scores": page.locator("[data-testid=scores]").inner_text()}


def _click(page, n: int) -> None:
    for i in range(n):
        assert wait_for_turn(page) == "turn"
        controls = page.locator(ENABLED_ACTION)
        controls.nth(min(i % 2, controls.count() - 1)).click()
        page.wait_for_function("() => !document.querySelector('[data-action][disabled]')")


def _flush(page) -> None:
    assert page.evaluate("() => window.atutPage.flush()") is True


def _reload(page) -> None:
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.wait_for_function("() => window.atutPage && window.atutPage.view !== null")


def test_a_reload_mid_game_resumes_where_it_was(page, dist_url):
    open_game(page, dist_url, "tysiac1001", players=3, seed=5, seat=1, bots="2,1")
    _click(page, 6)
    assert wait_for_turn(page) == "turn"
    before = _table(page)
    _flush(page)
    hash_before = page.evaluate("() => location.hash")
    _reload(page)
    assert wait_for_turn(page) == "turn"
    assert _table(page) == before
    assert page.evaluate("() => location.hash") == hash_before
    # the same bots, and the game plays on to its end
    levels = page.eval_on_selector_all(".seat[data-seat]:not(.me) .lvl",
                                       "els => els.map(e => e.textContent)")
    assert sorted(levels) == ["bot 1", "bot 2"]


def test_the_menu_continues_an_unfinished_game(page, dist_url):
    open_game(page, dist_url, "euchre", players=4, seed=9, seat=0)
    _click(page, 3)
    assert wait_for_turn(page) == "turn"
    before = _table(page)
    _flush(page)
    page.goto("about:blank")
    page.goto(dist_url + "#lang=en")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    cont = page.locator("[data-testid=continue]")
    cont.first.wait_for(state="visible")
    assert cont.count() == 1
    cont.first.click()
    page.wait_for_function("() => window.atutPage.view !== null")
    assert wait_for_turn(page) == "turn"
    assert _table(page) == before
    assert "seed=9" in page.evaluate("() => location.hash")


def test_finished_games_make_the_statistics(page, dist_url):
    for seed in (1, 2):
        play_whole_game(page, dist_url, "sixty_six", players=2, seed=seed, seat=0)
        _flush(page)
    won = page.locator("[data-testid=game-over]").get_attribute("data-winner")
    page.goto("about:blank")
    page.goto(dist_url + "#lang=pl")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.locator("[data-testid=history] summary").click()
    row = page.locator("[data-testid=stats] tr[data-game=sixty_six]")
    row.wait_for(state="visible")
    assert row.count() == 1
    assert row.get_attribute("data-players") == "2" and row.get_attribute("data-levels") == "1"
    assert row.get_attribute("data-played") == "2"
    assert row.get_attribute("data-avg") != ""
    assert int(row.get_attribute("data-won")) >= (1 if won == "0" else 0)
    assert page.locator("[data-testid=recent] li").count() == 2
    assert "Historia i statystyki" in page.locator("[data-testid=history] summary").inner_text()
    assert page.locator("[data-testid=unfinished]").count() == 0


CORRUPT = """async (mode) => {
  const db = await new Promise((res, rej) => { const r = indexedDB.open('atut', 1); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const tx = db.transaction(['meta', 'saves'], 'readwrite');
  const metas = await new Promise((res) => { const r = tx.objectStore('meta').getAll(); r.onsuccess = () => res(r.result); });
  if (mode === 'save') for (const m of metas) tx.objectStore('saves').put({id: m.id, format: 1, text: '{"format": "atut-save", "actions": [tr'});
  if (mode === 'old') tx.objectStore('meta').put({id: 'from-2025', game: 'sixty_six', seed: 1, savedAt: 1});
  if (mode === 'junk') tx.objectStore('meta').put({id: 'junk', format: 1, game: 42});
  await new Promise((res) => { tx.oncomplete = res; });
  db.close();
  return metas.length;
}"""  # noqa: E501


def test_a_corrupt_record_gives_a_notice_and_the_page_plays_on(page, dist_url, tmp_path):
    open_game(page, dist_url, "sixty_six", players=3, seed=12, seat=0)
    _click(page, 2)
    _flush(page)
    # a second game kept as well: it must stay unharmed
    open_game(page, dist_url, "imperial", players=2, seed=3, seat=0)
    _click(page, 2)
    _flush(page)
    imperial = _table(page)
    assert page.evaluate(CORRUPT, "junk") == 2
    assert page.evaluate(CORRUPT, "old") == 3
    page.goto("about:blank")
    page.goto(dist_url + "#lang=en")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    note = page.locator("[data-testid=notice-bad]")
    note.wait_for(state="visible")
    text = note.inner_text()
    assert "older version" in text and "could not be read: 1" in text
    assert page.locator("[data-testid=continue]").count() == 2          # the good ones stay
    with page.expect_download() as dl:
        page.click("[data-testid=bad-download]")
    path = tmp_path / "bad.json"
    dl.value.save_as(path)
    bad = json.loads(path.read_text())
    assert sorted(b["fault"] for b in bad) == ["bad", "old"]
    assert {b["content"]["meta"]["id"] for b in bad} == {"junk", "from-2025"}
    page.click("[data-testid=bad-discard]")
    note.wait_for(state="detached")
    # now a save that does not parse: resuming it by its link gives the notice, a fresh game
    page.evaluate(CORRUPT, "save")
    open_game(page, dist_url, "imperial", players=2, seed=3, seat=0)
    note.wait_for(state="visible")
    assert "could not be read: 1" in note.inner_text()          # only the one resumed
    assert wait_for_turn(page) == "turn"
    assert _table(page)["view"] != imperial["view"]            # a fresh deal, not the lost one
    play_whole_game(page, dist_url, "imperial", players=2, seed=3, seat=0, open_page=False)
    with page.expect_download() as dl:
        page.click("[data-testid=bad-download]")
    dl.value.save_as(path)
    assert any("[tr" in json.dumps(b["content"]) for b in json.loads(path.read_text()))


# a full storage: the worker's writes of the store fail as IndexedDB fails them when the quota
# is used up (the worker writes the saves; Playwright's init scripts do not reach a worker)
FULL = "(full) => window.atutPage.request('debug_store_full', {full})"


def test_a_full_storage_gives_a_notice_and_the_page_plays_on(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=2, seed=21, seat=0)
    _click(page, 1)
    _flush(page)
    assert page.evaluate(FULL, True) is True
    _click(page, 1)
    _flush(page)
    note = page.locator("[data-testid=notice-store]")
    note.wait_for(state="visible")
    assert "storage is full" in note.inner_text()
    play_whole_game(page, dist_url, "sixty_six", players=2, seed=21, seat=0, open_page=False)
    # room again: the next game is kept and the notice goes
    assert page.evaluate(FULL, False) is False
    page.click("[data-testid=play-again]")
    page.fill("input[data-k=seed]", "22")
    page.click("[data-testid=new-game]")
    page.wait_for_function("() => location.hash.includes('seed=22')")
    _click(page, 1)
    _flush(page)
    note.wait_for(state="detached")
    # the game kept before the storage filled up is still there, unharmed
    page.goto("about:blank")
    page.goto(dist_url + "#lang=en")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.locator("[data-testid=continue]").first.wait_for(state="visible")
    assert page.locator("[data-testid=continue]").count() == 2


NO_STORAGE = """
(() => {
  const refuse = () => { throw new DOMException('The operation is insecure.', 'SecurityError'); };
  try { Object.defineProperty(window, 'indexedDB', { get: refuse, configurable: true }); } catch (_) {}
  try { Storage.prototype.setItem = function () { throw new DOMException('quota', 'QuotaExceededError'); }; } catch (_) {}
})();
"""  # noqa: E501


def test_a_storage_that_refuses_writes_says_games_are_not_kept(page, dist_url):
    page.add_init_script(NO_STORAGE)
    open_game(page, dist_url, "sixty_six", players=2, seed=4, seat=0, lang="pl")
    note = page.locator("[data-testid=notice-store]")
    note.wait_for(state="visible")
    assert "gry nie zostaną zachowane" in note.inner_text()
    page.click("[data-testid=lang-en]")
    page.wait_for_function("() => document.querySelector('[data-testid=notice-store]')"
                           ".innerText.includes('will not be kept')")
    play_whole_game(page, dist_url, "sixty_six", players=2, seed=4, seat=0, open_page=False)
    assert page.locator("[data-testid=game-over]").is_visible()
    t0 = time.time()
    page.click("[data-testid=play-again]")
    assert page.locator("[data-testid=store-off]").is_visible()
    assert time.time() - t0 < 30


def _review_at(page, k: int) -> tuple[str, str]:
    """The open review stepped to move ``k``: its title and the hands it shows."""
    page.wait_for_selector("[data-testid=review-panel]")
    page.keyboard.press("Home")
    for _ in range(k):
        page.locator("[data-testid=review-next]").click()
    assert page.locator("[data-testid=review-step]").get_attribute("data-step-index") == str(k)
    assert page.locator("[data-testid=review-panel] [data-card]").count() == 0
    assert page.locator("[data-testid=review-panel] [data-past-card]").count() > 0
    return (page.locator("[data-testid=review-panel] .review-head b").inner_text(),
            page.locator("[data-testid=review-panel] .review-hands").inner_text())


def test_a_history_entry_opens_its_review(page, dist_url):
    play_whole_game(page, dist_url, "sixty_six", players=2, seed=4, seat=0, delay=0)
    _flush(page)
    deal = page.evaluate("() => window.atutPage.request('review')")
    page.locator("[data-testid=review]").click()
    shown = _review_at(page, 1)
    page.goto("about:blank")
    page.goto(dist_url + "#lang=en")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.locator("[data-testid=history] summary").click()
    entry = page.locator("[data-testid=recent] li [data-testid=history-review]")
    entry.wait_for(state="visible")
    assert entry.count() == 1 and entry.inner_text() == "Review"
    entry.click()
    assert _review_at(page, 1) == shown
    assert str(deal["deal_no"]) in shown[0]
    assert page.evaluate("() => window.atutPage.view.is_over") is True
    page.keyboard.press("End")
    assert page.locator("[data-testid=review-next]").is_disabled()
    # the finished game stays finished: not among the unfinished ones, once in the history
    page.keyboard.press("Escape")
    _flush(page)
    page.goto("about:blank")
    page.goto(dist_url + "#lang=pl")
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    page.locator("[data-testid=history] summary").click()
    entry.wait_for(state="visible")
    assert entry.count() == 1 and entry.inner_text() == "Analiza"
    assert page.locator("[data-testid=unfinished]").count() == 0
