"""Schafkopf's part of the judge of ``simulate`` and ``arena`` (:mod:`stammtisch.games.
base.judging`): partners change from hand to hand, so a lineup is measured by the cents
paid to its two seats (``returns()``), with the games its seats declared and won and the
first Stoß of a hand; the contracts (``redeal`` for none) and each table's Abrechnung
(the sitting's balances).  Each side of the arena books its hands through a sitting of
its own."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.core import GameState
from stammtisch.games.base.judging import (
    Board,
    Console,
    Figures,
    Rate,
    Statistics,
    interval,
    percent,
    ranked,
    share,
)
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState


class SchafkopfTally:
    """The statistics of one run (see the module)."""

    def __init__(self) -> None:
        self.declared = [[0, 0], [0, 0]]  # per lineup: games declared, won
        self.stoss = [0, 0]
        self.contracts: Counter[str] = Counter()
        self.balances: list[list[int]] = []

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        assert isinstance(state, SchafkopfState)
        r = state.result()
        assert r is not None
        self.contracts[str(r["contract"] or "redeal")] += 1
        if r.get("declarer") is not None and r.get("winner") is not None:
            self.declared[lineup_of_seat[r["declarer"]]][0] += 1
            self.declared[lineup_of_seat[r["declarer"]]][1] += r["winner"] == "declarers"
        for seat, _word in state.stoss[:1]:
            self.stoss[lineup_of_seat[seat]] += 1

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        self.balances.append(match.sheet.to_json()["totals"])

    def _lineup(self, i: int, f: Figures) -> dict[str, Any]:
        return {"bots": f.seatings[0][i::2], "cents": f.totals[i],
                "cents_per_game": f.totals[i] / f.games, "declarer_games": self.declared[i][0],
                "declarer_win_rate": share(self.declared[i][1], self.declared[i][0]),
                "stoss": self.stoss[i]}

    def to_json(self, f: Figures) -> dict[str, Any]:
        lineups = [self._lineup(i, f) for i in (0, 1)]
        if f.arena:
            return {"a": f.seatings[0][0], "b": f.seatings[0][1], "deals": f.deals,
                    "games": f.games, "mean": f.margin, "ci95": f.ci95, "seed": f.seed,
                    "rules": f.rules.name, "cents": f.totals,
                    "stats": [dict(lu, bot=lu["bots"][0]) for lu in lineups],
                    "balances": self.balances, "contracts": ranked(self.contracts),
                    "seconds": f.seconds}
        declared = self.declared[0][0] + self.declared[1][0]
        return {"games": f.games, "deals": f.deals, "seed": f.seed, "rules": f.rules.name,
                "bots": f.seatings[0], "seatings": f.seatings,
                "contracts": ranked(self.contracts), "declarer_games": declared,
                "declarer_win_rate": share(self.declared[0][1] + self.declared[1][1],
                                           declared),
                "balances": self.balances, "lineups": lineups, "margin": f.margin,
                "ci95": f.ci95, "seconds": f.seconds, "games_per_s": f.per_second(f.games)}


def _lineup(lu: Mapping[str, Any], name: str) -> str:
    return (f"  {name}: {lu['cents']:+d} cents ({lu['cents_per_game']:+.2f}/game), declared "
            f"{lu['declarer_games']} (won {percent(lu['declarer_win_rate'])}), "
            f"Stoß {lu['stoss']}")


class SchafkopfStatistics(Statistics):
    """Schafkopf in ``simulate`` and ``arena`` (see the module)."""

    margin_scale = 2.0  # a game's margin: the cents of a lineup's two seats
    arena_matches = True

    def start(self, rules: Any, board: Board, seats: int) -> GameState:
        assert isinstance(rules, SchafkopfRules)
        return SchafkopfState(rules, board.dealer)

    def tally(self, arena: bool) -> SchafkopfTally:
        return SchafkopfTally()

    def print_report(self, out: Mapping[str, Any], console: Console, rate: Rate,
                     arena: bool) -> None:
        if arena:
            console.print(f"[bold]{out['a']} vs {out['b']}[/bold]: {out['deals']} deals, "
                          f"{out['games']} games (each deal with the seats swapped), rules "
                          f"{out['rules']}, seed {out['seed']}, {out['seconds']:.1f} s")
            for s in out["stats"]:
                console.print(_lineup(s, s["bot"]))
            console.print(f"[bold]Mean difference {out['a']} − {out['b']}: {out['mean']:+.2f}"
                          f" cents per game[/bold] (95% CI "
                          f"{interval(out['ci95'], 2, 'n/a (one deal)')})")
            return
        a, b = ("+".join(lu["bots"]) for lu in out["lineups"])
        console.print(f"[bold]{out['games']} games[/bold] ({out['deals']} deals, each at two "
                      f"tables with the seats swapped), rules {out['rules']}, seed "
                      f"{out['seed']}")
        console.print("Seats (table A): " + ", ".join(f"{s}={n}" for s, n in
                                                       enumerate(out["bots"])))
        console.print("Games: " + ", ".join(f"{k} {v}" for k, v in out["contracts"].items()))
        console.print(f"Declarer win rate: {percent(out['declarer_win_rate'])} of "
                      f"{out['declarer_games']} games")
        for lu, name in zip(out["lineups"], (a, b), strict=True):
            console.print(_lineup(lu, name))
        console.print(f"[bold]Margin {a} over {b}: {out['margin']:+.2f} cents per game"
                      f"[/bold] (95% CI {interval(out['ci95'], 2)})")


#: Schafkopf's statistics (``GamePlugin.statistics``)
STATISTICS = SchafkopfStatistics()
