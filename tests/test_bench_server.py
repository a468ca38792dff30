"""``stammtisch bench server``: a short load test against a real server subprocess."""

from __future__ import annotations

import json
from typing import Any

import typer
from typer.testing import CliRunner

from stammtisch.cli.bench_server import server_command
from stammtisch.server.loadtest import LoadConfig, percentile, run_loadtest, run_sync

KEYS = {"tables", "clients", "actions_per_s", "p50_ms", "p95_ms", "p99_ms", "errors",
        "server_peak_rss_mb", "seconds"}


def test_percentile_is_nearest_rank() -> None:
    assert percentile([], 99) == 0.0
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile(values, 100) == 100.0
    assert percentile([7.0], 1) == 7.0


def test_two_tables_play_over_websockets() -> None:
    result = run_loadtest(LoadConfig(tables=2, seconds=3.0, think_ms=50.0, warmup=0.5,
                                     seed=1))
    assert result.keys() >= KEYS
    assert result["tables"] == 2
    assert result["clients"] == 8
    assert result["seconds"] == 3.0
    assert result["errors"] == 0, result["error_codes"]
    assert result["actions"] > 0
    assert result["actions_per_s"] > 0
    assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert 10 < result["server_peak_rss_mb"] < 1000
    assert result["server_cpu_s"] > 0
    json.dumps(result)  # the --json output


def test_command_needs_tables() -> None:
    app = typer.Typer()
    app.command()(server_command)
    out = CliRunner().invoke(app, [])
    assert out.exit_code != 0
    assert "--tables" in out.output


def test_broadcast_text_equals_message_for() -> None:
    """The server's fast broadcast (shared table info serialised once) sends every
    socket exactly ``json.dumps(message_for(conn))``: players, the creator, a second
    socket of the same player, spectators with and without a login."""
    import random
    from types import SimpleNamespace

    from stammtisch.engine.core import CHANCE
    from stammtisch.games.mucken.rules import MuckenRules
    from stammtisch.server.settings import Settings
    from stammtisch.server.tables import Connection, TableManager, TableRuntime

    row = SimpleNamespace(
        id="t1", name="Stammtisch <Ü>", public=True, invite_code="inv", creator_id=1,
        rules=MuckenRules.preset("seefest").to_json(),
        settings={"turn_timer": 60, "bobbl_limit": 50},
        seats=[{"kind": "human", "user_id": i + 1, "name": f"Spieler {i}"} for i in range(4)],
        first_dealer=0, status="playing")
    from stammtisch.persistence.db import Database
    from stammtisch.persistence.store import Store

    manager = TableManager(Store(Database("sqlite:///:memory:")), Settings(seed=1))
    rt = TableRuntime(manager, row)
    rng = random.Random(3)
    sent: dict[int, list[str]] = {}

    async def ignore(msg: dict[str, Any]) -> None:
        pass

    def text_sink(key: int) -> Any:
        async def send_text(text: str) -> None:
            sent.setdefault(key, []).append(text)
        return send_text

    users = [1, 2, 3, 4, 2, None, 99]  # seats 0-3, seat 1 twice, anonymous, logged-in guest
    for key, uid in enumerate(users):
        rt.connections[key] = Connection(send=ignore, user_id=uid, name="x",
                                         send_text=text_sink(key))

    async def check() -> None:
        for _game in range(2):
            state = rt.match.start_game()
            manager.resolve_chance(state)
            rt.game = state
            while not state.is_terminal():
                rt.version += 1
                sent.clear()
                await rt.broadcast()
                for key, conn in rt.connections.items():
                    expected = json.dumps(rt.message_for(conn), ensure_ascii=False,
                                          separators=(",", ":"))
                    assert sent[key] == [expected]
                if state.current_player == CHANCE:
                    state.apply(state.sample_chance(rng))
                else:
                    state.apply(rng.choice(state.legal_actions()))
            rt.match.finish_game()

    run_sync(check())


def test_mixed_games_through_the_cli(tmp_path: Any, monkeypatch: Any) -> None:
    """``--games`` drives tables of all four games (Mulatschak with 3 and 5 seats): every
    game's actions are measured to every client's view, nothing is lost, and the opt-in
    timing hook (``STAMMTISCH_PERF``) writes the window's figures."""
    perf_file = tmp_path / "perf.json"
    monkeypatch.setenv("STAMMTISCH_PERF", str(perf_file))
    app = typer.Typer()
    app.command()(server_command)
    out = CliRunner().invoke(app, ["--tables", "8", "--seconds", "3", "--warmup", "1",
                                   "--think", "100", "--seed", "2", "--json",
                                   "--games", "mucken,schafkopf,mulatschak,mus",
                                   "--mulatschak-seats", "3,5"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output.strip().splitlines()[-1])
    assert result.keys() >= KEYS | {"own_p99_ms", "per_game", "lost_actions", "acked_actions",
                                    "client_cpu_pct", "games", "workers"}
    assert result["errors"] == 0, result["error_codes"]
    assert result["clients"] == 6 * 4 + 3 + 5
    assert result["games"] == ["mucken", "schafkopf", "mulatschak", "mus"]
    for game in result["games"]:
        figures = result["per_game"][game]
        assert figures["actions"] > 0, game
        assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    # every view is at least as late as the acting client's own update
    assert result["p99_ms"] >= result["own_p50_ms"] > 0
    assert result["acked_actions"] > result["actions"] > 0
    assert result["lost_actions"] == 0
    perf = json.loads(perf_file.read_text())
    for section in ("action", "engine", "db", "broadcast", "view", "json"):
        assert perf[section]["n"] > 0, section
    assert perf["action"]["per_action_us"] >= perf["db"]["per_action_us"] > 0


def test_verify_stored_counts_what_is_missing(tmp_path: Any) -> None:
    """The lost-action check: acknowledged actions must be in the stored game's log in
    order (chance and bot actions may come between)."""
    from stammtisch.persistence.db import Database
    from stammtisch.persistence.store import Store
    from stammtisch.server.loadtest import verify_stored

    url = f"sqlite:///{tmp_path / 'v.sqlite3'}"
    db = Database(url)
    db.migrate()
    store = Store(db)
    store.create_table(id="t1", name="x", creator_id=None, public=True, invite_code="i",
                       rules={}, settings={}, seats=[], first_dealer=0, status="playing")
    store.save_game("t1", 1, {"log": ["deal", "A", "B", "deal", "C"]}, False, None, [])
    db.dispose()
    assert verify_stored(url, [["t1", 1, "A"], ["t1", 1, "C"]]) == (2, 0)
    assert verify_stored(url, [["t1", 1, "C"], ["t1", 1, "A"]]) == (2, 1)
    assert verify_stored(url, [["t1", 1, "A"], ["t1", 2, "B"], ["t1", 1, "X"]]) == (3, 2)


def test_workers_need_postgresql() -> None:
    app = typer.Typer()
    app.command()(server_command)
    out = CliRunner().invoke(app, ["--tables", "1", "--workers", "2"])
    assert out.exit_code == 2
    assert "postgresql" in out.output


def test_group_commit_loses_nothing_acknowledged_on_kill_9(tmp_path: Any) -> None:
    """``STAMMTISCH_GROUP_COMMIT=1`` (server/writer.py): a real ``serve`` killed with
    SIGKILL while 16 clients play keeps every action a client had an answer for, and
    the restarted server comes up on that database."""
    import asyncio
    import os
    import signal
    import time
    from pathlib import Path

    from stammtisch.server.loadtest import ClientRun, ServerProcess, verify_stored

    url = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    env = {"STAMMTISCH_GROUP_COMMIT": "1"}
    cfg = LoadConfig(tables=4, seconds=60.0, think_ms=10.0, warmup=0.0, seed=5,
                     games=["mucken", "schafkopf", "mulatschak", "mus"])
    server = ServerProcess(url, Path(tmp_path) / "s1.log", env)
    acked: list[list[Any]] = []

    async def play_and_kill() -> None:
        run = ClientRun(server.base_url, cfg, 0, cfg.tables, "k")
        await run.setup()
        run.window.set(time.monotonic(), 0.0, 60.0)
        await asyncio.sleep(2.5)
        os.kill(server.pid, signal.SIGKILL)  # mid-play: saves and sends are in flight
        await asyncio.sleep(0.5)
        run.finished = True
        acked.extend(run.stats.acked)
        for t in list(run.background):
            t.cancel()
        await asyncio.gather(*(g.close() for g in run.groups), return_exceptions=True)

    try:
        server.wait_ready()
        run_sync(play_and_kill())
        assert server.proc.wait(10) == -signal.SIGKILL
    finally:
        server.stop()
    assert len(acked) > 50
    assert verify_stored(url, acked) == (len(acked), 0)
    again = ServerProcess(url, Path(tmp_path) / "s2.log", env)
    try:
        again.wait_ready()  # rebuilt every table from the stored records
    finally:
        again.stop()
    assert verify_stored(url, acked) == (len(acked), 0)


def test_gc_freeze_loop_freezes_and_thaws(monkeypatch: Any) -> None:
    """``STAMMTISCH_GC_FREEZE`` (server/gcpolicy.py): the loop freezes the survivors, and
    a thaw collects the cyclic garbage that was frozen; off without the variable."""
    import asyncio
    import gc
    import weakref

    from stammtisch.server import gcpolicy

    monkeypatch.delenv(gcpolicy.ENV, raising=False)
    assert gcpolicy.interval() == 0.0
    monkeypatch.setenv(gcpolicy.ENV, "0.02")
    monkeypatch.setenv(gcpolicy.THAW_ENV, "0.15")
    assert gcpolicy.interval() == 0.02
    assert gcpolicy.thaw_interval(0.02) == 0.15

    class Node:
        pass

    seen: dict[str, Any] = {}

    async def watch() -> None:
        task = gcpolicy.start()
        assert task is not None
        await asyncio.sleep(0.05)
        assert gc.get_freeze_count() > 0  # frozen
        a, b = Node(), Node()
        a.other, b.other = b, a  # type: ignore[attr-defined]  # a cycle
        dead = weakref.ref(a)
        await asyncio.sleep(0.05)  # frozen with the next freeze
        del a, b
        gc.collect()
        seen["after_collect"] = dead() is not None  # frozen: not collected
        await asyncio.sleep(0.3)  # a thaw: unfreeze + full collection
        seen["after_thaw"] = dead() is not None
        task.cancel()

    try:
        run_sync(watch())
    finally:
        gc.unfreeze()
    assert seen == {"after_collect": True, "after_thaw": False}


def test_ws_deflate_is_off_unless_asked_for(monkeypatch: Any) -> None:
    from stammtisch.server.runner import uvicorn_config
    from stammtisch.server.settings import Settings

    monkeypatch.delenv("STAMMTISCH_WS_DEFLATE", raising=False)
    assert uvicorn_config(object(), Settings()).ws_per_message_deflate is False
    monkeypatch.setenv("STAMMTISCH_WS_DEFLATE", "1")
    assert uvicorn_config(object(), Settings()).ws_per_message_deflate is True
    monkeypatch.setenv("STAMMTISCH_WS_DEFLATE", "0")
    assert uvicorn_config(object(), Settings()).ws_per_message_deflate is False


def test_group_commit_default_follows_the_database(monkeypatch: Any, tmp_path: Any) -> None:
    """Group commit: on for PostgreSQL (commits wait for the disk over the network), off
    for SQLite; ``STAMMTISCH_GROUP_COMMIT`` decides either way."""
    from stammtisch.persistence.db import Database
    from stammtisch.persistence.store import Store
    from stammtisch.server.writer import GameWriter

    sqlite = Store(Database(f"sqlite:///{tmp_path / 'x.sqlite3'}"))
    postgres = Store(Database("postgresql://postgres@127.0.0.1:5432/test"))  # not connected
    monkeypatch.delenv("STAMMTISCH_GROUP_COMMIT", raising=False)
    assert (GameWriter.wanted(sqlite), GameWriter.wanted(postgres)) == (False, True)
    monkeypatch.setenv("STAMMTISCH_GROUP_COMMIT", "1")
    assert (GameWriter.wanted(sqlite), GameWriter.wanted(postgres)) == (True, True)
    monkeypatch.setenv("STAMMTISCH_GROUP_COMMIT", "0")
    assert (GameWriter.wanted(sqlite), GameWriter.wanted(postgres)) == (False, False)
