"""One worker's part in the cluster: its Redis clients, its leases, relays and shared
lobby put together, and the background work (the listener of its channel, the lease
renewals, the scan for tables without an owner, the watch of relayed sockets)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Coroutine
from typing import Any

import redis
import redis.asyncio as aredis

from stammtisch.persistence.db import Database
from stammtisch.persistence.store import Store
from stammtisch.server.settings import Settings
from stammtisch.server.workers.common import (
    CONTROL_CONNECTIONS,
    LOBBY,
    REDIS_CONNECTIONS,
    UNAVAILABLE,
    WORKER,
    Bus,
)
from stammtisch.server.workers.leases import Leases
from stammtisch.server.workers.manager import ClusterTableManager
from stammtisch.server.workers.rest import TABLE_PATH, RestRelay
from stammtisch.server.workers.sockets import SocketRelay

log = logging.getLogger("stammtisch.cluster")


class Cluster:
    """One worker's part in the cluster (see the module docstring)."""

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
        # the leases' own connections: renewals, takeovers and owner look-ups never wait
        # behind the relay's publishes (at the peak those can hold every connection of
        # the pool above for seconds — longer than a lease lasts)
        self.control = aredis.Redis(connection_pool=aredis.BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=CONTROL_CONNECTIONS, timeout=5,
            decode_responses=True, socket_timeout=5, socket_connect_timeout=2))
        self.store = Store(db)
        self.leases = Leases(self.id, self.ttl_ms, self.sync, self.control, self.store, db,
                             drop=self.drop, redis_away=self.redis_away)
        self.manager = ClusterTableManager(self.store, settings, self.leases, self.control,
                                           self.sync, self._refused)
        self.bus = Bus(self.id, self.aio)
        self.sockets = SocketRelay(self.bus, self.manager, self.control, self.ttl_ms,
                                   ensure=self.ensure, spawn=self._spawn,
                                   redis_away=self.redis_away)
        self.rest = RestRelay(self.bus)
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def app(self) -> Any:
        """The app relayed REST calls are replayed in."""
        return self.rest.app

    @app.setter
    def app(self, app: Any) -> None:
        self.rest.app = app

    async def ensure(self, table_id: str) -> str | None:
        """Who serves the table now (``Leases.ensure``): ``"local"``, another worker's
        id, ``None`` (no live table) or ``UNAVAILABLE``."""
        return await self.leases.ensure(table_id, self.manager)

    async def route_socket(self, ws: Any, table_id: str, user: Any) -> bool:
        """``SocketRelay.route_socket``: ``True`` when the socket was relayed."""
        return await self.sockets.route_socket(ws, table_id, user)

    # -- losing tables -----------------------------------------------------------------
    def _refused(self, table_id: str, gen: int | None) -> None:
        """A write of generation ``gen`` was refused by the database (another worker has
        taken the table): the table is dropped here — if the refused write was the
        current runtime's (a runtime dropped earlier may still get a message from a
        socket not closed yet; the table taken again since is not its)."""
        if self.leases.gens.get(table_id) == gen and table_id in self.manager.tables:
            log.warning("table %s: a write was fenced off (another worker took it); "
                        "dropped", table_id)
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().call_soon(self.drop, table_id)

    def drop(self, table_id: str) -> None:
        """Stop serving a table: its timers, its local and relayed sockets (1012).  The
        scanner leaves it to the other workers for 2 ttl (this one may be the odd one
        out, e.g. cut off from Redis)."""
        self.leases.lost(table_id)
        self.manager.remove(table_id)
        self.sockets.close_table(table_id)

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

    # -- background work ----------------------------------------------------------------
    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = {loop.create_task(job) for job in (
            self._listen(), self.leases.renew_loop(self.manager),
            self.leases.scan_loop(self.manager), self.sockets.watch_loop())}

    async def stop(self) -> None:
        self.leases.closing = True
        tasks = list(self._tasks)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        await self.manager.shared.stop()
        for client in (self.aio, self.control):
            with contextlib.suppress(Exception):
                await client.aclose()
        with contextlib.suppress(Exception):
            self.sync.close()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
                        self._spawn(self.manager.send_lobby())
                    else:
                        self._on_message(msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _on_message(self, data: str) -> None:
        """One message on this worker's channel, to the relay it is for."""
        kind, _, rest = data.partition(" ")
        if kind == "o":  # a text for a relayed client: "o <cid> <text>"
            cid, _, text = rest.partition(" ")
            self.sockets.text(cid, text)
            return
        if kind == "f":  # a client frame for a relayed connection here: "f <cid> <text>"
            cid, _, text = rest.partition(" ")
            self.sockets.frame(cid, text)
            return
        msg = json.loads(rest)
        k = msg.get("k")
        if k == "end":
            self.sockets.ended(msg)
        elif k == "resp":
            self.rest.answered(msg)
        elif k == "open":
            self.sockets.opened(msg)
        elif k == "close":
            self.sockets.closed(msg)
        elif k == "http":
            self._spawn(self.rest.serve_http(msg))


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
                    await cluster.rest.relay_http(scope, receive, send, where)
                    return
        await self.app(scope, receive, send)
