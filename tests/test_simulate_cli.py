"""``stammtisch simulate``: statistics of bot games, JSON output, bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from stammtisch.cli.main import app
from stammtisch.cli.simulate import run_simulation
from stammtisch.games.mucken.rules import MuckenRules

runner = CliRunner()

REQUIRED = {"games", "contracts", "declarer_win_rate", "average_score", "points", "bobbl", "bots",
            "margin", "ci95"}


def simulate_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["simulate", "--json", *args])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_json_statistics_are_consistent() -> None:
    out = simulate_json("--games", "60", "--seed", "3")
    assert set(out) >= REQUIRED
    assert out["games"] == 60 and out["deals"] == 30
    assert sum(out["contracts"].values()) == 60
    assert out["bots"] == ["heuristic", "random", "heuristic", "random"]
    assert out["seatings"][1] == ["random", "heuristic", "random", "heuristic"]
    assert 0.0 <= out["declarer_win_rate"] <= 1.0
    a, b = out["lineups"]
    assert a["bots"] == ["heuristic", "heuristic"] and b["bots"] == ["random", "random"]
    # every point is credited to one pair, seen by seats and by lineups
    assert sum(out["points"]) == a["points"] + b["points"]
    assert out["average_score"] == pytest.approx(sum(out["points"]) / 60)
    assert out["margin"] == pytest.approx((a["points"] - b["points"]) / 60)
    assert sum(out["bobbl"]) == a["bobbl"] + b["bobbl"]
    low, high = out["ci95"]
    assert low <= out["margin"] <= high


def test_heuristic_beats_random_clearly() -> None:
    out = simulate_json("--games", "200", "--seed", "1", "--bots", "heuristic,random")
    assert out["ci95"][0] > 3.0
    a, b = out["lineups"]
    assert a["bobbl"] > b["bobbl"]
    assert a["points_per_game"] > b["points_per_game"]


def test_same_seed_same_games() -> None:
    first = simulate_json("--games", "20", "--seed", "9", "--rules", "wikipedia")
    again = simulate_json("--games", "20", "--seed", "9", "--rules", "wikipedia")
    other = simulate_json("--games", "20", "--seed", "10", "--rules", "wikipedia")
    for d in (first, again, other):
        d.pop("seconds")
        d.pop("games_per_s")
    assert first == again
    assert first != other
    assert first["rules"] == "wikipedia"


def test_seats_swap_on_the_same_deals() -> None:
    """Mirror match: random vs random on the same deals are exactly symmetric."""
    out = run_simulation(40, 5, ["random", "random"], MuckenRules.preset("seefest"))
    # same shuffle, same cut and same random stream at both tables: the second table
    # replays the first game with the pairs exchanged, so the lineups tie exactly
    assert out["margin"] == 0.0
    assert out["lineups"][0]["points"] == out["lineups"][1]["points"]


def test_four_bots_and_odd_number_of_games() -> None:
    out = simulate_json("--games", "7", "--bots", "heuristic,random,random,heuristic")
    assert out["games"] == 7 and out["deals"] == 4
    assert out["bots"] == ["heuristic", "random", "random", "heuristic"]
    assert out["seatings"][1] == ["random", "heuristic", "heuristic", "random"]
    assert out["lineups"][0]["bots"] == ["heuristic", "random"]


def test_one_game_has_no_interval() -> None:
    out = simulate_json("--games", "1")
    assert out["games"] == 1 and out["ci95"] is None


def test_rules_as_json_object_and_variants() -> None:
    rules = json.dumps({"preset": "seefest", "no_game": "ramsch", "ramsch_stichzwang": True,
                        "games": ["muck", "wenz", "geier", "farbsolo"], "doublings": 4})
    out = simulate_json("--games", "30", "--rules", rules, "--bots", "heuristic,heuristic")
    assert sum(out["contracts"].values()) == 30


def test_haenger_starts_new_matches() -> None:
    rules = MuckenRules.preset("seefest", haenger=True, bobbl_target=5)
    out = run_simulation(120, 2, ["heuristic", "random"], rules)
    assert sum(out["bobbl"]) > 4  # several Hänger were played out


def test_human_output() -> None:
    result = runner.invoke(app, ["simulate", "--games", "12", "--seed", "4"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    for word in ("12 games", "Games called", "Declarer win rate", "Bobbl", "Lineups", "Margin",
                 "heuristic", "random"):
        assert word in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "heuristic,grandmaster"], "unknown bot 'grandmaster'"),
        (["--bots", "heuristic,random,random"], "two bots"),
        (["--games", "0"], "--games"),
        (["--games", "-5"], "--games"),
        (["--rules", "tauperlitz"], "unknown Mucken preset"),
        (["--rules", '{"preset": "seefest", "deck": "huge"}'], "deck"),
        (["--rules", "{not json"], "--rules"),
    ],
)
def test_bad_input_exits_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code == 2
    # the message may be wrapped into a box: compare the words
    text = " ".join(result.output.replace("│", " ").split())
    assert message in text, text
