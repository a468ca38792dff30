"""Load test of the real server: many tables of four websocket clients that play like people.

:func:`run_loadtest` starts ``stammtisch serve`` as a subprocess (its own interpreter, a
temporary SQLite file unless a database URL is given, ``--bot-delay 0``), waits for
``/healthz``, and then drives ``tables`` tables through the public interface only:

* every client is its own guest (``POST /api/guest``, its own session cookie);
* seat 0 creates a table without bots (``POST /api/tables``), seats 1–3 join it
  (``POST /api/tables/{id}/join`` with the ``X-CSRF-Token`` header), the table fills and
  the first game starts;
* every client holds a websocket (``/ws/tables/{id}``, the ``websockets`` asyncio client,
  permessage-deflate offered as browsers do) and, when its view says it is to act, waits a
  think time (``think_ms`` × uniform(0.5, 1.5), so tables drift apart instead of acting in
  lock step) and sends a random action of ``view.legal``; after a game seat 0 sends
  ``next``; when a match is over the group opens a new table.

Measured, after ``warmup`` seconds and for ``seconds`` seconds: the actions whose send
time falls in that window, and for each the latency from sending it to receiving the
first ``state`` message of a higher version on the acting client's socket (the update
that reflects it); errors over the whole run (``error`` messages, failed requests, lost
sockets, actions of the window without an answer); the server process's CPU seconds in
the window and its peak resident memory (``VmHWM`` in ``/proc/<pid>/status``, sampled
``VmRSS`` as fallback; ``server_rss_end_mb`` is ``VmRSS`` at the end of the window).

The clients run in one asyncio loop, or in ``client_procs`` processes (tables split among
them) when one core cannot drive them all; ``bench_cpu_s`` and ``client_lag_*`` (how late
the client loop wakes) tell how busy they were.  Client and server share the machine, so
``other_cpu_s`` reports what every other process took in the window (``/proc/stat``):
figures taken on a busy machine say more about the neighbours than about the server.
The server runs in its own session (``start_new_session``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

SESSION_COOKIE = "stammtisch_session"
CSRF_HEADER = "X-CSRF-Token"
#: how long actions sent just before the end of the window may take to be answered
GRACE_S = 5.0
#: with this variable (a file name) the server runs with the timing hook of
#: :mod:`stammtisch.server.perf`, started through :data:`PERF_BOOT`
PERF_ENV = "STAMMTISCH_PERF"
PERF_BOOT = ("import stammtisch.server.perf as p; p.install(); "
             "from stammtisch.cli.main import app; app()")
T = TypeVar("T")


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` that also works when this thread already runs an event loop
    (e.g. inside Playwright's sync API): then the coroutine runs on a fresh thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e

    worker = threading.Thread(target=target, name="stammtisch-bench")
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]



@dataclass
class LoadConfig:
    tables: int
    seconds: float = 30.0
    think_ms: float = 500.0
    warmup: float = 5.0
    db: str = ""
    client_procs: int = 1
    #: Bobbl per match (the API allows 1..50); a finished match makes the group re-seat
    bobbl_limit: int = 50
    #: the tables' turn timer (seconds; the server's default is 60)
    turn_timer: int = 60
    #: compress websocket messages (permessage-deflate), as browsers do
    compression: bool = True
    #: concurrent table set-ups (HTTP requests before play)
    setup_concurrency: int = 16
    seed: int | None = None
    #: extra environment for the server process (``STAMMTISCH_*`` settings, …)
    server_env: dict[str, str] = field(default_factory=dict)
    #: another server command (``{port}`` and ``{db}`` are filled in), for experiments
    server_cmd: list[str] | None = None
    #: during the window, run auth storms one after the other (:func:`auth_storm`: this
    #: many registrations and wrong logins at once, a probe table measuring pings/actions)
    auth_storm: bool = False
    storm_registrations: int = 30
    storm_logins: int = 30
    #: the tables' games, round-robin over the groups (``mucken``, ``schafkopf``,
    #: ``mulatschak``, ``mus``)
    games: list[str] = field(default_factory=lambda: ["mucken"])
    #: Mulatschak tables' seat counts, round-robin over the Mulatschak groups (3–6)
    mulatschak_seats: list[int] = field(default_factory=lambda: [4])
    #: ``stammtisch serve --workers N --redis URL`` (N > 1 needs a PostgreSQL ``db``)
    workers: int = 1
    redis: str = "redis://127.0.0.1:6379/0"
    #: after the run, read every table's stored games and check that each acknowledged
    #: action is in them (``lost``)
    verify: bool = True


@dataclass
class ClientStats:
    """What one client process measured (latencies in ms of actions sent in the window)."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_codes: Counter[str] = field(default_factory=Counter)
    sent_total: int = 0
    answered_total: int = 0
    games_started: int = 0
    tables_opened: int = 0
    lost: int = 0
    cpu_s: float = 0.0
    #: how late the client loop woke from 10 ms sleeps in the window (ms): a busy or
    #: starved client inflates the measured latencies
    loop_lag: list[float] = field(default_factory=list)
    #: per game: action -> the acting client's update (``own``) and action -> every
    #: client of the table has the new version (``every``), ms, actions of the window
    own: dict[str, list[float]] = field(default_factory=dict)
    every: dict[str, list[float]] = field(default_factory=dict)
    #: window actions whose update did not reach every client of the table
    views_missing: int = 0
    #: every acknowledged action of the run: [table id, game number, action text]
    acked: list[list[Any]] = field(default_factory=list)
    #: sockets the server closed with 1012/1013 (the table moved to another worker, or
    #: could not be reached just now) and that connected again, as the browser does
    reconnects: int = 0
    #: set-up requests answered ``503`` and tried again (several workers), by code
    setup_retries: int = 0
    retry_codes: Counter[str] = field(default_factory=Counter)
    #: actions in flight when their socket was closed that way (neither acknowledged nor
    #: lost: the player sees the state after the reconnect and decides anew)
    unanswered_at_move: int = 0

    def error(self, code: str) -> None:
        self.errors += 1
        self.error_codes[code] += 1

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["error_codes"] = dict(self.error_codes)
        d["retry_codes"] = dict(self.retry_codes)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ClientStats:
        s = cls(**{k: v for k, v in d.items() if k not in ("error_codes", "retry_codes")})
        s.error_codes = Counter(d.get("error_codes", {}))
        s.retry_codes = Counter(d.get("retry_codes", {}))
        return s

    def merge(self, other: ClientStats) -> None:
        self.latencies.extend(other.latencies)
        self.loop_lag.extend(other.loop_lag)
        for mine, theirs in ((self.own, other.own), (self.every, other.every)):
            for game, values in theirs.items():
                mine.setdefault(game, []).extend(values)
        self.views_missing += other.views_missing
        self.acked.extend(other.acked)
        self.errors += other.errors
        self.error_codes.update(other.error_codes)
        self.sent_total += other.sent_total
        self.answered_total += other.answered_total
        self.games_started += other.games_started
        self.tables_opened += other.tables_opened
        self.reconnects += other.reconnects
        self.setup_retries += other.setup_retries
        self.retry_codes.update(other.retry_codes)
        self.unanswered_at_move += other.unanswered_at_move
        self.lost += other.lost
        self.cpu_s += other.cpu_s


def _code(r: Any) -> str:
    try:
        return str(r.json().get("code"))
    except ValueError:
        return f"http_{r.status_code}"


def _check(r: Any) -> None:
    """``raise_for_status`` with the server's error code and message in the exception."""
    if r.status_code >= 400:
        raise RuntimeError(f"{r.request.method} {r.request.url.path}: {r.status_code} "
                           f"{r.text[:300]}")


# -- the server process ---------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def proc_status(pid: int) -> dict[str, int]:
    """``VmRSS``/``VmHWM`` (kB) of a process from ``/proc`` (empty if unavailable)."""
    out: dict[str, int] = {}
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(rest.split()[0])
    return out


def proc_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (``/proc/<pid>/stat``)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return ticks / os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (``/proc/*/stat`` parent ids): ``serve --workers N``
    runs its workers as child processes."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(text[text.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (and is not a zombie)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2:].split()[0] != "Z"


def system_busy_seconds() -> float | None:
    """CPU seconds all cores of the machine spent busy since boot (``/proc/stat``)."""
    try:
        first = Path("/proc/stat").read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    ticks = [int(x) for x in first[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class ServerProcess:
    """``python -m stammtisch.cli.main serve`` on a free port, stopped by :meth:`stop`."""

    def __init__(self, db_url: str, log_path: Path, env: dict[str, str] | None = None,
                 cmd: list[str] | None = None) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self._log = log_path.open("wb")
        if cmd is None:
            cmd = [sys.executable, "-m", "stammtisch.cli.main", "serve", "--port",
                   str(self.port), "--db", db_url, "--bot-delay", "0"]
            if PERF_ENV in {**os.environ, **(env or {})}:
                # the opt-in timing hook (server/perf.py) is installed before the app
                cmd[1:3] = ["-c", PERF_BOOT]
        else:
            cmd = [a.format(port=self.port, db=db_url) for a in cmd]
        # its own session: the terminal's Ctrl-C reaches the bench, which stops the server;
        # and with the kernel's autogroup scheduling the server is not one group with its
        # own load generator (as on a real host, where the clients are elsewhere)
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT,
                                     env={**os.environ, **(env or {})},
                                     start_new_session=True)
        self.peak_rss_kb = 0

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_ready(self, timeout: float = 60.0) -> None:
        import urllib.error
        import urllib.request

        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n"
                                   + self.log_path.read_text(errors="replace")[-2000:])
            try:
                with opener.open(self.base_url + "/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not answer /healthz in time")

    def sample(self) -> dict[str, int]:
        """``VmRSS``/``VmHWM`` of the server: summed over its process tree when it has
        worker processes (then the peak is the largest sampled sum)."""
        pids = process_tree(self.pid)
        if len(pids) == 1:
            st = proc_status(self.pid)
            self.peak_rss_kb = max(self.peak_rss_kb, st.get("VmHWM", 0), st.get("VmRSS", 0))
            return st
        rss = sum(proc_status(p).get("VmRSS", 0) for p in pids)
        self.peak_rss_kb = max(self.peak_rss_kb, rss)
        return {"VmRSS": rss, "VmHWM": self.peak_rss_kb}

    def cpu_seconds(self) -> float:
        """User + system CPU seconds of the server's process tree."""
        return sum(proc_cpu_seconds(p) or 0.0 for p in process_tree(self.pid))

    def stop(self) -> None:
        tree = process_tree(self.pid)[1:] if self.proc.poll() is None else []
        if self.proc.poll() is None:
            self.sample()
            self.proc.send_signal(signal.SIGINT)  # uvicorn shuts down gracefully
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        # worker processes (serve --workers N) that outlived their supervisor
        deadline = time.monotonic() + 5
        for pid in tree:
            while time.monotonic() < deadline and _alive(pid):
                time.sleep(0.1)
            if _alive(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        self._log.close()


# -- the clients ----------------------------------------------------------------------------
class Window:
    """The measured window: actions sent in ``[start, end)`` count."""

    def __init__(self) -> None:
        self.start = math.inf
        self.end = math.inf
        self.stop_sending = math.inf

    def set(self, go: float, warmup: float, seconds: float) -> None:
        self.start = go + warmup
        self.end = self.start + seconds
        self.stop_sending = self.end


class Client:
    """One player: a guest with its own cookie and websocket, on one seat of a group."""

    def __init__(self, run: ClientRun, group: Group, seat: int) -> None:
        self.run = run
        self.group = group
        self.seat = seat
        self.token = ""
        self.csrf = ""
        self.ws: Any = None
        self.version = -1
        self.scheduled_version = -1
        self.move_task: asyncio.Task[None] | None = None
        #: the action in flight: (version it was sent at, monotonic send time, action)
        self.pending: tuple[int, float, str] | None = None
        #: actions sent with an ``id`` whose ``ack`` has not come: id -> [table id, game
        #: number, action]; an ``ack`` (the server stored and sent that very action) moves
        #: the entry to the acknowledged actions the run checks against the records
        self.awaiting: dict[int, list[Any]] = {}
        self.next_id = 0
        #: the game number of the table when the action in flight was decided
        self.pending_game = 0
        self.game_number = 0
        self.reader: asyncio.Task[None] | None = None

    async def login(self, http: Any, name: str) -> None:
        r = await http.post("/api/guest", json={"name": name})
        r.raise_for_status()
        self.csrf = r.json()["csrf"]
        self.token = r.cookies.get(SESSION_COOKIE) or ""
        if not self.token:
            raise RuntimeError("no session cookie from /api/guest")

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{SESSION_COOKIE}={self.token}", CSRF_HEADER: self.csrf}

    async def connect(self, table_id: str) -> None:
        self.version = self.scheduled_version = -1
        self.pending = None
        await self._open(table_id)
        self.reader = asyncio.create_task(self._read())

    async def _open(self, table_id: str) -> None:
        from websockets.asyncio.client import connect

        url = self.run.ws_base + f"/ws/tables/{table_id}"
        self.ws = await connect(url, additional_headers={"Cookie": f"{SESSION_COOKIE}="
                                                                    f"{self.token}"},
                                compression="deflate" if self.run.cfg.compression else None,
                                proxy=None, max_size=None, open_timeout=60,
                                ping_interval=None)

    async def _reconnect(self) -> bool:
        """After a close with 1012/1013 (the table moved to another worker): connect
        again, as the browser does, for up to 30 s; whether it worked."""
        if self.move_task is not None:
            self.move_task.cancel()
        if self.pending is not None:  # its fate is the new owner's state
            self.run.stats.unanswered_at_move += 1
        self.version = self.scheduled_version = -1
        self.pending = None
        self.awaiting.clear()  # their fate is in the new owner's state, not acknowledged
        # a moved table starts its versions anew: what was in flight will not be seen
        self.group.inflight.clear()
        deadline = time.monotonic() + 30
        while not self.run.finished and time.monotonic() < deadline:
            await asyncio.sleep(0.2 + 0.3 * self.run.rng.random())
            try:
                await self._open(self.group.table_id)
            except Exception:
                continue
            self.run.stats.reconnects += 1
            return True
        return False

    async def close(self) -> None:
        if self.move_task is not None:
            self.move_task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(BaseException):
                await self.reader

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                async for raw in self.ws:
                    try:
                        self._on_message(json.loads(raw))
                    except (ValueError, KeyError, TypeError) as e:
                        self.run.stats.error(f"bad_message:{type(e).__name__}")
            except ConnectionClosed:
                pass
            if self.run.finished or self.group.reseating:
                return
            if self.ws.close_code in (1012, 1013) and await self._reconnect():
                continue  # "connected players see a reconnect, not an error"
            if not self.run.finished and not self.group.reseating:
                self.run.stats.error("socket_closed")
            return

    def _on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "state":
            self._on_state(msg)
        elif kind == "ack":
            entry = self.awaiting.pop(msg["id"], None)
            if entry is not None:
                self.run.stats.acked.append(entry)
        elif kind == "error":
            self.run.stats.error(str(msg.get("code")))
            # ask for the state again and decide anew (a refused action must not stall
            # the table; the server resends the state itself after ``stale_state``)
            self.pending = None
            self.scheduled_version = -1
            if msg.get("code") != "stale_state":
                self._spawn(self._resync())

    def _on_state(self, msg: dict[str, Any]) -> None:
        now = time.monotonic()
        v: int = msg["version"]
        group = self.group
        window = self.run.window
        if group.inflight:
            # action -> every view: done when every client of the table has a newer version
            for pv in [pv for pv in group.inflight if v > pv]:
                sent, seen = group.inflight[pv]
                seen.add(self.seat)
                if len(seen) == len(group.clients):
                    del group.inflight[pv]
                    if window.start <= sent < window.end:
                        self.run.stats.every.setdefault(group.game, []).append(
                            (now - sent) * 1000.0)
        if self.pending is not None and v > self.pending[0]:
            # (a newer version: the action's update — or another change of the table, if
            # the action is refused after it; only the ``ack`` proves it was applied)
            _, sent, done = self.pending
            self.pending = None
            self.run.stats.answered_total += 1
            if done == "next":
                self.run.stats.games_started += 1
            if window.start <= sent < window.end:
                ms = (now - sent) * 1000.0
                self.run.stats.latencies.append(ms)
                self.run.stats.own.setdefault(group.game, []).append(ms)
        self.version = v
        table = msg["table"]
        view = msg["view"]
        self.game_number = table.get("game_number", 0)
        if table.get("match_over"):
            self.group.match_over()
            return
        action: str | None = None
        if table.get("between_games"):
            if self.seat == 0:
                action = "next"
        elif view is not None and view.get("to_act") == self.seat and view.get("legal"):
            action = self.run.rng.choice(view["legal"])
        if action is None or v == self.scheduled_version or self.pending is not None:
            return
        if self.move_task is not None and not self.move_task.done():
            self.move_task.cancel()
        self.scheduled_version = v
        self.move_task = asyncio.create_task(self._move(v, action))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self.run.background.add(task)
        task.add_done_callback(self.run.background.discard)

    async def _resync(self) -> None:
        await asyncio.sleep(max(0.25, self.run.cfg.think_ms / 1000.0))  # back off
        with contextlib.suppress(Exception):
            await self.ws.send('{"type":"sync"}')

    async def _move(self, version: int, action: str) -> None:
        think = self.run.cfg.think_ms / 1000.0 * self.run.rng.uniform(0.5, 1.5)
        await asyncio.sleep(think)
        if self.version != version or self.run.finished:
            return
        now = time.monotonic()
        if now >= self.run.window.stop_sending:
            return
        self.pending = (version, now, action)
        self.pending_game = self.game_number
        self.group.inflight[version] = (now, set())
        self.run.stats.sent_total += 1
        self.next_id += 1
        if action != "next":
            self.awaiting[self.next_id] = [self.group.table_id, self.game_number, action]
        try:
            await self.ws.send(json.dumps({"type": "action", "action": action,
                                           "version": version, "id": self.next_id}))
        except Exception:
            self.pending = None
            self.awaiting.pop(self.next_id, None)
            if self.ws.close_code not in (1012, 1013):  # (moved: the reader reconnects)
                self.run.stats.error("send_failed")


#: what ``POST /api/tables`` gets per game besides name, bots, seat and turn timer
#: (no limit: open-ended sittings; Mucken's Bobbl limit comes from the config)
GAME_BODY: dict[str, dict[str, Any]] = {
    "mucken": {}, "schafkopf": {"game": "schafkopf"}, "mulatschak": {"game": "mulatschak"},
    "mus": {"game": "mus"}}


class Group:
    """The clients at one table (one per seat: four, or Mulatschak's 3–6); opens a new
    table when the match is over."""

    def __init__(self, run: ClientRun, index: int, game: str = "mucken",
                 seats: int = 4) -> None:
        self.run = run
        self.index = index
        self.game = game
        self.clients = [Client(run, self, seat) for seat in range(seats)]
        self.table_id = ""
        self.reseating = False
        #: actions in flight: version sent at -> (send time, seats that saw a newer version)
        self.inflight: dict[int, tuple[float, set[int]]] = {}

    def table_body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"name": f"Last {self.index}", "bots": [], "seat": 0,
                                "turn_timer": self.run.cfg.turn_timer,
                                **GAME_BODY.get(self.game, {"game": self.game})}
        if self.game == "mucken":
            body["bobbl_limit"] = self.run.cfg.bobbl_limit
        if len(self.clients) != 4:
            body["players"] = len(self.clients)
        return body

    async def setup(self, first: bool = True) -> None:
        import httpx

        async with httpx.AsyncClient(base_url=self.run.base_url, trust_env=False,
                                     timeout=60) as http:
            if first:
                for c in self.clients:
                    await c.login(http, f"Gast {self.run.tag}{self.index}-{c.seat}")
                    http.cookies.clear()
            host = self.clients[0]
            r = await http.post("/api/tables", headers=host.headers(), json=self.table_body())
            _check(r)
            self.table_id = r.json()["id"]
            http.cookies.clear()
            for c in self.clients[1:]:
                await self._join(http, c)
        self.run.stats.tables_opened += 1
        self.run.stats.games_started += 1  # the table starts its first game when full
        self.inflight.clear()
        for c in self.clients:
            await c.connect(self.table_id)

    async def _join(self, http: Any, c: Client) -> None:
        """Take the client's seat; a ``503`` (several workers: the table's owner was busy
        or the table moving, ``Retry-After``) is tried again, as a person would, and
        counted (``setup_retries``) — a join that went through before its answer was lost
        answers ``already_seated`` the second time, which is the seat taken."""
        for attempt in range(6):
            r = await http.post(f"/api/tables/{self.table_id}/join", headers=c.headers(),
                                json={"seat": c.seat})
            http.cookies.clear()
            if r.status_code == 503 and attempt < 5:
                self.run.stats.setup_retries += 1
                self.run.stats.retry_codes[_code(r)] += 1
                await asyncio.sleep(float(r.headers.get("retry-after", "1")))
                continue
            if r.status_code == 409 and attempt > 0 and _code(r) == "already_seated":
                return
            _check(r)
            return

    def match_over(self) -> None:
        if not self.reseating and not self.run.finished:
            self.reseating = True
            task = asyncio.create_task(self._reseat())
            self.run.background.add(task)
            task.add_done_callback(self.run.background.discard)

    async def _reseat(self) -> None:
        try:
            for c in self.clients:
                await c.close()
            if not self.run.finished:
                await self.setup(first=False)
        except Exception as e:
            self.run.stats.error(f"reseat_failed:{type(e).__name__}")
        finally:
            self.reseating = False

    async def close(self) -> None:
        await asyncio.gather(*(c.close() for c in self.clients))


class ClientRun:
    """All groups of one client process."""

    def __init__(self, base_url: str, cfg: LoadConfig, first_group: int, n_groups: int,
                 tag: str) -> None:
        self.base_url = base_url
        self.ws_base = "ws" + base_url.removeprefix("http")
        self.cfg = cfg
        self.tag = tag
        self.rng = random.Random(None if cfg.seed is None else cfg.seed + first_group)
        self.groups = []
        games = cfg.games or ["mucken"]
        seats = cfg.mulatschak_seats or [4]
        for i in range(first_group, first_group + n_groups):
            game = games[i % len(games)]
            # the Mulatschak groups cycle through the seat counts
            n = seats[(i // len(games)) % len(seats)] if game == "mulatschak" else 4
            self.groups.append(Group(self, i, game, n))
        self.stats = ClientStats()
        self.window = Window()
        self.finished = False
        self.background: set[asyncio.Task[None]] = set()

    async def setup(self) -> None:
        sem = asyncio.Semaphore(self.cfg.setup_concurrency)

        async def one(g: Group) -> None:
            async with sem:
                await g.setup()

        await asyncio.gather(*(one(g) for g in self.groups))

    async def play(self, go: float) -> ClientStats:
        """Play from ``go`` (monotonic) through warm-up and the window, then stop."""
        cfg = self.cfg
        self.window.set(go, cfg.warmup, cfg.seconds)
        await asyncio.sleep(max(0.0, self.window.start - time.monotonic()))
        cpu0 = time.process_time()
        while (now := time.monotonic()) < self.window.end:
            await asyncio.sleep(0.01)
            self.stats.loop_lag.append((time.monotonic() - now - 0.01) * 1000.0)
        self.stats.cpu_s = time.process_time() - cpu0
        deadline = time.monotonic() + GRACE_S
        while time.monotonic() < deadline and (
                any(c.pending is not None for g in self.groups for c in g.clients)
                or any(self.window.start <= sent < self.window.end
                       for g in self.groups if not g.reseating
                       for sent, _ in g.inflight.values())):
            await asyncio.sleep(0.05)
        self.finished = True
        self.stats.lost = sum(1 for g in self.groups for c in g.clients
                              if c.pending is not None and
                              self.window.start <= c.pending[1] < self.window.end)
        self.stats.views_missing = sum(
            1 for g in self.groups if not g.reseating for sent, _ in g.inflight.values()
            if self.window.start <= sent < self.window.end)
        if self.stats.views_missing:
            self.stats.errors += self.stats.views_missing
            self.stats.error_codes["view_missing"] += self.stats.views_missing
        self.stats.errors += self.stats.lost
        if self.stats.lost:
            self.stats.error_codes["no_answer"] += self.stats.lost
        for t in list(self.background):
            t.cancel()
        await asyncio.gather(*(g.close() for g in self.groups), return_exceptions=True)
        return self.stats


async def _drive(base_url: str, cfg: LoadConfig, first_group: int, n_groups: int, tag: str,
                 ready: Callable[[], Awaitable[float]]) -> ClientStats:
    run = ClientRun(base_url, cfg, first_group, n_groups, tag)
    await run.setup()
    # what was set up stays: keep it out of the client's full collections
    gc.collect()
    gc.freeze()
    try:
        go = await ready()
        return await run.play(go)
    finally:
        gc.unfreeze()


def _worker_main(argv: list[str]) -> None:
    """A client process (``python -m stammtisch.server.loadtest --worker JSON``): set up,
    print ``ready``, read the start time from stdin, play, print the stats as JSON."""
    spec = json.loads(argv[argv.index("--worker") + 1])
    cfg = LoadConfig(**spec["cfg"])

    async def ready() -> float:
        print("ready", flush=True)
        line = await asyncio.to_thread(sys.stdin.readline)
        return float(line.split()[1])

    stats = asyncio.run(_drive(spec["base_url"], cfg, spec["first"], spec["size"],
                               spec["tag"], ready))
    print("done " + json.dumps(stats.to_json()), flush=True)


# -- the whole run ------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100); 0.0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(q / 100.0 * len(s)) - 1))
    return s[k]


def _client_count(cfg: LoadConfig) -> int:
    """How many clients ``cfg`` seats (as :class:`ClientRun` lays the groups out)."""
    games = cfg.games or ["mucken"]
    seats = cfg.mulatschak_seats or [4]
    n = 0
    for i in range(cfg.tables):
        game = games[i % len(games)]
        n += seats[(i // len(games)) % len(seats)] if game == "mulatschak" else 4
    return n


@dataclass
class _Sampler:
    server: ServerProcess
    cfg: LoadConfig
    cpu_start: float = 0.0
    cpu_end: float = 0.0
    busy_start: float = 0.0
    busy_end: float = 0.0
    load_end: float = 0.0
    rss_max_kb: int = 0
    rss_end_kb: int = 0
    window: tuple[float, float] = (0.0, 0.0)
    storms: list[dict[str, Any]] = field(default_factory=list)
    storm_samples: dict[str, list[float]] = field(default_factory=dict)

    def perf_snapshot(self) -> None:
        """With ``STAMMTISCH_PERF`` (server/perf.py) the server writes its timings and
        starts anew on ``SIGUSR1``: sent at the window's start and end."""
        if PERF_ENV in self.cfg.server_env or PERF_ENV in os.environ:
            for pid in process_tree(self.server.pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGUSR1)

    def tick(self) -> None:
        st = self.server.sample()
        self.rss_max_kb = max(self.rss_max_kb, st.get("VmRSS", 0))


def _split(n: int, k: int) -> list[tuple[int, int]]:
    k = max(1, min(k, n))
    base, extra = divmod(n, k)
    out, first = [], 0
    for i in range(k):
        size = base + (1 if i < extra else 0)
        out.append((first, size))
        first += size
    return out


async def _sample_window(sampler: _Sampler, go: float) -> None:
    cfg = sampler.cfg
    start, end = go + cfg.warmup, go + cfg.warmup + cfg.seconds
    sampler.window = (start, end)
    while time.monotonic() < start:
        sampler.tick()
        await asyncio.sleep(min(0.25, max(0.0, start - time.monotonic())))
    sampler.cpu_start = sampler.server.cpu_seconds()
    sampler.busy_start = system_busy_seconds() or 0.0
    sampler.perf_snapshot()
    while time.monotonic() < end:
        sampler.tick()
        await asyncio.sleep(min(0.25, max(0.0, end - time.monotonic())))
    sampler.cpu_end = sampler.server.cpu_seconds()
    sampler.perf_snapshot()
    sampler.rss_end_kb = sampler.server.sample().get("VmRSS", 0)
    sampler.busy_end = system_busy_seconds() or 0.0
    with contextlib.suppress(OSError, ValueError, IndexError):
        sampler.load_end = float(Path("/proc/loadavg").read_text().split()[0])
    sampler.tick()


async def _storm_window(base_url: str, sampler: _Sampler, go: float) -> None:
    """Auth storms one after the other from the window's start to its end."""
    cfg = sampler.cfg
    start, end = go + cfg.warmup, go + cfg.warmup + cfg.seconds
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    n = 0
    while time.monotonic() < end:
        n += 1
        try:
            sampler.storms.append(await auth_storm(
                base_url, cfg.storm_registrations, cfg.storm_logins, warmup=0.2,
                tag=f"{os.getpid() % 10000}r{n}", samples=sampler.storm_samples))
        except Exception as e:
            sampler.storms.append({"error": f"{type(e).__name__}: {e}"})
            await asyncio.sleep(1.0)


async def _sample_and_storm(base_url: str, sampler: _Sampler, go: float) -> None:
    tasks = [_sample_window(sampler, go)]
    if sampler.cfg.auth_storm:
        tasks.append(_storm_window(base_url, sampler, go))
    await asyncio.gather(*tasks)


def _storm_summary(sampler: _Sampler) -> dict[str, Any]:
    register: Counter[str] = Counter()
    login: Counter[str] = Counter()
    for r in sampler.storms:
        register.update(r.get("register_status", {}))
        login.update(r.get("login_status", {}))
    ping = sampler.storm_samples.get("ping", [])
    action = sampler.storm_samples.get("action", [])
    return {"rounds": len(sampler.storms),
            "per_round": [sampler.cfg.storm_registrations, sampler.cfg.storm_logins],
            "storm_s": [r.get("storm_s") for r in sampler.storms],
            "register_status": dict(register), "login_status": dict(login),
            "failures": [r["error"] for r in sampler.storms if "error" in r],
            "ping": _stats(ping), "action": _stats(action)}


def _stats(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "p50_ms": round(percentile(values, 50), 1),
            "p99_ms": round(percentile(values, 99), 1),
            "max_ms": round(max(values, default=0.0), 1)}


async def _run_in_process(server: ServerProcess, cfg: LoadConfig,
                          sampler: _Sampler) -> ClientStats:
    loop_task: list[asyncio.Task[None]] = []

    async def ready() -> float:
        go = time.monotonic()
        loop_task.append(asyncio.create_task(_sample_window(sampler, go)))
        if cfg.auth_storm:
            loop_task.append(asyncio.create_task(_storm_window(server.base_url, sampler, go)))
        return go

    stats = await _drive(server.base_url, cfg, 0, cfg.tables, "", ready)
    for t in loop_task:
        await t
    return stats


def _run_processes(server: ServerProcess, cfg: LoadConfig, sampler: _Sampler) -> ClientStats:
    """Clients in ``cfg.client_procs`` worker processes (plain subprocesses, so no main
    module is re-imported); they start playing together and report their stats."""
    workers: list[subprocess.Popen[str]] = []
    try:
        for i, (first, size) in enumerate(_split(cfg.tables, cfg.client_procs)):
            spec = {"base_url": server.base_url, "cfg": asdict(cfg), "first": first,
                    "size": size, "tag": f"p{i}-"}
            workers.append(subprocess.Popen(
                [sys.executable, "-m", "stammtisch.server.loadtest", "--worker",
                 json.dumps(spec)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
        for w in workers:
            assert w.stdout is not None
            if w.stdout.readline().strip() != "ready":
                raise RuntimeError(f"a client process failed (exit {w.wait()})")
        go = time.monotonic()
        for w in workers:
            assert w.stdin is not None
            w.stdin.write(f"go {go!r}\n")
            w.stdin.flush()
        run_sync(_sample_and_storm(server.base_url, sampler, go))
        total = ClientStats()
        for w in workers:
            assert w.stdout is not None
            line = w.stdout.readline()
            if not line.startswith("done "):
                raise RuntimeError(f"a client process failed (exit {w.wait()})")
            total.merge(ClientStats.from_json(json.loads(line[5:])))
            w.wait(30)
        return total
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()


def server_command(cfg: LoadConfig) -> list[str] | None:
    """The server's command line: ``cfg.server_cmd``, or for ``workers`` > 1
    ``stammtisch serve --workers N --redis URL --db <db>`` (``None``: the default)."""
    if cfg.server_cmd is not None or cfg.workers <= 1:
        return cfg.server_cmd
    if not cfg.db.startswith(("postgresql://", "postgres://", "postgresql+")):
        raise ValueError(f"workers={cfg.workers}: several workers share one PostgreSQL "
                         "database; give --db postgresql://…")
    return [sys.executable, "-m", "stammtisch.cli.main", "serve", "--port", "{port}",
            "--db", "{db}", "--bot-delay", "0", "--workers", str(cfg.workers),
            "--redis", cfg.redis]


def verify_stored(db_url: str, acked: list[list[Any]]) -> tuple[int, int]:
    """``(checked, lost)``: each acknowledged action ``[table id, game number, text]``
    must be in the stored record of that game, in order (the ``log`` also holds chance
    and bot actions, so the acknowledged ones are checked as a subsequence)."""
    from stammtisch.persistence.db import Database
    from stammtisch.persistence.store import Store

    by_game: dict[tuple[str, int], list[str]] = {}
    for table_id, number, text in acked:
        by_game.setdefault((str(table_id), int(number)), []).append(str(text).strip().lower())
    db = Database(db_url)
    try:
        store = Store(db)
        logs: dict[tuple[str, int], list[str]] = {}
        for table_id in {t for t, _ in by_game}:
            for row in store.games_of_table(table_id):
                logs[(table_id, row.number)] = [str(a).lower()
                                                for a in (row.record or {}).get("log", [])]
    finally:
        db.dispose()
    lost = 0
    for key, actions in by_game.items():
        it = iter(logs.get(key, []))
        for a in actions:
            if not any(x == a for x in it):
                lost += 1
                it = iter(())  # the rest of this game is not in order either
    return len(acked), lost


def _lat(values: list[float]) -> dict[str, Any]:
    return {"actions": len(values), "p50_ms": round(percentile(values, 50), 2),
            "p95_ms": round(percentile(values, 95), 2),
            "p99_ms": round(percentile(values, 99), 2),
            "max_ms": round(max(values), 2) if values else 0.0}


def run_loadtest(cfg: LoadConfig) -> dict[str, Any]:
    """Start a server, drive ``cfg.tables`` tables of clients, return the figures."""
    if cfg.tables < 1:
        raise ValueError("tables must be at least 1")
    unknown = [g for g in cfg.games if g not in GAME_BODY]
    if unknown or not cfg.games:
        raise ValueError(f"games: {unknown or cfg.games!r}; choose from "
                         f"{', '.join(GAME_BODY)}")
    if any(not 3 <= n <= 6 for n in cfg.mulatschak_seats):
        raise ValueError(f"mulatschak seats {cfg.mulatschak_seats!r}: each 3..6")
    cmd = server_command(cfg)
    with tempfile.TemporaryDirectory(prefix="stammtisch-bench-") as tmp:
        db_url = cfg.db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        env = {**AUTH_STORM_ENV, **cfg.server_env} if cfg.auth_storm else cfg.server_env
        server = ServerProcess(db_url, Path(tmp) / "server.log", env, cmd)
        try:
            server.wait_ready()
            sampler = _Sampler(server, cfg)
            setup0 = time.monotonic()
            try:
                if cfg.client_procs <= 1:
                    stats = run_sync(_run_in_process(server, cfg, sampler))
                else:
                    stats = _run_processes(server, cfg, sampler)
            except Exception as e:  # say what the server said about it
                server.stop()
                tail = server.log_path.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"{e}\n--- the server's log (its end) ---\n{tail}") from e
            elapsed = time.monotonic() - setup0
            sampler.tick()
            server_alive = server.proc.poll() is None
        finally:
            server.stop()
            log_tail = server.log_path.read_text(errors="replace")[-4000:]
        checked = lost_stored = -1
        if cfg.verify and server_alive:
            checked, lost_stored = verify_stored(db_url, stats.acked)
    every = [x for values in stats.every.values() for x in values]
    lat = stats.latencies
    cpu = sampler.cpu_end - sampler.cpu_start
    games = cfg.games
    result: dict[str, Any] = {
        "tables": cfg.tables,
        "clients": _client_count(cfg),
        "games": list(games),
        "workers": cfg.workers,
        "seconds": cfg.seconds,
        "warmup_s": cfg.warmup,
        "think_ms": cfg.think_ms,
        "actions": len(lat),
        "actions_per_s": round(len(lat) / cfg.seconds, 1) if cfg.seconds > 0 else 0.0,
        # action -> every client of the table has the new version
        "p50_ms": round(percentile(every, 50), 2),
        "p95_ms": round(percentile(every, 95), 2),
        "p99_ms": round(percentile(every, 99), 2),
        "max_ms": round(max(every), 2) if every else 0.0,
        "mean_ms": round(sum(every) / len(every), 2) if every else 0.0,
        # action -> the acting client's own update
        "own_p50_ms": round(percentile(lat, 50), 2),
        "own_p95_ms": round(percentile(lat, 95), 2),
        "own_p99_ms": round(percentile(lat, 99), 2),
        "own_max_ms": round(max(lat), 2) if lat else 0.0,
        "per_game": {g: {**_lat(stats.every.get(g, [])),
                         "own_p99_ms": round(percentile(stats.own.get(g, []), 99), 2)}
                     for g in games},
        "errors": stats.errors,
        "error_codes": dict(stats.error_codes),
        "views_missing": stats.views_missing,
        "reconnects": stats.reconnects,
        "setup_retries": stats.setup_retries,
        "setup_retry_codes": dict(stats.retry_codes),
        "unanswered_at_move": stats.unanswered_at_move,
        "acked_actions": checked,
        "lost_actions": lost_stored,
        "server_peak_rss_mb": round(server.peak_rss_kb / 1024, 1),
        "server_rss_end_mb": round(sampler.rss_end_kb / 1024, 1),
        "server_cpu_s": round(cpu, 2),
        "server_cpu_pct": round(100 * cpu / cfg.seconds, 1) if cfg.seconds > 0 else 0.0,
        "client_procs": max(1, min(cfg.client_procs, cfg.tables)),
        "bench_cpu_s": round(stats.cpu_s, 2),
        # the client processes' CPU: of one core, and of the whole machine
        "client_cpu_pct": round(100 * stats.cpu_s / cfg.seconds, 1) if cfg.seconds > 0
        else 0.0,
        "client_machine_share_pct": round(
            100 * stats.cpu_s / (cfg.seconds * (os.cpu_count() or 1)), 1)
        if cfg.seconds > 0 else 0.0,
        "server_machine_share_pct": round(100 * cpu / (cfg.seconds * (os.cpu_count() or 1)),
                                          1) if cfg.seconds > 0 else 0.0,
        "client_lag_p99_ms": round(percentile(stats.loop_lag, 99), 1),
        "client_lag_max_ms": round(max(stats.loop_lag, default=0.0), 1),
        # everything else the machine ran in the window (other users' jobs skew the figures)
        "other_cpu_s": round(max(0.0, sampler.busy_end - sampler.busy_start - cpu
                                 - stats.cpu_s), 2),
        "cpus": os.cpu_count(),
        "loadavg_1m": sampler.load_end,
        "compression": cfg.compression,
        "tables_opened": stats.tables_opened,
        "games_started": stats.games_started,
        "run_s": round(elapsed, 1),
        "window_monotonic": [round(sampler.window[0], 2), round(sampler.window[1], 2)],
    }
    if cfg.auth_storm:
        result["auth_storm"] = _storm_summary(sampler)
    if not server_alive:
        result["errors"] += 1
        result["error_codes"]["server_died"] = 1
    if lost_stored > 0:
        result["errors"] += lost_stored
        result["error_codes"]["lost_action"] = lost_stored
    if not server_alive or cfg.server_cmd is not None or cfg.workers > 1:
        result["server_log"] = log_tail  # (several workers: their warnings, e.g. moves)
    return result


# -- the auth storm ----------------------------------------------------------------------------
#: the server settings an auth storm needs (registrations and logins are rate limited)
AUTH_STORM_ENV = {"STAMMTISCH_REGISTER_RATE_PER_MINUTE": "100000",
                  "STAMMTISCH_REGISTER_RATE_GLOBAL_PER_MINUTE": "100000",
                  "STAMMTISCH_LOGIN_RATE_PER_MINUTE": "100000"}
STORM_PASSWORD = "Hopfen, Malz und Zwetschgen 7"


async def auth_storm(base_url: str, registrations: int = 30, logins: int = 30,
                     ping_every: float = 0.02, act_every: float = 0.15, warmup: float = 0.5,
                     tail: float = 0.2, tag: str = "",
                     samples: dict[str, list[float]] | None = None) -> dict[str, Any]:
    """Fire ``registrations`` registrations and ``logins`` wrong logins (against an account
    that exists, so each one verifies an argon2 hash) at once, while a probe player at a
    table with three bots sends a ``ping`` every ``ping_every`` seconds and plays its
    turns (at most one action per ``act_every`` seconds, within the table's rate limit).
    Measured during the storm: the ping → ``pong`` round trips and, for each of the
    probe's actions, the time to the next ``state``; and how the storm's requests ended.

    The server needs its registration and login limits raised (:data:`AUTH_STORM_ENV`).
    ``samples`` (``{"ping": [...], "action": [...]}``) collects the raw figures (ms)."""
    import httpx
    from websockets.asyncio.client import connect

    tag = tag or f"{os.getpid() % 10000}{random.randrange(1000)}"
    victim = f"Opfer {tag}"
    async with httpx.AsyncClient(base_url=base_url, trust_env=False, timeout=60) as http:
        r = await http.post("/api/register", json={"name": victim, "password": STORM_PASSWORD})
        r.raise_for_status()
        http.cookies.clear()
        r = await http.post("/api/guest", json={"name": f"Sonde {tag}"})
        r.raise_for_status()
        token = r.cookies.get(SESSION_COOKIE) or ""
        csrf = r.json()["csrf"]
        http.cookies.clear()
        r = await http.post("/api/tables", headers={"Cookie": f"{SESSION_COOKIE}={token}",
                                                    CSRF_HEADER: csrf},
                            json={"name": "Sonde", "bots": "fill", "seat": 0,
                                  "turn_timer": 0, "bobbl_limit": 50})
        r.raise_for_status()
        table_id = r.json()["id"]

    ws_url = "ws" + base_url.removeprefix("http") + f"/ws/tables/{table_id}"
    pings: list[tuple[float, float]] = []  # (sent, round trip)
    actions: list[tuple[float, float]] = []
    ping_sent: list[float] = []
    pending: list[tuple[int, float]] = []  # the action in flight: (version, sent)
    storm_window = [math.inf, math.inf]
    turn: list[tuple[int, str]] = []  # the probe's turn: (version, action)
    rng = random.Random(7)
    stop = asyncio.Event()

    async with connect(ws_url, additional_headers={"Cookie": f"{SESSION_COOKIE}={token}"},
                       proxy=None, max_size=None, ping_interval=None) as ws:

        async def read() -> None:
            async for raw in ws:
                now = time.monotonic()
                msg = json.loads(raw)
                if msg.get("type") == "pong" and ping_sent:
                    sent = ping_sent.pop(0)
                    pings.append((sent, now - sent))
                elif msg.get("type") == "state":
                    v = msg["version"]
                    if pending and v > pending[0][0]:
                        actions.append((pending[0][1], now - pending[0][1]))
                        pending.clear()
                    view = msg.get("view")
                    turn.clear()
                    if msg["table"].get("between_games"):
                        turn.append((v, "next"))
                    elif view and view.get("to_act") == 0 and view.get("legal"):
                        turn.append((v, rng.choice(view["legal"])))
                elif msg.get("type") == "error" and pending:
                    pending.clear()
                    await ws.send('{"type":"sync"}')

        async def act() -> None:
            # at most one action per ``act_every`` (the table's action rate limit)
            while not stop.is_set():
                await asyncio.sleep(act_every)
                if turn and not pending:
                    v, action = turn.pop()
                    pending.append((v, time.monotonic()))
                    await ws.send(json.dumps({"type": "action", "action": action,
                                              "version": v}))

        async def ping() -> None:
            while not stop.is_set():
                if not ping_sent:
                    ping_sent.append(time.monotonic())
                    await ws.send('{"type":"ping"}')
                await asyncio.sleep(ping_every)

        async def storm() -> dict[str, Any]:
            await asyncio.sleep(warmup)
            limits = httpx.Limits(max_connections=registrations + logins + 1)
            async with httpx.AsyncClient(base_url=base_url, trust_env=False, timeout=120,
                                         limits=limits) as http:

                async def one(path: str, body: dict[str, Any]) -> tuple[int, float]:
                    t0 = time.monotonic()
                    r = await http.post(path, json=body)
                    return r.status_code, time.monotonic() - t0

                storm_window[0] = time.monotonic()
                done = await asyncio.gather(
                    *(one("/api/register", {"name": f"Sturm {tag}-{i}",
                                            "password": f"{STORM_PASSWORD} {i}"})
                      for i in range(registrations)),
                    *(one("/api/login", {"name": victim, "password": f"falsch {i} {tag}"})
                      for i in range(logins)))
                storm_window[1] = time.monotonic()
            await asyncio.sleep(tail)
            stop.set()
            return {"register": Counter(str(s) for s, _ in done[:registrations]),
                    "login": Counter(str(s) for s, _ in done[registrations:]),
                    "request_max_s": round(max((d for _, d in done), default=0.0), 3)}

        tasks = [asyncio.create_task(read()), asyncio.create_task(ping()),
                 asyncio.create_task(act())]
        try:
            outcome = await storm()
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(BaseException):
                    await t

    start, end = storm_window
    end += tail
    ping_ms = [rt * 1000.0 for sent, rt in pings if start <= sent < end]
    action_ms = [rt * 1000.0 for sent, rt in actions if start <= sent < end]

    if samples is not None:
        samples.setdefault("ping", []).extend(ping_ms)
        samples.setdefault("action", []).extend(action_ms)
    return {"registrations": registrations, "logins": logins,
            "storm_s": round(storm_window[1] - storm_window[0], 2),
            "register_status": dict(outcome["register"]),
            "login_status": dict(outcome["login"]),
            "request_max_s": outcome["request_max_s"],
            "ping": _stats(ping_ms), "action": _stats(action_ms),
            "probe_p99_ms": round(percentile(ping_ms + action_ms, 99), 1)}


__all__ = ["AUTH_STORM_ENV", "LoadConfig", "auth_storm", "run_loadtest"]

if __name__ == "__main__":
    _worker_main(sys.argv)
