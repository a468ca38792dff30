"""Mulatschak at the table in the browser (issue 11): a person plays tables of 2 and 6 seats
(in English) and of 3 and 4 seats (in German) with a second person and bots — the table made in
the lobby with the players selector — through the cut (the slider), the Muli said out of
turn (the button beside the other person's turn), the bidding, the trump, the exchange
(cards picked in the hand), the tricks and the result, and the score column from 21 down
with its multiplier.  In each phase the hand, every button of the action bar and the
felt's centre lie inside the window at 1366x768, 1920x1080, 390x844 and 844x390 (the
measure of ``test_table_fit``)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from .test_table_fit import MEASURE, VIEWPORTS

I18N = Path(__file__).resolve().parents[2] / "src" / "stammtisch" / "server" / "static" / "i18n"


def _texts(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def _fit_problems(page: Any, phase: str, need: set[str]) -> list[str]:
    """What of the hand, the action bar and the felt's centre lies outside the window."""
    found: list[str] = []
    for w, hgt in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": hgt})
        m = page.evaluate(MEASURE)
        kinds = {b["kind"] for b in m["boxes"] if b["shown"]}
        for k in need - kinds:
            found.append(f"{phase} {w}x{hgt}: no {k} shown")
        for b in m["boxes"]:
            if not b["shown"]:
                continue
            where = f"{phase} {w}x{hgt}: {b['kind']} {b['label']!r}"
            if (b["x"] < -0.5 or b["y"] < -0.5 or b["x"] + b["w"] > w + 0.5
                    or b["y"] + b["h"] > hgt + 0.5):
                found.append(f"{where} outside the window: x={b['x']:.0f} y={b['y']:.0f} "
                             f"w={b['w']:.0f} h={b['h']:.0f}")
            if b["kind"] == "button" and b["sw"] > b["cw"] + 0.5:
                found.append(f"{where} clips its text ({b['sw']} > {b['cw']})")
    page.set_viewport_size({"width": 1366, "height": 768})
    return found


def _state(wire: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    if not wire.states:
        return None, None
    m = wire.last
    return m, m["view"]


def _click(page: Any, selector: str) -> bool:
    el = page.locator(selector).first
    if not el.count():
        return False
    try:
        el.click(timeout=1500)
    except Exception:  # re-rendered under the pointer: the loop tries again
        return False
    return True


def _discard(page: Any, v: dict[str, Any]) -> bool:
    """Pick as many cards as the ``ab`` words discard, then discard them."""
    words = [w for w in v["legal"] if w.startswith("ab ")]
    if not words or not page.locator("#mu-ab").count():
        return False
    for k in range(words[0].count(" ")):
        page.locator(".fan .card.mu-pick").nth(k).click()
    return _click(page, "#mu-ab")


def _wait_moved(page: Any, wire: Any, version: int, timeout: float = 5.0) -> None:
    """Let the page take messages until the table moved on from ``version`` (Playwright
    delivers them only while it is called: no ``time.sleep``)."""
    end = time.monotonic() + timeout
    while wire.states and wire.last["version"] == version and time.monotonic() < end:
        page.wait_for_timeout(20)


@pytest.mark.parametrize(("players", "lang"), [(2, "en"), (3, "de"), (4, "de"), (6, "en")])
def test_a_mulatschak_table_is_played_in_the_browser(new_page: Any, ui: Any, players: int,
                                                     lang: str) -> None:
    texts = _texts(lang)
    anna = new_page(viewport={"width": 1366, "height": 768})
    bert = new_page(viewport={"width": 1366, "height": 768})
    wa, wb = ui.wire(anna), ui.wire(bert)
    ui.guest(anna, f"Anna{players}")
    if lang == "en":
        anna.locator('.lang-switch [data-lang="en"]').click()
    # the lobby: Mulatschak with its players selector (2 to 6); no bots yet
    anna.select_option("#c-game", "mulatschak")
    options = anna.locator("#c-players option").evaluate_all("els => els.map(e => e.value)")
    assert options == ["2", "3", "4", "5", "6"]
    anna.select_option("#c-players", str(players))
    assert anna.locator("#c-seat option").count() == players
    anna.fill("#c-name", f"Mulatschak {players}")
    anna.uncheck("#c-fill")
    anna.locator(".create-form button[type=submit]").click()
    anna.wait_for_url("**/t/*")
    tid = anna.url.rsplit("/t/", 1)[1].split("?")[0]
    # Bert sits at seat 1, then Anna seats bots on the free seats
    ui.guest(bert, f"Bert{players}")
    bert.goto(f"{ui.base}/t/{tid}")
    bert.locator('.seat .sit[data-seat="1"]').click()
    bert.wait_for_selector('.seat.me[data-seat="1"]')
    if players > 2:
        anna.locator(".action-bar .btn-primary").click()  # "add bots"
    anna.wait_for_selector(".mu-sheet")
    assert anna.locator(".felt .seat").count() == players
    assert anna.locator(".mu-sheet thead th").count() == players + 1
    assert anna.locator("#sheet-h").inner_text() == texts["mu.sheet"]

    seen: dict[str, list[str]] = {}
    end = time.monotonic() + 150
    while not {"cut", "muli", "exchange", "play", "end"} <= set(seen):
        assert time.monotonic() < end, f"seen: {sorted(seen)}"
        m, v = _state(wa)
        if v is None:
            anna.wait_for_timeout(50)
            continue
        version = m["version"]
        # the result: a sentence, the score column, the next hand
        if m["table"]["between_games"] and v["result"]:
            if anna.locator(".result .verdict").count():
                if "end" not in seen:
                    assert anna.locator(".result .verdict").inner_text().strip()
                    assert anna.locator(".mu-result-table").count() == 1
                    seen["end"] = _fit_problems(anna, "end", {"result", "button"})
                if m["table"]["match_over"]:
                    break
                _click(anna, ".result button.next")
                _wait_moved(anna, wa, version)
            else:
                anna.wait_for_timeout(50)
            continue
        phase, to_act = v["phase"], v["to_act"]
        # the Muli out of turn: while Bert is to bid, Anna's button
        if (phase == "bidding" and to_act == 1 and "muli" not in seen
                and m["out_of_turn"] == ["muli"] and anna.locator("#mu-muli").count()):
            seen["muli"] = _fit_problems(anna, "muli", {"button", "card", "trick"})
            assert anna.locator("#mu-muli").inner_text() == texts["mu.muli_button"]
            anna.locator("#mu-muli").click()
            end_wait = time.monotonic() + 5
            while time.monotonic() < end_wait and wa.last["view"]["holder"] != 0:
                anna.wait_for_timeout(20)
            assert wa.last["view"]["holder"] == 0 and wa.last["view"]["bid"] == 5
            # Bert sees the Muli in his own view: Anna holds the bid
            end_wait = time.monotonic() + 5
            while time.monotonic() < end_wait and wb.last["view"]["holder"] != 0:
                anna.wait_for_timeout(20)
            assert wb.last["view"]["holder"] == 0
            continue
        if to_act == 1:
            # Bert: passes in the bidding, plays along, otherwise the first legal choice
            mb, vb = _state(wb)
            if vb is None or mb["version"] != version:
                anna.wait_for_timeout(30)
                continue
            if phase == "bidding" and "muli" not in seen:
                anna.wait_for_timeout(50)  # Anna says Muli first (her button is drawn)
                if m["out_of_turn"] == ["muli"]:
                    continue
            if not (_discard(bert, vb) or _click(bert, '.choices [data-action="weiter"]')
                    or _click(bert, '.choices [data-action="mit"]')
                    or _click(bert, '.choices [data-action="behalte"]')
                    or ui.click_legal(bert)):
                anna.wait_for_timeout(50)
                continue
            _wait_moved(anna, wa, version)
            continue
        if to_act != 0 or not v["legal"]:
            anna.wait_for_timeout(30)
            continue
        # Anna's turn
        if phase == "cut":
            if "cut" not in seen:
                seen["cut"] = _fit_problems(anna, "cut", {"button", "trick"})
            anna.locator("#mu-cut-range").fill("7")
            assert anna.locator("#mu-cut").get_attribute("data-action") == "abheben 7"
            anna.locator("#mu-cut").click()
            _wait_moved(anna, wa, version)
            assert any(s["view"] and [0, "abheben 7"] in s["view"]["said"]
                       for s in wa.states[-5:]), "the cut at 7"
        elif phase == "bidding":
            if "bidding" not in seen:
                seen["bidding"] = _fit_problems(anna, "bidding", {"button", "card", "trick"})
            low = [w for w in v["legal"] if w.isdigit()]
            _click(anna, f'.choices [data-action="{low[0]}"]' if low
                   else '.choices [data-action="weiter"]')
            _wait_moved(anna, wa, version)
        elif phase == "exchange":
            if "exchange" not in seen:
                seen["exchange"] = _fit_problems(anna, "exchange", {"button", "card", "trick"})
            if anna.locator("#mu-tausche").count():
                anna.locator(".fan .card.mu-pick").first.click()
                tausche = anna.locator("#mu-tausche")
                if tausche.is_enabled():
                    word = tausche.get_attribute("data-action")
                    assert word in v["legal"], word
                    tausche.click()
                    _wait_moved(anna, wa, version)
                    continue
            _click(anna, '.choices [data-action="behalte"]')
            _wait_moved(anna, wa, version)
        elif phase == "play":
            if "play" not in seen and v["trick"]:
                seen["play"] = _fit_problems(anna, "play", {"card", "trick"})
            ui.click_legal(anna)
            _wait_moved(anna, wa, version)
        else:  # the trump, mitgehen, nimm/weg, ab: the first legal choice
            if _discard(anna, v):
                pass
            elif not (_click(anna, '.choices [data-action="mit"]') or ui.click_legal(anna)):
                anna.wait_for_timeout(50)
                continue
            _wait_moved(anna, wa, version)
    problems = [p for ps in seen.values() for p in ps]
    assert problems == [], "\n".join(problems)
    # the score column: one column per seat, from 21 down, the multiplier line
    sheet = anna.locator(".mu-sheet")
    assert sheet.is_visible()
    assert anna.locator(".mu-sheet tfoot td").count() == players
    assert anna.locator(".mu-multiplier").inner_text().strip()
    final = wa.last["table"]["sheet"]
    assert final["kind"] == "mulatschak" and len(final["scores"]) == players
    assert [int(x) for x in anna.locator(".mu-sheet tfoot td").all_inner_texts()] \
        == final["scores"]
    # the history and the replay of a finished hand: its seats, every step, the result
    anna.goto(f"{ui.base}/history")
    anna.wait_for_selector(".history-table tbody tr")
    anna.locator(".history-table tbody tr").last.locator("a").click()
    anna.wait_for_selector(".replay-felt")
    assert anna.locator(".replay-felt .seat").count() == players
    anna.locator('.replay-controls [data-nav="end"]').click()
    assert anna.locator(".replay .verdict").inner_text().strip()
    steps = anna.locator(".step-count").inner_text()
    assert steps.split()[-1] != "1", steps
    if anna.locator(".replay-felt .trick > *").count():
        # a hand with card play: the hands of the card play are shown face up, each card
        # leaving its hand when played (one step back from the end: only the last card)
        assert anna.locator(".replay-felt .open-cards > *").count() == 0
        anna.locator('.replay-controls [data-nav="prev"]').click()
        assert anna.locator(".replay-felt .open-cards > *").count() == 1
    assert anna.errors == [] and bert.errors == []
