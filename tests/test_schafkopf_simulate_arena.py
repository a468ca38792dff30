"""``simulate`` and ``arena`` for Schafkopf: games scored per seat (cents), duplicate seats."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from stammtisch.bots.base import BOTS
from stammtisch.cli.main import app
from stammtisch.engine.core import Action, GameState
from stammtisch.games import registry
from stammtisch.judging import run_arena as run_seat_arena
from stammtisch.judging import run_simulation as run_seat_simulation

runner = CliRunner()


class FirstBot:
    """Always the first legal action ("weiter", "gut", the lowest card in hand order)."""

    name = "first"

    def choose(self, state: GameState, rng: Any) -> Action:
        return state.legal_actions()[0]


@pytest.fixture
def first_bot() -> Iterator[None]:
    BOTS["first-test"] = FirstBot
    try:
        yield
    finally:
        del BOTS["first-test"]


def test_simulate_json() -> None:
    result = runner.invoke(app, ["simulate", "--game", "schafkopf", "--games", "12",
                                 "--bots", "random,random", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["games"] == 12 and out["deals"] == 6 and out["rules"] == "standard"
    assert sum(out["contracts"].values()) == 12
    for totals in out["balances"]:
        assert sum(totals) == 0  # the Abrechnung of each table is zero-sum
    # identical bots on identical cards: both lineups are paid the same
    assert out["margin"] == 0


def test_simulate_human_output() -> None:
    result = runner.invoke(app, ["simulate", "--game", "schafkopf", "--games", "4",
                                 "--bots", "random,random", "--rules", "anleitung"])
    assert result.exit_code == 0, result.output
    assert "cents per game" in result.output


def test_seat_simulation_and_arena_measure_different_bots(first_bot: None) -> None:
    rules = registry.get("schafkopf").make_rules("anleitung")
    sim = run_seat_simulation(20, 1, ["first-test", "random"], rules, game="schafkopf")
    a, b = sim["lineups"]
    assert a["cents"] + b["cents"] == 0
    assert sim["margin"] == (a["cents"] - b["cents"]) / 20
    arena = run_seat_arena("first-test", "random", 6, 2, rules, game="schafkopf")
    assert arena["games"] == 12 and arena["cents"][0] + arena["cents"][1] == 0
    assert arena["mean"] == pytest.approx((arena["cents"][0] - arena["cents"][1]) / 12)
    assert arena["ci95"] is not None
    again = run_seat_arena("first-test", "random", 6, 2, rules, game="schafkopf")
    assert again["cents"] == arena["cents"]  # reproducible from the seed


def test_arena_cli_duplicate_and_jobs() -> None:
    args = ["arena", "--game", "schafkopf", "--bots", "random,random", "--deals", "3",
            "--seed", "5", "--json"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a["games"] == 6 and a["mean"] == 0.0  # the same bot on both sides of a deal
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    human = runner.invoke(app, args[:-1])
    assert human.exit_code == 0 and "Mean difference" in human.output

