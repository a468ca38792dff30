"""Hints at the table and the analysis in the replay, in headless Chromium.

A guest opens a table with three bots and "Tipps erlauben".  In the bidding there is no
hint button; on her turn in the card play she asks for a hint: the card the server
suggests is highlighted in her hand and every legal card shows its expected Augen as a
badge (and in its accessible name), exactly as the server sent them.  The hint goes away
with the next state.  She plays the game to its end, opens the replay from "Meine
Spiele", turns the analysis on and sees the markers of GET /api/games/{id}/analysis: the
list of plays, the value before/after for a card and, when a card cost Augen, its
"−N Augen" marker with the better cards, on the table and in the step text.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect


def _augen(x: float) -> str:
    """A value as the German page writes it (Intl, at most one decimal)."""
    return f"{round(x, 1):g}".replace(".", ",")


class Hints:
    """Every hint message the page received on its table websocket."""

    def __init__(self, page: Any) -> None:
        self.messages: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        if "/ws/tables/" in ws.url:
            ws.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        try:
            msg = json.loads(payload)
        except (TypeError, ValueError):
            return
        if isinstance(msg, dict) and msg.get("type") == "hint":
            self.messages.append(msg)


def _wait(page: Any, cond: Any, timeout: float = 10.0, what: str = "condition") -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        page.wait_for_timeout(30)


def test_hint_at_the_table_and_analysis_in_the_replay(new_page, ui, artifacts: Path) -> None:
    page = new_page()
    wire = ui.wire(page)
    hints = Hints(page)
    ui.guest(page, "Hanna")
    expect(page.locator("label[for=c-hints]")).to_have_text("Tipps erlauben")
    page.check("#c-hints")
    table_id = ui.create_table(page, name="Mit Tipps")
    expect(page.locator(".table-head .hints-on")).to_have_text("Tipps erlaubt")
    _wait(page, lambda: bool(wire.states), what="the first state")
    assert wire.last["table"]["allow_hints"] is True

    def view() -> dict[str, Any] | None:
        return wire.states[-1]["view"] if wire.states else None

    def settled_turn() -> bool:
        v = view()
        return (v is not None and v["to_act"] == 0 and v["phase"] != "end"
                and page.locator('[data-legal="true"]:not([disabled])').count() > 0)

    def my_card_turn() -> bool:
        v = view()
        return settled_turn() and v is not None and v["phase"] == "play"

    # the bidding: Hanna's turn, but no hints there
    _wait(page, settled_turn, what="Hanna's first turn")
    if view()["phase"] != "play":  # type: ignore[index]
        expect(page.locator("#hint-btn")).to_have_count(0)

    # on to her first card: she answers calls (and starts a new game after one without
    # card play) in the action bar, never touching a card, so the position stays put
    end = time.monotonic() + 25
    while not my_card_turn():
        assert time.monotonic() < end, "no card play for Hanna in time"
        choice = page.locator('.actions [data-legal="true"]:not([disabled])').first
        if choice.count():
            with contextlib.suppress(Exception):  # re-rendered under the pointer: again
                choice.click(timeout=1000)
        page.wait_for_timeout(50)

    state = wire.last
    legal = state["view"]["legal"]
    btn = page.locator("#hint-btn")
    expect(btn).to_have_text("Tipp")
    expect(btn).to_be_enabled()
    btn.click()
    _wait(page, lambda: bool(hints.messages), timeout=30, what="the hint")
    hint = hints.messages[-1]
    assert hint["version"] == state["version"]
    assert hint["card"] in legal and set(hint["values"]) == set(legal)

    # the suggested card is highlighted, every legal card carries its value
    hinted = page.locator(".fan .card.hinted")
    expect(hinted).to_have_count(1)
    expect(hinted).to_have_attribute("data-card", hint["card"])
    expect(page.locator(".fan .hint-badge")).to_have_count(len(legal))
    for card, value in hint["values"].items():
        el = page.locator(f'.fan .card[data-card="{card}"]')
        expect(el.locator(".hint-badge")).to_have_text(_augen(value))
        assert float(el.get_attribute("data-value") or "nan") == value
        label = el.get_attribute("aria-label") or ""
        assert ui.card_name(card) in label and _augen(value) in label
        assert ("Tipp" in label) == (card == hint["card"])
    # said as a player says it: "Tipp: Eichel Zehn spielen."
    expect(page.locator(".hint-line .hint-label")).to_have_text(
        f"Tipp: {ui.card_name(hint['card'])} spielen.")
    expect(btn).to_be_disabled()  # one hint per state
    page.wait_for_timeout(250)  # let the lifted card settle
    page.screenshot(path=str(artifacts / "hint-table.png"), full_page=True)

    # playing the suggested card: the next state takes the hint away
    version = wire.last["version"]
    hinted.click()
    _wait(page, lambda: wire.last["version"] > version, what="the card played")
    expect(page.locator(".fan .hint-badge")).to_have_count(0)
    expect(page.locator(".hint-line")).to_have_count(0)
    assert wire.errors == []

    # the game to its end, then its replay from the history page
    ui.play_until([page], lambda: page.locator(".result").count() > 0, timeout=30)
    game_number = wire.last["table"]["game_number"]
    page.locator("nav a[href='/history']").click()
    games = page.evaluate("fetch('/api/me/games').then(r => r.json()).then(d => d.games)")
    game = next(g for g in games if g["table_id"] == table_id and g["number"] == game_number)
    row = page.locator(f'.history-table tr[data-game="{game["id"]}"]')
    row.locator("a.btn").click()
    page.wait_for_url(f"**/replay/{game['id']}")
    toggle = page.locator(".analysis-toggle")
    expect(toggle).to_have_text("Analyse zeigen")
    expect(page.locator(".loss-mark")).to_have_count(0)
    started = time.monotonic()
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".analysis-summary")).to_be_visible(timeout=30_000)
    took = time.monotonic() - started
    analysis = page.evaluate(
        f"fetch('/api/games/{game['id']}/analysis').then(r => r.json())")
    plays = analysis["plays"]
    assert plays, "the game had a card play"
    costly = [p for p in plays if p["loss"] > 0]
    expect(page.locator(".play-chip")).to_have_count(len(plays))
    expect(page.locator(".play-chip.costly")).to_have_count(len(costly))
    expect(page.locator(".play-chip.cost-game")).to_have_count(
        sum(1 for p in costly if p["cost_game"]))

    # jump to a costly card if there is one, else to the last card
    p = costly[0] if costly else plays[-1]
    page.locator(f'.play-chip[data-index="{p["index"]}"]').click()
    step = page.locator(".analysis-step")
    expect(step).to_have_attribute("data-index", str(p["index"]))
    expect(step.locator(".value-before")).to_have_text(f"vorher {p['value_before']}")
    expect(step.locator(".value-after")).to_have_text(f"nachher {p['value_after']}")
    if costly:
        mark = page.locator(".step-text .loss-mark")
        expect(mark).to_have_text(f"−{p['loss']} Augen")
        # the better cards by their names, never their codes (issue 19)
        better = "besser: " + ", ".join(ui.card_name(c) for c in p["best"])
        expect(page.locator(".step-text .better")).to_have_text(better)
        expect(step.locator(".better")).to_have_text(better)
        slot = page.locator(".trick .trick-slot.costly")
        expect(slot.locator(".loss-mark")).to_have_text(f"−{p['loss']}")
        expect(slot.locator(".card")).to_have_attribute("data-card", p["card"])
        if p["cost_game"]:
            expect(mark).to_have_class("loss-mark cost-game")
    else:
        expect(step.locator(".good-mark")).to_be_visible()
        expect(page.locator(".loss-mark")).to_have_count(0)
    page.screenshot(path=str(artifacts / "replay-analysis.png"), full_page=True)

    # hiding the analysis takes the markers away again
    page.locator(".analysis-toggle").click()
    expect(page.locator(".analysis-body")).to_have_count(0)
    expect(page.locator(".loss-mark")).to_have_count(0)
    assert took < 30
    assert page.errors == []
