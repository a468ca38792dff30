"""Tournament files: pre-registrations from CSV with their codes (the QR scan at the door),
the CSV exports, and the whole tournament as one JSON document (export → import)."""

from __future__ import annotations

import copy
import csv
import io
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from stammtisch.tournament import export
from stammtisch.tournament.model import Tournament
from stammtisch.tournament.settings import TournamentError

Make = Callable[..., Tournament]

CSV = """Name 1;Name 2;Code
Anna Huber;Bernd Maier;QR-0001
  Clara  Vogel ;Dieter Roth;

Eva Lang;Franz Ott;QR-0003
"""


def test_csv_pre_registrations_with_codes_and_check_in(tournament: Make) -> None:
    t = tournament(0)
    imported = t.import_csv(CSV)
    assert [e.names for e in imported] == [["Anna Huber", "Bernd Maier"],
                                           ["Clara Vogel", "Dieter Roth"],
                                           ["Eva Lang", "Franz Ott"]]
    assert imported[0].code == "QR-0001" and imported[2].code == "QR-0003"
    assert imported[1].code and imported[1].code not in ("QR-0001", "QR-0003")
    assert not any(e.checked_in for e in imported) and t.draw == {}
    assert t.active_pairs() == []

    e = t.check_in("QR-0003", random.Random(1))  # one scan registers the pair
    assert e.checked_in and e.version == 2 and e.id in t.draw
    assert t.active_pairs() == [e.id]
    with pytest.raises(TournamentError, match="already registered"):
        t.check_in("QR-0003")
    with pytest.raises(TournamentError, match="no pre-registration"):
        t.check_in("QR-9999")
    t.check_in(imported[1].code, random.Random(2))
    assert len(set(t.draw.values())) == 2


def test_csv_import_errors_name_the_line(tournament: Make) -> None:
    t = tournament(0)
    with pytest.raises(TournamentError, match="CSV line 3: code 'X' is used twice"):
        t.import_csv("a;b;X\nc;d;Y\ne;f;X\n")
    with pytest.raises(TournamentError, match="CSV line 2: needs 2 name"):
        t.import_csv("a;b\nlonely\n")
    assert [e.names for e in t.import_csv("Anna,Bernd\nClara,Dieter\n")] == [
        ["Anna", "Bernd"], ["Clara", "Dieter"]]  # commas work too


def test_singles_csv(tournament: Make) -> None:
    t = tournament(0, mode="singles", seating="draw")
    got = t.import_csv("name;code\nAnna;A1\nBernd;\n")
    assert [(e.names, e.code == "A1") for e in got] == [(["Anna"], True), (["Bernd"], False)]


def test_decode_csv_bytes() -> None:
    assert export.decode_csv("\ufeffAnna;Bernd\n".encode()) == "Anna;Bernd\n"
    assert export.decode_csv("Jürgen;Bärbel\n".encode("cp1252")) == "Jürgen;Bärbel\n"


def test_registrations_csv_reads_back(tournament: Make) -> None:
    t = tournament(3)
    t.import_csv(CSV)
    t.set_paid("1", True)
    t.register(["=HYPERLINK(1)", "Bob"], random.Random(1))
    text = export.registrations_csv(t)
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[0] == ["name1", "name2", "code", "id", "paid", "checked_in", "helper",
                       "table", "pair_number"]
    assert rows[1][:6] == ["A1", "B1", t.entrants["1"].code, "1", "x", "x"]
    assert rows[1][7:] == [str(x) for x in t.draw["1"]]
    assert rows[4][5] == "" and rows[4][7] == ""  # pre-registered: no place yet
    assert rows[-1][0] == "'=HYPERLINK(1)"  # no formulas in a spreadsheet
    again = Tournament()
    back = again.import_csv(text)
    assert [(e.names, e.code) for e in back][:6] == [
        (list(e.names), e.code) for e in list(t.entrants.values())[:6]]


def test_ranking_csv(tournament: Make) -> None:
    t = tournament(4)
    t.draw = {"1": (1, 1), "2": (1, 2), "3": (2, 1), "4": (2, 2)}
    t.start(random.Random(1))
    for table in (1, 2):
        for i in (0, 1):
            t.enter(1, table, i, winner=1, loser_points=5)
    rows = [r.to_json("plus") for r in t.ranking(random.Random(1))]
    text = export.ranking_csv(rows, "plus")
    got = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert got[0][-2:] == ["plus", "plus_minus"]
    assert got[1][2] in ("A1 & B1", "A3 & B3") and got[1][3] == "2" and got[1][6] == "x"
    assert len(got) == 5


# -- the whole tournament as JSON -----------------------------------------------------------
def rich_tournament(make: Make) -> Tournament:
    """Seven pairs and a helpers' pair, every kind of entry, a time limit, a compensation,
    lots, a correction, three of five rounds."""
    t = make(7, rounds=5, odd_handling="helpers", double_entry=False)
    rng = random.Random(8)
    t.register(["Helfer", "Helferin"], rng, helper=True, paid=True)
    t.import_csv("Late;Comer;LATE\n")
    t.close_gaps()
    t.start(rng)
    t.start_clock(1, 1_700_000_000.5)
    tables = sorted(t.rounds[0].tables)
    t.enter(1, tables[0], 0, games=[(1, 5), (2, 20), (1, 3), (1, 20)], by="Anna", at=1.5)
    t.enter(1, tables[0], 1, source="phone:1", winner=2, loser_points=0)
    t.confirm(1, tables[0], 1, "phone:1", by="Anna")
    t.enter(1, tables[1], 0, games=[(1, 4), (2, 9)])
    for table in tables[2:]:
        t.enter(1, table, 0, winner=1, loser_points=11)
        t.enter(1, table, 1, winner=2, loser_points=11)
    t.time_up(1)
    t.compensate(1, "2", 7, "waited 15 minutes")
    t.next_round(rng)
    for s in t.round_slots(2):
        t.enter(2, s.table, s.index, winner=1 + s.index, loser_points=s.table)
    t.next_round(rng)
    t.enter(3, tables[0], 0, source="phone:1", winner=1, loser_points=2)  # pending
    t.enter(1, tables[2], 0, winner=2, loser_points=3)  # a correction
    t.ranking(rng)
    return t


def test_json_round_trip_keeps_everything(tournament: Make) -> None:
    t = rich_tournament(tournament)
    doc = t.to_json()
    text = json.dumps(doc, ensure_ascii=False)
    back = Tournament.from_json(json.loads(text))
    assert back.to_json() == doc
    assert [r.to_json() for r in back.ranking(random.Random(5))] == \
        [r.to_json() for r in t.ranking(random.Random(6))]
    assert [s.key for s in back.pending()] == [s.key for s in t.pending()] != []
    checked = export.validate_document(json.loads(text))
    assert checked.to_json() == doc
    # and the round trip goes on: the imported tournament plays its next round
    finish = export.validate_document(json.loads(text))
    for s in finish.round_slots(3):
        if not s.decided:
            finish.enter(3, s.table, s.index, winner=1, loser_points=1)
    finish.next_round(random.Random(1))
    assert len(finish.rounds) == 4


def broken(doc: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    change(out)
    return out


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format="other/1"), "format"),
    (lambda d: d.pop("entrants"), "KeyError"),
    (lambda d: d["settings"].update(target="21"), "target"),
    (lambda d: d["settings"].update(double_entry="yes"), "double_entry"),
    (lambda d: d["rounds"][0]["tables"]["1"][0].__setitem__(0, "99"), "unknown entrant '99'"),
    (lambda d: d["slots"].pop(0), "Bobbl 0 is missing"),
    (lambda d: d["slots"].append({**d["slots"][0], "table": 77}), "no such table"),
    (lambda d: d["slots"][3]["result"].__setitem__("winner", 3), "winner 1, 2 or null"),
    (lambda d: d["draw"].__setitem__("2", d["draw"]["1"]), "taken twice"),
    (lambda d: d.__setitem__("next_id", 2), "next_id"),
    (lambda d: d["entrants"][0].__setitem__("paid", "no"), "paid"),
    (lambda d: d["compensations"][0].__setitem__("entrant", "42"), "compensations"),
    (lambda d: d["lots"].__setitem__("77", 0.5), "lots"),
    (lambda d: d["rounds"][0].__setitem__("started_at", "noon"), "started_at"),
])
def test_a_broken_document_is_refused_naming_the_item(
        tournament: Make, change: Callable[[dict[str, Any]], None], message: str) -> None:
    doc = rich_tournament(tournament).to_json()
    with pytest.raises(TournamentError, match=message):
        export.validate_document(broken(doc, change))
