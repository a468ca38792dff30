"""The toy game of docs/architecture.md ("Adding a game"): a game that provides only its
rules, its state and its plug-in (tests/toygame/stichspiel.py) is registered and gets the
contract tests, ``replay`` and the rest of stammtisch without a line elsewhere."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from stammtisch.cli.main import app
from stammtisch.engine.core import play_random
from stammtisch.errors import IllegalActionError
from stammtisch.games import registry

HERE = Path(__file__).parent


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


toy = _load("stichspiel_toy", HERE / "stichspiel.py")
contract = _load("contract_tests_for_toy", HERE.parent / "games" / "test_contract.py")


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    registry.register(toy.PLUGIN)
    yield
    registry.unregister("stichspiel")


@pytest.mark.parametrize("check", [
    contract.test_random_playouts_never_raise,
    contract.test_returns_and_teams,
    contract.test_legal_actions_are_exactly_what_apply_accepts,
    contract.test_records_round_trip_and_replay_the_result,
])
def test_the_contract_tests_pass_for_the_toy_game(check) -> None:  # type: ignore[no-untyped-def]
    check("stichspiel", "standard")


@pytest.mark.parametrize("check", [contract.test_apply_on_a_copy_leaves_the_original,
                                   contract.test_views_hide_other_seats_cards])
def test_the_per_game_contract_tests_pass_for_the_toy_game(check) -> None:  # type: ignore[no-untyped-def]
    check("stichspiel")


def test_the_toy_game_follows_suit_and_scores() -> None:
    state = toy.new_state(toy.StichRules.preset("standard", points_per_trick=2), dealer=0,
                          rng=random.Random(3))
    leader = state.current_player
    first = state.legal_actions()[0]
    state.apply(first)
    follow = state.legal_actions()
    held = state.hands[1 - leader]
    assert all(c.suit is first.suit for c in follow) or not any(
        c.suit is first.suit for c in held)
    other = next((c for c in held if c not in follow), None)
    if other is not None:
        with pytest.raises(IllegalActionError, match="must follow"):
            state.apply(other)
    play_random(state, random.Random(1))
    result = state.final_result()
    assert result is not None and sum(result.points) == 6
    assert state.returns()[0] == result.points[0] - result.points[1]


def test_replay_reads_a_toy_record(tmp_path: Path) -> None:
    state = play_random(toy.new_state(toy.StichRules(), 1, random.Random(5)), random.Random(6))
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(toy.record_of(state)))
    out = CliRunner().invoke(app, ["replay", "--json", str(path)])
    assert out.exit_code == 0, out.output
    result = state.final_result()
    assert result is not None
    assert json.loads(out.output.splitlines()[0]) == result.to_json()


@pytest.mark.parametrize("args", [
    ["arena", "--game", "stichspiel", "--bots", "random,random", "--deals", "6", "--seed", "1",
     "--json"],
    ["simulate", "--game", "stichspiel", "--bots", "random,random", "--games", "6", "--seed",
     "1", "--json"],
])
def test_simulate_and_arena_judge_the_toy_game(args: list[str]) -> None:
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["game"] == "stichspiel"
    assert data["games"] == (12 if args[0] == "arena" else 6)  # arena: each deal twice
    assert [lu["bots"] for lu in data["lineups"]] == [["random"], ["random"]]
    assert sum(lu["returns"] for lu in data["lineups"]) == 0  # zero-sum, both lineups


def test_play_runs_the_toy_game_in_the_terminal() -> None:
    out = CliRunner().invoke(app, ["play", "--game", "stichspiel", "--seed", "4", "--lang",
                                   "en"], input="1\n1\n1\n1\n1\n1\n")
    assert out.exit_code == 0, out.output
    assert "Trick game for 2" in out.output and "Possible: 1)" in out.output
    assert "Result: {\"trick_winners\"" in out.output and "Points: You " in out.output
    assert "Game 2" in out.output


def test_the_research_adapters_take_the_toy_game() -> None:
    """PettingZoo's api_test and OpenSpiel's random_sim_test over the toy game, through the
    adapters written once (research/pettingzoo.py, research/spiel.py)."""
    pyspiel = pytest.importorskip("pyspiel", reason="the research extra (open_spiel)")
    pz_test = pytest.importorskip("pettingzoo.test", reason="the research extra (pettingzoo)")
    from stammtisch.research import spiel
    from stammtisch.research.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Dict observations (as every game's)
        pz_test.api_test(env("stichspiel"), num_cycles=50)
    spiel.register(toy.PLUGIN)  # once: the facade registers the built-in games on import
    game = spiel.load_game(toy.PLUGIN)
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
    state = game.new_initial_state()
    while not state.is_terminal():
        actions = (state.chance_outcomes() if state.is_chance_node()
                   else [(a, 1.0) for a in state.legal_actions()])
        state.apply_action(actions[0][0])
    assert sum(state.returns()) == 0
