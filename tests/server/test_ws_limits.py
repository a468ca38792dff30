"""Issue 8.4: oversized and deeply nested websocket messages get a typed error and a
proper close code (1009 too big, 1008 too deep), on the table and the lobby socket, and
the server goes on serving."""

from __future__ import annotations

import json

import httpx
import pytest

from stammtisch.server.auth import SESSION_COOKIE
from stammtisch.server.loadtest import run_sync  # works beside Playwright's loop
from stammtisch.server.ws import nesting_depth

DEEP_BIG = "[" * 100_000
DEEP = '{"type": "ping", "x": ' + "[" * 5000 + "]" * 5000 + "}"
FINE = '{"type": "ping", "x": ' + "[" * 30 + '"[[[[{{{{"' + "]" * 30 + "}"


def test_nesting_depth() -> None:
    assert nesting_depth("[[[]]]", 2) == 3
    assert nesting_depth("[[[]]]", 3) == 0
    assert nesting_depth('["[[[[[[", {"a": "\\"[[[["}]', 2) == 0  # brackets in strings
    assert nesting_depth("[" * 100_000, 32) == 33


@pytest.mark.parametrize(("text", "code", "close"), [
    (DEEP_BIG, "message_too_big", 1009),
    (DEEP, "too_deep", 1008),
    (json.dumps({"type": "chat", "text": "x" * 20_000}), "message_too_big", 1009),
])
def test_table_socket_refuses_and_closes(server, text, code, close) -> None:
    anna = server.guest("Anna")
    tid = anna.create_table(bots=[1, 2, 3])["id"]
    with anna.connect(tid) as conn:
        conn.state()
        conn.send(FINE)
        assert conn.recv_type("pong")["type"] == "pong"
        conn.send(text)
        err = conn.recv_type("error")
        assert err["code"] == code and err["message"], err
        assert conn.recv() == {"type": "websocket.close", "code": close}
    # the table and the server go on
    with anna.connect(tid) as again:
        assert again.state()["table"]["id"] == tid
        again.send({"type": "ping"})
        assert again.recv_type("pong")["type"] == "pong"
    assert server.client.get("/healthz").json() == {"status": "ok"}


@pytest.mark.parametrize(("text", "code", "close"), [
    (DEEP_BIG, "message_too_big", 1009),
    (DEEP, "too_deep", 1008),
])
def test_lobby_socket_refuses_and_closes(sqlite_server, text, code, close) -> None:
    server = sqlite_server
    with server.lobby() as lobby:
        assert lobby.recv()["type"] == "lobby"
        lobby.send(FINE)  # ignored, as everything ordinary the lobby is sent
        lobby.send(text)
        err = lobby.recv()
        assert err["type"] == "error" and err["code"] == code, err
        assert lobby.recv() == {"type": "websocket.close", "code": close}
    with server.lobby() as lobby:
        assert lobby.recv()["type"] == "lobby"


def test_close_frames_over_a_real_socket(tmp_path) -> None:
    """Over uvicorn and a real websocket client: the refusal is an error message and a
    close frame with the code (the old failure dropped the connection without one), and
    frames above ``ws_max_size`` are closed with 1009 by uvicorn itself."""
    import asyncio
    import socket
    import threading
    import time

    import uvicorn
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from stammtisch.server import Settings, create_app
    from stammtisch.server.runner import uvicorn_config

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'ws.sqlite3'}", port=port,
                        bot_delay=0, ws_max_size=200_000)
    server = uvicorn.Server(uvicorn_config(create_app(settings), settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.02)

    async def exchange(frame: str, path: str = "/ws/lobby",
                       cookie: str = "") -> tuple[list[dict], int | None]:
        got: list[dict] = []
        headers = {"Cookie": cookie} if cookie else {}
        async with connect(f"ws://127.0.0.1:{port}{path}", proxy=None, max_size=None,
                           additional_headers=headers) as ws:
            got.append(json.loads(await ws.recv()))
            await ws.send(frame)
            try:
                while True:
                    got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            except ConnectionClosed as closed:
                return got, closed.rcvd.code if closed.rcvd else None

    try:
        got, code = run_sync(exchange(DEEP_BIG))
        assert [m["type"] for m in got] == ["lobby", "error"] and code == 1009, (got, code)
        assert got[1]["code"] == "message_too_big"
        got, code = run_sync(exchange(DEEP))
        assert got[1]["code"] == "too_deep" and code == 1008, (got, code)
        got, code = run_sync(exchange("[" * 300_000))  # above ws_max_size: uvicorn
        assert [m["type"] for m in got] == ["lobby"] and code == 1009, (got, code)
        # a table socket (where the deep array used to reach json.loads)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False) as http:
            r = http.post("/api/guest", json={"name": "Anna"})
            cookie = f"{SESSION_COOKIE}={r.cookies[SESSION_COOKIE]}"
            r = http.post("/api/tables", json={"bots": "fill", "turn_timer": 0},
                          headers={"Cookie": cookie, "X-CSRF-Token": r.json()["csrf"]})
            path = f"/ws/tables/{r.json()['id']}"
        got, code = run_sync(exchange(DEEP_BIG, path, cookie))
        errors = [m for m in got if m["type"] == "error"]
        assert [m["code"] for m in errors] == ["message_too_big"] and code == 1009, (got, code)
    finally:
        server.should_exit = True
        thread.join(10)
