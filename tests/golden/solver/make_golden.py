"""Write the solver's golden values (``mucken.json``, ``schafkopf.json`` beside this file).

The cases are random deals and positions (fixed seeds): Mucken's Muck, Wenz and Geier
(and a few Farbsoli, long-deck, tricks-mode and must-trump positions) through
:mod:`stammtisch.analysis.solver`, Schafkopf's contracts (Rufspiel with the called ace,
Solo, Wenz, Geier, Farbwenz, Bettel, Tout) through :mod:`stammtisch.games.schafkopf.solver`.
Each case stores its inputs and what the solver answered: the value, the nodes searched,
the best card, the value after each legal card, the solver's legal cards, threshold probes
and where a node limit stops the search.  ``tests/test_solver_golden.py`` replays them.

The values were generated from the solver before it became one driver with per-game
hooks (issue 18); rerun only to add cases, with the old code on ``PYTHONPATH``::

    PYTHONPATH=<old checkout>/src .venv/bin/python tests/golden/solver/make_golden.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from stammtisch.analysis.solver import Solver, solve
from stammtisch.cards import LONG_DECK, SHORT_DECK, Card, Rank, Suit
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.schafkopf.games import CALL_SUITS, NORMAL, order_for
from stammtisch.games.schafkopf.solver import Contract, NodeLimitExceeded, SchafkopfSolver

HERE = Path(__file__).parent
MUCKEN_FULL = 150
MUCKEN_POSITIONS = 150
SCHAFKOPF_FULL = 12
SCHAFKOPF_POSITIONS = 250
FULL_NODES = 300_000
SIDES = ((0, 2), (1, 3), (0,), (1, 2, 3))
SK_KINDS = ("sauspiel", "sauspiel", "sauspiel", "solo", "wenz", "geier", "farbwenz", "bettel",
            "tout")
FARB = (Suit.EICHEL, Suit.GRAS, Suit.HERZ, Suit.SCHELLEN)


def names(cs: list[Card]) -> list[str]:
    return [str(c) for c in cs]


def parse(cs: list[str]) -> list[Card]:
    return [Card.parse(c) for c in cs]


def mucken_order(case: dict[str, Any]) -> Any:
    suit = Suit[case["suit"]] if case["suit"] else None
    return trick_order(case["kind"], case["deck"], suit)


def random_table(rng: random.Random, order: Any, hands: list[list[Card]], leader: int,
                 must_trump: bool, k: int) -> list[Card]:
    """``k`` legal cards (plain follow rules) played from ``leader`` on."""
    table: list[Card] = []
    for j in range(k):
        seat = (leader + j) % 4
        c = rng.choice(order.legal(hands[seat], table[0] if table else None,
                                   must_trump=must_trump))
        hands[seat].remove(c)
        table.append(c)
    return table


def mucken_cases() -> list[dict[str, Any]]:
    rng = random.Random(18_001)
    out: list[dict[str, Any]] = []
    for i in range(MUCKEN_FULL + MUCKEN_POSITIONS):
        full = i < MUCKEN_FULL
        kind = rng.choice(("muck", "wenz", "geier") if full or rng.random() < 0.8
                          else ("farbsolo",))
        suit = rng.choice((Suit.EICHEL, Suit.GRAS, Suit.SCHELLEN)) if kind == "farbsolo" \
            else None
        deck = "long" if not full and rng.random() < 0.15 else "short"
        pool = list(LONG_DECK if deck == "long" else SHORT_DECK)
        rng.shuffle(pool)
        tricks = 6 if full else rng.choice((3, 4, 4, 5, 5, 6))
        hands = [pool[s * tricks:(s + 1) * tricks] for s in range(4)]
        case: dict[str, Any] = {"kind": kind, "suit": suit.name if suit else None,
                                "deck": deck}
        order = mucken_order(case)
        if full:
            leader, table, side, mode, must = 0, [], (0, 2), "augen", False
        else:
            leader = rng.randrange(4)
            must = rng.random() < 0.2
            table = random_table(rng, order, hands, leader, must, rng.randrange(4))
            side = rng.choice(SIDES)
            mode = rng.choice(("augen", "augen", "tricks"))
        case.update(hands=[names(h) for h in hands], leader=leader, trick=names(table),
                    side=list(side), mode=mode, must_trump=must)
        out.append(case)
    return out


def mucken_answer(case: dict[str, Any]) -> dict[str, Any]:
    order = mucken_order(case)
    hands = [parse(h) for h in case["hands"]]
    trick = parse(case["trick"])
    r = solve(order, hands, case["leader"], set(case["side"]), trick, 0, mode=case["mode"],
              must_trump=case["must_trump"])
    out: dict[str, Any] = {"value": r.value, "nodes": r.nodes,
                           "best": str(r.best_card) if r.best_card else None}
    if len(case["hands"][0]) <= 5 or case["trick"]:
        s = Solver(order, hands, set(case["side"]), leader=case["leader"], trick=trick,
                   mode=case["mode"], must_trump=case["must_trump"])
        cv = s.card_values(hands, case["leader"], trick)
        out["card_values"] = {str(c): v for c, v in cv.items()}
        out["card_values_nodes"] = s.nodes
    return out


def sk_contract(case: dict[str, Any]) -> Contract:
    suit = Suit[case["suit"]] if case["suit"] else None
    called = Card.parse(case["called"]) if case["called"] else None
    kind = "wenz" if case["kind"] == "tout" else case["kind"]
    return Contract(case["kind"], order_for(kind, suit), case["mode"], frozenset(case["side"]),
                    called, case["davonlaufen"])


def sk_legal(rng: random.Random, order: Any, hands: list[list[Card]], leader: int,
             called: Card | None, dav: bool, gesucht: bool, k: int) -> list[Card]:
    """``k`` cards played from ``leader`` by the engine's rule, mirrored here (the solver's
    own legal cards are checked against the engine in tests/schafkopf/test_solver.py)."""
    table: list[Card] = []
    for j in range(k):
        seat = (leader + j) % 4
        hand = hands[seat]
        led = table[0] if table else None
        legal = list(order.legal(hand, led))
        if called is not None and called in hand and not gesucht:
            csuit = [c for c in hand if order.klass(c) == order.klass(called)]
            if led is None:
                if not (dav and len(csuit) >= 4):
                    legal = [c for c in legal if c == called
                             or order.klass(c) != order.klass(called)]
            elif order.klass(led) == order.klass(called):
                legal = [called]
            elif len(legal) > 1:
                legal = [c for c in legal if c != called]
        c = rng.choice(legal)
        hand.remove(c)
        table.append(c)
    return table


def schafkopf_cases() -> list[dict[str, Any]]:
    rng = random.Random(18_002)
    out: list[dict[str, Any]] = []
    while len(out) < SCHAFKOPF_FULL + SCHAFKOPF_POSITIONS:
        full = len(out) < SCHAFKOPF_FULL
        kind = rng.choice(SK_KINDS)
        suit = rng.choice(FARB) if kind in ("solo", "farbwenz") else None
        order = order_for("wenz" if kind == "tout" else kind, suit)
        pool = list(LONG_DECK)
        rng.shuffle(pool)
        hands = [pool[8 * s: 8 * s + 8] for s in range(4)]
        declarer = max(range(4), key=lambda s: (sum(order.is_trump(c) for c in hands[s]), -s))
        if kind == "bettel":
            declarer = rng.randrange(4)
        side = {declarer}
        called = None
        if kind == "sauspiel":
            calls = [s for s in CALL_SUITS if Card.of(s, Rank.ASS) not in hands[declarer]
                     and any(c.suit is s and not NORMAL.is_trump(c) for c in hands[declarer])]
            if not calls:
                continue
            called = Card.of(rng.choice(calls), Rank.ASS)
            side.add(next(s for s in range(4) if called in hands[s]))
        mode = "tricks" if kind in ("bettel", "tout") else "augen"
        dav = rng.random() < 0.7
        leader, gesucht, table = 0, False, []
        if not full:
            # whole tricks played at random (legal by the rule above), then a part trick
            left = rng.choice((3, 3, 4, 4, 5, 5))
            for _ in range(8 - left):
                played = sk_legal(rng, order, hands, leader, called, dav, gesucht, 4)
                if called is not None and order.klass(played[0]) == order.klass(called):
                    gesucht = True  # the called suit was led (a finished trick)
                leader = (leader + order.winner(played)) % 4
            table = sk_legal(rng, order, hands, leader, called, dav, gesucht,
                             rng.randrange(4))
        out.append({"kind": kind, "suit": suit.name if suit else None, "mode": mode,
                    "side": sorted(side), "called": str(called) if called else None,
                    "davonlaufen": dav, "hands": [names(h) for h in hands], "leader": leader,
                    "trick": names(table), "gesucht": gesucht})
    return out


def schafkopf_answer(case: dict[str, Any]) -> dict[str, Any]:
    contract = sk_contract(case)
    hands = [parse(h) for h in case["hands"]]
    trick = parse(case["trick"])
    leader, gesucht = case["leader"], case["gesucht"]
    s = SchafkopfSolver.for_contract(contract, hands, leader=leader, trick=trick)
    r = s.solve_position(hands, leader, trick, gesucht=gesucht)
    out: dict[str, Any] = {"value": r.value, "nodes": r.nodes,
                           "best": str(r.best_card) if r.best_card else None}
    out["legal"] = names(s.legal_cards(hands, leader, trick, gesucht=gesucht))
    if len(case["hands"][0]) < 8:
        s = SchafkopfSolver.for_contract(contract, hands, leader=leader, trick=trick)
        cv = s.card_values_at(hands, leader, trick, gesucht=gesucht)
        out["card_values"] = {str(c): v for c, v in cv.items()}
        out["card_values_nodes"] = s.nodes
        total = 120 if contract.mode == "augen" else 8
        levels = sorted({total // 4, total // 2, 3 * total // 4})
        s = SchafkopfSolver.for_contract(contract, hands, leader=leader, trick=trick)
        pc = s.probe_cards(hands, leader, trick, levels, gesucht=gesucht)
        out["probe_levels"] = levels
        out["probe"] = {str(c): v for c, v in pc.items()}
        out["probe_nodes"] = s.nodes
    limit = max(1, r.nodes // 3)
    s = SchafkopfSolver.for_contract(contract, hands, leader=leader, trick=trick)
    s.node_limit = limit
    try:
        s.solve_position(hands, leader, trick, gesucht=gesucht)
        stopped = False
    except NodeLimitExceeded:
        stopped = True
    out["limit"] = {"node_limit": limit, "stopped": stopped, "nodes": s.nodes}
    return out


def main() -> None:
    muck = [{**c, "answer": mucken_answer(c)} for c in mucken_cases()]
    (HERE / "mucken.json").write_text(json.dumps(muck, indent=0) + "\n")
    print(f"mucken: {len(muck)} cases", file=sys.stderr)
    sk = []
    for c in schafkopf_cases():
        a = schafkopf_answer(c)
        if a["nodes"] <= FULL_NODES:  # whole deals past it take seconds: left out
            sk.append({**c, "answer": a})
    (HERE / "schafkopf.json").write_text(json.dumps(sk, indent=0) + "\n")
    print(f"schafkopf: {len(sk)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
