"""Tournament files: CSV exports (ranking, registrations), CSV import helpers, and the
checks a whole-tournament JSON document passes before it is imported.

CSV files use ``;`` (what a German spreadsheet opens directly) and UTF-8; cells that a
spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``) get a
leading ``'``.  The registrations export reads back with the pre-registration import
(``name1;name2;code`` first, the rest is ignored there).

>>> print(ranking_csv([{"rank": 1, "pair": "7", "names": ["Anna", "Bernd"], "bobbl": 9,
...     "tore": 40, "gegnerische_tore": 77, "los": False, "played": 10}], "bobbl"), end="")
rank;pair;names;bobbl;tore;gegnerische_tore;los;played
1;7;Anna & Bernd;9;40;77;;10
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from stammtisch.tournament.model import Tournament
from stammtisch.tournament.settings import TournamentError

DELIMITER = ";"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> str:
    if value is None or value is False:
        return ""
    if value is True:
        return "x"
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _write(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    w = csv.writer(out, delimiter=DELIMITER, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([_cell(v) for v in row])
    return out.getvalue()


def ranking_csv(rows: Sequence[Mapping[str, Any]], method: str = "bobbl") -> str:
    """The ranking rows (as ``RankRow.to_json`` gives them), best first; ``los`` is
    marked ``x`` where the lot decided the place."""
    header = ["rank", "pair", "names", "bobbl", "tore", "gegnerische_tore", "los", "played"]
    if method != "bobbl":
        header += ["plus", "plus_minus"]
    return _write(header, ([r.get(h) if h != "names" else " & ".join(r["names"])
                            for h in header] for r in rows))


def registrations_csv(t: Tournament) -> str:
    """Every entrant: names, code, id, paid, registered (checked in), helper, place."""
    want = 2 if t.settings.mode == "pairs" else 1
    header = (["name1", "name2"] if want == 2 else ["name"]) + [
        "code", "id", "paid", "checked_in", "helper", "table", "pair_number"]
    rows = []
    for e in t.entrants.values():
        place = t.draw.get(e.id)
        names = (list(e.names) + [""] * want)[:want]
        rows.append([*names, e.code, e.id, e.paid, e.checked_in, e.helper,
                     place[0] if place else None, place[1] if place else None])
    return _write(header, rows)


def decode_csv(data: bytes) -> str:
    """Uploaded CSV bytes as text: UTF-8 (with or without BOM), else Windows-1252 (what
    older spreadsheets save)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def validate_document(data: Any) -> Tournament:
    """A tournament from its JSON document, checked through: entrants, the draw, the
    rounds' tables, every Bobbl and its entries, compensations and lots refer to each
    other consistently.  Raises :class:`TournamentError` naming the first bad item."""
    t = Tournament.from_json(data)
    try:
        _check(t)
        t.tally()
        Tournament.from_json(t.to_json())
    except TournamentError:
        raise
    except (AttributeError, KeyError, IndexError, TypeError, ValueError) as e:
        raise TournamentError(f"tournament file: inconsistent: {type(e).__name__}: {e}",
                              "bad_file") from None
    return t


def _check(t: Tournament) -> None:
    s = t.settings

    def fail(where: str, why: str) -> None:
        raise TournamentError(f"tournament file: {where}: {why}", "bad_file")

    for key in ("double_entry", "phone_entries_final"):
        if not isinstance(getattr(s, key), bool):
            fail(f"settings.{key}", "must be true or false")
    for key, e in t.entrants.items():
        if e.id != key or not all(isinstance(getattr(e, f), bool)
                                  for f in ("paid", "checked_in", "helper", "present",
                                            "withdrawn")):
            fail(f"entrant {key}", "id must be text; paid, checked_in, helper, present, "
                                   "withdrawn true or false")
        if not isinstance(e.names, list) or not all(isinstance(n, str) for n in e.names) \
                or len(e.names) != (2 if s.mode == "pairs" else 1):
            fail(f"entrant {key}", "names must be a list of 2 (pairs) or 1 (singles) names")
        if not isinstance(e.code, str) or not isinstance(e.version, int):
            fail(f"entrant {key}", "code must be text and version a number")
    codes = [e.code for e in t.entrants.values() if e.code]
    if len(codes) != len(set(codes)):
        fail("entrants", "a code is used twice")
    places: set[tuple[int, int]] = set()
    for p, (table, pos) in t.draw.items():
        if p not in t.entrants:
            fail(f"draw {p}", "unknown entrant")
        if table < 1 or pos not in (1, 2) or (table, pos) in places:
            fail(f"draw {p}", f"place {table}/{pos} is not valid or taken twice")
        places.add((table, pos))
    if len(t.rounds) > s.rounds:
        fail("rounds", f"{len(t.rounds)} rounds, the settings allow {s.rounds}")
    for i, rnd in enumerate(t.rounds, 1):
        if rnd.number != i:
            fail(f"rounds[{i - 1}]", f"number {rnd.number}, expected {i}")
        if rnd.started_at is not None and (isinstance(rnd.started_at, bool) or
                                           not isinstance(rnd.started_at, int | float)):
            fail(f"rounds[{i - 1}].started_at", "must be a time or null")
        seen: set[str] = set()
        for table, (a, b) in rnd.tables.items():
            for x in (*a, *(b or ())):
                if x not in t.entrants:
                    fail(f"round {i} table {table}", f"unknown entrant {x!r}")
                if x in seen:
                    fail(f"round {i} table {table}", f"entrant {x} sits twice")
                seen.add(x)
            for index in range(s.bobbl_per_round):
                if f"{i}/{table}/{index}" not in t.slots:
                    fail(f"round {i} table {table}", f"Bobbl {index} is missing")
    for key, slot in t.slots.items():
        if key != slot.key or not 1 <= slot.round <= len(t.rounds) \
                or slot.table not in t.rounds[slot.round - 1].tables \
                or not 0 <= slot.index < s.bobbl_per_round:
            fail(f"Bobbl {key}", "no such table/Bobbl in the rounds")
        for source, entry in [*slot.entries.items(), *slot.requests.items(),
                              *([("result", slot.result)] if slot.result else [])]:
            if entry.winner not in (None, 1, 2) or any(
                    not isinstance(p, int) or p < 0 for p in entry.points):
                fail(f"Bobbl {key} entry {source}", "winner 1, 2 or null and points >= 0")
    for c in t.compensations:
        if c.entrant not in t.entrants or not 1 <= c.round <= len(t.rounds) \
                or not isinstance(c.points, int) or not isinstance(c.reason, str):
            fail("compensations", f"{c!r} names no entrant/round of this tournament")
    for p in t.lots:
        if p not in t.entrants:
            fail("lots", f"unknown entrant {p!r}")
    numeric = [int(k) for k in t.entrants if k.isdigit()]
    if numeric and t.next_id <= max(numeric):
        fail("next_id", f"{t.next_id} is not above the highest entrant id {max(numeric)}")
