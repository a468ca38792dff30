"""A Muckturnier as a pure, deterministic aggregate (randomness injected).

Covers, from seeds 000 and 001: registration of pairs and of single players,
the draw at registration (table number and pair number by lot) and closing the
gaps before the start with the fewest moves, the seating of every round (Seefest
rotation: pair 1 stays, pair 2 moves one table on, from the last table to table
1; or a fresh draw avoiding repeat opponents/partners), an odd field handled as
the organiser chooses (a helpers' pair, or a bye with a stated score), Bobbl
results entered game by game (the 21 rule finds the end, the last game is not
written) or as final figures, double entry (a comparison: two entries agree on the
winner and the Tore), phone entries awaiting the desk, correction requests for agreed
Bobbl, optimistic versions per result, the round's time limit (open Bobbl lost by both,
points as Tore), compensation points, present/absent entrants and withdrawals between
rounds, byes for odd fields (pairs and single players), the ranking with lots drawn once
and stored, the results file, and the whole tournament as one JSON document.

Persistence, audit log and the web pages live in other layers.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stammtisch.tournament.ranking import Method, RankRow, order
from stammtisch.tournament.settings import ConflictError, TournamentError, TournamentSettings

Side = tuple[str, ...]  # the entrant ids playing on one side of a table (1 pair or 2 players)


@dataclass
class Entrant:
    id: str
    names: list[str]
    paid: bool = False
    checked_in: bool = True
    code: str = ""
    helper: bool = False
    version: int = 1
    present: bool = True  # marked absent: not seated until marked present again
    withdrawn: bool = False  # left the tournament after playing: ranked, never seated again

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "names": list(self.names)}  # no list shared with the JSON


@dataclass
class Entry:
    """One submission of a Bobbl's result."""

    source: str
    winner: int | None  # side 1 or 2; None: still open
    points: tuple[int, int]  # written points of side 1 and side 2
    games: list[tuple[int, int]] | None = None  # (side, points) game by game
    by: str = ""
    at: float = 0.0

    def outcome(self) -> tuple[int | None, tuple[int, ...]]:
        """What the ranking uses: the winner and the loser's points (its Tore; the
        winner's written points do not count), or both points of an open Bobbl."""
        if self.winner is None:
            return (None, self.points)
        return (self.winner, (self.points[2 - self.winner],))

    def same_result(self, other: Entry) -> bool:
        """Two entries agree when the ranking reads them alike: the same result entered
        game by game and as final figures agrees."""
        return self.outcome() == other.outcome()

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "winner": self.winner, "points": list(self.points),
                "games": None if self.games is None else [list(g) for g in self.games],
                "by": self.by, "at": self.at}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Entry:
        games = d.get("games")
        return cls(d["source"], d.get("winner"), (int(d["points"][0]), int(d["points"][1])),
                   None if games is None else [(int(a), int(b)) for a, b in games],
                   d.get("by", ""), float(d.get("at", 0.0)))


@dataclass
class BobblSlot:
    round: int
    table: int
    index: int
    entries: dict[str, Entry] = field(default_factory=dict)
    result: Entry | None = None  # the accepted result (final, or partial at the time limit)
    time_up: bool = False
    version: int = 0
    #: changes a phone asked for after the result was agreed: the desk accepts or rejects
    requests: dict[str, Entry] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.round}/{self.table}/{self.index}"

    @property
    def decided(self) -> bool:
        return self.time_up or (self.result is not None and self.result.winner is not None)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "index": self.index,
                "entries": {k: e.to_json() for k, e in self.entries.items()},
                "result": None if self.result is None else self.result.to_json(),
                "time_up": self.time_up, "version": self.version,
                "requests": {k: e.to_json() for k, e in self.requests.items()}}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BobblSlot:
        return cls(d["round"], d["table"], d["index"],
                   {k: Entry.from_json(e) for k, e in d.get("entries", {}).items()},
                   None if d.get("result") is None else Entry.from_json(d["result"]),
                   bool(d.get("time_up", False)), int(d.get("version", 0)),
                   {k: Entry.from_json(e) for k, e in (d.get("requests") or {}).items()})


@dataclass
class Round:
    number: int
    tables: dict[int, tuple[Side, Side | None]]
    started_at: float | None = None
    closed: bool = False

    def side_of(self, entrant: str) -> tuple[int, int] | None:
        """(table, side 1|2) of an entrant in this round."""
        for t, (a, b) in self.tables.items():
            if entrant in a:
                return (t, 1)
            if b is not None and entrant in b:
                return (t, 2)
        return None

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number,
                "tables": {str(t): [list(a), None if b is None else list(b)]
                           for t, (a, b) in self.tables.items()},
                "started_at": self.started_at, "closed": self.closed}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Round:
        tables = {int(t): (tuple(a), None if b is None else tuple(b))
                  for t, (a, b) in d["tables"].items()}
        return cls(d["number"], tables, d.get("started_at"), bool(d.get("closed", False)))


@dataclass
class Compensation:
    round: int
    entrant: str
    points: int
    reason: str


class Tournament:
    """The whole tournament.  Every method validates and raises
    :class:`TournamentError` (or :class:`ConflictError`) leaving the state unchanged."""

    def __init__(self, settings: TournamentSettings | None = None) -> None:
        self.settings = settings or TournamentSettings()
        self.entrants: dict[str, Entrant] = {}
        self.draw: dict[str, tuple[int, int]] = {}  # pair -> (table, pair number 1|2)
        self.rounds: list[Round] = []
        self.slots: dict[str, BobblSlot] = {}
        self.compensations: list[Compensation] = []
        self.lots: dict[str, float] = {}
        #: entrants for whom a bot stood in (online rounds): Bobbl count, flagged in the ranking
        self.standins: dict[str, int] = {}
        self.next_id = 1

    # -- settings -----------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return bool(self.rounds)

    def change_settings(self, **changes: Any) -> None:
        if self.started and set(changes) - {"time_limit_minutes"}:
            raise TournamentError(
                "settings are fixed once round 1 starts (only time_limit_minutes may change): "
                + ", ".join(sorted(set(changes) - {"time_limit_minutes"})), "settings_fixed")
        if "mode" in changes and changes["mode"] != self.settings.mode and self.entrants:
            raise TournamentError(
                f"mode={changes['mode']!r}: entrants are registered as "
                f"{self.settings.mode}; withdraw them first", "mode_fixed")
        self.settings = self.settings.replace(**changes)

    # -- registration --------------------------------------------------------------------
    def register(self, names: Sequence[str], rng: random.Random | None = None, *,
                 paid: bool = False, code: str | None = None, checked_in: bool = True,
                 helper: bool = False) -> Entrant:
        """Register a pair (two names) or, with mode "singles", one player.  In pairs
        mode the pair is drawn a table and pair number at once (seed 001)."""
        want = 2 if self.settings.mode == "pairs" else 1
        clean = [" ".join(str(n).split()) for n in names]
        if len(clean) != want or any(not n or len(n) > 60 for n in clean):
            raise TournamentError(
                f"names={list(names)!r}: a {'pair' if want == 2 else 'player'} needs "
                f"{want} name(s) of 1..60 characters",
                "bad_pair_names" if want == 2 else "bad_player_names")
        if self.started and self.settings.mode == "pairs" and checked_in:
            raise TournamentError("the tournament has started: no new pairs", "no_new_pairs")
        if code is not None and any(e.code == code for e in self.entrants.values()):
            raise TournamentError(f"code {code!r} is already used", "code_used", checkin=code)
        entrant = Entrant(str(self.next_id), clean, paid, checked_in,
                          code or secrets.token_hex(4), helper)
        if checked_in and self.settings.mode == "pairs":
            self.draw[entrant.id] = self._draw_slot(rng or random.Random())
        self.entrants[entrant.id] = entrant
        self.next_id += 1
        return entrant

    def _table_count(self, pairs: int) -> int:
        return max(self.settings.planned_tables, math.ceil(pairs / 2), 1)

    def _draw_slot(self, rng: random.Random) -> tuple[int, int]:
        taken = set(self.draw.values())
        tables = self._table_count(len(self.draw) + 1)
        free = [(t, p) for t in range(1, tables + 1) for p in (1, 2) if (t, p) not in taken]
        if not free:  # planned tables are full: open the next table
            free = [(tables + 1, 1), (tables + 1, 2)]
        return free[rng.randrange(len(free))]

    def check_in(self, code: str, rng: random.Random | None = None) -> Entrant:
        """Register a pre-registered entrant by its code (the QR scan at the door)."""
        for e in self.entrants.values():
            if e.code == code:
                if e.checked_in:
                    raise TournamentError(f"code {code!r}: {' & '.join(e.names)} is already "
                                          "registered", "already_registered",
                                          names=" & ".join(e.names))
                if self.started and self.settings.mode == "pairs":
                    raise TournamentError("the tournament has started: no new pairs",
                                          "no_new_pairs")
                e.checked_in = True
                e.version += 1
                if self.settings.mode == "pairs":
                    self.draw[e.id] = self._draw_slot(rng or random.Random())
                return e
        raise TournamentError(f"code {code!r}: no pre-registration with this code",
                              "unknown_code", checkin=code)

    def import_csv(self, text: str) -> list[Entrant]:
        """Pre-registrations, one per line: ``name1;name2[;code]`` (pairs) or
        ``name[;code]`` (singles); a header line starting with ``name`` is skipped."""
        import csv
        import io

        want = 2 if self.settings.mode == "pairs" else 1
        rows = list(csv.reader(io.StringIO(text), delimiter=";" if ";" in text else ","))
        out: list[tuple[list[str], str | None]] = []
        codes: set[str] = set()
        for i, row in enumerate(rows, 1):
            cells = [c.strip() for c in row]
            if not any(cells) or (i == 1 and cells[0].lower().startswith("name")):
                continue
            if len(cells) < want:
                raise TournamentError(f"CSV line {i}: needs {want} name(s), got {row!r}",
                                      "csv_names", line=i, want=want)
            code = cells[want] if len(cells) > want and cells[want] else None
            if code is not None and (code in codes or any(e.code == code
                                                          for e in self.entrants.values())):
                raise TournamentError(f"CSV line {i}: code {code!r} is used twice",
                                      "csv_code_twice", line=i, checkin=code)
            if code is not None:
                codes.add(code)
            names = cells[:want]
            if any(not n or len(n) > 60 for n in names):
                raise TournamentError(f"CSV line {i}: names must be 1..60 characters",
                                      "csv_name_length", line=i)
            out.append((names, code))
        return [self.register(n, code=c, checked_in=False) for n, c in out]

    def same_names(self, names: Sequence[str], *, besides: str | None = None) -> list[str]:
        """The entrants registered under the same names (any order, any case)."""
        key = sorted(" ".join(str(n).split()).casefold() for n in names)
        return [e.id for e in self.entrants.values()
                if e.id != besides and sorted(n.casefold() for n in e.names) == key]

    def set_paid(self, entrant: str, paid: bool, expected_version: int | None = None) -> None:
        e = self._entrant(entrant)
        self._check_entrant_version(e, expected_version)
        e.paid = paid
        e.version += 1

    def played(self, entrant: str) -> bool:
        """Whether the entrant was seated in any round."""
        return any(entrant in side for r in self.rounds for a, b in r.tables.values()
                   for side in (a, b or ()))

    def _between_rounds(self, entrant: str, what: str) -> None:
        """Refuse while the entrant's table in the current round still has open Bobbl."""
        if not self.rounds:
            return
        rnd = self.rounds[-1]
        where = rnd.side_of(entrant)
        if where is None:
            return
        open_slots = [s.key for s in self.round_slots(rnd.number)
                      if s.table == where[0] and not s.decided]
        if open_slots:
            raise TournamentError(
                f"entrant {entrant} plays at table {where[0]} in round {rnd.number} (open "
                f"Bobbl: {', '.join(open_slots)}): {what} once its Bobbl are decided",
                "withdraw_while_playing" if what == "withdraw" else "presence_while_playing",
                entrant=entrant, table=where[0], round=rnd.number)

    def withdraw(self, entrant: str, expected_version: int | None = None) -> str:
        """Remove an entrant who has not played yet; an entrant who has played withdraws
        between rounds (kept in the ranking with the results so far, never seated again).
        In pairs mode the place in the draw becomes a gap, closed as before the start.
        Returns ``"removed"`` or ``"withdrawn"``."""
        e = self._entrant(entrant)
        self._check_entrant_version(e, expected_version)
        if not self.played(entrant):
            del self.entrants[entrant]
            self.draw.pop(entrant, None)
            self.lots.pop(entrant, None)
            self.compensations = [c for c in self.compensations if c.entrant != entrant]
            self._close_gaps_after_start()
            return "removed"
        if e.withdrawn:
            raise TournamentError(f"entrant {entrant} has withdrawn already",
                                  "already_withdrawn", entrant=entrant)
        self._between_rounds(entrant, "withdraw")
        e.withdrawn = True
        e.version += 1
        self.draw.pop(entrant, None)
        self._close_gaps_after_start()
        return "withdrawn"

    def set_present(self, entrant: str, present: bool, rng: random.Random | None = None,
                    expected_version: int | None = None) -> None:
        """Mark a registered entrant absent (not seated) or present again, before the
        draw of a round: before the start or between rounds.  An absent pair gives up its
        place in the draw (a gap, closed as usual); back, it is drawn a free place."""
        e = self._entrant(entrant)
        self._check_entrant_version(e, expected_version)
        if not e.checked_in:
            raise TournamentError(f"entrant {entrant} is not registered yet (check in first)",
                                  "not_checked_in", entrant=entrant)
        if e.withdrawn:
            raise TournamentError(f"entrant {entrant} has withdrawn", "withdrawn",
                                  entrant=entrant)
        if e.present == present:
            return
        self._between_rounds(entrant, "mark present or absent")
        e.present = present
        e.version += 1
        if self.settings.mode != "pairs":
            return
        if present:
            self.draw[entrant] = self._draw_slot(rng or random.Random())
        else:
            self.draw.pop(entrant, None)
            self._close_gaps_after_start()

    def _close_gaps_after_start(self) -> None:
        """Between rounds the gaps are closed at once (before the start the desk does it)."""
        if self.started and self.settings.mode == "pairs":
            for p, _, to in self.gap_moves():
                self.draw[p] = to
                self.entrants[p].version += 1

    def _entrant(self, entrant: str) -> Entrant:
        try:
            return self.entrants[entrant]
        except KeyError:
            raise TournamentError(f"no entrant {entrant!r}", "no_entrant",
                                  entrant=entrant) from None

    @staticmethod
    def _check_version(what: str, current: int, expected: int | None,
                       kind: str = "", key: str = "") -> None:
        if expected is not None and expected != current:
            raise ConflictError(f"{what} was changed meanwhile (version {current}, you had "
                                f"{expected}); reload and try again",
                                {"kind": kind, "key": key, "version": current,
                                 "expected": expected})

    def _check_entrant_version(self, e: Entrant, expected: int | None) -> None:
        self._check_version(f"entrant {e.id}", e.version, expected,
                            "entrant" if self.settings.mode == "pairs" else "player", e.id)

    # -- the draw ------------------------------------------------------------------------
    def active_pairs(self) -> list[str]:
        """The entrants to seat: registered, present, not withdrawn."""
        return [e.id for e in self.entrants.values()
                if e.checked_in and e.present and not e.withdrawn]

    def gap_moves(self) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
        """The fewest moves that close the gaps in the draw: pairs at tables beyond the
        needed ones move into free places, the last registered first (seed 001)."""
        pairs = [p for p in self.active_pairs() if p in self.draw]
        need = math.ceil(len(pairs) / 2)
        taken = {self.draw[p] for p in pairs}
        free = [(t, pos) for t in range(1, need + 1) for pos in (1, 2) if (t, pos) not in taken]
        outside = sorted((p for p in pairs if self.draw[p][0] > need),
                         key=lambda p: -int(p) if p.isdigit() else 0)
        # an odd field leaves one place free: keep it at the last table, pair number 2
        free.sort(key=lambda tp: (tp[0] == need and tp[1] == 2, tp))
        return [(p, self.draw[p], free[i]) for i, p in enumerate(outside)]

    def close_gaps(self) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
        if self.started:
            raise TournamentError("the tournament has started", "started")
        moves = self.gap_moves()
        for p, _, to in moves:
            self.draw[p] = to
            self.entrants[p].version += 1
        return moves

    def move(self, entrant: str, table: int, pos: int) -> None:
        """Move a pair to another free place before the start."""
        if self.started:
            raise TournamentError("the tournament has started", "started")
        self._entrant(entrant)
        if entrant not in self.draw:
            raise TournamentError(f"entrant {entrant!r} has no place in the draw (single "
                                  "players, or a pre-registration not checked in yet)",
                                  "not_in_draw", entrant=entrant)
        if pos not in (1, 2) or isinstance(table, bool) or not isinstance(table, int) \
                or table < 1:
            raise TournamentError(f"place {table}/{pos}: table >= 1, pair number 1 or 2",
                                  "bad_place")
        if any(v == (table, pos) and p != entrant for p, v in self.draw.items()):
            raise TournamentError(f"place {table}/{pos} is taken", "place_taken",
                                  table=table, pos=pos)
        if self.draw[entrant] != (table, pos):
            self.draw[entrant] = (table, pos)
            self.entrants[entrant].version += 1

    # -- rounds ------------------------------------------------------------------------
    def start(self, rng: random.Random | None = None) -> Round:
        """Fix the settings and seat round 1."""
        if self.started:
            raise TournamentError("the tournament has already started", "started")
        n = len(self.active_pairs())
        unit = "pairs" if self.settings.mode == "pairs" else "players"
        minimum = 2 if self.settings.mode == "pairs" else 4
        if n < minimum:
            raise TournamentError(f"need at least {minimum} {unit}, have {n}",
                                  "too_few_pairs" if unit == "pairs" else "too_few_players",
                                  needed=minimum, have=n)
        odd = n % 2 if self.settings.mode == "pairs" else n % 4
        if odd and self.settings.odd_handling == "undecided":
            raise TournamentError(
                f"{n} {unit} do not fill the tables: choose odd_handling 'helpers' (and "
                f"register the helpers) or 'bye' (with its score)",
                "odd_pairs" if unit == "pairs" else "odd_players", n=n)
        if odd and self.settings.odd_handling == "helpers":
            raise TournamentError(f"{n} {unit}: register the helpers to fill the tables",
                                  "helpers_missing_pairs" if unit == "pairs"
                                  else "helpers_missing_players", n=n)
        if self.settings.mode == "pairs":
            moves = self.gap_moves()
            if moves:
                raise TournamentError(
                    f"the draw has gaps: close them first ({len(moves)} move(s) proposed)",
                    "draw_gaps", moves=len(moves))
        return self._seat_round(1, rng or random.Random())

    def next_round(self, rng: random.Random | None = None) -> Round:
        if not self.started:
            raise TournamentError("the tournament has not started", "not_started")
        if len(self.rounds) >= self.settings.rounds:
            raise TournamentError(f"all {self.settings.rounds} rounds are seated",
                                  "all_rounds_seated", rounds=self.settings.rounds)
        last = self.rounds[-1]
        open_slots = [s.key for s in self.round_slots(last.number) if not s.decided]
        if open_slots:
            raise TournamentError(f"round {last.number} has open Bobbl: {', '.join(open_slots)}",
                                  "open_bobbl", round=last.number, count=len(open_slots))
        n = len(self.active_pairs())
        minimum = 2 if self.settings.mode == "pairs" else 4
        if n < minimum:
            unit = "pairs" if minimum == 2 else "players"
            raise TournamentError(f"need at least {minimum} {unit} present, have {n}",
                                  "too_few_present_pairs" if unit == "pairs"
                                  else "too_few_present_players", needed=minimum, have=n)
        last.closed = True
        return self._seat_round(last.number + 1, rng or random.Random())

    def _seat_round(self, number: int, rng: random.Random) -> Round:
        if self.settings.seating == "seefest":
            tables = self._seefest_tables(number)
        elif self.settings.mode == "pairs":
            tables = self._drawn_tables([(p,) for p in self.active_pairs()], rng)
        else:
            tables = self._drawn_single_tables(rng)
        rnd = Round(number, tables)
        self.rounds.append(rnd)
        for t, (_, b) in tables.items():
            for i in range(self.settings.bobbl_per_round):
                slot = BobblSlot(number, t, i)
                if b is None:  # a bye
                    slot.result = Entry("bye", 1, (self.settings.target, 0))
                self.slots[slot.key] = slot
        return rnd

    def _seefest_tables(self, number: int) -> dict[int, tuple[Side, Side | None]]:
        """Pair 1 stays at its table; pair 2 moves one table on after each round."""
        count = max(t for t, _ in self.draw.values())
        ones = {t: p for p, (t, pos) in self.draw.items() if pos == 1}
        twos = {t: p for p, (t, pos) in self.draw.items() if pos == 2}
        tables: dict[int, tuple[Side, Side | None]] = {}
        for t in range(1, count + 1):
            came_from = (t - 1 - (number - 1)) % count + 1
            one = ones.get(t)
            two = twos.get(came_from)
            if one is not None and two is not None:
                tables[t] = ((one,), (two,))
            elif one is not None or two is not None:
                alone = one if one is not None else two
                assert alone is not None
                tables[t] = ((alone,), None)
        return tables

    def _met(self) -> tuple[set[frozenset[str]], set[frozenset[str]]]:
        """Pairs of entrants who were opponents / partners already."""
        opp: set[frozenset[str]] = set()
        part: set[frozenset[str]] = set()
        for r in self.rounds:
            for a, b in r.tables.values():
                if len(a) == 2:
                    part.add(frozenset(a))
                if b is not None:
                    if len(b) == 2:
                        part.add(frozenset(b))
                    for x in a:
                        for y in b:
                            opp.add(frozenset((x, y)))
        return opp, part

    def _drawn_tables(self, sides: list[Side], rng: random.Random,
                      attempts: int = 400) -> dict[int, tuple[Side, Side | None]]:
        """Pair up ``sides`` at random, avoiding sides whose members met as opponents."""
        opp, _ = self._met()

        def clash(a: Side, b: Side) -> int:
            return sum(frozenset((x, y)) in opp for x in a for y in b)

        best: list[tuple[Side, Side | None]] | None = None
        best_cost = math.inf
        for _ in range(attempts):
            pool = list(sides)
            rng.shuffle(pool)
            bye: Side | None = None
            if len(pool) % 2:
                bye = self._pick_bye(pool, rng)
                pool.remove(bye)
            tables: list[tuple[Side, Side | None]] = []
            cost = 0
            while pool:
                a = pool.pop()
                j = min(range(len(pool)), key=lambda k: (clash(a, pool[k]), rng.random()))
                cost += clash(a, pool[j])
                tables.append((a, pool.pop(j)))
            if bye is not None:
                tables.append((bye, None))
            if cost < best_cost:
                best, best_cost = tables, cost
                if cost == 0:
                    break
        assert best is not None
        return {i: t for i, t in enumerate(best, 1)}

    def _pick_bye(self, pool: list[Side], rng: random.Random) -> Side:
        """The side sitting out: one whose members had no bye yet, if possible."""
        had = {x for r in self.rounds for a, b in r.tables.values() if b is None for x in a}
        fresh = [s for s in pool if not set(s) & had]
        return (fresh or pool)[rng.randrange(len(fresh or pool))]

    def _drawn_single_tables(self, rng: random.Random) -> dict[int, tuple[Side, Side | None]]:
        """Single players: draw partners (no repeat partners), then opponents."""
        _, part = self._met()
        players = self.active_pairs()
        solo: Side | None = None
        if len(players) % 2:  # an odd count: one player sits out (a bye), like a pair
            solo = self._pick_bye([(p,) for p in players], rng)
            players = [p for p in players if p != solo[0]]
        best: list[Side] | None = None
        best_cost = math.inf
        for _ in range(400):
            pool = list(players)
            rng.shuffle(pool)
            sides: list[Side] = []
            cost = 0
            while len(pool) >= 2:
                a = pool.pop()
                j = min(range(len(pool)),
                        key=lambda k: (frozenset((a, pool[k])) in part, rng.random()))
                cost += frozenset((a, pool[j])) in part
                sides.append((a, pool.pop(j)))
            if cost < best_cost:
                best, best_cost = sides, cost
                if cost == 0:
                    break
        assert best is not None
        tables = self._drawn_tables(best, rng)
        if solo is not None:
            tables[len(tables) + 1] = (solo, None)
        return tables

    def round_slots(self, number: int) -> list[BobblSlot]:
        return [s for s in self.slots.values() if s.round == number]

    def start_clock(self, number: int, at: float) -> None:
        self._round(number).started_at = at

    def _round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise TournamentError(f"no round {number} (seated: {len(self.rounds)})", "no_round",
                                  round=number)
        return self.rounds[number - 1]

    # -- results -------------------------------------------------------------------------
    def slot(self, round_: int, table: int, index: int) -> BobblSlot:
        key = f"{round_}/{table}/{index}"
        try:
            return self.slots[key]
        except KeyError:
            raise TournamentError(
                f"Bobbl {key}: no such Bobbl (round/table/index; index from 0)",
                "no_bobbl") from None

    def bobbl_from_games(self, games: Iterable[tuple[int, int]],
                         where: str = "") -> Entry:
        """A Bobbl from its games, as on the paper sheet: (side 1|2, points) each; the game
        that would reach the target ends it and is not written."""
        target = self.settings.target
        totals = [0, 0]
        written: list[tuple[int, int]] = []
        winner: int | None = None
        for i, g in enumerate(games):
            if not isinstance(g, tuple | list) or len(g) != 2:
                raise TournamentError(f"{where}game {i + 1}: {g!r} needs side 1 or 2 and "
                                      "points >= 1", "bad_game", game=i + 1)
            side, pts = g
            if winner is not None:
                raise TournamentError(f"{where}game {i + 1}: the Bobbl already ended at game {i}",
                                      "game_after_end", game=i + 1, ended=i)
            if isinstance(side, bool) or side not in (1, 2) or isinstance(pts, bool) \
                    or not isinstance(pts, int) or pts < 1:
                raise TournamentError(f"{where}game {i + 1}: {g!r} needs side 1 or 2 and "
                                      "points >= 1", "bad_game", game=i + 1)
            if totals[side - 1] + pts >= target:
                winner = side
            else:
                totals[side - 1] += pts
            written.append((side, pts))
        return Entry("", winner, (totals[0], totals[1]), written)

    def enter(self, round_: int, table: int, index: int, *, source: str = "desk",
              games: Sequence[tuple[int, int]] | None = None, winner: int | None = None,
              loser_points: int | None = None, by: str = "", at: float = 0.0,
              expected_version: int | None = None) -> BobblSlot:
        """Enter a Bobbl: game by game (``games``) or final figures (``winner``,
        ``loser_points``).  Desk entries are accepted at once (with double entry: once
        two sources agree); phone entries (source ``phone…``) wait for the desk unless
        the organiser made them final."""
        slot = self.slot(round_, table, index)
        where = f"Bobbl {slot.key}: "
        rnd = self._round(round_)
        if rnd.tables[table][1] is None:
            raise TournamentError(f"{where}table {table} has a bye this round", "bye_table",
                                  table=table)
        if slot.time_up:
            raise TournamentError(f"{where}closed by the time limit", "time_up")
        if games is not None:
            if winner is not None or loser_points is not None:
                raise TournamentError(f"{where}give games or final figures, not both",
                                      "games_and_figures")
            if not games:
                raise TournamentError(f"{where}no games: enter at least one game (an empty "
                                      "entry would wipe the result)", "no_games")
            entry = self.bobbl_from_games(
                [tuple(g) if isinstance(g, list | tuple) else g  # type: ignore[misc]
                 for g in games], where)
        else:
            if isinstance(winner, bool) or winner not in (1, 2):
                raise TournamentError(f"{where}winner must be side 1 or 2, not {winner!r}",
                                      "bad_winner")
            lp = loser_points
            if isinstance(lp, bool) or not isinstance(lp, int) or not \
                    0 <= lp < self.settings.target:
                raise TournamentError(f"{where}loser_points must be 0..{self.settings.target - 1}"
                                      f", not {lp!r}", "bad_loser_points",
                                      max=self.settings.target - 1)
            pts = (self.settings.target, lp) if winner == 1 else (lp, self.settings.target)
            entry = Entry("", winner, pts)
        if rnd.closed and entry.winner is None:
            raise TournamentError(f"{where}round {round_} is closed: a correction must be "
                                  "a finished Bobbl (with its winner)", "round_closed",
                                  round=round_)
        entry.source, entry.by, entry.at = source, by, at
        phone = source.startswith("phone")
        decided = slot.decided
        if decided and entry.winner is None:
            raise TournamentError(f"{where}the Bobbl is decided: a correction must be a "
                                  "finished Bobbl (with its winner)", "decided_needs_winner")
        if decided and phone:
            # agreed already: a phone's change is a request the desk accepts or rejects;
            # the result (and the ranking) stays as agreed meanwhile
            assert slot.result is not None
            if entry.same_result(slot.result):
                slot.requests.pop(source, None)
            else:
                slot.requests[source] = entry
            slot.version += 1
            return slot
        # under double entry a phone's entry of an open Bobbl is compared, never refused:
        # it touches only its own pair's entry, and nothing counts before two agree
        comparison = phone and self.settings.double_entry
        if not comparison:
            self._check_version(f"Bobbl {slot.key}", slot.version, expected_version,
                                "bobbl", slot.key)
        slot.entries[source] = entry
        if self.settings.double_entry:
            agreed = self._agreed(slot)
            if agreed is not None:
                slot.result = agreed
            elif decided:  # the desk's correction of a decided Bobbl
                slot.result = entry
            else:
                slot.result = None
        elif not phone or self.settings.phone_entries_final:
            slot.result = entry
        slot.version += 1
        return slot

    @staticmethod
    def _agreed(slot: BobblSlot) -> Entry | None:
        items = list(slot.entries.values())
        return next((a for i, a in enumerate(items) for b in items[i + 1:]
                     if a.same_result(b)), None)

    def confirm(self, round_: int, table: int, index: int, source: str, *, by: str = "",
                expected_version: int | None = None) -> BobblSlot:
        """The desk accepts an entry (a phone's, or one side of a double entry)."""
        slot = self.slot(round_, table, index)
        self._check_version(f"Bobbl {slot.key}", slot.version, expected_version,
                            "bobbl", slot.key)
        if source not in slot.entries:
            raise TournamentError(f"Bobbl {slot.key}: no entry from {source!r}", "no_entry")
        e = slot.entries[source]
        if slot.decided and e.winner is None:
            raise TournamentError(f"Bobbl {slot.key}: the Bobbl is decided: the entry from "
                                  f"{source!r} names no winner", "entry_no_winner")
        slot.result = Entry("desk", e.winner, e.points, e.games, by or "desk", e.at)
        slot.entries["desk"] = slot.result
        slot.version += 1
        return slot

    def settle_request(self, round_: int, table: int, index: int, source: str, accept: bool,
                       *, by: str = "", expected_version: int | None = None) -> BobblSlot:
        """The desk accepts (the request becomes the result) or rejects a phone's change
        of an agreed Bobbl."""
        slot = self.slot(round_, table, index)
        self._check_version(f"Bobbl {slot.key}", slot.version, expected_version,
                            "bobbl", slot.key)
        if source not in slot.requests:
            raise TournamentError(f"Bobbl {slot.key}: no correction request from {source!r}",
                                  "no_request")
        e = slot.requests.pop(source)
        if accept:
            slot.entries[source] = e
            slot.result = Entry("desk", e.winner, e.points, e.games, by or "desk", e.at)
            slot.entries["desk"] = slot.result
        slot.version += 1
        return slot

    def correction_requests(self) -> list[BobblSlot]:
        return [s for s in self.slots.values() if s.requests]

    def has_results(self) -> bool:
        """Whether any Bobbl was decided (a bye does not count) or points compensated."""
        return bool(self.compensations) or any(
            s.decided and not (s.result is not None and s.result.source == "bye")
            for s in self.slots.values())

    def pending(self) -> list[BobblSlot]:
        """Bobbl with entries but no accepted result: phone entries waiting for the desk,
        or double entries that do not agree yet."""
        return [s for s in self.slots.values()
                if s.entries and s.result is None and not s.time_up]

    def mismatches(self) -> list[BobblSlot]:
        """Bobbl whose entries disagree and that have no accepted result."""
        return [s for s in self.pending()
                if len({e.outcome() for e in s.entries.values()}) > 1]

    def time_up(self, round_: int) -> list[BobblSlot]:
        """The round's time ran out: open Bobbl are lost by both pairs, each credited
        its points so far as Tore (seed 001, "Zeitlimit").  A Bobbl with an entry that
        names a winner was finished in time and stays for the desk to confirm."""
        rnd = self._round(round_)
        closed = []
        for s in self.round_slots(round_):
            if s.decided:
                continue
            if any(e.winner is not None for e in s.entries.values()):
                continue  # finished in time: its entries await the desk (or agreement)
            partial = s.result or (max(s.entries.values(), key=lambda e: e.at)
                                   if s.entries else None)
            pts = partial.points if partial is not None else (0, 0)
            s.result = Entry("time_up", None, pts, None, "clock", 0.0)
            s.time_up = True
            s.version += 1
            closed.append(s)
        rnd.closed = True
        return closed

    def compensate(self, round_: int, entrant: str, points: int, reason: str) -> None:
        """Compensation points for a pair kept waiting (seed 001), entered with a reason."""
        self._round(round_)
        self._entrant(entrant)
        if isinstance(points, bool) or not isinstance(points, int) or not \
                0 < points <= self.settings.target:
            raise TournamentError(f"points={points!r}: 1..{self.settings.target}",
                                  "bad_points", max=self.settings.target)
        if not reason.strip():
            raise TournamentError("compensation needs a reason", "no_reason")
        self.compensations.append(Compensation(round_, entrant, points, reason.strip()))

    def note_standin(self, entrant: str) -> None:
        """A bot played (part of) a Bobbl for ``entrant`` in an online round."""
        self._entrant(entrant)
        self.standins[entrant] = self.standins.get(entrant, 0) + 1

    # -- ranking -------------------------------------------------------------------------
    def tally(self) -> dict[str, RankRow]:
        rows = {e.id: RankRow(0, e.id, tuple(e.names), 0, 0, 0, False)
                for e in self.entrants.values() if e.checked_in and not e.helper}
        target = self.settings.target
        for s in self.slots.values():
            rnd = self.rounds[s.round - 1]
            a, b = rnd.tables[s.table]
            if b is None:  # a bye: the stated score
                for x in a:
                    if x in rows and s.index == 0:
                        rows[x].bobbl += self.settings.bye_bobbl
                        rows[x].tore += self.settings.bye_tore
                continue
            r = s.result
            if r is None or not s.decided:
                continue
            for side, members, opp_points, my_points in ((1, a, r.points[1], r.points[0]),
                                                         (2, b, r.points[0], r.points[1])):
                for x in members:
                    if x not in rows:  # a helpers' pair is not ranked
                        continue
                    row = rows[x]
                    row.played += 1
                    won = r.winner == side
                    row.own += target if won else my_points
                    row.minus += target if (r.winner is not None and not won) else opp_points
                    if won:
                        row.plus += target
                    if won:
                        row.bobbl += 1
                        row.gegnerische_tore += opp_points
                    else:
                        row.tore += my_points
        for c in self.compensations:
            if c.entrant in rows:
                rows[c.entrant].tore += c.points
                rows[c.entrant].own += c.points
        return rows

    def ranking(self, rng: random.Random | None = None,
                method: Method | None = None) -> list[RankRow]:
        """The live ranking.  A tie only the lot can break is drawn once and stored."""
        draw_rng = rng or random.Random()

        def lot(pid: str, group: list[str]) -> float:
            if pid not in self.lots:
                self.lots[pid] = draw_rng.random()
            return self.lots[pid]

        return order(self.tally(), method or self.settings.ranking, lot)

    def results_file(self) -> dict[str, Any]:
        """The results in the format of ``stammtisch tournament rank``: every decided
        Bobbl, the byes with their score, the compensation points and every registered
        entrant (helpers marked, so they are not ranked), so the command ranks exactly as
        the live ranking does.  In singles mode a side is the list of its players."""
        def side(members: Side) -> Any:
            return members[0] if self.settings.mode == "pairs" and len(members) == 1 \
                else list(members)

        bobbl = []
        byes = []
        for s in sorted(self.slots.values(), key=lambda s: (s.round, s.table, s.index)):
            a, b = self.rounds[s.round - 1].tables[s.table]
            if b is None:
                if s.index == 0:
                    byes.append({"round": s.round, "pairs": list(a)})
                continue
            if s.result is None or not s.decided:
                continue
            points = list(s.result.points)
            if s.result.winner is not None:  # entered game by game: the winner's written
                # points are below the target; the file marks the winner by the target
                points[s.result.winner - 1] = max(points[s.result.winner - 1],
                                                  self.settings.target)
            bobbl.append({"round": s.round, "table": s.table, "pairs": [side(a), side(b)],
                          "points": points})
        pairs: list[dict[str, Any]] = []
        for e in self.entrants.values():
            if e.checked_in:
                pairs.append({"id": e.id, "names": list(e.names),
                              **({"helper": True} if e.helper else {})})
        return {"name": self.settings.name, "target": self.settings.target,
                "pairs": pairs, "bobbl": bobbl,
                "bye": {"bobbl": self.settings.bye_bobbl, "tore": self.settings.bye_tore},
                "byes": byes,
                "compensations": [{"round": c.round, "pair": c.entrant, "points": c.points,
                                   "reason": c.reason} for c in self.compensations],
                "lots": dict(self.lots)}

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": "stammtisch-tournament/1",
            "settings": self.settings.to_json(),
            "entrants": [e.to_json() for e in self.entrants.values()],
            "draw": {p: list(v) for p, v in self.draw.items()},
            "rounds": [r.to_json() for r in self.rounds],
            "slots": [s.to_json() for s in self.slots.values()],
            "compensations": [dict(c.__dict__) for c in self.compensations],
            "lots": dict(self.lots),
            "standins": dict(self.standins),
            "next_id": self.next_id,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tournament:
        if not isinstance(data, dict) or data.get("format") != "stammtisch-tournament/1":
            raise TournamentError("not a stammtisch tournament file "
                                  "(format 'stammtisch-tournament/1')", "not_a_file")
        try:
            t = cls(TournamentSettings.from_json(data["settings"]))
            for e in data["entrants"]:
                t.entrants[str(e["id"])] = Entrant(**{**e, "names": list(e["names"])})
            t.draw = {p: (int(v[0]), int(v[1])) for p, v in data["draw"].items()}
            t.rounds = [Round.from_json(r) for r in data["rounds"]]
            for s in data["slots"]:
                slot = BobblSlot.from_json(s)
                t.slots[slot.key] = slot
            t.compensations = [Compensation(**c) for c in data.get("compensations", [])]
            t.lots = {str(k): float(v) for k, v in data.get("lots", {}).items()}
            t.standins = {str(k): int(v) for k, v in data.get("standins", {}).items()}
            t.next_id = int(data.get("next_id", len(t.entrants) + 1))
        except (KeyError, TypeError, ValueError) as e:
            raise TournamentError(f"tournament file: {type(e).__name__}: {e}",
                                  "bad_file") from None
        return t
