"""Issue 8.4: oversized and deeply nested websocket messages get a typed error and a
proper close code (1009 too big, 1008 too deep), on the table and the lobby socket, and
the server goes on serving."""

from __future__ import annotations

import json

import pytest

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
