"""Live tables: the server is the referee.

A :class:`TableRuntime` owns one table's match (games, dealer, score sheet), its
seats and its websocket connections.  Every client action goes through
:meth:`TableRuntime.handle_action`, which checks in this order — who is it, is
the game over, is it their turn, is the client's state version current, is the
action legal — then applies it through the engine, persists the game record,
and sends every connection its own view (spectators see no hands).

Bots sit on seats the creator gave them, and — unless the table was created with
``bot_takeover: false`` — stand in for a human who disconnected or let the turn timer
run out; the human gets the seat back on return.  Every action a bot takes for a seat
that a person held when the game began is marked in the game record (``stand_in``).
A seat whose player stays away longer than the table's ``away_timeout`` is released
(it becomes a free seat).  Each game is stored as its record (issue-2 format plus ``log``, the
full action list with the shuffle) after every action, so a restarted server
rebuilds every table exactly where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from stammtisch.bots.base import Bot
from stammtisch.engine.core import CHANCE, Action, Rng, action_log
from stammtisch.errors import IllegalActionError, StammtischError
from stammtisch.games import registry
from stammtisch.persistence.store import Store
from stammtisch.server.settings import Settings
from stammtisch.server.writer import GameWriter

Send = Callable[[dict[str, Any]], Awaitable[None]]
SendText = Callable[[str], Awaitable[None]]


class TableMoved(Exception):
    """The table is not served by this process any more (several workers: another worker
    has taken it over, server/cluster.py): a socket is closed with 1012 and reconnects,
    a REST call answers ``503 table_moved`` (try again)."""


class ActionRejected(Exception):
    """A client message that is refused; ``code`` goes back to the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Seat:
    kind: str = "empty"  # "empty" | "human" | "bot"
    user_id: int | None = None
    name: str = ""
    bot: str = "heuristic"
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
                   name=d.get("name", ""), bot=d.get("bot", "heuristic"),
                   away=bool(d.get("away", False)), timed_out=False,
                   entrant=str(d.get("entrant", "")), claim=str(d.get("claim", "")))


@dataclass
class Connection:
    send: Send
    user_id: int | None
    name: str
    tokens: float = 0.0
    last: float = field(default_factory=time.monotonic)
    #: sends a message already serialised as in ``send`` (compact JSON, no ASCII
    #: escaping); :meth:`TableRuntime.broadcast` uses it to serialise shared parts once
    send_text: SendText | None = None


def _dumps(obj: Any) -> str:
    """JSON exactly as the websocket sends it (compact, no ASCII escaping)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


#: a game's state, its rules, its match and a finished Bobbl as the table holds them: the
#: game's own objects, reached through the registry (``stammtisch.games.registry``)
GameState = Any
Rules = Any
Bobbl = Any


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


def default_bot(game: str = registry.DEFAULT_GAME) -> str:
    """The game's default bot if it can be made here, else ``random``."""
    name = registry.get(game).default_bot
    return name if name in registry.bot_names(game) else "random"


class TableRuntime:
    def __init__(self, manager: TableManager, row: Any) -> None:
        self.manager = manager
        self.id: str = row.id
        self.name: str = row.name
        self.public: bool = row.public
        self.invite_code: str = row.invite_code
        self.creator_id: int | None = row.creator_id
        self.settings: dict[str, Any] = dict(row.settings)
        #: the table's game (kept in the table's settings; older tables: Mucken)
        self.game_name: str = self.settings.get("game", registry.DEFAULT_GAME)
        self.desc = registry.get(self.game_name)
        self.rules: Rules = self.desc.rules_class.from_json(row.rules)
        self.seats = [Seat.from_json(s) for s in row.seats]
        self.first_dealer: int = row.first_dealer
        self.status: str = row.status
        if self.desc.new_match is None:
            raise StammtischError(f"{self.game_name}: no online tables yet (no match)")
        # match rules beyond the game's rules (Schafkopf: ``kreuzbock``), if any
        match_options = dict(self.settings.get("match_options") or {})
        if self.desc.seats[0] != self.desc.seats[1]:
            # a game for a varying number of players (Mulatschak): its sitting gets the
            # table's seat count
            match_options["players"] = len(self.seats)
        self.match = self.desc.new_match(self.rules, self.first_dealer,
                                         self.settings.get("bobbl_limit"), **match_options)
        self.game: GameState | None = None  # current or last finished game
        self.game_number = 0
        self.version = 0
        self.connections: dict[int, Connection] = {}
        self.lock = asyncio.Lock()
        self.turn_deadline: float | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._timer: asyncio.TimerHandle | None = None
        self.bots: dict[int, Bot] = {}
        #: entrants a bot played for since the last finished Bobbl (online tournaments)
        self.standins: set[str] = set()
        #: a message for the players (e.g. why the table stopped)
        self.note: str = ""
        self._rules_text: str | None = None
        #: seats held by a person when the current game began: seat -> user id
        self.game_humans: dict[int, int | None] = {}
        #: the actions a bot took in the current game for such a seat (see save_game)
        self.stand_in: list[dict[str, Any]] = []
        #: timers that release a seat whose player stays away (seat -> handle)
        self._away_timers: dict[int, asyncio.TimerHandle] = {}
        #: the out-of-turn actions applied in the current game, in order (see
        #: :meth:`handle_out_of_turn`): {"at": length of the action log before it,
        #: "seat", "action", "seed": the seed of its rng}; kept in the record's ``meta``
        self.out_of_turn: list[dict[str, Any]] = []
        #: a game record is being committed (group commit, see save_game_committed)
        self._saving = False
        #: several workers: the lease generation this runtime of the table was made with,
        #: named by each of its writes (the database refuses them once another worker
        #: has taken the table; server/cluster.py); ``None``: one process, unfenced
        self.lease_gen: int | None = None

    @property
    def rules_name(self) -> str:
        """The rules' name: their own ``name`` (Mucken, Schafkopf), else the preset's name
        when they are that preset unchanged, else ``custom``."""
        name = getattr(self.rules, "name", None)
        if isinstance(name, str):
            return name
        preset = getattr(self.rules, "preset_name", None)
        if preset is None:
            data = self.rules.to_json()
            preset = data.get("preset") if isinstance(data, dict) else data
        if isinstance(preset, str) and self.desc.presets.get(preset) == self.rules:
            return preset
        return "custom"

    @property
    def num_seats(self) -> int:
        """The table's number of seats (4 but for games of 2–6 such as Mulatschak)."""
        return len(self.seats)

    # -- bot takeover and time away ------------------------------------------------
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

    # -- persistence ---------------------------------------------------------------
    @property
    def store(self) -> Store:
        return self.manager.store

    def save_table(self) -> None:
        self.store.update_table(self.id, gen=self.lease_gen,
                                seats=[s.to_json() for s in self.seats], status=self.status)

    def live_record(self, state: GameState) -> dict[str, Any]:
        """The game's record (issue-2 format) plus ``factor`` and ``log`` (every action,
        the shuffle included) from which the exact state is rebuilt after a restart."""
        rec = self.desc.record_of(state)
        if hasattr(state, "factor"):  # Mucken's Bobbl factor
            rec["factor"] = state.factor
        rec["log"] = action_log(state)
        meta: dict[str, Any] = {}
        if state is self.game and self.stand_in:
            # the actions a bot took for a person's seat, in the record's free-form
            # ``meta``: [{"seat", "action", "phase", "call"|"doubling"|"play": index in
            # the record's calls/doublings/plays}]
            meta["stand_in"] = list(self.stand_in)
        if state is self.game and self.out_of_turn:
            # out-of-turn actions (Muli, señas): where they come in ``log`` and the seed of
            # any chance they drew, so that a restart replays them exactly
            meta["out_of_turn"] = [dict(e) for e in self.out_of_turn]
        if meta:
            rec["meta"] = meta
        return rec

    def _save_args(self) -> tuple[str, int, dict[str, Any], bool, Any, list[Any]] | None:
        """``Store.save_game``'s arguments for the current game (``None``: no game)."""
        g = self.game
        if g is None:
            return None
        players = [{"seat": i, "name": s.name, "kind": s.kind, "user_id": s.user_id,
                    "bot": s.bot if s.kind != "empty" and self.bot_plays(i) else None}
                   for i, s in enumerate(self.seats)]
        return (self.id, self.game_number, self.live_record(g), g.is_terminal(), g.result(),
                players)

    async def save_game_committed(self) -> None:
        """Store the current game's record (``Store.save_game``), through the manager's
        group-committing writer when it has one (``server/writer.py``); either way it
        returns once the record is committed, so what is sent after it is durable."""
        args = self._save_args()
        if args is None:
            return
        writer = self.manager.writer
        if writer is None:
            self.store.save_game(*args, self.lease_gen)
            return
        # while the record is being committed the table shows nothing new: a broadcast
        # (someone connects or leaves) waits for the one after the commit
        self._saving = True
        try:
            await writer.save(*args, self.lease_gen)
        finally:
            self._saving = False

    def restore(self) -> None:
        """Rebuild the match from the stored game records (after a restart)."""
        for row in self.store.games_of_table(self.id):
            state = self.match.start_game()
            meta = row.record.get("meta")
            events = meta.get("out_of_turn", []) if isinstance(meta, dict) else []
            replay_log(state, row.record.get("log", []), events)
            self.game = state
            self.game_number = row.number
            self.stand_in = list(meta.get("stand_in", [])) if isinstance(meta, dict) else []
            self.out_of_turn = [dict(e) for e in events]
            self.game_humans = {i: p.get("user_id") for i, p in enumerate(row.players or [])
                                if isinstance(p, dict) and p.get("kind") == "human"}
            if state.is_terminal():
                self.match.finish_game()
        self.version = 1
        now = time.monotonic()
        for s in self.seats:  # after a restart nobody is connected yet
            if s.kind == "human":
                s.away_since = now

    # -- seats -----------------------------------------------------------------------
    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.user_id == user_id:
                return i
        return None

    def is_full(self) -> bool:
        return all(s.kind != "empty" for s in self.seats)

    # -- views -----------------------------------------------------------------------
    def _info_head(self) -> dict[str, Any]:
        """``table_info`` up to the seats (the same for every seat)."""
        return {
            "id": self.id,
            "name": self.name,
            "public": self.public,
            "status": self.status,
            "game": self.game_name,
            "rules": self.rules_name,
            "rules_options": self.rules.to_json(),
            "seats": self._seats_info(),
        }

    def _seats_info(self) -> list[dict[str, Any]]:
        return [{"name": s.name, "kind": s.kind,
                 "bot": s.bot if s.kind != "empty" and self.bot_plays(i) else None,
                 "away": s.away, "timed_out": s.timed_out,
                 "connected": any(c.user_id == s.user_id and s.user_id is not None
                                  for c in self.connections.values())}
                for i, s in enumerate(self.seats)]

    def _info_head_text(self) -> str:
        """``_dumps(self._info_head())`` without its closing brace; the rules (frozen)
        are serialised once per table."""
        if self._rules_text is None:
            self._rules_text = _dumps(self.rules.to_json())
        head = _dumps({"id": self.id, "name": self.name, "public": self.public,
                       "status": self.status, "game": self.game_name,
                       "rules": self.rules_name})
        return (f'{head[:-1]},"rules_options":{self._rules_text},'
                f'"seats":{_dumps(self._seats_info())}')

    def _info_tail(self) -> dict[str, Any]:
        """``table_info`` between ``you`` and ``invite_code`` (the same for every seat)."""
        g = self.game
        return {
            "game_number": self.game_number,
            "turn_timer": self.settings.get("turn_timer", 0),
            "turn_deadline": (None if self.turn_deadline is None
                              else int((time.time() + self.turn_deadline - time.monotonic())
                                       * 1000)),
            "sheet": self.match.sheet.to_json(),
            "match_over": self.match.is_over(),
            "between_games": g is not None and g.is_terminal(),
            "spectators": sum(1 for c in self.connections.values()
                              if self.seat_of(c.user_id) is None),
            "note": self.note or None,
            "allow_hints": bool(self.settings.get("allow_hints")),
            "tournament": self.settings.get("tournament"),
            "bot_takeover": self.bot_takeover,
            "away_timeout": self.away_timeout,
        }

    def _info_viewer(self, seat: int | None, user_id: int | None) -> dict[str, Any]:
        """``table_info`` after the shared tail: what depends on who looks."""
        return {"invite_code": self.invite_code if seat is not None else None,
                "is_creator": user_id is not None and user_id == self.creator_id}

    def table_info(self, seat: int | None, user_id: int | None = None) -> dict[str, Any]:
        return {**self._info_head(), "you": seat, **self._info_tail(),
                **self._info_viewer(seat, user_id)}

    def out_of_turn_for(self, seat: int | None) -> list[str]:
        """The texts of the out-of-turn actions ``seat`` may take now (Mulatschak's Muli,
        Mus's señas); empty for spectators, between games and for most games."""
        g = self.game
        if seat is None or g is None or g.is_terminal():
            return []
        return [str(a) for a in g.out_of_turn_actions(seat)]

    def view_for(self, seat: int | None) -> dict[str, Any] | None:
        """``seat``'s own view of the game (the engine's ``view(seat)``: nothing of the
        other hands); a view without ``legal`` gets the seat's legal actions added (its
        own, on its turn; else ``[]``)."""
        g = self.game
        if g is None:
            return None
        view: dict[str, Any] = g.view(seat)
        if "legal" not in view:
            view["legal"] = ([str(a) for a in g.legal_actions()]
                             if seat is not None and g.current_player == seat else [])
        return view

    def message_for(self, conn: Connection) -> dict[str, Any]:
        seat = self.seat_of(conn.user_id)
        view = self.view_for(seat)
        return {"type": "state", "version": self.version,
                "table": self.table_info(seat, conn.user_id),
                "view": view, "out_of_turn": self.out_of_turn_for(seat)}

    async def broadcast(self) -> None:
        """Send every connection its ``state`` message.

        The text is the same as ``json.dumps(message_for(conn))`` (compact, key order
        kept), but the part of the table info that all seats share is built and
        serialised once per broadcast, and each seat's view once, not once per socket.
        Fields that depend on the viewer belong in :meth:`_info_viewer`, which both
        paths use (``tests/test_bench_server.py`` checks the two texts are equal)."""
        if self._saving:
            return  # the broadcast after the commit sends it (save_game_committed)
        dead = []
        head = self._info_head_text()  # '{"id":…,"seats":[…]'
        tail = _dumps(self._info_tail())[1:-1]  # '"game_number":…,"spectators":n'
        prefix = f'{{"type":"state","version":{_dumps(self.version)},"table":{head},"you":'
        views: dict[int | None, str] = {}
        texts: dict[tuple[int | None, str], str] = {}
        for key, conn in list(self.connections.items()):
            try:
                if conn.send_text is None:
                    await conn.send(self.message_for(conn))
                    continue
                seat = self.seat_of(conn.user_id)
                viewer = _dumps(self._info_viewer(seat, conn.user_id))[1:-1]
                text = texts.get((seat, viewer))
                if text is None:
                    view = views.get(seat)
                    if view is None:
                        view = views[seat] = _dumps(self.view_for(seat))
                    text = texts[(seat, viewer)] = (
                        f'{prefix}{_dumps(seat)},{tail},{viewer}}},"view":{view},'
                        f'"out_of_turn":{_dumps(self.out_of_turn_for(seat))}}}')
                await conn.send_text(text)
            except Exception:  # a closed socket: drop it
                dead.append(key)
        for key in dead:
            self.connections.pop(key, None)

    # -- connections -----------------------------------------------------------------
    async def connect(self, key: int, conn: Connection) -> None:
        conn.tokens = float(self.manager.settings.action_burst)
        self.connections[key] = conn
        seat = self.seat_of(conn.user_id)
        if seat is not None:
            s = self.seats[seat]
            s.away_since = None
            self._cancel_away_timer(seat)
            if s.away or s.timed_out:
                s.away = s.timed_out = False
                self.save_table()
                self.version += 1
        for m in self.store.chat(self.id):
            await conn.send({"type": "chat", "name": m.name, "text": m.text,
                             "at": m.created_at.isoformat()})
        self.schedule()
        await self.broadcast()

    async def disconnect(self, key: int) -> None:
        conn = self.connections.pop(key, None)
        if conn is None:
            return
        seat = self.seat_of(conn.user_id)
        if seat is not None and not any(c.user_id == conn.user_id
                                        for c in self.connections.values()):
            self.seats[seat].away = True
            self.seats[seat].away_since = time.monotonic()
            self.arm_away_timer(seat)
            self.save_table()
            self.version += 1
            self.schedule()
            await self.broadcast()

    # -- actions ---------------------------------------------------------------------
    def _rate_ok(self, conn: Connection) -> bool:
        s = self.manager.settings
        now = time.monotonic()
        conn.tokens = min(float(s.action_burst), conn.tokens + (now - conn.last) * s.action_rate)
        conn.last = now
        if conn.tokens < 1:
            return False
        conn.tokens -= 1
        return True

    async def handle_action(self, conn: Connection, text: Any, version: Any,
                            ack: Any = None) -> None:
        """Check and apply one client action (see the module docstring for the order).
        ``ack``: the client's id for the action (an integer 0..2**31-1, or ``None``); once
        the action is stored and its ``state`` sent, the acting connection alone gets
        ``{"type": "ack", "id": ack, "version"}`` — the proof that this action, and not
        only some change of the table, went through."""
        if ack is not None and (type(ack) is not int or not 0 <= ack < 2 ** 31):
            raise ActionRejected("invalid_action",
                                 f"id must be an integer 0..2147483647, not {ack!r}")
        await self._handle_action(conn, text, version)
        if ack is not None:
            with contextlib.suppress(Exception):  # (a socket closed meanwhile: no one to tell)
                await conn.send({"type": "ack", "id": ack, "version": self.version})

    async def _handle_action(self, conn: Connection, text: Any, version: Any) -> None:
        if not self._rate_ok(conn):
            raise ActionRejected("rate_limited", "too many actions; slow down")
        async with self.lock:
            seat = self.seat_of(conn.user_id)
            if seat is None:
                raise ActionRejected("not_seated", "spectators cannot act; take a free seat")
            s = self.seats[seat]
            if s.timed_out or s.away:
                s.timed_out = s.away = False
                self.save_table()
                # the seat is the player's again: a bot move pending for it is dropped, and
                # if it is their turn the turn timer must run (also if this action is refused)
                self.schedule()
            if not isinstance(text, str):
                raise ActionRejected("invalid_action", f"action must be text, not {text!r}")
            word = text.strip().lower()
            g = self.game
            if word in ("next", "weiter_spiel", "nächstes"):
                await self._next_game_checked(version)
                return
            if self.match.is_over():
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
            if version != self.version:
                raise ActionRejected("stale_state",
                                     f"your view is version {version!r}, the table is at "
                                     f"{self.version}; the current view follows")
            try:
                action = g.parse_action(text)
                g.apply_as(seat, action)
            except IllegalActionError as e:
                raise ActionRejected(e.code, str(e)) from None
            except StammtischError as e:
                raise ActionRejected(e.code, str(e)) from None
            await self._after_change()

    async def _out_of_turn(self, g: GameState, seat: int, action: Action | None) -> None:
        """An action of ``seat`` while another seat is to act: applied when it is one of
        the seat's out-of-turn actions now (``GameState.out_of_turn_actions``), else the
        usual ``not_your_turn``.  It needs no current version (a Muli may be called
        while the others go on bidding; it is checked against the state as it is).  Any
        chance it involves is drawn from a seed taken from the table's rng and kept with
        the action, so that a restart replays it exactly.  ``action``: the parsed
        out-of-turn action (:func:`_out_of_turn_action`), ``None`` when the text was none."""
        if action is None:
            raise ActionRejected("not_your_turn", f"it is seat {g.current_player}'s turn, "
                                 f"not yours (seat {seat})")
        seed = self.manager.rng.randrange(2 ** 32)
        at = len(action_log(g))
        try:
            g.apply_out_of_turn(seat, action, random.Random(seed))
        except StammtischError as e:
            raise ActionRejected(e.code, str(e)) from None
        self.out_of_turn.append({"at": at, "seat": seat, "action": str(action),
                                 "seed": seed})
        await self._after_change()

    async def _next_game_checked(self, version: Any) -> None:
        if self.match.is_over():
            raise ActionRejected("game_over", "the match is over")
        if self.game is not None and not self.game.is_terminal():
            raise ActionRejected("illegal_action", "the current game is not finished")
        if self.game is not None and version != self.version:
            raise ActionRejected("stale_state", f"the table is at version {self.version}")
        if not self.is_full():
            raise ActionRejected("illegal_action",
                                 f"the table needs {self.num_seats} players")
        await self._start_game()

    def deal_rng(self, number: int) -> Rng | None:
        """Duplicate deals: game ``number`` of every table with the same ``deal_seed``
        is shuffled alike (online tournament rounds)."""
        seed = self.settings.get("deal_seed")
        return None if not seed else random.Random(f"{seed}:{number}")

    async def stop(self, reason: str) -> None:
        """End the table now (e.g. the tournament round's time ran out)."""
        self.status = "finished"
        self.note = reason
        self.save_table()
        self.version += 1
        self.schedule()
        await self.broadcast()

    async def _start_game(self) -> None:
        state = self.match.start_game()
        self.manager.resolve_chance(state, self.deal_rng(self.game_number + 1))
        self.game = state
        self.game_number += 1
        self.stand_in = []
        self.out_of_turn = []
        self.game_humans = {i: s.user_id for i, s in enumerate(self.seats) if s.kind == "human"}
        if self.status != "playing":
            self.status = "playing"
            self.save_table()
            await self.manager.lobby_changed()
        await self._after_change()

    async def _after_change(self) -> None:
        g = self.game
        if g is not None and not g.is_terminal() and g.current_player == CHANCE:
            # chance in the middle of a game (Mus reshuffles the discards when the stock
            # runs out): drawn from the table's rng; the log keeps the outcome, so a
            # restart replays it
            self.manager.resolve_chance(g)
        if g is not None and g.is_terminal() and self.match.state is g:
            bobbl = self.match.finish_game()
            if bobbl is not None and self.manager.on_bobbl is not None:
                await self.manager.on_bobbl(self, bobbl,
                                            len(self.match.sheet.finished_bobbl()) - 1)
            if self.match.is_over():
                self.status = "finished"
                self.save_table()
                await self.manager.lobby_changed()
        # committed before the version that shows it exists (a ``sync`` meanwhile gets
        # the old version: no client takes it for the acknowledgement)
        await self.save_game_committed()
        self.version += 1
        self.schedule()
        await self.broadcast()

    # -- hints ---------------------------------------------------------------------------
    async def hint(self, conn: Connection, version: Any) -> dict[str, Any]:
        """A card suggestion for the asker (tables with ``allow_hints``): the PIMC bot's
        card and each legal card's expected final Augen for the asker's pair.  Only in
        the card play, only on the asker's turn, only for the current version.  It is
        computed from the asker's own view: the other hands are replaced by a random deal
        consistent with that view before the bot sees the state."""
        if not self.settings.get("allow_hints") or self.desc.hint is None:
            raise ActionRejected("hints_disabled", "hints are not allowed at this table")
        if not self._rate_ok(conn):
            raise ActionRejected("rate_limited", "too many requests; slow down")
        async with self.lock:
            seat = self.seat_of(conn.user_id)
            if seat is None:
                raise ActionRejected("not_seated", "only a player at the table gets hints")
            g = self.game
            if g is None or g.is_terminal():
                raise ActionRejected("game_over", "no game is running")
            if g.current_player != seat:
                raise ActionRejected("not_your_turn",
                                     f"it is seat {g.current_player}'s turn, not yours "
                                     f"(seat {seat})")
            if g.phase != "play":
                raise ActionRejected("no_hint", "hints are given for the card play only")
            if version != self.version:
                raise ActionRejected("stale_state",
                                     f"your view is version {version!r}, the table is at "
                                     f"{self.version}; the current view follows")
            # a seed of its own (the table's random stream stays untouched): the same
            # question about the same position gets the same answer
            seed = zlib.crc32(f"{self.id}:{self.version}:{seat}".encode())
            state = g.clone()
        card, values = await asyncio.to_thread(_hint_for, state, seat, seed)
        return {"type": "hint", "version": version, "card": card, "values": values}

    # -- chat ---------------------------------------------------------------------------
    async def chat(self, conn: Connection, text: Any) -> None:
        if not isinstance(text, str) or not text.strip():
            raise ActionRejected("invalid_chat", "a chat message needs text")
        limit = self.manager.settings.chat_max_length
        clean = "".join(ch for ch in text.strip() if ch.isprintable())
        if len(clean) > limit:
            raise ActionRejected("chat_too_long", f"at most {limit} characters")
        if not self._rate_ok(conn):
            raise ActionRejected("rate_limited", "too many messages; slow down")
        m = self.store.add_chat(self.id, conn.user_id, conn.name, clean, self.lease_gen)
        msg = {"type": "chat", "name": m.name, "text": m.text, "at": m.created_at.isoformat()}
        for c in list(self.connections.values()):
            with contextlib.suppress(Exception):
                await c.send(msg)

    # -- bots and timers --------------------------------------------------------------
    def schedule(self) -> None:
        """After any change: let a bot act, arm the turn timer, or auto-start a game."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.turn_deadline = None
        if self.status == "finished" or self.manager.closing:
            return
        loop = asyncio.get_running_loop()
        g = self.game
        if g is None or g.is_terminal():
            if self.is_full() and not self.match.is_over() and (
                    (g is None and self.status == "playing")
                    or (g is not None and all(self.bot_plays(i) for i in range(self.num_seats)))
                    or (self.settings.get("auto_start") and g is None)):
                delay = 0 if g is None else self.manager.settings.auto_next_delay
                self._timer = loop.call_later(delay, self._spawn, self._auto_next)
            return
        seat = g.current_player
        if seat < 0:
            return
        if self.bot_plays(seat):
            self._timer = loop.call_later(self.manager.settings.bot_delay, self._spawn,
                                          self._bot_move)
            return
        timer = int(self.settings.get("turn_timer", 0) or 0)
        if timer > 0:
            self.turn_deadline = time.monotonic() + timer
            self._timer = loop.call_later(timer, self._spawn, self._time_out)

    def _spawn(self, fn: Callable[[], Coroutine[Any, Any, None]]) -> None:
        task = asyncio.get_running_loop().create_task(fn())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _auto_next(self) -> None:
        async with self.lock:
            g = self.game
            if (g is None or g.is_terminal()) and self.is_full() and not self.match.is_over():
                await self._start_game()

    async def _time_out(self) -> None:
        async with self.lock:
            g = self.game
            if g is None or g.is_terminal():
                return
            seat = g.current_player
            if seat >= 0 and self.seats[seat].kind == "human":
                self.seats[seat].timed_out = True
                self.save_table()
                self.version += 1
            self.schedule()
            await self.broadcast()

    def bot_for(self, seat: int) -> Bot:
        st = self.seats[seat]
        bot = self.bots.get(seat)
        name = st.bot if st.bot in registry.bot_names(self.game_name) \
            else default_bot(self.game_name)
        if bot is None or bot.name != name:
            bot = self.bots[seat] = registry.make_bot(self.game_name, name)
        return bot

    async def _bot_move(self) -> None:
        async with self.lock:
            g = self.game
            if g is None or g.is_terminal():
                return
            seat = g.current_player
            if seat < 0 or not self.bot_plays(seat):
                return
            bot = self.bot_for(seat)
            if bot.name.startswith(("pimc", "ismcts")):
                # search bots think for a while: off the event loop, on a copy of the game
                action = await asyncio.to_thread(bot.choose, g.clone(), self.manager.rng)
            else:
                action = bot.choose(g, self.manager.rng)
            if self.seats[seat].entrant:
                self.standins.add(self.seats[seat].entrant)
            if seat in self.game_humans:
                self.stand_in.append(_stand_in_mark(g, seat, action))
            g.apply_as(seat, action)
            await self._after_change()

    # -- time away ----------------------------------------------------------------------
    def arm_away_timer(self, seat: int) -> None:
        """Release ``seat`` when its player is still away after ``away_timeout``."""
        self._cancel_away_timer(seat)
        s = self.seats[seat]
        if s.kind != "human" or not s.away or self.away_timeout <= 0 or self.manager.closing:
            return
        since = s.away_since if s.away_since is not None else time.monotonic()
        delay = max(0.0, since + self.away_timeout - time.monotonic())
        user_id = s.user_id
        loop = asyncio.get_running_loop()
        self._away_timers[seat] = loop.call_later(
            delay, self._spawn, lambda: self._release_away(seat, user_id))

    def _cancel_away_timer(self, seat: int) -> None:
        handle = self._away_timers.pop(seat, None)
        if handle is not None:
            handle.cancel()

    async def _release_away(self, seat: int, user_id: int | None) -> None:
        """The player stayed away too long: the seat becomes free (the session at the
        table ends).  During a game a bot plays the free seat until someone sits down."""
        async with self.lock:
            self._away_timers.pop(seat, None)
            s = self.seats[seat]
            if (s.kind != "human" or s.user_id != user_id or not s.away
                    or any(c.user_id == user_id for c in self.connections.values())):
                return
            self.seats[seat] = Seat()
            self.save_table()
            self.version += 1
            self.schedule()
            await self.broadcast()
        await self.manager.lobby_changed()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for handle in self._away_timers.values():
            handle.cancel()
        self._away_timers.clear()
        for t in list(self._tasks):
            t.cancel()


def _stand_in_mark(g: GameState, seat: int, action: Any) -> dict[str, Any]:
    """The mark of one action a bot takes for a person's seat: where it is in the
    record (``call``: index in ``calls``, ``doubling``: in the doublings, ``play``: in
    ``plays``)."""
    mark: dict[str, Any] = {"seat": seat, "action": str(action), "phase": g.phase}
    if g.phase == "play" and hasattr(g, "tricks"):
        mark["play"] = sum(len(cards) for _, cards in g.tricks.tricks) + len(g.tricks.current)
    elif g.phase in ("bidding", "muss") and hasattr(g, "calls"):  # Mucken
        mark["call"] = len(g.calls)
    elif g.phase == "doubling" and hasattr(g, "doubling_seats"):
        mark["doubling"] = len(g.doubling_seats)
    if g.game_name != registry.DEFAULT_GAME and hasattr(g, "history"):
        # other games (Schafkopf): the action's index in the record's ``actions`` (the
        # seats' actions in order, chance left out)
        mark["index"] = sum(1 for s, _ in g.history if s >= 0)
    return mark


def replay_log(state: GameState, log: list[str], events: list[dict[str, Any]]) -> GameState:
    """Rebuild a live game from its stored ``log`` (every action's text, chance included)
    and its out-of-turn ``events`` (``TableRuntime.out_of_turn``): each event is applied
    with ``apply_out_of_turn`` and the rng of its seed where it came, and the log entries
    the game itself wrote for it (Mulatschak keeps a Muli in its history) are skipped."""
    pos = 0

    def upto(end: int) -> None:
        nonlocal pos
        for i in range(pos, end):
            try:
                state.apply(state.parse_action(log[i]))
            except ValueError as e:
                raise type(e)(f"action {i}: {e}") from None
        pos = max(pos, end)

    for e in events:
        upto(int(e["at"]))
        before = len(action_log(state))
        state.apply_out_of_turn(int(e["seat"]), state.parse_action(str(e["action"])),
                                random.Random(int(e["seed"])))
        pos += len(action_log(state)) - before
    upto(len(log))
    return state


def _hint_for(state: GameState, seat: int, seed: int) -> tuple[str, dict[str, float]]:
    """The hint's card and values (runs in a worker thread, on a copy of the game): the
    game's ``hint`` from the asker's view only."""
    hint = registry.get(state.game_name).hint
    if hint is None:
        raise StammtischError(f"{state.game_name}: no hints")
    return hint(state, seat, seed)


class TableManager:
    """All live tables of the server; restores them from the store at start."""

    #: the class of its live tables (several workers: a fenced one, server/cluster.py)
    runtime: type[TableRuntime] = TableRuntime

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.rng: Rng = (random.Random(settings.seed) if settings.seed is not None
                         else random.SystemRandom())
        self.tables: dict[str, TableRuntime] = {}
        self.lobby: dict[int, Send] = {}
        self.closing = False
        #: called when a table finishes a Bobbl: (table, Bobbl, its index at the table)
        self.on_bobbl: Callable[[TableRuntime, Bobbl, int], Awaitable[None]] | None = None
        #: group commit of the game records (server/writer.py; default: PostgreSQL only)
        self.writer: GameWriter | None = GameWriter(store) if GameWriter.wanted(store) else None

    def resolve_chance(self, state: GameState, rng: Rng | None = None) -> None:
        while state.current_player == CHANCE:
            state.apply(state.sample_chance(rng or self.rng))

    def load(self) -> None:
        for row in self.store.tables(("open", "playing")):
            rt = TableRuntime(self, row)
            rt.restore()
            self.tables[rt.id] = rt

    async def start(self) -> None:
        for rt in self.tables.values():
            rt.schedule()
            for i, s in enumerate(rt.seats):
                if s.kind == "human" and s.away:
                    rt.arm_away_timer(i)

    def close(self) -> None:
        self.closing = True
        for rt in self.tables.values():
            rt.close()

    def get(self, table_id: str) -> TableRuntime | None:
        return self.tables.get(table_id)

    def create(self, *, name: str, creator_id: int | None, creator_name: str, public: bool,
               rules: Rules, settings: dict[str, Any], bot_seats: list[int],
               bot_name: str, creator_seat: int | None,
               seats: list[Seat] | None = None,
               game: str = registry.DEFAULT_GAME) -> TableRuntime:
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        if seats is None:
            seats = [Seat() for _ in range(int(settings.get("players") or 4))]
        seats = list(seats)
        for i in bot_seats:
            seats[i] = Seat(kind="bot", name=f"Bot {i + 1}", bot=bot_name)
        if creator_seat is not None and creator_id is not None:
            seats[creator_seat] = Seat(kind="human", user_id=creator_id, name=creator_name)
        rules_json = rules.to_json()
        row = self.store.create_table(
            id=table_id, name=name, creator_id=creator_id, public=public,
            invite_code=secrets.token_urlsafe(12), rules=rules_json,
            settings=settings if game == registry.DEFAULT_GAME else {**settings, "game": game},
            seats=[s.to_json() for s in seats], first_dealer=0, status="open")
        rt = self.runtime(self, row)
        self.tables[rt.id] = rt
        return rt

    def lobby_list(self) -> list[dict[str, Any]]:
        out = []
        for rt in self.tables.values():
            if not rt.public or rt.status == "finished":
                continue
            out.append({
                "id": rt.id, "name": rt.name, "game": rt.game_name,
                "rules": rt.rules_name, "status": rt.status, "players": rt.num_seats,
                "seats": [{"name": s.name, "kind": s.kind} for s in rt.seats],
                "free": [i for i, s in enumerate(rt.seats) if s.kind == "empty"],
                "bobbl_target": getattr(rt.rules, "bobbl_target", None),
                "turn_timer": rt.settings.get("turn_timer", 0),
                "spectators": sum(1 for c in rt.connections.values()
                                  if rt.seat_of(c.user_id) is None),
            })
        return out

    async def lobby_changed(self) -> None:
        if not self.lobby:
            return  # nobody watches the lobby: do not build the list (O(tables) per call)
        msg = {"type": "lobby", "tables": self.lobby_list()}
        for key, send in list(self.lobby.items()):
            try:
                await send(msg)
            except Exception:
                self.lobby.pop(key, None)
