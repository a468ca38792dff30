"""The database fence of several workers (``game_tables.lease_gen``, migration 0004).

A worker that takes a table over raises the table's lease generation
(``Store.fence_table``) before it reads the records; every write of the owner names the
generation it took the table with and is refused (``StaleLeaseError``, nothing written)
once that is not current.  Checked on SQLite and on the local PostgreSQL: the store's
writes, the group-committing writer's batches, and the race the fence exists for — a
takeover while the former owner's write is in flight waits for that write and then
reads it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import select

from stammtisch.persistence.db import Database
from stammtisch.persistence.models import ChatMessage, GameTable
from stammtisch.persistence.store import StaleLeaseError, Store, check_lease
from stammtisch.server.loadtest import run_sync
from stammtisch.server.writer import GameWriter


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: Any, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'fence.sqlite3'}"
    else:
        url = request.getfixturevalue("pg_database")
        with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
            conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
            conn.execute("CREATE SCHEMA public")
    db = Database(url)
    db.migrate()
    try:
        yield Store(db)
    finally:
        db.dispose()


def _table(store: Store, table_id: str = "T1") -> str:
    store.create_table(id=table_id, name="Fence", creator_id=None, public=True,
                       invite_code="x", rules={}, settings={}, seats=[], status="playing")
    return table_id


def _log(store: Store, table_id: str) -> list[Any]:
    return [row.record["log"] for row in store.games_of_table(table_id)]


def _save(store: Store, table_id: str, log: list[str], gen: int | None) -> int:
    return store.save_game(table_id, 1, {"log": log}, False, None, [], gen)


def test_a_new_table_has_generation_zero_and_a_takeover_raises_it(store: Store) -> None:
    tid = _table(store)
    with store.db.session() as s:
        assert s.scalar(select(GameTable.lease_gen).where(GameTable.id == tid)) == 0
    assert store.fence_table(tid) == 1
    assert store.fence_table(tid) == 2
    assert store.fence_table("nope") is None


def test_writes_with_an_old_generation_are_refused_and_write_nothing(store: Store) -> None:
    tid = _table(store)
    _save(store, tid, ["a"], 0)  # the insert path
    _save(store, tid, ["a", "b"], 0)  # the update path
    store.update_table(tid, gen=0, seats=[{"kind": "empty"}])
    store.add_chat(tid, None, "Ada", "servus", 0)
    assert store.fence_table(tid) == 1  # another worker took the table
    with pytest.raises(StaleLeaseError, match="lease generation 0"):
        _save(store, tid, ["a", "b", "c"], 0)
    with pytest.raises(StaleLeaseError):
        store.save_game(tid, 2, {"log": ["x"]}, False, None, [], 0)  # a new game too
    with pytest.raises(StaleLeaseError):
        store.update_table(tid, gen=0, status="finished")
    with pytest.raises(StaleLeaseError):
        store.add_chat(tid, None, "Ada", "zu spät", 0)
    assert _log(store, tid) == [["a", "b"]]
    row = store.table(tid)
    assert row is not None and row.status == "playing"
    with store.db.session() as s:
        assert list(s.scalars(select(ChatMessage.text))) == ["servus"]
    # the new owner writes with its own generation; one process alone writes unfenced
    _save(store, tid, ["a", "b", "d"], 1)
    _save(store, tid, ["a", "b", "d", "e"], None)
    assert _log(store, tid) == [["a", "b", "d", "e"]]


def test_a_takeover_waits_for_the_write_in_flight_and_reads_it(store: Store) -> None:
    """The race the fence closes: the former owner has checked its generation and not yet
    committed when another worker takes the table.  The takeover's fence waits for that
    transaction, so the records it reads next hold the write; a write that starts after
    the fence is refused."""
    tid = _table(store)
    _save(store, tid, ["a"], 0)
    fenced: list[int | None] = []
    with store.db.engine.begin() as conn:  # the former owner's write, in flight
        check_lease(conn, tid, 0)
        taker = threading.Thread(target=lambda: fenced.append(store.fence_table(tid)))
        taker.start()
        time.sleep(0.4)
        assert taker.is_alive() and not fenced  # the takeover waits for the commit
        conn.execute(GameTable.__table__.update()  # type: ignore[attr-defined]
                     .where(GameTable.id == tid).values(name="late but in"))
        from stammtisch.persistence.store import _game_update

        conn.execute(_game_update(False, False), {
            "b_table": tid, "b_number": 1, "b_record": {"log": ["a", "b"]},
            "b_finished": False, "b_result": None})
    taker.join(10)
    assert fenced == [1]
    assert _log(store, tid) == [["a", "b"]]  # what the new owner reads now
    with pytest.raises(StaleLeaseError):
        _save(store, tid, ["a", "b", "c"], 0)


def test_group_commit_refuses_the_stale_saves_of_a_batch_only(store: Store) -> None:
    writer = GameWriter(store)
    mine, moved = _table(store, "MINE"), _table(store, "MOVED")

    async def play() -> tuple[list[Any], list[Any]]:
        first = await asyncio.gather(
            writer.save(mine, 1, {"log": ["m1"]}, False, None, [], 0),
            writer.save(moved, 1, {"log": ["o1"]}, False, None, [], 0),
            return_exceptions=True)
        store.fence_table(moved)  # another worker takes MOVED
        second = await asyncio.gather(
            writer.save(mine, 1, {"log": ["m1", "m2"]}, False, None, [], 0),
            writer.save(moved, 1, {"log": ["o1", "o2"]}, False, None, [], 0),
            writer.save(moved, 2, {"log": ["n1"]}, False, None, [], 0),
            return_exceptions=True)
        return first, second

    first, second = run_sync(play())
    assert first == [None, None]
    assert second[0] is None
    assert [type(e) for e in second[1:]] == [StaleLeaseError, StaleLeaseError]
    assert _log(store, mine) == [["m1", "m2"]]
    assert _log(store, moved) == [["o1"]]
    # the writer keeps serving the table's new owner (its generation) afterwards
    run_sync(writer.save(moved, 1, {"log": ["o1", "x"]}, False, None, [], 1))
    assert _log(store, moved) == [["o1", "x"]]
