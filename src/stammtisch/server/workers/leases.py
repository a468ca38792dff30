"""The leases of one worker: which live tables it owns, taking the tables without an
owner, renewing its own.

Each live table is owned by one worker at a time: the Redis key
``stammtisch:lease:<table>`` holds the owner's worker id, set with ``SET NX PX ttl``.
The owner renews all its leases every ttl/3 with a compare-and-renew script; a renewal
that finds another id (or none) drops the table.  A table without an owner is taken by
the first worker that needs it (a socket, a REST call) or finds it (the scan of
``stammtisch:tables`` every ``SCAN_SECONDS``): it fences the table in the database
first (``Store.fence_table``: the lease generation its writes will name) and only then
rebuilds it from its records (``TableManager.adopt``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any

import redis
from sqlalchemy import select

from stammtisch.persistence.db import Database
from stammtisch.persistence.models import GameTable
from stammtisch.persistence.store import Store
from stammtisch.server.tables import TableManager
from stammtisch.server.workers.common import (
    LEASE,
    LOBBY,
    RESEED_SECONDS,
    SCAN_SECONDS,
    TABLES,
    UNAVAILABLE,
    LeaseLost,
    unreachable,
)

log = logging.getLogger("stammtisch.cluster")

RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class Leases:
    """This worker's leases (see the module docstring).  ``drop(table_id)``: stop
    serving a table whose lease is gone; ``redis_away(error)``: Redis cannot be reached."""

    def __init__(self, worker_id: str, ttl_ms: int, sync: redis.Redis, control: Any,
                 store: Store, db: Database, *, drop: Callable[[str], None],
                 redis_away: Callable[[Exception], None]) -> None:
        self.id = worker_id
        self.ttl_ms = ttl_ms
        self.sync = sync
        self.control = control
        self.store = store
        self.db = db
        self._drop = drop
        self._redis_away = redis_away
        self._release = sync.register_script(RELEASE)
        self._arenew = control.register_script(RENEW)
        #: the lease generation each local table was taken with (the fencing token of its
        #: writes; ``Store.fence_table``)
        self.gens: dict[str, int] = {}
        #: when this worker lost (dropped) each table (monotonic clock)
        self.lost_at: dict[str, float] = {}
        self._taking: dict[str, asyncio.Future[bool]] = {}
        self.closing = False

    # -- one table ------------------------------------------------------------------
    def claim_new(self, table_id: str) -> None:
        """The lease of a table being created here (before its row is written)."""
        if not self.sync.set(LEASE + table_id, self.id, nx=True, px=self.ttl_ms):
            raise LeaseLost(table_id)
        self.gens[table_id] = 0  # a new row's lease_gen

    def created(self, table_id: str) -> None:
        """A new table's row is written: it joins the live tables."""
        with contextlib.suppress(redis.RedisError):
            self.sync.sadd(TABLES, table_id)

    def finished(self, table_id: str) -> None:
        """A table's match is over: it leaves the live tables and the lobby."""
        with contextlib.suppress(redis.RedisError):
            self.sync.srem(TABLES, table_id)
            self.sync.hdel(LOBBY, table_id)

    def lost(self, table_id: str) -> None:
        """The table is not this worker's any more."""
        self.lost_at[table_id] = time.monotonic()
        self.gens.pop(table_id, None)

    def release(self, table_id: str) -> None:
        with contextlib.suppress(redis.RedisError):
            self._release(keys=[LEASE + table_id], args=[self.id])

    def release_all(self, table_ids: list[str]) -> None:
        """At shutdown: give the leases back at once (another worker takes over)."""
        self.closing = True
        for table_id in table_ids:
            self.release(table_id)

    async def owner(self, table_id: str) -> str | None:
        value = await self.control.get(LEASE + table_id)
        return None if value is None else str(value)

    async def ensure(self, table_id: str, manager: TableManager) -> str | None:
        """``"local"`` when this worker serves the table (taking it if nobody owns it),
        the owner's worker id when another does, ``None`` when there is no live table,
        :data:`~.common.UNAVAILABLE` when it cannot be said now (Redis away, a race)."""
        try:
            for _ in range(3):
                if table_id in manager.tables:
                    return "local"
                owner = await self.owner(table_id)
                if owner is not None and owner != self.id:
                    return owner
                row = self.store.table(table_id)
                if row is None or row.status not in ("open", "playing"):
                    return None  # no live table: no lease for it
                if await self.take(table_id, manager):
                    return "local"
                await asyncio.sleep(0.05)
        except (redis.RedisError, OSError):
            pass
        return UNAVAILABLE

    # -- taking tables ------------------------------------------------------------------
    async def take(self, table_id: str, manager: TableManager) -> bool:
        """Take a table without an owner and rebuild it from the database."""
        running = self._taking.get(table_id)
        if running is not None:
            return await running
        return table_id in await self.take_many([table_id], manager)

    async def take_many(self, ids: list[str], manager: TableManager) -> set[str]:
        """Take the tables of ``ids`` that have no owner (``SET NX``), then fence each
        in the database and rebuild it from its records; the ids taken."""
        loop = asyncio.get_running_loop()
        mine: dict[str, asyncio.Future[bool]] = {}
        for table_id in ids:
            if self.closing or table_id in self._taking or table_id in manager.tables:
                continue
            fut: asyncio.Future[bool] = loop.create_future()
            self._taking[table_id] = fut
            mine[table_id] = fut
        taken: set[str] = set()
        try:
            won = []
            for table_id in mine:
                if await self.control.set(LEASE + table_id, self.id, nx=True,
                                          px=self.ttl_ms):
                    won.append(table_id)
            for table_id in won:
                try:
                    if await self._load(table_id, manager):
                        taken.add(table_id)
                except Exception:  # a broken table: give the lease back, try again later
                    self.release(table_id)
            if taken:
                await manager.lobby_changed()
        finally:
            for table_id, fut in mine.items():
                self._taking.pop(table_id, None)
                if not fut.done():
                    fut.set_result(table_id in taken)
        return taken

    async def _load(self, table_id: str, manager: TableManager) -> bool:
        # fence first (the former owner's writes fail from here on; one in flight is
        # waited for), then read: the row and records hold all it acknowledged
        gen = await asyncio.to_thread(self.store.fence_table, table_id)
        row = None if gen is None else self.store.table(table_id)
        if row is None or gen is None or row.status not in ("open", "playing"):
            await self.control.srem(TABLES, table_id)
            await self.control.hdel(LOBBY, table_id)
            self._release(keys=[LEASE + table_id], args=[self.id])
            return False
        if not await self._arenew(keys=[LEASE + table_id], args=[self.id, self.ttl_ms]):
            return False
        self.gens[table_id] = gen
        manager.adopt(row)
        return True

    def seed_tables(self) -> None:
        """Put the database's live tables into ``stammtisch:tables``."""
        with self.db.session() as s:
            ids = list(s.scalars(select(GameTable.id).where(
                GameTable.status.in_(("open", "playing")))))
        if ids:
            self.sync.sadd(TABLES, *ids)

    # -- background work ----------------------------------------------------------------
    async def renew_loop(self, manager: TableManager) -> None:
        """Renew every lease every ttl/3; drop the tables whose lease is gone."""
        every = self.ttl_ms / 3000
        while True:
            before = time.monotonic()
            await asyncio.sleep(every)
            late = time.monotonic() - before - every
            if late > every:  # the event loop stood still: leases may have run out
                log.warning("lease renewal %.1f s late (the event loop was busy)", late)
            ids = list(manager.tables)
            if not ids or self.closing:  # (closing: the leases were given back)
                continue
            try:
                async with self.control.pipeline(transaction=False) as pipe:
                    for table_id in ids:
                        await self._arenew(keys=[LEASE + table_id],
                                           args=[self.id, self.ttl_ms], client=pipe)
                    results = await pipe.execute()
            except redis.ConnectionError as e:
                if unreachable(e):
                    self._redis_away(e)
                continue
            except redis.RedisError:
                continue
            for table_id, ok in zip(ids, results, strict=True):
                if not ok:
                    log.warning("table %s: lease gone at renewal; dropped", table_id)
                    self._drop(table_id)

    async def scan_loop(self, manager: TableManager) -> None:
        """Take the live tables that have no owner (their worker died or let them go)."""
        last_seed = time.monotonic()
        while True:
            await asyncio.sleep(SCAN_SECONDS * (0.75 + random.random() / 2))
            try:
                if time.monotonic() - last_seed > RESEED_SECONDS:
                    last_seed = time.monotonic()
                    await asyncio.to_thread(self.seed_tables)
                ids = [str(t) for t in await self.control.smembers(TABLES)
                       if str(t) not in manager.tables]
                if not ids:
                    continue
                owners = await self.control.mget([LEASE + t for t in ids])
                now = time.monotonic()
                free = [t for t, o in zip(ids, owners, strict=True) if o is None
                        and now - self.lost_at.get(t, -1e9) > 2 * self.ttl_ms / 1000]
                random.shuffle(free)
                if free:
                    await self.take_many(free[:200], manager)
            except (redis.RedisError, OSError):
                continue
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken table must not stop the scanner
                continue
