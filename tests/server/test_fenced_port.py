"""Fencing as a wrapper of a table's store port (``server/workers/fencing.py``): every read
and write of a live table goes through its port, so a table whose write the database
refused (another worker took it) shows nothing more and refuses everything — whichever
entry point a message comes in by.  On SQLite, without Redis: the fence is the
database's (``game_tables.lease_gen``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stammtisch.games import registry
from stammtisch.persistence.db import Database
from stammtisch.persistence.store import Store
from stammtisch.server.live.port import StorePort, TablePort
from stammtisch.server.loadtest import run_sync
from stammtisch.server.settings import Settings
from stammtisch.server.tables import Connection, Seat, TableManager, TableMoved
from stammtisch.server.workers import LeaseLost
from stammtisch.server.workers.fencing import FencedPort


class FencedManager(TableManager):
    """A manager whose tables get fenced ports with generation 0 (a new table's)."""

    def __init__(self, store: Store, settings: Settings) -> None:
        super().__init__(store, settings)
        self.refused: list[tuple[str, int | None]] = []
        self.finished: list[str] = []

    def port_for(self, table_id: str) -> TablePort:
        return FencedPort(StorePort(self.store, self.writer, table_id, 0),
                          lambda t, gen: self.refused.append((t, gen)), self.finished.append)


@pytest.fixture
def manager(tmp_path: Path) -> FencedManager:
    db = Database(f"sqlite:///{tmp_path / 'fence.sqlite3'}")
    db.migrate()
    return FencedManager(Store(db), Settings(database_url=db.url, bot_delay=0, seed=5,
                                             auto_next_delay=0))


def test_a_refused_write_makes_the_table_dead_for_every_entry_point(
        manager: FencedManager) -> None:
    user = manager.store.create_user("Ada", None, True)
    sent: list[Any] = []

    async def send(msg: dict[str, Any]) -> None:
        sent.append(msg)

    async def play() -> None:
        rt = manager.create(name="F", creator_id=user.id, creator_name="Ada", public=True,
                            rules=registry.get("mucken").make_rules("seefest"),
                            settings={"turn_timer": 0}, bot_seats=[1, 2, 3],
                            bot_name="random", creator_seat=0, game="mucken")
        conn = Connection(send=send, user_id=user.id, name="Ada", tokens=1e9)
        await rt.connect(1, conn)
        async with rt.lock:
            await rt.start_game()
        assert rt.port.alive and sent
        manager.store.fence_table(rt.id)  # another worker takes the table over
        version = rt.version
        with pytest.raises(LeaseLost):
            rt.save_table()
        assert manager.refused == [(rt.id, 0)] and not rt.port.alive
        sent.clear()
        rt.version += 1
        await rt.broadcast()  # nothing of its memory is shown any more
        assert sent == []
        with pytest.raises(TableMoved):
            rt.message_for(conn)
        with pytest.raises(TableMoved):
            await rt.handle_action(conn, "next", version)
        with pytest.raises(TableMoved):
            await rt.chat(conn, "servus")
        with pytest.raises(TableMoved):
            await rt.connect(2, conn)
        with pytest.raises(TableMoved):
            await rt.save_game_committed()
        await rt.disconnect(1)  # a socket of a moved table just goes
        rt.close()
        manager.close()

    run_sync(play())


def test_the_plain_port_and_a_finished_table(manager: FencedManager) -> None:
    async def play() -> None:
        rt = manager.create(name="G", creator_id=None, creator_name="", public=True,
                            rules=registry.get("mucken").make_rules("seefest"),
                            settings={"turn_timer": 0}, bot_seats=[], bot_name="random",
                            creator_seat=None, seats=[Seat(kind="bot") for _ in range(4)],
                            game="mucken")
        await rt.stop("done")
        assert manager.finished == [rt.id]  # it leaves the shared lists
        row = manager.store.table(rt.id)
        assert row is not None and row.status == "finished"
        rt.close()

    run_sync(play())
