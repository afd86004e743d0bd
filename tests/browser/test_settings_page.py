"""All settings in one panel (docs/PAGE.md): the language, the bots' speed (changed at once, in the
shareable hash), the hint and undo aids, large print and projector mode (kept in the browser,
not in the hash); both languages; Esc closes it."""

from __future__ import annotations

from harness import open_game, wait_for_turn


def test_settings_panel_keeps_and_applies(page, dist_url):
    open_game(page, dist_url, "sixty_six", players=2, seed=2, seat=0, bots="1", delay=0)
    wait_for_turn(page)
    button = page.locator("[data-testid=open-settings]")
    assert button.inner_text() == "Settings"
    button.click()
    panel = page.locator("[data-testid=settings]")
    panel.wait_for(state="visible")
    for word in ("Language", "Bot speed", "Large print", "Projector mode"):
        assert word in panel.text_content()
    assert panel.locator("input[data-aid=hints]").count() == 1
    # the bots' speed changes the table now and its link
    panel.locator("[data-testid=settings-delay]").select_option("1500")
    page.wait_for_function("() => location.hash.includes('delay=1500')")
    # the look: projector mode folds the side panels away, not part of the link
    hash_before = page.evaluate("() => location.hash")
    panel.locator("input[data-look=projector]").check()
    assert "look-projector" in page.locator("body").get_attribute("class")
    assert page.locator(".side").is_hidden()
    assert page.evaluate("() => location.hash") == hash_before
    # Polish, from the panel itself
    panel.locator("input[name=settings-lang][value=pl]").check()
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    assert "Język" in panel.text_content() and "Tryb rzutnika" in panel.text_content()
    assert button.inner_text() == "Ustawienia"
    page.keyboard.press("Escape")
    panel.wait_for(state="detached")
    # kept in the browser: a reload keeps the look and the menu's speed
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    assert "look-projector" in page.locator("body").get_attribute("class")
    assert page.evaluate("() => localStorage.getItem('atut.delay')") == "1500"
    page.locator("[data-testid=open-settings]").click()
    panel.wait_for(state="visible")
    panel.locator("input[data-look=projector]").uncheck()
    assert "look-projector" not in page.locator("body").get_attribute("class")
    assert page.locator(".side").is_visible()
