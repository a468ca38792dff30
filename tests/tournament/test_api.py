"""The tournament JSON API through FastAPI's test client: logins, CSRF and ownership for
the organiser, token links for the tables' phones, the public ranking, errors with a code
and a message naming the input (422), conflicts (409), unknown ids (404), the files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stammtisch.server import Settings, create_app, tournament_api
from stammtisch.server.auth import SESSION_COOKIE


class User:
    def __init__(self, client: TestClient, name: str) -> None:
        r = client.post("/api/guest", json={"name": name})
        assert r.status_code == 200, r.text
        self.client = client
        self.name = name
        self.token = r.cookies.get(SESSION_COOKIE)
        self.csrf = r.json()["csrf"]
        client.cookies.clear()

    def headers(self, csrf: bool = True) -> dict[str, str]:
        h = {"cookie": f"{SESSION_COOKIE}={self.token}"}
        return {**h, "x-csrf-token": self.csrf} if csrf else h

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, headers=self.headers(False), **kw)

    def post(self, path: str, body: Any = None, csrf: bool = True, **kw: Any) -> Any:
        return self.client.post(path, json=body, headers=self.headers(csrf), **kw)

    def ok(self, path: str, body: Any = None) -> Any:
        r = self.post(path, body) if body is not None or not path.endswith(
            ("/start", "/next", "/close")) else self.post(path)
        assert r.status_code == 200, (path, r.status_code, r.text)
        return r.json()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'api.sqlite3'}",
                              bot_delay=0, auto_next_delay=0, seed=7))
    if not any(getattr(r, "path", "").startswith("/api/tournaments") for r in app.routes):
        app.include_router(tournament_api.router)  # until the app includes it itself
    with TestClient(app) as c:
        yield c


def err(r: Any, status: int, code: str, *words: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    body: dict[str, Any] = r.json()
    assert body["code"] == code, body
    for w in words:
        assert w in body["message"], (w, body)
    return body


def test_organiser_routes_need_a_login_the_csrf_token_and_ownership(client: TestClient
                                                                     ) -> None:
    err(client.post("/api/tournaments", json={}), 401, "not_logged_in")
    anna, bernd = User(client, "Anna"), User(client, "Bernd")
    err(anna.post("/api/tournaments", {}, csrf=False), 403, "csrf_failed")
    made = anna.ok("/api/tournaments", {"settings": {"name": "Seefest-Mucker"}})
    tid = made["id"]
    assert made["name"] == "Seefest-Mucker" and made["tournament_version"] == 1
    assert [t["id"] for t in anna.get("/api/tournaments").json()["tournaments"]] == [tid]
    assert bernd.get("/api/tournaments").json()["tournaments"] == []
    err(bernd.get(f"/api/tournaments/{tid}"), 403, "not_owner")
    err(bernd.post(f"/api/tournaments/{tid}/entrants", {"names": ["X", "Y"]}), 403,
        "not_owner")
    err(anna.get("/api/tournaments/nope"), 404, "not_found", "nope")
    err(anna.post("/api/tournaments", {"settings": {"rounds": 0}}), 422,
        "invalid_tournament", "rounds=0")
    err(anna.post("/api/tournaments", {"settings": {}, "colour": "red"}), 422,
        "invalid_request", "colour")
    r = client.post("/api/tournaments", content="x", headers={**anna.headers(),
                                                               "content-type": "text/plain"})
    err(r, 415, "json_required")


def test_a_tournament_from_the_desk_and_the_phones(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = anna.ok("/api/tournaments", {"settings": {"name": "Seefest", "planned_tables": 3,
                                                    "rounds": 2}})["id"]
    base = f"/api/tournaments/{tid}"
    # the desk: registrations, pre-registrations with codes, fees
    first = anna.ok(f"{base}/entrants", {"names": ["Anna Huber", "Bernd Maier"]})
    assert first["entrant"]["place"] is not None and first["entrant"]["version"] == 1
    err(anna.post(f"{base}/entrants", {"names": ["Solo"]}), 422, "invalid_tournament",
        "names=['Solo']")
    err(anna.post(f"{base}/entrants", {"names": "Anna"}), 422, "invalid_request", "names")
    pre = anna.ok(f"{base}/entrants/import", {"csv": "name1;name2;code\nC;D;QR1\nE;F;QR2\n"
                                                     "G;H;QR3\n"})["entrants"]
    assert [e["checked_in"] for e in pre] == [False, False, False]
    err(anna.post(f"{base}/check-in", {"code": "QR9"}), 422, "invalid_tournament", "QR9")
    for code in ("QR1", "QR2", "QR3"):
        got = anna.ok(f"{base}/check-in", {"code": code})["entrant"]
        assert got["checked_in"] and got["place"] is not None
    paid = anna.ok(f"{base}/entrants/1/paid", {"paid": True, "expected_version": 1})
    assert paid["entrant"]["paid"] and paid["entrant"]["version"] == 2
    err(anna.post(f"{base}/entrants/1/paid", {"paid": False, "expected_version": 1}), 409,
        "conflict", "entrant 1")
    err(anna.post(f"{base}/entrants/1/paid", {"paid": "yes"}), 422, "invalid_request",
        "paid")
    err(anna.post(f"{base}/entrants/77/paid", {"paid": True}), 404, "not_found", "77")
    view = anna.get(base).json()
    assert view["fees"]["people"] == 8 and view["fees"]["collected_cents"] == 2000
    # the draw: gaps are closed with the fewest moves, then round 1 starts
    moves = anna.get(f"{base}/gaps").json()["moves"]
    if moves:
        err(anna.post(f"{base}/start"), 422, "invalid_tournament", "gaps")
    assert anna.ok(f"{base}/gaps/close")["moves"] == moves
    round1 = anna.ok(f"{base}/start")["round"]
    assert round1["number"] == 1 and len(round1["tables"]) == 2
    err(anna.post(f"{base}/settings", {"target": 31}), 422, "invalid_tournament",
        "fixed once round 1 starts", "target")
    assert anna.ok(f"{base}/settings", {"time_limit_minutes": 45})["settings"][
        "time_limit_minutes"] == 45
    # the phones: each table's link opens only its table
    links = anna.get(f"{base}/tables/links").json()["tables"]
    assert [link["table"] for link in links] == [1, 2]
    tok1, tok2 = links[0]["token"], links[1]["token"]
    sheet = client.get(f"{base}/tables/1/sheet", params={"token": tok1}).json()
    assert sheet["round"] == 1 and len(sheet["bobbl"]) == 2 and "QR1" not in json.dumps(sheet)
    err(client.get(f"{base}/tables/1/sheet", params={"token": tok2}), 403, "bad_token")
    err(client.get(f"{base}/tables/1/sheet"), 403, "bad_token")
    r = client.post(f"{base}/tables/1/entries", params={"token": tok1},
                    json={"index": 0, "winner": 1, "loser_points": 12, "expected_version": 0})
    assert r.status_code == 200, r.text
    assert r.json()["bobbl"]["result"] is None
    err(client.post(f"{base}/tables/1/entries", params={"token": tok1},
                    json={"index": 0, "winner": 3, "loser_points": 12}), 422,
        "invalid_tournament", "winner")
    err(client.post(f"{base}/tables/1/entries", params={"token": tok2},
                    json={"index": 0, "winner": 1, "loser_points": 1}), 403, "bad_token")
    assert anna.get(base).json()["pending"] == ["1/1/0"]
    confirmed = anna.ok(f"{base}/bobbl/1/1/0/confirm",
                        {"source": "phone:1", "expected_version": 1})["bobbl"]
    assert confirmed["decided"] and confirmed["result"]["by"] == "Anna"
    # the desk enters the rest: game by game and final figures
    anna.ok(f"{base}/bobbl/1/1/1/entries",
            {"games": [[2, 5], [1, 7], [2, 20]], "expected_version": 0})
    anna.ok(f"{base}/bobbl/1/2/0/entries", {"winner": 2, "loser_points": 0})
    err(anna.post(f"{base}/bobbl/1/2/0/entries",
                  {"winner": 1, "loser_points": 3, "expected_version": 0}), 409, "conflict",
        "Bobbl 1/2/0")
    err(anna.post(f"{base}/bobbl/1/9/0/entries", {"winner": 1, "loser_points": 3}), 404,
        "not_found", "1/9/0")
    err(anna.post(f"{base}/bobbl/1/2/1/entries", {"games": [[1, 30]], "winner": 1}), 422,
        "invalid_tournament", "not both")
    err(anna.post(f"{base}/bobbl/1/2/1/entries", {"winner": 1, "loser_points": 3,
                                                  "source": "phone:2"}),
        422, "invalid_source")
    anna.ok(f"{base}/bobbl/1/2/1/entries", {"winner": 1, "loser_points": 20})
    anna.ok(f"{base}/compensations", {"round": 1, "entrant": "2", "points": 4,
                                      "reason": "waited for pair 3"})
    # the public ranking
    ranking = client.get(f"{base}/ranking").json()
    assert len(ranking["rows"]) == 4 and ranking["round"] == 1
    assert [r["rank"] for r in ranking["rows"]] == [1, 2, 3, 4]
    assert client.get(f"{base}/ranking", params={"method": "plus"}).json()["method"] == "plus"
    err(client.get(f"{base}/ranking", params={"method": "best"}), 422, "invalid_request")
    assert anna.ok(f"{base}/rounds/next")["round"]["number"] == 2
    # files: JSON export → import, CSV
    exported = anna.get(f"{base}/export.json")
    assert exported.headers["content-disposition"].endswith(f'muckturnier-{tid}.json"')
    copy = anna.ok("/api/tournaments/import", exported.json())
    assert copy["id"] != tid
    assert client.get(f"/api/tournaments/{copy['id']}/ranking").json()["rows"] == \
        client.get(f"{base}/ranking").json()["rows"]
    err(anna.post("/api/tournaments/import", {"format": "x"}), 422, "invalid_tournament",
        "format")
    csv_r = anna.get(f"{base}/export.csv")
    assert csv_r.headers["content-type"].startswith("text/csv")
    assert csv_r.text.splitlines()[0].startswith("rank;pair;names;bobbl;tore")
    regs = anna.get(f"{base}/export.csv", params={"kind": "registrations"}).text
    assert "QR2" in regs
    assert anna.get(f"{base}/results.json").json()["target"] == 21
    # the audit log: every change with who and when
    log = anna.get(f"{base}/audit").json()["audit"]
    assert log[0]["command"] == "create" and log[0]["who"] == "Anna"
    who = {e["who"] for e in log}
    assert {"Anna", "phone table 1"} <= who <= {"Anna", "phone table 1", "ranking (public)"}
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert anna.get(base).json()["tournament_version"] == len(log)


def test_the_round_clock_over_the_api(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = anna.ok("/api/tournaments", {"settings": {"time_limit_minutes": 40}})["id"]
    base = f"/api/tournaments/{tid}"
    for i in range(4):
        anna.ok(f"{base}/entrants", {"names": [f"A{i}", f"B{i}"]})
    anna.ok(f"{base}/start")
    clock = anna.ok(f"{base}/rounds/1/clock", {})["clock"]
    assert 40 * 60 - 5 < clock["remaining"] <= 40 * 60
    err(anna.post(f"{base}/rounds/1/time-up", {}), 422, "invalid_tournament", "min left")
    closed = anna.ok(f"{base}/rounds/1/time-up", {"force": True})["closed"]
    assert len(closed) == 4
    err(anna.post(f"{base}/rounds/7/time-up", {"force": True}), 404, "not_found", "round 7")
