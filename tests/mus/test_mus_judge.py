"""The Mus judge through the real CLI: ``stammtisch arena/simulate --game mus``."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from stammtisch.cards import SPANISH_DECK
from stammtisch.cli.main import app
from stammtisch.games.base.judging import play
from stammtisch.games.mus.bots.heuristic import HeuristicBot
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import MusState
from stammtisch.games.mus.statistics import hand_points
from stammtisch.judging import JudgeError, run_arena, run_simulation

DUPLES = MusRules.preset("duples")


def _run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_arena_json_keys_and_figures() -> None:
    code, out, _ = _run("arena", "--game", "mus", "--bots", "heuristic,random",
                        "--deals", "6", "--seed", "2", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert {"points_per_hand", "ci95", "deals", "hands", "decision_ms", "seconds", "a",
            "b", "points", "status", "ordagos"} <= set(data)
    assert (data["a"], data["b"], data["deals"], data["hands"]) == ("heuristic", "random",
                                                                    6, 12)
    lo, hi = data["ci95"]
    assert lo <= data["points_per_hand"] <= hi
    assert data["points_per_hand"] == pytest.approx(
        (data["points"][0] - data["points"][1]) / 12)
    assert set(data["decision_ms"]) == {"heuristic", "random"}
    for ms in data["decision_ms"].values():
        assert 0 <= ms["median"] <= ms["p95"] and ms["decisions"] > 0


def test_arena_is_duplicate_and_jobs_do_not_change_it() -> None:
    one = run_arena("heuristic", "heuristic", 4, 5, DUPLES, jobs=1)
    assert one["points_per_hand"] == 0.0  # the same bot on both sides of every deal
    a = run_arena("bluff", "random", 4, 5, DUPLES, jobs=1)
    b = run_arena("bluff", "random", 4, 5, DUPLES, jobs=2)
    assert (a["points_per_hand"], a["points"], a["status"]) == \
        (b["points_per_hand"], b["points"], b["status"])


def test_arena_human_text() -> None:
    code, out, _ = _run("arena", "--game", "mus", "--bots", "bluff,heuristic",
                        "--deals", "2")
    assert code == 0, out
    assert "points per hand" in out and "decision median" in out


def test_simulate_json_and_text() -> None:
    code, out, _ = _run("simulate", "--game", "mus", "--bots", "heuristic,bluff",
                        "--games", "8", "--seed", "1", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert {"games", "points", "points_per_hand", "margin", "ci95", "sets_won",
            "matches_won", "status", "decision_ms", "seconds"} <= set(data)
    assert data["games"] == 8 and data["bots"] == ["heuristic", "bluff"] * 2
    assert sum(sum(v.values()) for v in data["status"].values()) == 8 * 5
    code, out, _ = _run("simulate", "--game", "mus", "--bots",
                        "heuristic,random,bluff,random", "--games", "3")
    assert code == 0, out
    assert "Margin pair 0 over pair 1" in out


@pytest.mark.parametrize("args", [
    ("arena", "--game", "mus", "--bots", "heuristic,nosuch", "--deals", "2"),
    ("arena", "--game", "mus", "--bots", "heuristic", "--deals", "2"),
    ("arena", "--game", "mus", "--bots", "heuristic,random", "--deals", "0"),
    ("arena", "--game", "mus", "--bots", "heuristic,random", "--rules", '{"reyes": 6}'),
    ("simulate", "--game", "mus", "--bots", "heuristic,random,bluff", "--games", "2"),
    ("simulate", "--game", "mus", "--bots", "heuristic,random", "--rules", "nosuch"),
])
def test_bad_input_is_one_line_without_traceback(args: tuple[str, ...]) -> None:
    code, out, err = _run(*args)
    assert code != 0
    assert "Traceback" not in out + err
    assert any(word in out + err for word in ("nosuch", "bots", "deals", "reyes", "preset"))


def test_judge_refuses_bad_input_by_name() -> None:
    with pytest.raises(JudgeError, match="deals=0"):
        run_arena("heuristic", "random", 0, 1, DUPLES)
    with pytest.raises(JudgeError, match="unknown bot 'x'"):
        run_arena("heuristic", "x", 1, 1, DUPLES)
    with pytest.raises(JudgeError, match=r"two .* or four"):
        run_simulation(1, 1, ["heuristic"] * 3, DUPLES)


def test_hand_points_credit_an_accepted_ordago() -> None:
    hands = [list(SPANISH_DECK[i:i + 4]) for i in (36, 0, 12, 20)]  # seat 0: S C R of bastos
    dealt = {c for h in hands for c in h}
    state = MusState.from_deal(DUPLES, 1, (20, 25), hands,
                               [c for c in SPANISH_DECK if c not in dealt])
    for word in ("no mus", "ordago", "quiero"):  # Mano (seat 0) bets ordago in Grande
        state.apply(state.parse_action(word))
    result = state.result()
    assert result is not None and result["status"]["grande"] == "ordago"
    w = result["set_winner"]
    points = hand_points(state)
    assert points[w] == 30 - result["score"][w] and points[1 - w] == 0
    # an ordinary hand: the points added
    state = MusState.from_deal(DUPLES, 1, (0, 0), hands,
                               [c for c in SPANISH_DECK if c not in dealt])
    play(state, [HeuristicBot()] * 4, random.Random(1), random.Random(2))
    result = state.result()
    assert result is not None and hand_points(state) == result["score"]
