"""The tournament manager's commands: one method per action at the desk or a table's phone.

Every change goes through the store's ``apply(tournament_id, who, command, payload, fn)``:
the store loads the tournament document, ``fn`` changes the :class:`Tournament` (a
:class:`TournamentError` or :class:`ConflictError` leaves everything unchanged), and the
store saves it as the next version together with an audit row (who, when, the command
and its input).  When another writer saved in between, the store runs the whole load and
``fn`` again on the newer document, so commands on *different* entities (two tables'
Bobbl, two registrations) never overwrite each other and never conflict; commands on the
*same* entity carry the entity's ``expected_version`` and get a :class:`ConflictError`
naming it when it moved.

Reads (overview, sheet, ranking without new lots, exports) only load.  ``ranking`` is a
command when it has to draw a lot: the lot is stored once and shown as decided by lot.

The store is anything with the :class:`TournamentRepository` methods (the SQL one is
:class:`stammtisch.persistence.tournament_store.TournamentStore`); this module does
not import the persistence layer.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

from stammtisch.tournament import export
from stammtisch.tournament.model import BobblSlot, Entrant, Round, Tournament
from stammtisch.tournament.ranking import METHODS, Method, RankRow, order
from stammtisch.tournament.settings import ConflictError, TournamentError, TournamentSettings

T = TypeVar("T")

__all__ = [
    "Applied",
    "AuditEntry",
    "ConflictError",
    "NoWrite",
    "NotFoundError",
    "TournamentError",
    "TournamentInfo",
    "TournamentRepository",
    "TournamentService",
    "table_token",
]


class NotFoundError(TournamentError):
    """An unknown tournament, or an unknown entrant/Bobbl/table named in a path."""

    code = "not_found"


@dataclass(frozen=True)
class TournamentInfo:
    """A stored tournament's row, without its document."""

    id: str
    name: str
    owner_user_id: int | None
    version: int
    table_token: str
    created_at: datetime
    updated_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "owner_user_id": self.owner_user_id,
                "version": self.version, "created_at": self.created_at.isoformat(),
                "updated_at": self.updated_at.isoformat()}


@dataclass(frozen=True)
class Applied(Generic[T]):
    """What ``apply`` returns: ``fn``'s value, the tournament's version afterwards, and
    whether a new version was written."""

    value: T
    version: int
    written: bool


@dataclass(frozen=True)
class NoWrite(Generic[T]):
    """Returned by an ``apply`` function when nothing changed: nothing is written."""

    value: T


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    at: datetime
    who: str
    command: str
    payload: dict[str, Any]
    result_version: int

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at.isoformat(), "who": self.who,
                "command": self.command, "payload": self.payload,
                "result_version": self.result_version}


class TournamentRepository(Protocol):
    def create(self, tournament: Tournament, *, who: str, owner_user_id: int | None,
               command: str = "create",
               payload: dict[str, Any] | None = None) -> TournamentInfo: ...

    def load(self, tournament_id: str) -> tuple[Tournament, TournamentInfo]: ...

    def info(self, tournament_id: str) -> TournamentInfo: ...

    def tournaments(self, owner_user_id: int | None = None) -> list[TournamentInfo]: ...

    def apply(self, tournament_id: str, who: str, command: str, payload: dict[str, Any],
              fn: Callable[[Tournament], Any]) -> Applied[Any]: ...

    def audit(self, tournament_id: str, *, after: int = 0,
              limit: int = 1000) -> list[AuditEntry]: ...


def table_token(secret: str, tournament_id: str, table: int) -> str:
    """The token of one table's phone link (derived from the tournament's secret, so a
    phone at table 3 cannot enter table 4's results)."""
    msg = f"{tournament_id}/table/{table}".encode()
    return hmac.new(secret.encode(), msg, hashlib.sha256).hexdigest()[:24]


_BOOL_SETTINGS = {f.name for f in dataclasses.fields(TournamentSettings) if f.type == "bool"}
_STR_SETTINGS = {f.name for f in dataclasses.fields(TournamentSettings)
                 if f.type in ("str", "Mode", "Seating", "Ranking", "OddHandling")}


def _check_setting_types(changes: Mapping[str, Any]) -> None:
    """The settings object checks ranges; JSON input also needs the right types."""
    for key, value in changes.items():
        if key in _BOOL_SETTINGS and not isinstance(value, bool):
            raise TournamentError(f"{key}={value!r}: must be true or false", "bad_setting",
                                  setting=key)
        if key in _STR_SETTINGS and not isinstance(value, str):
            raise TournamentError(f"{key}={value!r}: must be text", "bad_setting", setting=key)


def _games(games: Any) -> list[tuple[int, int]]:
    """Games as ``[side, points]`` pairs (the model checks the values)."""
    if isinstance(games, str | bytes | Mapping) or not isinstance(games, Sequence):
        raise TournamentError(f"games={games!r}: must be a list of [side, points]",
                              "bad_input", field="games")
    out = []
    for i, g in enumerate(games):
        if isinstance(g, str | bytes | Mapping) or not isinstance(g, Sequence) or len(g) != 2:
            raise TournamentError(f"games[{i}]={g!r}: must be [side, points]", "bad_game",
                                  game=i + 1)
        out.append(cast(tuple[int, int], tuple(g)))
    return out


def _slot_json(slot: BobblSlot) -> dict[str, Any]:
    return {"key": slot.key, **slot.to_json(), "decided": slot.decided}


def _sides_json(t: Tournament, rnd: Round, table: int) -> list[dict[str, Any] | None]:
    a, b = rnd.tables[table]
    return [None if side is None else
            {"side": i, "entrants": [{"id": x, "names": list(t.entrants[x].names)
                                      if x in t.entrants else []} for x in side]}
            for i, side in ((1, a), (2, b))]


class TournamentService:
    """One method per command.  ``who`` is the user's name at the desk, or
    ``"phone table N"``; it goes into the audit log with the time."""

    def __init__(self, store: TournamentRepository, *, seed: int | None = None,
                 rng: random.Random | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        #: the draw, seating and lots: cryptographic randomness unless a seed is given
        self.rng: random.Random = rng or (random.Random(seed) if seed is not None
                                          else random.SystemRandom())
        self.clock = clock

    # -- plumbing -------------------------------------------------------------------------
    def _apply(self, tid: str, who: str, command: str, payload: dict[str, Any],
               fn: Callable[[Tournament], Any]) -> Applied[Any]:
        return self.store.apply(tid, who, command, payload, fn)

    def _done(self, applied: Applied[Any], **out: Any) -> dict[str, Any]:
        return {**out, "tournament_version": applied.version}

    def load(self, tid: str) -> tuple[Tournament, TournamentInfo]:
        return self.store.load(tid)

    def info(self, tid: str) -> TournamentInfo:
        return self.store.info(tid)

    def tournaments(self, owner_user_id: int | None = None) -> list[dict[str, Any]]:
        return [i.to_json() for i in self.store.tournaments(owner_user_id)]

    @staticmethod
    def _entrant_json(t: Tournament, e: Entrant) -> dict[str, Any]:
        place = t.draw.get(e.id)
        return {**e.to_json(), "names": list(e.names),
                "place": None if place is None else list(place)}

    @staticmethod
    def _known_entrant(t: Tournament, entrant: str) -> Entrant:
        if entrant not in t.entrants:
            raise NotFoundError(f"no entrant {entrant!r}", "no_entrant", entrant=entrant)
        return t.entrants[entrant]

    @staticmethod
    def _known_slot(t: Tournament, round_: int, table: int, index: int) -> BobblSlot:
        key = f"{round_}/{table}/{index}"
        if key not in t.slots:
            raise NotFoundError(f"Bobbl {key}: no such Bobbl (round/table/index; index "
                                "from 0)", "no_bobbl")
        return t.slots[key]

    # -- the tournament ------------------------------------------------------------------
    def create(self, who: str, settings: Mapping[str, Any] | TournamentSettings | None = None,
               *, owner_user_id: int | None = None) -> dict[str, Any]:
        if isinstance(settings, TournamentSettings):
            s = settings
        else:
            if settings is not None and not isinstance(settings, Mapping):
                raise TournamentError("settings: must be an object", "bad_input",
                                      field="settings")
            _check_setting_types(settings or {})
            s = TournamentSettings.from_json(settings or {})
        info = self.store.create(Tournament(s), who=who, owner_user_id=owner_user_id,
                                 payload={"settings": s.to_json()})
        return {**info.to_json(), "settings": s.to_json(), "tournament_version": info.version}

    def change_settings(self, tid: str, who: str, changes: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(changes, Mapping) or not changes:
            raise TournamentError("settings: name at least one setting to change",
                                  "no_change")
        _check_setting_types(changes)

        def fn(t: Tournament) -> dict[str, Any]:
            t.change_settings(**dict(changes))
            return t.settings.to_json()

        a = self._apply(tid, who, "change_settings", dict(changes), fn)
        return self._done(a, settings=a.value)

    # -- the desk: registration ------------------------------------------------------------
    def register(self, tid: str, who: str, names: Sequence[str], *, paid: bool = False,
                 helper: bool = False) -> dict[str, Any]:
        if isinstance(names, str) or not isinstance(names, Sequence) \
                or not all(isinstance(n, str) for n in names):
            raise TournamentError(f"names={names!r}: must be a list of names", "bad_input",
                                  field="names")

        def fn(t: Tournament) -> dict[str, Any]:
            e = t.register(names, self.rng, paid=paid, helper=helper)
            return {"entrant": self._entrant_json(t, e),
                    "same_names": t.same_names(e.names, besides=e.id)}

        a = self._apply(tid, who, "register",
                        {"names": list(names), "paid": paid, "helper": helper}, fn)
        # same_names: entrants already registered under these names (the desk warns)
        return self._done(a, entrant=a.value["entrant"], same_names=a.value["same_names"])

    def import_csv(self, tid: str, who: str, text: str) -> dict[str, Any]:
        """Pre-registrations from CSV (``name1;name2[;code]``), each with its code for the
        QR scan at the door (:meth:`check_in`)."""
        if not isinstance(text, str) or not text.strip():
            raise TournamentError("csv: no pre-registrations given", "csv_empty")

        def fn(t: Tournament) -> list[dict[str, Any]]:
            return [self._entrant_json(t, e) for e in t.import_csv(text)]

        a = self._apply(tid, who, "import_csv", {"csv": text}, fn)
        return self._done(a, entrants=a.value)

    def check_in(self, tid: str, who: str, code: str) -> dict[str, Any]:
        """The QR scan at the door: a pre-registration by its code is registered (and in
        pairs mode drawn its table and pair number)."""
        if not isinstance(code, str) or not code.strip():
            raise TournamentError("code: missing", "code_missing")

        def fn(t: Tournament) -> dict[str, Any]:
            return self._entrant_json(t, t.check_in(code.strip(), self.rng))

        a = self._apply(tid, who, "check_in", {"code": code}, fn)
        return self._done(a, entrant=a.value)

    def _set_flag(self, tid: str, who: str, entrant: str, flag: str, value: bool,
                  expected_version: int | None, set_flag: Callable[[Tournament], object]
                  ) -> dict[str, Any]:
        """Set an entrant's yes/no ``flag`` (``paid``, ``present``) by ``set_flag``; the
        answer is the entrant."""
        if not isinstance(value, bool):
            raise TournamentError(f"{flag}={value!r}: must be true or false", "bad_input",
                                  field=flag)

        def fn(t: Tournament) -> dict[str, Any]:
            e = self._known_entrant(t, entrant)
            set_flag(t)
            return self._entrant_json(t, e)

        a = self._apply(tid, who, f"set_{flag}", {"entrant": entrant, flag: value,
                                                  "expected_version": expected_version}, fn)
        return self._done(a, entrant=a.value)

    def set_paid(self, tid: str, who: str, entrant: str, paid: bool,
                 expected_version: int | None = None) -> dict[str, Any]:
        return self._set_flag(tid, who, entrant, "paid", paid, expected_version,
                              lambda t: t.set_paid(entrant, paid, expected_version))

    def withdraw(self, tid: str, who: str, entrant: str,
                 expected_version: int | None = None) -> dict[str, Any]:
        """Remove an entrant who has not played yet, or withdraw one between rounds (see
        :meth:`Tournament.withdraw`).  The answer says which: ``"how": "removed"`` or
        ``"withdrawn"``."""
        def fn(t: Tournament) -> dict[str, Any]:
            self._known_entrant(t, entrant)
            return {"withdrawn": entrant, "how": t.withdraw(entrant, expected_version)}

        a = self._apply(tid, who, "withdraw", {"entrant": entrant,
                                               "expected_version": expected_version}, fn)
        return self._done(a, **a.value)

    def set_present(self, tid: str, who: str, entrant: str, present: bool,
                    expected_version: int | None = None) -> dict[str, Any]:
        """Mark an entrant present or absent (before the start, or between rounds)."""
        return self._set_flag(tid, who, entrant, "present", present, expected_version,
                              lambda t: t.set_present(entrant, present, self.rng,
                                                      expected_version))

    # -- the draw ----------------------------------------------------------------------------
    @staticmethod
    def _moves_json(moves: list[tuple[str, tuple[int, int], tuple[int, int]]]
                    ) -> list[dict[str, Any]]:
        return [{"entrant": p, "from": list(a), "to": list(b)} for p, a, b in moves]

    def gap_moves(self, tid: str) -> dict[str, Any]:
        """The fewest moves that close the gaps in the draw (proposed, not made)."""
        t, info = self.load(tid)
        return {"moves": self._moves_json(t.gap_moves()), "tournament_version": info.version}

    def close_gaps(self, tid: str, who: str) -> dict[str, Any]:
        def fn(t: Tournament) -> Any:
            moves = self._moves_json(t.close_gaps())
            return moves if moves else NoWrite(moves)

        a = self._apply(tid, who, "close_gaps", {}, fn)
        return self._done(a, moves=a.value)

    def move(self, tid: str, who: str, entrant: str, table: int, pos: int) -> dict[str, Any]:
        def fn(t: Tournament) -> dict[str, Any]:
            e = self._known_entrant(t, entrant)
            t.move(entrant, table, pos)
            return self._entrant_json(t, e)

        a = self._apply(tid, who, "move", {"entrant": entrant, "table": table, "pos": pos}, fn)
        return self._done(a, entrant=a.value)

    # -- rounds ------------------------------------------------------------------------------
    def _round_json(self, t: Tournament, rnd: Round) -> dict[str, Any]:
        return {**rnd.to_json(), "clock": self._clock_json(t, rnd)}

    def _clock_json(self, t: Tournament, rnd: Round) -> dict[str, Any]:
        limit = t.settings.time_limit_minutes * 60
        ends = rnd.started_at + limit if rnd.started_at is not None and limit else None
        return {"started_at": rnd.started_at, "ends_at": ends,
                "remaining": None if ends is None else max(0.0, ends - self.clock()),
                "closed": rnd.closed}

    def start(self, tid: str, who: str) -> dict[str, Any]:
        """Fix the settings and seat round 1 (an odd field or gaps in the draw refuse)."""
        a = self._apply(tid, who, "start", {},
                        lambda t: self._round_json(t, t.start(self.rng)))
        return self._done(a, round=a.value)

    def next_round(self, tid: str, who: str) -> dict[str, Any]:
        a = self._apply(tid, who, "next_round", {},
                        lambda t: self._round_json(t, t.next_round(self.rng)))
        return self._done(a, round=a.value)

    def start_clock(self, tid: str, who: str, round_: int,
                    at: float | None = None) -> dict[str, Any]:
        when = self.clock() if at is None else at
        if isinstance(when, bool) or not isinstance(when, int | float) or not \
                math.isfinite(when):
            raise TournamentError(f"at={at!r}: must be a time (seconds since 1970)",
                                  "bad_input", field="at")

        def fn(t: Tournament) -> dict[str, Any]:
            t.start_clock(round_, float(when))
            return self._clock_json(t, t.rounds[round_ - 1])

        a = self._apply(tid, who, "start_clock", {"round": round_, "at": when}, fn)
        return self._done(a, round=round_, clock=a.value)

    def time_up(self, tid: str, who: str, round_: int, *, force: bool = False
                ) -> dict[str, Any]:
        """The round's time ran out: open Bobbl are lost by both, their points counted
        as Tore.  Unless ``force``, the round's clock must have run out."""
        now = self.clock()

        def fn(t: Tournament) -> list[str]:
            if not 1 <= round_ <= len(t.rounds):
                raise NotFoundError(f"no round {round_} (seated: {len(t.rounds)})", "no_round",
                                    round=round_)
            rnd = t.rounds[round_ - 1]
            if not force:
                limit = t.settings.time_limit_minutes * 60
                if rnd.started_at is None:
                    raise TournamentError(f"round {round_}: the clock was not started "
                                          "(force to close the round anyway)",
                                          "clock_not_started", round=round_)
                if not limit:
                    raise TournamentError("time_limit_minutes is 0: no time limit "
                                          "(force to close the round anyway)", "no_time_limit")
                left = rnd.started_at + limit - now
                if left > 0:
                    raise TournamentError(
                        f"round {round_}: {math.ceil(left / 60)} min left on the clock "
                        "(force to close the round anyway)", "time_left", round=round_,
                        minutes=math.ceil(left / 60))
            return [s.key for s in t.time_up(round_)]

        a = self._apply(tid, who, "time_up", {"round": round_, "force": force}, fn)
        return self._done(a, round=round_, closed=a.value)

    # -- results ---------------------------------------------------------------------------
    def enter(self, tid: str, who: str, round_: int, table: int, index: int, *,
              source: str = "desk", games: Sequence[Sequence[int]] | None = None,
              winner: int | None = None, loser_points: int | None = None,
              expected_version: int | None = None, final: bool = False) -> dict[str, Any]:
        """A Bobbl's result, game by game (``games``: ``[side, points]`` each; the game
        that reaches the target ends it and is not counted) or as final figures
        (``winner`` side, ``loser_points``).  ``final``: the desk's word, accepted at once
        even with double entry (a correction)."""
        return self._enter(tid, who, round_, table, index, source=source, games=games,
                           winner=winner, loser_points=loser_points,
                           expected_version=expected_version, final=final)

    def _enter(self, tid: str, who: str, round_: int | None, table: int, index: int, *,
               source: str, games: Sequence[Sequence[int]] | None, winner: int | None,
               loser_points: int | None, expected_version: int | None,
               final: bool) -> dict[str, Any]:
        """``round_`` None: the current round (the phones)."""
        if not isinstance(source, str) or not 1 <= len(source) <= 40:
            raise TournamentError(f"source={source!r}: 1..40 characters", "bad_input",
                                  field="source")
        checked = None if games is None else _games(games)
        at = self.clock()

        def fn(t: Tournament) -> dict[str, Any]:
            number = round_
            if number is None:
                if not t.started:
                    raise TournamentError("the tournament has not started", "not_started")
                number = len(t.rounds)
                if table not in t.rounds[-1].tables:
                    raise NotFoundError(f"no table {table} in round {number}", "no_table",
                                        table=table, round=number)
            self._known_slot(t, number, table, index)
            slot = t.enter(number, table, index, source=source, games=checked, winner=winner,
                           loser_points=loser_points, by=who, at=at,
                           expected_version=expected_version)
            if final:
                slot = t.confirm(number, table, index, source, by=who)
            return _slot_json(slot)

        payload = {"round": round_, "table": table, "index": index, "source": source,
                   "games": None if checked is None else [list(g) for g in checked],
                   "winner": winner, "loser_points": loser_points,
                   "expected_version": expected_version, "final": final}
        a = self._apply(tid, who, "enter", payload, fn)
        return self._done(a, bobbl=a.value)

    def online_result(self, tid: str, round_: int, table: int, index: int, *,
                      games: Sequence[Sequence[int]] | None = None,
                      winner: int | None = None, loser_points: int | None = None,
                      standins: Sequence[str] = ()) -> dict[str, Any]:
        """A Bobbl played on the server's tables: final at once (no entry by anybody), and
        the entrants a bot stood in for are flagged."""
        checked = None if games is None else _games(games)
        at = self.clock()

        def fn(t: Tournament) -> dict[str, Any]:
            self._known_slot(t, round_, table, index)
            slot = t.enter(round_, table, index, source="online", games=checked,
                           winner=winner, loser_points=loser_points, by="server", at=at)
            if slot.entries["online"].winner is not None:
                slot = t.confirm(round_, table, index, "online", by="server")
            for e in dict.fromkeys(standins):
                t.note_standin(e)
            return _slot_json(slot)

        payload = {"round": round_, "table": table, "index": index,
                   "games": None if checked is None else [list(g) for g in checked],
                   "winner": winner, "loser_points": loser_points, "standins": list(standins)}
        a = self._apply(tid, "server", "online_result", payload, fn)
        return self._done(a, bobbl=a.value)

    def confirm(self, tid: str, who: str, round_: int, table: int, index: int, source: str,
                expected_version: int | None = None) -> dict[str, Any]:
        """The desk accepts one entry (a phone's, or one side of a double entry)."""
        def fn(t: Tournament) -> dict[str, Any]:
            self._known_slot(t, round_, table, index)
            return _slot_json(t.confirm(round_, table, index, source, by=who,
                                        expected_version=expected_version))

        a = self._apply(tid, who, "confirm", {"round": round_, "table": table, "index": index,
                                              "source": source,
                                              "expected_version": expected_version}, fn)
        return self._done(a, bobbl=a.value)

    def settle_request(self, tid: str, who: str, round_: int, table: int, index: int,
                       source: str, accept: bool,
                       expected_version: int | None = None) -> dict[str, Any]:
        """The desk accepts or rejects a phone's correction request of an agreed Bobbl."""
        if not isinstance(accept, bool):
            raise TournamentError(f"accept={accept!r}: must be true or false", "bad_input",
                                  field="accept")

        def fn(t: Tournament) -> dict[str, Any]:
            self._known_slot(t, round_, table, index)
            return _slot_json(t.settle_request(round_, table, index, source, accept, by=who,
                                               expected_version=expected_version))

        a = self._apply(tid, who, "accept_request" if accept else "reject_request",
                        {"round": round_, "table": table, "index": index, "source": source,
                         "expected_version": expected_version}, fn)
        return self._done(a, bobbl=a.value)

    def compensate(self, tid: str, who: str, round_: int, entrant: str, points: int,
                   reason: str) -> dict[str, Any]:
        """Compensation points (as Tore) for a pair kept waiting, with the reason."""
        if not isinstance(reason, str):
            raise TournamentError("reason: must be text", "bad_input", field="reason")

        def fn(t: Tournament) -> list[dict[str, Any]]:
            t.compensate(round_, entrant, points, reason)
            return [dict(c.__dict__) for c in t.compensations]

        a = self._apply(tid, who, "compensate", {"round": round_, "entrant": entrant,
                                                 "points": points, "reason": reason}, fn)
        return self._done(a, compensations=a.value)

    # -- the phones at the tables ------------------------------------------------------------
    def table_links(self, tid: str) -> list[dict[str, Any]]:
        """Each table's phone link token (for the QR codes on the tables)."""
        t, info = self.load(tid)
        return [{"table": n, "token": table_token(info.table_token, tid, n),
                 "sheet": f"/api/tournaments/{tid}/tables/{n}/sheet?token="
                          f"{table_token(info.table_token, tid, n)}"}
                for n in range(1, self._table_count(t) + 1)]

    @staticmethod
    def _table_count(t: Tournament) -> int:
        counted = [max(r.tables) for r in t.rounds if r.tables]
        counted.extend(tp[0] for tp in t.draw.values())
        if not counted:
            counted.append(max(1, math.ceil(len(t.active_pairs()) /
                                            (2 if t.settings.mode == "pairs" else 4))))
        return max(counted)

    def table_access(self, tid: str, table: int, token: str | None) -> bool:
        """Whether ``token`` opens table ``table``'s phone link (or is the master token)."""
        if not token:
            return False
        secret = self.info(tid).table_token
        return hmac.compare_digest(token, table_token(secret, tid, table)) or \
            hmac.compare_digest(token, secret)

    def sheet(self, tid: str, table: int) -> dict[str, Any]:
        """The current round's sheet of one table, as its phone shows it."""
        t, info = self.load(tid)
        base = {"tournament": tid, "name": t.settings.name, "table": table,
                "target": t.settings.target, "rounds": t.settings.rounds,
                "bobbl_per_round": t.settings.bobbl_per_round,
                "double_entry": t.settings.double_entry,
                "phone_entries_final": t.settings.phone_entries_final,
                "tournament_version": info.version}
        if not t.started:
            return {**base, "round": None, "sides": None, "bobbl": [], "clock": None,
                    "message": "the tournament has not started yet"}
        rnd = t.rounds[-1]
        if table not in rnd.tables:
            raise NotFoundError(f"no table {table} in round {rnd.number}", "no_table",
                                table=table, round=rnd.number)
        mine = f"phone:{table}"
        bobbl = []
        for slot in sorted(t.round_slots(rnd.number), key=lambda s: s.index):
            if slot.table != table:
                continue
            entries = {k: e.to_json() for k, e in slot.entries.items()
                       if k == mine or k.startswith(mine + ":")}
            requests = {k: e.to_json() for k, e in slot.requests.items()
                        if k == mine or k.startswith(mine + ":")}
            bobbl.append({"index": slot.index, "key": slot.key, "version": slot.version,
                          "result": None if slot.result is None else slot.result.to_json(),
                          "decided": slot.decided, "time_up": slot.time_up,
                          "entries": entries, "requests": requests,
                          "pending": bool(slot.entries) and slot.result is None
                          and not slot.time_up})
        return {**base, "round": rnd.number, "sides": _sides_json(t, rnd, table),
                "bye": rnd.tables[table][1] is None, "bobbl": bobbl,
                "clock": self._clock_json(t, rnd)}

    def phone_enter(self, tid: str, table: int, index: int, *, side: int | None = None,
                    games: Sequence[Sequence[int]] | None = None, winner: int | None = None,
                    loser_points: int | None = None,
                    expected_version: int | None = None) -> dict[str, Any]:
        """A result from the table's phone, for the current round only (source
        ``phone:N``, or ``phone:N:side`` when both pairs enter for a double entry).  It waits
        for the desk unless the organiser made phone entries final."""
        if side is not None and (isinstance(side, bool) or side not in (1, 2)):
            raise TournamentError(f"side={side!r}: 1 or 2", "bad_input", field="side")
        source = f"phone:{table}" + ("" if side is None else f":{side}")
        return self._enter(tid, f"phone table {table}", None, table, index, source=source,
                           games=games, winner=winner, loser_points=loser_points,
                           expected_version=expected_version, final=False)

    # -- the ranking -------------------------------------------------------------------------
    def ranking(self, tid: str, who: str = "ranking",
                method: str | None = None) -> dict[str, Any]:
        """The live ranking (seed 001: Bobbl, Tore, gegnerische Tore, Los).  A tie only the
        lot can break is drawn once and stored (then this is a command in the audit log)."""
        if method is not None and method not in METHODS:
            raise TournamentError(f"method={method!r} (known: {', '.join(METHODS)})",
                                  "bad_input", field="method")
        t, info = self.load(tid)
        how: Method = method or t.settings.ranking  # type: ignore[assignment]
        if not t.started or not t.has_results():
            # everybody is tied before the first result: no lots yet, start-number order
            rows = order(t.tally(), how, lambda p, g: float(p) if p.isdigit() else 0.0)
            for r in rows:
                r.los = False
            return self._ranking_json(t, rows, how, info.version, False)
        before = dict(t.lots)
        rows = t.ranking(self.rng, how)
        if t.lots == before:
            return self._ranking_json(t, rows, how, info.version, False)

        def fn(t: Tournament) -> Any:
            had = dict(t.lots)
            rows = t.ranking(self.rng, how)
            return rows if t.lots != had else NoWrite(rows)

        a = self._apply(tid, who, "ranking", {"method": how}, fn)
        return self._ranking_json(t, a.value, how, a.version, a.written)

    def _ranking_json(self, t: Tournament, rows: list[RankRow], method: Method, version: int,
                      drawn: bool) -> dict[str, Any]:
        return {"name": t.settings.name, "method": method, "started": t.started,
                "round": len(t.rounds) or None, "rounds": t.settings.rounds,
                "rows": [{**r.to_json(method), "bot_standin": t.standins.get(r.pair, 0)}
                         for r in rows], "lots_drawn": drawn,
                "tournament_version": version}

    def results_file(self, tid: str, who: str = "export") -> dict[str, Any]:
        """The results in the format of ``stammtisch tournament rank``.  Any lot the live
        ranking needs is drawn and stored first, so the file ranks exactly the same."""
        self.ranking(tid, who)
        t, _ = self.load(tid)
        return t.results_file()

    # -- files ----------------------------------------------------------------------------
    def export_json(self, tid: str) -> dict[str, Any]:
        """The whole tournament as one JSON document (:meth:`import_json` reads it back)."""
        t, _ = self.load(tid)
        return t.to_json()

    def import_json(self, who: str, data: Any, *, owner_user_id: int | None = None
                    ) -> dict[str, Any]:
        """A new tournament from an exported JSON document (checked through and through)."""
        t = export.validate_document(data)
        info = self.store.create(t, who=who, owner_user_id=owner_user_id, command="import_json",
                                 payload={"entrants": len(t.entrants), "rounds": len(t.rounds),
                                          "name": t.settings.name})
        return {**info.to_json(), "settings": t.settings.to_json(),
                "tournament_version": info.version}

    def export_csv(self, tid: str, kind: Literal["ranking", "registrations"] = "ranking",
                   who: str = "export") -> str:
        if kind == "ranking":
            r = self.ranking(tid, who)
            return export.ranking_csv(r["rows"], r["method"])
        if kind == "registrations":
            t, _ = self.load(tid)
            return export.registrations_csv(t)
        raise TournamentError(f"kind={kind!r}: 'ranking' or 'registrations'", "bad_input",
                              field="kind")

    # -- the desk's view -------------------------------------------------------------------
    def audit(self, tid: str, *, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
        self.info(tid)
        return [e.to_json() for e in self.store.audit(tid, after=after, limit=limit)]

    def overview(self, tid: str) -> dict[str, Any]:
        """Everything the desk shows: settings, entrants with their places and fees, gaps,
        rounds with clocks, every Bobbl, the pending and mismatching ones."""
        t, info = self.load(tid)
        fee = t.settings.entry_fee_cents
        people = {e.id: len(e.names) for e in t.entrants.values()
                  if e.checked_in and not e.helper}
        paid = [e.id for e in t.entrants.values() if e.paid and e.id in people]
        return {
            **info.to_json(), "tournament_version": info.version,
            "settings": t.settings.to_json(), "started": t.started,
            "current_round": len(t.rounds) or None,
            "entrants": [self._entrant_json(t, e) for e in t.entrants.values()],
            "fees": {"per_person_cents": fee, "people": sum(people.values()),
                     "due_cents": fee * sum(people.values()),
                     "collected_cents": fee * sum(people[p] for p in paid),
                     "unpaid": [p for p in people if p not in paid]},
            "gap_moves": [] if t.started else self._moves_json(t.gap_moves()),
            "rounds": [self._round_json(t, r) for r in t.rounds],
            "bobbl": [_slot_json(s) for s in sorted(
                t.slots.values(), key=lambda s: (s.round, s.table, s.index))],
            "pending": [s.key for s in t.pending()],
            "requests": [s.key for s in t.correction_requests()],
            "mismatches": [s.key for s in t.mismatches()],
            "compensations": [dict(c.__dict__) for c in t.compensations],
        }
