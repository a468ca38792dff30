"""Post-game analysis (``stammtisch.games.mucken.analysis`` and ``stammtisch analyze``):
double-dummy values before/after every card, losses, better cards, game flips; the
misère solver of the Ramsch against a brute-force minimax."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stammtisch.analysis.solver import solve
from stammtisch.cards import SHORT_DECK, Card
from stammtisch.cli.main import app
from stammtisch.engine.tricks import TrickOrder
from stammtisch.games.mucken.analysis import PlayAnalysis, SplitSolver, analyze
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.record import replay

GOLDEN = Path(__file__).parent / "golden"
# the long deck (32 cards) takes seconds to analyse; its solver is tested elsewhere
RECORDS = sorted(p for p in GOLDEN.glob("*.json")
                 if not p.name.endswith(".expected.json") and p.name != "long_deck.json")

#: A Muck of seat 0 that the defence had won — until seat 1 schmiert the Gras-Ass onto
#: the declarers' trump trick (play 11) instead of throwing the Schellen-Neuner.
BLUNDER: dict[str, Any] = {
    "game": "mucken", "rules": "seefest", "dealer": 3,
    "hands": [["SK", "E9", "SU", "S10", "GK", "GU"], ["GA", "EA", "SA", "EK", "HO", "S9"],
              ["HA", "EO", "EU", "E10", "SO", "G10"], ["HK", "H9", "GO", "H10", "G9", "HU"]],
    "calls": ["muck", "weiter", "weiter", "weiter"],
    "plays": ["SK", "SA", "SO", "GO", "HK", "SU", "HO", "EO", "HA", "H9", "GU", "GA",
              "S10", "S9", "E10", "H10", "G9", "GK", "EA", "G10", "EU", "HU", "E9", "EK"],
}


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_records_are_consistent(path: Path) -> None:
    record = _load(path)
    state = replay(record)
    plays = analyze(record)
    assert [p.card for p in plays] == record.get("plays", [])[:len(plays)]
    assert len(plays) == len(record.get("plays", []))
    for i, p in enumerate(plays):
        assert p.loss >= 0
        assert p.card in p.best or p.loss > 0
        assert (p.loss == 0) == (p.value_after == p.value_before)
        if i + 1 < len(plays):
            # after a card the next player's best keeps the value: the values chain
            assert plays[i + 1].value_before == p.value_after
        assert not p.cost_game or p.loss > 0 or state.contract.startswith("schwarz")
    if plays and state.violation is None:
        ref = state.declarer % 2 if state.declarer is not None else 0
        assert plays[-1].value_after == state.pair_augen()[ref]


def test_the_first_trick_of_a_won_schwarz_game_costs_nothing() -> None:
    plays = analyze(_load(GOLDEN / "muck_kontra_schwarz.json"))
    assert len(plays) == 24
    for p in plays[:4]:
        assert p.value_before == p.value_after == 120
        assert p.loss == 0 and not p.cost_game
        assert p.card in p.best


def test_a_blunder_is_flagged_with_the_better_card() -> None:
    plays = analyze(BLUNDER)
    flagged = [p for p in plays if p.loss]
    blunder = plays[11]
    assert (blunder.seat, blunder.card) == (1, "GA")
    assert blunder.loss >= 11 and blunder.cost_game
    assert blunder.best == ("S9",)
    assert blunder.value_before <= 60 < blunder.value_after  # the declarers now win
    assert flagged == [blunder]  # every other card was a best card
    assert replay(BLUNDER).outcome.winner == 0  # type: ignore[union-attr]


def test_analyze_takes_a_state_too() -> None:
    state = replay(BLUNDER)
    assert analyze(state) == analyze(BLUNDER)
    assert all(isinstance(p, PlayAnalysis) for p in analyze(state))


def test_no_plays_no_analysis() -> None:
    assert analyze(_load(GOLDEN / "eingeworfen_wikipedia.json")) == []
    assert analyze(_load(GOLDEN / "sie_wikipedia.json")) == []


def test_a_ramsch_is_judged_as_a_misere() -> None:
    plays = analyze(_load(GOLDEN / "ramsch.json"))
    state = replay(_load(GOLDEN / "ramsch.json"))
    assert plays[-1].value_after == state.pair_augen()[0]
    for p in plays:
        # pair 0 wants few Augen: its losses raise the value, pair 1's lower it
        if p.loss and p.seat % 2 == 0:
            assert p.value_after > p.value_before
        if p.loss and p.seat % 2 == 1:
            assert p.value_after < p.value_before


# -- the misère solver ----------------------------------------------------------------------
def _brute(order: TrickOrder, hands: list[list[Card]], leader: int, count: set[int],
           maxing: set[int], must: bool) -> int:
    held = [list(h) for h in hands]

    def rec(lead: int, table: list[Card]) -> int:
        seat = (lead + len(table)) % 4
        if not table and not held[seat]:
            return 0
        values = []
        for c in order.legal(held[seat], table[0] if table else None, must_trump=must):
            held[seat].remove(c)
            now = [*table, c]
            if len(now) == 4:
                w = (lead + order.winner(now)) % 4
                v = (sum(x.augen for x in now) if w in count else 0) + rec(w, [])
            else:
                v = rec(lead, now)
            held[seat].append(c)
            values.append(v)
        return max(values) if seat in maxing else min(values)

    return rec(leader, [])


def test_split_solver_matches_brute_force_and_the_solver() -> None:
    rng = random.Random(5)
    for i in range(120):
        deck = list(SHORT_DECK)
        rng.shuffle(deck)
        n = 1 + i % 3
        hands = [deck[s * n:(s + 1) * n] for s in range(4)]
        order = trick_order(rng.choice(["muck", "wenz", "geier"]), "short")
        must = bool(i % 2)
        leader = i % 4
        misere = SplitSolver(order, hands, count_side={0, 2}, max_side={1, 3}, leader=leader,
                             must_trump=must)
        assert misere.value(hands, leader) == _brute(order, hands, leader, {0, 2}, {1, 3}, must)
        normal = SplitSolver(order, hands, count_side={1, 3}, max_side={1, 3}, leader=leader,
                             must_trump=must)
        assert normal.value(hands, leader) == solve(order, hands, leader, {1, 3},
                                                    must_trump=must).value
    # a whole deal: the same value as the main solver
    deck = list(SHORT_DECK)
    rng.shuffle(deck)
    hands = [deck[s * 6:(s + 1) * 6] for s in range(4)]
    order = trick_order("muck", "short")
    normal = SplitSolver(order, hands, count_side={0, 2}, max_side={0, 2})
    assert normal.value(hands, 0) == solve(order, hands, 0, {0, 2}).value


# -- the command ------------------------------------------------------------------------------
def test_analyze_command_json(tmp_path: Path) -> None:
    path = tmp_path / "blunder.json"
    path.write_text(json.dumps(BLUNDER), encoding="utf-8")
    r = CliRunner().invoke(app, ["analyze", str(path), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert len(out) == 24
    assert set(out[0]) >= {"index", "seat", "card", "value_before", "value_after", "loss",
                           "best", "cost_game"}
    assert out[11] == {**plays_json(11), "index": 11}


def plays_json(i: int) -> dict[str, Any]:
    return analyze(BLUNDER)[i].to_json()


def test_analyze_command_human_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "blunder.json"
    path.write_text(json.dumps(BLUNDER), encoding="utf-8")
    r = CliRunner().invoke(app, ["analyze", str(path)])
    assert r.exit_code == 0, r.output
    assert "GA" in r.stdout and "S9" in r.stdout and "Spiel!" in r.stdout
    r = CliRunner().invoke(app, ["analyze", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "cannot read" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**BLUNDER, "plays": ["EO"]}), encoding="utf-8")
    r = CliRunner().invoke(app, ["analyze", str(bad)])
    assert r.exit_code == 2 and "play 0" in r.output
