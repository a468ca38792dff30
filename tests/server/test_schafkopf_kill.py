"""A Schafkopf table survives ``kill -9``: the real server is killed in the middle of the
second hand and started again on the same database (SQLite and PostgreSQL); the hand goes on
where it stood, with the same hand, calls, Stoß words, called ace and Abrechnung, and is
played to its end."""

from __future__ import annotations

import json
import os
import random
import signal

import httpx

from stammtisch.server.auth import SESSION_COOKIE

from .test_kill import Served, _mine, _played_by, _state


def _act(ws, m, rng):
    ws.send(json.dumps({"type": "action", "action": rng.choice(m["view"]["legal"]),
                        "version": m["version"]}))


def test_sigkill_mid_schafkopf_hand_and_restart(db_url, tmp_path):
    log = tmp_path / "server.log"
    first = Served(db_url, log)
    servers = [first]
    rng = random.Random(4)
    try:
        with httpx.Client(base_url=first.base, timeout=10) as http:
            r = http.post("/api/guest", json={"name": "Vroni"})
            assert r.status_code == 200, r.text
            token, csrf = r.cookies[SESSION_COOKIE], r.json()["csrf"]
            r = http.post("/api/tables", json={"game": "schafkopf", "bots": "fill",
                                               "bot": "random", "turn_timer": 0,
                                               "options": {"legen": True}},
                          headers={"x-csrf-token": csrf})
            assert r.status_code == 200, r.text
            tid = r.json()["id"]

        with first.socket(f"/ws/tables/{tid}", token) as ws:
            last = -1
            while True:
                m = _state(ws)
                v = m["view"]
                tbl = m["table"]
                if tbl["between_games"] and v and v["result"] and m["version"] > last:
                    last = m["version"]
                    ws.send(json.dumps({"type": "action", "action": "next",
                                        "version": m["version"]}))
                    continue
                if not _mine(m) or m["version"] <= last:
                    continue
                if (tbl["game_number"] >= 2 and v["phase"] == "play"
                        and len(_played_by(v, 0)) >= 2):
                    break  # mid-hand, my turn: all of it saved
                last = m["version"]
                _act(ws, m, rng)
            before = m
            assert len(before["table"]["sheet"]["hands"]) >= 1
            os.kill(first.proc.pid, signal.SIGKILL)
            assert first.proc.wait(10) == -signal.SIGKILL

        second = Served(db_url, log)
        servers.append(second)
        with second.socket(f"/ws/tables/{tid}", token) as ws:
            m = _state(ws)
            v, old = m["view"], before["view"]
            assert m["table"]["game"] == "schafkopf"
            assert m["table"]["game_number"] == before["table"]["game_number"]
            for key in ("hand", "phase", "to_act", "trick", "tricks_played", "bids", "lege",
                        "stoss", "contract", "declarer", "called", "partner", "hand_sizes",
                        "dealer", "legal", "multiplier"):
                assert v[key] == old[key], key
            assert m["table"]["sheet"] == before["table"]["sheet"]
            last = -1
            while not (m["table"]["between_games"] and m["view"]["result"]):
                if _mine(m) and m["version"] > last:
                    last = m["version"]
                    _act(ws, m, rng)
                m = _state(ws)
            result = m["view"]["result"]
            sheet = m["table"]["sheet"]
            assert sheet["hands"][-1]["payments"] == result["payments"]
            assert sum(sheet["totals"]) == 0

        with httpx.Client(base_url=second.base, timeout=10,
                          cookies={SESSION_COOKIE: token}) as http:
            games = http.get("/api/me/games").json()["games"]
            assert {g["number"] for g in games} >= {1, before["table"]["game_number"]}
    finally:
        for s in servers:
            s.stop()
