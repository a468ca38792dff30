"""Tournament settings: one frozen, validated object (defaults: seed 001, the Seefest-Mucker).

>>> s = TournamentSettings()
>>> (s.rounds, s.bobbl_per_round, s.target, s.time_limit_minutes, s.seating, s.ranking)
(5, 2, 21, 40, 'seefest', 'bobbl')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from stammtisch.errors import StammtischError


class TournamentError(StammtischError):
    """A tournament command that is not valid; the message (English, for API clients)
    names the input.  ``reason`` says which refusal it is and ``params`` hold its
    variable parts, so that a page words it in its reader's language
    (``error.<code>.<reason>`` in the UI's translations, filled with ``params``)."""

    code = "invalid_tournament"

    def __init__(self, message: str, reason: str = "", **params: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, object] = params


class ConflictError(TournamentError):
    """Optimistic versioning: the entity changed since the client read it.  ``detail``
    names it for the pages (which word the message in the reader's language):
    ``{"kind": "bobbl"|"entrant"|"player", "key", "version", "expected"}``."""

    code = "conflict"

    def __init__(self, message: str, detail: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.detail: dict[str, object] = detail or {}


Mode = Literal["pairs", "singles"]
Seating = Literal["seefest", "draw"]
Ranking = Literal["bobbl", "plus", "plus-minus"]
OddHandling = Literal["undecided", "helpers", "bye"]


@dataclass(frozen=True)
class TournamentSettings:
    name: str = "Muckturnier"
    #: rounds and Bobbl per round (seed 001: "fünf Runden mit je zwei Bobbln")
    rounds: int = 5
    bobbl_per_round: int = 2
    #: Bobbl target (seed 001: 21)
    target: int = 21
    #: minutes per round (seed 001: "maximal 40 Minuten"); may change after the start
    time_limit_minutes: int = 40
    #: fixed pairs, or single players drawn into pairs each round (seed 000)
    mode: Mode = "pairs"
    #: "seefest": pair 1 stays, pair 2 moves one table on; "draw": a fresh draw each round
    #: that avoids repeat opponents (and partners, for single players)
    seating: Seating = "seefest"
    ranking: Ranking = "bobbl"
    #: entry fee per person in cents (seed 001: 10 €)
    entry_fee_cents: int = 1000
    #: an odd number of pairs: "helpers" (a pair of helpers fills in) or "bye" (the pair
    #: without opponents is credited bye_bobbl Bobbl and bye_tore Tore); never silent
    odd_handling: OddHandling = "undecided"
    bye_bobbl: int = 1
    bye_tore: int = 0
    #: results need two agreeing entries (two pairs or two helpers)
    double_entry: bool = False
    #: entries from the phones at the tables are final without the desk's confirmation
    phone_entries_final: bool = False
    #: tables planned for the draw at registration (0: grow with the registrations)
    planned_tables: int = 0

    def __post_init__(self) -> None:
        def fail(option: str, why: str, reason: str = "bad_setting", **params: object) -> None:
            raise TournamentError(f"{option}={getattr(self, option)!r}: {why}", reason,
                                  setting=option, **params)

        for option, lo, hi in (("rounds", 1, 50), ("bobbl_per_round", 1, 10), ("target", 1, 1000),
                               ("time_limit_minutes", 0, 600), ("entry_fee_cents", 0, 10**7),
                               ("bye_bobbl", 0, 10), ("bye_tore", 0, 1000),
                               ("planned_tables", 0, 1000)):
            v = getattr(self, option)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                fail(option, f"must be a whole number {lo}..{hi}", "setting_range", min=lo,
                     max=hi)
        if self.mode not in ("pairs", "singles"):
            fail("mode", "must be 'pairs' or 'singles'")
        if self.seating not in ("seefest", "draw"):
            fail("seating", "must be 'seefest' or 'draw'")
        if self.mode == "singles" and self.seating != "draw":
            fail("seating", "single players are drawn into pairs each round: use 'draw'",
                 "singles_need_draw")
        if self.ranking not in ("bobbl", "plus", "plus-minus"):
            fail("ranking", "must be 'bobbl', 'plus' or 'plus-minus'")
        if self.odd_handling not in ("undecided", "helpers", "bye"):
            fail("odd_handling", "must be 'undecided', 'helpers' or 'bye'")
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > 120:
            fail("name", "must be 1..120 characters", "bad_name")

    def replace(self, **changes: Any) -> TournamentSettings:
        known = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in known:
                raise TournamentError(f"unknown tournament setting {key!r}", "unknown_setting",
                                      setting=key)
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentSettings:
        return cls().replace(**dict(data))
