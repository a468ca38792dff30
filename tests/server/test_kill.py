"""The real server, killed with SIGKILL in the middle of a game and started again on
the same database: the same game continues where it stood and can be played to its end."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from stammtisch.server.auth import SESSION_COOKIE


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Served:
    """A real ``stammtisch serve`` process on a port of its own (``extra``: more options),
    up once ``/healthz`` answers."""

    def __init__(self, db_url: str, log: Path, extra: list[str] | None = None,
                 ready_s: float = 30.0, stop_s: float = 10.0) -> None:
        self.port = _free_port()
        self.log = log
        self.stop_s = stop_s
        env = {k: v for k, v in os.environ.items() if not k.startswith("STAMMTISCH_")}
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "stammtisch.cli.main", "serve", "--port", str(self.port),
                 "--db", db_url, *(extra or []), "--bot-delay", "0", "--seed", "3"],
                stdout=out, stderr=subprocess.STDOUT, env=env)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + ready_s
        while True:
            assert self.proc.poll() is None, f"the server exited: {log.read_text()}"
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).json() == {"status": "ok"}:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, \
                f"no /healthz after {ready_s:g} s: {log.read_text()}"
            time.sleep(0.1)

    def socket(self, path: str, token: str) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}{path}", open_timeout=10,
                       additional_headers={"Cookie": f"{SESSION_COOKIE}={token}"})

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(self.stop_s)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def _state(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        assert m["type"] != "error", m
        if m["type"] == "state":
            return m


def _mine(m: dict[str, Any]) -> bool:
    v = m["view"]
    return bool(v and v["to_act"] == 0 and v["legal"] and not m["table"]["between_games"])


def _played_by(view: dict[str, Any], seat: int) -> list[str]:
    cards = [c for t in view["tricks_played"] for c in t["cards"]] + view["trick"]
    return [c["card"] for c in cards if c["seat"] == seat]


def test_sigkill_mid_game_and_restart(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'killed.sqlite3'}"
    log = tmp_path / "server.log"
    first = Served(db_url, log)
    servers = [first]
    rng = random.Random(8)
    try:
        with httpx.Client(base_url=first.base, timeout=10) as http:
            r = http.post("/api/guest", json={"name": "Kim"})
            assert r.status_code == 200, r.text
            token, csrf = r.cookies[SESSION_COOKIE], r.json()["csrf"]
            r = http.post("/api/tables", json={"bots": "fill", "turn_timer": 0},
                          headers={"x-csrf-token": csrf})
            assert r.status_code == 200, r.text
            tid = r.json()["id"]

        with first.socket(f"/ws/tables/{tid}", token) as ws:
            dealt: list[str] = []
            last = -1
            while True:
                m = _state(ws)
                v = m["view"]
                if v and len(v["hand"]) == 6 and not dealt:
                    dealt = list(v["hand"])
                if not _mine(m) or m["version"] <= last:
                    continue
                if v["phase"] == "play" and len(_played_by(v, 0)) >= 2:
                    break  # mid-game, my turn: the table stands still, all of it saved
                last = m["version"]
                ws.send(json.dumps({"type": "action", "action": rng.choice(v["legal"]),
                                    "version": m["version"]}))
            before = m
            os.kill(first.proc.pid, signal.SIGKILL)
            assert first.proc.wait(10) == -signal.SIGKILL

        second = Served(db_url, log)
        servers.append(second)
        with second.socket(f"/ws/tables/{tid}", token) as ws:
            m = _state(ws)
            v, old = m["view"], before["view"]
            assert m["table"]["game_number"] == before["table"]["game_number"] == 1
            assert v["hand"] == old["hand"]
            assert sorted(v["hand"] + _played_by(v, 0)) == sorted(dealt)
            for key in ("phase", "to_act", "trick", "tricks_played", "calls", "contract",
                        "declarer", "doublings", "hand_sizes", "dealer", "legal"):
                assert v[key] == old[key], key
            assert m["table"]["sheet"] == before["table"]["sheet"]
            # play on to the end
            last = -1
            while not (m["table"]["between_games"] and m["view"]["result"]):
                v = m["view"]
                if _mine(m) and m["version"] > last:
                    last = m["version"]
                    ws.send(json.dumps({"type": "action", "action": rng.choice(v["legal"]),
                                        "version": m["version"]}))
                m = _state(ws)
            result = m["view"]["result"]
            assert sorted(m["view"]["dealt"][0]) == sorted(dealt)

        with httpx.Client(base_url=second.base, timeout=10,
                          cookies={SESSION_COOKIE: token}) as http:
            (game,) = http.get("/api/me/games").json()["games"]
            assert game["number"] == 1 and game["result"] == result
            record = http.get(f"/api/games/{game['id']}/record").json()
            assert record["hands"][0] == m["view"]["dealt"][0]
    finally:
        for s in servers:
            s.stop()
