"""Real-browser tests of the web UI: the real server as a subprocess, Debian's Chromium
driven by Playwright.  Without /usr/bin/chromium every browser test is *skipped* with
the reason shown (never a silent pass).

Fixtures: ``server`` (base URL of a fresh server with its own SQLite file, seeded
shuffle, fast bots), ``browser``, ``new_page`` (a page in a fresh browser context, so
two calls are two different people), and ``ui`` (small helpers that click like a
person and read what the page received over its websocket).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``stammtisch serve`` on a free port; yield its URL; stop it afterwards."""
    tmp = tmp_path_factory.mktemp("server")
    port = _free_port()
    cmd = [sys.executable, "-m", "stammtisch.cli.main", "serve", "--port", str(port),
           "--db", f"sqlite:///{tmp}/db.sqlite3", "--bot-delay", "0.05", "--seed", "1"]
    log_path = tmp / "server.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1",
                                     # every page registers from 127.0.0.1: the limits
                                     # have tests of their own (tests/server)
                                     "STAMMTISCH_REGISTER_RATE_PER_MINUTE": "100000",
                                     "STAMMTISCH_REGISTER_RATE_GLOBAL_PER_MINUTE": "100000",
                                     "STAMMTISCH_LOGIN_RATE_PER_MINUTE": "100000"})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not answer /healthz:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the venv has it
        pytest.skip("browser tests need the playwright package")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """``new_page(viewport=..., locale=...)``: a page in its own context (own cookies)."""
    contexts: list[Any] = []

    def make(**kwargs: Any) -> Any:
        kwargs.setdefault("viewport", {"width": 1280, "height": 900})
        ctx = browser.new_context(**kwargs)
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    yield make
    for ctx in contexts:
        with contextlib.suppress(Exception):
            ctx.close()


class Wire:
    """Every state message a page received on its table websocket."""

    def __init__(self, page: Any) -> None:
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        if "/ws/tables/" in ws.url:
            ws.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        try:
            msg = json.loads(payload)
        except (TypeError, ValueError):
            return
        if msg.get("type") == "state":
            self.states.append(msg)
        elif msg.get("type") == "error":
            self.errors.append(msg)

    @property
    def last(self) -> dict[str, Any]:
        assert self.states, "no state message received yet"
        return self.states[-1]


class UI:
    """Helpers that act through the page like a person would."""

    SUITS: ClassVar[dict[str, str]] = {"E": "Eichel", "G": "Gras", "H": "Herz", "S": "Schellen"}
    RANKS: ClassVar[dict[str, str]] = {
        "A": "Ass", "10": "Zehn", "K": "König", "O": "Ober", "U": "Unter", "9": "Neun",
        "8": "Acht", "7": "Sieben"}

    def __init__(self, base: str) -> None:
        self.base = base

    def card_name(self, code: str) -> str:
        return f"{self.SUITS[code[0]]} {self.RANKS[code[1:]]}"

    def wire(self, page: Any) -> Wire:
        return Wire(page)

    def guest(self, page: Any, name: str) -> None:
        page.goto(self.base + "/")
        page.fill("#guest-name", name)
        page.locator("form[aria-labelledby=guest-h] button[type=submit]").click()
        page.wait_for_selector(".create-form")

    def create_table(self, page: Any, *, name: str = "Stammtisch", fill: bool = True) -> str:
        page.fill("#c-name", name)
        if not fill:
            page.uncheck("#c-fill")
        page.locator(".create-form button[type=submit]").click()
        page.wait_for_url("**/t/*")
        return str(page.url.rsplit("/t/", 1)[1].split("?")[0])

    def hand(self, page: Any) -> list[str]:
        return list(page.locator(".fan .card").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"))

    def click_legal(self, page: Any) -> bool:
        """Click the first legal card or call, if the page offers one (never "next game":
        the tests decide themselves when a new game starts)."""
        el = page.locator('[data-legal="true"]:not([disabled]):not([data-action="next"])').first
        if not el.count():
            return False
        try:
            el.click(timeout=1500)
        except Exception:  # re-rendered under the pointer: the caller tries again
            return False
        return True

    def play_until(self, pages: list[Any], done: Callable[[], bool],
                   timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < end, "the game did not get there in time"
            acted = False
            for p in pages:
                if done():
                    return
                acted = self.click_legal(p) or acted
            if not acted:
                pages[0].wait_for_timeout(40)


@pytest.fixture
def ui(server: str) -> UI:
    return UI(server)
