"""``stammtisch arena`` and ``simulate`` for Mulatschak through the real CLI (its judge:
duplicate deals, lower scores better), and ``analyze`` and the hint."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from stammtisch.cli.main import app
from stammtisch.games import registry
from stammtisch.games.mulatschak.analysis import analyze
from stammtisch.games.mulatschak.bots.heuristic import HeuristicBot
from stammtisch.games.mulatschak.record import record_of
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import new_state
from stammtisch.games.mulatschak.statistics import BETTER
from stammtisch.judging import JudgeError, run_arena, run_simulation


def _cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_arena_json_through_the_cli() -> None:
    code, out, _ = _cli("arena", "--game", "mulatschak", "--bots", "heuristic,random",
                        "--deals", "6", "--seed", "1", "--json")
    assert code == 0, out
    data = json.loads(out)
    for key in ("advantage", "ci95", "better", "a_better", "significant", "decision_ms",
                "stats", "deals", "games", "seconds", "deals_per_s", "mean_delta"):
        assert key in data
    assert data["better"] == BETTER and "lower scores are better" in data["better"]
    assert data["a"] == "heuristic" and data["b"] == "random"
    assert data["deals"] == 6 and data["games"] == 12
    lo, hi = data["ci95"]
    assert lo <= data["advantage"] <= hi
    assert data["a_better"] == (data["advantage"] < 0)
    for role in ("a", "b"):
        assert set(data["decision_ms"][role]) >= {"median", "p95"}
    a, b = data["stats"]
    assert a["seat_hands"] == b["seat_hands"] == 6 * 2 * 2
    # the advantage is A's mean delta minus B's (each deal's two games weigh the same)
    assert data["advantage"] == pytest.approx(a["mean_delta"] - b["mean_delta"])


def test_arena_human_output() -> None:
    code, out, _ = _cli("arena", "--game", "mulatschak", "--bots", "search,heuristic",
                        "--deals", "2", "--seed", "3")
    assert code == 0, out
    assert "Advantage search − heuristic" in out and "lower scores are better" in out


def test_arena_jobs_do_not_change_the_figures() -> None:
    rules = MulatschakRules()
    one = run_arena("heuristic", "random", 4, 9, rules, jobs=1)
    two = run_arena("heuristic", "random", 4, 9, rules, jobs=2)
    for key in ("advantage", "ci95", "stats", "outcomes"):
        if key == "stats":
            strip = [{k: v for k, v in s.items() if k != "decision_ms"} for s in one[key]]
            assert strip == [{k: v for k, v in s.items() if k != "decision_ms"}
                             for s in two[key]]
        else:
            assert one[key] == two[key]


def test_arena_duplicate_is_fair_for_equal_bots() -> None:
    out = run_arena("heuristic", "heuristic", 5, 2, MulatschakRules())
    assert out["advantage"] == 0.0  # same bots, same cards, same seeds: the same games


def test_arena_other_table_sizes() -> None:
    for players in (2, 3, 6):
        out = run_arena("search", "random", 2, 4, MulatschakRules(), players=players)
        assert out["players"] == players and len(out["seatings"][0]) == players


def test_simulate_json_through_the_cli() -> None:
    code, out, _ = _cli("simulate", "--game", "mulatschak", "--bots", "heuristic,random",
                        "--games", "8", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["games"] == 8 and data["deals"] == 4
    assert data["better"] == BETTER
    assert [lu["bots"] for lu in data["lineups"]] == [["heuristic", "heuristic"],
                                                      ["random", "random"]]
    assert sum(data["outcomes"].values()) == 8
    code, out, _ = _cli("simulate", "--game", "mulatschak", "--bots", "heuristic,random",
                        "--games", "4")
    assert code == 0 and "Margin of the first lineup" in out


@pytest.mark.parametrize("args", [
    ["arena", "--game", "mulatschak", "--bots", "nobody,heuristic", "--deals", "2"],
    ["arena", "--game", "mulatschak", "--bots", "heuristic", "--deals", "2"],
    ["arena", "--game", "mulatschak", "--bots", "heuristic,random", "--rules", "wien"],
    ["simulate", "--game", "mulatschak", "--bots", "heuristic,nobody", "--games", "2"],
])
def test_bad_input_is_one_line_error(args: list[str]) -> None:
    r = CliRunner().invoke(app, args)
    assert r.exit_code != 0
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_judge_errors_are_typed() -> None:
    rules = MulatschakRules()
    with pytest.raises(JudgeError, match="unknown bot 'x'"):
        run_arena("x", "random", 1, 0, rules)
    with pytest.raises(JudgeError, match="deals=0"):
        run_arena("random", "random", 0, 0, rules)
    with pytest.raises(JudgeError, match="players=7"):
        run_arena("random", "random", 1, 0, rules, players=7)
    with pytest.raises(JudgeError, match="two bots"):
        run_simulation(2, 0, ["random", "random", "random"], rules)


def _finished(seed: int) -> object:
    rng = random.Random(seed)
    state = new_state(MulatschakRules(), 0, rng)
    bot = HeuristicBot()
    while not state.is_terminal():
        state.apply(bot.choose(state, rng))
    return state


def test_analyze_through_the_cli(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    for seed in range(40):
        state = _finished(seed)
        if state.trick_winners:  # type: ignore[attr-defined]
            break
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record_of(state)))  # type: ignore[arg-type]
    code, out, _ = _cli("analyze", "--json", str(path))
    assert code == 0, out
    plays = json.loads(out)
    n = len(state.playing)  # type: ignore[attr-defined]
    assert len(plays) == 5 * n
    assert all(p["loss"] >= 0 and (p["loss"] > 0 or p["card"] in p["best"]) for p in plays)
    assert [p["trick"] for p in plays] == [1 + i // n for i in range(5 * n)]
    code, out, _ = _cli("analyze", str(path))
    assert code == 0 and "bidder" in out
    assert analyze(record_of(state)) == analyze(state)  # type: ignore[arg-type]


def test_analyze_hand_without_play_is_empty() -> None:
    for seed in range(60):
        state = _finished(seed)
        if not state.trick_winners:  # type: ignore[attr-defined]
            assert analyze(state) == []  # type: ignore[arg-type]
            return
    raise AssertionError("no hand without card play in 60 seeds")


def test_hint_from_own_view() -> None:
    desc = registry.get("mulatschak")
    assert desc.hint is not None
    rng = random.Random(4)
    state = new_state(MulatschakRules(), 0, rng)
    bot = HeuristicBot()
    seen_play = False
    while not state.is_terminal():
        seat = state.current_player
        text, values = desc.hint(state, seat, 1)
        assert state.parse_action(text) in state.legal_actions()
        if state.phase == "play" and len(state.legal_actions()) > 1:
            assert text in values
            seen_play = True
        state.apply(bot.choose(state, rng))
    assert seen_play or not state.trick_winners


def test_match_lengths_reports_hands_and_stuck_matches() -> None:
    from stammtisch.games.mulatschak.match_lengths import match_lengths

    out = match_lengths("heuristic", 4, [1, 2], MulatschakRules(), cap=300)
    assert [m["seed"] for m in out["matches"]] == [1, 2]
    assert out == match_lengths("heuristic", 4, [1, 2], MulatschakRules(), cap=300)
    for m in out["matches"]:
        assert m["ended"] and not m["stuck"] and 1 <= m["hands"] < 300
        assert min(m["scores"]) <= 0
    # every seat at 5 or less: nobody may bid, the match can never end
    stuck = match_lengths("heuristic", 3, [0], MulatschakRules(), start=5)
    assert stuck["matches"][0] == {"seed": 0, "hands": 0, "ended": False, "stuck": True,
                                   "scores": [5, 5, 5]}
    assert stuck["ended"] == 0 and stuck["median_hands"] is None
    capped = match_lengths("heuristic", 4, [1], MulatschakRules(), cap=1)
    assert capped["matches"][0]["hands"] == 1
    with pytest.raises(JudgeError):
        match_lengths("heuristic", 4, [1], MulatschakRules(), cap=0)
    with pytest.raises(JudgeError):
        match_lengths("nobody", 4, [1], MulatschakRules())
