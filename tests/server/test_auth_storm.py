"""Issue 8.1: password hashing runs off the event loop; registration is rate limited.

The storm test runs the real server (``stammtisch serve`` as a subprocess, real
websockets): 30 registrations and 30 wrong logins at once must not stall a table —
its pings and actions are answered while the storm lasts (p99 well below the seconds an
on-loop hash costs; the 100 ms target is measured by ``bench server --auth-storm``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from stammtisch.server.auth import RateLimiter
from stammtisch.server.loadtest import AUTH_STORM_ENV, ServerProcess, auth_storm, run_sync

STRONG = "Hopfen und Malz 1516"


def test_a_table_keeps_answering_during_an_auth_storm(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'storm.sqlite3'}", tmp_path / "server.log",
                           env=AUTH_STORM_ENV)
    try:
        server.wait_ready()
        result = run_sync(auth_storm(server.base_url, registrations=30, logins=30))
    finally:
        server.stop()
    print(result)
    assert result["register_status"] == {"200": 30}, result
    assert result["login_status"] == {"401": 30}, result
    assert result["ping"]["n"] >= 10 and result["action"]["n"] >= 3, result
    # Not blocked: with the hashing on the event loop a storm held pings and actions for
    # seconds (ping p99 4.9-11.5 s). The 100 ms target itself is a speed figure, measured by
    # `stammtisch bench server --auth-storm` (docs/server.md, Hardening); on this shared
    # 2-core machine single actions of the probe reach 100-130 ms now and then (the
    # scheduler shares the cores with two argon2 threads), so the test allows 400 ms.
    assert result["ping"]["p99_ms"] < 400, result
    assert result["action"]["p99_ms"] < 400, result


def test_registration_is_rate_limited_per_address_and_globally(sqlite_url, start_server):
    server = start_server(sqlite_url, register_rate_per_minute=2,
                          register_rate_global_per_minute=3)

    def register(client: TestClient, name: str) -> Any:
        r = client.post("/api/register", json={"name": name, "password": STRONG})
        client.cookies.clear()
        return r

    for i in range(2):
        assert register(server.client, f"Anna {i}").status_code == 200
    r = register(server.client, "Anna 2")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
    assert int(r.headers["retry-after"]) >= 1
    # another address has its own allowance, but the global cap (3 a minute) holds for all
    other = TestClient(server.app, client=("10.0.0.2", 50000))
    assert register(other, "Bert 0").status_code == 200
    r = register(other, "Bert 1")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text


def test_the_rate_limiter_forgets_idle_keys() -> None:
    now = [0.0]
    limiter = RateLimiter(2, 60.0, clock=lambda: now[0])
    for i in range(1000):
        assert limiter.hit(f"10.0.{i // 256}.{i % 256}|name{i}")
    assert len(limiter.events) == 1000
    now[0] = 61.0
    assert limiter.hit("fresh")
    assert len(limiter.events) == 1  # every key idle for a whole window is gone
    assert limiter.hit("fresh") and not limiter.hit("fresh")
