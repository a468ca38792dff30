"""The printouts and QR codes over the tournament API: ``GET …/pdf/{kind}`` (score sheets,
table cards, draw slips, ranking, certificates, registration QR codes) and ``GET
…/tables/{n}/qr.svg`` are the owner's only (401 without a login, 403 for someone else's
tournament), 404 for unknown tournaments, kinds, rounds and tables, and answer with
``application/pdf`` / ``image/svg+xml``; the public ``…/clock`` for the projector."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stammtisch.server import Settings, create_app
from stammtisch.server.auth import SESSION_COOKIE

KINDS = ("score-sheets", "table-cards", "draw-slips", "ranking", "certificates",
         "registration-qr")


class User:
    def __init__(self, client: TestClient, name: str) -> None:
        r = client.post("/api/guest", json={"name": name})
        assert r.status_code == 200, r.text
        self.client = client
        self.token = r.cookies.get(SESSION_COOKIE)
        self.csrf = r.json()["csrf"]
        client.cookies.clear()

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, headers={"cookie": f"{SESSION_COOKIE}={self.token}"},
                               **kw)

    def ok(self, path: str, body: Any = None) -> Any:
        r = self.client.post(path, json=body, headers={
            "cookie": f"{SESSION_COOKIE}={self.token}", "x-csrf-token": self.csrf})
        assert r.status_code == 200, (path, r.status_code, r.text)
        return r.json()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'pdf.sqlite3'}",
                              bot_delay=0, auto_next_delay=0, seed=7))
    with TestClient(app) as c:
        yield c


def err(r: Any, status: int, code: str, *words: str) -> None:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["code"] == code, body
    for w in words:
        assert w in body["message"], (w, body)


def is_pdf(r: Any) -> bytes:
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"].startswith("attachment; filename=")
    assert r.content.startswith(b"%PDF") and r.content.rstrip().endswith(b"%%EOF")
    return bytes(r.content)


def started(anna: User) -> str:
    """A tournament with 4 pairs and 2 pre-registrations (one checked in), round 1 seated
    and one Bobbl entered."""
    tid: str = anna.ok("/api/tournaments", {"settings": {"name": "Seefest-Mucker"}})["id"]
    base = f"/api/tournaments/{tid}"
    for i in range(4):
        anna.ok(f"{base}/entrants", {"names": [f"Anna {i}", f"Bernd {i}"]})
    anna.ok(f"{base}/entrants/import", {"csv": "Cilli;Done;CODE1\nEmil;Franz;CODE2\n"})
    anna.ok(f"{base}/check-in", {"code": "CODE1"})
    anna.ok(f"{base}/entrants", {"names": ["Gerda", "Hans"]})
    anna.ok(f"{base}/gaps/close")
    anna.ok(f"{base}/start")
    anna.ok(f"{base}/bobbl/1/1/0/entries", {"winner": 1, "loser_points": 13})
    return tid


def test_every_printout_is_a_pdf_for_the_owner(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = started(anna)
    base = f"/api/tournaments/{tid}"
    for kind in KINDS:
        data = is_pdf(anna.get(f"{base}/pdf/{kind}"))
        assert len(data) > 500, kind
    r = anna.get(f"{base}/pdf/score-sheets", params={"round": 1})
    assert 'filename="muckturnier-' in r.headers["content-disposition"]
    assert "runde-1" in r.headers["content-disposition"]
    is_pdf(r)
    is_pdf(anna.get(f"{base}/pdf/certificates", params={"top": 1}))
    # the ranking printout stored any lot it needed: the public ranking agrees
    assert client.get(f"{base}/ranking").status_code == 200


def test_printouts_are_the_owners_only(client: TestClient) -> None:
    anna, bernd = User(client, "Anna"), User(client, "Bernd")
    tid = started(anna)
    base = f"/api/tournaments/{tid}"
    for kind in KINDS:
        err(client.get(f"{base}/pdf/{kind}"), 401, "not_logged_in")
        err(bernd.get(f"{base}/pdf/{kind}"), 403, "not_owner", tid)
    err(client.get(f"{base}/tables/1/qr.svg"), 401, "not_logged_in")
    err(bernd.get(f"{base}/tables/1/qr.svg"), 403, "not_owner")


def test_unknown_tournaments_kinds_rounds_and_tables_are_404(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = started(anna)
    base = f"/api/tournaments/{tid}"
    err(anna.get("/api/tournaments/nope/pdf/ranking"), 404, "not_found", "nope")
    err(anna.get("/api/tournaments/nope/tables/1/qr.svg"), 404, "not_found", "nope")
    err(anna.get(f"{base}/pdf/menu"), 404, "not_found", "menu")
    err(anna.get(f"{base}/pdf/score-sheets", params={"round": 2}), 404, "not_found",
        "round=2")
    err(anna.get(f"{base}/pdf/score-sheets", params={"round": 0}), 422, "invalid_request",
        "round")
    err(anna.get(f"{base}/tables/9/qr.svg"), 404, "not_found", "table 9")
    err(client.get("/api/tournaments/nope/clock"), 404, "not_found")


def test_score_sheets_need_a_seated_round(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = anna.ok("/api/tournaments", {"settings": {}})["id"]
    base = f"/api/tournaments/{tid}"
    err(anna.get(f"{base}/pdf/score-sheets"), 422, "not_started")
    # the other printouts work before the start (empty or from the draw)
    for kind in ("table-cards", "draw-slips", "ranking", "certificates", "registration-qr"):
        is_pdf(anna.get(f"{base}/pdf/{kind}"))


def test_the_table_qr_code_opens_the_phone_page(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = started(anna)
    base = f"/api/tournaments/{tid}"
    r = anna.get(f"{base}/tables/2/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and r.text.rstrip().endswith("</svg>")
    token = anna.get(f"{base}/tables/links").json()["tables"][1]["token"]
    # the phone page's address (what the QR code holds) opens the table's sheet
    from stammtisch.server.tournament_api import phone_url

    class Req:
        base_url = "http://testserver/"

    url = phone_url(Req(), tid, client.app.state.tournament_service.info(tid).table_token, 2)
    assert url == f"http://testserver/turnier/{tid}/tisch/2?token={token}"
    page = client.get(url.removeprefix("http://testserver"))
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    path = re.sub(r"^http://testserver/turnier/([^/]+)/tisch/(\d+)\?token=(\w+)$",
                  r"/api/tournaments/\1/tables/\2/sheet?token=\3", url)
    assert client.get(path).json()["table"] == 2


def test_the_public_clock_for_the_projector(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = anna.ok("/api/tournaments", {"settings": {"time_limit_minutes": 40}})["id"]
    base = f"/api/tournaments/{tid}"
    before = client.get(f"{base}/clock").json()
    assert before["round"] is None and before["clock"] is None
    for i in range(4):
        anna.ok(f"{base}/entrants", {"names": [f"A{i}", f"B{i}"]})
    anna.ok(f"{base}/gaps/close")
    anna.ok(f"{base}/start")
    assert client.get(f"{base}/clock").json()["clock"]["remaining"] is None
    anna.ok(f"{base}/rounds/1/clock", {})
    now = client.get(f"{base}/clock").json()
    assert now["round"] == 1 and now["rounds"] == 5
    assert 39 * 60 < now["clock"]["remaining"] <= 40 * 60


@pytest.mark.parametrize("path", ["/turniere", "/turnier/abc", "/turnier/abc/beamer",
                                  "/turnier/abc/tisch/3"])
def test_the_tournament_pages_serve_the_app(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert '<main id="main"' in r.text
