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
from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.core import GameState
from stammtisch.games.base import judging
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
    arena_keys = ("game a b deals hands seed rules jobs points_per_hand ci95 points "
                  "points_per_hand_by_bot ordagos status decision_ms seconds")
    simulate_keys = ("game games hands seed bots rules points points_per_hand margin ci95 "
                     "sets_won matches_won ordagos status decision_ms seconds hands_per_s")
    unit, mean_key = "points per hand", "points_per_hand"

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        assert isinstance(state, MusState)
        result = state.result()
        assert result is not None
        for pair, points in enumerate(hand_points(state)):
            self.count(lineup_of_seat[pair], points=points)
        if result["set_winner"] is not None:
            self.count(lineup_of_seat[result["set_winner"]], sets_won=1)
        self.kinds.update(result["status"].items())  # (lance, status)
        self.counts["ordagos"] += "ordago" in result["status"].values()

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        if match.is_over():
            self.count(lineup_of_seat[match.match.winner()], matches_won=1)

    def fields(self, f: judging.Figures) -> dict[str, Any]:
        games, points = f.games, self.column("points")
        return {"rules": f.rules.to_json(), "points": points, "sets_won": self.column("sets_won"),
                "points_per_hand": f.margin if f.arena else [p / games for p in points],
                "points_per_hand_by_bot": {"a": points[0] / games, "b": points[1] / games},
                "matches_won": self.column("matches_won"), "ordagos": self.counts["ordagos"],
                "status": {lance: {st: n for (la, st), n in sorted(self.kinds.items())
                                   if la == lance} for lance in LANCES},
                "decision_ms": {name: judging.decision_ms(ts, ("median", "p95"))
                                for name, ts in sorted(f.times.items())},
                "seconds": round(f.seconds, 3),
                "hands_per_s": round(games / f.seconds, 2) if f.seconds > 0 else None}

    def draw(self, rules: Any, master: random.Random, number: int, seats: int,
             arena: bool) -> judging.Board:
        cards, bots = master.getrandbits(64), master.getrandbits(64)
        if not arena:
            return judging.Board(number, 0, bots, chance_seed=cards)
        scores = (master.randrange(rules.target), master.randrange(rules.target))
        return judging.Board(number, number % 4, bots, chance_seed=cards, scores=scores)

    def start(self, rules: Any, board: judging.Board, seats: int) -> MusState:
        assert board.scores is not None
        return MusState(rules, board.dealer, (board.scores[0], board.scores[1]))

    def values(self, state: GameState) -> list[int]:
        assert isinstance(state, MusState)
        points = hand_points(state)
        return [points[seat % 2] for seat in range(4)]

    def lines(self, out: Mapping[str, Any], rate: judging.Rate, arena: bool) -> list[Any]:
        if arena:
            lines = [judging.words(line, out) for line in (
                "[bold]{a} vs {b}[/bold] (Mus): {deals} deals, {hands} hands (each deal with "
                "the pairs' seats swapped), seed {seed}, {seconds:.1f} s",
                "  points: {a} {points[0]}, {b} {points[1]}; accepted ordagos {ordagos}")]
        else:
            lines = [judging.words(line, out, bots=", ".join(out["bots"])) for line in (
                "[bold]Mus[/bold]: {hands} hands, seed {seed}, {seconds:.1f} s; seats {bots}",
                "  points: pair 0 (seats 0+2) {points[0]}, pair 1 (seats 1+3) {points[1]}; sets "
                "won {sets_won[0]}:{sets_won[1]}, matches won {matches_won[0]}:{matches_won[1]}, "
                "accepted ordagos {ordagos}")]
            lines += [f"  {lance}: {judging.listing(counts)}"
                      for lance, counts in out["status"].items()]
        return lines + [judging.words("  {name}: decision median {median:.2f} ms, p95 {p95:.2f} "
                                      "ms ({decisions} decisions)", ms, name=name)
                        for name, ms in out["decision_ms"].items()]

    def margin_of(self, out: Mapping[str, Any]) -> str:
        return "Margin pair 0 over pair 1"


#: Mus's statistics (``GamePlugin.statistics``)
STATISTICS = MusStatistics()
