"""Table cards, draw slips, the ranking list, certificates and the check-in QR sheet."""

from __future__ import annotations

import math
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from stammtisch.tournament import pdf
from stammtisch.tournament.model import Tournament
from stammtisch.tournament.settings import TournamentError, TournamentSettings

from .conftest import UMLAUT_NAMES, build, page_count, pdf_text


def checkin(code: str) -> str:
    return f"https://stammtisch.example/t/7/anmeldung/{code}"


# -- table cards -------------------------------------------------------------------------

def test_table_cards_one_tent_card_per_table() -> None:
    t = build(13)  # 7 tables, the last one with a bye
    data = pdf.table_cards(t, compress=False)
    assert data.startswith(b"%PDF") and page_count(data) == 7
    text = pdf_text(data)
    for n in range(1, 8):
        # both halves of the folded card: the number and the tournament, twice
        assert len(re.findall(rf"^TISCH\n{n}\nSeefest-Mucker Tauperlitz$", text, re.M)) == 2
    assert text.count("hier falten") == 7


def test_table_cards_before_the_start_follow_the_draw() -> None:
    t = Tournament(TournamentSettings(name="Kerwa-Mucker"))
    rng = random.Random(5)
    for i in range(6):
        t.register([f"A{i}", f"B{i}"], rng)
    t.close_gaps()
    assert page_count(pdf.table_cards(t)) == 3
    empty = pdf.table_cards(Tournament(), compress=False)
    assert page_count(empty) == 1 and "Noch keine Tische" in pdf_text(empty)


# -- draw slips --------------------------------------------------------------------------

def test_draw_slips_per_pair_with_table_and_pair_number() -> None:
    t = Tournament(TournamentSettings(name="Seefest-Mucker"))
    rng = random.Random(11)
    for i in range(20):
        t.register(UMLAUT_NAMES[i] if i < 3 else (f"Anna{i} Huber", f"Bernd{i} Maier"), rng)
    t.close_gaps()
    data = pdf.draw_slips(t, compress=False)
    assert page_count(data) == 3  # 20 slips, 8 per page
    text = pdf_text(data)
    assert text.count("Startnummer") == 20
    for eid, (table, pos) in t.draw.items():
        first, second = (pdf.latin(n) for n in t.entrants[eid].names)
        slip = rf"Startnummer {eid}\n{re.escape(first)}\n{re.escape(second)}\nTISCH\n" \
               rf"{table}\nPAAR\n{pos}\n"
        assert re.search(slip, text), slip
    # "Paar 1" stays, "Paar 2" moves one table on, from the last table to table 1
    ones = [t for t, p in t.draw.values() if p == 1]
    for table in ones:
        assert f"„Paar 1“ bleibt während des ganzen Turniers an Tisch {table} sitzen." in text
    assert text.count("„Paar 2“ rückt nach jeder Runde einen Tisch weiter, vom letzten") == 10
    # in draw order: table 1 pair 1 first
    first_slip = text.index("Startnummer")
    one_one = next(e for e, v in t.draw.items() if v == (1, 1))
    assert text[first_slip:].startswith(f"Startnummer {one_one}\n")


def test_draw_slips_after_the_start_list_pair_2_tables_per_round() -> None:
    t = build(8)  # 4 tables, 5 rounds
    text = pdf_text(pdf.draw_slips(t, compress=False))
    for eid, (table, pos) in t.draw.items():
        if pos == 2:
            route = " · ".join(str((table - 1 + r) % 4 + 1) for r in range(5))
            assert f"Runde 1–5: Tisch {route}." in text.replace("\n", " ")
            # and that is where the rounds seat it
            for rnd in t.rounds:
                assert rnd.side_of(eid) == ((table - 1 + rnd.number - 1) % 4 + 1, 2)


def test_draw_slips_with_drawn_seating_carry_no_table() -> None:
    t = build(6, seating="draw")
    text = pdf_text(pdf.draw_slips(t, compress=False))
    assert text.count("Startnummer") == 6 and "TISCH" not in text
    assert "vor jeder Runde ausgelost" in text


# -- ranking list ------------------------------------------------------------------------

def test_ranking_list_of_118_pairs_spans_pages_with_a_header_on_each() -> None:
    t = build(118, played=5)
    rows = t.ranking()
    data = pdf.ranking_list(t, compress=False)
    pages = page_count(data)
    assert 3 <= pages <= 4
    text = pdf_text(data)
    for p in range(1, pages + 1):
        assert f"Seite {p} von {pages}" in text
    assert text.count("Rangliste") == pages
    assert text.count("Seefest-Mucker Tauperlitz") == pages
    assert text.count("Endstand nach 5 Runden") == pages
    assert text.count("Platz\nNr.\nNamen\nBobbl\nTore\nGegn. Tore\nLos") == pages  # heads
    for r in rows:
        line = rf"^{r.rank}\.\n{r.pair}\n{re.escape(' & '.join(r.names))}\n" \
               rf"{r.bobbl}\n{r.tore}\n{r.gegnerische_tore}\n"
        assert re.search(line, text, re.M), line
    assert len({r.bobbl for r in rows}) >= 4
    # the ranking order in the document is the ranking
    found = [int(m) for m in re.findall(r"^(\d+)\.$", text, re.M)]
    assert found == list(range(1, 119))


def test_ranking_list_marks_places_decided_by_lot() -> None:
    t = build(4, rounds=1)
    for table in (1, 2):  # every pair: 1 Bobbl, 10 Tore, 10 gegnerische Tore
        t.enter(1, table, 0, winner=1, loser_points=10)
        t.enter(1, table, 1, winner=2, loser_points=10)
    t.enter(1, 2, 1, winner=2, loser_points=12)  # table 2: 12 Tore against 10
    rows = t.ranking(random.Random(4))
    assert [r.los for r in rows] == [False, True, True, False]  # table 1 is tied
    text = pdf_text(pdf.ranking_list(t, compress=False))
    assert "Endstand nach 1 Runden" not in text and "Endstand nach 1 Runde" in text
    assert text.count("\nLos\n") + text.endswith("\nLos") == 1 + 2
    assert "Los: der Platz wurde durch das Los entschieden." in text
    untied = pdf_text(pdf.ranking_list(build(4, played=1, seed=2), compress=False))
    assert "durch das Los entschieden" not in untied


def test_ranking_list_standing_and_other_methods() -> None:
    t = build(12, played=2, names=UMLAUT_NAMES, ranking="plus-minus")
    text = pdf_text(pdf.ranking_list(t, compress=False))
    assert "Zwischenstand nach Runde 2 von 5" in text
    assert "Plus\n+/-\nLos" in text
    assert "Bärbel Größ & Jürgen Weiß" in text
    assert page_count(pdf.ranking_list(build(4))) == 1
    fresh = pdf_text(pdf.ranking_list(build(4), compress=False))
    assert "vor Ende der ersten Runde" in fresh


def test_ranking_list_keeps_the_lots_it_draws() -> None:
    t = build(12, played=1)
    pdf.ranking_list(t)
    lots = dict(t.lots)
    again = pdf.ranking_list(t)
    assert t.lots == lots and again == pdf.ranking_list(t)


# -- certificates ------------------------------------------------------------------------

def test_certificates_for_the_first_places() -> None:
    t = build(12, played=5, names=UMLAUT_NAMES)
    rows = t.ranking()
    data = pdf.certificates(t, date="Tauperlitz, 16. August 2025", compress=False)
    assert page_count(data) == 3
    text = pdf_text(data)
    assert text.count("URKUNDE") == 3
    for r in rows[:3]:
        assert f"{r.rank}. Platz" in text
        for name in r.names:
            assert pdf.latin(name) in text
        assert f"mit {r.bobbl} gewonnenen Bobbl und {r.tore} Tor" in text
    assert pdf.latin(" ".join(rows[3].names)) not in text
    assert text.count("Tauperlitz, 16. August 2025") == 3
    assert text.count("Ort, Datum") == 3 and text.count("Turnierleitung") == 3
    assert page_count(pdf.certificates(t, top=10)) == 10
    assert page_count(pdf.certificates(t, top=50)) == 12
    blank = pdf_text(pdf.certificates(t, top=1, compress=False))
    assert "Ort, Datum" in blank and "August" not in blank
    for bad in (0, -1, True):
        with pytest.raises(TournamentError, match="top"):
            pdf.certificates(t, top=bad)


# -- check-in QR sheet -------------------------------------------------------------------

def test_registration_qr_sheet_for_pre_registrations_only() -> None:
    t = Tournament(TournamentSettings(name="Seefest-Mucker"))
    t.register(["Schon Da", "Auch Da"], random.Random(1))
    lines = ["name1;name2;code"] + [f"Bärbel{i} Größ;Jürgen{i} Weiß;code{i:02d}"
                                     for i in range(11)]
    t.import_csv("\n".join(lines))
    t.check_in("code03", random.Random(2))
    asked: list[str] = []

    def url(code: str) -> str:
        asked.append(code)
        return checkin(code)

    data = pdf.registration_qr_sheet(t, url, compress=False)
    assert sorted(asked) == sorted(f"code{i:02d}" for i in range(11) if i != 3)
    assert page_count(data) == 2  # 10 cards, 8 per page
    text = pdf_text(data)
    assert "Schon Da" not in text and "Bärbel3 Größ" not in text
    for i in (0, 1, 2, 4, 10):
        assert f"Bärbel{i} Größ\nJürgen{i} Weiß" in text
        assert f"Code code{i:02d}" in text and checkin(f"code{i:02d}") in text
    assert data.count(b" re") > 10 * 100  # the QR codes, drawn as vector rectangles
    one = pdf.registration_qr_sheet(t, checkin, only={"2"}, compress=False)
    assert page_count(one) == 1 and len(re.findall("^Code ", pdf_text(one), re.M)) == 1
    none = pdf.registration_qr_sheet(Tournament(), checkin, compress=False)
    assert page_count(none) == 1 and "Keine offenen Voranmeldungen" in pdf_text(none)


# -- all documents -----------------------------------------------------------------------

def _all(t: Tournament, compress: bool = True) -> dict[str, bytes]:
    return {
        "score_sheets": pdf.score_sheets(t, len(t.rounds), lambda n: f"https://x/{n}",
                                         compress=compress),
        "table_cards": pdf.table_cards(t, compress=compress),
        "draw_slips": pdf.draw_slips(t, compress=compress),
        "ranking_list": pdf.ranking_list(t, compress=compress),
        "certificates": pdf.certificates(t, compress=compress),
        "registration_qr_sheet": pdf.registration_qr_sheet(t, checkin, compress=compress),
    }


def _with_preregistrations(t: Tournament) -> Tournament:
    t.import_csv("Franz Ströbel;Gerda Ströbel;fs01\nΔήμητρα Παπαδοπούλου;Łucja Ząb;dp02\n")
    return t


def test_any_names_render_without_other_fonts() -> None:
    """Names beyond Latin-1 (Polish, Greek, emoji) do not crash and do not pull in
    the Symbol/ZapfDingbats fallback fonts (which would print boxes)."""
    names = [*UMLAUT_NAMES, ("Δήμητρα Παπαδοπούλου", "Zoë 🂡 Ø'Brien (Jr.) \\ x"),
             ("李小龍", "Ἀθηνᾶ")]
    t = _with_preregistrations(build(12, played=1, names=names))
    for kind, data in _all(t, compress=False).items():
        assert data.startswith(b"%PDF"), kind
        assert b"ZapfDingbats" not in data and b"/Symbol" not in data, kind
        fonts = set(re.findall(rb"/BaseFont /([\w-]+)", data))
        assert fonts <= {b"Helvetica", b"Helvetica-Bold", b"Courier"}, (kind, fonts)
    text = pdf_text(pdf.score_sheets(t, 1, compress=False)) + \
        pdf_text(pdf.draw_slips(t, compress=False))
    assert "Bärbel Größ" in text and "Ülrich Straßer" in text
    assert "Zo\u00eb ? \u00d8'Brien (Jr.) \\ x" in text  # parentheses and backslash survive
    assert "???" in text  # 李小龍


def test_compressed_by_default_deterministic_and_metadata() -> None:
    t = _with_preregistrations(build(12, played=1, names=UMLAUT_NAMES))
    packed, plain = _all(t), _all(t, compress=False)
    for kind in packed:
        assert b"/FlateDecode" in packed[kind], kind
        assert len(packed[kind]) < len(plain[kind]), kind
        assert page_count(packed[kind]) == page_count(plain[kind]), kind
    again = _all(t)
    assert again == packed  # no creation date or random id inside
    # the en dash in PDFDocEncoding
    assert b"/Title (Spielstandzettel Runde 2 \\205 Seefest-Mucker Tauperlitz)" in \
        plain["score_sheets"]
    assert b"/Lang (de-DE)" in plain["ranking_list"]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext missing")
def test_compressed_text_extracts_with_umlauts(tmp_path: Path) -> None:
    t = _with_preregistrations(build(12, played=1, names=UMLAUT_NAMES))
    for kind, data in _all(t).items():
        f = tmp_path / f"{kind}.pdf"
        f.write_bytes(data)
        text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(f), "-"], check=True,
                              capture_output=True, text=True).stdout
        if kind == "registration_qr_sheet":
            assert "Franz Ströbel" in text and "Gerda Ströbel" in text
        elif kind in ("score_sheets", "draw_slips", "ranking_list"):
            assert "Bärbel Größ" in text, kind
        assert "Seefest-Mucker Tauperlitz" in text or kind == "registration_qr_sheet", kind


def test_pages_are_sized_a4() -> None:
    t = _with_preregistrations(build(12, played=1))
    for kind, data in _all(t, compress=False).items():
        boxes = set(re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", data))
        assert len(boxes) == 1, kind
        w, h = (float(v) for v in boxes.pop())
        assert {math.floor(w), math.floor(h)} == {595, 841}, kind


def test_ranking_list_never_leaves_the_legend_alone_on_a_page() -> None:
    """41 pairs filled page 1 exactly: page 2 held only the legend (issue 9)."""
    for n in (40, 41, 81, 82):
        data = pdf.ranking_list(build(n, played=1), compress=False)
        pages = [s for s in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S)
                 if b"Seite" in s]
        assert len(pages) == page_count(data) >= 2
        assert re.search(rb"\(\d+\.\)", pages[-1]), f"{n} pairs: the last page has no row"
        text = pdf_text(data)
        assert [int(m) for m in re.findall(r"^(\d+)\.$", text, re.M)] == list(range(1, n + 1))
        assert "Reihenfolge: gewonnene Bobbl" in text
