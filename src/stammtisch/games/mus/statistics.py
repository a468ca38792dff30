"""Mus's part of the judge of ``simulate`` and ``arena`` (:mod:`stammtisch.games.base.
judging`).  A hand is judged by its own points (:func:`hand_points`).  A deal is a seed
for the cards (the shuffle and every reshuffle of the hand come from one stream seeded
with it, so every seating holds the same cards and draws the same stock) and one for the
bots; an arena deal also has its dealer (``i mod 4``) and a running score to start from
(each pair 0 to ``target`` − 1, so the ordago and the target matter as in a real set).
``simulate`` plays at one table: matches, hand after hand.  Per pair or bot: the points,
the lances' statuses, the accepted ordagos, sets and matches won, the decision times.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.core import GameState
from stammtisch.games.base import judging
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import LANCES, MusState

__all__ = ["STATISTICS", "MusStatistics", "hand_points"]


def hand_points(state: MusState) -> list[int]:
    """The points of a finished hand by pair.  A set won by an accepted ordago adds no
    points, so its winner is credited with the points it still needed to reach the target
    (what winning the set is worth at that score); the losers get nothing."""
    result = state.result()
    if result is None:
        raise judging.JudgeError("the hand is not finished")
    points = [result["score"][p] - state.start_score[p] for p in (0, 1)]
    if "ordago" in result["status"].values() and result["set_winner"] is not None:
        w = result["set_winner"]
        points[w] += max(state.rules.target - result["score"][w], 0)
    return points


class MusStatistics(judging.Statistics):
    """Mus in ``simulate`` and ``arena``, and a run's statistics (see the module)."""

    simulate_tables = 1

    def __init__(self) -> None:
        self.points = [0, 0]
        self.sets_won = [0, 0]
        self.matches_won = [0, 0]
        self.status: Counter[tuple[str, str]] = Counter()
        self.ordagos = 0

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        assert isinstance(state, MusState)
        result = state.result()
        assert result is not None
        for pair, points in enumerate(hand_points(state)):
            self.points[lineup_of_seat[pair]] += points
        if result["set_winner"] is not None:
            self.sets_won[lineup_of_seat[result["set_winner"]]] += 1
        self.status.update(result["status"].items())
        self.ordagos += "ordago" in result["status"].values()

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        if match.is_over():
            self.matches_won[lineup_of_seat[match.match.winner()]] += 1

    def to_json(self, f: judging.Figures) -> dict[str, Any]:
        games, seconds = f.games, round(f.seconds, 3)
        return f.pick(
            "game a b deals hands seed rules jobs points_per_hand ci95 points "
            "points_per_hand_by_bot ordagos status decision_ms seconds" if f.arena else
            "game games hands seed bots rules points points_per_hand margin ci95 sets_won "
            "matches_won ordagos status decision_ms seconds hands_per_s",
            {"rules": f.rules.to_json(), "points": self.points, "sets_won": self.sets_won,
             "points_per_hand": f.margin if f.arena else [p / games for p in self.points],
             "points_per_hand_by_bot": {"a": self.points[0] / games,
                                        "b": self.points[1] / games},
             "matches_won": self.matches_won, "ordagos": self.ordagos,
             "status": {lance: {st: n for (la, st), n in sorted(self.status.items())
                                if la == lance} for lance in LANCES},
             "decision_ms": {name: judging.decision_ms(ts, ("median", "p95"))
                             for name, ts in sorted(f.times.items())},
             "seconds": seconds,
             "hands_per_s": round(games / f.seconds, 2) if f.seconds > 0 else None})

    def draw(self, rules: Any, master: random.Random, number: int, seats: int,
             arena: bool) -> judging.Board:
        cards, bots = master.getrandbits(64), master.getrandbits(64)
        if not arena:
            return judging.Board(number, 0, bots, chance_seed=cards)
        scores = (master.randrange(rules.target), master.randrange(rules.target))
        return judging.Board(number, number % 4, bots, chance_seed=cards, scores=scores)

    def start(self, rules: Any, board: judging.Board, seats: int) -> MusState:
        assert isinstance(rules, MusRules) and board.scores is not None
        return MusState(rules, board.dealer, (board.scores[0], board.scores[1]))

    def values(self, state: GameState) -> list[int]:
        assert isinstance(state, MusState)
        points = hand_points(state)
        return [points[seat % 2] for seat in range(4)]

    def print_report(self, out: Mapping[str, Any], console: judging.Console,
                     rate: judging.Rate, arena: bool) -> None:
        if arena:
            console.print(f"[bold]{out['a']} vs {out['b']}[/bold] (Mus): {out['deals']} "
                          f"deals, {out['hands']} hands (each deal with the pairs' seats "
                          f"swapped), seed {out['seed']}, {out['seconds']:.1f} s")
            console.print(f"  points: {out['a']} {out['points'][0]}, {out['b']} "
                          f"{out['points'][1]}; accepted ordagos {out['ordagos']}")
        else:
            console.print(f"[bold]Mus[/bold]: {out['hands']} hands, seed {out['seed']}, "
                          f"{out['seconds']:.1f} s; seats {', '.join(out['bots'])}")
            console.print(
                f"  points: pair 0 (seats 0+2) {out['points'][0]}, pair 1 (seats 1+3) "
                f"{out['points'][1]}; sets won {out['sets_won'][0]}:{out['sets_won'][1]}, "
                f"matches won {out['matches_won'][0]}:{out['matches_won'][1]}, accepted "
                f"ordagos {out['ordagos']}")
            for lance, counts in out["status"].items():
                console.print(f"  {lance}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        for name, ms in out["decision_ms"].items():
            console.print(f"  {name}: decision median {ms['median']:.2f} ms, p95 "
                          f"{ms['p95']:.2f} ms ({ms['decisions']} decisions)")
        console.print(judging.verdict(f"Mean difference {out['a']} − {out['b']}",
                                      out["points_per_hand"], "points per hand", out["ci95"],
                                      none="n/a (one deal)") if arena else
                      judging.verdict("Margin pair 0 over pair 1", out["margin"],
                                      "points per hand", out["ci95"]))

#: Mus's statistics (``GamePlugin.statistics``)
STATISTICS = MusStatistics()
