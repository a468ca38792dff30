"""The result panel shows the dealt hands on request, for Mucken (in the game's order)
and for a game with its own table module (Schafkopf)."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect


def _to_result(page: Any, ui: Any) -> None:
    end = time.monotonic() + 60
    while page.locator(".result").count() == 0:
        assert time.monotonic() < end, "the game did not end"
        if not ui.click_legal(page):
            page.wait_for_timeout(30)


def test_the_dealt_hands_are_shown_under_the_result(new_page: Any, ui: Any) -> None:
    page = new_page()
    ui.guest(page, "Hanni")
    ui.create_table(page, name="Aufgedeckt")
    _to_result(page, ui)
    show = page.locator(".result .choices .btn-ghost")
    expect(show).to_have_attribute("aria-expanded", "false")
    show.click()
    rows = page.locator(".result .dealt .dealt-row")
    expect(rows).to_have_count(4)
    assert rows.nth(0).locator(".card").count() == 6  # the short deck: six cards each
    expect(page.locator('.result [data-action="next"]')).to_be_visible()
    page.locator(".result .choices .btn-ghost").click()
    expect(page.locator(".result .dealt")).to_have_count(0)
    assert page.errors == []


def test_the_dealt_hands_of_a_schafkopf_hand(new_page: Any, ui: Any) -> None:
    page = new_page()
    ui.guest(page, "Sepp")
    page.goto(ui.base + "/")
    t = page.evaluate("""async () => {
        const me = await (await fetch('/api/me')).json();
        const r = await fetch('/api/tables', {method: 'POST', headers: {
            'content-type': 'application/json', 'x-csrf-token': me.user.csrf},
            body: JSON.stringify({game: 'schafkopf', preset: 'standard', bots: 'fill',
                                  bot: 'random', turn_timer: 0})});
        return r.json(); }""")
    page.goto(ui.base + t["url"])
    _to_result(page, ui)
    page.locator(".result .choices .btn-ghost").click()
    rows = page.locator(".result .dealt .dealt-row")
    expect(rows).to_have_count(4)
    assert rows.nth(0).locator(".card").count() == 8
    assert page.errors == []
