"""``stammtisch arena``: duplicate matches of two bots, the JSON report, bad input."""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from stammtisch.bots.base import BOTS
from stammtisch.cli.main import app
from stammtisch.engine.core import Action, GameState, Rng
from stammtisch.games.mucken.bots.heuristic import HeuristicBot
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState
from stammtisch.judging import draw_deals, judge, play_deal, run_arena

SEEFEST = MuckenRules.preset("seefest")


class Spy:
    """Plays like the heuristic bot and notes who sat where with which cards."""

    seen: ClassVar[list[tuple[str, MuckenState, int, tuple[str, ...], int]]] = []

    def __init__(self, name: str) -> None:
        self.name = name
        self.inner = HeuristicBot()

    def choose(self, state: GameState, rng: Rng) -> Action:
        assert isinstance(state, MuckenState)
        seat = state.current_player
        Spy.seen.append((self.name, state, seat, tuple(str(c) for c in state.dealt[seat]),
                         state.dealer))
        return self.inner.choose(state, rng)


@pytest.fixture
def spies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "spy-a", lambda: Spy("spy-a"))
    monkeypatch.setitem(BOTS, "spy-b", lambda: Spy("spy-b"))
    monkeypatch.setattr(judge, "_BOTS", {})
    Spy.seen.clear()


def test_json_keys_and_figures() -> None:
    r = CliRunner().invoke(app, ["arena", "--bots", "heuristic,random", "--deals", "12",
                                 "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert {"mean", "ci95", "deals", "games", "bobbl", "a", "b"} <= set(out)
    assert (out["a"], out["b"], out["deals"], out["games"]) == ("heuristic", "random", 12, 24)
    lo, hi = out["ci95"]
    assert lo <= out["mean"] <= hi
    assert out["mean"] == pytest.approx((out["points"][0] - out["points"][1]) / 24)
    assert out["mean"] > 0  # the heuristic beats random play
    assert len(out["bobbl"]) == 2 and all(isinstance(b, int) for b in out["bobbl"])
    assert sum(out["contracts"].values()) == 24


def test_reproducible_and_independent_of_jobs() -> None:
    one = run_arena("heuristic", "random", 6, 11, SEEFEST)
    again = run_arena("heuristic", "random", 6, 11, SEEFEST)
    two = run_arena("heuristic", "random", 6, 11, SEEFEST, jobs=2)
    for out in (again, two):
        for key in ("mean", "ci95", "bobbl", "points", "stats", "contracts"):
            assert out[key] == one[key]


def test_the_same_bots_give_zero() -> None:
    out = run_arena("heuristic", "heuristic", 8, 5, SEEFEST)
    assert out["mean"] == 0.0 and out["ci95"] == [0.0, 0.0]
    assert out["bobbl"][0] == out["bobbl"][1]


def test_duplicate_pairing_swaps_the_seats_on_the_same_cards(spies: None) -> None:
    out = run_arena("spy-a", "spy-b", 4, 21, SEEFEST)
    assert out["games"] == 8
    games: dict[int, dict[int, tuple[str, tuple[str, ...], int]]] = {}
    for name, game, seat, hand, dealer in Spy.seen:  # (the states are kept: ids unique)
        games.setdefault(id(game), {})[seat] = (name, hand, dealer)
    seatings = list(games.values())
    assert len(seatings) == 8
    for first, second in zip(seatings[::2], seatings[1::2], strict=True):
        assert set(first) == set(second) == {0, 1, 2, 3}
        for seat in range(4):
            name1, hand1, dealer1 = first[seat]
            name2, hand2, dealer2 = second[seat]
            assert hand1 == hand2 and dealer1 == dealer2  # same cards, same dealer
            assert name1 == ("spy-a" if seat % 2 == 0 else "spy-b")  # A in pair 0 ...
            assert name2 == ("spy-b" if seat % 2 == 0 else "spy-a")  # ... then in pair 1
    dealers = [first[0][2] for first in seatings[::2]]
    assert dealers == [0, 1, 2, 3]  # the dealer moves on like in a match


def test_both_games_of_a_deal_replay_from_the_same_deal() -> None:
    (task,) = list(draw_deals(4, 1, SEEFEST))
    number, (first, second), _ = play_deal(
        ("mucken", SEEFEST, task, [["heuristic", "random"] * 2, ["random", "heuristic"] * 2]))
    assert number == 0 and first and second
    assert sorted(str(c) for h in task.opening[0].hands for c in h) == sorted(
        str(c) for c in MuckenState(SEEFEST).deck)
    # the deals come from the seed alone
    assert list(draw_deals(4, 1, SEEFEST)) == [task]
    assert list(draw_deals(5, 1, SEEFEST)) != [task]


@pytest.mark.parametrize("args, needle", [
    (["--bots", "heuristic,nobody"], "unknown bot"),
    (["--bots", "heuristic"], "exactly two bots"),
    (["--bots", "heuristic,random", "--deals", "0"], "--deals"),
    (["--bots", "heuristic,random", "--rules", "nowhere"], "nowhere"),
])
def test_bad_input_exits_2(args: list[str], needle: str) -> None:
    r = CliRunner().invoke(app, ["arena", *args])
    assert r.exit_code == 2
    assert needle in r.output


def test_human_output() -> None:
    r = CliRunner().invoke(app, ["arena", "--bots", "heuristic,random", "--deals", "3"])
    assert r.exit_code == 0, r.output
    assert "Mean difference heuristic − random" in r.stdout and "95% CI" in r.stdout


def test_run_arena_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run_arena("nobody", "random", 1, 0, SEEFEST)
    with pytest.raises(ValueError, match="at least 1"):
        run_arena("random", "random", 0, 0, SEEFEST)
    out: dict[str, Any] = run_arena("random", "heuristic", 1, 0, SEEFEST)
    assert out["ci95"] is None and out["deals"] == 1
    assert random.Random(0).random() == random.Random(0).random()
