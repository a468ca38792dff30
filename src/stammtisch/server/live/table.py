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
from stammtisch.server.live.errors import ActionRejected
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

    def charge(self, settings: Settings, what: str) -> None:
        """:meth:`spend` one token, or refuse (``rate_limited``: "too many <what>")."""
        if not self.spend(settings):
            raise ActionRejected("rate_limited", f"too many {what}; slow down")


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
        #: seats (``None``: the spectators) that a private out-of-turn action left
        #: untouched: seat -> (the version they still see, the table version then).  Only
        #: valid while the table is still at that version: any other change shows everybody
        #: the new version (:meth:`version_for`)
        self.unchanged_for: dict[int | None, tuple[int, int]] = {}
        self.connections: dict[int, Connection] = {}
        self.lock = asyncio.Lock()
        self.turn_deadline: float | None = None
        #: entrants a bot played for since the last finished Bobbl (online tournaments)
        self.standins: set[str] = set()
        #: a message for the players (e.g. why the table stopped)
        self.note: str = ""
        #: why the table ended before its match did: ``"nobody_seated"`` (no person sits
        #: at it any more) or ``"demo_done"`` (a demonstration played its games)
        self.closed: str | None = None
        #: seats held by a person when the current game began: seat -> user id
        self.game_humans: dict[int, int | None] = {}
        #: the actions a bot took in the current game for such a seat (``meta.stand_in``)
        self.stand_in: list[dict[str, Any]] = []
        #: people who stood up from a seat ("Aufstehen"): they may sit down again at a
        #: private table without its invite code
        self.stood_up: set[int] = set()
        #: the seats a bot stood in for, per game number (finished and current games;
        #: the score sheet marks those games)
        self.stand_in_by_game: dict[int, list[int]] = {}
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
        """Whether a bot plays for a person who is away (the away rule ``bot``).  Stored
        as the settings' ``bot_takeover``; a table stored without it is ``bot``."""
        return bool(self.settings.get("bot_takeover", True))

    @property
    def away_rule(self) -> str:
        """What the table does while a person is away: ``wait`` (it pauses and shows
        who is missing) or ``bot`` (a bot plays the seat until the player returns)."""
        return "bot" if self.bot_takeover else "wait"

    @property
    def away_timeout(self) -> float:
        """Seconds a player may be away before the seat is released (0: never)."""
        value = self.settings.get("away_timeout")
        if value is None:
            # tournament seats belong to their entrant (claim links): never released
            value = 0 if self.settings.get("tournament") else self.manager.settings.away_timeout
        return max(0.0, float(value or 0))

    @property
    def demo_games(self) -> int:
        """A demonstration table of bots only: the number of games it plays (0: not
        one)."""
        return max(0, int(self.settings.get("demo_games") or 0))

    @property
    def bots_may_deal(self) -> bool:
        """Whether a game may be dealt with no person at the table: a demonstration
        table (bounded by :attr:`demo_games`) or an online tournament round's table
        (bounded by its Bobbl and the round's clock; its seats are its entrants')."""
        return bool(self.demo_games or self.settings.get("tournament"))

    def turn(self) -> tuple[GameState, int] | None:
        """The running game and the seat to act in it (:data:`~stammtisch.engine.core.CHANCE`
        is negative); ``None`` between games."""
        g = self.game
        if g is None or g.is_terminal():
            return None
        return g, g.current_player

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot acts for ``seat`` now: a bot's seat, a free seat during a game,
        or (away rule ``bot``) a person who is away."""
        s = self.seats[seat]
        if s.kind in ("bot", "empty"):
            return True
        return self.bot_takeover and s.away

    def persons_seated(self) -> bool:
        """Whether any seat is a person's (present or away)."""
        return any(s.kind == "human" for s in self.seats)

    def waiting_for(self) -> list[int]:
        """The seats of the persons the table waits for now: with the rule ``wait``
        every person away; with ``bot`` every person away once no person at all is at
        the table and no game runs.  Empty when the table does not wait for anyone."""
        if self.status != "playing" or self.match.is_over():
            return []
        away = [i for i, s in enumerate(self.seats) if s.kind == "human" and s.away]
        if not away or self.bots_may_deal:
            return []
        if self.away_rule == "wait":
            return away
        if self.between_games() and not any(s.present for s in self.seats):
            return away
        return []

    def may_deal(self) -> str | None:
        """Why the next game may not be dealt now, or ``None``: it is never dealt in the
        name of a person who is not at the table (rule ``wait``), nor with no person at
        all at the table (rule ``bot``) — but at a demonstration or tournament table."""
        if not self.is_full():
            return f"the table needs {self.num_seats} players"
        if self.bots_may_deal:
            if self.demo_games and self.game_number >= self.demo_games:
                return f"a demonstration table plays {self.demo_games} games"
            return None
        if not any(s.present for s in self.seats):
            return "no person is at the table"
        missing = [s.name for s in self.seats if s.kind == "human" and s.away]
        if missing and self.away_rule == "wait":
            return "the table waits for " + ", ".join(missing)
        return None

    def stand_in_games(self) -> list[dict[str, Any]]:
        """The games (the last 50) in which a bot played for a person's seat: ``[{"game":
        number, "seats": [seats]}]`` — the score sheet marks them."""
        out = dict(self.stand_in_by_game)
        if self.stand_in:
            out[self.game_number] = sorted({int(m["seat"]) for m in self.stand_in})
        return [{"game": n, "seats": seats} for n, seats in sorted(out.items())[-50:]]

    def version_for(self, seat: int | None) -> int:
        """The version ``seat`` (``None``: a spectator) sees: the table's, unless the
        changes since the last one it was shown were private out-of-turn actions that
        changed nothing of what it receives (a seña among the other pair)."""
        kept = self.unchanged_for.get(seat)
        return kept[0] if kept is not None and kept[1] == self.version else self.version

    def seat_of(self, user_id: int | None) -> int | None:
        return seat_of(self.seats, user_id)

    def seat_required(self, conn: Connection, why: str) -> int:
        """The seat of the connection's user, or refuse (``not_seated``, ``why``)."""
        seat = self.seat_of(conn.user_id)
        if seat is None:
            raise ActionRejected("not_seated", why)
        return seat

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
