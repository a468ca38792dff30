"""The referee of a live table: every action goes through here, in a fixed order.

A client's action is checked in this order — who is it (a seated player; spectators
cannot act), is the game over, is it their turn (else it may be one of the seat's
out-of-turn actions, which need no current version), is the client's state version
current, is the action legal — then applied through the engine, the game's record
persisted (committed before the version that shows it exists), and every connection
sent its own view.  The bots' moves, a turn timer running out and a seat released
after its player stayed away take the same path: change, persist, broadcast.  Every
action a bot takes for a seat that a person held when the game began is marked in the
record (``stand_in``: the game's mark of where it is in the record).

The away rules (docs/server.md §8): a new game is never dealt in the name of a person
who is not at the table (:meth:`~.table.LiveTable.may_deal`); a turn timer that runs out
lets a bot make that one move, and three in a row count as away; a table at which no
person sits any more ends after its running game.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

from stammtisch.engine.core import CHANCE, Action, GameState, action_log
from stammtisch.errors import IllegalActionError, StammtischError
from stammtisch.server.live.bots import SeatBots
from stammtisch.server.live.errors import ActionRejected
from stammtisch.server.live.port import TablePort
from stammtisch.server.live.records import TableRecords
from stammtisch.server.live.seats import Seat
from stammtisch.server.live.table import Connection, LiveTable
from stammtisch.server.live.timers import SeatTimers
from stammtisch.server.live.views import Broadcaster

#: what a client sends for the next game once one is over
NEXT_WORDS = ("next", "weiter_spiel", "nächstes")


def _out_of_turn_action(g: GameState, seat: int, text: str) -> Action | None:
    """``text`` parsed, when it is one of ``seat``'s out-of-turn actions now; else
    ``None``."""
    allowed = g.out_of_turn_actions(seat)
    if not allowed:
        return None
    try:
        action = g.parse_action(text.strip())
    except StammtischError:
        return None
    return action if action in allowed else None


def _stale(version: Any, current: int) -> ActionRejected:
    return ActionRejected("stale_state", f"your view is version {version!r}, the table is "
                                         f"at {current}; the current view follows")


class Referee:
    """Checks, applies, persists and broadcasts every change of one table's game."""

    def __init__(self, table: LiveTable, port: TablePort, views: Broadcaster,
                 records: TableRecords) -> None:
        self.table = table
        self.port = port
        self.views = views
        self.records = records
        self.bots = SeatBots(table)
        self.timers = SeatTimers(table, self)

    # -- persist and show -----------------------------------------------------------
    def save_seats(self) -> None:
        """Store the seats and the status."""
        self.port.save_table([s.to_json() for s in self.table.seats], self.table.status)

    async def save_game(self) -> None:
        """Store the current game's record; returns once it is committed.  Meanwhile the
        table shows nothing new: a broadcast (someone connects or leaves) waits for the
        one after the commit."""
        save = self.records.current_save()
        if save is None:
            return
        self.table.saving = True
        try:
            await self.port.save_game(save)
        finally:
            self.table.saving = False

    async def seats_changed(self) -> None:
        """After a change of the seats or the status: store, count, schedule, show."""
        self.save_seats()
        self.table.version += 1
        self.timers.schedule()
        await self.views.broadcast()

    # -- a client's action ----------------------------------------------------------
    async def handle_action(self, conn: Connection, text: Any, version: Any,
                            ack: Any = None) -> None:
        """Check and apply one client action (see the module docstring for the order).
        ``ack``: the client's id for the action (an integer 0..2**31-1, or ``None``); once
        the action is stored and its ``state`` sent, the acting connection alone gets
        ``{"type": "ack", "id": ack, "version"}`` — the proof that this action, and not
        only some change of the table, went through."""
        self.port.check()
        if ack is not None and (type(ack) is not int or not 0 <= ack < 2 ** 31):
            raise ActionRejected("invalid_action",
                                 f"id must be an integer 0..2147483647, not {ack!r}")
        await self._handle(conn, text, version)
        if ack is not None:
            with contextlib.suppress(Exception):  # (a socket closed meanwhile: no one to tell)
                await conn.send({"type": "ack", "id": ack, "version": self.table.version_for(
                    self.table.seat_of(conn.user_id))})

    async def _handle(self, conn: Connection, text: Any, version: Any) -> None:
        t = self.table
        conn.charge(t.manager.settings, "actions")
        async with t.lock:
            seat = t.seat_required(conn, "spectators cannot act; take a free seat")
            s = t.seats[seat]
            s.timeouts = 0
            back = s.away
            if s.timed_out or s.away:
                s.come_back()
                self.timers.cancel_away(seat)
                self.save_seats()
                if back:
                    await t.manager.lobby_changed()
                # the seat is the player's again: a bot move pending for it is dropped, and
                # if it is their turn the turn timer must run (also if this action is refused)
                self.timers.schedule()
            if not isinstance(text, str):
                raise ActionRejected("invalid_action", f"action must be text, not {text!r}")
            g = t.game
            if text.strip().lower() in NEXT_WORDS:
                await self._next_game(version)
                return
            if t.match.is_over():
                raise ActionRejected("game_over", "the match is over")
            if g is None or g.is_terminal():
                raise ActionRejected("game_over",
                                     "the game is over; send 'next' for the next game")
            extra = _out_of_turn_action(g, seat, text)
            if g.current_player != seat or (extra is not None
                                            and extra not in g.legal_actions()):
                # a seña may be given on one's own turn too: out-of-turn actions go their
                # own way whoever is to act
                await self._out_of_turn(g, seat, extra)
                return
            if version != t.version_for(seat):
                raise _stale(version, t.version_for(seat))
            try:
                g.apply_as(seat, g.parse_action(text))
            except IllegalActionError as e:
                raise ActionRejected(e.code, str(e)) from None
            except StammtischError as e:
                raise ActionRejected(e.code, str(e)) from None
            await self.after_change()

    async def _out_of_turn(self, g: GameState, seat: int, action: Action | None) -> None:
        """An action of ``seat`` while another seat is to act: applied when it is one of
        the seat's out-of-turn actions now (``GameState.out_of_turn_actions``), else the
        usual ``not_your_turn``.  It needs no current version (a Muli may be called
        while the others go on bidding; it is checked against the state as it is).  Any
        chance it involves is drawn from a seed taken from the table's rng and kept with
        the action, so that a restart replays it exactly."""
        if action is None:
            raise ActionRejected("not_your_turn", f"it is seat {g.current_player}'s turn, "
                                 f"not yours (seat {seat})")
        t = self.table
        seed = t.manager.rng.randrange(2 ** 32)
        at = len(action_log(g))
        viewers: list[int | None] = [*range(t.num_seats), None]
        before = {s: self.views.game_text(s) for s in viewers}
        to_act = g.current_player
        try:
            g.apply_out_of_turn(seat, action, random.Random(seed))
        except StammtischError as e:
            raise ActionRejected(e.code, str(e)) from None
        t.out_of_turn.append({"at": at, "seat": seat, "action": str(action), "seed": seed})
        if g.current_player != to_act or g.is_terminal() or g.current_player == CHANCE:
            await self.after_change()
            return
        # a private action (a seña): whoever's view and out-of-turn actions it left as
        # they were keeps the version it has and is sent nothing — a new version alone
        # would tell them that something happened; nor does the turn timer start anew
        kept = {s: t.version_for(s) for s in viewers if self.views.game_text(s) == before[s]}
        await self.save_game()
        t.version += 1
        t.unchanged_for = {s: (v, t.version) for s, v in kept.items()}
        await self.views.broadcast()

    async def _next_game(self, version: Any) -> None:
        t = self.table
        if t.match.is_over():
            raise ActionRejected("game_over", "the match is over")
        if t.game is not None and not t.game.is_terminal():
            raise ActionRejected("illegal_action", "the current game is not finished")
        if t.game is not None and version != t.version:
            raise ActionRejected("stale_state", f"the table is at version {t.version}")
        if not t.is_full():
            raise ActionRejected("illegal_action", f"the table needs {t.num_seats} players")
        why = t.may_deal()
        if why is not None:
            raise ActionRejected("waiting_for_players", why)
        await self.start_game()

    # -- games -------------------------------------------------------------------------
    async def start_game(self) -> None:
        """Deal the match's next game (shuffled from the table's rng, or alike at every
        table of a duplicate round)."""
        t = self.table
        state = t.match.start_game()
        t.manager.resolve_chance(state, t.deal_rng(t.game_number + 1))
        t.game = state
        t.game_number += 1
        t.stand_in = []
        t.out_of_turn = []
        t.game_humans = {i: s.user_id for i, s in enumerate(t.seats) if s.kind == "human"}
        if t.status != "playing":
            t.status = "playing"
            self.save_seats()
            await t.manager.lobby_changed()
        await self.after_change()

    async def after_change(self) -> None:
        """After the game changed: chance drawn, a finished game booked, the record
        committed, then the new version shown."""
        t = self.table
        g = t.game
        if g is not None and not g.is_terminal() and g.current_player == CHANCE:
            # chance in the middle of a game (Mus reshuffles the discards when the stock
            # runs out): drawn from the table's rng; the log keeps the outcome, so a
            # restart replays it
            t.manager.resolve_chance(g)
        if g is not None and g.is_terminal() and t.match.state is g:
            if t.stand_in:
                t.stand_in_by_game[t.game_number] = sorted(
                    {int(m["seat"]) for m in t.stand_in})
            part = t.match.finish_game()
            if part is not None and t.manager.on_match_part is not None:
                await t.manager.on_match_part(t, part)
            if t.match.is_over() or self._nobody_left():
                if not t.match.is_over():
                    t.closed = "demo_done" if t.demo_games else "nobody_seated"
                t.status = "finished"
                self.save_seats()
                await t.manager.lobby_changed()
        # committed before the version that shows it exists (a ``sync`` meanwhile gets
        # the old version: no client takes it for the acknowledgement)
        await self.save_game()
        t.version += 1
        self.timers.schedule()
        await self.views.broadcast()

    def _nobody_left(self) -> bool:
        """The table ends now (no game runs): no person sits at it any more, or a
        demonstration table has played its games (tournament tables end by their
        round)."""
        t = self.table
        if t.status != "playing" or not t.between_games():
            return False
        if t.demo_games:
            return t.game_number >= t.demo_games
        return not t.bots_may_deal and not t.persons_seated()

    async def end_if_nobody_left(self) -> bool:
        """After a seat was freed: end the table when no game runs and nobody sits at it
        any more (else it ends after its running game, :meth:`after_change`)."""
        if not self._nobody_left():
            return False
        self.table.closed = "demo_done" if self.table.demo_games else "nobody_seated"
        self.table.status = "finished"
        await self.seats_changed()
        await self.table.manager.lobby_changed()
        return True

    async def stop(self, reason: str) -> None:
        """End the table now (e.g. the tournament round's time ran out)."""
        self.table.status = "finished"
        self.table.note = reason
        await self.seats_changed()

    # -- what the timers set going ------------------------------------------------------
    async def bot_move(self) -> None:
        t = self.table
        async with t.lock:
            turn = t.turn()
            if turn is not None and turn[1] >= 0 and t.bot_plays(turn[1]):
                await self._bot_acts(*turn)

    async def _bot_acts(self, g: GameState, seat: int) -> None:
        """The seat's bot makes one move (marked when a person held the seat when the
        game began)."""
        t = self.table
        action = await self.bots.choose(g, seat)
        if t.seats[seat].entrant:
            t.standins.add(t.seats[seat].entrant)
        if seat in t.game_humans:
            t.stand_in.append(t.hooks.stand_in_mark(g, seat, action))
        g.apply_as(seat, action)
        await self.after_change()

    async def auto_next(self) -> None:
        t = self.table
        async with t.lock:
            if t.between_games() and not t.match.is_over() and t.may_deal() is None:
                await self.start_game()

    async def time_out(self) -> None:
        """A person's turn timer ran out: a bot makes that one move (the seat is the
        player's again at once); the third time in a row the player counts as away."""
        t = self.table
        async with t.lock:
            if (turn := t.turn()) is None:
                return
            g, seat = turn
            s = t.seats[seat] if seat >= 0 else None
            if s is None or s.kind != "human" or t.bot_plays(seat) or s.away:
                self.timers.schedule()
                return
            s.timed_out = True
            s.timeouts += 1
            gone = s.timeouts >= AWAY_AFTER_TIMEOUTS and not s.away
            if gone:
                s.go_away()
                self.timers.arm_away(seat)
            self.save_seats()
            await self._bot_acts(g, seat)
        if gone:
            await t.manager.lobby_changed()

    async def release_away(self, seat: int, user_id: int | None) -> None:
        """The player stayed away too long: the seat becomes free (the session at the
        table ends).  During a game a bot plays the free seat until someone sits down;
        a table at which nobody sits any more ends (after its running game)."""
        t = self.table
        async with t.lock:
            s = t.seats[seat]
            if s.kind != "human" or s.user_id != user_id or not s.away:
                return
            t.seats[seat] = Seat()
            await self.seats_changed()
            await self.end_if_nobody_left()
        await t.manager.lobby_changed()


#: turn timers run out in a row before the player counts as away
AWAY_AFTER_TIMEOUTS = 3
