"""What a table does with people who are not there (issue 19), in Chromium at the four
viewports (one scenario or more at each):

1. 1366x768 — "Zur Lobby" at a table that waits (``Warten``): a spectator reads who is
   missing and since when; back after a while, no game was dealt and the turn is hers.
2. 1920x1080 — the tab closed at a table with ``Bot übernimmt`` and a short away time: a
   bot finished only the running game, the seat was freed, the table closed; no second
   game was dealt, and the history marks the game.
3. 390x844 — "Aufstehen" and "Wieder hinsetzen"; the lobby shows the seat free, never
   under the name of the one who stood up.
4. 844x390 (English) — three turn timers run out: a bot makes each move, then the table
   waits for her and says so; her next move and she is back.
5. 1366x768 — the lobby's form offers "Warten" / "Bot übernimmt" (by public/private until
   chosen); at a public table with ``Bot übernimmt`` a bot plays for Bert who closed his
   tab, Anna deals the next game, and the score sheet marks the stand-in game; Bert finds
   his table in the lobby ("Zum Tisch", his seat without his name) and is back.
6. 1366x768 — Schafkopf money: the hand a bot finished for a player who stood up is
   marked in the history with the amount it booked for her, in euros.

Short timers come from the table-creation fields (``turn_timer``, ``away_timeout``).
"""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import expect


def _api(page: Any, method: str, path: str, body: Any = None) -> Any:
    """A JSON request from the page, with its session and CSRF token (like the UI's)."""
    out = page.evaluate("""async ([method, path, body]) => {
        const csrf = (document.cookie.split("; ").find((c) => c.startsWith("stammtisch_csrf="))
          ?? "").split("=")[1] ?? "";
        const r = await fetch(path, { method, credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
          body: body === null ? undefined : JSON.stringify(body) });
        return { status: r.status, body: await r.json() };
    }""", [method, path, body])
    return out


def _create(page: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("turn_timer", 0)
    r = _api(page, "POST", "/api/tables", body)
    assert r["status"] == 200, r
    return dict(r["body"])


def _wait(page: Any, cond: Any, what: str, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        page.wait_for_timeout(40)


def _inside(page: Any, selector: str) -> None:
    """The element is on screen: inside the viewport, not clipped away."""
    expect(page.locator(selector).first).to_be_visible()
    box = None
    for _ in range(50):  # (the page draws the table anew on every state: ask again)
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(20)
    size = page.viewport_size
    assert box is not None, f"{selector} is not rendered"
    assert box["x"] >= -0.5 and box["y"] >= -0.5, (selector, box)
    assert box["x"] + box["width"] <= size["width"] + 0.5, (selector, box, size)
    assert box["y"] + box["height"] <= size["height"] + 0.5, (selector, box, size)


def test_zur_lobby_at_a_waiting_table_nothing_is_dealt(new_page, ui) -> None:
    page = new_page(viewport={"width": 1366, "height": 768})
    wire = ui.wire(page)
    ui.guest(page, "Hansi")
    t = _create(page, public=False, bots="fill", away_rule="wait", away_timeout=0)
    page.goto(f"{ui.base}{t['url']}")
    expect(page.locator(".seat-bottom .name")).to_have_text("Hansi")
    _wait(page, lambda: wire.states and wire.last["view"]
          and wire.last["view"]["to_act"] == 0, "Hansi's turn")
    assert wire.last["table"]["away_rule"] == "wait"
    # "Zur Lobby"
    page.locator("a.back").first.click()
    page.wait_for_selector(".create-form")
    # a spectator with the invite reads the pause
    watcher = new_page(viewport={"width": 1366, "height": 768})
    ui.guest(watcher, "Gerti")
    watcher.goto(f"{ui.base}{t['url']}")
    line = watcher.locator(".pause-line")
    expect(line).to_have_text("Die Runde wartet auf Hansi (weg seit weniger als einer Minute).")
    _inside(watcher, ".pause-line")
    watcher.wait_for_timeout(2500)  # the bots' delay is 0.05 s: they would have played
    # back at the table: still game 1, still Hansi's turn, no pause any more
    page.goto(f"{ui.base}{t['url']}")
    expect(page.locator(".seat-bottom .name")).to_have_text("Hansi")
    _wait(page, lambda: wire.last["table"]["waiting_for"] == [], "Hansi back")
    assert wire.last["table"]["game_number"] == 1 and wire.last["view"]["to_act"] == 0
    assert all(s["table"]["game_number"] <= 1 for s in wire.states)
    expect(page.locator(".pause-line")).to_have_count(0)
    expect(watcher.locator(".pause-line")).to_have_count(0)
    assert page.errors == [] and watcher.errors == []


def test_tab_closed_a_bot_finishes_only_the_running_game(new_page, ui) -> None:
    page = new_page(viewport={"width": 1920, "height": 1080})
    ui.guest(page, "Resi")
    t = _create(page, bots="fill", away_rule="bot", away_timeout=2)
    tab = page.context.new_page()
    wire = ui.wire(tab)
    tab.goto(f"{ui.base}{t['url']}")
    _wait(tab, lambda: wire.states and wire.last["view"]
          and wire.last["view"]["to_act"] == 0, "Resi's turn")
    tab.close()
    # a bot finishes the hand, the seat is freed after 2 s, nobody sits: the table closes
    page.wait_for_timeout(4000)
    wire = ui.wire(page)
    page.goto(f"{ui.base}/t/{t['id']}")
    expect(page.locator(".closed-line")).to_have_text(
        "Niemand sitzt mehr am Tisch – der Tisch ist geschlossen.")
    _inside(page, ".closed-line")
    table = wire.last["table"]
    assert table["status"] == "finished" and table["game_number"] == 1
    assert table["stand_in_games"] == [{"game": 1, "seats": [0]}]
    expect(page.locator(".seat .sit")).to_have_count(0)  # nobody sits down at a closed table
    games = _api(page, "GET", "/api/me/games")["body"]["games"]
    assert len(games) == 1 and games[0]["bot_for_you"] >= 1
    page.goto(f"{ui.base}/history")
    expect(page.locator(".history-table .bot-for-you")).to_have_count(1)
    assert page.errors == []


def test_aufstehen_and_sit_down_again(new_page, ui) -> None:
    anna = new_page(viewport={"width": 390, "height": 844})
    bert = new_page(viewport={"width": 390, "height": 844})
    ui.guest(anna, "Anna")
    t = _create(anna, bots=[2, 3], away_rule="bot")
    ui.guest(bert, "Bert")
    wire = ui.wire(bert)
    assert _api(bert, "POST", f"/api/tables/{t['id']}/join", {"seat": 1})["status"] == 200
    anna.goto(f"{ui.base}{t['url']}")
    bert.goto(f"{ui.base}{t['url']}")
    expect(bert.locator(".seat-bottom .name")).to_have_text("Bert")
    bert.once("dialog", lambda d: d.accept())
    bert.locator("button.leave").click()
    again = bert.locator(".seat .sit-again")
    expect(again).to_have_text("Wieder hinsetzen")
    _inside(bert, ".seat .sit-again")
    _wait(bert, lambda: wire.last["table"]["you"] is None, "Bert standing")
    assert wire.last["table"]["seats"][1]["kind"] == "empty"
    # the lobby: the seat is free, Bert's name is gone
    anna_lobby = _api(anna, "GET", "/api/tables")["body"]["tables"]
    (entry,) = [e for e in anna_lobby if e["id"] == t["id"]]
    assert entry["free"] == [1] and "Bert" not in str(entry["seats"])
    again.click()
    expect(bert.locator(".seat-bottom .name")).to_have_text("Bert")
    _wait(bert, lambda: wire.last["table"]["you"] == 1, "Bert seated again")
    expect(bert.locator("button.leave")).to_be_visible()
    assert anna.errors == [] and bert.errors == []


def test_three_timeouts_count_as_away(new_page, ui) -> None:
    page = new_page(viewport={"width": 844, "height": 390})
    wire = ui.wire(page)
    ui.guest(page, "Molly")
    assert _api(page, "POST", "/api/me/language", {"language": "en"})["status"] == 200
    t = _create(page, public=False, bots="fill", turn_timer=1)  # private: it waits
    page.goto(f"{ui.base}{t['url']}")
    expect(page.locator(".seat-bottom .name")).to_have_text("Molly")
    _wait(page, lambda: wire.states and wire.last["table"]["away_rule"] == "wait", "state")
    # three turns pass by: each time a bot makes that one move for her
    expect(page.locator(".seat-bottom .tag-timed-out")).to_have_text("time's up")
    expect(page.locator(".pause-line")).to_have_count(0)  # one timeout: no pause
    line = page.locator(".pause-line")
    expect(line).to_have_text("The table is waiting for you – make your move and play goes on.",
                              timeout=30_000)
    _inside(page, ".pause-line")
    expect(page.locator(".seat-bottom .tag-away")).to_have_text("away")
    assert wire.last["table"]["waiting_for"] == [0]
    assert sum(1 for s in wire.states if s["table"]["seats"][0]["timed_out"]) >= 3
    version = wire.last["version"]
    page.wait_for_timeout(1500)  # no timer runs for her now: the table stands still
    assert wire.last["version"] == version
    _wait(page, lambda: ui.click_legal(page), "a legal move")
    _wait(page, lambda: wire.last["table"]["waiting_for"] == [], "back at the table")
    expect(page.locator(".pause-line")).to_have_count(0)
    assert page.errors == []


def test_public_table_bot_uebernimmt(new_page, ui) -> None:
    anna = new_page(viewport={"width": 1366, "height": 768})
    wire = ui.wire(anna)
    ui.guest(anna, "Anna")
    rule = anna.locator("#c-away-rule")
    expect(rule).to_have_value("bot")  # public by default: Bot übernimmt
    expect(rule.locator("option")).to_have_text(["Warten", "Bot übernimmt"])
    anna.uncheck("#c-public")
    expect(rule).to_have_value("wait")  # among friends: Warten
    anna.check("#c-public")
    expect(rule).to_have_value("bot")
    anna.uncheck("#c-fill")
    ui.create_table(anna, name="Offene Runde", fill=False)
    tid = anna.url.rsplit("/t/", 1)[1].split("?")[0]
    _wait(anna, lambda: wire.states and wire.last["table"]["away_rule"] == "bot", "the rule")
    assert _api(anna, "POST", f"/api/tables/{tid}/bots", {"seats": [2, 3]})["status"] == 200
    bert = new_page(viewport={"width": 1366, "height": 768})
    ui.guest(bert, "Bert")
    bert.locator(f'.table-card[data-table="{tid}"] button.sit').click()
    bert.wait_for_url("**/t/*")
    expect(bert.locator(".seat-bottom .name")).to_have_text("Bert")
    _wait(anna, lambda: wire.last["table"]["game_number"] == 1, "game 1")
    bert_ctx = bert.context
    bert.close()
    _wait(anna, lambda: wire.last["table"]["seats"][1]["away"], "Bert away")
    expect(anna.locator('.seat[data-seat="1"] .tag-stand-in')).to_be_visible()
    expect(anna.locator(".pause-line")).to_have_count(0)  # a bot plays: no pause
    lobby = _api(anna, "GET", "/api/tables")["body"]["tables"]
    (entry,) = [e for e in lobby if e["id"] == tid]
    assert entry["seats"][1] == {"name": "", "kind": "bot", "away": True}
    ui.play_until([anna], lambda: anna.locator(".result").count() > 0, timeout=60)
    anna.locator(".result button.next").click()
    _wait(anna, lambda: wire.last["table"]["game_number"] == 2, "game 2 dealt by Anna")
    marks = wire.last["table"]["stand_in_games"]
    assert {"game": 1, "seats": [1]} in marks
    expect(anna.locator('.stand-in-games li[data-game="1"]')).to_have_text(
        "Spiel 1: Ein Bot hat für Bert gespielt.")
    # Bert in the lobby: his table is his ("Zum Tisch"), his seat shown without his name
    back = bert_ctx.new_page()
    errors: list[str] = []
    back.on("pageerror", lambda e: errors.append(str(e)))
    back.set_viewport_size({"width": 1366, "height": 768})
    back.goto(f"{ui.base}/")
    card = back.locator(f'.table-card[data-table="{tid}"]')
    expect(card.locator(".seat-slot.away")).to_have_text("Bot vertritt")
    expect(card).not_to_contain_text("Bert")
    card.locator("a.watch").click()
    expect(back.locator(".seat-bottom .name")).to_have_text("Bert")
    _wait(anna, lambda: not wire.last["table"]["seats"][1]["away"], "Bert back")
    assert anna.errors == [] and errors == []


def test_schafkopf_money_of_a_stand_in_game_is_shown(new_page, ui) -> None:
    """A Schafkopf hand a bot finished for Vroni after she stood up: the history marks it
    and shows the amount it booked for her, in euros."""
    page = new_page(viewport={"width": 1366, "height": 768})
    wire = ui.wire(page)
    ui.guest(page, "Vroni")
    t = _create(page, game="schafkopf", bots="fill", bot="random")
    page.goto(f"{ui.base}{t['url']}")
    _wait(page, lambda: wire.states and wire.last["view"]
          and wire.last["view"]["to_act"] == 0, "Vroni's turn")
    page.once("dialog", lambda d: d.accept())
    page.locator("button.leave").click()
    expect(page.locator(".closed-line")).to_be_visible(timeout=30_000)
    (game,) = _api(page, "GET", "/api/me/games")["body"]["games"]
    assert game["bot_for_you"] >= 1
    cents = game["result"]["payments"][0]
    amount = f"{abs(cents) // 100},{abs(cents) % 100:02d}"
    page.goto(f"{ui.base}/history")
    row = page.locator(".history-table tr.bot-for-you")
    expect(row).to_have_count(1)
    expect(row.locator(".bot-for-you-note")).to_be_visible()
    cell = row.locator("td.won, td.lost")
    expect(cell).to_contain_text(amount)
    expect(cell).to_contain_text("€")
    if cents:
        expect(cell).to_contain_text(re.compile(r"\+" if cents > 0 else "[-\u2212]"))
    assert page.errors == []
