"""``stammtisch bench server``: a short load test against a real server subprocess."""

from __future__ import annotations

import json

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
    from typing import Any

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
    manager = TableManager(None, Settings(seed=1))  # type: ignore[arg-type]
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
