"""``stammtisch serve``: bad settings end in one line (exit 2) before any banner;
the banner comes once the server listens."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

BANNER = "stammtisch: http://"


def serve(tmp_path: Path, *args: str, env: dict[str, str] | None = None,
          timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stammtisch.cli.main", "serve", *args],
        capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), **(env or {})})


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert BANNER not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("stammtisch serve: ")
    return lines[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postgres_reachable() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1).close()
        return True
    except OSError:
        return False


@pytest.mark.parametrize("port,says", [("-1", "port -1: must be 1..65535"),
                                       ("65536", "port 65536: must be 1..65535"),
                                       ("0", "port 0 (any free port) is not accepted")])
def test_bad_port(tmp_path: Path, port: str, says: str) -> None:
    assert says in one_line(serve(tmp_path, "--port", port))


def test_bad_port_from_the_environment(tmp_path: Path) -> None:
    line = one_line(serve(tmp_path, env={"STAMMTISCH_PORT": "acht"}))
    assert "STAMMTISCH_" in line


def test_unknown_host(tmp_path: Path) -> None:
    line = one_line(serve(tmp_path, "--host", "no-such-host.invalid", "--port", "8123"))
    assert "host 'no-such-host.invalid': not a known address" in line


def test_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        line = one_line(serve(tmp_path, "--port", str(port)))
    assert f"port {port} on 127.0.0.1 is already in use" in line


@pytest.mark.parametrize("url,says", [
    ("nonsense://foo", "unknown database kind 'nonsense'"),
    ("not a url", "is not a database URL"),
    ("mysql://user@localhost/db", "its driver is not installed"),
])
def test_bad_database_url(tmp_path: Path, url: str, says: str) -> None:
    assert says in one_line(serve(tmp_path, "--port", str(free_port()), "--db", url))


@pytest.mark.skipif(not postgres_reachable(), reason="PostgreSQL not reachable at 127.0.0.1:5432")
def test_postgres_database_that_does_not_exist(tmp_path: Path) -> None:
    line = one_line(serve(tmp_path, "--port", str(free_port()),
                          "--db", "postgresql://127.0.0.1:5432/does_not_exist"))
    assert "cannot connect to the database" in line and "does_not_exist" in line


def test_banner_only_once_listening(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "stammtisch.cli.main", "serve", "--port", str(port),
         "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")})
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 60
        line = proc.stderr.readline()
        assert time.monotonic() < deadline
        assert line.startswith(f"{BANNER}127.0.0.1:{port}/"), line
        # the banner says the server listens: it answers at once
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
            assert r.read() == b'{"status":"ok"}'
    finally:
        proc.terminate()
        proc.wait(timeout=30)
