"""Spielstandzettel: one per table of a round, two per landscape A4 page, the pairs'
names filled in, a grid per Bobbl, the final figures, signatures, the phone QR code."""

from __future__ import annotations

import random
import re

import pytest

from stammtisch.tournament.model import Tournament
from stammtisch.tournament.pdf import latin, score_sheets
from stammtisch.tournament.settings import TournamentError, TournamentSettings

from .conftest import UMLAUT_NAMES, build, page_count, pdf_text


def url(table: int) -> str:
    return f"https://stammtisch.example/t/7/tisch/{table}"


def test_one_sheet_per_table_two_per_page_with_all_names() -> None:
    t = build(12, played=1, names=UMLAUT_NAMES)
    rnd = t.rounds[1]
    data = score_sheets(t, 2, url, compress=False)
    assert data.startswith(b"%PDF-")
    assert data.rstrip().endswith(b"%%EOF")
    assert len(rnd.tables) == 6
    assert page_count(data) == 3
    assert b"/MediaBox [ 0 0 841.8898 595.2756 ]" in data  # landscape A4
    text = pdf_text(data)
    for a, b in rnd.tables.values():
        assert b is not None
        for side in (a, b):
            names = latin(" & ".join(t.entrants[side[0]].names))
            assert names in text, names
    assert "Bärbel Größ & Jürgen Weiß" in text
    assert "Lukasz Walesa & Šárka Žižková" in text  # Ł is not in Helvetica: L
    assert text.count("SPIELSTANDZETTEL") == 6
    assert text.count("Runde 2 von 5") == 6
    assert text.count("TISCH") == 6
    for table in range(1, 7):
        assert f"\n{table}\n" in text
    # a grid per Bobbl: title, target, column heads, games numbered; the final figures
    assert text.count("1. Bobbl") == 6 and text.count("2. Bobbl") == 6
    assert text.count("bis 21 Punkte") == 12
    assert text.count("Spiel\nPaar 1\nPaar 2") == 12
    assert text.count("Gewonnen:") == 12
    assert text.count("Tore des Verlierers:") == 12
    assert text.count("Unterschrift Paar 1") == 6 and text.count("Unterschrift Paar 2") == 6
    rows = [int(n) for n in re.findall(r"^(\d+)$", text, re.M)]
    assert max(rows) >= 16  # room for a long Bobbl, game by game


def test_pairs_sides_and_where_pair_2_goes_next() -> None:
    t = build(12)
    text = pdf_text(score_sheets(t, 1, compress=False))
    for table, (a, b) in t.rounds[0].tables.items():
        assert b is not None
        one = re.escape(" & ".join(t.entrants[a[0]].names))
        two = re.escape(" & ".join(t.entrants[b[0]].names))
        after = 1 if table == 6 else table + 1
        block = (rf"Paar 1\n{one}\nNr\. {a[0]} · bleibt an Tisch {table}\n"
                 rf"Paar 2\n{two}\nNr\. {b[0]} · rückt danach an Tisch {after}\n")
        assert re.search(block, text), (table, block)
    # the last round: nobody moves on
    last = build(4, played=4)
    text = pdf_text(score_sheets(last, 5, compress=False))
    assert "Runde 5 von 5" in text and "rückt danach" not in text


def test_qr_code_per_table_only_with_a_phone_url() -> None:
    t = build(12)
    asked: list[int] = []

    def phone(table: int) -> str:
        asked.append(table)
        return url(table)

    with_qr = score_sheets(t, 1, phone, compress=False)
    without = score_sheets(t, 1, compress=False)
    assert sorted(asked) == [1, 2, 3, 4, 5, 6]
    assert "Ergebnis per Handy" in pdf_text(with_qr)
    assert "Ergebnis per Handy" not in pdf_text(without)
    # the QR modules are drawn as vector rectangles
    assert with_qr.count(b" re") > without.count(b" re") + 6 * 100


def test_bye_table_gets_a_sheet_without_grid_or_qr() -> None:
    t = build(13)
    bye = [n for n, (_, b) in t.rounds[0].tables.items() if b is None]
    assert bye == [7]
    asked: list[int] = []
    data = score_sheets(t, 1, lambda n: asked.append(n) or url(n), compress=False)
    assert page_count(data) == 4
    assert 7 not in asked and len(asked) == 6
    text = pdf_text(data)
    assert "Spielfrei" in text
    lone = t.rounds[0].tables[7][0][0]
    names = " & ".join(t.entrants[lone].names)
    assert f"Paar {t.draw[lone][1]}\n{names}\nNr. {lone} · spielfrei in dieser Runde" in text
    assert "Gutgeschrieben werden 1 Bobbl und 0 Tore." in text
    assert text.count("Tore des Verlierers:") == 12


@pytest.mark.parametrize("bobbl", [1, 3, 4, 6, 10])
def test_other_bobbl_counts_and_targets(bobbl: int) -> None:
    t = build(4, bobbl_per_round=bobbl, target=31, time_limit_minutes=0)
    data = score_sheets(t, 1, url, compress=False)
    # two A5 sheets per landscape page; more Bobbl: a portrait A4 page per table
    assert page_count(data) == (1 if bobbl <= 2 else 2)
    landscape = b"/MediaBox [ 0 0 841.8898 595.2756 ]" in data
    assert landscape == (bobbl <= 2)
    text = pdf_text(data)
    for i in range(1, bobbl + 1):
        assert text.count(f"{i}. Bobbl") == 2
    assert text.count("bis 31 Punkte") == 2 * bobbl
    assert "Zeitlimit" not in text and "31 Punkte erreichen" in text


def test_single_players_show_both_partners_per_side() -> None:
    t = Tournament(TournamentSettings(mode="singles", seating="draw"))
    for i in range(8):
        t.register([f"Spieler{i + 1} Größ"])
    t.start(random.Random(3))
    text = pdf_text(score_sheets(t, 1, compress=False))
    assert page_count(score_sheets(t, 1)) == 1
    assert len(re.findall(r"^Spieler\d+ Größ & Spieler\d+ Größ$", text, re.M)) == 4
    assert "bleibt an Tisch" not in text


def test_round_must_be_seated() -> None:
    t = build(4)
    for bad in (0, 2, -1, True):
        with pytest.raises(TournamentError, match="round"):
            score_sheets(t, bad)


def test_long_names_are_shrunk_or_cut_not_overflowing() -> None:
    long = ("Maximiliane-Theresia von und zu Oberhaidenbachgrund", "X" * 60)
    t = build(4, names=[long], name="N" * 120)
    text = pdf_text(score_sheets(t, 1, url, compress=False))
    assert "N" * 30 + "…" in text  # the 120-character tournament name was cut to fit
    assert "N" * 120 not in text
    line = next(x for x in text.splitlines() if x.startswith("Maximiliane-Theresia"))
    assert line.endswith(("X", "…"))
