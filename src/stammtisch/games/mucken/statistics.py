"""Mucken's part of the judge of ``simulate`` and ``arena`` (:mod:`stammtisch.games.base.
judging`): per lineup the points credited to its pair, the games won, the games declared
and won, the Kontra given and the Bobbl of the score sheets (a new sheet after each
Hänger); the contracts.  A simulated deal is a shuffle the bots cut; an arena deal gives
the hands directly (no Abheben) with dealer ``i mod 4``, and each side of the arena books
its games through a match of its own (the Einwerfen factors, the Bobbl).  The margin
counts a game's points once (the pair that wins them against the other)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.core import Deal, GameState
from stammtisch.games.base import judging
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState

_LINEUP = ("points", "games_won", "bobbl", "declarer_games", "declarer_wins", "kontra")


def _name(bots: list[str]) -> str:
    return bots[0] if bots[0] == bots[1] else "+".join(bots)


class MuckenStatistics(judging.Statistics):
    """Mucken in ``simulate`` and ``arena``, and a run's statistics (see the module)."""

    margin_scale = 0.5  # a game's margin: the winners' points (each pair's return ±score)
    arena_matches = True

    def __init__(self) -> None:
        self.lineups = [dict.fromkeys(_LINEUP, 0) for _ in range(2)]
        self.contracts: Counter[str] = Counter()
        self.points = [0, 0]  # by pair (seats 0+2, 1+3), both tables added
        self.bobbl = [0, 0]
        self.score = 0

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        assert isinstance(state, MuckenState) and state.outcome is not None
        o, declarer = state.outcome, state.declarer
        self.contracts[state.contract] += 1
        self.score += o.score
        if o.winner is not None:
            self.points[o.winner] += o.score
            self.lineups[lineup_of_seat[o.winner]]["points"] += o.score
            self.lineups[lineup_of_seat[o.winner]]["games_won"] += 1
        if declarer is not None:
            self.lineups[lineup_of_seat[declarer]]["declarer_games"] += 1
            self.lineups[lineup_of_seat[declarer]]["declarer_wins"] += o.winner == declarer % 2
            if state.doubling_seats:
                self.lineups[lineup_of_seat[state.doubling_seats[0]]]["kontra"] += 1

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        for pair, won in enumerate(match.sheet.bobbl_won()):
            self.bobbl[pair] += won
            self.lineups[lineup_of_seat[pair]]["bobbl"] += won

    def _lineup(self, i: int, f: judging.Figures) -> dict[str, Any]:
        lu = self.lineups[i]
        out = {"points": lu["points"], "points_per_game": lu["points"] / f.games,
               "games_won": lu["games_won"], "bobbl": lu["bobbl"],
               "declarer_games": lu["declarer_games"],
               "declarer_win_rate": judging.share(lu["declarer_wins"], lu["declarer_games"]),
               "kontra": lu["kontra"]}
        if f.arena:
            del out["bobbl"]
            return {"bot": f.seatings[0][i], **out}
        return {"bots": f.seatings[0][i::2], **out}

    def to_json(self, f: judging.Figures) -> dict[str, Any]:
        lineups = [self._lineup(i, f) for i in (0, 1)]
        declared = sum(lu["declarer_games"] for lu in self.lineups)
        return f.pick(
            "a b deals games mean ci95 bobbl seed rules points stats contracts seconds"
            if f.arena else "games deals seed rules bots seatings contracts declarer_games "
            "declarer_win_rate average_score points bobbl lineups margin ci95 seconds "
            "games_per_s",
            {"rules": f.rules.name, "stats": lineups, "lineups": lineups,
             "contracts": judging.ranked(self.contracts), "declarer_games": declared,
             "declarer_win_rate": judging.share(
                 sum(lu["declarer_wins"] for lu in self.lineups), declared),
             "average_score": self.score / f.games,
             "points": [lu["points"] for lu in self.lineups] if f.arena else self.points,
             "bobbl": [lu["bobbl"] for lu in self.lineups] if f.arena else self.bobbl})

    def draw(self, rules: Any, master: random.Random, number: int, seats: int,
             arena: bool) -> judging.Board:
        if not arena:
            return super().draw(rules, master, number, seats, arena)
        order = list(MuckenState(rules).deck)
        master.shuffle(order)
        size = rules.hand_size
        hands = tuple(tuple(order[s * size:(s + 1) * size]) for s in range(4))
        return judging.Board(number, number % 4, master.getrandbits(64), (Deal(hands),))

    def start(self, rules: Any, board: judging.Board, seats: int) -> GameState:
        assert isinstance(rules, MuckenRules)
        return MuckenState(rules, board.dealer)

    def print_report(self, out: Mapping[str, Any], console: judging.Console,
                     rate: judging.Rate, arena: bool) -> None:
        if arena:
            console.print(f"[bold]{out['a']} vs {out['b']}[/bold]: {out['deals']} deals, "
                          f"{out['games']} games (each deal with the seats swapped), rules "
                          f"{out['rules']}, seed {out['seed']}, {out['seconds']:.1f} s")
            for s in out["stats"]:
                console.print(
                    f"  {s['bot']}: {s['points']} points ({s['points_per_game']:.3f}/game), "
                    f"{s['games_won']} games won, declared {s['declarer_games']} "
                    f"(won {judging.percent(s['declarer_win_rate'])}), Kontra {s['kontra']}")
            console.print(f"  Bobbl: {out['a']} {out['bobbl'][0]}, {out['b']} "
                          f"{out['bobbl'][1]}")
            console.print(judging.verdict(f"Mean difference {out['a']} − {out['b']}",
                                          out["mean"], "points per game", out["ci95"],
                                          none="n/a (one deal)"))
            return
        from rich.table import Table

        a, b = out["lineups"]
        games, deals = out["games"], out["deals"]
        console.print(
            f"[bold]{games} game{'s' * (games != 1)}[/bold] ({deals} deal{'s' * (deals != 1)},"
            f" each at two tables with the seats swapped), rules {out['rules']}, seed "
            f"{out['seed']}, {rate(out['games_per_s'], 'game')}")
        console.print("Seats (table A): " + ", ".join(f"{s}={n}" for s, n in
                                                       enumerate(out["bots"])))
        t = Table(title="Games called", title_justify="left")
        for col in ("contract", "games", "share"):
            t.add_column(col, justify="left" if col == "contract" else "right")
        for name, n in out["contracts"].items():
            t.add_row(name, str(n), f"{100 * n / games:.1f}%")
        console.print(t)
        console.print(
            f"Declarer win rate: {judging.percent(out['declarer_win_rate'])} of "
            f"{out['declarer_games']} announced games; average score "
            f"{out['average_score']:.2f} points per game")
        console.print(
            f"Points by seats: pair 0 (seats 0+2) {out['points'][0]}, pair 1 (seats 1+3) "
            f"{out['points'][1]}; Bobbl won: pair 0 {out['bobbl'][0]}, pair 1 "
            f"{out['bobbl'][1]}")
        t = Table(title="Lineups", title_justify="left")
        for col in ("lineup", "points", "pts/game", "won", "Bobbl", "declared", "decl. won",
                    "Kontra"):
            t.add_column(col, justify="left" if col == "lineup" else "right")
        for lu in (a, b):
            t.add_row(_name(lu["bots"]), str(lu["points"]), f"{lu['points_per_game']:.3f}",
                      str(lu["games_won"]), str(lu["bobbl"]), str(lu["declarer_games"]),
                      judging.percent(lu["declarer_win_rate"]), str(lu["kontra"]))
        console.print(t)
        console.print(judging.verdict(f"Margin {_name(a['bots'])} over {_name(b['bots'])}",
                                      out["margin"], "points per game", out["ci95"]))


#: Mucken's statistics (``GamePlugin.statistics``)
STATISTICS = MuckenStatistics()
