"""QR helpers: SVG for the web pages, PNG, and the vector drawing in the PDFs."""

from __future__ import annotations

import io
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from stammtisch.tournament import qr

URL = "https://stammtisch.example/t/7/tisch/12?k=Bärbel"


def test_svg_is_valid_xml_with_an_svg_root() -> None:
    svg = qr.qr_svg(URL)
    assert svg.lstrip().startswith("<svg") and "<?xml" not in svg
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    size = len(qr.modules(URL)) + 2 * qr.QUIET_ZONE
    assert root.get("width") == root.get("height") == str(size * 4)
    assert ET.fromstring(qr.qr_svg(URL, scale=2)).get("width") == str(size * 2)


def test_png_is_a_png_of_the_scaled_size() -> None:
    data = qr.qr_png(URL, scale=3)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    size = (len(qr.modules(URL)) + 2 * qr.QUIET_ZONE) * 3
    assert Image.open(io.BytesIO(data)).size == (size, size)


def test_always_a_full_qr_code_never_micro() -> None:
    assert qr.make("1").designator.startswith("1-")  # version 1, not M1..M4
    assert not qr.make("x").is_micro
    with pytest.raises(ValueError):
        qr.make("")


def test_png_modules_match_the_matrix() -> None:
    img = Image.open(io.BytesIO(qr.qr_png(URL, scale=4))).convert("L")
    m = qr.modules(URL)
    b = qr.QUIET_ZONE
    for r, row in enumerate(m):
        for c, dark in enumerate(row):
            px = img.getpixel(((c + b) * 4 + 2, (r + b) * 4 + 2))
            assert (px < 128) == bool(dark), (r, c)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm missing")
def test_vector_qr_in_a_pdf_rasterizes_to_the_matrix(tmp_path: Path) -> None:
    """draw_qr: rendered by poppler, every module centre has the matrix's colour."""
    pdf = tmp_path / "qr.pdf"
    side = 200.0
    c = Canvas(str(pdf), pagesize=(side, side))
    qr.draw_qr(c, URL, 0, 0, side)
    c.showPage()
    c.save()
    subprocess.run(["pdftoppm", "-png", "-r", "144", "-singlefile", str(pdf),
                    str(tmp_path / "qr")], check=True)
    img = Image.open(tmp_path / "qr.png").convert("L")
    m = qr.modules(URL)
    unit = img.size[0] / (len(m) + 2 * qr.QUIET_ZONE)
    for r, row in enumerate(m):
        for col, dark in enumerate(row):
            x = (col + qr.QUIET_ZONE + 0.5) * unit
            y = (r + qr.QUIET_ZONE + 0.5) * unit
            assert (img.getpixel((int(x), int(y))) < 128) == bool(dark), (r, col)
    # the quiet zone stays white
    assert all(img.getpixel((int(unit), int(k * unit + 1))) > 200
               for k in range(len(m) + 2 * qr.QUIET_ZONE))
