"""Issue 8.5: property-based fuzzing of every HTTP route and every websocket message type.

The HTTP routes are read from ``/api/openapi.json`` (plus the app's page routes, which
the schema leaves out), so routes added later are fuzzed too.  For each operation
hypothesis draws path parameters (huge and negative numbers, 2^63, text, the ids of real
tables and tournaments), query parameters, a JSON body shaped by the route's schema or
any JSON at all, and who asks (nobody, a user with or without the CSRF token).  Asserted
for every answer: no 5xx, and every error is a JSON object with a ``code``.  Afterwards
the server still answers.  The websocket part sends every message type with drawn field
values and checks each answer is a typed message and the socket stays open.

``STAMMTISCH_FUZZ_EXAMPLES`` sets the examples per route (default 15),
``STAMMTISCH_FUZZ_RANDOM=1`` makes the draws differ from run to run.
"""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from stammtisch.server import Settings, create_app
from stammtisch.server.auth import SESSION_COOKIE

EXAMPLES = int(os.environ.get("STAMMTISCH_FUZZ_EXAMPLES", "15"))
STRONG = "Hopfen und Malz 1516"
#: reproducible by default; ``STAMMTISCH_FUZZ_RANDOM=1`` draws anew on every run
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                derandomize=not os.environ.get("STAMMTISCH_FUZZ_RANDOM"),
                suppress_health_check=list(HealthCheck))

NASTY_IDS = ["0", "-1", "1", "2147483647", "2147483648", "9223372036854775807",
             "9223372036854775808", "99999999999999999999", str(2**64), "-9223372036854775809",
             "1e309", "NaN", "inf", "0x10", "1_000", " 1", "%", "..", "ä", "🂡", "\x00",
             "a" * 300, "' OR 1=1 --", "<script>", "null", "true", "[]"]

json_scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70)
                | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20))
json_values = st.recursive(json_scalars, lambda c: st.lists(c, max_size=4)
                           | st.dictionaries(st.text(max_size=8), c, max_size=4), max_leaves=12)


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = spec
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def value_for(spec: dict[str, Any], schema: dict[str, Any], depth: int = 0) -> Any:
    """Values roughly of the schema's type (and any JSON now and then)."""
    schema = _resolve(spec, schema)
    if depth > 3:
        return json_scalars
    options = [json_values]
    for alt in schema.get("anyOf", []) + schema.get("oneOf", []):
        options.append(value_for(spec, alt, depth + 1))
    kind = schema.get("type")
    if "enum" in schema:
        options.append(st.sampled_from(schema["enum"]))
    if kind == "integer":
        options += [st.integers(-2**70, 2**70), st.integers(-5, 60),
                    st.sampled_from([2**31, 2**63, -2**63 - 1, 10**30])]
    elif kind == "number":
        options.append(st.floats(allow_nan=False, allow_infinity=False))
    elif kind == "string":
        options += [st.text(max_size=40), st.text(min_size=200, max_size=400)]
    elif kind == "boolean":
        options.append(st.booleans())
    elif kind == "array":
        options.append(st.lists(value_for(spec, schema.get("items", {}), depth + 1),
                                max_size=5))
    elif kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        options.append(st.fixed_dictionaries(
            {}, optional={k: value_for(spec, v, depth + 1) for k, v in props.items()}))
    return st.one_of(*options)


def operations(client: TestClient) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    spec = client.get("/api/openapi.json").json()
    ops = [(method.upper(), path, op, spec) for path, item in spec["paths"].items()
           for method, op in item.items()]
    documented = {path for _, path, _, _ in ops}
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, APIRoute) and route.path not in documented:
            params = [{"name": n, "in": "path", "schema": {"type": "string"}}
                      for n in route.param_convertors]
            for method in sorted(route.methods or ()):
                ops.append((method, route.path, {"parameters": params}, spec))
    return ops


@pytest.fixture
def fuzz_app(db_url: str):
    app = create_app(Settings(database_url=db_url, bot_delay=0, auto_next_delay=0, seed=3,
                              register_rate_per_minute=10_000,
                              register_rate_global_per_minute=10_000,
                              login_rate_per_minute=10_000))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def _login(client: TestClient) -> tuple[str, str]:
    r = client.post("/api/register", json={"name": "Fuzzi", "password": STRONG})
    assert r.status_code == 200, r.text
    token = r.cookies[SESSION_COOKIE]
    client.cookies.clear()
    return token, r.json()["csrf"]


def _check(r: Any, what: str) -> None:
    assert r.status_code < 500, f"{what} -> {r.status_code} {r.text[:300]}"
    if r.status_code >= 400:
        assert r.headers.get("content-type", "").startswith("application/json"), (
            f"{what} -> {r.status_code} {r.headers.get('content-type')}: {r.text[:200]}")
        body = r.json()
        assert isinstance(body, dict) and isinstance(body.get("code"), str), (
            f"{what} -> {r.status_code} {body}")


def fuzz_route(client: TestClient, method: str, path: str, params: list[dict[str, Any]],
               bodies: Any, ids: Any, whos: Any, auth: dict[str, str], csrf: str) -> None:
    @FUZZ
    @given(data=st.data())
    def one(data: st.DataObject) -> None:
        url = path
        query: dict[str, str] = {}
        for p in params:
            if p["in"] == "path":
                value = data.draw(ids, label=p["name"])
                url = url.replace("{" + p["name"] + "}", quote(value, safe=""))
            elif p["in"] == "query" and data.draw(st.booleans()):
                query[p["name"]] = data.draw(
                    st.one_of(st.sampled_from(NASTY_IDS), st.text(max_size=20)),
                    label=p["name"])
        who = data.draw(whos, label="who")
        headers = {} if who == "nobody" else dict(auth)
        if who == "user":
            headers["x-csrf-token"] = csrf
        kwargs: dict[str, Any] = {"headers": headers, "params": query}
        if method in ("POST", "PUT", "PATCH"):
            body = data.draw(bodies, label="body")
            kwargs["content"] = json.dumps(body)
            headers["content-type"] = "application/json"
        r = client.request(method, url, **kwargs)
        _check(r, f"{method} {url} {query} as {who} body={kwargs.get('content', '')[:200]}")

    one()


def test_every_http_route_survives_fuzzing(fuzz_app: TestClient) -> None:
    client = fuzz_app
    token, csrf = _login(client)
    auth = {"cookie": f"{SESSION_COOKIE}={token}"}
    r = client.post("/api/tables", headers={**auth, "x-csrf-token": csrf},
                    json={"bots": [1, 2, 3], "turn_timer": 0})
    table_id = r.json()["id"]
    r = client.post("/api/tournaments", headers={**auth, "x-csrf-token": csrf}, json={})
    assert r.status_code == 200, r.text
    tid = r.json().get("id") or r.json().get("tournament", {}).get("id")
    real = [x for x in (table_id, tid) if x]
    ids = st.one_of(st.sampled_from(real + NASTY_IDS), st.integers(-2**80, 2**80).map(str),
                    st.text(min_size=1, max_size=30))
    whos = st.sampled_from(["nobody", "user", "user without csrf"])
    ops = operations(client)
    assert len(ops) > 40, [p for _, p, _, _ in ops]

    for method, path, op, spec in ops:
        params = op.get("parameters", [])
        body_schema = (op.get("requestBody", {}).get("content", {})
                       .get("application/json", {}).get("schema"))
        bodies = value_for(spec, body_schema) if body_schema else st.none()

        fuzz_route(client, method, path, params, bodies, ids, whos, auth, csrf)

    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/api/tables").status_code == 200
    with client.websocket_connect("/ws/lobby") as ws:
        assert ws.receive_json()["type"] == "lobby"


def test_an_unexpected_exception_is_a_json_500(sqlite_url: str) -> None:
    app = create_app(Settings(database_url=sqlite_url))

    @app.get("/test/boom")
    async def boom() -> None:
        raise OverflowError("Python int too large to convert to SQLite INTEGER")

    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/test/boom")
        assert r.status_code == 500
        assert r.json() == {"code": "internal_error",
                            "message": "internal error (OverflowError)"}
        r = client.get("/no/such/page")
        assert r.status_code == 404 and r.json()["code"] == "not_found", r.text
        r = client.delete("/api/tables")
        assert r.status_code == 405 and r.json()["code"] == "method_not_allowed", r.text


# -- websockets --------------------------------------------------------------------------------
MESSAGE_TYPES = ["action", "chat", "hint", "ping", "sync", "nonsense", None, 7]
SERVER_TYPES = {"state", "error", "chat", "hint", "pong"}


def fuzz_socket(conn: Any, frames: Any) -> None:
    @FUZZ
    @given(frame=frames)
    def one(frame: str | bytes) -> None:
        if isinstance(frame, bytes):
            conn.ws.send_bytes(frame)
        else:
            conn.send(frame)
        conn.send({"type": "ping"})
        while True:  # every answer up to the pong is a typed message
            m = conn.recv(10)
            assert m["type"] != "websocket.close", (frame, m)
            assert m["type"] in SERVER_TYPES, (frame, m)
            if m["type"] == "error":
                assert isinstance(m["code"], str) and m["message"], m
            if m["type"] == "pong":
                break

    one()


def test_every_websocket_message_type_survives_fuzzing(server: Any) -> None:
    anna = server.guest("Anna")
    tid = anna.create_table(bots=[1, 2, 3], allow_hints=True)["id"]
    messages = st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(MESSAGE_TYPES)},
                              optional={"action": json_values, "version": json_values,
                                        "text": json_values}),
        json_values)
    frames = st.one_of(messages.map(json.dumps), st.text(max_size=50),
                       st.binary(max_size=50))

    for who in (anna, None):
        conn = anna.connect(tid) if who else server.connect(tid)
        with conn:
            conn.state()

            fuzz_socket(conn, frames)

    with server.lobby() as lobby:
        assert lobby.recv()["type"] == "lobby"

        @FUZZ
        @given(frame=frames)
        def lobby_frames(frame: str | bytes) -> None:
            if isinstance(frame, bytes):
                lobby.ws.send_bytes(frame)
            else:
                lobby.send(frame)

        lobby_frames()
    # the socket path's own parameter: unknown ids, and ids no table can have (closed
    # before the socket is accepted, like an HTTP request to such a path)
    for bad in ["9" * 30, "ä", "' OR 1=1 --"]:
        with server.client.websocket_connect(f"/ws/tables/{quote(bad, safe='')}") as ws:
            assert ws.receive_json()["code"] == "no_table"
    for bad in ["x" * 300, "\x00", "\u200b"]:
        with pytest.raises(WebSocketDisconnect) as closed:
            server.client.websocket_connect(f"/ws/tables/{quote(bad, safe='')}").__enter__()
        assert closed.value.code == 1008
    assert server.client.get("/healthz").json() == {"status": "ok"}


@pytest.mark.parametrize("path", [
    "/api/games/99999999999999999999", f"/api/games/{2**63}/analysis",
    f"/api/games/{2**63}/record", "/api/games/-1", "/api/games/%00",
    f"/api/tournaments/x/tables/{2**63}/sheet", f"/api/tournaments/x/tables/{2**63}/qr.svg",
    "/api/tables/%00", "/api/tables/" + "x" * 300,
])
def test_huge_and_odd_ids_are_typed_4xx(fuzz_app: TestClient, path: str) -> None:
    r = fuzz_app.get(path)
    assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
    assert isinstance(r.json()["code"], str), r.text
