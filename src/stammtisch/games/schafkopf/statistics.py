"""Schafkopf's part of the judge of ``simulate`` and ``arena``
(:mod:`stammtisch.games.base.judging`).  Partners change from hand to hand, so a lineup
is measured by the cents paid to its two seats, with the games its seats declared and won
and the first Stoß of a hand; also the contracts (``redeal`` for none) and the balances
of each table's Abrechnung (each side of the arena keeps a sitting of its own)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.core import GameState
from stammtisch.games.base import judging
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState


class SchafkopfStatistics(judging.Statistics):
    """Schafkopf in ``simulate`` and ``arena``, and a run's statistics (see the module)."""

    margin_scale = 2.0  # a game's margin: the cents of a lineup's two seats
    arena_matches = True

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

    def to_json(self, f: judging.Figures) -> dict[str, Any]:
        lineups: list[dict[str, Any]] = [
            {"bots": f.seatings[0][i::2], "cents": f.totals[i],
             "cents_per_game": f.totals[i] / f.games, "declarer_games": self.declared[i][0],
             "declarer_win_rate": judging.share(self.declared[i][1], self.declared[i][0]),
             "stoss": self.stoss[i]} for i in (0, 1)]
        declared = self.declared[0][0] + self.declared[1][0]
        return f.pick(
            "a b deals games mean ci95 seed rules cents stats balances contracts seconds"
            if f.arena else "games deals seed rules bots seatings contracts declarer_games "
            "declarer_win_rate balances lineups margin ci95 seconds games_per_s",
            {"rules": f.rules.name, "cents": f.totals, "lineups": lineups,
             "stats": [{**lu, "bot": lu["bots"][0]} for lu in lineups],
             "balances": self.balances, "contracts": judging.ranked(self.contracts),
             "declarer_games": declared, "declarer_win_rate": judging.share(
                 self.declared[0][1] + self.declared[1][1], declared)})

    def start(self, rules: Any, board: judging.Board, seats: int) -> GameState:
        assert isinstance(rules, SchafkopfRules)
        return SchafkopfState(rules, board.dealer)

    def print_report(self, out: Mapping[str, Any], console: judging.Console,
                     rate: judging.Rate, arena: bool) -> None:
        lineups = out["stats"] if arena else out["lineups"]
        names = [s["bot"] for s in lineups] if arena else ["+".join(s["bots"]) for s in lineups]
        if arena:
            console.print(f"[bold]{out['a']} vs {out['b']}[/bold]: {out['deals']} deals, "
                          f"{out['games']} games (each deal with the seats swapped), rules "
                          f"{out['rules']}, seed {out['seed']}, {out['seconds']:.1f} s")
        else:
            console.print(f"[bold]{out['games']} games[/bold] ({out['deals']} deals, each at "
                          f"two tables with the seats swapped), rules {out['rules']}, seed "
                          f"{out['seed']}")
            console.print("Seats (table A): " + ", ".join(f"{s}={n}" for s, n in
                                                           enumerate(out["bots"])))
            console.print("Games: " + ", ".join(f"{k} {v}" for k, v in out["contracts"].items()))
            console.print(f"Declarer win rate: {judging.percent(out['declarer_win_rate'])} of "
                          f"{out['declarer_games']} games")
        for lu, name in zip(lineups, names, strict=True):
            console.print(f"  {name}: {lu['cents']:+d} cents ({lu['cents_per_game']:+.2f}/game)"
                          f", declared {lu['declarer_games']} (won "
                          f"{judging.percent(lu['declarer_win_rate'])}), Stoß {lu['stoss']}")
        if arena:
            console.print(judging.verdict(f"Mean difference {out['a']} − {out['b']}",
                                          out["mean"], "cents per game", out["ci95"], 2,
                                          "n/a (one deal)"))
        else:
            console.print(judging.verdict(f"Margin {names[0]} over {names[1]}", out["margin"],
                                          "cents per game", out["ci95"], 2))

#: Schafkopf's statistics (``GamePlugin.statistics``)
STATISTICS = SchafkopfStatistics()
