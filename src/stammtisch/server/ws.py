"""Websockets: one per client and table (``/ws/tables/{id}``) and one for the lobby.

Client → server messages (JSON):
  ``{"type": "action", "action": "EO", "version": 17}`` — cut (``cut:5``, ``geben``,
  ``klopfen``), call (``weiter``, ``muck`` …), ``kontra``/``re``/``gut``, a card, or ``next``
  (start the next game once one is over); with ``"id": N`` (0..2**31-1) the server answers
  ``{"type": "ack", "id": N, "version"}`` once the action is stored and sent;
  ``{"type": "chat", "text": "…"}``; ``{"type": "ping"}``;
  ``{"type": "hint", "version": 17}`` — a card suggestion on one's turn in the card play
  (tables created with ``allow_hints``).
An ``action`` from a seat that is not to act is applied when it is one of the seat's
out-of-turn actions (Mulatschak's ``muli``, Mus's señas; no version check), else refused
with ``not_your_turn``.
Server → client: ``{"type": "state", "version", "table", "view", "out_of_turn"}`` (the
seat's own view and the texts of the out-of-turn actions it may send now, ``[]`` mostly),
``{"type": "error", "code", "message"}``, ``{"type": "chat", "name", "text", "at"}``,
``{"type": "lobby", "tables"}``, ``{"type": "pong"}``,
``{"type": "hint", "version", "card", "values": {card: expected Augen of one's pair}}``.

A frame longer than ``ws_max_message`` or nested deeper than ``ws_max_depth`` is refused
before it is parsed, on both sockets: ``error`` ``message_too_big`` and close 1009, or
``too_deep`` and close 1008.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import urlparse

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from stammtisch.server.auth import SESSION_COOKIE, user_from_token
from stammtisch.server.tables import (
    ActionRejected,
    Connection,
    TableManager,
    TableMoved,
    TableRuntime,
)

router = APIRouter()
_ids = itertools.count(1)

#: close codes (RFC 6455): the message is too big; it breaks the protocol's policy
CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008


def nesting_depth(text: str, limit: int) -> int:
    """How deep arrays and objects nest in the JSON ``text`` (brackets inside strings do
    not count); stops counting once ``limit`` is passed.  Linear, no recursion."""
    if text.count("[") + text.count("{") <= limit:
        return 0  # cannot be deeper than the brackets it has
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return depth
        elif ch in "]}":
            depth -= 1
    return 0


def frame_problem(ws: WebSocket, frame: Mapping[str, Any]) -> tuple[str, str, int] | None:
    """``(code, message, close code)`` for a frame the server will not read: longer than
    ``ws_max_message`` or nested deeper than ``ws_max_depth`` — checked before any
    parsing (a deep array would exhaust ``json.loads``' recursion)."""
    settings = ws.app.state.settings
    data = frame.get("text")
    if data is None:
        data = frame.get("bytes") or b""
    if len(data) > settings.ws_max_message:
        return ("message_too_big", f"messages may have at most {settings.ws_max_message} "
                "characters", CLOSE_TOO_BIG)
    if isinstance(data, str) and nesting_depth(data, settings.ws_max_depth):
        return ("too_deep", f"messages may nest at most {settings.ws_max_depth} levels",
                CLOSE_POLICY)
    return None


async def refuse(ws: WebSocket, problem: tuple[str, str, int]) -> None:
    """Answer a refused frame with a typed error, then close with its code."""
    code, message, close = problem
    with contextlib.suppress(Exception):  # the client may be gone already
        await ws.send_text(json.dumps({"type": "error", "code": code, "message": message}))
        await ws.close(code=close, reason=code)


def _origin_ok(ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")
    if not origin:
        return True  # not a browser (bots, tests); cookies still decide who it is
    host = ws.headers.get("host", "")
    return urlparse(origin).netloc == host


async def frames(ws: WebSocket) -> AsyncIterator[Mapping[str, Any]]:
    """The socket's frames until it closes, or until a frame breaks the limits (then the
    socket is refused).  ``receive()``, not ``receive_text()``: a binary frame must not
    crash the socket."""
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        problem = frame_problem(ws, frame)
        if problem is not None:
            await refuse(ws, problem)
            return
        yield frame


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    if not _origin_ok(ws):
        await ws.close(code=4403)
        return
    await ws.accept()
    manager: TableManager = ws.app.state.tables
    key = next(_ids)

    async def send(msg: dict[str, Any]) -> None:
        await ws.send_json(msg)

    manager.lobby[key] = send
    try:
        await send({"type": "lobby", "tables": manager.lobby_list()})
        async for _ in frames(ws):
            pass  # the lobby only listens
    except WebSocketDisconnect:
        pass
    finally:
        manager.lobby.pop(key, None)


async def table_message(rt: TableRuntime, conn: Connection, raw: str | None,
                        send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
    """One client message of a table socket (the text of a frame; ``None``: a binary
    frame): parse, dispatch, answer a refusal with an ``error`` — for a socket here and
    for one relayed from another worker alike (server/cluster.py)."""
    try:
        if raw is None:  # a binary frame (receive_text() would raise KeyError)
            raise ValueError
        msg = json.loads(raw)
        if not isinstance(msg, dict):
            raise ValueError
    except (ValueError, RecursionError):
        await send({"type": "error", "code": "bad_message",
                    "message": "messages must be JSON objects in text frames"})
        return
    kind = msg.get("type")
    try:
        if kind == "action":
            await rt.handle_action(conn, msg.get("action"), msg.get("version"), msg.get("id"))
        elif kind == "chat":
            if conn.user_id is None:
                raise ActionRejected("not_logged_in", "pick a name to chat")
            await rt.chat(conn, msg.get("text"))
        elif kind == "hint":
            await send(await rt.hint(conn, msg.get("version")))
        elif kind == "ping":
            await send({"type": "pong"})
        elif kind == "sync":
            await send(rt.message_for(conn))
        else:
            raise ActionRejected("bad_message", f"unknown message type {kind!r}")
    except ActionRejected as e:
        await send({"type": "error", "code": e.code, "message": e.message})
        if e.code == "stale_state":
            await send(rt.message_for(conn))


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    if not _origin_ok(ws):
        await ws.close(code=4403)
        return
    manager: TableManager = ws.app.state.tables
    user = user_from_token(ws.app.state.store, ws.cookies.get(SESSION_COOKIE))
    cluster = getattr(ws.app.state, "cluster", None)  # several workers: server/cluster.py
    if cluster is not None and await cluster.route_socket(ws, table_id, user):
        return  # relayed to the worker that owns the table
    rt = manager.get(table_id)
    await ws.accept()
    if rt is None:
        await ws.send_json({"type": "error", "code": "no_table",
                            "message": f"no table {table_id!r}"})
        await ws.close(code=4404)
        return
    invite = ws.query_params.get("invite")
    uid = user.id if user else None
    if not rt.public and invite != rt.invite_code and rt.seat_of(uid) is None:
        await ws.send_json({"type": "error", "code": "private_table",
                            "message": "this table is private; use its invite link"})
        await ws.close(code=4403)
        return

    async def send(msg: dict[str, Any]) -> None:
        await ws.send_text(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))

    key = next(_ids)
    conn = Connection(send=send, user_id=uid, name=user.name if user else "Gast",
                      send_text=ws.send_text)
    try:
        await rt.connect(key, conn)
        async for frame in frames(ws):
            await table_message(rt, conn, frame.get("text"), send)
    except WebSocketDisconnect:
        pass
    except TableMoved:  # several workers: another worker serves the table now
        with contextlib.suppress(Exception):
            await ws.close(code=1012, reason="table moved")
    finally:
        await rt.disconnect(key)
