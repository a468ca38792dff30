"""The state of one live table, and what a table needs from the server that holds it.

:class:`LiveTable` is data and small questions about it — what the table is (its row),
its seats, its match and the current game, the version clients see, who is connected.
The duties that change it (:mod:`.referee`, :mod:`.timers`, :mod:`.views`,
:mod:`.records`) each get the table; :class:`~.runtime.TableRuntime` is a
``LiveTable`` with those duties attached.  The game is reached only through its plug-in
(``self.desc``, its table hooks ``self.hooks``).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from stammtisch.engine.core import GameState, Rng
from stammtisch.errors import StammtischError
from stammtisch.games import registry
from stammtisch.games.base.table import TableMatch
from stammtisch.server.live.port import TablePort
from stammtisch.server.live.seats import Seat, seat_of
from stammtisch.server.settings import Settings

Send = Callable[[dict[str, Any]], Awaitable[None]]
SendText = Callable[[str], Awaitable[None]]


@dataclass
class Connection:
    send: Send
    user_id: int | None
    name: str
    tokens: float = 0.0
    last: float = field(default_factory=time.monotonic)
    #: sends a message already serialised as in ``send`` (compact JSON, no ASCII
    #: escaping); the broadcaster uses it to serialise shared parts once
    send_text: SendText | None = None

    def spend(self, settings: Settings) -> bool:
        """Take one token of the connection's bucket (``action_rate`` per second up to
        ``action_burst``); ``False`` when it is empty."""
        now = time.monotonic()
        self.tokens = min(float(settings.action_burst),
                          self.tokens + (now - self.last) * settings.action_rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class TableHost(Protocol):
    """What a live table needs from the server that holds its tables (the manager)."""

    settings: Settings
    #: the tables' random stream (shuffles, out-of-turn chance)
    rng: Rng
    #: the server is shutting down: no new timers
    closing: bool
    #: called when a game finishes a part of the match (Mucken: a Bobbl): (table, part)
    on_match_part: Callable[[LiveTable, object], Awaitable[None]] | None

    def resolve_chance(self, state: GameState, rng: Rng | None = None) -> None: ...

    async def lobby_changed(self) -> None: ...

    def port_for(self, table_id: str) -> TablePort: ...


#: the key of a table's settings that holds the match's length in the game's unit (named
#: for the first game's Bobbl; every game's tables store their limit under it)
LIMIT_KEY = "bobbl_limit"


def game_of(settings: dict[str, Any]) -> str:
    """The game of a stored table: its settings' ``game`` (tables without one, from
    before the registry, are the default game's)."""
    return str(settings.get("game", registry.DEFAULT_GAME))


def stored_settings(game: str, settings: dict[str, Any]) -> dict[str, Any]:
    """A new table's settings as stored: the game named unless it is the default game
    (the inverse of :func:`game_of`)."""
    return settings if game == registry.DEFAULT_GAME else {**settings, "game": game}


class LiveTable:
    """One live table's state (see the module docstring)."""

    def __init__(self, manager: TableHost, row: Any) -> None:
        self.manager = manager
        self.id: str = row.id
        self.name: str = row.name
        self.public: bool = row.public
        self.invite_code: str = row.invite_code
        self.creator_id: int | None = row.creator_id
        self.settings: dict[str, Any] = dict(row.settings)
        #: the table's game (kept in the table's settings)
        self.game_name = game_of(self.settings)
        self.desc = registry.get(self.game_name)
        self.hooks = self.desc.table
        self.rules: Any = self.desc.rules_class.from_json(row.rules)
        self.seats = [Seat.from_json(s) for s in row.seats]
        self.first_dealer: int = row.first_dealer
        self.status: str = row.status
        if self.desc.new_match is None:
            raise StammtischError(f"{self.game_name}: no online tables yet (no match)")
        # match rules beyond the game's rules (e.g. ``kreuzbock``), if any
        match_options = dict(self.settings.get("match_options") or {})
        if self.desc.seats[0] != self.desc.seats[1]:
            # a game for a varying number of players (Mulatschak): its sitting gets the
            # table's seat count
            match_options["players"] = len(self.seats)
        self.match: TableMatch = self.desc.new_match(
            self.rules, self.first_dealer, self.settings.get(LIMIT_KEY), **match_options)
        self.game: GameState | None = None  # current or last finished game
        self.game_number = 0
        self.version = 0
        self.connections: dict[int, Connection] = {}
        self.lock = asyncio.Lock()
        self.turn_deadline: float | None = None
        #: entrants a bot played for since the last finished Bobbl (online tournaments)
        self.standins: set[str] = set()
        #: a message for the players (e.g. why the table stopped)
        self.note: str = ""
        #: seats held by a person when the current game began: seat -> user id
        self.game_humans: dict[int, int | None] = {}
        #: the actions a bot took in the current game for such a seat (``meta.stand_in``)
        self.stand_in: list[dict[str, Any]] = []
        #: the out-of-turn actions applied in the current game, in order: {"at": length
        #: of the action log before it, "seat", "action", "seed": the seed of its rng};
        #: kept in the record's ``meta``
        self.out_of_turn: list[dict[str, Any]] = []
        #: a game record is being committed: the table shows nothing new meanwhile
        self.saving = False

    @property
    def rules_name(self) -> str:
        """The rules' name: a preset's name, or ``custom`` (the game's table hooks)."""
        return self.hooks.rules_name(self.rules)

    @property
    def num_seats(self) -> int:
        """The table's number of seats (4 but for games of 2–6 such as Mulatschak)."""
        return len(self.seats)

    @property
    def bot_takeover(self) -> bool:
        """Whether a bot plays for a person who is away or whose turn timer ran out."""
        return bool(self.settings.get("bot_takeover", True))

    @property
    def away_timeout(self) -> float:
        """Seconds a player may be away before the seat is released (0: never)."""
        value = self.settings.get("away_timeout")
        if value is None:
            # tournament seats belong to their entrant (claim links): never released
            value = 0 if self.settings.get("tournament") else self.manager.settings.away_timeout
        return max(0.0, float(value or 0))

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot acts for ``seat`` now: a bot's seat, a free seat during a game,
        or (with bot takeover) a person who is away or timed out."""
        s = self.seats[seat]
        if s.kind in ("bot", "empty"):
            return True
        return self.bot_takeover and (s.away or s.timed_out)

    def seat_of(self, user_id: int | None) -> int | None:
        return seat_of(self.seats, user_id)

    def is_full(self) -> bool:
        return all(s.kind != "empty" for s in self.seats)

    def is_connected(self, user_id: int | None) -> bool:
        """Whether ``user_id`` has a socket at the table."""
        return any(c.user_id == user_id for c in self.connections.values())

    def spectators(self) -> int:
        """How many connections watch without a seat."""
        return sum(1 for c in self.connections.values() if self.seat_of(c.user_id) is None)

    def between_games(self) -> bool:
        """No game is running: none yet, or the last one is over."""
        return self.game is None or self.game.is_terminal()

    def deal_rng(self, number: int) -> Rng | None:
        """Duplicate deals: game ``number`` of every table with the same ``deal_seed``
        is shuffled alike (online tournament rounds)."""
        seed = self.settings.get("deal_seed")
        return None if not seed else random.Random(f"{seed}:{number}")
