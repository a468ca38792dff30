"""Several workers (processes, machines) sharing one PostgreSQL and one Redis.

Switched on by ``Settings.redis_url`` (``stammtisch serve --redis URL``); without it the
server is the single process of :mod:`stammtisch.server.tables`, unchanged.

* **Leases.**  Each live table is owned by one worker at a time: the Redis key
  ``stammtisch:lease:<table>`` holds the owner's worker id, set with ``SET NX PX ttl``
  (``Settings.lease_ttl``, 3 s).  The owner renews all its leases every ttl/3 with a
  compare-and-renew Lua script (``pexpire`` only if the value is still its own id); a
  renewal that finds another id (or none) drops the table.
* **Fencing** (in the database, not in Redis: a lease can run out while its worker stalls,
  and only the database can tell a late write from a current one).  Each table row has a
  lease generation (``game_tables.lease_gen``, migration 0004).  A worker that takes a
  table over first raises it (``Store.fence_table``, which waits for a write of the former
  owner still in flight) and only then reads the table's row and records; every write of
  the owner (``update_table``, ``save_game``, ``add_chat`` — :class:`FencedStore`, and the
  group-committing writer's batches) checks in its own transaction that the generation
  is still the one it took the table with.  A write that finds a newer one is not made
  (:class:`LeaseLost`), the worker drops the table (timers stopped, its sockets closed with
  1012 so the clients reconnect) and never writes it again.  So whatever the old owner
  committed — and so acknowledged — before the takeover is in what the new owner reads,
  and nothing after it is committed: no acknowledged action is lost, however long a
  worker stalls, and whatever happens to the keys in Redis.
* **Takeover.**  Every worker keeps the ids of the live tables in the Redis set
  ``stammtisch:tables`` (seeded from the database at start and every
  ``RESEED_SECONDS``) and looks every ``SCAN_SECONDS`` for tables without a lease; it
  takes such a table (``SET NX``) and rebuilds it from its stored records (the restore
  path of a restarted server, :meth:`TableRuntime.restore`).  A worker killed with -9 thus
  loses its tables for at most ttl + ``SCAN_SECONDS`` + the restore.
* **Relay.**  A websocket or a REST call (``/api/tables/<id>`` and its ``join``,
  ``leave``, ``bots``) may land on any worker.  If the table has no owner, that worker
  takes it; if another worker owns it, the request goes to the owner through Redis
  pub/sub: every worker listens on its own channel ``stammtisch:worker:<id>``.  A relayed
  websocket is a :class:`~stammtisch.server.tables.Connection` at the owner whose ``send``
  publishes to the relaying worker with the connection's id, so each seat's state message
  goes only to that seat's connections (the per-seat views never meet another seat's
  socket).  A REST call is replayed inside the owner's own app (ASGI) and its answer
  published back.  The relaying worker watches the leases of all tables it relays for
  (one ``MGET`` every ttl/3, :meth:`Cluster._watch_loop`) and closes the client's socket
  (1012, the client reconnects) when the owner changes.
* **Lobby.**  Each owner writes the lobby entries of its public tables into the Redis hash
  ``stammtisch:lobby`` and announces changes on the channel ``stammtisch:lobby``; every
  worker answers ``GET /api/tables`` and its lobby sockets from that hash.

Redis is used as a key-value store with expiry and as pub/sub — no broker, discovery or
consensus of our own.  Online tournament rounds still run per worker (see docs/server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import random
import re
import secrets
import socket
import time
import weakref
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import redis
import redis.asyncio as aredis
from sqlalchemy import select

from stammtisch.persistence.db import Database
from stammtisch.persistence.models import ChatMessage, GameTable
from stammtisch.persistence.store import StaleLeaseError, Store
from stammtisch.server.settings import Settings
from stammtisch.server.tables import (
    Connection,
    TableManager,
    TableMoved,
    TableRuntime,
)

log = logging.getLogger("stammtisch.cluster")

PREFIX = "stammtisch:"
LEASE = PREFIX + "lease:"
TABLES = PREFIX + "tables"
LOBBY = PREFIX + "lobby"
WORKER = PREFIX + "worker:"

#: seconds between scans for tables without an owner, and between re-seeds of
#: ``stammtisch:tables`` from the database (after a Redis restart it is empty)
SCAN_SECONDS = 1.0
RESEED_SECONDS = 5.0
#: seconds between two writes of a worker's lobby entries (changes in between are gathered)
LOBBY_SECONDS = 0.5
#: seconds a relayed REST call waits for the owner's answer
HTTP_TIMEOUT = 5.0
#: close code for "the table moved to another worker: connect again" (RFC 6455: service
#: restart); the browser's socket() reconnects on it
CLOSE_MOVED = 1012
#: close code when the table's owner cannot be found just now (Redis away): "try again
#: later" (RFC 6455: 1013); the browser reconnects
CLOSE_TRY_AGAIN = 1013
#: connections of a worker's asyncio Redis client for the relay (publishes, the listener)
#: and of its client for the leases (renewals, takeovers, owners, the lobby hash)
REDIS_CONNECTIONS = 64
CONTROL_CONNECTIONS = 8
#: :meth:`Cluster.ensure`'s answer when it cannot say who serves a table now
UNAVAILABLE = "unavailable"

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

TABLE_PATH = re.compile(r"^/api/tables/([A-Za-z0-9]{1,16})(?:/(?:join|leave|bots))?/?$")


def unreachable(error: redis.ConnectionError) -> bool:
    """Whether a connection error means Redis is away (refused, reset, unknown host) —
    not merely that all of this worker's connections to it are busy (the pool's limit or
    its wait for a free connection)."""
    return not isinstance(error, redis.exceptions.MaxConnectionsError) and \
        str(error) != "No connection available."


class LeaseLost(TableMoved):
    """A write for a table this worker no longer owns (or cannot prove it owns)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id}: this worker does not own its lease any more")
        self.table_id = table_id


class FencedStore(Store):
    """The store whose table writes are fenced by the table's lease generation (see the
    module docstring); everything else is the plain :class:`Store`."""

    def __init__(self, db: Database, cluster: Cluster) -> None:
        super().__init__(db)
        self.cluster = cluster

    @staticmethod
    def _gen(table_id: str, gen: int | None) -> int:
        """The generation a write names: the writing runtime's (``TableRuntime.lease_gen``,
        the one its worker took the table with — a runtime dropped and replaced by a
        newer one keeps its old generation, so its late writes are refused)."""
        if gen is None:
            raise LeaseLost(table_id)  # (never: every runtime of a worker has one)
        return gen

    def create_table(self, **fields: Any) -> GameTable:
        self.cluster.claim_new(str(fields["id"]))
        row = super().create_table(**fields)  # lease_gen 0: the creator's generation
        with contextlib.suppress(redis.RedisError):
            self.cluster.sync.sadd(TABLES, row.id)
        return row

    def update_table(self, table_id: str, *, gen: int | None = None, **fields: Any) -> None:
        with self.cluster.fenced(table_id, gen):
            super().update_table(table_id, gen=self._gen(table_id, gen), **fields)
        if fields.get("status") == "finished":
            with contextlib.suppress(redis.RedisError):
                self.cluster.sync.srem(TABLES, table_id)
                self.cluster.sync.hdel(LOBBY, table_id)

    def save_game(self, table_id: str, number: int, record: dict[str, Any], finished: bool,
                  result: dict[str, Any] | None, players: list[Any],
                  gen: int | None = None) -> int:
        with self.cluster.fenced(table_id, gen):
            return super().save_game(table_id, number, record, finished, result, players,
                                     self._gen(table_id, gen))

    def add_chat(self, table_id: str, user_id: int | None, name: str,
                 text: str, gen: int | None = None) -> ChatMessage:
        with self.cluster.fenced(table_id, gen):
            return super().add_chat(table_id, user_id, name, text, self._gen(table_id, gen))


class FencedTable(TableRuntime):
    """A live table of one worker among several.  Its writes name the lease generation
    the worker had when it made this runtime.  A write refused by the database
    (:class:`LeaseLost`) makes the runtime *dead* at once — before anything else runs: it
    sends nothing more (its memory may hold the refused action, which must never be
    shown), refuses every message with :class:`LeaseLost` (a :class:`TableMoved`: the
    socket is closed with 1012 and reconnects, to the new owner) — and the worker drops
    the table."""

    def __init__(self, manager: TableManager, row: Any) -> None:
        super().__init__(manager, row)
        assert isinstance(manager, ClusterTableManager)
        self.lease_gen = manager.cluster.gens.get(self.id)
        self.dead = False

    def _alive(self) -> None:
        if self.dead:
            raise LeaseLost(self.id)

    async def connect(self, key: int, conn: Connection) -> None:
        self._alive()
        await super().connect(key, conn)

    async def disconnect(self, key: int) -> None:
        with contextlib.suppress(LeaseLost):
            await super().disconnect(key)

    async def handle_action(self, conn: Connection, text: Any, version: Any,
                            ack: Any = None) -> None:
        self._alive()
        await super().handle_action(conn, text, version, ack)

    async def chat(self, conn: Connection, text: Any) -> None:
        self._alive()
        await super().chat(conn, text)

    def message_for(self, conn: Connection) -> dict[str, Any]:
        self._alive()
        return super().message_for(conn)

    async def broadcast(self) -> None:
        if not self.dead:
            await super().broadcast()

    def save_table(self) -> None:
        self._alive()  # a dropped runtime writes nothing more
        super().save_table()

    async def save_game_committed(self) -> None:
        self._alive()
        manager = self.manager
        assert isinstance(manager, ClusterTableManager)
        # (the group-committing writer refuses a stale save with StaleLeaseError)
        with manager.cluster.fenced(self.id, self.lease_gen):
            await super().save_game_committed()

    def _spawn(self, fn: Callable[[], Coroutine[Any, Any, None]]) -> None:
        async def fenced() -> None:  # bots, timers
            with contextlib.suppress(LeaseLost):
                await fn()

        super()._spawn(fenced)


class ClusterTableManager(TableManager):
    """The table manager of one worker among several: it holds only the tables it owns
    and lists the lobby of all workers (from Redis)."""

    runtime = FencedTable

    def __init__(self, store: Store, settings: Settings, cluster: Cluster) -> None:
        super().__init__(store, settings)
        self.cluster = cluster
        #: creation time of each local table (lobby order)
        self.created: dict[str, float] = {}

    def load(self) -> None:
        """No table is loaded at start: the scanner takes the tables without an owner."""
        self.cluster.seed_tables()

    async def start(self) -> None:
        await self.cluster.start()

    def close(self) -> None:
        super().close()
        self.cluster.release_all()

    def create(self, **kwargs: Any) -> TableRuntime:
        rt = super().create(**kwargs)
        self.created[rt.id] = time.time()
        return rt

    def adopt(self, row: GameTable) -> TableRuntime:
        """Rebuild a table this worker has just taken from its stored records."""
        rt = self.runtime(self, row)
        rt.restore()
        self.tables[rt.id] = rt
        self.created[rt.id] = row.created_at.timestamp() if row.created_at else time.time()
        rt.schedule()
        for i, s in enumerate(rt.seats):
            if s.kind == "human" and s.away:
                rt.arm_away_timer(i)
        return rt

    def local_entries(self) -> list[dict[str, Any]]:
        return TableManager.lobby_list(self)

    def lobby_list(self) -> list[dict[str, Any]]:
        """Every worker's public tables (the hash ``stammtisch:lobby``), oldest first."""
        try:
            raw = self.cluster.sync.hgetall(LOBBY)
        except redis.RedisError:
            return self.local_entries()
        items = []
        for value in raw.values():
            with contextlib.suppress(ValueError, TypeError, KeyError):
                at, entry = json.loads(value)
                items.append((float(at), entry))
        items.sort(key=lambda x: x[0])
        return [entry for _, entry in items]

    async def lobby_changed(self) -> None:
        await self.cluster.publish_lobby()

    async def local_lobby_changed(self) -> None:
        await TableManager.lobby_changed(self)


class Cluster:
    """One worker's part in the cluster: leases, takeover, relay, shared lobby."""

    def __init__(self, settings: Settings, db: Database) -> None:
        self.settings = settings
        self.db = db
        self.id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.ttl_ms = max(300, int(settings.lease_ttl * 1000))
        self.sync = redis.Redis.from_url(settings.redis_url, decode_responses=True,
                                         socket_timeout=2, socket_connect_timeout=2)
        # a blocking pool: at the peak hundreds of tables publish at once; they wait for
        # one of the pool's connections (up to 5 s) instead of failing with "too many
        # connections" (redis-py's plain pool refuses beyond its limit)
        self.aio = aredis.Redis(connection_pool=aredis.BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=REDIS_CONNECTIONS, timeout=5,
            decode_responses=True, socket_timeout=5, socket_connect_timeout=2))
        self._release = self.sync.register_script(RELEASE)
        # the leases' own connections: renewals, takeovers and owner look-ups never wait
        # behind the relay's publishes (at the peak those can hold every connection of
        # the pool above for seconds — longer than a lease lasts)
        self.control = aredis.Redis(connection_pool=aredis.BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=CONTROL_CONNECTIONS, timeout=5,
            decode_responses=True, socket_timeout=5, socket_connect_timeout=2))
        self._arenew = self.control.register_script(RENEW)
        self.store = FencedStore(db, self)
        self.manager = ClusterTableManager(self.store, settings, self)
        self.app: Any = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._ids = itertools.count(1)
        #: the lease generation each local table was taken with (the fencing token of its
        #: writes; ``Store.fence_table``)
        self.gens: dict[str, int] = {}
        #: local websockets of each local table (closed when the table moves)
        self.sockets: dict[str, weakref.WeakSet[Any]] = {}
        #: relaying side: connection id -> queue of what the owner sends
        self.inbox: dict[str, asyncio.Queue[tuple[str, Any]]] = {}
        #: relaying side: table id -> {connection id: (owner, inbox)} (_watch_loop)
        self.watched: dict[str, dict[str, tuple[str, asyncio.Queue[tuple[str, Any]]]]] = {}
        #: relaying side: request id -> future of the owner's answer
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: owner side: connection id -> (table id, queue of client frames, worker)
        self.remote: dict[str, tuple[str, asyncio.Queue[str | None], str]] = {}
        self._taking: dict[str, asyncio.Future[bool]] = {}
        #: when this worker lost (dropped) each table (monotonic clock)
        self.lost_at: dict[str, float] = {}
        self.closing = False
        self._lobby_task: asyncio.Task[None] | None = None
        self._lobby_dirty = False

    # -- leases ----------------------------------------------------------------------
    def claim_new(self, table_id: str) -> None:
        if not self.sync.set(LEASE + table_id, self.id, nx=True, px=self.ttl_ms):
            raise LeaseLost(table_id)
        self.gens[table_id] = 0  # a new row's lease_gen

    @contextlib.contextmanager
    def fenced(self, table_id: str, gen: int | None) -> Iterator[None]:
        """Around a write with generation ``gen``: a refusal by the database
        (:class:`StaleLeaseError`: another worker has taken the table) becomes
        :class:`LeaseLost` and drops the table here — if the refused write was the
        current runtime's (a runtime dropped earlier may still get a message from a
        socket not closed yet; the table taken again since is not its)."""
        try:
            yield
        except StaleLeaseError:
            rt = self.manager.tables.get(table_id)
            if self.gens.get(table_id) == gen and rt is not None:
                if isinstance(rt, FencedTable):
                    rt.dead = True  # now: before any other coroutine may show its memory
                self._lost(table_id)
            raise LeaseLost(table_id) from None

    def _lost(self, table_id: str) -> None:
        log.warning("table %s: a write was fenced off (another worker took it); dropped",
                    table_id)
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().call_soon(self.drop, table_id)

    def drop(self, table_id: str) -> None:
        """Stop serving a table: its timers, its local and relayed sockets (1012).  The
        scanner leaves it to the other workers for 2 ttl (this one may be the odd one
        out, e.g. cut off from Redis)."""
        self.lost_at[table_id] = time.monotonic()
        self.gens.pop(table_id, None)
        rt = self.manager.tables.pop(table_id, None)
        if isinstance(rt, FencedTable):
            rt.dead = True
        self.manager.created.pop(table_id, None)
        if rt is not None:
            rt.close()
        for ws in list(self.sockets.pop(table_id, ())):
            self._spawn(self._close_ws(ws, CLOSE_MOVED))
        for cid, (tid, queue, worker) in list(self.remote.items()):
            if tid == table_id:
                self.remote.pop(cid, None)
                queue.put_nowait(None)
                self._spawn(self._publish(worker, "j " + json.dumps(
                    {"k": "end", "cid": cid, "code": CLOSE_MOVED})))

    def redis_away(self, error: Exception) -> None:
        """Redis cannot be reached: this worker can neither renew its leases nor relay,
        so it stops serving every table now (soon after the current message; the
        clients reconnect and hear "try again" until Redis is back, when a worker takes
        the tables from the database).  Its writes would be safe — the database fences
        them — but players relayed through Redis would be cut off and counted as gone."""
        log.warning("Redis cannot be reached (%s: %s): dropping all %d tables of this "
                    "worker", type(error).__name__, error, len(self.manager.tables))
        with contextlib.suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            for table_id in list(self.manager.tables):
                loop.call_soon(self.drop, table_id)

    async def _close_ws(self, ws: Any, code: int) -> None:
        with contextlib.suppress(Exception):
            await ws.close(code=code,
                           reason="table moved" if code == CLOSE_MOVED else "try again")

    def release_all(self) -> None:
        """At shutdown: give the leases back at once (another worker takes over)."""
        self.closing = True
        for table_id in list(self.manager.tables):
            with contextlib.suppress(redis.RedisError):
                self._release(keys=[LEASE + table_id], args=[self.id])

    async def owner(self, table_id: str) -> str | None:
        value = await self.control.get(LEASE + table_id)
        return None if value is None else str(value)

    async def ensure(self, table_id: str) -> str | None:
        """``"local"`` when this worker serves the table (taking it if nobody owns it),
        the owner's worker id when another does, ``None`` when there is no live table,
        :data:`UNAVAILABLE` when it cannot be said now (Redis away, a takeover race)."""
        try:
            for _ in range(3):
                if table_id in self.manager.tables:
                    return "local"
                owner = await self.owner(table_id)
                if owner is not None and owner != self.id:
                    return owner
                row = self.store.table(table_id)
                if row is None or row.status not in ("open", "playing"):
                    return None  # no live table: no lease for it
                if await self.take(table_id):
                    return "local"
                await asyncio.sleep(0.05)
        except (redis.RedisError, OSError):
            pass
        return UNAVAILABLE

    async def take(self, table_id: str) -> bool:
        """Take a table without an owner and rebuild it from the database."""
        running = self._taking.get(table_id)
        if running is not None:
            return await running
        return table_id in await self.take_many([table_id])

    async def take_many(self, ids: list[str]) -> set[str]:
        """Take the tables of ``ids`` that have no owner (``SET NX``), then fence each
        in the database and rebuild it from its records; the ids taken."""
        loop = asyncio.get_running_loop()
        mine: dict[str, asyncio.Future[bool]] = {}
        for table_id in ids:
            if self.closing or table_id in self._taking or table_id in self.manager.tables:
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
                    if await self._load(table_id):
                        taken.add(table_id)
                except Exception:  # a broken table: give the lease back, try again later
                    with contextlib.suppress(redis.RedisError):
                        self._release(keys=[LEASE + table_id], args=[self.id])
            if taken:
                await self.publish_lobby()
        finally:
            for table_id, fut in mine.items():
                self._taking.pop(table_id, None)
                if not fut.done():
                    fut.set_result(table_id in taken)
        return taken

    async def _load(self, table_id: str) -> bool:
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
        self.manager.adopt(row)
        return True

    def seed_tables(self) -> None:
        with self.db.session() as s:
            ids = list(s.scalars(select(GameTable.id).where(
                GameTable.status.in_(("open", "playing")))))
        if ids:
            self.sync.sadd(TABLES, *ids)

    # -- background work ----------------------------------------------------------------
    async def start(self) -> None:
        self._tasks = {asyncio.get_running_loop().create_task(fn()) for fn in
                       (self._listen, self._renew_loop, self._scan_loop, self._watch_loop)}

    async def stop(self) -> None:
        self.closing = True
        tasks = list(self._tasks)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        for client in (self.aio, self.control):
            with contextlib.suppress(Exception):
                await client.aclose()
        with contextlib.suppress(Exception):
            self.sync.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)

    async def _renew_loop(self) -> None:
        """Renew every lease every ttl/3; drop the tables whose lease is gone."""
        every = self.ttl_ms / 3000
        while True:
            before = time.monotonic()
            await asyncio.sleep(every)
            late = time.monotonic() - before - every
            if late > every:  # the event loop stood still: leases may have run out
                log.warning("lease renewal %.1f s late (the event loop was busy)", late)
            ids = list(self.manager.tables)
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
                    self.redis_away(e)
                continue
            except redis.RedisError:
                continue
            for table_id, ok in zip(ids, results, strict=True):
                if not ok:
                    log.warning("table %s: lease gone at renewal; dropped", table_id)
                    self.drop(table_id)

    async def _watch_loop(self) -> None:
        """Relaying side: every ttl/3 look up the owners of all tables with relayed
        sockets here (one ``MGET``) and close the sockets of a table whose owner changed
        or cannot be told (1012: the browser reconnects, to the new owner) — a killed
        owner says nothing itself."""
        while True:
            await asyncio.sleep(max(0.3, self.ttl_ms / 3000))
            tables = list(self.watched)
            if not tables:
                continue
            try:
                owners: list[Any] = await self.control.mget([LEASE + t for t in tables])
            except redis.RedisError:
                owners = [None] * len(tables)
            for table_id, now in zip(tables, owners, strict=True):
                for cid, (owner, inbox) in list(self.watched.get(table_id, {}).items()):
                    if now != owner:
                        self.watched[table_id].pop(cid, None)
                        inbox.put_nowait(("end", CLOSE_MOVED))

    async def _scan_loop(self) -> None:
        """Take the live tables that have no owner (their worker died or let them go)."""
        last_seed = time.monotonic()
        while True:
            await asyncio.sleep(SCAN_SECONDS * (0.75 + random.random() / 2))
            try:
                if time.monotonic() - last_seed > RESEED_SECONDS:
                    last_seed = time.monotonic()
                    await asyncio.to_thread(self.seed_tables)
                ids = [str(t) for t in await self.control.smembers(TABLES)
                       if str(t) not in self.manager.tables]
                if not ids:
                    continue
                owners = await self.control.mget([LEASE + t for t in ids])
                now = time.monotonic()
                free = [t for t, o in zip(ids, owners, strict=True) if o is None
                        and now - self.lost_at.get(t, -1e9) > 2 * self.ttl_ms / 1000]
                random.shuffle(free)
                if free:
                    await self.take_many(free[:200])
            except (redis.RedisError, OSError):
                continue
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken table must not stop the scanner
                continue

    async def _listen(self) -> None:
        """This worker's channel and the lobby channel; resubscribes after Redis restarts."""
        while True:
            pubsub = self.aio.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(WORKER + self.id, LOBBY)
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is None:
                        continue
                    if msg["channel"] == LOBBY:  # (a slow lobby socket must not stop this)
                        self._spawn(self.manager.local_lobby_changed())
                    else:
                        await self._on_message(msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _publish(self, worker: str, data: str) -> None:
        with contextlib.suppress(redis.RedisError):
            await self.aio.publish(WORKER + worker, data)

    async def publish_lobby(self) -> None:
        """Write this worker's lobby entries into the shared hash and tell every worker:
        at once, then at most every ``LOBBY_SECONDS`` (the changes in between are
        gathered into one: a busy worker's tables change the lobby many times a second)."""
        if self._lobby_task is not None and not self._lobby_task.done():
            self._lobby_dirty = True
            return
        self._lobby_dirty = False
        await self._write_lobby()
        self._lobby_task = asyncio.get_running_loop().create_task(self._lobby_later())
        self._tasks.add(self._lobby_task)
        self._lobby_task.add_done_callback(self._forget)

    async def _lobby_later(self) -> None:
        while True:
            await asyncio.sleep(LOBBY_SECONDS)
            if not self._lobby_dirty:
                return
            self._lobby_dirty = False
            await self._write_lobby()

    async def _write_lobby(self) -> None:
        try:
            entries = {e["id"]: e for e in self.manager.local_entries()}
            async with self.control.pipeline(transaction=False) as pipe:
                for table_id in self.manager.tables:
                    if table_id in entries:
                        pipe.hset(LOBBY, table_id, json.dumps(
                            [self.manager.created.get(table_id, 0.0), entries[table_id]]))
                    else:
                        pipe.hdel(LOBBY, table_id)
                pipe.publish(LOBBY, "changed")
                await pipe.execute()
        except redis.RedisError:
            await self.manager.local_lobby_changed()

    # -- messages between workers --------------------------------------------------------
    async def _on_message(self, data: str) -> None:
        kind, _, rest = data.partition(" ")
        if kind == "o":  # a text for a relayed client: "o <cid> <text>"
            cid, _, text = rest.partition(" ")
            inbox = self.inbox.get(cid)
            if inbox is not None:
                inbox.put_nowait(("text", text))
            return
        if kind == "f":  # a client frame for a relayed connection here: "f <cid> <text>"
            cid, _, text = rest.partition(" ")
            entry = self.remote.get(cid)
            if entry is not None:
                entry[1].put_nowait(text)
            return
        msg = json.loads(rest)
        k = msg.get("k")
        if k == "end":
            inbox = self.inbox.get(msg["cid"])
            if inbox is not None:
                inbox.put_nowait(("end", int(msg.get("code", CLOSE_MOVED))))
        elif k == "resp":
            fut = self.pending.pop(msg["rid"], None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        elif k == "open":
            self._open_remote(msg)
        elif k == "close":
            entry = self.remote.get(msg["cid"])
            if entry is not None:
                entry[1].put_nowait(None)
        elif k == "http":
            self._spawn(self._serve_http(msg))

    # -- websockets: the relaying side -------------------------------------------------------
    async def route_socket(self, ws: Any, table_id: str, user: Any) -> bool:
        """Called by the table socket before anything else: ``False`` when this worker
        serves the table itself (or there is no such table), ``True`` when the socket was
        relayed to the owner (and is over now)."""
        where = await self.ensure(table_id)
        if where is None:
            return False
        if where == UNAVAILABLE:  # not 4404 (the browser would give up): try again
            await ws.accept()
            await self._close_ws(ws, CLOSE_TRY_AGAIN)
            return True
        if where == "local":
            self.sockets.setdefault(table_id, weakref.WeakSet()).add(ws)
            return False
        await self._relay(ws, table_id, where, user)
        return True

    async def _relay(self, ws: Any, table_id: str, owner: str, user: Any) -> None:
        from stammtisch.server.ws import frame_problem, refuse

        await ws.accept()
        cid = f"{self.id}#{next(self._ids)}"
        inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.inbox[cid] = inbox
        done = asyncio.Event()

        async def pump() -> None:
            while True:
                what, value = await inbox.get()
                if what == "text":
                    await ws.send_text(value)
                else:
                    await self._close_ws(ws, int(value))
                    done.set()
                    return

        # the owner is watched for all relayed sockets of the table at once (_watch_loop)
        self.watched.setdefault(table_id, {})[cid] = (owner, inbox)
        helpers: list[asyncio.Task[Any]] = [asyncio.get_running_loop().create_task(pump())]
        receiver: asyncio.Task[Any] | None = None
        closed: asyncio.Task[Any] | None = None
        try:
            await self._publish(owner, "j " + json.dumps({
                "k": "open", "cid": cid, "from": self.id, "table": table_id,
                "user_id": user.id if user else None, "name": user.name if user else "Gast",
                "invite": ws.query_params.get("invite")}))
            receiver = asyncio.get_running_loop().create_task(ws.receive())
            closed = asyncio.get_running_loop().create_task(done.wait())
            while True:
                await asyncio.wait({receiver, closed}, return_when=asyncio.FIRST_COMPLETED)
                if closed.done():
                    receiver.cancel()
                    break
                frame = receiver.result()
                if frame["type"] == "websocket.disconnect":
                    closed.cancel()
                    break
                problem = frame_problem(ws, frame)
                if problem is not None:
                    await refuse(ws, problem)
                    closed.cancel()
                    break
                text = frame.get("text")
                if text is None:
                    text = "\x00"  # a binary frame: the owner answers bad_message
                await self._publish(owner, f"f {cid} {text}")
                receiver = asyncio.get_running_loop().create_task(ws.receive())
        except Exception:
            pass
        finally:
            self.inbox.pop(cid, None)
            watched = self.watched.get(table_id)
            if watched is not None:
                watched.pop(cid, None)
                if not watched:
                    self.watched.pop(table_id, None)
            for t in (*helpers, receiver, closed):
                if t is not None:
                    t.cancel()
            await self._publish(owner, "j " + json.dumps({"k": "close", "cid": cid}))

    # -- websockets: the owner's side -----------------------------------------------------------
    def _open_remote(self, msg: dict[str, Any]) -> None:
        cid, worker = str(msg["cid"]), str(msg["from"])
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.remote[cid] = (str(msg["table"]), queue, worker)
        self._spawn(self._serve_remote(cid, msg, queue, worker))

    async def _serve_remote(self, cid: str, msg: dict[str, Any],
                            queue: asyncio.Queue[str | None], worker: str) -> None:
        """A relayed websocket at the owner: the same checks and messages as
        :func:`stammtisch.server.ws.table_socket`."""
        from stammtisch.server.ws import table_message

        async def end(code: int) -> None:
            self.remote.pop(cid, None)
            await self._publish(worker, "j " + json.dumps({"k": "end", "cid": cid,
                                                           "code": code}))

        async def send_text(text: str) -> None:
            try:
                listened = await self.aio.publish(WORKER + worker, f"o {cid} {text}")
            except redis.ConnectionError as e:
                if unreachable(e):
                    self.redis_away(e)
                raise
            if not listened:
                queue.put_nowait(None)  # nobody listens: the relaying worker is gone

        async def send(m: dict[str, Any]) -> None:
            await send_text(json.dumps(m, ensure_ascii=False, separators=(",", ":")))

        rt = self.manager.tables.get(str(msg["table"]))
        if rt is None:
            await end(CLOSE_MOVED)
            return
        uid = msg.get("user_id")
        if not rt.public and msg.get("invite") != rt.invite_code and rt.seat_of(uid) is None:
            await send({"type": "error", "code": "private_table",
                        "message": "this table is private; use its invite link"})
            await end(4403)
            return
        key = -next(self._ids)  # negative: never one of ws.py's keys
        conn = Connection(send=send, user_id=uid, name=str(msg.get("name") or "Gast"),
                          send_text=send_text)
        try:
            await rt.connect(key, conn)
            while True:
                raw = await queue.get()
                if raw is None:
                    break
                await table_message(rt, conn, raw, send)
        except Exception:  # the lease was lost (LeaseLost), the table broke: reconnect
            pass
        finally:
            self.remote.pop(cid, None)
            with contextlib.suppress(Exception):
                await rt.disconnect(key)
            await end(CLOSE_MOVED)  # nobody listens any more when the client left

    # -- REST calls ------------------------------------------------------------------------------
    async def relay_http(self, scope: Any, receive: Any, send: Any, owner: str) -> None:
        """Replay a REST call at the owner and answer with its response."""
        body = b""
        while True:
            event = await receive()
            body += event.get("body", b"")
            if not event.get("more_body"):
                break
        rid = f"{self.id}#{next(self._ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[rid] = fut
        client = scope.get("client")
        await self._publish(owner, "j " + json.dumps({
            "k": "http", "rid": rid, "from": self.id, "method": scope["method"],
            "path": scope["path"], "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": [[k.decode("latin-1"), v.decode("latin-1")]
                        for k, v in scope.get("headers", [])],
            "client": list(client) if client else None, "scheme": scope.get("scheme", "http"),
            "body": body.decode("latin-1")}))
        try:
            answer = await asyncio.wait_for(fut, HTTP_TIMEOUT)
            status = int(answer["status"])
            headers = [(k.encode("latin-1"), v.encode("latin-1"))
                       for k, v in answer["headers"]]
            out = str(answer["body"]).encode("latin-1")
        except TimeoutError:
            status = 503
            out = json.dumps({"code": "owner_unreachable", "message":
                              "the worker serving this table does not answer; try again "
                              "in a few seconds"}).encode()
            headers = [(b"content-type", b"application/json"),
                       (b"content-length", str(len(out)).encode())]
        finally:
            self.pending.pop(rid, None)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": out})

    async def _serve_http(self, msg: dict[str, Any]) -> None:
        body = str(msg["body"]).encode("latin-1")
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        answer: dict[str, Any] = {"k": "resp", "rid": msg["rid"], "status": 500,
                                  "headers": [], "body": ""}
        chunks: list[bytes] = []

        async def send(event: dict[str, Any]) -> None:
            if event["type"] == "http.response.start":
                answer["status"] = event["status"]
                answer["headers"] = [[k.decode("latin-1"), v.decode("latin-1")]
                                     for k, v in event.get("headers", [])]
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))

        path = str(msg["path"])
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": msg["method"], "scheme": msg.get("scheme") or "http",
                 "path": path, "raw_path": path.encode(), "root_path": "",
                 "query_string": str(msg["query"]).encode("latin-1"),
                 "headers": [(k.encode("latin-1"), v.encode("latin-1"))
                             for k, v in msg["headers"]],
                 "client": tuple(msg["client"]) if msg.get("client") else None,
                 "server": None, "stammtisch.relayed": True}
        try:
            await self.app(scope, receive, send)
        except Exception:
            answer["status"] = 500
        answer["body"] = b"".join(chunks).decode("latin-1")
        await self._publish(str(msg["from"]), "j " + json.dumps(answer))


class ClusterRouter:
    """ASGI middleware: a REST call about one table goes to the worker that owns it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not scope.get("stammtisch.relayed"):
            match = TABLE_PATH.match(scope["path"])
            cluster: Cluster | None = getattr(scope["app"].state, "cluster", None) \
                if match and "app" in scope else None
            if match and cluster is not None:
                where = await cluster.ensure(match[1])
                if where == UNAVAILABLE:
                    body = json.dumps({"code": "table_unavailable", "message":
                                       "the table cannot be reached just now; try again in "
                                       "a few seconds"}).encode()
                    await send({"type": "http.response.start", "status": 503, "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"retry-after", b"3")]})
                    await send({"type": "http.response.body", "body": body})
                    return
                if where is not None and where != "local":
                    await cluster.relay_http(scope, receive, send, where)
                    return
        await self.app(scope, receive, send)


def check_redis(url: str) -> None:
    """Raise ``ValueError`` (one line) when Redis at ``url`` cannot be reached."""
    try:
        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    except ValueError as e:
        raise ValueError(f"Redis URL {url!r} is not a Redis URL ({e}); e.g. "
                         "--redis redis://127.0.0.1:6379/0") from None
    try:
        client.ping()
    except redis.RedisError as e:
        raise ValueError(f"cannot reach Redis at {url}: {' '.join(str(e).split())} — "
                         "check that redis-server runs, or fix --redis") from None
    finally:
        client.close()


def app_from_env() -> Any:
    """The app of one ``serve --workers N`` worker process (uvicorn's factory): the
    settings come from the ``STAMMTISCH_*`` variables the parent process set."""
    from stammtisch.server.app import create_app

    return create_app(Settings.from_env())
