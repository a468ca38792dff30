"""Fixtures of the server tests: the app on a throw-away database, players, sockets.

``db_url`` is parametrized over a real SQLite file (``tmp_path``) and PostgreSQL at
127.0.0.1:5432 (one database per test session, its ``public`` schema dropped and
made anew before every test).  Without a reachable PostgreSQL those cases are
*skipped with the reason*, never passed silently.

``server`` is the app from ``create_app(Settings(...))`` inside a ``TestClient``
context (the lifespan runs the migrations).  ``start_server`` makes more (a restart on
the same database, other settings).  A :class:`Player` is one account with its own
cookie and CSRF token (the test client's cookie jar is not used, so several players
can share one client); :class:`Conn` is one websocket with receive timeouts that
keeps every raw message it got.
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import anyio
import psycopg
import pytest
from fastapi.testclient import TestClient

from stammtisch.cards import LONG_DECK
from stammtisch.server import Settings, create_app
from stammtisch.server.auth import SESSION_COOKIE

PG_HOST = "127.0.0.1:5432"
PG_ADMIN_URL = f"postgresql://root@{PG_HOST}/test"

#: a card's text as a token of its own (not part of an id or a word)
CARD_RE = re.compile(
    r"(?<![A-Za-z0-9])(" + "|".join(sorted((str(c) for c in LONG_DECK), key=len, reverse=True))
    + r")(?![A-Za-z0-9])")


# -- databases -------------------------------------------------------------------------
@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session (dropped at its end)."""
    try:
        admin = psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=3)
    except psycopg.Error as e:
        pytest.skip(f"PostgreSQL not reachable at {PG_HOST}: {e}")
    name = f"stammtisch_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin:
        _drop_orphans(admin)
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql://root@{PG_HOST}/{name}"
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _drop_orphans(admin: psycopg.Connection[Any]) -> None:
    """Drop the databases of earlier sessions that were killed before their clean-up —
    only those whose test process (the pid in the name) is gone, never a running one's."""
    rows = admin.execute("SELECT datname FROM pg_database WHERE datname LIKE "
                         "'stammtisch\\_test\\_%'").fetchall()
    for (name,) in rows:
        match = re.fullmatch(r"stammtisch_test_(\d+)_[0-9a-f]{8}", name)
        if match is None or _alive(int(match[1])):
            continue
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _reset_pg_schema(url: str) -> None:
    with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
        conn.execute("SET lock_timeout = '5s'")
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")  # every table, alembic_version too
        conn.execute("CREATE SCHEMA public")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'stammtisch.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'stammtisch.sqlite3'}"
    url: str = request.getfixturevalue("pg_database")
    _reset_pg_schema(url)
    return url


# -- the app -----------------------------------------------------------------------------
class Server:
    """One running app (lifespan entered) and helpers to talk to it."""

    def __init__(self, client: TestClient, url: str) -> None:
        self.client = client
        self.url = url
        self.app: Any = client.app
        self._names = 0
        self.stopped = False

    def stop(self) -> None:
        """Shut the app down (the lifespan's end); sockets must be closed first."""
        if not self.stopped:
            self.stopped = True
            self.client.__exit__(None, None, None)

    @property
    def tables(self) -> Any:
        return self.app.state.tables

    @property
    def store(self) -> Any:
        return self.app.state.store

    def runtime(self, table_id: str) -> Any:
        rt = self.tables.get(table_id)
        assert rt is not None, f"no table {table_id} in the manager"
        return rt

    def on_loop(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` in the app's event loop thread (a consistent look at live state)."""
        portal = self.client.portal
        assert portal is not None
        return portal.call(fn)

    def wait_until(self, predicate: Callable[[], Any], what: str, timeout: float = 10.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = self.on_loop(predicate)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(0.01)

    # -- accounts ------------------------------------------------------------------
    def _player_from(self, r: Any) -> Player:
        assert r.status_code == 200, r.text
        token = r.cookies.get(SESSION_COOKIE)
        assert token, f"no session cookie in {r.headers.get_list('set-cookie')}"
        self.client.cookies.clear()
        body = r.json()
        return Player(self, body["id"], body["name"], token, body["csrf"])

    def guest(self, name: str | None = None) -> Player:
        if name is None:
            self._names += 1
            name = f"Gast Nr {self._names}"
        return self._player_from(self.client.post("/api/guest", json={"name": name}))

    def register(self, name: str, password: str = "correct horse") -> Player:
        return self._player_from(self.client.post(
            "/api/register", json={"name": name, "password": password}))

    def connect(self, table_id: str, player: Player | None = None,
                invite: str | None = None) -> Conn:
        """A websocket on the table (``player`` None: an anonymous spectator)."""
        path = f"/ws/tables/{table_id}" + (f"?invite={invite}" if invite else "")
        headers = {"cookie": f"{SESSION_COOKIE}={player.token}"} if player else {}
        return Conn(self.client.websocket_connect(path, headers=headers))

    def lobby(self) -> Conn:
        return Conn(self.client.websocket_connect("/ws/lobby"))

    #: see :func:`hidden_card_leaks`
    leaks = staticmethod(lambda text, hidden: hidden_card_leaks(text, hidden))
    my_turn = staticmethod(lambda seat: my_turn(seat))
    parallel = staticmethod(lambda *fns, timeout=60.0: parallel(*fns, timeout=timeout))


class Player:
    def __init__(self, server: Server, user_id: int, name: str, token: str, csrf: str) -> None:
        self.server = server
        self.id = user_id
        self.name = name
        self.token = token
        self.csrf = csrf

    def on(self, server: Server) -> Player:
        """The same account (and session) talking to another app, e.g. after a restart."""
        return Player(server, self.id, self.name, self.token, self.csrf)

    def headers(self, csrf: bool = True) -> dict[str, str]:
        h = {"cookie": f"{SESSION_COOKIE}={self.token}"}
        if csrf:
            h["x-csrf-token"] = self.csrf
        return h

    def get(self, path: str, **kw: Any) -> Any:
        return self.server.client.get(path, headers=self.headers(csrf=False), **kw)

    def post(self, path: str, json: Any = None, csrf: bool = True, **kw: Any) -> Any:
        headers = {**self.headers(csrf), **kw.pop("headers", {})}
        return self.server.client.post(path, json=json, headers=headers, **kw)

    def create_table(self, **body: Any) -> dict[str, Any]:
        body.setdefault("turn_timer", 0)
        r = self.post("/api/tables", json=body)
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def join(self, table_id: str, seat: int, invite: str | None = None) -> Any:
        return self.post(f"/api/tables/{table_id}/join", json={"seat": seat, "invite": invite})

    def connect(self, table_id: str, invite: str | None = None) -> Conn:
        return self.server.connect(table_id, self, invite)


async def _receive(stream: Any, timeout: float) -> Any:
    with anyio.fail_after(timeout):
        return await stream.receive()


class Conn:
    """A websocket of the test client, entered; every received text is kept in ``raw``."""

    def __init__(self, session: Any) -> None:
        self.ws = session
        self.ws.__enter__()
        self.raw: list[str] = []
        self.closed: dict[str, Any] | None = None
        self.last_acted = -1
        self._exited = False

    def __enter__(self) -> Conn:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if not self._exited:
            self._exited = True
            self.ws.__exit__(None, None, None)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message (``{"type": "websocket.close", ...}`` once closed)."""
        try:
            message = self.ws.portal.call(_receive, self.ws._send_rx, timeout)
        except TimeoutError:
            raise AssertionError(f"no message within {timeout} s (last: "
                                 f"{self.raw[-1][:300] if self.raw else None})") from None
        if message["type"] == "websocket.close":
            self.closed = dict(message)
            return {"type": "websocket.close", "code": message.get("code")}
        text = message["text"]
        self.raw.append(text)
        out: dict[str, Any] = json.loads(text)
        return out

    def recv_type(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of type ``kind`` (others are skipped, still kept in ``raw``)."""
        deadline = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, deadline - time.monotonic()))
            if m["type"] == kind:
                return m
            assert m["type"] != "websocket.close", f"closed while waiting for {kind}: {m}"

    def state(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.recv_type("state", timeout)

    def until(self, predicate: Callable[[dict[str, Any]], Any], what: str,
              timeout: float = 10.0) -> dict[str, Any]:
        """Read states until one satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no state with {what} within {timeout} s")
            m = self.state(left)
            if predicate(m):
                return m

    def send(self, msg: Any) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def act(self, action: Any, version: Any) -> None:
        self.send({"type": "action", "action": action, "version": version})

    def error(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.recv_type("error", timeout)

    def latest(self, timeout: float = 10.0) -> dict[str, Any]:
        """The table's current state: skips what is queued (``sync``, then ``ping`` as a
        marker: the last state before the ``pong`` is the answer to ``sync``)."""
        self.send({"type": "sync"})
        self.send({"type": "ping"})
        last = None
        while True:
            m = self.recv(timeout)
            assert m["type"] != "websocket.close", m
            if m["type"] == "pong":
                assert last is not None
                return last
            if m["type"] == "state":
                last = m

    def until_turn(self, seat: int, timeout: float = 10.0) -> dict[str, Any]:
        return self.until(my_turn(seat), f"seat {seat} to act", timeout)

    def play_game(self, seat: int, rng: random.Random, timeout: float = 30.0,
                  first: dict[str, Any] | None = None) -> dict[str, Any]:
        return play_game(self, seat, rng, timeout, first)


def my_turn(seat: int) -> Callable[[dict[str, Any]], bool]:
    def check(m: dict[str, Any]) -> bool:
        v = m.get("view")
        return bool(v and v["to_act"] == seat and v["legal"] and not m["table"]["between_games"])
    return check


def play_game(conn: Conn, seat: int, rng: random.Random, timeout: float = 30.0,
              first: dict[str, Any] | None = None,
              choose: Callable[[list[str]], str] | None = None) -> dict[str, Any]:
    """Answer every turn of ``seat`` with a legal action until the game is over;
    returns the first state showing the finished game."""
    deadline = time.monotonic() + timeout
    m = first
    while True:
        if m is None:
            left = deadline - time.monotonic()
            assert left > 0, "the game did not end in time"
            m = conn.state(left)
        if m["table"]["between_games"] and m["view"] and m["view"]["result"]:
            return m
        v = m["view"]
        if v and v["to_act"] == seat and v["legal"] and m["version"] > conn.last_acted:
            action = choose(v["legal"]) if choose else rng.choice(v["legal"])
            conn.last_acted = m["version"]
            conn.act(action, m["version"])
        m = None


def parallel(*fns: Callable[[], Any], timeout: float = 60.0) -> None:
    """Run ``fns`` in threads (one per seat, say); re-raise the first failure."""
    errors: list[BaseException] = []

    def run(fn: Callable[[], Any]) -> None:
        try:
            fn()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(fn,), daemon=True) for fn in fns]
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    if errors:
        raise errors[0]
    assert not any(t.is_alive() for t in threads), f"threads still running after {timeout} s"


def hidden_card_leaks(text: str, hidden: set[str]) -> list[str]:
    """Cards of ``hidden`` named anywhere in a message's JSON text, except in the table's
    rules (``tie_card``/``muss_card`` name cards) and its random invite code."""
    data = json.loads(text)
    if isinstance(data, dict) and isinstance(data.get("table"), dict):
        table = dict(data["table"])
        table.pop("rules_options", None)
        table.pop("invite_code", None)
        data = {**data, "table": table}
    flat = json.dumps(data, ensure_ascii=False)
    return sorted({c for c in CARD_RE.findall(flat) if c in hidden})


@pytest.fixture
def start_server() -> Iterator[Callable[..., Server]]:
    """``start_server(url, **settings)``: an entered app; all are left at the test's end."""
    with ExitStack() as stack:
        def start(url: str, **overrides: Any) -> Server:
            options: dict[str, Any] = {"bot_delay": 0, "auto_next_delay": 0, "seed": 7,
                                       # tests register many accounts from one address
                                       "register_rate_per_minute": 10_000,
                                       "register_rate_global_per_minute": 10_000}
            options.update(overrides)
            app = create_app(Settings(database_url=url, **options))
            client = TestClient(app)
            client.__enter__()
            server = Server(client, url)
            stack.callback(server.stop)
            return server

        yield start


@pytest.fixture
def server(db_url: str, start_server: Callable[..., Server]) -> Server:
    return start_server(db_url)


@pytest.fixture
def sqlite_server(sqlite_url: str, start_server: Callable[..., Server]) -> Server:
    return start_server(sqlite_url)
