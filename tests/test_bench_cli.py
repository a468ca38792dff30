"""``stammtisch bench playout``: checked API vs. fast path, JSON keys and figures."""

from __future__ import annotations

import json
import random

from typer.testing import CliRunner

from stammtisch.cli.bench import api_playout, fast_playout, measure
from stammtisch.cli.main import app
from stammtisch.games.mucken.rules import MuckenRules

runner = CliRunner()


def test_playout_json() -> None:
    result = runner.invoke(app, ["bench", "playout", "--seconds", "0.3", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    for key in ("api_card_plays_per_s", "fast_card_plays_per_s", "api_games_per_s",
                "fast_games_per_s", "speedup", "api_card_plays_per_cpu_s",
                "fast_card_plays_per_cpu_s"):
        assert isinstance(out[key], float) and out[key] > 0, key
    assert out["seconds"] == 0.3 and out["slices"] == 1
    assert out["python"].startswith(("CPython", "PyPy"))
    assert out["api_games"] > 0 and out["fast_games"] > 0
    # a short-deck game without Einwerfen has 24 card plays
    assert out["api_card_plays"] == 24 * out["api_games"]
    assert out["fast_card_plays"] == 24 * out["fast_games"]


def test_playout_human_output() -> None:
    result = runner.invoke(app, ["bench", "playout", "--seconds", "0.3", "--rules", "wikipedia"])
    assert result.exit_code == 0, result.output
    assert "card plays/s" in result.stdout
    assert "API" in result.stdout and "fast path" in result.stdout


def test_bad_options() -> None:
    result = runner.invoke(app, ["bench", "playout", "--seconds", "0"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["bench", "playout", "--seconds", "0.1", "--rules", "nope"])
    assert result.exit_code == 2
    assert "unknown Mucken preset" in " ".join(result.output.replace("│", " ").split())


def test_both_paths_play_the_same_games() -> None:
    rules = MuckenRules.preset("wikipedia")
    api = [api_playout(rules, d % 4, random.Random(d)) for d in range(50)]
    fast = [fast_playout(rules, d % 4, random.Random(d)) for d in range(50)]
    assert api == fast
    assert all(n in (0, 24) for n in api)  # Einwerfen has no card plays


def test_measure_counts_whole_games() -> None:
    out = measure(fast_playout, MuckenRules.preset("seefest"), 0.05, seed=1, batch=4)
    assert out["games"] % 4 == 0 and out["games"] >= 4
    assert out["card_plays"] == 24 * out["games"]
    assert out["seconds"] >= 0.05
