"""The seats of a live table.

A seat is empty, a person's or a bot's.  Bots sit on seats the creator gave them, and —
unless the table was created with ``bot_takeover: false`` — stand in for a person who
disconnected (``away``) or let the turn timer run out (``timed_out``); the person gets
the seat back on return.  A seat whose player stays away longer than the table's
``away_timeout`` is released (:mod:`.timers`).  Seats are stored as their JSON in the
table's row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: the bot of a stored seat that names none (the seats' format since the first tables)
DEFAULT_SEAT_BOT = "heuristic"


@dataclass
class Seat:
    kind: str = "empty"  # "empty" | "human" | "bot"
    user_id: int | None = None
    name: str = ""
    bot: str = DEFAULT_SEAT_BOT
    away: bool = False  # a human who disconnected: a bot stands in
    timed_out: bool = False  # a human whose turn timer ran out: a bot stands in
    entrant: str = ""  # online tournaments: the entrant (pair) this seat plays for
    claim: str = ""  # online tournaments: the token of the seat's claim link
    #: when the player went away (monotonic clock; not stored)
    away_since: float | None = field(default=None, compare=False)

    @property
    def bot_controlled(self) -> bool:
        return self.kind == "bot" or (self.kind == "human" and (self.away or self.timed_out))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "user_id": self.user_id, "name": self.name, "bot": self.bot,
                "away": self.away, "timed_out": self.timed_out, "entrant": self.entrant,
                "claim": self.claim}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        return cls(kind=d.get("kind", "empty"), user_id=d.get("user_id"),
                   name=d.get("name", ""), bot=d.get("bot", DEFAULT_SEAT_BOT),
                   away=bool(d.get("away", False)), timed_out=False,
                   entrant=str(d.get("entrant", "")), claim=str(d.get("claim", "")))


def seat_of(seats: list[Seat], user_id: int | None) -> int | None:
    """The seat of the person ``user_id`` (``None``: a spectator, or nobody logged in)."""
    if user_id is None:
        return None
    for i, s in enumerate(seats):
        if s.kind == "human" and s.user_id == user_id:
            return i
    return None
