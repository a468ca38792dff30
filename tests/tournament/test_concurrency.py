"""A Seefest-Mucker with 118 pairs, on SQLite and PostgreSQL: six desks register at the
same time, the gaps are closed, and in each of the five rounds eight devices (each with
its own database connection) enter every Bobbl of their tables at the same time, game by
game, as final figures, or from the table's phone with the desk's confirmation.  No
update may be lost: every Bobbl has the result entered for it, the version counts every
command, the audit log has one row per command, and the ranking agrees with a tally made
independently from what was entered."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

from stammtisch.persistence.db import Database
from stammtisch.persistence.tournament_store import TournamentStore
from stammtisch.tournament.service import TournamentService

PAIRS, ROUNDS, DESKS, DEVICES = 118, 5, 6, 8
TARGET = 21


def outcome(r: int, table: int, index: int) -> tuple[int, int]:
    """The result entered for Bobbl r/table/index: (winning side, loser's points)."""
    return 1 + (r + table + index) % 2, (r * 7 + table * 3 + index * 5) % TARGET


def enter(svc: TournamentService, tid: str, who: str, r: int, table: int,
          index: int) -> int:
    """Enter one Bobbl the way table ``table`` does it; returns the commands it took."""
    winner, lp = outcome(r, table, index)
    loser = 3 - winner
    if table % 6 == 2:  # from the table's phone, confirmed by the desk
        svc.phone_enter(tid, table, index, winner=winner, loser_points=lp,
                        expected_version=0)
        svc.confirm(tid, who, r, table, index, f"phone:{table}", expected_version=1)
        return 2
    if table % 2:  # final figures at the desk
        svc.enter(tid, who, r, table, index, winner=winner, loser_points=lp,
                  expected_version=0)
        return 1
    # game by game: the winner's last game is not written
    w = 10 + table % 7
    games = [[winner, w], *([[loser, lp]] if lp else []), [winner, TARGET - w]]
    svc.enter(tid, who, r, table, index, games=games, expected_version=0)
    return 1


def run(workers: list[TournamentService], job: Callable[[int, TournamentService], int]
        ) -> int:
    barrier = Barrier(len(workers))

    def start(k: int) -> int:
        barrier.wait()
        return job(k, workers[k])

    with ThreadPoolExecutor(len(workers)) as pool:
        return sum(pool.map(start, range(len(workers))))  # re-raises a worker's error


def test_118_pairs_five_rounds_from_concurrent_devices(
        db_url: str, databases: Callable[[str], Database]) -> None:
    lead = TournamentService(TournamentStore(databases(db_url)), seed=118)
    workers = [TournamentService(TournamentStore(databases(db_url)), seed=k)
               for k in range(DEVICES)]
    tid = lead.create("Turnierleitung", {"name": "Tauperlitzer Seefest-Mucker",
                                         "planned_tables": 62})["id"]
    commands = 1

    def register(k: int, svc: TournamentService) -> int:
        for i in range(k, PAIRS, DESKS):
            svc.register(tid, f"Desk {k}", [f"Anna {i}", f"Bernd {i}"], paid=i % 4 != 0)
        return len(range(k, PAIRS, DESKS))

    commands += run(workers[:DESKS], register)
    t, info = lead.load(tid)
    assert len(t.entrants) == PAIRS == len(set(t.draw.values())) and info.version == commands
    moves = lead.close_gaps(tid, "Turnierleitung")["moves"]
    assert moves  # 118 pairs drawn over 62 planned tables leave gaps
    commands += 1
    lead.start(tid, "Turnierleitung")
    commands += 1

    for r in range(1, ROUNDS + 1):
        if r > 1:
            lead.next_round(tid, "Turnierleitung")
            commands += 1
        t, _ = lead.load(tid)
        tables = sorted(t.rounds[-1].tables)
        assert len(tables) == PAIRS // 2

        def results(k: int, svc: TournamentService, tables: list[int] = tables,
                    r: int = r) -> int:
            return sum(enter(svc, tid, f"Device {k}", r, table, index)
                       for table in tables[k::DEVICES] for index in range(2))

        commands += run(workers, results)

    t, info = lead.load(tid)
    # every Bobbl has exactly the result entered for it: nothing was lost
    assert len(t.slots) == ROUNDS * (PAIRS // 2) * 2
    expected: dict[str, Counter[str]] = {p: Counter() for p in t.entrants}
    for slot in t.slots.values():
        winner, lp = outcome(slot.round, slot.table, slot.index)
        assert slot.result is not None and slot.decided, slot.key
        assert slot.result.winner == winner, slot.key
        assert slot.result.points[2 - winner] == lp, slot.key
        a, b = t.rounds[slot.round - 1].tables[slot.table]
        assert b is not None
        won, lost = (a[0], b[0]) if winner == 1 else (b[0], a[0])
        expected[won].update(bobbl=1, gegnerische_tore=lp)
        expected[lost].update(tore=lp)
    assert t.pending() == []
    assert info.version == commands
    audit = lead.audit(tid, limit=10_000)
    assert [e["seq"] for e in audit] == list(range(1, commands + 1))
    who = Counter(e["who"] for e in audit)
    assert who["Turnierleitung"] == 1 + 1 + 1 + (ROUNDS - 1)
    assert sum(n for w, n in who.items() if w.startswith("phone table")) == \
        ROUNDS * 2 * len([tb for tb in range(1, PAIRS // 2 + 1) if tb % 6 == 2])

    ranking: dict[str, Any] = lead.ranking(tid, "Turnierleitung")
    rows = ranking["rows"]
    assert len(rows) == PAIRS and [row["rank"] for row in rows] == list(range(1, PAIRS + 1))
    for row in rows:
        want = expected[row["pair"]]
        assert (row["bobbl"], row["tore"], row["gegnerische_tore"], row["played"]) == (
            want["bobbl"], want["tore"], want["gegnerische_tore"], ROUNDS * 2), row
    keys = [(-row["bobbl"], -row["tore"], row["gegnerische_tore"]) for row in rows]
    assert keys == sorted(keys)
    assert lead.info(tid).version == commands + (1 if ranking["lots_drawn"] else 0)
