"""The browser UI against the real server, in headless Chromium.

1. A guest opens a table with three bots and plays a whole game by clicking; the
   score sheet then shows the game.
2. Two people (two browser contexts) at one table: each sees only their own hand;
   one reloads in the middle of a trick and the hand and trick come back.
3. The English UI on a phone (390x844): hand, trick, score sheet and buttons do not
   overlap and stay inside the viewport width.
4. Chat text is shown as text: an HTML payload creates no element.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect


def _wait(page: Any, cond: Any, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        page.wait_for_timeout(30)


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not rendered"
    return dict(box)


def _union(boxes: list[dict[str, float]]) -> dict[str, float]:
    x0 = min(b["x"] for b in boxes)
    y0 = min(b["y"] for b in boxes)
    x1 = max(b["x"] + b["width"] for b in boxes)
    y1 = max(b["y"] + b["height"] for b in boxes)
    return {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


def test_guest_plays_a_whole_game_against_three_bots(new_page, ui, artifacts: Path) -> None:
    page = new_page()
    wire = ui.wire(page)
    ui.guest(page, "Anna")
    ui.create_table(page, name="Anna und drei Bots")
    expect(page.locator(".seat-bottom .name")).to_have_text("Anna")
    expect(page.locator(".seat .tag-bot")).to_have_count(3)

    # the first choice by keyboard: "1" selects the first legal card or call, Enter plays it
    first = page.locator('[data-legal="true"]:not([disabled])').first
    expect(first).to_be_visible()
    page.keyboard.press("1")
    expect(first).to_be_focused()
    chosen = first.get_attribute("data-action")
    assert chosen in wire.last["view"]["legal"]
    version = wire.last["version"]
    page.keyboard.press("Enter")
    _wait(page, lambda: wire.last["version"] > version)  # bots wait for Anna: it was hers
    assert wire.errors == []
    # dealer is seat 0, so Anna's first turn is her call in the first bidding round
    assert {"seat": 0, "call": chosen} in wire.last["view"]["calls"]

    ui.play_until([page], lambda: page.locator(".result").count() > 0)

    result = wire.last["view"]["result"]
    assert result is not None
    expect(page.locator(".result .verdict")).to_be_visible()
    expect(page.locator(".result-table")).to_contain_text(str(result["augen"][0]))
    expect(page.locator(".result button.next")).to_be_visible()
    # the Spielstandzettel has the game, with the points in the credited pair's column
    entry = page.locator('.paper .entry[data-game="1"]')
    expect(entry).to_have_count(1)
    entry_json = wire.last["table"]["sheet"]["bobbl"][0]["entries"][0]
    if entry_json["pair"] is not None and entry_json["written"]:
        expect(entry.locator(f".c-pair{entry_json['pair']} .total")).to_have_text(
            str(entry_json["points"]))
    page.screenshot(path=str(artifacts / "desktop-result-de.png"), full_page=True)

    # the next game starts from the result panel
    page.locator(".result button.next").click()
    expect(page.locator(".result")).to_have_count(0)
    expect(page.locator(".table-meta")).to_contain_text("Spiel 2")
    assert page.errors == []


def test_two_people_see_only_their_own_hands_and_survive_a_reload(
        new_page, ui, artifacts: Path) -> None:
    anna, bert = new_page(), new_page()
    wa, wb = ui.wire(anna), ui.wire(bert)
    ui.guest(bert, "Bert")  # Bert waits in the lobby
    ui.guest(anna, "Anna")
    ui.create_table(anna, name="Zu zweit", fill=False)
    # the table appears in Bert's lobby without a reload; he takes seat 3 (index 2: partner)
    card = bert.locator(".table-card", has_text="Zu zweit")
    expect(card).to_be_visible()
    card.locator('button.sit[data-seat="2"]').click()
    bert.wait_for_url("**/t/*")
    expect(anna.locator('.seat[data-seat="2"] .name')).to_have_text("Bert")
    # Anna fills the two free seats with bots; the game starts
    anna.locator(".action-bar .btn-primary").click()
    expect(anna.locator(".fan .card")).to_have_count(6, timeout=10_000)
    expect(bert.locator(".fan .card")).to_have_count(6)

    hand_a = wa.last["view"]["hand"]
    hand_b = wb.last["view"]["hand"]
    assert wa.last["table"]["you"] == 0 and wb.last["table"]["you"] == 2
    assert len(hand_a) == 6 and not set(hand_a) & set(hand_b)
    # what each page shows is exactly its own hand, in the order received
    assert ui.hand(anna) == [ui.card_name(c) for c in hand_a]
    assert ui.hand(bert) == [ui.card_name(c) for c in hand_b]
    # and nothing of the other's hand is in the DOM or in the data it received
    for page, other in ((anna, hand_b), (bert, hand_a)):
        shown = page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        labels = page.locator("[aria-label]").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))")
        assert not set(shown) & set(other)
        assert not {ui.card_name(c) for c in other} & set(labels)
    assert all("dealt" not in s["view"] for s in wa.states + wb.states if s["view"])
    assert all(s["view"]["hand"] == [] or s["view"]["hand"][0] not in hand_b
               for s in wa.states if s["view"])

    def mid_trick_annas_turn() -> bool:
        v = wa.last["view"]
        if not (v is not None and v["phase"] == "play" and 1 <= len(v["trick"]) <= 3
                and v["to_act"] == 0):
            return False
        # settled: no card of Anna's still on its way (the table waits for her now)
        version = wa.last["version"]
        anna.wait_for_timeout(250)
        return wa.last["version"] == version

    # a spectator (not logged in) sees the table but no hand at all
    spectator = new_page()
    spectator.goto(anna.url)
    expect(spectator.locator(".seat")).to_have_count(4)
    expect(spectator.locator(".hand-area")).to_contain_text("Du schaust zu")
    assert spectator.locator(".fan .card").count() == 0
    on_table = {c["card"] for c in wa.last["view"]["trick"]}
    shown = spectator.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert set(shown) <= on_table
    spectator.close()

    ui.play_until([anna, bert], mid_trick_annas_turn)
    trick = [c["card"] for c in wa.last["view"]["trick"]]
    expected_hand = wb.last["view"]["hand"]
    bert.reload()
    # after the reload Bert sees his hand and the trick on the table again
    expect(bert.locator(".fan .card")).to_have_count(len(expected_hand))
    assert ui.hand(bert) == [ui.card_name(c) for c in expected_hand]
    expect(bert.locator(".trick")).to_have_attribute("data-cards", " ".join(trick))
    bert.screenshot(path=str(artifacts / "reload-mid-trick.png"), full_page=True)
    # and play goes on to the end of the game for both
    ui.play_until([anna, bert], lambda: anna.locator(".result").count() > 0)
    expect(bert.locator(".result")).to_be_visible()
    assert anna.errors == [] and bert.errors == []


def test_english_phone_layout_has_no_overlap(new_page, ui, artifacts: Path) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                    device_scale_factor=2)
    wire = ui.wire(page)
    page.goto(ui.base + "/")
    page.locator("button[data-lang=en]").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#guest-h")).to_have_text("Play as guest")
    page.screenshot(path=str(artifacts / "phone-lobby-en.png"), full_page=True)
    ui.guest(page, "Zoe")
    # the choice made before logging in is stored with the account (POST /api/me/language)
    _wait(page, lambda: page.evaluate(
        "fetch('/api/me').then(r => r.json()).then(d => d.user.language)") == "en")
    expect(page.locator("#create-h")).to_have_text("Open a new table")
    ui.create_table(page, name="Phone")

    def my_turn_with_cards_on_the_table() -> bool:
        v = wire.states[-1]["view"] if wire.states else None
        return (v is not None and v["phase"] == "play" and v["to_act"] == 0
                and len(v["trick"]) >= 1 and page.locator(".trick .trick-slot").count() >= 1)

    ui.play_until([page], my_turn_with_cards_on_the_table)
    expect(page.locator(".your-turn")).to_have_text("Your turn")
    expect(page.locator(".sheet-panel h2")).to_contain_text("Score sheet")
    expect(page.locator(".trick.held")).to_have_count(0)  # the last trick has been taken
    page.wait_for_timeout(300)  # let the fan settle
    page.screenshot(path=str(artifacts / "phone-table-en.png"), full_page=True)

    width = 390
    cards = [dict(c.bounding_box()) for c in page.locator(".fan .card").all()]
    assert cards, "the hand is shown"
    hand = _union(cards)
    trick = _box(page, ".trick")
    sheet = _box(page, ".sheet-panel")
    buttons = [dict(b.bounding_box()) for b in page.locator(".action-bar button").all()]
    seats = [dict(s.bounding_box()) for s in page.locator(".felt .seat").all()]
    regions = {"hand": hand, "trick": trick, "sheet": sheet}
    for i, b in enumerate(buttons):
        regions[f"button{i}"] = b
    names = list(regions)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not _overlap(regions[a], regions[b]), f"{a} overlaps {b}"
    for s in seats:
        assert not _overlap(s, trick), "a seat covers the trick"
        assert not _overlap(s, hand), "a seat covers the hand"
    for name, box in [*regions.items(), *(("seat", s) for s in seats), *(
            ("card", c) for c in cards)]:
        assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, f"{name} sticks out"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.errors == []


def test_chat_shows_html_as_text(new_page, ui) -> None:
    page = new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(ui.base + "/")
    # an API error is shown, not dropped: a too short password
    page.fill("#register-name", "Chatter")
    page.fill("#register-password", "kurz")
    page.evaluate("document.getElementById('register-password').removeAttribute('minlength')")
    page.locator("form[aria-labelledby=register-h] button[type=submit]").click()
    expect(page.locator(".toast")).to_contain_text("mindestens 8 Zeichen")
    ui.guest(page, "Chatter")
    ui.create_table(page, name="Plauderei")
    payload = "<img src=x onerror=alert(1)>"
    page.fill("#chat-input", payload)
    page.press("#chat-input", "Enter")
    msg = page.locator(".chat-log .chat-text").last
    expect(msg).to_have_text(payload)
    expect(page.locator(".chat-log .chat-name").last).to_have_text("Chatter")
    assert page.locator(".chat-log img").count() == 0
    assert page.locator("img").count() == 0
    page.wait_for_timeout(200)
    assert dialogs == []
    assert page.errors == []
