"""``stammtisch bench compare --game schafkopf``: Schafkopf next to OpenSpiel's Skat."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from stammtisch.cli.bench_compare import engines, run_compare
from stammtisch.cli.main import app

OURS = ["schafkopf_api", "schafkopf_fast", "openspiel_python_schafkopf"]


def test_engines_of_schafkopf() -> None:
    names = [e.name for e in engines("schafkopf")]
    assert names == ["schafkopf_api", "schafkopf_fast", "openspiel_skat", "openspiel_hearts",
                     "rlcard_bridge", "openspiel_python_schafkopf"]


def test_tiny_run_next_to_skat() -> None:
    out = run_compare(0.05, seed=1, only=[*OURS, "openspiel_skat"], game="schafkopf")
    by = {e["engine"]: e for e in out["engines"]}
    assert set(by) == {*OURS, "openspiel_skat"}
    for name in OURS:
        assert "error" not in by[name], by[name]
        # the standard preset has no Hochzeit: every card id played is a card to a trick;
        # a redeal (all four say "weiter", rare) has none
        assert 31.0 < by[name]["card_plays_per_game"] <= 32.0, by[name]
    assert 0 < by["openspiel_skat"]["card_plays_per_game"] <= 30


def test_cli() -> None:
    result = CliRunner().invoke(app, ["bench", "compare", "--game", "schafkopf", "--seconds",
                                      "0.05", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["engines"][0]["engine"] == "schafkopf_api"
