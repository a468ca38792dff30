"""Several workers sharing one PostgreSQL and one Redis (server/workers/).

Real ``stammtisch serve --redis …`` processes (each one worker, on its own port, so that a
test can say which worker a client talks to), and one ``serve --workers 2`` (uvicorn's
supervisor on one port).  Redis at 127.0.0.1:6379 (one DB number per test, flushed), or
a ``redis-server`` of the test's own for the restart case; PostgreSQL at 127.0.0.1:5432
(a fresh schema per test).  Without Redis, PostgreSQL or ``redis-server`` the tests are
skipped with the reason.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from stammtisch.server.auth import SESSION_COOKIE

from .test_kill import Served, _free_port

redis = pytest.importorskip("redis", reason="the redis client library is not installed")

LEASE = "stammtisch:lease:"


def _redis(url: str) -> Any:
    client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=3)
    try:
        client.ping()
    except redis.RedisError as e:
        pytest.skip(f"Redis not reachable at {url}: {e}")
    return client


@pytest.fixture
def pg_url(pg_database: str) -> str:
    """The session's PostgreSQL database with a fresh ``public`` schema."""
    with psycopg.connect(pg_database, autocommit=True, connect_timeout=3) as conn:
        conn.execute("SET lock_timeout = '5s'")
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")
    return pg_database


def _redis_db(number: int) -> Iterator[tuple[str, Any]]:
    url = f"redis://127.0.0.1:6379/{number}"
    client = _redis(url)
    client.flushdb()
    try:
        yield url, client
    finally:
        client.flushdb()
        client.close()


@pytest.fixture
def redis11() -> Iterator[tuple[str, Any]]:
    yield from _redis_db(11)


@pytest.fixture
def redis12() -> Iterator[tuple[str, Any]]:
    yield from _redis_db(12)


@pytest.fixture
def redis13() -> Iterator[tuple[str, Any]]:
    yield from _redis_db(13)


@pytest.fixture
def redis14() -> Iterator[tuple[str, Any]]:
    yield from _redis_db(14)


class Worker(Served):
    """One ``stammtisch serve --redis …`` process (``--workers`` as given) on a port of
    its own."""

    def __init__(self, db_url: str, redis_url: str, log: Path, workers: int = 1) -> None:
        super().__init__(db_url, log, ["--redis", redis_url, "--workers", str(workers)],
                         ready_s=40, stop_s=15)
        self.table = ""

    def socket(self, path: str, token: str) -> ClientConnection:
        """An open websocket the test closes itself (``ws.close()``)."""
        return super().socket(path, token).__enter__()

    def socket_for_test(self, token: str) -> ClientConnection:
        """The websocket of the table the test plays (``self.table``)."""
        return self.socket(f"/ws/tables/{self.table}", token)


class Player:
    def __init__(self, worker: Worker, name: str) -> None:
        r = httpx.post(f"{worker.base}/api/guest", json={"name": name}, timeout=10)
        assert r.status_code == 200, r.text
        self.token, self.csrf = r.cookies[SESSION_COOKIE], r.json()["csrf"]

    def post(self, worker: Worker, path: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(f"{worker.base}{path}", json=body, timeout=15,
                          headers={"x-csrf-token": self.csrf},
                          cookies={SESSION_COOKIE: self.token})

    def get(self, worker: Worker, path: str) -> httpx.Response:
        return httpx.get(f"{worker.base}{path}", timeout=15,
                         cookies={SESSION_COOKIE: self.token})


def _table_with_one_seat(creator: Player, worker: Worker) -> str:
    """A public Mucken table on ``worker``: bots on seats 0, 2, 3, seat 1 free."""
    r = creator.post(worker, "/api/tables", {"bots": [0, 2, 3], "seat": None,
                                             "turn_timer": 0, "name": "Cluster"})
    assert r.status_code == 200, r.text
    tid: str = r.json()["id"]
    return tid


def _owner_pid(client: Any, tid: str) -> int | None:
    value = client.get(LEASE + tid)
    return None if value is None else int(value.split(":")[-2])


def _wait_owner(client: Any, tid: str, pids: set[int], timeout: float) -> tuple[int, float]:
    """Wait until one of ``pids`` holds the table's lease; (its pid, seconds waited)."""
    start = time.monotonic()
    while True:
        pid = _owner_pid(client, tid)
        if pid in pids:
            return pid, time.monotonic() - start
        assert time.monotonic() - start < timeout, f"no owner among {pids} after {timeout} s"
        time.sleep(0.05)


def _played_by(view: dict[str, Any], seat: int) -> list[str]:
    cards = [c for t in view["tricks_played"] for c in t["cards"]] + view["trick"]
    return [c["card"] for c in cards if c["seat"] == seat]


def _token(card: str, text: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])", text) is not None


class Client:
    """One player's websocket; keeps every raw text it got."""

    def __init__(self, ws: ClientConnection, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.raw: list[str] = []

    def state(self, timeout: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            text = self.ws.recv(timeout=max(0.01, deadline - time.monotonic()))
            assert isinstance(text, str)
            self.raw.append(text)
            m: dict[str, Any] = json.loads(text)
            assert m["type"] != "error", m
            if m["type"] == "state":
                return m

    def mine(self, m: dict[str, Any]) -> bool:
        v = m["view"]
        return bool(v and v["to_act"] == self.seat and v["legal"]
                    and not m["table"]["between_games"])

    def play_until(self, rng: random.Random, plays: int) -> dict[str, Any]:
        """Act on every turn until the seat has played ``plays`` cards (its turn again):
        the last state (every action in it acknowledged)."""
        last = -1
        while True:
            m = self.state()
            v = m["view"]
            if not self.mine(m) or m["version"] <= last:
                continue
            if v["phase"] == "play" and len(_played_by(v, self.seat)) >= plays:
                return m
            last = m["version"]
            self.ws.send(json.dumps({"type": "action", "action": rng.choice(v["legal"]),
                                     "version": m["version"]}))

    def play_to_end(self, rng: random.Random, m: dict[str, Any]) -> dict[str, Any]:
        last = -1
        while not (m["table"]["between_games"] and m["view"]["result"]):
            if self.mine(m) and m["version"] > last:
                last = m["version"]
                self.ws.send(json.dumps({"type": "action",
                                         "action": rng.choice(m["view"]["legal"]),
                                         "version": m["version"]}))
            m = self.state()
        return m


def _reconnect(worker: Worker, token: str, seat: int, timeout: float = 20) -> tuple[
        Client, dict[str, Any]]:
    """Connect again (as the browser's socket() does after a close) until a state comes."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            client = Client(worker.socket_for_test(token), seat)
            return client, client.state(5)
        except (OSError, ConnectionClosed, TimeoutError, AssertionError):
            assert time.monotonic() < deadline, "no state after reconnecting"
            time.sleep(0.3)


def _closed(client: Client, timeout: float) -> float:
    """Read until the server closes the socket with 1012 (service restart: the browser's
    socket() connects again; no error message before it); the seconds it took."""
    start = time.monotonic()
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            left = timeout - (time.monotonic() - start)
            assert left > 0, "the socket was not closed"
            text = str(client.ws.recv(timeout=left))
            assert json.loads(text)["type"] != "error", text
            client.raw.append(text)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012, closed.value
    return time.monotonic() - start


def _same_position(after: dict[str, Any], before: dict[str, Any], seat: int) -> None:
    v, old = after["view"], before["view"]
    assert after["table"]["game_number"] == before["table"]["game_number"]
    assert v["hand"] == old["hand"]
    assert _played_by(v, seat) == _played_by(old, seat)
    for key in ("phase", "trick", "tricks_played", "calls", "contract", "declarer",
                "doublings", "hand_sizes", "dealer"):
        assert v[key] == old[key], key
    assert after["table"]["sheet"] == before["table"]["sheet"]


class Workers:
    def __init__(self) -> None:
        self.all: list[Worker] = []

    def start(self, *args: Any, **kwargs: Any) -> Worker:
        w = Worker(*args, **kwargs)
        self.all.append(w)
        return w

    def stop(self) -> None:
        for w in self.all:
            w.stop()


@pytest.fixture
def workers() -> Iterator[Workers]:
    ws = Workers()
    try:
        yield ws
    finally:
        ws.stop()


# -- the tests --------------------------------------------------------------------------
def test_serve_workers_refuses_bad_settings(tmp_path: Path) -> None:
    """``--workers 2`` needs ``--redis`` and PostgreSQL: one line, exit 2."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STAMMTISCH_")}
    port = str(_free_port())
    base = [sys.executable, "-m", "stammtisch.cli.main", "serve", "--port", port]
    cases = [
        (["--workers", "2", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"], "needs --redis"),
        (["--workers", "2", "--redis", "redis://127.0.0.1:6379/15",
          "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"], "needs a PostgreSQL database"),
        (["--workers", "0"], "--workers 0"),
        (["--workers", "2", "--redis", f"redis://127.0.0.1:{_free_port()}/0",
          "--db", "postgresql://root@127.0.0.1:5432/test"], "cannot reach Redis"),
    ]
    for args, expected in cases:
        r = subprocess.run(base + args, capture_output=True, text=True, env=env, timeout=60)
        assert r.returncode == 2, (args, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0], (args, r.stderr)
        assert "Traceback" not in r.stderr


def test_two_workers_relay_and_shared_lobby(tmp_path: Path, pg_url: str,
                                            redis11: tuple[str, Any],
                                            workers: Workers) -> None:
    """A table made on worker A is listed by B, joined through B (REST relayed to the
    owner A) and played through B's websocket (relayed): the player sees its own seat's
    view only, never a card of another hand that is not on the table."""
    url, client = redis11
    a = workers.start(pg_url, url, tmp_path / "a.log")
    b = workers.start(pg_url, url, tmp_path / "b.log")
    creator, player = Player(a, "Ada"), Player(b, "Bea")
    lobby = b.socket("/ws/lobby", player.token)  # B's lobby socket hears of A's tables
    assert json.loads(lobby.recv(timeout=10))["type"] == "lobby"
    tid = _table_with_one_seat(creator, a)
    assert _owner_pid(client, tid) == a.proc.pid
    try:
        while True:
            m = json.loads(lobby.recv(timeout=10))
            if tid in [t["id"] for t in m["tables"]]:
                break
    finally:
        lobby.close()
    # the shared lobby over REST: B lists A's table
    assert tid in [t["id"] for t in httpx.get(f"{b.base}/api/tables").json()["tables"]]
    # a private table of A's: through B only with its invite code (checked at the owner)
    r = creator.post(a, "/api/tables", {"bots": "fill", "public": False, "turn_timer": 0})
    private, invite = r.json()["id"], r.json()["invite_code"]
    assert private not in [t["id"] for t in httpx.get(f"{b.base}/api/tables").json()["tables"]]
    with b.socket(f"/ws/tables/{private}", player.token) as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "private_table"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    with b.socket(f"/ws/tables/{private}?invite={invite}", player.token) as ws:
        m = json.loads(ws.recv(timeout=10))
        while m["type"] != "state":
            m = json.loads(ws.recv(timeout=10))
        assert m["table"]["id"] == private and m["table"]["you"] is None
    assert _owner_pid(client, private) == a.proc.pid
    info = player.get(b, f"/api/tables/{tid}").json()  # relayed GET
    assert info["id"] == tid and info["you"] is None and info["status"] == "open"
    r = player.post(b, f"/api/tables/{tid}/join", {"seat": 1})
    assert r.status_code == 200, r.text
    assert _owner_pid(client, tid) == a.proc.pid  # still A's: the join was relayed
    b.table = tid
    rng = random.Random(5)
    c = Client(b.socket_for_test(player.token), 1)
    try:
        m = c.play_to_end(rng, c.state())
    finally:
        c.ws.close()
    assert _owner_pid(client, tid) == a.proc.pid
    states = [json.loads(t) for t in c.raw]
    states = [s for s in states if s["type"] == "state" and s["view"]]
    assert states and all(s["table"]["you"] == 1 for s in states)
    dealt = m["view"]["dealt"]  # the finished game shows every hand
    others = [card for seat, hand in enumerate(dealt) if seat != 1 for card in hand]
    for text, s in zip([t for t in c.raw if '"type":"state"' in t and '"view":{' in t],
                       states, strict=True):
        if s["table"]["between_games"]:
            continue
        on_table = {x["card"] for t in s["view"]["tricks_played"] for x in t["cards"]}
        on_table |= {x["card"] for x in s["view"]["trick"]}
        hidden = [card for card in others if card not in on_table]
        view_text = text[text.index('"view":'):]  # (the rules name cards: tie_card …)
        assert not [card for card in hidden if _token(card, view_text)], view_text
        assert sorted(s["view"]["hand"]) == sorted(
            card for card in s["view"]["hand"] if card in dealt[1])


def test_kill_owner_three_workers(tmp_path: Path, pg_url: str, redis12: tuple[str, Any],
                                  workers: Workers) -> None:
    """kill -9 of the owner mid-game: another worker owns the table within 5 s of the
    lease running out, the relayed client is closed (a reconnect, not an error), and
    after reconnecting every acknowledged action is there; the game plays to its end."""
    url, client = redis12
    a = workers.start(pg_url, url, tmp_path / "a.log")
    b = workers.start(pg_url, url, tmp_path / "b.log")
    c_ = workers.start(pg_url, url, tmp_path / "c.log")
    creator, player = Player(a, "Ada"), Player(b, "Bea")
    tid = _table_with_one_seat(creator, a)
    assert player.post(c_, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 200
    b.table = tid
    rng = random.Random(9)
    cl = Client(b.socket_for_test(player.token), 1)
    before = cl.play_until(rng, 2)  # mid card play, my turn: all of it acknowledged
    assert _owner_pid(client, tid) == a.proc.pid
    os.kill(a.proc.pid, signal.SIGKILL)
    killed = time.monotonic()
    assert a.proc.wait(10) == -signal.SIGKILL
    pid, waited = _wait_owner(client, tid, {b.proc.pid, c_.proc.pid}, timeout=3 + 5)
    assert waited <= 3 + 5  # lease ttl 3 s, then at most 5 s
    closed_after = _closed(cl, timeout=10)  # B closes the relayed socket: reconnect
    assert time.monotonic() - killed < 15 and closed_after < 10
    cl.ws.close()
    cl, m = _reconnect(b, player.token, 1)
    try:
        _same_position(m, before, 1)
        m = cl.play_to_end(rng, m)
    finally:
        cl.ws.close()
    assert _owner_pid(client, tid) == pid
    games = player.get(b, "/api/me/games").json()["games"]
    assert [g["number"] for g in games] == [1] and games[0]["result"] == m["view"]["result"]
    record = player.get(b, f"/api/games/{games[0]['id']}/record").json()
    assert record["hands"][1] == m["view"]["dealt"][1]


def test_supervised_workers_share_one_port(tmp_path: Path, pg_url: str,
                                           redis13: tuple[str, Any], workers: Workers) -> None:
    """``serve --workers 2``: two processes behind one port (uvicorn's supervisor); a
    table made there is played to the end, and a worker killed with -9 is replaced."""
    url, client = redis13
    w = workers.start(pg_url, url, tmp_path / "w.log", workers=2)
    deadline = time.monotonic() + 20
    while len(client.pubsub_channels("stammtisch:worker:*")) < 2:
        assert time.monotonic() < deadline, "two workers did not come up"
        time.sleep(0.2)
    player = Player(w, "Ada")
    r = player.post(w, "/api/tables", {"bots": "fill", "turn_timer": 0})
    assert r.status_code == 200, r.text
    w.table = r.json()["id"]
    rng = random.Random(4)
    cl = Client(w.socket_for_test(player.token), 0)
    before = cl.play_until(rng, 1)
    owner = _owner_pid(client, w.table)
    assert owner is not None and owner != w.proc.pid
    os.kill(owner, signal.SIGKILL)
    deadline = time.monotonic() + 8
    while _owner_pid(client, w.table) in (None, owner):
        assert time.monotonic() < deadline, "nobody took the killed worker's table"
        time.sleep(0.05)
    with pytest.raises((ConnectionClosed, TimeoutError)):
        while True:
            cl.ws.recv(timeout=10)
    cl.ws.close()
    cl, m = _reconnect(w, player.token, 0)
    try:
        _same_position(m, before, 0)
        cl.play_to_end(rng, m)
    finally:
        cl.ws.close()
    deadline = time.monotonic() + 20  # the supervisor starts a new worker
    while len(client.pubsub_channels("stammtisch:worker:*")) < 2:
        assert time.monotonic() < deadline, "the killed worker was not replaced"
        time.sleep(0.2)


def _stored_logs(pg_url: str, tid: str) -> list[list[str]]:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute("SELECT record FROM games WHERE table_id = %s ORDER BY number",
                            (tid,)).fetchall()
    return [list((r[0] if isinstance(r[0], dict) else json.loads(r[0])).get("log", []))
            for r in rows]


def test_lost_lease(tmp_path: Path, pg_url: str, redis14: tuple[str, Any],
                    workers: Workers) -> None:
    """The lease deleted by hand: the old owner stops writing (its write is refused,
    its socket closed), another worker takes the table, the stored action log only ever
    grows (no two writers), and the game goes on through the relay."""
    url, client = redis14
    a = workers.start(pg_url, url, tmp_path / "a.log")
    b = workers.start(pg_url, url, tmp_path / "b.log")
    creator, player = Player(a, "Ada"), Player(a, "Bea")
    tid = _table_with_one_seat(creator, a)
    assert player.post(a, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 200
    a.table = tid
    seen: list[list[str]] = []
    problems: list[str] = []
    stop = threading.Event()

    def watch() -> None:  # every stored log must extend the one before it
        while not stop.is_set():
            logs = _stored_logs(pg_url, tid)
            if logs:
                log = logs[-1]
                if seen and len(logs) == 1 and log[:len(seen[-1])] != seen[-1]:
                    problems.append(f"{seen[-1]} -> {log}")
                seen.append(log)
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    rng = random.Random(2)
    try:
        cl = Client(a.socket_for_test(player.token), 1)
        before = cl.play_until(rng, 1)
        assert client.delete(LEASE + tid) == 1  # by hand
        # the renewal (within ttl/3) finds the lease gone and drops the table; the action
        # is committed and acknowledged before that, or refused — never both lost and
        # acknowledged (the database fence, Store.fence_table)
        cl.ws.send(json.dumps({"type": "action", "action": rng.choice(before["view"]["legal"]),
                               "version": before["version"]}))
        seen_before = len(cl.raw)
        _closed(cl, timeout=10)  # 1012: reconnect
        cl.ws.close()
        states = [json.loads(t) for t in cl.raw[seen_before:]]
        states = [m for m in states if m["type"] == "state"]
        acked = states[-1] if states and states[-1]["version"] > before["version"] else before
        _wait_owner(client, tid, {b.proc.pid}, timeout=8)
        stored = _stored_logs(pg_url, tid)[-1]
        time.sleep(1.0)  # the old owner writes nothing more
        assert _stored_logs(pg_url, tid)[-1] == stored
        cl, m = _reconnect(a, player.token, 1)  # lands on A, relayed to B
        assert _played_by(m["view"], 1) == _played_by(acked["view"], 1)
        m = cl.play_to_end(rng, m)
        cl.ws.close()
    finally:
        stop.set()
        watcher.join(5)
    assert not problems, problems
    assert _owner_pid(client, tid) == b.proc.pid
    final = _stored_logs(pg_url, tid)[0]
    assert seen and final[:len(seen[0])] == seen[0]
    assert m["view"]["result"]


def test_redis_restart(tmp_path: Path, pg_url: str, workers: Workers) -> None:
    """Redis killed and started again (empty: ``--save ''``): the workers reconnect,
    the table is taken again and the game goes on from where it stood."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (needed to restart a Redis of our own)")
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"

    def start_redis() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen([server, "--port", str(port), "--save", "", "--appendonly",
                                 "no", "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(url, socket_timeout=1).ping()
                return proc
            except redis.RedisError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)

    rproc = start_redis()
    try:
        a = workers.start(pg_url, url, tmp_path / "a.log")
        b = workers.start(pg_url, url, tmp_path / "b.log")
        creator, player = Player(a, "Ada"), Player(b, "Bea")
        tid = _table_with_one_seat(creator, a)
        assert player.post(b, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 200
        b.table = tid
        rng = random.Random(6)
        cl = Client(b.socket_for_test(player.token), 1)
        before = cl.play_until(rng, 2)
        rproc.kill()
        rproc.wait(10)
        # while Redis is away: "try again" (1013, 503), never "no such table" (4404 would
        # make the browser give up)
        with b.socket(f"/ws/tables/{tid}", player.token) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        r = player.get(b, f"/api/tables/{tid}")
        assert r.status_code == 503 and r.json()["code"] == "table_unavailable", r.text
        rproc = start_redis()
        _closed(cl, timeout=15)  # the relayed socket is closed: reconnect
        cl.ws.close()
        cl, m = _reconnect(b, player.token, 1, timeout=30)
        try:
            _same_position(m, before, 1)
            m = cl.play_to_end(rng, m)
        finally:
            cl.ws.close()
        assert m["view"]["result"]
        client = redis.Redis.from_url(url, decode_responses=True)
        assert _owner_pid(client, tid) in (a.proc.pid, b.proc.pid)
        deadline = time.monotonic() + 10  # the live tables' set is seeded again (5 s)
        while tid not in client.smembers("stammtisch:tables"):
            assert time.monotonic() < deadline, "the tables' set was not seeded again"
            time.sleep(0.2)
    finally:
        workers.stop()
        rproc.kill()
        rproc.wait(10)


def test_relaying_worker_killed(tmp_path: Path, pg_url: str, redis11: tuple[str, Any],
                                workers: Workers) -> None:
    """The worker that relays a player's socket is killed with -9: at the owner's next
    message for that socket nobody listens, so the player counts as gone — the seat is
    away and a bot stands in (as when a browser's socket drops)."""
    url, _ = redis11
    a = workers.start(pg_url, url, tmp_path / "a.log")
    b = workers.start(pg_url, url, tmp_path / "b.log")
    creator, player = Player(a, "Ada"), Player(b, "Bea")
    tid = _table_with_one_seat(creator, a)
    assert player.post(b, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 200
    a.table = b.table = tid
    cl = Client(b.socket_for_test(player.token), 1)
    before = cl.play_until(random.Random(3), 1)  # seat 1 to act: the table waits
    assert before["table"]["seats"][1]["connected"]
    os.kill(b.proc.pid, signal.SIGKILL)
    assert b.proc.wait(10) == -signal.SIGKILL
    cl.ws.close()
    # a spectator on A: its arrival is broadcast, the message for the dead relay finds
    # no listener, the seat goes away and a bot plays for it
    spectator = Client(a.socket_for_test(creator.token), -1)
    try:
        deadline = time.monotonic() + 15
        while True:
            m = spectator.state(15)
            seat = m["table"]["seats"][1]
            if seat["away"] and m["view"] and len(_played_by(m["view"], 1)) > len(
                    _played_by(before["view"], 1)):
                break
            assert time.monotonic() < deadline, "seat 1 was not taken over by a bot"
    finally:
        spectator.ws.close()
    assert not seat["connected"] and seat["bot"]


def test_bench_two_workers_tables_move_under_load(pg_url: str, redis11: tuple[str, Any]) -> None:
    """``bench server --workers 2`` while the tables keep moving: the lease keys are
    deleted again and again during the run, so the owners drop their tables (or find
    their writes fenced off by the database) and the other worker takes them from the
    stored records.  The bench clients reconnect as the browser does; there is no error,
    and every acknowledged action is in the stored records."""
    from stammtisch.server.loadtest import LoadConfig, run_loadtest

    url, client = redis11
    stop = threading.Event()
    moved: list[int] = []

    def mover() -> None:  # once the 8 tables exist and play: take their leases away
        deadline = time.monotonic() + 120
        while client.scard("stammtisch:tables") < 8:
            if stop.is_set() or time.monotonic() > deadline:
                return
            time.sleep(0.2)
        time.sleep(3.0)
        while not stop.is_set():
            keys = client.keys(LEASE + "*")
            if keys:
                moved.append(client.delete(*keys))
            time.sleep(2.0)

    thread = threading.Thread(target=mover, daemon=True)
    thread.start()
    try:
        result = run_loadtest(LoadConfig(tables=8, seconds=10.0, warmup=4.0, think_ms=150.0,
                                         db=pg_url, workers=2, redis=url, seed=5,
                                         bobbl_limit=3))
    finally:
        stop.set()
        thread.join(10)
    assert sum(moved) >= 8, moved
    assert result["reconnects"] > 0, result
    # (``stale_state``: an action that crossed a reconnect's version bump is refused and
    # the current state resent — the protocol's answer to a race, not a failure)
    errors = {k: v for k, v in result["error_codes"].items() if k != "stale_state"}
    assert not errors, (result["error_codes"], result.get("server_log"))
    assert result["acked_actions"] > 100 and result["lost_actions"] == 0, result


def test_busy_connections_are_not_redis_away() -> None:
    """Only a Redis that cannot be reached makes a worker give up its tables; all of its
    own connections being busy (the pool's limit, or its wait for a free one) does not."""
    from stammtisch.server.workers import unreachable

    assert unreachable(redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379."))
    assert not unreachable(redis.exceptions.MaxConnectionsError("Too many connections"))
    assert not unreachable(redis.ConnectionError("No connection available."))
