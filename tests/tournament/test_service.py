"""The service and its store on SQLite and PostgreSQL: every change in the audit log with
who and when, failed commands leave no trace, stale versions conflict, a writer that lost
the race starts over on the newer document, lots are stored once, the clock, the phones,
and the whole tournament out to JSON and back in."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from stammtisch.persistence.db import Database
from stammtisch.persistence.tournament_models import TournamentRow
from stammtisch.persistence.tournament_store import TournamentStore
from stammtisch.tournament.model import Tournament
from stammtisch.tournament.service import NotFoundError, NoWrite, TournamentService
from stammtisch.tournament.settings import ConflictError, TournamentError

Databases = Callable[[str], Database]


def started(service: TournamentService, pairs: int = 4, **settings: Any) -> str:
    tid: str = service.create("Turnierleitung", {"name": "Seefest", **settings})["id"]
    for i in range(1, pairs + 1):
        service.register(tid, "Turnierleitung", [f"A{i}", f"B{i}"])
    service.close_gaps(tid, "Turnierleitung")
    service.start(tid, "Turnierleitung")
    return tid


def test_every_change_is_in_the_audit_log_with_who_and_when(
        service: TournamentService, store: TournamentStore) -> None:
    begin = datetime.now(UTC) - timedelta(seconds=1)
    tid = service.create("Anna", {"name": "Seefest-Mucker", "planned_tables": 3})["id"]
    service.register(tid, "Anna", ["A1", "B1"], paid=True)
    service.import_csv(tid, "Bernd", "C;D;QR1\nE;F;QR2\n")
    service.check_in(tid, "Tür", "QR1")
    service.set_paid(tid, "Anna", "2", True, expected_version=2)
    service.change_settings(tid, "Anna", {"time_limit_minutes": 35})
    # failed commands: nothing written, nothing logged
    for bad in (lambda: service.check_in(tid, "Tür", "QR1"),
                lambda: service.set_paid(tid, "Anna", "2", False, expected_version=1),
                lambda: service.start(tid, "Anna"),
                lambda: service.register(tid, "Anna", ["only one"])):
        with pytest.raises(TournamentError):
            bad()
    log = service.audit(tid)
    assert [(e["seq"], e["command"], e["who"]) for e in log] == [
        (1, "create", "Anna"), (2, "register", "Anna"), (3, "import_csv", "Bernd"),
        (4, "check_in", "Tür"), (5, "set_paid", "Anna"), (6, "change_settings", "Anna")]
    assert [e["result_version"] for e in log] == [1, 2, 3, 4, 5, 6]
    assert store.info(tid).version == 6
    end = datetime.now(UTC) + timedelta(seconds=1)
    assert all(begin <= datetime.fromisoformat(e["at"]) <= end for e in log)
    assert log[3]["payload"] == {"code": "QR1"}
    assert log[4]["payload"] == {"entrant": "2", "paid": True, "expected_version": 2}
    assert [e["seq"] for e in service.audit(tid, after=4)] == [5, 6]


def test_a_stale_expected_version_is_a_conflict(service: TournamentService,
                                                store: TournamentStore) -> None:
    tid = started(service)
    service.enter(tid, "Desk A", 1, 1, 0, winner=1, loser_points=5, expected_version=0)
    version = store.info(tid).version
    with pytest.raises(ConflictError, match=r"Bobbl 1/1/0 was changed meanwhile"):
        service.enter(tid, "Desk B", 1, 1, 0, winner=2, loser_points=5, expected_version=0)
    assert store.info(tid).version == version and len(store.audit(tid)) == version
    t, _ = store.load(tid)
    assert t.slot(1, 1, 0).result.winner == 1  # type: ignore[union-attr]
    with pytest.raises(ConflictError, match="entrant 1"):
        service.withdraw(tid, "Desk B", "1", expected_version=7)


def test_two_desks_on_the_same_bobbl_one_wins_one_is_told(
        db_url: str, databases: Databases) -> None:
    main = TournamentService(TournamentStore(databases(db_url)), seed=3)
    tid = started(main)
    desks = [TournamentService(TournamentStore(databases(db_url)), seed=k) for k in (1, 2)]
    barrier = threading.Barrier(2)
    outcome: list[str] = []

    def enter(k: int) -> None:
        barrier.wait()
        try:
            desks[k].enter(tid, f"Desk {k}", 1, 2, 1, winner=k + 1, loser_points=9,
                           expected_version=0)
            outcome.append("ok")
        except ConflictError:
            outcome.append("conflict")

    threads = [threading.Thread(target=enter, args=(k,)) for k in (0, 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(outcome) == ["conflict", "ok"]
    assert [e["command"] for e in main.audit(tid)].count("enter") == 1


def test_a_writer_that_lost_the_race_starts_over_on_the_newer_document(
        db_url: str, databases: Databases) -> None:
    """The optimistic check itself (no queueing): Bernd's registration lands while Anna's
    command runs; Anna's save finds the version moved and runs again on Bernd's
    document, so neither registration is lost."""
    anna = TournamentStore(databases(db_url), lock=False)
    bernd = TournamentService(TournamentStore(databases(db_url), lock=False), seed=2)
    tid = TournamentService(anna).create("Anna")["id"]
    runs = []

    def register(t: Tournament) -> str:
        runs.append(len(t.entrants))
        if len(runs) == 1:
            bernd.register(tid, "Bernd", ["C", "D"])
        return t.register(["A", "B"], random.Random(1)).id

    applied = anna.apply(tid, "Anna", "register", {"names": ["A", "B"]}, register)
    assert runs == [0, 1] and anna.retried == 1
    assert (applied.version, applied.written, applied.value) == (3, True, "2")
    t, _ = anna.load(tid)
    assert sorted(e.names for e in t.entrants.values()) == [["A", "B"], ["C", "D"]]
    assert [(e.seq, e.who) for e in anna.audit(tid)] == [(1, "Anna"), (2, "Bernd"),
                                                         (3, "Anna")]
    # NoWrite: nothing saved, nothing logged
    same = anna.apply(tid, "Anna", "look", {}, lambda t: NoWrite(len(t.entrants)))
    assert (same.value, same.version, same.written) == (2, 3, False)
    assert anna.info(tid).version == 3 and len(anna.audit(tid)) == 3


def test_optimistic_writers_without_queueing_lose_nothing(
        db_url: str, databases: Databases) -> None:
    main = TournamentService(TournamentStore(databases(db_url)), seed=1)
    tid = main.create("Anna")["id"]
    stores = [TournamentStore(databases(db_url), lock=False) for _ in range(4)]
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def desk(k: int) -> None:
        svc = TournamentService(stores[k], seed=k)
        barrier.wait()
        try:
            for i in range(6):
                svc.register(tid, f"Desk {k}", [f"A{k}-{i}", f"B{k}-{i}"])
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=desk, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    t, info = main.load(tid)
    assert len(t.entrants) == 24 and len(set(t.draw.values())) == 24
    assert info.version == 25 and [e["seq"] for e in main.audit(tid)] == list(range(1, 26))


def test_unknown_ids_and_bad_input(service: TournamentService) -> None:
    with pytest.raises(NotFoundError, match="no tournament 'nope'"):
        service.overview("nope")
    with pytest.raises(NotFoundError):
        service.register("nope", "Anna", ["A", "B"])
    with pytest.raises(TournamentError, match="double_entry='yes'"):
        service.create("Anna", {"double_entry": "yes"})
    with pytest.raises(TournamentError, match="unknown tournament setting 'colour'"):
        service.create("Anna", {"colour": "blue"})
    tid = started(service)
    with pytest.raises(NotFoundError, match="Bobbl 1/9/0"):
        service.enter(tid, "Anna", 1, 9, 0, winner=1, loser_points=3)
    with pytest.raises(NotFoundError, match="no entrant '99'"):
        service.set_paid(tid, "Anna", "99", True)
    with pytest.raises(TournamentError, match=r"games\[1\]"):
        service.enter(tid, "Anna", 1, 1, 0, games=[[1, 3], 5])  # type: ignore[list-item]
    with pytest.raises(TournamentError, match="fixed once round 1 starts"):
        service.change_settings(tid, "Anna", {"target": 31})
    assert service.change_settings(tid, "Anna", {"time_limit_minutes": 45})[
        "settings"]["time_limit_minutes"] == 45


def test_a_lot_is_drawn_once_stored_and_logged(service: TournamentService,
                                               store: TournamentStore) -> None:
    tid = started(service, rounds=1)
    for table in (1, 2):  # every pair: one Bobbl won 21:10, one lost with 10
        service.enter(tid, "Anna", 1, table, 0, winner=1, loser_points=10)
        service.enter(tid, "Anna", 1, table, 1, winner=2, loser_points=10)
    version = store.info(tid).version
    first = service.ranking(tid, "Zuschauer")
    assert first["lots_drawn"] and first["tournament_version"] == version + 1
    assert all(r["los"] for r in first["rows"]) and len(first["rows"]) == 4
    log = service.audit(tid)[-1]
    assert (log["command"], log["who"]) == ("ranking", "Zuschauer")
    again = TournamentService(store, seed=999).ranking(tid)
    assert not again["lots_drawn"] and again["tournament_version"] == version + 1
    assert again["rows"] == first["rows"]
    # before the start nobody has a result: no lots drawn, nothing written
    other = service.create("Anna")["id"]
    service.register(other, "Anna", ["X", "Y"])
    r = service.ranking(other)
    assert not r["lots_drawn"] and r["rows"][0]["los"] is False
    assert store.info(other).version == 2


def test_the_round_clock_and_the_time_limit(store: TournamentStore) -> None:
    now = [1_750_000_000.0]
    service = TournamentService(store, seed=1, clock=lambda: now[0])
    tid = started(service, time_limit_minutes=40)
    with pytest.raises(TournamentError, match="clock was not started"):
        service.time_up(tid, "Anna", 1)
    clock = service.start_clock(tid, "Anna", 1)["clock"]
    assert clock["ends_at"] == now[0] + 40 * 60 and clock["remaining"] == 40 * 60
    service.enter(tid, "Anna", 1, 1, 0, winner=1, loser_points=4)
    service.enter(tid, "Anna", 1, 1, 1, games=[[1, 7], [2, 9]])
    now[0] += 30 * 60
    with pytest.raises(TournamentError, match="10 min left"):
        service.time_up(tid, "Anna", 1)
    service.change_settings(tid, "Anna", {"time_limit_minutes": 30})  # allowed after start
    closed = service.time_up(tid, "Anna", 1)["closed"]
    assert closed == ["1/1/1", "1/2/0", "1/2/1"]
    rows = {r["pair"]: r for r in service.ranking(tid)["rows"]}
    assert (rows["1"]["bobbl"], rows["1"]["tore"], rows["2"]["tore"]) == (1, 7, 13)
    service.next_round(tid, "Anna")
    assert service.time_up(tid, "Anna", 2, force=True)["closed"] != []


def test_phones_see_their_table_and_wait_for_the_desk(service: TournamentService,
                                                      store: TournamentStore) -> None:
    tid = started(service, pairs=6)
    secret = store.info(tid).table_token
    links = service.table_links(tid)
    assert [link["table"] for link in links] == [1, 2, 3]
    token2 = links[1]["token"]
    assert service.table_access(tid, 2, token2) and service.table_access(tid, 2, secret)
    assert not service.table_access(tid, 3, token2) and not service.table_access(tid, 2, "")
    sheet = service.sheet(tid, 2)
    assert sheet["round"] == 1 and [b["index"] for b in sheet["bobbl"]] == [0, 1]
    assert {x["id"] for side in sheet["sides"] for x in side["entrants"]} == \
        {p for p, (tb, _) in store.load(tid)[0].draw.items() if tb == 2}
    assert "code" not in str(sheet)
    got = service.phone_enter(tid, 2, 0, games=[[2, 10], [1, 4], [2, 11]],
                              expected_version=0)
    assert got["bobbl"]["result"] is None and "phone:2" in got["bobbl"]["entries"]
    assert service.overview(tid)["pending"] == ["1/2/0"]
    assert service.audit(tid)[-1]["who"] == "phone table 2"
    service.confirm(tid, "Anna", 1, 2, 0, "phone:2", expected_version=1)
    sheet = service.sheet(tid, 2)
    assert sheet["bobbl"][0]["decided"] and not sheet["bobbl"][0]["pending"]
    assert service.overview(tid)["pending"] == []
    with pytest.raises(NotFoundError, match="no table 7"):
        service.sheet(tid, 7)


def test_export_and_import_the_whole_tournament(service: TournamentService,
                                                store: TournamentStore) -> None:
    tid = started(service, pairs=6)
    service.enter(tid, "Anna", 1, 1, 0, winner=1, loser_points=4)
    service.compensate(tid, "Anna", 1, "3", 6, "table 2 started late")
    ranking = service.ranking(tid)  # draws and stores the lots: they travel along
    doc = service.export_json(tid)
    made = service.import_json("Bernd", doc, owner_user_id=None)
    assert made["id"] != tid and made["tournament_version"] == 1
    assert service.export_json(made["id"]) == doc
    assert [(e["command"], e["who"]) for e in service.audit(made["id"])] == [
        ("import_json", "Bernd")]
    assert service.ranking(made["id"])["rows"] == ranking["rows"]
    with pytest.raises(TournamentError, match="format"):
        service.import_json("Bernd", {"format": "nope"})
    csv_text = service.export_csv(tid, "registrations")
    assert csv_text.splitlines()[0].startswith("name1;name2;code")
    assert len(service.export_csv(tid, "ranking").splitlines()) == 7


def test_a_document_written_by_another_process_is_read_fresh(
        service: TournamentService, store: TournamentStore) -> None:
    """The process keeps documents by version; a version written elsewhere is read anew."""
    tid = started(service)
    t, info = store.load(tid)  # now remembered for this version
    doc = t.to_json()
    doc["settings"]["name"] = "Renamed elsewhere"
    with store.db.engine.begin() as conn:  # as another server process would write it
        conn.execute(update(TournamentRow).where(TournamentRow.id == tid).values(
            document=doc, version=info.version + 1))
    t2, info2 = store.load(tid)
    assert (t2.settings.name, info2.version) == ("Renamed elsewhere", info.version + 1)
    got = service.compensate(tid, "Anna", 1, "1", 2, "late start")
    assert got["tournament_version"] == info.version + 2
    assert store.load(tid)[0].settings.name == "Renamed elsewhere"
    uncached = TournamentStore(store.db, cache=False)
    assert uncached.load(tid)[0].to_json() == store.load(tid)[0].to_json()
