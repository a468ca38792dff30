"""A plain match for a game that has no sitting of its own: deals one after another, the
deal passing one seat clockwise, each deal's ``returns()`` written on a score sheet.

A new game gets online tables, ``play``, ``simulate`` and ``arena`` with it before it has
its own match (a Bobbl, a set, a count-down): ``GamePlugin.new_match =
rounds_match(new_state)``.  The match ends after ``limit`` deals (``None``: open end).

>>> import random
>>> from stammtisch.engine.core import play_random
>>> from stammtisch.games import registry
>>> mucken = registry.get("mucken")
>>> match = rounds_match(mucken.new_state)(mucken.make_rules("seefest"), 3, 2)
>>> while not match.is_over():
...     _ = play_random(match.start_game(random.Random(len(match.sheet.rows))),
...                     random.Random(7))
...     _ = match.finish_game()
>>> len(match.sheet.rows), match.dealer, sum(match.sheet.totals)
(2, 1, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stammtisch.engine.core import GameState, Rng
from stammtisch.errors import RulesError

__all__ = ["RoundsMatch", "RoundsSheet", "rounds_match"]


@dataclass
class RoundsSheet:
    """Every finished deal's returns per seat, and their sums."""

    seats: int
    rows: list[list[float]] = field(default_factory=list)

    @property
    def totals(self) -> list[float]:
        return [sum(row[s] for row in self.rows) for s in range(self.seats)]

    def to_json(self) -> dict[str, Any]:
        return {"rows": [list(r) for r in self.rows], "totals": self.totals}


class RoundsMatch:
    """Deals with a rotating dealer; the sheet of their returns (see the module)."""

    def __init__(self, new_state: Callable[[Any, int, Rng | None], GameState], rules: Any,
                 first_dealer: int = 0, limit: int | None = None, *, players: int | None = None
                 ) -> None:
        if limit is not None and limit < 1:
            raise RulesError(f"limit={limit}: at least one deal")
        self._new_state, self.rules, self.limit = new_state, rules, limit
        seats = players if players is not None else new_state(rules, 0, None).num_seats
        self.dealer = first_dealer % seats
        self.sheet = RoundsSheet(seats)
        self.state: GameState | None = None

    def is_over(self) -> bool:
        return self.limit is not None and len(self.sheet.rows) >= self.limit

    def start_game(self, rng: Rng | None = None) -> GameState:
        """The next deal (its chance drawn at once with ``rng``)."""
        if self.is_over():
            raise RulesError("the match is over")
        self.state = self._new_state(self.rules, self.dealer, rng)
        return self.state

    def finish_game(self) -> None:
        """Book the finished deal; the next deal passes one seat on."""
        state = self.state
        if state is None or not state.is_terminal():
            raise RulesError("no finished deal to book")
        self.sheet.rows.append(list(state.returns()))
        self.dealer = (self.dealer + 1) % self.sheet.seats
        self.state = None


def rounds_match(new_state: Callable[[Any, int, Rng | None], GameState]
                 ) -> Callable[..., RoundsMatch]:
    """``GamePlugin.new_match`` for a game without a match of its own."""
    def new_match(rules: Any, first_dealer: int = 0, limit: int | None = None,
                  **options: Any) -> RoundsMatch:
        players = options.pop("players", None)
        if options:
            raise RulesError(f"{', '.join(sorted(options))}: not an option of this match")
        return RoundsMatch(new_state, rules, first_dealer, limit, players=players)
    return new_match
