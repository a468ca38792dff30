"""Mucken's part of the judge of ``simulate`` and ``arena`` (:mod:`stammtisch.games.base.
judging`): per lineup the points credited to its pair, the games won, the games declared
and won, the Kontra given and the Bobbl of the score sheets (a new sheet after each
Hänger); the contracts.  A simulated deal is a shuffle the bots cut; an arena deal gives
the hands directly (no Abheben) with dealer ``i mod 4``, and each side of the arena books
its games through a match of its own (the Einwerfen factors, the Bobbl).  The margin
counts a game's points once (the pair that wins them against the other)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from stammtisch.engine.core import Action, Deal, GameState
from stammtisch.games.base import judging
from stammtisch.games.mucken.state import MuckenState


class MuckenStatistics(judging.Statistics):
    """Mucken in ``simulate`` and ``arena``, and a run's statistics (see the module)."""

    margin_scale = 0.5  # a game's margin: the winners' points (each pair's return ±score)
    arena_matches = True
    state_class = MuckenState
    arena_keys = "a b deals games mean ci95 bobbl seed rules points stats contracts seconds"
    simulate_keys = ("games deals seed rules bots seatings contracts declarer_games "
                     "declarer_win_rate average_score points bobbl lineups margin ci95 "
                     "seconds games_per_s")
    lineup_fields = ("points", ("points_per_game", judging.per_game("points")), "games_won",
                     "bobbl", *judging.DECLARER, "kontra")

    def __init__(self) -> None:
        super().__init__()
        self.points, self.bobbl = [0, 0], [0, 0]  # by pair (seats 0+2, 1+3), both tables

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        assert isinstance(state, MuckenState) and state.outcome is not None
        o, declarer = state.outcome, state.declarer
        self.kinds[state.contract] += 1
        self.counts["score"] += o.score
        if o.winner is not None:
            self.points[o.winner] += o.score
            self.count(lineup_of_seat[o.winner], points=o.score, games_won=1)
        if declarer is not None:
            self.count(lineup_of_seat[declarer], declarer_games=1,
                       declarer_wins=o.winner == declarer % 2)
            if state.doubling_seats:
                self.count(lineup_of_seat[state.doubling_seats[0]], kontra=1)

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        for pair, won in enumerate(match.sheet.bobbl_won()):
            self.bobbl[pair] += won
            self.count(lineup_of_seat[pair], bobbl=won)

    def fields(self, f: judging.Figures) -> dict[str, Any]:
        lineups = [self.lineup_json(i, f, bots=f.bots(i)) for i in (0, 1)]
        by_lineup = f.arena  # arena's points and Bobbl by lineup (bot), simulate's by pair
        return {"rules": f.rules.name, "lineups": lineups, **self.declarer_json(),
                "stats": [{"bot": lu["bots"][0], **{k: v for k, v in lu.items()
                                                    if k not in ("bots", "bobbl")}}
                          for lu in lineups], "contracts": judging.ranked(self.kinds),
                "average_score": self.counts["score"] / f.games,
                "points": self.column("points") if by_lineup else self.points,
                "bobbl": self.column("bobbl") if by_lineup else self.bobbl}

    def opening(self, state: GameState, master: random.Random, arena: bool
                ) -> tuple[int, tuple[Action, ...]]:
        if not arena:
            return super().opening(state, master, arena)
        assert isinstance(state, MuckenState)
        order, size = list(state.deck), state.rules.hand_size
        master.shuffle(order)
        return master.getrandbits(64), (Deal(tuple(tuple(order[s * size:(s + 1) * size])
                                                   for s in range(4))),)

    def lineup_name(self, bots: Sequence[str]) -> str:
        return bots[0] if bots[0] == bots[1] else "+".join(bots)

    def lines(self, out: Mapping[str, Any], rate: judging.Rate, arena: bool) -> list[Any]:
        if arena:
            return [judging.words(judging.ARENA_HEAD, out), *self.lineup_lines(
                out, arena, "  {name}: {points} points ({points_per_game:.3f}/game), {games_won} "
                "games won, " + judging.DECLARED + ", Kontra {kontra}"),
                judging.words("  Bobbl: {a} {bobbl[0]}, {b} {bobbl[1]}", out)]
        games, deals = out["games"], out["deals"]
        say = partial(judging.words, s="s" * (games != 1), ds="s" * (deals != 1),
                      rate=rate(out["games_per_s"], "game"), seats=judging.seat_list(out["bots"]))
        return [say("[bold]{games} game{s}[/bold] ({deals} deal{ds}, each at two tables with the "
                    "seats swapped), rules {rules}, seed {seed}, {rate}", out),
                say("Seats (table A): {seats}", out),
                judging.table("Games called", {"contract": "{name}", "games": "{n}",
                                               "share": "{share:.1f}%"},
                              ({"name": name, "n": n, "share": 100 * n / games}
                               for name, n in out["contracts"].items())),
                say("Declarer win rate: {declarer_win_rate:.1%} of {declarer_games} announced "
                    "games; average score {average_score:.2f} points per game", out),
                say("Points by seats: pair 0 (seats 0+2) {points[0]}, pair 1 (seats 1+3) "
                    "{points[1]}; Bobbl won: pair 0 {bobbl[0]}, pair 1 {bobbl[1]}", out),
                judging.table("Lineups", {
                    "lineup": "{name}", "points": "{points}", "pts/game": "{points_per_game:.3f}",
                    "won": "{games_won}", "Bobbl": "{bobbl}", "declared": "{declarer_games}",
                    "decl. won": "{declarer_win_rate:.1%}", "Kontra": "{kontra}"},
                    ({**lu, "name": self.lineup_name(lu["bots"])} for lu in out["lineups"]))]


#: Mucken's statistics (``GamePlugin.statistics``)
STATISTICS = MuckenStatistics()
