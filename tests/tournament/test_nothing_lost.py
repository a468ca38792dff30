"""Issue 9, "nothing lost, nothing confusing", over the API: an empty entry never wipes a
result, a phone cannot un-agree an agreed Bobbl (it asks the desk), a double entry is a
comparison (not a conflict), the same result entered game by game and as final figures
agrees, singles with odd counts get byes, entrants are removed / withdrawn / marked
absent, the results file reproduces the live ranking, and the small things (duplicate
names, the version of a moved pair, no "Los" before any result)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from stammtisch.cli.main import app as cli_app
from stammtisch.server import Settings, create_app
from stammtisch.server.auth import SESSION_COOKIE


class User:
    def __init__(self, client: TestClient, name: str) -> None:
        r = client.post("/api/guest", json={"name": name})
        assert r.status_code == 200, r.text
        self.client = client
        self.token = r.cookies.get(SESSION_COOKIE)
        self.csrf = r.json()["csrf"]
        client.cookies.clear()

    def headers(self, csrf: bool = True) -> dict[str, str]:
        h = {"cookie": f"{SESSION_COOKIE}={self.token}"}
        return {**h, "x-csrf-token": self.csrf} if csrf else h

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, headers=self.headers(False), **kw)

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body, headers=self.headers())

    def ok(self, path: str, body: Any = None) -> Any:
        r = self.post(path, body)
        assert r.status_code == 200, (path, r.status_code, r.text)
        return r.json()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'api.sqlite3'}",
                              bot_delay=0, auto_next_delay=0, seed=7))
    with TestClient(app) as c:
        yield c


def err(r: Any, status: int, code: str, *words: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    body: dict[str, Any] = r.json()
    assert body["code"] == code, body
    for w in words:
        assert w in body["message"], (w, body)
    return body


KEYS = ("rank", "pair", "names", "bobbl", "tore", "gegnerische_tore", "los", "played")


def _new(anna: User, pairs: int, **settings: Any) -> str:
    tid = anna.ok("/api/tournaments", {"settings": settings})["id"]
    per = 2 if settings.get("mode", "pairs") == "pairs" else 1
    for i in range(1, pairs + 1):
        anna.ok(f"/api/tournaments/{tid}/entrants", {"names": [f"A{i}", f"B{i}"][:per]})
    return str(tid)


def _started(anna: User, pairs: int = 4, **settings: Any) -> str:
    tid = _new(anna, pairs, **settings)
    base = f"/api/tournaments/{tid}"
    if anna.get(f"{base}/gaps").json()["moves"]:
        anna.ok(f"{base}/gaps/close")
    anna.ok(f"{base}/start")
    return tid


def _phone(client: TestClient, anna: User, tid: str, table: int, body: dict[str, Any]) -> Any:
    links = anna.get(f"/api/tournaments/{tid}/tables/links").json()["tables"]
    token = next(x["token"] for x in links if x["table"] == table)
    return client.post(f"/api/tournaments/{tid}/tables/{table}/entries",
                       params={"token": token}, json=body)


def _slot(anna: User, tid: str, key: str) -> dict[str, Any]:
    view = anna.get(f"/api/tournaments/{tid}").json()
    return next(b for b in view["bobbl"] if b["key"] == key)


# -- 4. an empty entry never wipes a result ------------------------------------------------------
def test_an_empty_entry_is_refused_and_the_result_stays(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _started(anna)
    base = f"/api/tournaments/{tid}"
    anna.ok(f"{base}/bobbl/1/1/0/entries", {"winner": 1, "loser_points": 7})
    err(anna.post(f"{base}/bobbl/1/1/0/entries", {"games": [], "final": True}), 422,
        "invalid_tournament", "no games")
    err(anna.post(f"{base}/bobbl/1/1/0/entries", {"games": []}), 422, "invalid_tournament",
        "no games")
    # a partial entry cannot undo a decided Bobbl either
    err(anna.post(f"{base}/bobbl/1/1/0/entries", {"games": [[1, 5]], "final": True}), 422,
        "invalid_tournament", "decided")
    slot = _slot(anna, tid, "1/1/0")
    assert slot["decided"] and slot["result"]["points"] == [21, 7]
    assert slot["version"] == 1


# -- 5. a phone cannot un-agree an agreed result -------------------------------------------------
def test_a_phone_change_of_an_agreed_bobbl_is_a_correction_request(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _started(anna, double_entry=True)
    base = f"/api/tournaments/{tid}"
    for side in (1, 2):
        r = _phone(client, anna, tid, 1, {"index": 0, "side": side, "winner": 1,
                                          "loser_points": 9, "expected_version": 0})
        assert r.status_code == 200, r.text
    assert _slot(anna, tid, "1/1/0")["decided"]
    before = client.get(f"{base}/ranking").json()["rows"]
    # pair 2's phone now says pair 2 won: a request, the agreed result stays
    r = _phone(client, anna, tid, 1, {"index": 0, "side": 2, "winner": 2, "loser_points": 15,
                                      "expected_version": 2})
    assert r.status_code == 200, r.text
    got = r.json()["bobbl"]
    assert got["decided"] and got["result"]["winner"] == 1
    assert set(got["requests"]) == {"phone:1:2"}
    view = anna.get(base).json()
    assert view["requests"] == ["1/1/0"] and view["pending"] == []
    assert client.get(f"{base}/ranking").json()["rows"] == before
    sheet = client.get(f"{base}/tables/1/sheet", params={"token": anna.get(
        f"{base}/tables/links").json()["tables"][0]["token"]}).json()
    assert set(sheet["bobbl"][0]["requests"]) == {"phone:1:2"}
    # the desk rejects it: nothing changes but the request is gone
    version = _slot(anna, tid, "1/1/0")["version"]
    err(anna.post(f"{base}/bobbl/1/1/0/request", {"source": "phone:1:2", "accept": False,
                                                   "expected_version": version - 1}),
        409, "conflict")
    rejected = anna.ok(f"{base}/bobbl/1/1/0/request", {"source": "phone:1:2", "accept": False,
                                                       "expected_version": version})["bobbl"]
    assert rejected["requests"] == {} and rejected["result"]["winner"] == 1
    # asked again and accepted: the request becomes the result
    _phone(client, anna, tid, 1, {"index": 0, "side": 2, "winner": 2, "loser_points": 15})
    accepted = anna.ok(f"{base}/bobbl/1/1/0/request", {"source": "phone:1:2",
                                                       "accept": True})["bobbl"]
    assert accepted["result"]["winner"] == 2 and accepted["result"]["points"] == [15, 21]
    assert anna.get(base).json()["requests"] == []
    err(anna.post(f"{base}/bobbl/1/1/0/request", {"source": "phone:1:2", "accept": True}),
        422, "invalid_tournament", "no correction request")
    commands = [e["command"] for e in anna.get(f"{base}/audit").json()["audit"]]
    assert "reject_request" in commands and "accept_request" in commands


def test_a_phone_change_after_the_desk_confirmed_is_a_request_too(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _started(anna)
    base = f"/api/tournaments/{tid}"
    _phone(client, anna, tid, 2, {"index": 1, "winner": 2, "loser_points": 3})
    anna.ok(f"{base}/bobbl/1/2/1/confirm", {"source": "phone:2"})
    got = _phone(client, anna, tid, 2, {"index": 1, "winner": 2, "loser_points": 4}).json()
    assert got["bobbl"]["result"]["points"] == [3, 21] and "phone:2" in got["bobbl"]["requests"]
    # the same result again is no request
    again = _phone(client, anna, tid, 2, {"index": 1, "winner": 2, "loser_points": 3}).json()
    assert again["bobbl"]["requests"] == {}


# -- 2. the second phone of a double entry is compared, not refused --------------------------------
def test_the_second_phone_of_a_double_entry_is_compared(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _started(anna, double_entry=True)
    base = f"/api/tournaments/{tid}"
    # both phones loaded the sheet at version 0; pair 1's phone sends first
    first = _phone(client, anna, tid, 2, {"index": 0, "side": 1, "winner": 1,
                                          "loser_points": 2, "expected_version": 0})
    assert first.status_code == 200, first.text
    second = _phone(client, anna, tid, 2, {"index": 0, "side": 2, "winner": 1,
                                           "loser_points": 2, "expected_version": 0})
    assert second.status_code == 200, second.text
    assert second.json()["bobbl"]["decided"]
    # disagreeing entries are a mismatch for the desk, still no conflict
    _phone(client, anna, tid, 2, {"index": 1, "side": 1, "winner": 1, "loser_points": 2,
                                  "expected_version": 0})
    other = _phone(client, anna, tid, 2, {"index": 1, "side": 2, "winner": 2,
                                          "loser_points": 2, "expected_version": 0})
    assert other.status_code == 200, other.text
    assert anna.get(base).json()["mismatches"] == ["1/2/1"]
    # pair 2 corrects its own entry from its view before pair 1's entry: compared again,
    # and now they agree
    fixed = _phone(client, anna, tid, 2, {"index": 1, "side": 2, "winner": 1,
                                          "loser_points": 2, "expected_version": 1})
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["bobbl"]["decided"] and anna.get(base).json()["mismatches"] == []


def test_a_stale_single_phone_entry_is_a_named_conflict(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _started(anna)
    base = f"/api/tournaments/{tid}"
    anna.ok(f"{base}/bobbl/1/2/1/entries", {"games": [[1, 5]]})  # the desk: a partial entry
    body = err(_phone(client, anna, tid, 2, {"index": 1, "winner": 1, "loser_points": 2,
                                             "expected_version": 0}),
               409, "conflict", "Bobbl 1/2/1")
    assert body["conflict"] == {"kind": "bobbl", "key": "1/2/1", "version": 1, "expected": 0}


# -- 3. final figures and game by game agree -------------------------------------------------------
def test_game_by_game_and_final_figures_of_the_same_result_agree(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _started(anna, double_entry=True)
    base = f"/api/tournaments/{tid}"
    # winner pair 1 (written 20, the last game not written), loser pair 2 with 13 Tore
    _phone(client, anna, tid, 1, {"index": 0, "side": 1, "games": [[1, 10], [2, 13], [1, 10],
                                                                   [1, 5]]})
    got = _phone(client, anna, tid, 1, {"index": 0, "side": 2, "winner": 1,
                                        "loser_points": 13}).json()["bobbl"]
    assert got["decided"], got
    view = anna.get(base).json()
    assert view["mismatches"] == [] and view["pending"] == []
    row = {r["pair"]: r for r in client.get(f"{base}/ranking").json()["rows"]}
    s1, s2 = (anna.get(base).json()["rounds"][0]["tables"]["1"])
    assert row[s1[0]]["bobbl"] == 1 and row[s2[0]]["tore"] == 13
    assert row[s1[0]]["gegnerische_tore"] == 13


# -- 6. singles: byes for odd counts, removing, withdrawing -------------------------------------
def test_singles_with_odd_counts_get_byes(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _new(anna, 9, mode="singles", seating="draw", odd_handling="bye", rounds=3)
    base = f"/api/tournaments/{tid}"
    r1 = anna.ok(f"{base}/start")["round"]
    seated = [x for a, b in r1["tables"].values() for x in (*a, *(b or []))]
    assert sorted(seated, key=int) == [str(i) for i in range(1, 10)]
    byes = [a for a, b in r1["tables"].values() if b is None]
    assert byes == [[byes[0][0]]]  # one player sits out
    for key, table in r1["tables"].items():
        if table[1] is not None:
            for i in range(2):
                anna.ok(f"{base}/bobbl/1/{key}/{i}/entries", {"winner": 1, "loser_points": 5})
    # the eleventh and twelfth players arrive after round 1; the twelfth goes home again
    anna.ok(f"{base}/entrants", {"names": ["Late"]})
    gone = anna.ok(f"{base}/entrants", {"names": ["Gone"]})["entrant"]
    out = anna.ok(f"{base}/entrants/{gone['id']}/withdraw", {})
    assert out["how"] == "removed"
    assert gone["id"] not in [e["id"] for e in anna.get(base).json()["entrants"]]
    r2 = anna.ok(f"{base}/rounds/next")["round"]  # 10 players: 5 sides, one side has a bye
    sides = [s for a, b in r2["tables"].values() for s in (a, b) if s is not None]
    assert sorted(len(s) for s in sides) == [2] * 5
    assert sum(b is None for a, b in r2["tables"].values()) == 1
    ranking = client.get(f"{base}/ranking").json()["rows"]
    bye_player = byes[0][0]
    assert next(r for r in ranking if r["pair"] == bye_player)["bobbl"] == 1


def test_an_entrant_withdraws_between_rounds(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _started(anna, 6, rounds=3)
    base = f"/api/tournaments/{tid}"
    view = anna.get(base).json()
    t1 = view["rounds"][0]["tables"]["1"]
    leaving = t1[0][0]
    err(anna.post(f"{base}/entrants/{leaving}/withdraw", {}), 422, "invalid_tournament",
        "once its Bobbl are decided")
    for key in view["rounds"][0]["tables"]:
        for i in range(2):
            anna.ok(f"{base}/bobbl/1/{key}/{i}/entries", {"winner": 2, "loser_points": 11})
    out = anna.ok(f"{base}/entrants/{leaving}/withdraw", {})
    assert out["how"] == "withdrawn"
    after = anna.get(base).json()
    e = next(x for x in after["entrants"] if x["id"] == leaving)
    assert e["withdrawn"] and e["place"] is None
    r2 = anna.ok(f"{base}/rounds/next")["round"]
    seated = [x for a, b in r2["tables"].values() for x in (*a, *(b or []))]
    assert leaving not in seated and len(seated) == 5
    assert sum(b is None for a, b in r2["tables"].values()) == 1  # the odd field: a bye
    ranking = client.get(f"{base}/ranking").json()["rows"]
    assert next(r for r in ranking if r["pair"] == leaving)["played"] == 2


# -- 7. present / absent ---------------------------------------------------------------------------
def test_absent_entrants_are_not_seated(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _new(anna, 5, rounds=3)
    base = f"/api/tournaments/{tid}"
    e5 = anna.ok(f"{base}/entrants/5/present", {"present": False, "expected_version": 1})
    assert e5["entrant"]["present"] is False and e5["entrant"]["place"] is None
    err(anna.post(f"{base}/entrants/5/present", {"present": True, "expected_version": 1}),
        409, "conflict", "entrant 5")
    if anna.get(f"{base}/gaps").json()["moves"]:
        anna.ok(f"{base}/gaps/close")
    r1 = anna.ok(f"{base}/start")["round"]  # four present pairs: no odd field
    seated = [x for a, b in r1["tables"].values() for x in (*a, *(b or []))]
    assert "5" not in seated and len(seated) == 4
    # pair 1 leaves for a round: only between rounds
    err(anna.post(f"{base}/entrants/1/present", {"present": False}), 422,
        "invalid_tournament", "once its Bobbl are decided")
    for key in r1["tables"]:
        for i in range(2):
            anna.ok(f"{base}/bobbl/1/{key}/{i}/entries", {"winner": 1, "loser_points": 4})
    anna.ok(f"{base}/entrants/1/present", {"present": False})
    back = anna.ok(f"{base}/entrants/5/present", {"present": True})["entrant"]
    assert back["present"] and back["place"] is not None
    r2 = anna.ok(f"{base}/rounds/next")["round"]
    seated = [x for a, b in r2["tables"].values() for x in (*a, *(b or []))]
    assert "1" not in seated and "5" in seated and len(seated) == 4
    assert "set_present" in [e["command"] for e in anna.get(f"{base}/audit").json()["audit"]]


# -- 8. the results file reproduces the live ranking -----------------------------------------------
def _play_round(anna: User, tid: str, rnd: dict[str, Any], rng: random.Random) -> None:
    base = f"/api/tournaments/{tid}"
    for key, (_, b) in rnd["tables"].items():
        if b is None:
            continue
        for i in range(2):
            if rng.random() < 0.3:  # game by game: the winner written below the target
                anna.ok(f"{base}/bobbl/{rnd['number']}/{key}/{i}/entries",
                        {"games": [[2, rng.randint(1, 9)], [1, rng.randint(1, 15)], [1, 30]]})
            else:
                anna.ok(f"{base}/bobbl/{rnd['number']}/{key}/{i}/entries",
                        {"winner": rng.choice((1, 2)), "loser_points": rng.randint(0, 5)})


def _cli_rank(tmp_path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
    f = tmp_path / "results.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    out = CliRunner().invoke(cli_app, ["tournament", "rank", "--json", str(f)])
    assert out.exit_code == 0, out.output
    return [{k: r[k] for k in KEYS} for r in json.loads(out.output)]


def test_the_results_file_gives_exactly_the_live_ranking(client: TestClient,
                                                         tmp_path: Path) -> None:
    anna = User(client, "Anna")
    tid = _new(anna, 41, rounds=3, odd_handling="bye", bye_bobbl=1, bye_tore=5,
               time_limit_minutes=0)
    base = f"/api/tournaments/{tid}"
    anna.ok(f"{base}/gaps/close")
    rng = random.Random(9)
    rnd = anna.ok(f"{base}/start")["round"]
    for n in range(1, 4):
        _play_round(anna, tid, rnd, rng)
        anna.ok(f"{base}/compensations", {"round": n, "entrant": str(n * 3), "points": 6,
                                          "reason": "late opponents"})
        if n < 3:
            rnd = anna.ok(f"{base}/rounds/next")["round"]
    data = anna.get(f"{base}/results.json").json()
    live = [{k: r[k] for k in KEYS} for r in client.get(f"{base}/ranking").json()["rows"]]
    assert len(live) == 41
    assert _cli_rank(tmp_path, data) == live
    assert len(data["byes"]) == 3 and len(data["compensations"]) == 3
    assert data["bye"] == {"bobbl": 1, "tore": 5}


def test_the_singles_results_file_gives_exactly_the_live_ranking(client: TestClient,
                                                                 tmp_path: Path) -> None:
    anna = User(client, "Anna")
    tid = _new(anna, 10, mode="singles", seating="draw", odd_handling="bye", rounds=2)
    base = f"/api/tournaments/{tid}"
    rng = random.Random(4)
    rnd = anna.ok(f"{base}/start")["round"]
    _play_round(anna, tid, rnd, rng)
    rnd = anna.ok(f"{base}/rounds/next")["round"]
    _play_round(anna, tid, rnd, rng)
    data = anna.get(f"{base}/results.json").json()
    assert all(len(side) == 2 for b in data["bobbl"] for side in b["pairs"])
    live = [{k: r[k] for k in KEYS} for r in client.get(f"{base}/ranking").json()["rows"]]
    assert _cli_rank(tmp_path, data) == live


def test_a_helpers_pair_is_in_the_results_file_but_not_ranked(client: TestClient,
                                                              tmp_path: Path) -> None:
    anna = User(client, "Anna")
    tid = _new(anna, 3, odd_handling="helpers")
    base = f"/api/tournaments/{tid}"
    anna.ok(f"{base}/entrants", {"names": ["Helfer", "Helferin"], "helper": True})
    if anna.get(f"{base}/gaps").json()["moves"]:
        anna.ok(f"{base}/gaps/close")
    rnd = anna.ok(f"{base}/start")["round"]
    _play_round(anna, tid, rnd, random.Random(2))
    data = anna.get(f"{base}/results.json").json()
    assert [p.get("helper", False) for p in data["pairs"]] == [False, False, False, True]
    live = [{k: r[k] for k in KEYS} for r in client.get(f"{base}/ranking").json()["rows"]]
    assert len(live) == 3 and _cli_rank(tmp_path, data) == live


# -- 9. the small things --------------------------------------------------------------------------
def test_the_same_names_twice_are_reported(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _new(anna, 0)
    base = f"/api/tournaments/{tid}"
    assert anna.ok(f"{base}/entrants", {"names": ["Anna Huber", "Bernd"]})["same_names"] == []
    again = anna.ok(f"{base}/entrants", {"names": ["bernd", " Anna  Huber"]})
    assert again["same_names"] == ["1"]


def test_moving_a_pair_bumps_its_version(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _new(anna, 2, planned_tables=4)
    base = f"/api/tournaments/{tid}"
    e = anna.get(base).json()["entrants"][0]
    taken = {tuple(x["place"]) for x in anna.get(base).json()["entrants"]}
    free = next((t, p) for t in range(1, 5) for p in (1, 2) if (t, p) not in taken)
    moved = anna.ok(f"{base}/entrants/{e['id']}/move", {"table": free[0], "pos": free[1]})
    assert moved["entrant"]["version"] == e["version"] + 1
    err(anna.post(f"{base}/entrants/{e['id']}/paid", {"paid": True,
                                                      "expected_version": e["version"]}),
        409, "conflict")


def test_no_lots_before_any_result(client: TestClient) -> None:
    anna = User(client, "Anna")
    tid = _started(anna, 6)
    base = f"/api/tournaments/{tid}"
    rows = client.get(f"{base}/ranking").json()["rows"]
    assert [r["los"] for r in rows] == [False] * 6
    assert [r["pair"] for r in rows] == [str(i) for i in range(1, 7)]
    assert "ranking" not in [e["command"] for e in anna.get(f"{base}/audit").json()["audit"]]
