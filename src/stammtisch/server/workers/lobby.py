"""The lobby of all workers: each owner writes the lobby entries of its public tables
into the Redis hash ``stammtisch:lobby`` and announces changes on the channel
``stammtisch:lobby``; every worker answers ``GET /api/tables`` and its lobby sockets
from that hash (oldest table first)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import redis

from stammtisch.server.tables import TableManager
from stammtisch.server.workers.common import LOBBY, LOBBY_SECONDS


class SharedLobby:
    """The shared lobby as one worker writes and reads it."""

    def __init__(self, manager: TableManager, control: Any, sync: redis.Redis) -> None:
        self.manager = manager
        self.control = control
        self.sync = sync
        #: creation time of each local table (the lobby's order)
        self.created: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None
        self._dirty = False

    def entries(self) -> list[dict[str, Any]]:
        """Every worker's public tables, oldest first (this worker's alone when Redis
        cannot be read)."""
        try:
            raw = self.sync.hgetall(LOBBY)
        except redis.RedisError:
            return self.manager.local_lobby()
        items = []
        for value in raw.values():
            with contextlib.suppress(ValueError, TypeError, KeyError):
                at, entry = json.loads(value)
                items.append((float(at), entry))
        items.sort(key=lambda x: x[0])
        return [entry for _, entry in items]

    async def publish(self) -> None:
        """Write this worker's lobby entries into the shared hash and tell every worker:
        at once, then at most every ``LOBBY_SECONDS`` (the changes in between are
        gathered into one: a busy worker's tables change the lobby many times a second)."""
        if self._task is not None and not self._task.done():
            self._dirty = True
            return
        self._dirty = False
        await self._write()
        self._task = asyncio.get_running_loop().create_task(self._later())

    async def _later(self) -> None:
        while True:
            await asyncio.sleep(LOBBY_SECONDS)
            if not self._dirty:
                return
            self._dirty = False
            await self._write()

    async def _write(self) -> None:
        try:
            entries = {e["id"]: e for e in self.manager.local_lobby()}
            async with self.control.pipeline(transaction=False) as pipe:
                for table_id in self.manager.tables:
                    if table_id in entries:
                        pipe.hset(LOBBY, table_id, json.dumps(
                            [self.created.get(table_id, 0.0), entries[table_id]]))
                    else:
                        pipe.hdel(LOBBY, table_id)
                pipe.publish(LOBBY, "changed")
                await pipe.execute()
        except redis.RedisError:
            await self.manager.send_lobby()

    async def stop(self) -> None:
        """Cancel a gathered write still waiting."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
