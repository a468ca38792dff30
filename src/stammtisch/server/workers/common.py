"""What the parts of a worker among several share: the Redis keys and channels, the
timings, the close codes, and the error of a table this worker no longer owns."""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

import redis

from stammtisch.server.live.errors import TableMoved

PREFIX = "stammtisch:"
#: ``stammtisch:lease:<table>``: the owner's worker id
LEASE = PREFIX + "lease:"
#: the set of the live tables' ids
TABLES = PREFIX + "tables"
#: the hash of every worker's lobby entries, and the channel that announces changes
LOBBY = PREFIX + "lobby"
#: ``stammtisch:worker:<id>``: a worker's own channel
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
#: ``Cluster.ensure``'s answer when it cannot say who serves a table now
UNAVAILABLE = "unavailable"


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


async def close_ws(ws: Any, code: int) -> None:
    """Close a client's socket with ``code`` (a socket closed already is no matter)."""
    with contextlib.suppress(Exception):
        await ws.close(code=code, reason="table moved" if code == CLOSE_MOVED else "try again")


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


class Bus:
    """This worker's side of the messages between workers: its id, the ids it gives its
    relayed connections and requests, and publishing to another worker's channel
    (``stammtisch:worker:<id>``; a message nobody can take is lost, as the relay's
    watch and timeouts expect)."""

    def __init__(self, worker_id: str, aio: Any) -> None:
        self.id = worker_id
        self.aio = aio
        self._ids = itertools.count(1)

    def new_id(self) -> str:
        """An id for a relayed connection or request, unique among the workers."""
        return f"{self.id}#{next(self._ids)}"

    def new_key(self) -> int:
        """A connection key at a table for a relayed socket (negative: never one of
        the local sockets' keys)."""
        return -next(self._ids)

    async def publish(self, worker: str, data: str) -> None:
        with contextlib.suppress(redis.RedisError):
            await self.aio.publish(WORKER + worker, data)
