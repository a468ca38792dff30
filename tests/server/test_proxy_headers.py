"""Issue 8.6: a forged ``X-Forwarded-For`` does not move the client's address.

``stammtisch serve`` builds its uvicorn config with :func:`uvicorn_config`; proxy headers
count only from the addresses of ``--forwarded-allow-ips``.  The real server (uvicorn in a
thread, real HTTP) shows it: from loopback, a forged header neither changes
``request.client.host`` nor gets round the login limit; with the option, it does both.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import Request
from typer.testing import CliRunner

from stammtisch.cli.main import app as cli
from stammtisch.server import Settings, create_app
from stammtisch.server.runner import uvicorn_config

STRONG = "Hopfen und Malz 1516"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def real_server(tmp_path: Path, **settings: Any) -> Iterator[str]:
    """The app under uvicorn, configured exactly as ``serve`` does, in a thread."""
    s = Settings(database_url=f"sqlite:///{tmp_path / 'proxy.sqlite3'}", port=_free_port(),
                 bot_delay=0, **settings)
    app = create_app(s)

    @app.get("/test/whoami")
    async def whoami(request: Request) -> dict[str, Any]:
        return {"host": request.client.host if request.client else None,
                "scheme": request.url.scheme}

    server = uvicorn.Server(uvicorn_config(app, s))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{s.port}"
    finally:
        server.should_exit = True
        thread.join(10)


def _logins(url: str, forged: list[str]) -> list[int]:
    with httpx.Client(base_url=url, trust_env=False) as http:
        r = http.post("/api/register", json={"name": "Anna", "password": STRONG})
        assert r.status_code == 200, r.text
        http.cookies.clear()
        return [http.post("/api/login", json={"name": "Anna", "password": "falsch falsch"},
                          headers={"X-Forwarded-For": ip}).status_code for ip in forged]


FORGED = ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"]


def test_forged_forwarded_for_from_loopback_is_ignored(tmp_path: Path) -> None:
    with real_server(tmp_path, login_rate_per_minute=2) as url:
        r = httpx.get(f"{url}/test/whoami", trust_env=False,
                      headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"})
        assert r.json() == {"host": "127.0.0.1", "scheme": "http"}
        # four attempts from "four addresses" are four attempts from one: the limit holds
        assert _logins(url, FORGED) == [401, 401, 429, 429]


def test_forwarded_for_is_believed_from_a_configured_proxy(tmp_path: Path) -> None:
    with real_server(tmp_path, login_rate_per_minute=2,
                     forwarded_allow_ips="127.0.0.1") as url:
        r = httpx.get(f"{url}/test/whoami", trust_env=False,
                      headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"})
        assert r.json() == {"host": "203.0.113.9", "scheme": "https"}
        assert _logins(url, FORGED) == [401, 401, 401, 401]  # four clients behind the proxy


@pytest.mark.parametrize(("argv", "proxy", "trusted"), [
    ([], False, None),
    (["--forwarded-allow-ips", "10.0.0.5, 10.0.0.6"], True, "10.0.0.5,10.0.0.6"),
])
def test_serve_builds_its_config_with_the_proxy_setting(tmp_path, monkeypatch, argv, proxy,
                                                        trusted) -> None:
    seen: dict[str, Any] = {}

    def fake_run(self: uvicorn.Server, sockets: Any = None) -> None:
        seen["config"] = self.config

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    monkeypatch.delenv("STAMMTISCH_FORWARDED_ALLOW_IPS", raising=False)
    result = CliRunner().invoke(cli, ["serve", "--port", str(_free_port()), "--db",
                                      f"sqlite:///{tmp_path / 'serve.sqlite3'}", *argv])
    assert result.exit_code == 0, result.output
    config = seen["config"]
    assert config.proxy_headers is proxy
    if trusted is not None:
        assert config.forwarded_allow_ips == trusted
    assert config.ws_max_size == Settings().ws_max_size
