"""The table manager of one worker among several: it holds only the tables it owns, gives
each a fenced store port, and lists the lobby of all workers."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import redis

from stammtisch.persistence.models import GameTable
from stammtisch.persistence.store import Store
from stammtisch.server.live.port import StorePort, TablePort
from stammtisch.server.settings import Settings
from stammtisch.server.tables import TableManager, TableRuntime
from stammtisch.server.workers.fencing import FencedPort
from stammtisch.server.workers.leases import Leases
from stammtisch.server.workers.lobby import SharedLobby


class ClusterTableManager(TableManager):
    """See the module docstring.  ``refused(table_id, gen)``: a table's write was refused
    by the database (another worker has taken it)."""

    def __init__(self, store: Store, settings: Settings, leases: Leases, control: Any,
                 sync: redis.Redis, refused: Callable[[str, int | None], None]) -> None:
        super().__init__(store, settings)
        self.leases = leases
        self.shared = SharedLobby(self, control, sync)
        self._refused = refused

    def port_for(self, table_id: str) -> TablePort:
        """The table's port, fenced with the lease generation it was taken with."""
        inner = StorePort(self.store, self.writer, table_id, self.leases.gens.get(table_id))
        return FencedPort(inner, self._refused, self.leases.finished)

    def load(self) -> None:
        """No table is loaded at start: the scanner takes the tables without an owner."""
        self.leases.seed_tables()

    def close(self) -> None:
        super().close()
        self.leases.release_all(list(self.tables))

    def insert_table(self, **fields: Any) -> GameTable:
        """A new table's row, with this worker's lease on it (taken first)."""
        self.leases.claim_new(str(fields["id"]))
        row = super().insert_table(**fields)  # lease_gen 0: the creator's generation
        self.leases.created(row.id)
        return row

    def create(self, **kwargs: Any) -> TableRuntime:
        rt = super().create(**kwargs)
        self.shared.created[rt.id] = time.time()
        return rt

    def adopt(self, row: GameTable) -> TableRuntime:
        rt = super().adopt(row)
        self.shared.created[rt.id] = (row.created_at.timestamp() if row.created_at
                                      else time.time())
        return rt

    def remove(self, table_id: str) -> TableRuntime | None:
        """Stop serving a table: its port is dead (nothing more is read, written or
        shown) and its timers stop."""
        rt = self.tables.pop(table_id, None)
        self.shared.created.pop(table_id, None)
        if rt is not None:
            if isinstance(rt.port, FencedPort):
                rt.port.lose()
            rt.close()
        return rt

    def lobby_list(self) -> list[dict[str, Any]]:
        """Every worker's public tables (the hash ``stammtisch:lobby``), oldest first."""
        return self.shared.entries()

    async def lobby_changed(self) -> None:
        await self.shared.publish()
