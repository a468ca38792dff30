"""Small output matters: replay's error lines, simulate's plurals and rate, the bench
commands' ``--json`` (one line each, the same ``json.dumps`` settings)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stammtisch.cli.main import app
from stammtisch.cli.output import json_line

runner = CliRunner()


def test_replay_names_the_unreadable_file_once(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    result = runner.invoke(app, ["replay", str(missing)])
    assert result.exit_code == 1
    assert result.output.strip() == f"{missing}: ERROR cannot read: No such file or directory"
    assert result.output.count("missing.json") == 1


def test_simulate_one_game_is_singular() -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", "--seed", "3"],
                           terminal_width=200)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # rich wraps at 80 columns
    assert text.startswith("1 game (1 deal, each at two tables")
    assert not re.search(r"(?<![\d,.])1 (games|deals)\b", text), text
    m = re.search(r"seed 3, ([\d,.]+) (games?)/s", text)
    assert m is not None, text
    assert m.group(2) == ("game" if m.group(1) == "1" else "games")


def test_simulate_many_games_are_plural() -> None:
    result = runner.invoke(app, ["simulate", "--games", "4", "--seed", "3"],
                           terminal_width=200)
    assert " ".join(result.output.split()).startswith("4 games (2 deals, each at two tables")


def one_json_line(result: Any) -> Any:
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    data = json.loads(lines[0])
    assert lines[0] == json_line(data)
    return data


def test_bench_playout_json_is_one_line() -> None:
    data = one_json_line(runner.invoke(app, ["bench", "playout", "--seconds", "0.05", "--json"]))
    assert data["seconds"] == 0.05


def test_bench_solver_json_is_one_line() -> None:
    data = one_json_line(runner.invoke(app, ["bench", "solver", "--deals", "2", "--json"]))
    assert data["deals"] == 2


FIGURES = {"tables": 1, "clients": 4, "seconds": 1.0, "actions": 10, "actions_per_s": 10.0,
           "errors": 0, "error_codes": {}, "note": "Grüß Gott"}


def test_bench_server_json_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import stammtisch.server.loadtest as loadtest

    monkeypatch.setattr(loadtest, "run_loadtest", lambda cfg: dict(FIGURES))
    data = one_json_line(runner.invoke(app, ["bench", "server", "--tables", "1", "--json"]))
    assert data == FIGURES


def test_bench_compare_json_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import stammtisch.cli.bench_compare as compare
    import stammtisch.cli.extras as extras

    monkeypatch.setattr(extras, "require", lambda *a: None)
    monkeypatch.setattr(compare, "run_compare", lambda seconds, **kw: {"engines": [], "x": "Ä"})
    data = one_json_line(runner.invoke(app, ["bench", "compare", "--json"]))
    assert data == {"engines": [], "x": "Ä"}
