"""The Schafkopf double-dummy solver: its moves are the engine's, its values plain
minimax's (through the engine itself), on random positions of every game kind."""

from __future__ import annotations

import random
from functools import cache

import pytest
from sk_positions import play_random, random_contract_state

from stammtisch.cards import Card, cards
from stammtisch.games.schafkopf.solver import (
    SchafkopfSolver,
    card_values,
    contract_of,
    solve,
    solve_state,
)
from stammtisch.games.schafkopf.state import SchafkopfState


def engine_minimax(state: SchafkopfState) -> int:
    """Plain minimax through the engine (clone + legal_actions); the declaring side's final
    value: Augen, or tricks in Bettel and Tout.  Exact values memoised at trick
    boundaries (cards held, leader, gesucht)."""
    contract = contract_of(state)
    side = contract.side
    memo: dict[tuple[object, ...], int] = {}

    def value(s: SchafkopfState) -> int:
        t = s.tricks
        if s.is_terminal():
            if contract.mode == "augen":
                return sum(t.augen[x] for x in side)
            return sum(1 for w in t.winners if w in side)
        key = None
        if not t.current:
            key = (tuple(frozenset(h) for h in s.hands), t.leader, s.gesucht,
                   sum(t.augen[x] for x in side), sum(1 for w in t.winners if w in side))
            if key in memo:
                return memo[key]
        maxing = s.current_player in side
        best = None
        for a in s.legal_actions():
            c = s.clone()
            c.apply(a)
            v = value(c)
            if best is None or (v > best if maxing else v < best):
                best = v
        assert best is not None
        if key is not None:
            memo[key] = best
        return best

    return value(state)


@cache
def _positions(seed: int, n: int, lo: int, hi: int) -> list[SchafkopfState]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = random_contract_state(rng, kinds=("sauspiel",) if len(out) % 2 else ())
        play_random(s, rng, rng.randrange(lo, hi))
        if not s.is_terminal():
            out.append(s)
    return out


def test_legal_moves_equal_the_engine() -> None:
    """On random positions of random games (Rufspiel with called-card rules, Solo, Wenz,
    Geier, Farbwenz, Bettel, Tout, Hochzeit) the solver's moves are the engine's."""
    rng = random.Random(5)
    checked = ruf = 0
    for i in range(150):
        s = random_contract_state(rng, kinds=("sauspiel",) if i % 2 else ())
        contract = contract_of(s)
        solver = SchafkopfSolver.for_contract(contract, s.hands, leader=s.tricks.leader)
        while not s.is_terminal():
            t = s.tricks
            mine = solver.legal_cards(s.hands, t.leader, t.current, gesucht=s.gesucht)
            engine = list(s.legal_actions())
            assert sorted(mine, key=str) == sorted(engine, key=str), (s.contract, s.history)
            checked += 1
            ruf += s.called is not None and s.called in s.hands[s.current_player]
            c = rng.choice(engine)
            assert isinstance(c, Card)
            s.apply(c)
    assert checked > 3000 and ruf > 300


@pytest.mark.parametrize("seed", range(4))
def test_values_equal_minimax_on_endgames(seed: int) -> None:
    for s in _positions(seed, 8, 14, 24):
        assert solve_state(s).value == engine_minimax(s), (s.contract, s.history)


def test_best_card_reaches_the_value_and_card_values_agree() -> None:
    for s in _positions(11, 8, 16, 22):
        r = solve_state(s)
        values = card_values(s)
        assert set(values) == set(s.legal_actions())
        mover_declares = s.current_player in contract_of(s).side
        best = max(values.values()) if mover_declares else min(values.values())
        assert best == r.value
        assert r.best_card is not None and values[r.best_card] == r.value


def test_the_holder_must_play_the_called_ace() -> None:
    from stammtisch.games.schafkopf.games import order_for
    from stammtisch.games.schafkopf.solver import Contract

    ruf = Contract("sauspiel-gras", order_for("sauspiel", None), "augen", frozenset({0, 1}),
                   cards("GA")[0])
    # Gras led, seat 1 holds the ace and G8 and must play the ace
    hands = [cards("G7 E7"), cards("GA G8"), cards("G10 E8"), cards("GK E9")]
    solver = SchafkopfSolver.for_contract(ruf, hands)
    after = [cards("E7"), *hands[1:]]
    assert solver.legal_cards(after, 0, cards("G7")) == list(cards("GA"))
    assert set(solver.legal_cards(after, 0, cards("G7"), gesucht=True)) == set(cards("GA G8"))
    hands = [cards("G7 E7"), cards("GA G8"), cards("G10 E8"), cards("GK E9")]
    r = solve(ruf, hands, 0)
    assert r.value == 25  # the ace takes the Gras trick; E9 takes the last


def test_without_a_called_card_the_generic_solver_agrees() -> None:
    from stammtisch.analysis.solver import solve as generic_solve

    rng = random.Random(3)
    for _ in range(3):
        s = random_contract_state(rng, kinds=("solo", "wenz", "geier", "farbwenz"))
        play_random(s, rng, 8)
        c = contract_of(s)
        t = s.tricks
        mine = solve(c, s.hands, t.leader, t.current).value
        assert mine == generic_solve(c.order, s.hands, t.leader, c.side, t.current,
                                     mode=c.mode).value


def test_bettel_and_tout_count_tricks() -> None:
    from stammtisch.games.schafkopf.games import order_for
    from stammtisch.games.schafkopf.solver import Contract

    hands = [cards("E7 G7"), cards("EA GA"), cards("E10 G10"), cards("EK GK")]
    bettel = Contract("bettel", order_for("bettel", None), "tricks", frozenset({0}))
    assert solve(bettel, hands, 0).value == 0 and bettel.declarers_win(0)
    tout = Contract("wenz-tout", order_for("wenz", None), "tricks", frozenset({1}))
    assert solve(tout, hands, 0).value == 2 and tout.declarers_win(8)


def test_analysis_judges_every_card_of_a_rufspiel() -> None:
    from stammtisch.games.schafkopf.analysis import analyze

    rng = random.Random(21)
    s = random_contract_state(rng, kinds=("sauspiel",))
    play_random(s, rng, 32)
    plays = analyze(s)
    assert [p.index for p in plays] == list(range(32))
    assert all(p.loss >= 0 for p in plays)
    assert all((p.card in p.best) == (p.loss == 0) for p in plays)
    # the value before the last card is the final value; the losses add up along the way
    final = sum(s.tricks.augen[x] for x in contract_of(s).side)
    assert plays[-1].value_after == final
    r = s.result()
    assert r is not None
    won = r["winner"] == "declarers"
    assert contract_of(s).declarers_win(final) == won


@pytest.mark.parametrize("seed", range(20, 23))
def test_sure_trump_bound_keeps_the_minimax_value(seed: int) -> None:
    """The cut by the sure Augen (the top run of the trumps left, held by one side) does
    not change a value: longer endgames (four or five tricks left) against minimax."""
    for s in _positions(seed, 6, 15, 20):
        assert solve_state(s).value == engine_minimax(s), (s.contract, s.history)
