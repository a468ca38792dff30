"""Online tournaments: a round played on the server's tables, results flowing into the
ranking with no entry, bots standing in (flagged), duplicate deals, the clock enforced."""

from __future__ import annotations

import time
from typing import Any


def _tournament(org: Any, pairs: int, **settings: Any) -> str:
    r = org.post("/api/tournaments", {"settings": {"name": "Online-Mucker", "rounds": 2,
                                                   "bobbl_per_round": 1, **settings}})
    assert r.status_code == 200, r.text
    tid: str = r.json()["tournament"]["id"] if "tournament" in r.json() else r.json()["id"]
    for i in range(pairs):
        r = org.post(f"/api/tournaments/{tid}/entrants", {"names": [f"A{i}", f"B{i}"]})
        assert r.status_code == 200, r.text
    assert org.post(f"/api/tournaments/{tid}/gaps/close").status_code == 200
    r = org.post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    return tid


def _open(org: Any, tid: str, **body: Any) -> dict[str, Any]:
    r = org.post(f"/api/tournaments/{tid}/online/rounds/1/open", body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_round_is_played_by_standing_in_bots_and_flows_into_the_ranking(
        sqlite_server: Any) -> None:
    org = sqlite_server.register("Organiser")
    tid = _tournament(org, 4)
    links = _open(org, tid)
    assert [t["table"] for t in links["tables"]] == [1, 2]
    seats = links["tables"][0]["seats"]
    # pair 1 sits on seats 0 and 2, pair 2 on seats 1 and 3, each with a claim link
    assert seats[0]["entrant"] == seats[2]["entrant"] != seats[1]["entrant"]
    assert all("claim=" in s["claim_url"] and not s["claimed"] for s in seats)

    def both_done() -> bool:
        t, _ = sqlite_server.app.state.tournament_service.load(tid)
        return all(s.decided for s in t.round_slots(1))

    sqlite_server.wait_until(both_done, "both tables to finish their Bobbl", timeout=60)
    ranking = org.get(f"/api/tournaments/{tid}/ranking").json()
    rows = ranking["rows"]
    assert sum(r["bobbl"] for r in rows) == 2  # one Bobbl per table, entered by nobody
    assert all(r["bot_standin"] >= 1 for r in rows)  # nobody claimed a seat: all flagged
    audit = org.get(f"/api/tournaments/{tid}/audit").json()
    assert any(e["command"] == "online_result" and e["who"] == "server" for e in audit["audit"])
    # the tables stopped when their match (one Bobbl) was over
    assert all(sqlite_server.runtime(t["table_id"]).status == "finished"
               for t in links["tables"])


def test_a_player_claims_the_seat_and_is_not_flagged(sqlite_server: Any) -> None:
    org = sqlite_server.register("Organiser")
    tid = _tournament(org, 2)
    links = _open(org, tid)
    table = links["tables"][0]
    token = table["seats"][0]["claim_url"].split("claim=")[1]
    anna = sqlite_server.guest("Anna")
    r = anna.post("/api/tournaments/online/claim", {"table_id": table["table_id"],
                                                    "token": token})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 0
    rt = sqlite_server.runtime(table["table_id"])
    assert rt.seats[0].kind == "human" and rt.seats[0].user_id == anna.id
    bad = anna.post("/api/tournaments/online/claim", {"table_id": table["table_id"],
                                                      "token": "nope"})
    assert bad.status_code == 403 and bad.json()["code"] == "bad_claim"


def test_duplicate_deals_give_every_table_the_same_cards(sqlite_server: Any) -> None:
    org = sqlite_server.register("Organiser")
    tid = _tournament(org, 4)
    links = _open(org, tid, duplicate=True)
    rts = [sqlite_server.runtime(t["table_id"]) for t in links["tables"]]

    def dealt() -> Any:
        games = [rt.match.games[0] if rt.match.games else rt.game for rt in rts]
        if any(g is None or not g.dealt for g in games):
            return None
        return [g.dealt for g in games]

    first = sqlite_server.wait_until(dealt, "the first deal at both tables")
    assert first[0] == first[1]
    assert all(rt.rules.cut_max_times == 0 for rt in rts)  # no Abheben with duplicate deals


def test_time_up_stops_the_tables_and_both_lose_the_open_bobbl(
        start_server: Any, sqlite_url: str) -> None:
    server: Any = start_server(sqlite_url, bot_delay=0.5)
    org = server.register("Organiser")
    tid = _tournament(org, 2, time_limit_minutes=40)
    links = _open(org, tid)
    time.sleep(0.3)
    r = org.post(f"/api/tournaments/{tid}/online/rounds/1/time-up")
    assert r.status_code == 200, r.text
    rt = server.runtime(links["tables"][0]["table_id"])
    assert rt.status == "finished" and rt.note
    t, _ = server.app.state.tournament_service.load(tid)
    slot = t.round_slots(1)[0]
    assert slot.decided
    if slot.time_up:  # still open when the clock ran out: both lost it
        assert slot.result is not None and slot.result.winner is None
    unknown = org.post(f"/api/tournaments/{tid}/online/rounds/2/time-up")
    assert unknown.status_code == 404


def test_only_the_organiser_opens_rounds(sqlite_server: Any) -> None:
    org = sqlite_server.register("Organiser")
    tid = _tournament(org, 2)
    other = sqlite_server.guest("Mallory")
    r = other.post(f"/api/tournaments/{tid}/online/rounds/1/open", {})
    assert r.status_code == 403
    again = _open(org, tid)
    assert again["round"] == 1
    r = org.post(f"/api/tournaments/{tid}/online/rounds/1/open", {})
    assert r.status_code == 409 and r.json()["code"] == "already_open"
