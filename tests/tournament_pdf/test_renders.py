"""Sample renders of every document (first page, PNG) under test-artifacts/pdf/, for a
look by eye; skipped without poppler's pdftoppm.  Each render must not be blank."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from PIL import Image

from stammtisch.tournament import pdf

from .conftest import ARTIFACTS, UMLAUT_NAMES, build

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="poppler's pdftoppm missing")


def test_sample_renders() -> None:
    t = build(13, played=2, names=UMLAUT_NAMES, name="Tauperlitzer Seefest-Mucker 2025")
    t.import_csv("Franz Ströbel;Gerda Ströbel;fs01\nOtto Öttl;Uschi Ühl;ou02\n")
    big = build(118, played=5, name="Tauperlitzer Seefest-Mucker 2025")
    docs = {
        "score_sheets": pdf.score_sheets(t, 3, lambda n: f"https://stammtisch.example/t/1/"
                                         f"tisch/{n}"),
        "score_sheets_bye": pdf.score_sheets(t, 3),
        "table_cards": pdf.table_cards(t),
        "draw_slips": pdf.draw_slips(t),
        "ranking_list": pdf.ranking_list(big),
        "certificates": pdf.certificates(t, date="Tauperlitz, 16. August 2025"),
        "registration_qr_sheet": pdf.registration_qr_sheet(
            t, lambda code: f"https://stammtisch.example/t/1/anmeldung/{code}"),
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for kind, data in docs.items():
        source = ARTIFACTS / f"{kind}.pdf"
        source.write_bytes(data)
        page = "4" if kind == "score_sheets_bye" else "1"  # the bye sits at table 7
        subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", page, "-l", page,
                        "-singlefile", str(source), str(ARTIFACTS / kind)], check=True)
        img = Image.open(ARTIFACTS / f"{kind}.png").convert("L")
        lo, hi = img.getextrema()
        assert lo < 50 and hi > 240, kind  # ink on white paper
        dark = sum(img.histogram()[:128]) / (img.size[0] * img.size[1])
        assert 0.01 < dark < 0.5, (kind, dark)
