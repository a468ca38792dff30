"""The seats of a live table.

A seat is empty, a person's or a bot's.  Bots sit on seats the creator gave them.  A
person is *away* when their last connection closed or their turn timer ran out three
times in a row (``timeouts``); what the table does then is its away rule
(:attr:`~.table.LiveTable.away_rule`: ``wait`` or ``bot``).  A turn timer that runs out
once lets a bot make that one move (``timed_out`` until the player acts again).  A seat
whose player stays away longer than the table's ``away_timeout`` is released
(:mod:`.timers`).  Seats are stored as their JSON in the table's row.
"""

from __future__ import annotations

import time
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
    away: bool = False  # a human who is not at the table (disconnected, or 3 timeouts)
    timed_out: bool = False  # a human whose turn timer ran out: a bot made that move
    entrant: str = ""  # online tournaments: the entrant (pair) this seat plays for
    claim: str = ""  # online tournaments: the token of the seat's claim link
    #: when the player went away (monotonic clock; not stored)
    away_since: float | None = field(default=None, compare=False)
    #: when the player went away (wall clock, seconds since 1970; not stored): shown
    away_at: float | None = field(default=None, compare=False)
    #: the player's turn timer ran out this many times in a row (not stored)
    timeouts: int = field(default=0, compare=False)

    def go_away(self, now: float | None = None) -> None:
        """Mark the person away from now (kept when already away)."""
        if not self.away or self.away_at is None:
            self.away_since = time.monotonic() if now is None else now
            self.away_at = time.time()
        self.away = True

    def come_back(self) -> None:
        """The person is at the table again (connected or acted)."""
        self.away = self.timed_out = False
        self.away_since = self.away_at = None
        self.timeouts = 0

    @property
    def bot_controlled(self) -> bool:
        return self.kind == "bot" or (self.kind == "human" and (self.away or self.timed_out))

    @property
    def present(self) -> bool:
        """A person sits here and is at the table."""
        return self.kind == "human" and not self.away

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
