"""A whole tournament evening in the browser (real server, headless Chromium).

An organiser registers an account, creates a Muckturnier, registers eight pairs at the
desk, imports two pre-registrations from CSV and checks one of them in with the code
field (as a USB QR scanner types it), decides the odd field (a bye), closes the gaps in
the seating and starts.  Round 1's results come partly from the desk (one Bobbl game by
game on the paper grid, others as final figures) and partly from the phone page of a
table, opened in a second browser context with a phone's viewport via the table's link;
the desk confirms the phone's entries and the ranking updates.  The projector view shows
the round, the clock and the ranking; the ranking PDF downloads.  Screenshots of the
desk, the phone and the projector go to test-artifacts/.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

PAIRS = [("Anna Huber", "Bernd Maier"), ("Cilli Ott", "Done Renz"), ("Emil Bauer", "Franz Eck"),
         ("Gerda Wolf", "Hans Vogel"), ("Ida Kern", "Jakob Lutz"), ("Karl Sommer", "Lina Roth"),
         ("Max Weber", "Nina Graf"), ("Otto Brandl", "Paula Seitz")]
CSV = "name1;name2;code\nBärbel Größ;Jürgen Weiß;SEE-101\nRosi Fink;Sepp Haas;SEE-102\n"


def _wait(page: Any, cond: Any, timeout: float = 8.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        page.wait_for_timeout(50)


def _final(page: Any, key: str, winner: int, loser_points: int) -> None:
    """Enter a Bobbl at the desk as final figures."""
    page.locator(f'[data-edit="{key}"]').click()
    card = page.locator(f'[data-slot-card="{key}"]')
    card.locator('[data-mode="final"]').click()
    card.locator(f'[data-winner="{winner}"]').click()
    card.locator(".loser-input").fill(str(loser_points))
    card.locator("button.save").click()
    expect(card.locator(".slot-status")).to_contain_text("gewinnt")


def test_a_tournament_evening(new_page, server: str, artifacts: Path) -> None:
    started = time.monotonic()
    desk = new_page(viewport={"width": 1366, "height": 900})

    # -- the organiser registers and creates the tournament -----------------------------------
    desk.goto(server + "/turniere")
    desk.fill("#tn-register-name", "Turnierleitung")
    desk.fill("#tn-register-password", "seefest-2024")
    desk.locator("#tn-register button[type=submit]").click()
    expect(desk.locator("#c-name")).to_be_visible()
    assert desk.locator("#c-rounds").input_value() == "5"
    assert desk.locator("#c-target").input_value() == "21"
    desk.fill("#c-name", "Tauperlitzer Seefest-Mucker")
    desk.locator(".tn-create button[type=submit]").click()
    desk.wait_for_url(re.compile(r".*/turnier/[^/]+$"))
    tid = desk.url.rsplit("/turnier/", 1)[1].split("#")[0]
    api = f"{server}/api/tournaments/{tid}"
    expect(desk.locator(".desk-title h1")).to_have_text("Tauperlitzer Seefest-Mucker")

    # -- registration at the desk: eight pairs, each drawn a table and a pair number -------------
    rows = desk.locator(".ent-table tr[data-entrant]")
    for i, (a, b) in enumerate(PAIRS):
        desk.fill("#reg-n1", a)
        desk.fill("#reg-n2", b)
        if i % 3 != 2:
            desk.check("#reg-paid")
        desk.locator("#reg-form button[type=submit]").click()
        expect(rows).to_have_count(i + 1)
        expect(desk.locator(".drawn")).to_contain_text(a)
    expect(desk.locator(".drawn .drawn-place")).to_contain_text("Tisch")
    # the fee of a pair registered unpaid is ticked off in the list
    unpaid = desk.locator('.ent-table tr[data-entrant="3"] .c-paid input')
    expect(unpaid).not_to_be_checked()
    unpaid.check()
    expect(desk.locator(".desk-meta")).to_contain_text("160,00 €")

    # -- pre-registrations from CSV; one checks in with the code field (the scanner types a URL)
    desk.fill("#csv-text", CSV)
    desk.locator(".csv-form button[type=submit]").click()
    expect(rows).to_have_count(10)
    expect(desk.locator(".ent-table tr.pre")).to_have_count(2)
    expect(desk.locator(".waiting li")).to_have_count(2)
    desk.fill("#checkin-code", f"{server}/turnier/{tid}?checkin=SEE-101")
    desk.keyboard.press("Enter")
    expect(desk.locator(".ent-table tr.pre")).to_have_count(1)
    expect(desk.locator(".drawn")).to_contain_text("Bärbel Größ")
    expect(desk.locator(".waiting li")).to_have_count(1)

    # -- a conflict is shown and reloaded, never overwritten: someone else ticks pair 6's fee
    # while this desk still shows it unpaid (its polls are held back until it sends) ---------
    sent = {"paid": False}

    def hold_polls(route: Any) -> None:
        if route.request.method == "GET" and not sent["paid"]:
            route.abort()
        else:
            route.continue_()

    def note_paid(route: Any) -> None:
        sent["paid"] = True
        route.continue_()

    desk.route(lambda url: url == api, hold_polls)
    desk.route(lambda url: url.endswith("/entrants/6/paid"), note_paid)
    csrf = next(c["value"] for c in desk.context.cookies() if c["name"] == "stammtisch_csrf")
    other = desk.request.post(f"{api}/entrants/6/paid", data={"paid": True,
                                                              "expected_version": 1},
                              headers={"X-CSRF-Token": csrf})
    assert other.ok, other.text()
    fee6 = desk.locator('.ent-table tr[data-entrant="6"] .c-paid input')
    expect(fee6).not_to_be_checked()  # the desk's stale view
    fee6.click()
    expect(desk.locator(".toast").last).to_contain_text("Inzwischen geändert")
    expect(desk.locator(".toast").last).to_contain_text("Paar Nr. 6")
    expect(desk.locator(".toast").last).not_to_contain_text("entrant")  # one language
    expect(fee6).to_be_checked()  # the reloaded state
    desk.unroute_all()
    audit = desk.request.get(f"{api}/audit").json()["audit"]
    assert [e["payload"]["paid"] for e in audit if e["command"] == "set_paid"
            and e["payload"]["entrant"] == "6"] == [True]

    # -- nine pairs: the odd field needs a decision; the gaps in the draw are closed ------------
    expect(desk.locator(".odd")).to_contain_text("(9)")
    expect(desk.locator("#start-btn")).to_be_disabled()
    if desk.locator("#close-gaps").count():
        moves = desk.locator(".moves li").count()
        assert moves >= 1
        desk.locator("#close-gaps").click()
    expect(desk.locator(".gaps")).to_contain_text("Keine Lücken")
    desk.locator("#odd-bye").click()
    expect(desk.locator(".odd")).to_contain_text("Freilos: das Paar ohne Gegner bekommt 1 Bobbl")
    desk.screenshot(path=str(artifacts / "tournament-desk-registration.png"), full_page=True)
    desk.locator("#start-btn").click()

    # -- round 1: seating, clock ----------------------------------------------------------------
    expect(desk.locator(".clock-panel")).to_be_visible()
    cards = desk.locator(".tcard")
    expect(cards).to_have_count(5)
    expect(desk.locator(".slot-bye")).to_have_count(2)  # table 5: the bye (both Bobbl)
    desk.locator("#clock-start").click()
    expect(desk.locator(".big-clock")).to_have_text(re.compile(r"^(40:00|39:5\d)$"))

    # one Bobbl game by game on the paper grid: 5, 3, 10, 4, then 8 would make 23 >= 21
    key = "1/1/0"
    desk.locator(f'[data-edit="{key}"]').click()
    card = desk.locator(f'[data-slot-card="{key}"]')
    for side, pts in ((1, 5), (2, 3), (1, 10), (2, 4), (1, 8)):
        desk.fill(f"#ed-1-1-0-in{side}", str(pts))
        desk.locator(f"#ed-1-1-0-in{side}").press("Enter")
    expect(card.locator(".game")).to_have_count(5)
    expect(card.locator(".game.last s")).to_have_text("+8")  # the last game is struck out
    expect(card.locator(".grid-status")).to_contain_text("Paar 1 gewinnt den Bobbl")
    expect(card.locator(".grid-status")).to_contain_text("7 Toren")
    desk.screenshot(path=str(artifacts / "tournament-desk-grid.png"), full_page=False)
    card.locator("button.save").click()
    expect(card.locator(".slot-status")).to_have_text("Paar 1 gewinnt · 7 Tore für Paar 2")

    # the others as final figures (tables 1-3)
    for k, w, lp in (("1/1/1", 2, 14), ("1/2/0", 1, 0), ("1/2/1", 1, 19), ("1/3/0", 2, 11),
                     ("1/3/1", 1, 9)):
        _final(desk, k, w, lp)

    # -- table 4 enters on its phone -----------------------------------------------------------
    links = desk.request.get(f"{api}/tables/links").json()["tables"]
    link = next(x for x in links if x["table"] == 4)
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                     device_scale_factor=2)
    phone.goto(f"{server}/turnier/{tid}/tisch/4?token={link['token']}")
    expect(phone.locator(".phone-head h1")).to_contain_text("Tisch 4")
    expect(phone.locator(".pair-box")).to_have_count(2)
    expect(phone.locator(".bobbl-card")).to_have_count(2)
    b1 = phone.locator('.bobbl-card[data-index="0"]')
    for side, pts in ((1, 5), (2, 3), (1, 10), (2, 6), (1, 6)):  # 15 + 6 = 21: the end
        b1.locator(f'.chip[data-side="{side}"][data-points="{pts}"]').tap()
    expect(b1.locator(".game.last")).to_have_count(1)
    expect(b1.locator(".grid-status")).to_contain_text("Paar 2 bekommt ihn mit 9 Toren")
    phone.screenshot(path=str(artifacts / "tournament-phone-grid.png"), full_page=True)
    b1.locator("button.send").tap()
    expect(b1.locator(".waiting-note")).to_be_visible()
    b2 = phone.locator('.bobbl-card[data-index="1"]')
    b2.locator('[data-mode="final"]').tap()
    b2.locator('[data-winner="2"]').tap()
    b2.locator(".loser-input").fill("12")
    b2.locator("button.send").tap()
    expect(b2.locator(".waiting-note")).to_be_visible()
    phone.screenshot(path=str(artifacts / "tournament-phone.png"), full_page=True)
    # nothing sticks out of the phone's width
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width

    # -- the desk confirms the phone's entries (the desk polls; no reload needed) ---------------
    pending = desk.locator(".pending-list > li")
    expect(pending).to_have_count(2, timeout=10_000)
    expect(desk.locator(".pending-panel")).to_contain_text("Handy Tisch 4")
    desk.screenshot(path=str(artifacts / "tournament-desk-round.png"), full_page=True)
    for _ in range(2):
        desk.locator(".pending-list > li").first.locator("button.confirm").click()
        desk.wait_for_timeout(100)
    expect(pending).to_have_count(0)
    expect(desk.locator('[data-slot-card="1/4/0"] .slot-status')).to_have_text(
        "Paar 1 gewinnt · 9 Tore für Paar 2")
    expect(desk.locator(".next-row")).to_contain_text("Alle Bobbl dieser Runde sind entschieden")
    # the phone sees the confirmation
    phone.reload()
    expect(phone.locator(".result-line.done")).to_have_count(2)

    # -- the live ranking ------------------------------------------------------------------------
    desk.locator('[data-tab="rangliste"]').click()
    ranking = desk.locator(".rank-table tbody tr")
    expect(ranking).to_have_count(9)
    data = desk.request.get(f"{api}/ranking").json()
    assert sum(r["bobbl"] for r in data["rows"]) == 8 + 1  # 8 Bobbl played + the bye's 1
    top = data["rows"][0]
    expect(ranking.first).to_contain_text(top["names"][0])
    expect(ranking.first.locator(".c-bobbl")).to_have_text(str(top["bobbl"]))

    # -- downloads: the ranking PDF ---------------------------------------------------------------
    with desk.expect_download() as dl:
        desk.locator("#dl-ranking-pdf").click()
    pdf_path = dl.value.path()
    assert pdf_path is not None and Path(pdf_path).read_bytes().startswith(b"%PDF")
    r = desk.request.get(f"{api}/pdf/ranking")
    assert r.status == 200 and r.headers["content-type"] == "application/pdf"
    assert r.body().startswith(b"%PDF")

    # -- the audit log shows who did what --------------------------------------------------------
    desk.locator('[data-tab="protokoll"]').click()
    audit = desk.locator(".audit-table tbody")
    expect(audit).to_contain_text("phone table 4")
    expect(audit).to_contain_text("Turnierleitung")
    expect(audit).to_contain_text("Bestätigt")

    # -- the projector ----------------------------------------------------------------------------
    beamer = new_page(viewport={"width": 1280, "height": 720})
    beamer.goto(f"{server}/turnier/{tid}/beamer")
    expect(beamer.locator(".beamer-round")).to_have_text("Runde 1 von 5")
    expect(beamer.locator(".rank-table tbody tr")).to_have_count(9)
    expect(beamer.locator(".beamer-clock .clock-num")).to_have_text(re.compile(r"^(40|3\d):\d\d$"))
    expect(beamer.locator(".topbar")).to_be_hidden()
    beamer.screenshot(path=str(artifacts / "tournament-beamer.png"))

    desk.locator('[data-tab="runde"]').click()
    desk.screenshot(path=str(artifacts / "tournament-desk.png"), full_page=True)
    for p in (desk, phone, beamer):
        assert p.errors == [], p.errors
    assert time.monotonic() - started < 60
