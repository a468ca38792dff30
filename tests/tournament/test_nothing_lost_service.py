"""Issue 9 through the service and its store, on SQLite and PostgreSQL: correction
requests and present/absent/withdrawn survive the stored document, singles late arrivals
get byes whatever the odd-field choice was, the results file ranks like the live ranking
(also before any result), and an old results file without the new keys still ranks."""

from __future__ import annotations

from typing import Any

import pytest

from stammtisch.tournament.model import Tournament
from stammtisch.tournament.ranking import parse_results, rank
from stammtisch.tournament.service import TournamentService
from stammtisch.tournament.settings import ConflictError, TournamentError

KEYS = ("rank", "pair", "names", "bobbl", "tore", "gegnerische_tore", "los", "played")
WHO = "Turnierleitung"


def _create(service: TournamentService, entrants: int, **settings: Any) -> str:
    tid: str = service.create(WHO, settings)["id"]
    per = 2 if settings.get("mode", "pairs") == "pairs" else 1
    for i in range(1, entrants + 1):
        service.register(tid, WHO, [f"A{i}", f"B{i}"][:per])
    return tid


def _finish_round(service: TournamentService, tid: str) -> None:
    t, _ = service.load(tid)
    rnd = t.rounds[-1]
    for table, (_, b) in rnd.tables.items():
        if b is None:
            continue
        for i in range(t.settings.bobbl_per_round):
            service.enter(tid, WHO, rnd.number, table, i, winner=1 + (table + i) % 2,
                          loser_points=(table * 3 + i) % 21)


def _same_as_live(service: TournamentService, tid: str) -> None:
    live = [{k: r[k] for k in KEYS} for r in service.ranking(tid)["rows"]]
    from_file = [{k: v for k, v in r.to_json().items() if k in KEYS}
                 for r in rank(parse_results(service.results_file(tid)))]
    assert from_file == live


def test_requests_and_attendance_are_stored(service: TournamentService) -> None:
    tid = _create(service, 4, double_entry=True)
    service.set_present(tid, WHO, "4", False, expected_version=1)
    service.set_present(tid, WHO, "4", True, expected_version=2)
    service.close_gaps(tid, WHO)
    service.start(tid, WHO)
    t, _ = service.load(tid)
    assert t.entrants["4"].present and t.entrants["4"].version >= 3
    for side in (1, 2):
        service.phone_enter(tid, 1, 0, side=side, winner=2, loser_points=6,
                            expected_version=0)
    out = service.phone_enter(tid, 1, 0, side=1, winner=1, loser_points=6)
    assert out["bobbl"]["result"]["winner"] == 2 and "phone:1:1" in out["bobbl"]["requests"]
    t, _ = service.load(tid)  # through the store and back
    assert t.slots["1/1/0"].requests["phone:1:1"].winner == 1
    assert service.overview(tid)["requests"] == ["1/1/0"]
    with pytest.raises(ConflictError):
        service.settle_request(tid, WHO, 1, 1, 0, "phone:1:1", True, expected_version=0)
    service.settle_request(tid, WHO, 1, 1, 0, "phone:1:1", True)
    t, _ = service.load(tid)
    assert t.slots["1/1/0"].result is not None and t.slots["1/1/0"].result.winner == 1
    assert Tournament.from_json(t.to_json()).to_json() == t.to_json()


@pytest.mark.parametrize(("start", "late", "handling"), [(10, 1, "bye"), (8, 1, "undecided"),
                                                         (8, 3, "helpers")])
def test_singles_arriving_after_round_1_get_byes(service: TournamentService, start: int,
                                                 late: int, handling: str) -> None:
    tid = _create(service, start, mode="singles", seating="draw", odd_handling=handling,
                  rounds=3)
    service.start(tid, WHO)
    for i in range(late):
        service.register(tid, WHO, [f"Late{i}"])
    _finish_round(service, tid)
    rnd = service.next_round(tid, WHO)["round"]
    seated = sorted(x for a, b in rnd["tables"].values() for x in (*a, *(b or [])))
    assert len(seated) == start + late == len(set(seated))
    byes = [a for a, b in rnd["tables"].values() if b is None]
    assert sum(len(a) for a in byes) == (start + late) % 4
    _finish_round(service, tid)
    _same_as_live(service, tid)


def test_withdrawn_absent_and_removed_entrants_in_the_results_file(
        service: TournamentService) -> None:
    tid = _create(service, 7, odd_handling="bye", rounds=3)
    service.close_gaps(tid, WHO)
    service.start(tid, WHO)
    with pytest.raises(TournamentError, match="once its Bobbl are decided"):
        service.withdraw(tid, WHO, "1")
    _finish_round(service, tid)
    service.compensate(tid, WHO, 1, "2", 5, "waited")
    assert service.withdraw(tid, WHO, "1")["how"] == "withdrawn"
    service.set_present(tid, WHO, "3", False)
    service.next_round(tid, WHO)
    _finish_round(service, tid)
    data = service.results_file(tid)
    assert {p["id"] for p in data["pairs"]} == {str(i) for i in range(1, 8)}
    assert data["compensations"] == [{"round": 1, "pair": "2", "points": 5,
                                      "reason": "waited"}]
    _same_as_live(service, tid)


def test_before_any_result_the_file_ranks_by_start_number(service: TournamentService) -> None:
    tid = _create(service, 5, odd_handling="bye")
    service.close_gaps(tid, WHO)
    service.start(tid, WHO)
    rows = service.ranking(tid)["rows"]
    # the bye's Bobbl counts; everybody else is equal and listed by start number
    assert [r["bobbl"] for r in rows] == [1, 0, 0, 0, 0]
    assert [int(r["pair"]) for r in rows[1:]] == sorted(int(r["pair"]) for r in rows[1:])
    assert not any(r["los"] for r in rows)
    assert service.load(tid)[0].lots == {}
    _same_as_live(service, tid)


def test_an_old_results_file_still_ranks() -> None:
    old = {"name": "Seefest-Mucker", "target": 21,
           "pairs": [{"id": "1", "names": ["A", "B"]}, {"id": "2", "names": ["C", "D"]}],
           "bobbl": [{"round": 1, "table": 1, "pairs": ["1", "2"], "points": [21, 13]}]}
    assert [(r.pair, r.bobbl, r.tore) for r in rank(parse_results(old))] == \
        [("1", 1, 0), ("2", 0, 13)]
