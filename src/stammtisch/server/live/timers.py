"""The timers of a live table's seats.

After any change the table is *scheduled*: a bot's seat to act gets its move after
``bot_delay``; a person's seat gets the table's ``turn_timer`` (when it runs out, a bot
makes that one move) — but not a person who is away at a table that waits for them;
between games the next game starts by itself only where it may be dealt
(``LiveTable.may_deal``): at a demonstration or tournament table whose seats are all
played by bots (after ``auto_next_delay``), when a restarted table was playing, or with
``auto_start``.  A person who is away gets a timer that releases the seat after the
table's ``away_timeout``.  What happens then is the referee's (:class:`Moves`); the
timers only say when.  Each runs as a task of the table; a task of a table that moved
to another worker ends quietly.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from stammtisch.server.live.errors import TableMoved
from stammtisch.server.live.table import LiveTable

Job = Callable[[], Coroutine[Any, Any, None]]


class Moves(Protocol):
    """What the timers set going (the referee's)."""

    async def bot_move(self) -> None: ...

    async def auto_next(self) -> None: ...

    async def time_out(self) -> None: ...

    async def release_away(self, seat: int, user_id: int | None) -> None: ...


class SeatTimers:
    """The turn timer, the bots' delay, the next game's start and the away timers of one
    table (see the module docstring)."""

    def __init__(self, table: LiveTable, moves: Moves) -> None:
        self.table = table
        self.moves = moves
        self.tasks: set[asyncio.Task[None]] = set()
        self._timer: asyncio.TimerHandle | None = None
        #: timers that release a seat whose player stays away (seat -> handle)
        self._away: dict[int, asyncio.TimerHandle] = {}

    def schedule(self) -> None:
        """After any change: let a bot act, arm the turn timer, or auto-start a game."""
        t = self.table
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        t.turn_deadline = None
        if t.status == "finished" or t.manager.closing:
            return
        loop = asyncio.get_running_loop()
        settings = t.manager.settings
        g = t.game
        if g is None or g.is_terminal():
            if t.is_full() and not t.match.is_over() and t.may_deal() is None and (
                    (g is None and t.status == "playing")
                    or (g is not None and t.bots_may_deal
                        and all(t.bot_plays(i) for i in range(t.num_seats)))
                    or (t.settings.get("auto_start") and g is None)):
                delay = 0 if g is None else settings.auto_next_delay
                self._timer = loop.call_later(delay, self.spawn, self.moves.auto_next)
            return
        seat = g.current_player
        if seat < 0:
            return
        if t.bot_plays(seat):
            self._timer = loop.call_later(settings.bot_delay, self.spawn, self.moves.bot_move)
            return
        if t.seats[seat].away:
            return  # the table waits for the player (the away rule ``wait``)
        timer = int(t.settings.get("turn_timer", 0) or 0)
        if timer > 0:
            t.turn_deadline = time.monotonic() + timer
            self._timer = loop.call_later(timer, self.spawn, self.moves.time_out)

    def spawn(self, job: Job) -> None:
        """Run ``job`` as a task of the table."""
        async def run() -> None:
            with contextlib.suppress(TableMoved):  # another worker serves the table now
                await job()

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- time away ----------------------------------------------------------------------
    def arm_away(self, seat: int) -> None:
        """Release ``seat`` when its player is still away after ``away_timeout``."""
        t = self.table
        self.cancel_away(seat)
        s = t.seats[seat]
        if s.kind != "human" or not s.away or t.away_timeout <= 0 or t.manager.closing:
            return
        since = s.away_since if s.away_since is not None else time.monotonic()
        delay = max(0.0, since + t.away_timeout - time.monotonic())
        user_id = s.user_id
        loop = asyncio.get_running_loop()
        self._away[seat] = loop.call_later(
            delay, self.spawn, lambda: self._expired(seat, user_id))

    async def _expired(self, seat: int, user_id: int | None) -> None:
        self._away.pop(seat, None)
        await self.moves.release_away(seat, user_id)

    def cancel_away(self, seat: int) -> None:
        handle = self._away.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for handle in self._away.values():
            handle.cancel()
        self._away.clear()
        for task in list(self.tasks):
            task.cancel()
