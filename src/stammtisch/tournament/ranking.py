"""Ranking a Muckturnier from its Bobbl results (seeds 000 and 001).

Default method (seed 001, "Erstellung der Rangliste"): Bobbl won, then Tore
(points in Bobbl lost; more is better), then gegnerische Tore (the opponents'
points in Bobbl won; fewer is better), then the lot.  A tie that only the lot
can break is drawn once: the draw is part of the results (``"lots"``) when the
organiser stored one, otherwise it is derived deterministically from the
tournament's name and the tied pairs, so the same file always ranks the same.

Seed 000's other methods are options: ``plus`` ("die Gewinner die erreichten
Punkte (und die Verlierer keine)": the points of the Bobbl a pair won) and
``plus-minus`` ("die erreichten Punkte abzüglich der Punkte der Gegner": all its
points minus all its opponents' points); ties there also go by lot.

A Bobbl is written as the points both pairs had when it ended: a value at or
above the target marks the pair that won it.  Both below the target means the
Bobbl was still open at the time limit: both pairs lost it, each credited its
points as Tore (seed 001, "Zeitlimit").  A Brille (lost with 0) counts like any
lost Bobbl.

>>> res = parse_results({"name": "T", "target": 21,
...     "pairs": [{"id": "1", "names": ["Anna", "Bernd"]}, {"id": "2", "names": ["C", "D"]}],
...     "bobbl": [{"round": 1, "table": 1, "pairs": ["1", "2"], "points": [21, 13]},
...               {"round": 1, "table": 1, "pairs": ["1", "2"], "points": [8, 21]}]})
>>> [(r.rank, r.pair, r.bobbl, r.tore, r.gegnerische_tore, r.los) for r in rank(res)]
[(1, '2', 1, 13, 8, False), (2, '1', 1, 8, 13, False)]
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from stammtisch.errors import StammtischError

Method = Literal["bobbl", "plus", "plus-minus"]
METHODS: tuple[str, ...] = ("bobbl", "plus", "plus-minus")


class ResultsError(StammtischError):
    """A results file that cannot be ranked; the message names the entry."""

    code = "invalid_results"


@dataclass(frozen=True)
class BobblResult:
    round: int
    table: int
    pairs: tuple[str, str]  # the first entrant of each side
    points: tuple[int, int]
    sides: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # every entrant of each side

    def members(self, i: int) -> tuple[str, ...]:
        return self.sides[i] or (self.pairs[i],)


@dataclass(frozen=True)
class Bye:
    round: int
    pairs: tuple[str, ...]


@dataclass(frozen=True)
class Compensation:
    round: int
    pair: str
    points: int


@dataclass(frozen=True)
class Results:
    name: str
    target: int
    pairs: dict[str, tuple[str, ...]]
    bobbl: tuple[BobblResult, ...]
    lots: dict[str, float] = field(default_factory=dict)
    bye_bobbl: int = 1
    bye_tore: int = 0
    byes: tuple[Bye, ...] = ()
    compensations: tuple[Compensation, ...] = ()
    helpers: frozenset[str] = frozenset()  # listed (they played) but not ranked


@dataclass
class RankRow:
    rank: int
    pair: str
    names: tuple[str, ...]
    bobbl: int
    tore: int
    gegnerische_tore: int
    los: bool
    plus: int = 0  # points reached in the Bobbl won (the Plus method)
    minus: int = 0  # the opponents' points in every Bobbl
    own: int = 0  # the pair's points in every Bobbl
    played: int = 0

    def to_json(self, method: Method = "bobbl") -> dict[str, Any]:
        out: dict[str, Any] = {
            "rank": self.rank, "pair": self.pair, "names": list(self.names),
            "bobbl": self.bobbl, "tore": self.tore,
            "gegnerische_tore": self.gegnerische_tore, "los": self.los,
            "played": self.played,
        }
        if method != "bobbl":
            out["plus"] = self.plus
            out["plus_minus"] = self.own - self.minus
        return out


def _int(value: Any, where: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ResultsError(f"{where}: {value!r} is not a whole number")
    if value < minimum:
        raise ResultsError(f"{where}: {value} is below {minimum}")
    return value


def _objects(data: Mapping[str, Any], key: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The objects of the list ``data[key]`` (none without the key), each with its place
    (``bobbl[3]``) for the messages."""
    raw = data.get(key, [])
    if not isinstance(raw, list):
        raise ResultsError(f"{key}: must be a list")
    for i, item in enumerate(raw):
        where = f"{key}[{i}]"
        if not isinstance(item, Mapping):
            raise ResultsError(f"{where}: must be an object")
        yield where, item


def parse_results(data: Any) -> Results:
    """Check a results object (as read from JSON) and return it typed."""
    if not isinstance(data, Mapping):
        raise ResultsError("results must be a JSON object")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise ResultsError(f"name: {name!r} is not text")
    target = _int(data.get("target", 21), "target", 1)
    raw_pairs = data.get("pairs")
    if not isinstance(raw_pairs, list) or not raw_pairs:
        raise ResultsError("pairs: must be a non-empty list")
    pairs: dict[str, tuple[str, ...]] = {}
    helpers: set[str] = set()
    for i, p in enumerate(raw_pairs):
        where = f"pairs[{i}]"
        if not isinstance(p, Mapping) or "id" not in p:
            raise ResultsError(f"{where}: must be an object with an id")
        pid = p["id"]
        if not isinstance(pid, str | int) or isinstance(pid, bool):
            raise ResultsError(f"{where}.id: {pid!r} must be text")
        pid = str(pid)
        if pid in pairs:
            raise ResultsError(f"{where}.id: pair {pid!r} is listed twice")
        names = p.get("names", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ResultsError(f"{where}.names: must be a list of names")
        pairs[pid] = tuple(names)
        helper = p.get("helper", False)
        if not isinstance(helper, bool):
            raise ResultsError(f"{where}.helper: must be true or false")
        if helper:
            helpers.add(pid)
    bobbl: list[BobblResult] = []
    seen_at: dict[tuple[int, str], int] = {}
    table_pairs: dict[tuple[int, int], frozenset[tuple[str, ...]]] = {}
    for where, b in _objects(data, "bobbl"):
        rnd = _int(b.get("round"), f"{where}.round", 1)
        tbl = _int(b.get("table"), f"{where}.table", 1)
        bp = b.get("pairs")
        pts = b.get("points")
        if not isinstance(bp, list) or len(bp) != 2:
            raise ResultsError(f"{where}.pairs: must name two pairs")
        if not isinstance(pts, list) or len(pts) != 2:
            raise ResultsError(f"{where}.points: must be two numbers")
        sa, sc = (_side(x, pairs, f"{where}.pairs[{j}]") for j, x in enumerate(bp))
        if set(sa) & set(sc):
            raise ResultsError(f"{where}.pairs: pair {sorted(set(sa) & set(sc))[0]!r} "
                               "cannot play against itself")
        a, c = sa[0], sc[0]
        pa = _int(pts[0], f"{where}.points[0]", 0)
        pc = _int(pts[1], f"{where}.points[1]", 0)
        if pa >= target and pc >= target:
            raise ResultsError(
                f"{where}.points: both {pa} and {pc} are at or above the target {target}")
        for pid in (*sa, *sc):
            other = seen_at.setdefault((rnd, pid), tbl)
            if other != tbl:
                raise ResultsError(
                    f"{where}: pair {pid!r} is at table {tbl} and at table {other} in round {rnd}")
        key = (rnd, tbl)
        both = frozenset((sa, sc))
        known = table_pairs.setdefault(key, both)
        if known != both:
            raise ResultsError(
                f"{where}: table {tbl} in round {rnd} already has pairs "
                f"{' and '.join(sorted('+'.join(x) for x in known))}")
        bobbl.append(BobblResult(rnd, tbl, (a, c), (pa, pc), (sa, sc)))
    lots_raw = data.get("lots", {})
    if not isinstance(lots_raw, Mapping):
        raise ResultsError("lots: must map pair ids to numbers")
    lots: dict[str, float] = {}
    for pid, v in lots_raw.items():
        if str(pid) not in pairs or isinstance(v, bool) or not isinstance(v, int | float):
            raise ResultsError(f"lots: {pid!r}: needs a known pair and a number")
        lots[str(pid)] = float(v)
    bye = data.get("bye", {"bobbl": 1, "tore": 0})
    if not isinstance(bye, Mapping):
        raise ResultsError("bye: must be {\"bobbl\": n, \"tore\": n}")
    bye_bobbl = _int(bye.get("bobbl", 1), "bye.bobbl", 0)
    bye_tore = _int(bye.get("tore", 0), "bye.tore", 0)
    byes = []
    for where, b in _objects(data, "byes"):
        rnd = _int(b.get("round"), f"{where}.round", 1)
        members = _side(b.get("pairs"), pairs, f"{where}.pairs")
        for pid in members:
            if (rnd, pid) in seen_at:
                raise ResultsError(f"{where}: pair {pid!r} has a bye and plays at table "
                                   f"{seen_at[(rnd, pid)]} in round {rnd}")
        byes.append(Bye(rnd, members))
    comps = []
    for where, comp in _objects(data, "compensations"):
        rnd = _int(comp.get("round"), f"{where}.round", 1)
        pid = str(comp.get("pair"))
        if pid not in pairs or isinstance(comp.get("pair"), bool):
            raise ResultsError(f"{where}.pair: unknown pair {comp.get('pair')!r}")
        comps.append(Compensation(rnd, pid, _int(comp.get("points"), f"{where}.points", 0)))
    return Results(name, target, pairs, tuple(bobbl), lots, bye_bobbl, bye_tore,
                   tuple(byes), tuple(comps), frozenset(helpers))


def _side(value: Any, pairs: Mapping[str, Any], where: str) -> tuple[str, ...]:
    """One side of a table: a pair id, or the list of its entrants' ids (single players)."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise ResultsError(f"{where}: names no pair")
    out = []
    for x in items:
        if not isinstance(x, str | int) or isinstance(x, bool):
            raise ResultsError(f"{where}: {x!r} must be a pair id")
        if str(x) not in pairs:
            raise ResultsError(f"{where.rsplit('[', 1)[0] if where.endswith(']') else where}: "
                               f"unknown pair {str(x)!r}")
        if str(x) in out:
            raise ResultsError(f"{where}: pair {str(x)!r} is listed twice")
        out.append(str(x))
    return tuple(out)


def _lot(results: Results, pid: str, group: list[str]) -> float:
    if pid in results.lots:
        return results.lots[pid]
    seed = hashlib.sha256(
        ("|".join([results.name, *sorted(group)])).encode()).hexdigest()
    rng = random.Random(seed)
    order = sorted(group)
    draws = {p: rng.random() for p in order}
    return draws[pid]


def tally(results: Results) -> dict[str, RankRow]:
    """Bobbl won, Tore, gegnerische Tore, plus and minus of every pair."""
    rows = {pid: RankRow(0, pid, names, 0, 0, 0, False) for pid, names in results.pairs.items()
            if pid not in results.helpers}
    t = results.target
    for b in results.bobbl:
        for me, opp in ((0, 1), (1, 0)):
            mine, theirs = b.points[me], b.points[opp]
            for pid in b.members(me):
                if pid not in rows:  # a helpers' pair is not ranked
                    continue
                row = rows[pid]
                row.played += 1
                row.own += mine
                row.minus += theirs
                if mine >= t:
                    row.plus += mine
                if mine >= t:
                    row.bobbl += 1
                    row.gegnerische_tore += theirs
                else:
                    row.tore += mine
    for bye in results.byes:
        for pid in bye.pairs:
            if pid in rows:
                rows[pid].bobbl += results.bye_bobbl
                rows[pid].tore += results.bye_tore
    for c in results.compensations:
        if c.pair in rows:
            rows[c.pair].tore += c.points
            rows[c.pair].own += c.points
    return rows


def sort_key(row: RankRow, method: Method) -> tuple[int, ...]:
    if method == "bobbl":
        return (-row.bobbl, -row.tore, row.gegnerische_tore)
    if method == "plus":
        return (-row.plus,)
    return (-(row.own - row.minus),)


def order(rows: Mapping[str, RankRow], method: Method,
          lot: Callable[[str, list[str]], float]) -> list[RankRow]:
    """Sort by ``method``; pairs still tied are ordered by ``lot(pair, group)`` (lowest
    first) and flagged ``los``.  Assigns ``rank`` 1..n."""
    if method not in METHODS:
        raise ResultsError(f"method: {method!r} (known: {', '.join(METHODS)})")
    groups: dict[tuple[int, ...], list[str]] = {}
    for r in rows.values():
        r.los = False
        groups.setdefault(sort_key(r, method), []).append(r.pair)
    ordered: list[RankRow] = []
    for k in sorted(groups):
        group = groups[k]
        if len(group) > 1:
            draws = {p: lot(p, group) for p in group}
            group = sorted(group, key=lambda p: (draws[p], p))
            for p in group:
                rows[p].los = True
        ordered.extend(rows[p] for p in group)
    for i, r in enumerate(ordered, 1):
        r.rank = i
    return ordered


def rank(results: Results, method: Method = "bobbl") -> list[RankRow]:
    """The ranking of a results file, best first.  Before any result (no Bobbl and no
    compensation; byes alone do not count) nobody is ranked by lot: the pairs are listed
    by id, as the live ranking lists them by start number."""
    if not results.bobbl and not results.compensations:
        rows = order(tally(results), method, lambda p, g: float(p) if p.isdigit() else 0.0)
        for r in rows:
            r.los = False
        return rows
    return order(tally(results), method, lambda p, g: _lot(results, p, g))
