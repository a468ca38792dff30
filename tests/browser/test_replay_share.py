"""A game of a private table in the browser: its replay is addressed by an opaque id, it
opens for the player, shows a share link (German and English), and that link opens it
for somebody else; without the link the same address says "no such game".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect


def test_a_private_game_is_shared_by_its_link(new_page: Any, ui: Any, artifacts: Path) -> None:
    page = new_page()
    ui.guest(page, "Anna")
    page.uncheck("#c-public")
    page.fill("#c-name", "Geheime Runde")
    page.locator(".create-form button[type=submit]").click()
    page.locator(".invite a.btn-primary").click()  # a private table: its invite link first
    page.wait_for_url("**/t/**")
    table_id = page.url.rsplit("/t/", 1)[1].split("?")[0]
    ui.play_until([page], lambda: page.locator(".result").count() > 0, timeout=60)

    page.locator("nav a[href='/history']").click()
    games = page.evaluate("fetch('/api/me/games').then(r => r.json()).then(d => d.games)")
    game = next(g for g in games if g["table_id"] == table_id)
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", game["id"]) and game["public"] is False
    assert "user_id" not in str(game)
    page.locator(f'.history-table tr[data-game="{game["id"]}"] a.btn').click()
    page.wait_for_url(f"**/replay/{game['id']}")

    # the share panel: the link with the token, and what it means
    share = page.locator("#share-url")
    expect(share).to_have_value(ui.base + game["share_url"])
    assert "?share=" in game["share_url"]
    expect(page.locator(".share-panel h2")).to_have_text("Link teilen")
    expect(page.locator(".share-panel p")).to_contain_text("privaten Tisch")
    record_href = page.locator(".replay-head a[download]").get_attribute("href")
    assert record_href == f"/api/games/{game['id']}/record"
    page.locator("header button", has_text="EN").first.click()
    expect(page.locator(".share-panel h2")).to_have_text("Share link")
    expect(page.locator(".share-panel p")).to_contain_text("private table")
    page.screenshot(path=str(artifacts / "replay-share.png"), full_page=True)

    # somebody else (another browser, not logged in) with the link sees the game
    other = new_page()
    other.goto(ui.base + game["share_url"])
    expect(other.locator(".replay-felt")).to_be_visible()
    expect(other.locator(".replay-felt .open-cards .card").first).to_be_visible()
    expect(other.locator("#share-url")).to_have_value(ui.base + game["share_url"])
    token = game["share_url"].split("?share=", 1)[1]
    other_href = other.locator(".replay-head a[download]").get_attribute("href")
    assert other_href == f"/api/games/{game['id']}/record?share={token}"
    other.locator(".analysis-toggle").click()
    expect(other.locator(".analysis-summary")).to_be_visible(timeout=30_000)

    # ... and without the link the same address is "no such game"
    stranger = new_page()
    r = stranger.goto(f"{ui.base}/replay/{game['id']}")
    assert r is not None and r.status == 404
    expect(stranger.locator(".replay")).to_contain_text("Dieses Spiel gibt es nicht.")
    expect(stranger.locator(".replay-felt")).to_have_count(0)
    assert page.errors == [] and other.errors == [] and stranger.errors == []
