"""A sitting of Mucken: games one after another, the dealer moving on, Einwerfen
factors, and the score sheet (Spielstandzettel) with Bobbl, Tore, Brille, Hänger.

Bobbl (seeds 000 and 001): the points of won games add up until a pair would
reach the target (21, or 31) by winning a game; that last game is not written.
The other pair *gets* the Bobbl; its points so far are its Tore, and a Bobbl
lost with no points is a Brille (counted like any other Bobbl).  With the
Hänger option a match is best of three Bobbl.

>>> sheet = ScoreSheet(target=21)
>>> sheet.add_game(0, 8); sheet.add_game(1, 5); sheet.add_game(0, 13) is not None
True
>>> b = sheet.bobbl[0]
>>> (b.winner, b.loser, b.tore, b.winner_points, b.brille)
(0, 1, 5, 8, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stammtisch.engine.core import Rng, resolve_chance
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState


@dataclass
class SheetEntry:
    """One line of the sheet: game number, the pair credited, the points written."""

    game: int
    pair: int | None
    points: int
    written: bool
    note: str = ""


@dataclass
class Bobbl:
    """One Bobbl: its lines, running totals and, once over, who got it."""

    target: int
    entries: list[SheetEntry] = field(default_factory=list)
    totals: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner

    @property
    def tore(self) -> int:
        """The loser's points: its geschossene Tore."""
        return 0 if self.loser is None else self.totals[self.loser]

    @property
    def winner_points(self) -> int:
        """The winner's written points (the last, unwritten game not included).

        Not the winner's "gegnerische Tore": those are the loser's points, :attr:`tore`."""
        return 0 if self.winner is None else self.totals[self.winner]

    @property
    def brille(self) -> bool:
        return self.finished and self.tore == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "entries": [e.__dict__ for e in self.entries],
            "totals": list(self.totals),
            "winner": self.winner,
            "loser": self.loser,
            "tore": self.tore,
            "winner_points": self.winner_points,
            "brille": self.brille,
        }


class ScoreSheet:
    """The Spielstandzettel of one table."""

    def __init__(self, target: int = 21) -> None:
        self.target = target
        self.bobbl: list[Bobbl] = [Bobbl(target)]
        self.games = 0

    @property
    def current(self) -> Bobbl:
        return self.bobbl[-1]

    def add_game(self, pair: int | None, points: int, note: str = "") -> Bobbl | None:
        """Credit ``points`` to ``pair`` (None: not scored).  Returns the Bobbl if
        this game finished it (the game itself is then not written)."""
        self.games += 1
        b = self.current
        if b.finished:
            b = Bobbl(self.target)
            self.bobbl.append(b)
        if pair is None or points <= 0:
            b.entries.append(SheetEntry(self.games, None, 0, False, note or "nicht gewertet"))
            return None
        if b.totals[pair] + points >= self.target:
            b.entries.append(SheetEntry(self.games, pair, points, False, note or "Bobbl"))
            b.winner = pair
            return b
        b.totals[pair] += points
        b.entries.append(SheetEntry(self.games, pair, points, True, note))
        return None

    def finished_bobbl(self) -> list[Bobbl]:
        return [b for b in self.bobbl if b.finished]

    def bobbl_won(self) -> list[int]:
        won = [0, 0]
        for b in self.finished_bobbl():
            assert b.winner is not None
            won[b.winner] += 1
        return won

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "bobbl": [b.to_json() for b in self.bobbl],
                "bobbl_won": self.bobbl_won()}


class MuckenMatch:
    """Games in sequence at one table: dealer rotation, Einwerfen factors, sheet.

    ``bobbl_limit``: stop after this many Bobbl (None: never); with the rules'
    Hänger option the match ends when a pair has won two Bobbl.
    """

    def __init__(self, rules: MuckenRules | None = None, first_dealer: int = 0,
                 bobbl_limit: int | None = None) -> None:
        self.rules = rules if rules is not None else MuckenRules.preset("seefest")
        self.dealer = first_dealer
        self.bobbl_limit = bobbl_limit
        self.sheet = ScoreSheet(self.rules.bobbl_target)
        self.games: list[MuckenState] = []
        self.einwurf_streak = 0
        self.doubled_games_left = 0
        self.state: MuckenState | None = None

    def is_over(self) -> bool:
        won = self.sheet.bobbl_won()
        if self.rules.haenger and max(won) >= 2:
            return True
        return self.bobbl_limit is not None and sum(won) >= self.bobbl_limit

    def start_game(self, rng: Rng | None = None) -> MuckenState:
        """Begin the next game; with ``rng`` the shuffle is drawn at once."""
        if self.state is not None and not self.state.is_terminal():
            raise ValueError("the current game is not finished")
        if self.is_over():
            raise ValueError("the match is over")
        factor = self._factor_for_next()
        self.state = MuckenState(self.rules, self.dealer, factor)
        if rng is not None:
            resolve_chance(self.state, rng)
        return self.state

    def _factor_for_next(self) -> int:
        mode = self.rules.einwerfen_double
        if mode == "next":
            return 2 if self.einwurf_streak else 1
        if mode == "multiply":
            return int(2**self.einwurf_streak)
        if mode == "count":
            return 2 if self.doubled_games_left else 1
        return 1

    def finish_game(self) -> Bobbl | None:
        """Book the finished current game on the sheet and move the dealer on."""
        s = self.state
        if s is None or not s.is_terminal():
            raise ValueError("no finished game to book")
        assert s.outcome is not None
        self.games.append(s)
        self.dealer = (self.dealer + 1) % 4
        self.state = None
        if s.contract == "eingeworfen":
            self.einwurf_streak += 1
            if self.rules.einwerfen_double == "count":
                self.doubled_games_left += 1
        else:
            self.einwurf_streak = 0
            if s.factor > 1 and self.doubled_games_left > 0:
                self.doubled_games_left -= 1
        o = s.outcome
        return self.sheet.add_game(o.winner, o.score, s.contract)
