"""``stammtisch bench server``: a short load test against a real server subprocess."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from stammtisch.cli.bench_server import server_command
from stammtisch.server.loadtest import LoadConfig, percentile, run_loadtest

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
    result = run_loadtest(LoadConfig(tables=2, seconds=3.0, think_ms=20.0, warmup=0.5,
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
