"""The double-dummy solver: equal to a plain minimax on many positions, obvious
values, mid-trick positions, card values, Mucken states and the bench command."""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from stammtisch.analysis import (
    NodeLimitExceeded,
    Solver,
    TrickRules,
    card_values,
    minimax_reference,
    solve,
    solve_state,
)
from stammtisch.cards import LONG_DECK, SHORT_DECK, Card, Suit, cards
from stammtisch.cli.bench_solver import solver_command
from stammtisch.engine.core import Say
from stammtisch.engine.tricks import TrickOrder
from stammtisch.games.mucken import MuckenRules, MuckenState, game_from_hands
from stammtisch.games.mucken.orders import trick_order

SIDES: tuple[frozenset[int], ...] = (
    frozenset({0, 2}), frozenset({1, 3}), frozenset({0}), frozenset({1, 2, 3}),
)


def _order(rng: random.Random, deck: str = "short") -> TrickOrder:
    kind = rng.choice(["muck", "wenz", "geier", "farbsolo"])
    suit = rng.choice([Suit.EICHEL, Suit.GRAS, Suit.SCHELLEN]) if kind == "farbsolo" else None
    return trick_order(kind, deck, suit)


def _position(
    rng: random.Random, order: TrickOrder, tricks: int, deck: Sequence[Card] = SHORT_DECK,
    must_trump: bool = False,
) -> tuple[list[list[Card]], int, list[Card]]:
    """Random hands of ``tricks`` cards and 0-3 legal cards already on the table."""
    pool = list(deck)
    rng.shuffle(pool)
    hands = [pool[s * tricks:(s + 1) * tricks] for s in range(4)]
    leader = rng.randrange(4)
    table: list[Card] = []
    for k in range(rng.randrange(4)):
        seat = (leader + k) % 4
        c = rng.choice(order.legal(hands[seat], table[0] if table else None,
                                   must_trump=must_trump))
        hands[seat].remove(c)
        table.append(c)
    return hands, leader, table


def test_equals_the_plain_minimax_on_small_positions() -> None:
    rng = random.Random(20240601)
    for _ in range(400):
        order = _order(rng)
        must = rng.random() < 0.25
        hands, leader, table = _position(rng, order, rng.choice([1, 2, 3, 3]), must_trump=must)
        side = rng.choice(SIDES)
        mode = rng.choice(["augen", "augen", "tricks"])
        taken = rng.randrange(40)
        ref = minimax_reference(order, hands, leader, side, table, taken, mode=mode,
                                must_trump=must)
        got = solve(order, hands, leader, side, table, taken, mode=mode, must_trump=must)
        assert got.value == ref, (order.name, hands, leader, table, side, mode, must)


def test_equals_the_plain_minimax_with_the_long_deck() -> None:
    # 32 cards: 8-7-9 runs of equal Augen (zero) are merged by the solver
    rng = random.Random(7)
    for _ in range(60):
        order = _order(rng, "long")
        hands, leader, table = _position(rng, order, rng.choice([2, 3]), LONG_DECK)
        side = rng.choice(SIDES)
        ref = minimax_reference(order, hands, leader, side, table)
        assert solve(order, hands, leader, side, table).value == ref


def test_equals_the_memoised_minimax_on_deeper_positions() -> None:
    rng = random.Random(99)
    for _ in range(30):
        order = _order(rng)
        must = rng.random() < 0.2
        hands, leader, table = _position(rng, order, rng.choice([4, 5]), must_trump=must)
        side = rng.choice(SIDES)
        mode = rng.choice(["augen", "tricks"])
        ref = minimax_reference(order, hands, leader, side, table, memo=True, mode=mode,
                                must_trump=must)
        got = solve(order, hands, leader, side, table, mode=mode, must_trump=must)
        assert got.value == ref, (order.name, hands, leader, table, side, mode, must)


def test_a_whole_deal_equals_the_memoised_minimax() -> None:
    order = trick_order("geier", "short")
    hands = [cards("EA G10 HK SO GU S9"), cards("EO E10 GA HU SA SK"),
             cards("GO EK H10 HA SU G9"), cards("HO EU E9 GK H9 S10")]
    ref = minimax_reference(order, hands, 0, {0, 2}, memo=True)
    r = solve(order, hands, 0, {0, 2})
    assert r.value == ref
    assert r.nodes > 0 and r.best_card in hands[0]


def test_all_trumps_with_one_pair_take_everything() -> None:
    order = trick_order("muck", "short")
    trumps = list(order.trumps)
    plain = [c for c in SHORT_DECK if not order.is_trump(c)]
    hands = [trumps[:6], plain[:6], trumps[6:], plain[6:]]
    for leader in range(4):
        assert solve(order, hands, leader, {0, 2}).value == 120
        assert solve(order, hands, leader, {1, 3}).value == 0
        assert solve(order, hands, leader, {0, 2}, mode="tricks").value == 6
        assert solve(order, hands, leader, {1, 3}, mode="tricks").value == 0


def test_last_trick_and_empty_position() -> None:
    order = trick_order("wenz", "short")
    hands = [cards("EA"), cards("E10"), cards("EK"), cards("GA")]
    r = solve(order, hands, 0, {0, 2}, taken=50)
    assert r.value == 50 + 11 + 10 + 4 + 11
    assert r.best_card == Card.parse("EA")
    # E10 leads, EK and GA follow, seat 0 takes it with EA
    assert solve(order, hands, 1, {0, 2}).value == 36
    assert solve(order, hands, 1, {1, 3}).value == 0
    assert solve(order, [[], [], [], []], 0, {0, 2}, taken=61).value == 61


def test_value_from_the_middle_of_a_trick() -> None:
    order = trick_order("muck", "short")
    # seat 1 led HA, seat 2 played HK; seat 3 to play: it can overtake with SU
    hands = [cards("EA GA"), cards("E10"), cards("G10"), cards("SU S10")]
    table = cards("HA HK")
    r = solve(order, hands, 1, {1, 3}, table)
    assert r.best_card == Card.parse("SU")
    assert r.value == minimax_reference(order, hands, 1, {1, 3}, table)
    # the pair 0 view of the same position
    other = solve(order, hands, 1, {0, 2}, table)
    assert other.value + r.value == sum(c.augen for h in hands for c in h) + 15


def test_best_card_reaches_the_value_and_equivalent_cards_are_merged() -> None:
    rng = random.Random(5)
    for _ in range(40):
        order = _order(rng)
        hands, leader, table = _position(rng, order, 3)
        side = rng.choice(SIDES)
        solver = Solver(order, hands, side, leader=leader, trick=table)
        r = solver.value(hands, leader, table)
        values = solver.card_values(hands, leader, table)
        mover = (leader + len(table)) % 4
        assert r.best_card in values
        best = max(values.values()) if mover in side else min(values.values())
        assert r.value == best == values[r.best_card]


def test_solver_reuse_across_positions_of_one_deal() -> None:
    rng = random.Random(3)
    order = trick_order("wenz", "short")
    hands = [list(h) for h in _position(rng, order, 4)[0]]
    solver = Solver(order, hands, {0, 2}, leader=0)
    table: list[Card] = []
    lead = 0
    for _ in range(8):  # play two tricks along the solver's best line
        r = solver.value(hands, lead, table)
        assert r.value == solve(order, hands, lead, {0, 2}, table).value
        assert r.best_card is not None
        seat = (lead + len(table)) % 4
        hands[seat].remove(r.best_card)
        table.append(r.best_card)
        if len(table) == 4:
            lead = (lead + order.winner(table)) % 4
            table = []


def test_input_errors() -> None:
    order = trick_order("muck", "short")
    hands = [cards("EA"), cards("E10"), cards("EK"), cards("GA")]
    with pytest.raises(ValueError, match="mode"):
        solve(order, hands, 0, {0, 2}, mode="points")
    with pytest.raises(ValueError, match="four"):
        solve(order, hands[:3], 0, {0, 2})
    with pytest.raises(ValueError, match="twice"):
        solve(order, [cards("EA"), cards("EA"), cards("EK"), cards("GA")], 0, {0})
    with pytest.raises(ValueError, match="do not fit"):
        solve(order, [cards("EA E9"), cards("E10"), cards("EK"), cards("GA")], 0, {0})


# -- the driver's hooks and probes ----------------------------------------------

def test_every_hook_keeps_the_value() -> None:
    """The ordering and bound hooks change the search, never the value or its card."""
    rng = random.Random(18)
    hooks = [TrickRules(greedy_guess=True), TrickRules(sure_trumps=True),
             TrickRules(probe_fresh_four=False),
             TrickRules(sure_trumps=True, probe_fresh_four=False, greedy_guess=True)]
    for _ in range(30):
        order = _order(rng)
        hands, leader, table = _position(rng, order, rng.choice([4, 5]))
        side = rng.choice(SIDES)
        mode = rng.choice(["augen", "tricks"])
        want = solve(order, hands, leader, side, table, mode=mode).value
        for rules in hooks:
            solver = Solver(order, hands, side, leader=leader, trick=table, mode=mode,
                            rules=rules)
            r = solver.value(hands, leader, table)
            assert r.value == want, rules
            assert r.best_card is not None
            assert solver.card_values(hands, leader, table)[r.best_card] == want


def test_bound_answers_a_threshold_question() -> None:
    rng = random.Random(4)
    order = trick_order("muck", "short")
    for _ in range(10):
        hands, leader, trick = _position(rng, order, 6)
        want = solve(order, hands, leader, {0, 2}, trick).value
        solver = Solver(order, hands, {0, 2}, leader=leader, trick=trick)
        remaining, table = solver.position(hands, leader, trick)
        assert solver.bound(remaining, leader, table, want) >= want
        assert solver.bound(remaining, leader, table, want + 1) <= want


def test_the_node_limit_stops_the_search_and_keeps_the_table() -> None:
    rng = random.Random(6)
    order = trick_order("geier", "short")
    hands, leader, trick = _position(rng, order, 6)
    want = solve(order, hands, leader, {1, 3}, trick)
    solver = Solver(order, hands, {1, 3}, leader=leader, trick=trick)
    solver.node_limit = want.nodes // 4
    with pytest.raises(NodeLimitExceeded):
        solver.value(hands, leader, trick)
    solver.node_limit = 1 << 62
    assert solver.value(hands, leader, trick).value == want.value


def test_must_trump_is_a_hook() -> None:
    order = trick_order("muck", "short")
    hands = [cards("EA E10"), cards("HA GA"), cards("EK E9"), cards("G10 GK")]
    a = Solver(order, hands, {0, 2}, must_trump=True)
    b = Solver(order, hands, {0, 2}, rules=TrickRules(must_trump=True))
    after = [cards("E10"), *hands[1:]]
    assert a.legal_cards(after, 0, cards("EA")) == b.legal_cards(after, 0, cards("EA")) \
        == list(cards("HA"))
    assert Solver(order, hands, {0, 2}).legal_cards(after, 0, cards("EA")) == list(cards("GA HA"))


def test_the_games_solvers_are_hooks_on_the_driver() -> None:
    """Issue 18's measure: a game's solver is its hooks (at most 300 lines) and imports
    no private name of the driver."""
    games = Path(__file__).parents[1] / "src" / "stammtisch" / "games"
    schafkopf = games / "schafkopf" / "solver.py"
    assert len(schafkopf.read_text().splitlines()) <= 300
    for path in games.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "stammtisch.analysis"):
                assert not [a.name for a in node.names if a.name.startswith("_")], path


# -- Mucken states -------------------------------------------------------------

def _play_state(rng: random.Random, kind: str, plays: int) -> MuckenState:
    """A Mucken game with random hands: the first bidder calls ``kind``, everyone
    else passes and nobody doubles; then ``plays`` random legal cards."""
    deck = list(SHORT_DECK)
    rng.shuffle(deck)
    rules = MuckenRules.preset("seefest", games=("muck", "wenz", "geier"))
    s = game_from_hands([deck[6 * i:6 * i + 6] for i in range(4)], rules, dealer=rng.randrange(4))
    while s.phase != "play":
        legal = s.legal_actions()
        if Say(kind) in legal and s.bid is None:
            s.apply(Say(kind))
        else:
            s.apply(Say("weiter") if Say("weiter") in legal else Say("gut"))
    for _ in range(plays):
        s.apply(rng.choice(list(s.legal_actions())))
    return s


def test_solve_state_and_card_values_agree() -> None:
    rng = random.Random(11)
    for i in range(8):
        s = _play_state(rng, ("muck", "wenz", "geier")[i % 3], 9 + i % 4)
        mover = s.current_player
        values = card_values(s)
        assert set(values) == set(s.legal_actions())
        mine = solve_state(s, mover % 2)
        theirs = solve_state(s, 1 - mover % 2)
        assert max(values.values()) == mine.value == values[mine.best_card]
        assert mine.value + theirs.value == 120
        assert mine.value >= s.pair_augen()[mover % 2]
        # the other pair's view: its values are the complement
        other = card_values(s, 1 - mover % 2)
        assert {c: 120 - v for c, v in other.items()} == values
        # and the reference from the open hands
        ref = minimax_reference(s.order, s.hands, s.tricks.leader, {mover % 2, mover % 2 + 2},
                                s.tricks.current, s.pair_augen()[mover % 2], memo=True)
        assert mine.value == ref


def test_solve_state_outside_play_is_an_error() -> None:
    s = game_from_hands([SHORT_DECK[6 * i:6 * i + 6] for i in range(4)])
    with pytest.raises(ValueError, match="play phase"):
        solve_state(s, 0)
    with pytest.raises(ValueError, match="pair"):
        solve_state(_play_state(random.Random(1), "muck", 0), 2)


def test_tricks_mode_on_a_state() -> None:
    s = _play_state(random.Random(2), "wenz", 8)
    r0 = solve_state(s, 0, mode="tricks")
    r1 = solve_state(s, 1, mode="tricks")
    assert r0.value + r1.value == 6
    assert r0.mode == "tricks"


# -- the bench command -----------------------------------------------------------

def test_bench_solver_command_json() -> None:
    app = typer.Typer()
    app.command()(solver_command)
    result = CliRunner().invoke(app, ["--deals", "2", "--json", "--seed", "4"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("median_ms", "p95_ms", "median_nodes", "deals", "mean_ms", "max_ms"):
        assert key in data
    assert data["deals"] == 2
    assert data["median_nodes"] > 0
    text = CliRunner().invoke(app, ["--deals", "1"])
    assert text.exit_code == 0 and "median" in text.output
