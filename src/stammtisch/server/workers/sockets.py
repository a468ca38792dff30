"""Table websockets across workers: a socket that lands on a worker other than the
table's owner is relayed to the owner through Redis pub/sub.

At the owner a relayed socket is a :class:`~stammtisch.server.live.table.Connection`
whose ``send`` publishes to the relaying worker with the connection's id, so each seat's
state message goes only to that seat's connections (the per-seat views never meet
another seat's socket); it gets the same checks and messages as a local socket
(:func:`stammtisch.server.ws.table_message`).  The relaying worker watches the leases of
all tables it relays for (one ``MGET`` every ttl/3) and closes the client's socket (1012,
the client reconnects) when the owner changes — a killed owner says nothing itself.

Messages on a worker's channel: ``o <cid> <text>`` (a text for a relayed client),
``f <cid> <text>`` (a client's frame for the owner), and JSON ``open``, ``close``
(a relayed socket begins, ends) and ``end`` (the owner closes it, with a code).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import redis

from stammtisch.server.live.table import Connection
from stammtisch.server.tables import TableManager
from stammtisch.server.workers.common import (
    CLOSE_MOVED,
    CLOSE_TRY_AGAIN,
    LEASE,
    UNAVAILABLE,
    WORKER,
    Bus,
    close_ws,
    unreachable,
)
from stammtisch.server.ws import frame_problem, refuse, table_message

#: what a relayed client's pump gets: ("text", a message) or ("end", a close code)
Inbox = asyncio.Queue[tuple[str, Any]]


class SocketRelay:
    """Both sides of the relayed table sockets of one worker (see the module docstring)."""

    def __init__(self, bus: Bus, manager: TableManager, control: Any, ttl_ms: int, *,
                 ensure: Callable[[str], Awaitable[str | None]],
                 spawn: Callable[[Coroutine[Any, Any, None]], None],
                 redis_away: Callable[[Exception], None]) -> None:
        self.bus = bus
        self.manager = manager
        self.control = control
        self.ttl_ms = ttl_ms
        self._ensure = ensure
        self._spawn = spawn
        self._redis_away = redis_away
        #: local websockets of each local table (closed when the table moves)
        self.sockets: dict[str, weakref.WeakSet[Any]] = {}
        #: relaying side: connection id -> queue of what the owner sends
        self.inbox: dict[str, Inbox] = {}
        #: relaying side: table id -> {connection id: (owner, inbox)} (watch_loop)
        self.watched: dict[str, dict[str, tuple[str, Inbox]]] = {}
        #: owner side: connection id -> (table id, queue of client frames, worker)
        self.remote: dict[str, tuple[str, asyncio.Queue[str | None], str]] = {}

    # -- the relaying side ------------------------------------------------------------
    async def route_socket(self, ws: Any, table_id: str, user: Any) -> bool:
        """Called by the table socket before anything else: ``False`` when this worker
        serves the table itself (or there is no such table), ``True`` when the socket was
        relayed to the owner (and is over now)."""
        where = await self._ensure(table_id)
        if where is None:
            return False
        if where == UNAVAILABLE:  # not 4404 (the browser would give up): try again
            await ws.accept()
            await close_ws(ws, CLOSE_TRY_AGAIN)
            return True
        if where == "local":
            self.sockets.setdefault(table_id, weakref.WeakSet()).add(ws)
            return False
        await self._relay(ws, table_id, where, user)
        return True

    async def _relay(self, ws: Any, table_id: str, owner: str, user: Any) -> None:
        await ws.accept()
        cid = self.bus.new_id()
        inbox: Inbox = asyncio.Queue()
        self.inbox[cid] = inbox
        done = asyncio.Event()

        async def pump() -> None:
            while True:
                what, value = await inbox.get()
                if what == "text":
                    await ws.send_text(value)
                else:
                    await close_ws(ws, int(value))
                    done.set()
                    return

        # the owner is watched for all relayed sockets of the table at once (watch_loop)
        self.watched.setdefault(table_id, {})[cid] = (owner, inbox)
        loop = asyncio.get_running_loop()
        helpers: list[asyncio.Task[Any]] = [loop.create_task(pump())]
        receiver: asyncio.Task[Any] | None = None
        closed: asyncio.Task[Any] | None = None
        try:
            await self.bus.publish(owner, "j " + json.dumps({
                "k": "open", "cid": cid, "from": self.bus.id, "table": table_id,
                "user_id": user.id if user else None, "name": user.name if user else "Gast",
                "invite": ws.query_params.get("invite")}))
            receiver = loop.create_task(ws.receive())
            closed = loop.create_task(done.wait())
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
                await self.bus.publish(owner, f"f {cid} {text}")
                receiver = loop.create_task(ws.receive())
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
            await self.bus.publish(owner, "j " + json.dumps({"k": "close", "cid": cid}))

    def text(self, cid: str, text: str) -> None:
        """``o``: a text from the owner for a relayed client here."""
        inbox = self.inbox.get(cid)
        if inbox is not None:
            inbox.put_nowait(("text", text))

    def ended(self, msg: dict[str, Any]) -> None:
        """``end``: the owner closes a relayed client's socket."""
        inbox = self.inbox.get(msg["cid"])
        if inbox is not None:
            inbox.put_nowait(("end", int(msg.get("code", CLOSE_MOVED))))

    async def watch_loop(self) -> None:
        """Every ttl/3 look up the owners of all tables with relayed sockets here (one
        ``MGET``) and close the sockets of a table whose owner changed or cannot be told
        (1012: the browser reconnects, to the new owner)."""
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

    # -- the owner's side -----------------------------------------------------------------
    def opened(self, msg: dict[str, Any]) -> None:
        """``open``: a socket relayed to this worker begins."""
        cid, worker = str(msg["cid"]), str(msg["from"])
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.remote[cid] = (str(msg["table"]), queue, worker)
        self._spawn(self._serve_remote(cid, msg, queue, worker))

    def frame(self, cid: str, text: str) -> None:
        """``f``: a relayed client's frame."""
        entry = self.remote.get(cid)
        if entry is not None:
            entry[1].put_nowait(text)

    def closed(self, msg: dict[str, Any]) -> None:
        """``close``: the relayed client left."""
        entry = self.remote.get(msg["cid"])
        if entry is not None:
            entry[1].put_nowait(None)

    async def _serve_remote(self, cid: str, msg: dict[str, Any],
                            queue: asyncio.Queue[str | None], worker: str) -> None:
        """A relayed websocket at the owner: the same checks and messages as
        :func:`stammtisch.server.ws.table_socket`."""
        async def end(code: int) -> None:
            self.remote.pop(cid, None)
            await self.bus.publish(worker, "j " + json.dumps({"k": "end", "cid": cid,
                                                              "code": code}))

        async def send_text(text: str) -> None:
            try:
                listened = await self.bus.aio.publish(WORKER + worker, f"o {cid} {text}")
            except redis.ConnectionError as e:
                if unreachable(e):
                    self._redis_away(e)
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
        key = self.bus.new_key()
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

    # -- a table moved ---------------------------------------------------------------------
    def close_table(self, table_id: str) -> None:
        """The table is not this worker's any more: its local sockets and the sockets
        relayed to it here are closed (1012)."""
        for ws in list(self.sockets.pop(table_id, ())):
            self._spawn(close_ws(ws, CLOSE_MOVED))
        for cid, (tid, queue, worker) in list(self.remote.items()):
            if tid == table_id:
                self.remote.pop(cid, None)
                queue.put_nowait(None)
                self._spawn(self.bus.publish(worker, "j " + json.dumps(
                    {"k": "end", "cid": cid, "code": CLOSE_MOVED})))
