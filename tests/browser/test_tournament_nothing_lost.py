"""Issue 9 in the browser ("nothing lost, nothing confusing"): the desk's editor keeps the
version it was opened at and shows both values when someone else saved meanwhile; the
second phone of a double entry is compared (no conflict, one language); a phone's change
of an agreed Bobbl is a correction request the desk accepts; present/absent and
withdrawing at the desk; the small things (the loser's label, duplicate names, no "Los"
on the projector before any result).  Real server, headless Chromium."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


def _organiser(page: Any, server: str, name: str) -> str:
    page.goto(server + "/turniere")
    page.fill("#tn-register-name", name)
    page.fill("#tn-register-password", "seefest-2024")
    page.locator("#tn-register button[type=submit]").click()
    expect(page.locator("#c-name")).to_be_visible()
    return next(c["value"] for c in page.context.cookies() if c["name"] == "stammtisch_csrf")


def _api(page: Any, csrf: str, path: str, body: Any = None) -> Any:
    r = page.request.post(path, data=body if body is not None else {},
                          headers={"X-CSRF-Token": csrf})
    assert r.ok, (path, r.status, r.text())
    return r.json()


def _tournament(page: Any, server: str, csrf: str, pairs: int, start: bool = True,
                **settings: Any) -> str:
    tid = _api(page, csrf, f"{server}/api/tournaments", {"settings": settings})["id"]
    base = f"{server}/api/tournaments/{tid}"
    for i in range(1, pairs + 1):
        _api(page, csrf, f"{base}/entrants", {"names": [f"Anna{i} Huber", f"Bernd{i} Maier"]})
    if start:
        _api(page, csrf, f"{base}/gaps/close")
        _api(page, csrf, f"{base}/start")
    return str(tid)


def test_the_desk_never_overwrites_a_result_saved_meanwhile(new_page, server: str) -> None:
    desk = new_page(viewport={"width": 1366, "height": 900})
    csrf = _organiser(desk, server, "Tisch B")
    tid = _tournament(desk, server, csrf, 4)
    api = f"{server}/api/tournaments/{tid}"
    desk.goto(f"{server}/turnier/{tid}#runde")
    key = "1/1/1"
    # desk B opens Bobbl 1/1/1 and types 11 for the loser
    desk.locator(f'[data-edit="{key}"]').click()
    card = desk.locator(f'[data-slot-card="{key}"]')
    card.locator('[data-mode="final"]').click()
    card.locator('[data-winner="1"]').click()
    card.locator(".loser-input").fill("11")
    # desk A saves 5 meanwhile; desk B's page refreshes (every 4 s) before B saves
    _api(desk, csrf, f"{api}/bobbl/1/1/1/entries", {"winner": 1, "loser_points": 5,
                                                    "expected_version": 0})
    desk.wait_for_timeout(6000)
    expect(card.locator(".loser-input")).to_have_value("11")  # B's draft survived the poll
    card.locator("button.save").click()
    box = card.locator(".conflict-box")
    expect(box).to_be_visible()
    expect(box.locator(".conflict-mine")).to_contain_text("11 Tore")
    expect(box.locator(".conflict-saved")).to_contain_text("5 Tore")
    slot = next(b for b in desk.request.get(api).json()["bobbl"] if b["key"] == key)
    assert slot["result"]["points"] == [21, 5]  # nothing overwritten
    # the person decides: B's value
    box.locator(".keep-mine").click()
    expect(card.locator(".slot-status")).to_have_text("Paar 1 gewinnt · 11 Tore für Paar 2")
    slot = next(b for b in desk.request.get(api).json()["bobbl"] if b["key"] == key)
    assert slot["result"]["points"] == [21, 11] and slot["version"] == 2
    # again, and this time the saved value is kept
    _api(desk, csrf, f"{api}/bobbl/1/2/0/entries", {"winner": 2, "loser_points": 3})
    desk.locator('[data-edit="1/2/0"]').click()  # opened at version 1
    other = desk.locator('[data-slot-card="1/2/0"]')
    other.locator('[data-mode="final"]').click()
    expect(other.locator("label[for$='-loser']")).to_have_text(
        "Punkte des anderen Paars (Tore)")  # no winner chosen yet
    other.locator('[data-winner="1"]').click()
    expect(other.locator("label[for$='-loser']")).to_have_text("Punkte von Paar 2 (Tore)")
    other.locator(".loser-input").fill("8")
    _api(desk, csrf, f"{api}/bobbl/1/2/0/entries", {"winner": 2, "loser_points": 4})
    other.locator("button.save").click()
    expect(other.locator(".conflict-saved")).to_contain_text("Paar 2 gewinnt · 4 Tore")
    other.locator(".keep-saved").click()
    expect(other.locator(".slot-status")).to_have_text("Paar 2 gewinnt · 4 Tore für Paar 1")
    assert desk.errors == [], desk.errors


def _phone(new_page: Any, server: str, tid: str, table: int, token: str, side: int) -> Any:
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"{server}/turnier/{tid}/tisch/{table}?token={token}")
    expect(phone.locator(".bobbl-card")).to_have_count(2)
    phone.locator(".seg-btn", has_text=f"Paar {side}").first.tap()
    return phone


def _send_final(phone: Any, index: int, winner: int, loser_points: int) -> None:
    card = phone.locator(f'.bobbl-card[data-index="{index}"]')
    card.locator('[data-mode="final"]').tap()
    card.locator(f'[data-winner="{winner}"]').tap()
    card.locator(".loser-input").fill(str(loser_points))
    card.locator("button.send").tap()


def test_two_phones_compare_and_a_change_after_agreement_asks_the_desk(new_page,
                                                                      server: str) -> None:
    desk = new_page(viewport={"width": 1366, "height": 900})
    csrf = _organiser(desk, server, "Doppelte Eingabe")
    tid = _tournament(desk, server, csrf, 4, double_entry=True)
    api = f"{server}/api/tournaments/{tid}"
    token = desk.request.get(f"{api}/tables/links").json()["tables"][0]["token"]
    one = _phone(new_page, server, tid, 1, token, 1)
    two = _phone(new_page, server, tid, 1, token, 2)  # both loaded the sheet at version 0
    _send_final(one, 0, 1, 2)
    expect(one.locator(".toast").last).to_contain_text("verglichen")
    _send_final(two, 0, 1, 2)  # from its stale view: compared, not refused
    expect(two.locator(".toast").last).to_contain_text("verglichen")
    for p in (one, two):
        for toast in p.locator(".toast").all():
            assert "Inzwischen" not in toast.inner_text()
            assert "changed" not in toast.inner_text()
    expect(two.locator('.bobbl-card[data-index="0"] .result-line.done')).to_be_visible()
    ranking = desk.request.get(f"{api}/ranking").json()["rows"]
    # pair 2's phone asks to change the agreed Bobbl: a correction request
    card = two.locator('.bobbl-card[data-index="0"]')
    card.locator("button.correct").tap()
    card.locator('[data-winner="2"]').tap()
    card.locator(".loser-input").fill("15")
    card.locator("button.send").tap()
    expect(card.locator(".request-note")).to_contain_text("wartet auf die Turnierleitung")
    assert desk.request.get(f"{api}/ranking").json()["rows"] == ranking  # the agreed result
    desk.goto(f"{server}/turnier/{tid}#runde")
    req = desk.locator(".requests-panel")
    expect(req).to_contain_text("Korrekturwünsche (1)")
    expect(req).to_contain_text("Paar 2 gewinnt · 15 Tore für Paar 1")
    expect(desk.locator('[data-slot-card="1/1/0"] .slot-status')).to_have_text(
        "Paar 1 gewinnt · 2 Tore für Paar 2")
    req.locator("button.accept").click()
    expect(desk.locator(".requests-panel")).to_have_count(0)
    expect(desk.locator('[data-slot-card="1/1/0"] .slot-status')).to_have_text(
        "Paar 2 gewinnt · 15 Tore für Paar 1")
    for p in (desk, one, two):
        assert p.errors == [], p.errors


def test_present_absent_withdraw_and_the_small_things(new_page, server: str) -> None:
    desk = new_page(viewport={"width": 1366, "height": 900})
    csrf = _organiser(desk, server, "Anwesenheit")
    tid = _tournament(desk, server, csrf, 5, start=False, rounds=3, odd_handling="bye")
    api = f"{server}/api/tournaments/{tid}"
    desk.goto(f"{server}/turnier/{tid}#anmeldung")
    # the same two names again: registered, with a warning
    desk.fill("#reg-n1", "bernd1 maier")
    desk.fill("#reg-n2", "Anna1 Huber")
    desk.locator("#reg-form button[type=submit]").click()
    expect(desk.locator(".toast").last).to_contain_text("schon angemeldet: Nr. 1")
    rows = desk.locator(".ent-table tr[data-entrant]")
    expect(rows).to_have_count(6)
    # pair 6 is absent: it gives up its place and is not seated
    desk.locator("#present-6").uncheck()
    expect(desk.locator('.ent-table tr[data-entrant="6"]')).to_contain_text("abwesend")
    expect(desk.locator('.ent-table tr[data-entrant="6"] .c-place')).to_have_text("–")
    if desk.locator("#close-gaps").count():
        desk.locator("#close-gaps").click()
    expect(desk.locator(".gaps")).to_contain_text("Keine Lücken")
    desk.locator("#start-btn").click()
    expect(desk.locator(".clock-panel")).to_be_visible()
    view = desk.request.get(api).json()
    seated = [x for a, b in view["rounds"][0]["tables"].values() for x in (*a, *(b or []))]
    assert "6" not in seated and len(seated) == 5
    # the projector before any result: start-number order, nobody "Los"
    beamer = new_page(viewport={"width": 1280, "height": 720})
    beamer.goto(f"{server}/turnier/{tid}/beamer")
    expect(beamer.locator(".rank-table tbody tr")).to_have_count(6)
    expect(beamer.locator(".rank-table .los")).to_have_count(0)
    # pair 1 withdraws once its table is decided; pair 6 comes back for round 2
    desk.locator('[data-tab="anmeldung"]').click()
    quit1 = desk.locator('.ent-table tr[data-entrant="1"] button.quit')
    expect(quit1).to_be_disabled()
    for key, (_, b) in view["rounds"][0]["tables"].items():
        if b is not None:
            for i in range(2):
                _api(desk, csrf, f"{api}/bobbl/1/{key}/{i}/entries",
                     {"winner": 1, "loser_points": 7})
    desk.locator(".desk-head button.btn-ghost").click()  # reload
    expect(quit1).to_be_enabled()
    desk.once("dialog", lambda d: d.accept())
    quit1.click()
    expect(desk.locator('.ent-table tr[data-entrant="1"]')).to_contain_text("zurückgezogen")
    desk.locator("#present-6").check()
    expect(desk.locator('.ent-table tr[data-entrant="6"] .c-place')).to_have_text(
        re.compile(r"Tisch \d+"))
    desk.locator('[data-tab="runde"]').click()
    desk.locator("#next-round").click()
    expect(desk.locator(".round-pill")).to_have_count(2)
    view = desk.request.get(api).json()
    seated = [x for a, b in view["rounds"][1]["tables"].values() for x in (*a, *(b or []))]
    assert "1" not in seated and "6" in seated and len(seated) == 5
    for p in (desk, beamer):
        assert p.errors == [], p.errors


def test_the_conflict_screens_in_english_are_english_only(new_page, server: str) -> None:
    desk = new_page(viewport={"width": 1366, "height": 900})
    desk.add_init_script("localStorage.setItem('stammtisch_lang', 'en')")
    csrf = _organiser(desk, server, "Desk English")
    tid = _tournament(desk, server, csrf, 4)
    api = f"{server}/api/tournaments/{tid}"
    desk.goto(f"{server}/turnier/{tid}#runde")
    card = desk.locator('[data-slot-card="1/1/0"]')
    desk.locator('[data-edit="1/1/0"]').click()
    card.locator('[data-mode="final"]').click()
    expect(card.locator("label[for$='-loser']")).to_have_text("Points of the other pair (Tore)")
    card.locator('[data-winner="2"]').click()
    card.locator(".loser-input").fill("9")
    _api(desk, csrf, f"{api}/bobbl/1/1/0/entries", {"winner": 1, "loser_points": 3})
    card.locator("button.save").click()
    box = card.locator(".conflict-box")
    expect(box).to_contain_text("Another result was saved meanwhile")
    expect(box.locator(".conflict-mine")).to_have_text("Pair 2 wins · 9 Tore for Pair 1")
    text = box.inner_text()
    for german in ("Inzwischen", "Eingabe", "gewinnt", "Paar"):
        assert german not in text, text
    # an entrant conflict from a stale view: the toast is English only
    _api(desk, csrf, f"{api}/entrants/2/paid", {"paid": True, "expected_version": 1})
    r = desk.request.post(f"{api}/entrants/2/paid", data={"paid": False,
                                                          "expected_version": 1},
                          headers={"X-CSRF-Token": csrf})
    assert r.status == 409 and r.json()["conflict"]["kind"] == "entrant"
    desk.locator('[data-tab="anmeldung"]').click()
    sent = {"paid": False}

    def hold_polls(route: Any) -> None:  # the desk keeps its stale view until it sends
        if route.request.method == "GET" and not sent["paid"]:
            route.abort()
        else:
            route.continue_()

    def note_paid(route: Any) -> None:
        sent["paid"] = True
        route.continue_()

    desk.route(lambda url: url == api, hold_polls)
    desk.route(lambda url: url.endswith("/entrants/3/paid"), note_paid)
    _api(desk, csrf, f"{api}/entrants/3/paid", {"paid": True, "expected_version": 1})
    desk.locator('.ent-table tr[data-entrant="3"] .c-paid input').click()
    toast = desk.locator(".toast").last
    expect(toast).to_contain_text("Changed meanwhile: pair no. 3")
    assert "Inzwischen" not in toast.inner_text() and "entrant" not in toast.inner_text()
    desk.unroute_all()
    assert desk.errors == [], desk.errors


def test_singles_with_a_bye_a_late_player_and_a_removal(new_page, server: str) -> None:
    desk = new_page(viewport={"width": 1366, "height": 900})
    csrf = _organiser(desk, server, "Einzelspieler")
    tid = _api(desk, csrf, f"{server}/api/tournaments", {"settings": {
        "mode": "singles", "seating": "draw", "rounds": 3}})["id"]
    api = f"{server}/api/tournaments/{tid}"
    desk.goto(f"{server}/turnier/{tid}#anmeldung")
    rows = desk.locator(".ent-table tr[data-entrant]")
    for i in range(1, 10):
        desk.fill("#reg-n1", f"Spieler {i}")
        desk.locator("#reg-form button[type=submit]").click()
        expect(rows).to_have_count(i)
    expect(desk.locator("#start-btn")).to_be_disabled()  # 9 players: the odd field
    desk.locator("#odd-bye").click()
    desk.locator("#start-btn").click()  # 9 players start: one sits out
    expect(desk.locator(".tcard")).to_have_count(3)
    expect(desk.locator(".slot-bye")).to_have_count(2)
    view = desk.request.get(api).json()
    for key, (_, b) in view["rounds"][0]["tables"].items():
        if b is not None:
            for i in range(2):
                _api(desk, csrf, f"{api}/bobbl/1/{key}/{i}/entries",
                     {"winner": 1, "loser_points": 6})
    # two more players after round 1; the second one goes home before playing
    desk.locator('[data-tab="anmeldung"]').click()
    for n, name in enumerate(("Spät", "Heim"), 10):
        desk.fill("#reg-n1", name)
        desk.locator("#reg-form button[type=submit]").click()
        expect(rows).to_have_count(n)
    expect(desk.locator('.ent-table tr[data-entrant="1"] button.quit')).to_be_visible()
    desk.once("dialog", lambda d: d.accept())
    desk.locator('.ent-table tr[data-entrant="11"] button.remove').click()
    expect(rows).to_have_count(10)
    desk.locator('[data-tab="runde"]').click()
    desk.locator("#next-round").click()  # 10 players: a side of two sits out
    expect(desk.locator(".round-pill")).to_have_count(2)
    expect(desk.locator(".tcard")).to_have_count(3)
    for toast in desk.locator(".toast").all():
        assert "cannot" not in toast.inner_text()
    assert desk.errors == [], desk.errors
