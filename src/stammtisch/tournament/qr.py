"""QR codes for the tournament pages and printouts (segno, no network).

Always a full QR code (never a Micro QR, which phone cameras do not read), error
correction level M, the quiet zone included.

>>> svg = qr_svg("https://example.org/t/1/table/7")
>>> svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
True
>>> qr_png("https://example.org")[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> modules("x")[0][:7]
[1, 1, 1, 1, 1, 1, 1]
"""

from __future__ import annotations

import io
from typing import Any

import segno

#: modules of white around the symbol (the QR standard asks for 4)
QUIET_ZONE = 4


def make(data: str) -> segno.QRCode:
    """The QR code of ``data`` (a full QR code, level M; a higher level when it fits
    into the same size)."""
    if not isinstance(data, str) or not data:
        raise ValueError("QR data must be a non-empty text")
    return segno.make_qr(data, error="m", boost_error=True)


def qr_svg(data: str, scale: int = 4) -> str:
    """An inline ``<svg>`` element (no XML declaration) for a web page: black modules
    on white, ``scale`` pixels per module, the quiet zone included."""
    out = io.BytesIO()
    make(data).save(out, kind="svg", xmldecl=False, svgns=True, scale=scale,
                    border=QUIET_ZONE, light="#fff", dark="#000", svgclass="qr",
                    lineclass=None)
    return out.getvalue().decode("utf-8")


def qr_png(data: str, scale: int = 5) -> bytes:
    """A PNG image: ``scale`` pixels per module, the quiet zone included."""
    out = io.BytesIO()
    make(data).save(out, kind="png", scale=scale, border=QUIET_ZONE)
    return out.getvalue()


def modules(data: str) -> list[list[int]]:
    """The module matrix without the quiet zone: rows top to bottom, 1 = dark."""
    return [[1 if m else 0 for m in row] for row in make(data).matrix]


def draw_qr(canvas: Any, data: str, x: float, y: float, size: float, *,
            border: int = QUIET_ZONE) -> None:
    """Draw the QR code of ``data`` as vector graphics on a reportlab canvas: the square
    of side ``size`` (points) with its lower-left corner at ``(x, y)`` holds the symbol
    and ``border`` modules of white around it (left unpainted: print on white paper)."""
    matrix = modules(data)
    n = len(matrix)
    unit = size / (n + 2 * border)
    left = x + border * unit
    top = y + size - border * unit
    canvas.saveState()
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setStrokeColorRGB(0, 0, 0)
    path = canvas.beginPath()
    for r, row in enumerate(matrix):
        c = 0
        while c < n:
            if not row[c]:
                c += 1
                continue
            start = c
            while c < n and row[c]:
                c += 1
            # runs of dark modules as one rectangle; a hair of overlap avoids white seams
            path.rect(left + start * unit, top - (r + 1) * unit,
                      (c - start) * unit + 0.01, unit + 0.01)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
