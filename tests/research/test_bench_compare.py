"""``stammtisch bench compare``: every engine runs and reports card plays."""

from __future__ import annotations

import json
import random

import typer
from typer.testing import CliRunner

from stammtisch.cli.bench_compare import (
    _hearts_card_plays,
    _openspiel,
    compare_command,
    engines,
    run_compare,
)

ENGINES = ["mucken_api", "mucken_fast", "openspiel_skat", "openspiel_hearts", "rlcard_bridge",
           "openspiel_python_mucken"]


def test_tiny_run() -> None:
    out = run_compare(0.05, seed=1)
    assert [e["engine"] for e in out["engines"]] == ENGINES
    for e in out["engines"]:
        assert "error" not in e, e
        assert e["games"] > 0 and e["card_plays"] > 0, e
        assert e["card_plays_per_s"] > 0 and e["counting"]
    by = {e["engine"]: e for e in out["engines"]}
    assert by["mucken_api"]["card_plays_per_game"] == 24.0
    assert by["mucken_fast"]["card_plays_per_game"] == 24.0
    assert by["openspiel_hearts"]["card_plays_per_game"] == 52.0
    assert 0 < by["openspiel_skat"]["card_plays_per_game"] <= 30
    assert 0 < by["rlcard_bridge"]["card_plays_per_game"] <= 52
    assert by["openspiel_python_mucken"]["card_plays_per_game"] == 24.0


def test_hearts_counting_matches_the_tricks() -> None:
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(3)
    for _ in range(8):
        state = game.new_initial_state()
        actions: list[int] = []
        first = -1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                a = outcomes[rng.randrange(len(outcomes))][0]
                first = a if first < 0 else first
            else:
                legal = state.legal_actions()
                a = legal[rng.randrange(len(legal))]
                actions.append(a)
            state.apply_action(a)
        assert _hearts_card_plays(actions, first) == 52
    assert _openspiel("skat")()(random.Random(0)) <= 30


def test_cli_json() -> None:
    app = typer.Typer()
    app.command()(compare_command)
    result = CliRunner().invoke(app, ["--seconds", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [e["engine"] for e in out["engines"]] == ENGINES
    assert out["seconds"] == 0.05 and out["slices"] == 1
    human = CliRunner().invoke(app, ["--seconds", "0.05"])
    assert human.exit_code == 0 and "card plays/s" in human.stdout


def test_engine_list_is_documented() -> None:
    import stammtisch.cli.bench_compare as module

    assert module.__doc__ is not None
    for engine in engines():
        assert f"``{engine.name}``" in module.__doc__


def test_wired_as_bench_compare() -> None:
    from stammtisch.cli.main import app

    result = CliRunner().invoke(app, ["bench", "compare", "--help"])
    assert result.exit_code == 0, result.output
    assert "--seconds" in result.stdout and "--json" in result.stdout
