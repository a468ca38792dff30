"""Schafkopf's part of the judge of ``simulate`` and ``arena``
(:mod:`stammtisch.games.base.judging`).  Partners change from hand to hand, so a lineup
is measured by the cents paid to its two seats, with the games its seats declared and won
and the first Stoß of a hand; also the contracts (``redeal`` for none) and the balances
of each table's Abrechnung (each side of the arena keeps a sitting of its own)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stammtisch.engine.core import GameState
from stammtisch.games.base import judging
from stammtisch.games.schafkopf.state import SchafkopfState


class SchafkopfStatistics(judging.Statistics):
    """Schafkopf in ``simulate`` and ``arena``, and a run's statistics (see the module)."""

    margin_scale = 2.0  # a game's margin: the cents of a lineup's two seats
    arena_matches = True
    state_class = SchafkopfState
    arena_keys = "a b deals games mean ci95 seed rules cents stats balances contracts seconds"
    simulate_keys = ("games deals seed rules bots seatings contracts declarer_games "
                     "declarer_win_rate balances lineups margin ci95 seconds games_per_s")
    lineup_fields = (("cents", lambda counters, f, i: f.totals[i]),
                     ("cents_per_game", lambda counters, f, i: f.totals[i] / f.games),
                     *judging.DECLARER, "stoss")
    unit, digits = "cents per game", 2

    def __init__(self) -> None:
        super().__init__()
        self.balances: list[list[int]] = []

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        assert isinstance(state, SchafkopfState)
        r = state.result()
        assert r is not None
        self.kinds[str(r["contract"] or "redeal")] += 1
        if r.get("declarer") is not None and r.get("winner") is not None:
            self.count(lineup_of_seat[r["declarer"]], declarer_games=1,
                       declarer_wins=r["winner"] == "declarers")
        for seat, _word in state.stoss[:1]:
            self.count(lineup_of_seat[seat], stoss=1)

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        self.balances.append(match.sheet.to_json()["totals"])

    def fields(self, f: judging.Figures) -> dict[str, Any]:
        lineups = [self.lineup_json(i, f, bots=f.bots(i)) for i in (0, 1)]
        return {"rules": f.rules.name, "cents": f.totals, "lineups": lineups,
                "stats": [{**lu, "bot": lu["bots"][0]} for lu in lineups],
                "balances": self.balances, "contracts": judging.ranked(self.kinds),
                **self.declarer_json()}

    def lines(self, out: Mapping[str, Any], rate: judging.Rate, arena: bool) -> list[Any]:
        head = [judging.ARENA_HEAD] if arena else [
            "[bold]{games} games[/bold] ({deals} deals, each at two tables with the seats "
            "swapped), rules {rules}, seed {seed}", "Seats (table A): {seats}", "Games: {kinds}",
            "Declarer win rate: {declarer_win_rate:.1%} of {declarer_games} games"]
        return [*(judging.words(line, out, seats=judging.seat_list(out.get("bots", ())),
                                kinds=judging.listing(out["contracts"])) for line in head),
                *self.lineup_lines(out, arena, "  {name}: {cents:+d} cents ({cents_per_game:+.2f}"
                                   "/game), " + judging.DECLARED + ", Stoß {stoss}")]


#: Schafkopf's statistics (``GamePlugin.statistics``)
STATISTICS = SchafkopfStatistics()
