"""Printable documents of a Muckturnier (reportlab; no network, no font files).

Every function returns the bytes of one PDF:

* :func:`score_sheets`: the Spielstandzettel of one round, one per table, two A5
  sheets side by side on a landscape A4 page (cut in the middle): tournament, round,
  table, both pairs with their names, a game-by-game grid per Bobbl (to the target,
  seed 001: 21), the final figures (winner, the loser's points = Tore), signatures, and
  a QR code that opens the table's phone page (more than two Bobbl per round: a whole
  A4 page per table).
* :func:`table_cards`: tent cards with the table number (fold an A4 page in the middle).
* :func:`draw_slips`: the draw at registration, one slip per pair: table and pair
  number ("Paar 1" stays, "Paar 2" moves one table on after each round, from the last
  table to table 1), eight per A4 page with cut lines.
* :func:`ranking_list`: the ranking as a table, a header on every page.
* :func:`certificates`: one Urkunde page per entrant of the first ``top`` places.
* :func:`registration_qr_sheet`: the check-in QR code of every pre-registration.

The built-in Helvetica covers Latin-1/cp1252 (Bärbel Größ, Šárka, Œ …); any other
character is printed as its nearest Latin letter (Ł → L) or ``?``, never as a box.
``compress=False`` writes uncompressed content streams (for tests and debugging).
Documents are byte-for-byte reproducible (no creation date or random id inside).

>>> from stammtisch.tournament.model import Tournament
>>> import random
>>> t = Tournament()
>>> _ = [t.register([f"A{i}", f"B{i}"], random.Random(i)) for i in range(4)]
>>> t.close_gaps() == [] and table_cards(t).startswith(b"%PDF")
True
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    KeepTogether,
    LongTable,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from stammtisch.tournament.model import Round, Side, Tournament
from stammtisch.tournament.qr import draw_qr
from stammtisch.tournament.ranking import RankRow
from stammtisch.tournament.settings import TournamentError

__all__ = ["certificates", "draw_slips", "ranking_list", "registration_qr_sheet",
           "score_sheets", "table_cards"]

FONT = "Helvetica"
BOLD = "Helvetica-Bold"
MONO = "Courier"
GREY = colors.Color(0.38, 0.38, 0.38)
LIGHT = colors.Color(0.90, 0.90, 0.90)
FAINT = colors.Color(0.965, 0.965, 0.965)
ACCENT = colors.Color(0.55, 0.10, 0.12)  # Franconian red, for the certificates
CREATOR = "stammtisch (Muckturnier)"

# -- text -------------------------------------------------------------------------------

_TRANSLIT = str.maketrans({"Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h",
                           "ı": "i", "ĸ": "k", "Ŧ": "T", "ŧ": "t", "Ŀ": "L", "ŀ": "l",
                           "‐": "-", "‑": "-", "−": "-", "’": "'", "‚": ",",
                           "\u00a0": " ", "\u202f": " "})


def latin(text: object) -> str:
    """``text`` in the characters the built-in fonts print (cp1252); others become
    their base letter (Ł → L, ő → o) or ``?``.

    >>> latin("Bärbel Größ, Łukasz Wałęsa, Ἀθῆναι")
    'Bärbel Größ, Lukasz Walesa, ??????'
    """
    out: list[str] = []
    for ch in str(text).translate(_TRANSLIT):
        try:
            ch.encode("cp1252")
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        base = "".join(x for x in unicodedata.normalize("NFKD", ch)
                       if not unicodedata.combining(x))
        try:
            base.encode("cp1252")
            out.append(base or "?")
        except UnicodeEncodeError:
            out.append("?")
    return "".join(out)


def fit(text: object, font: str, size: float, width: float,
        min_size: float = 6.0) -> tuple[str, float]:
    """``text`` and the font size (at most ``size``) at which it fits ``width``; cut
    with "…" when it does not fit even at ``min_size``."""
    s = latin(text)
    if stringWidth(s, font, size) <= width:
        return s, size
    fs = max(min_size, size * width / stringWidth(s, font, size))
    while fs > min_size and stringWidth(s, font, fs) > width:
        fs = max(min_size, fs - 0.25)
    if stringWidth(s, font, fs) <= width:
        return s, fs
    while s and stringWidth(s + "…", font, fs) > width:
        s = s[:-1]
    return s.rstrip() + "…", fs


def _text(c: Canvas, x: float, y: float, text: object, font: str, size: float,
          width: float, align: str = "left", min_size: float = 6.0,
          color: Any = colors.black) -> float:
    """Draw one line of text shrunk (then cut) to ``width``; returns the size used."""
    s, fs = fit(text, font, size, width, min_size)
    c.setFont(font, fs)
    c.setFillColor(color)
    if align == "center":
        c.drawCentredString(x + width / 2, y, s)
    elif align == "right":
        c.drawRightString(x + width, y, s)
    else:
        c.drawString(x, y, s)
    c.setFillColor(colors.black)
    return fs


def _wrapped(c: Canvas, x: float, y: float, text: str, font: str, size: float,
             width: float, leading: float | None = None, color: Any = colors.black,
             max_lines: int = 6) -> float:
    """Draw ``text`` wrapped to ``width`` from the baseline ``y`` down; returns the
    baseline below the last line."""
    lead = leading or size * 1.25
    c.setFont(font, size)
    c.setFillColor(color)
    for line in simpleSplit(latin(text), font, size, width)[:max_lines]:
        c.drawString(x, y, line)
        y -= lead
    c.setFillColor(colors.black)
    return y


def _checkbox(c: Canvas, x: float, y: float, size: float = 3.2 * mm) -> None:
    c.setLineWidth(0.8)
    c.rect(x, y, size, size, stroke=1, fill=0)


# -- the document -----------------------------------------------------------------------

@contextmanager
def _document(title: str, t: Tournament, pagesize: tuple[float, float],
              compress: bool) -> Iterator[tuple[Canvas, io.BytesIO]]:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=pagesize, pageCompression=1 if compress else 0,
               invariant=1, lang="de-DE")
    c.setTitle(latin(f"{title} – {t.settings.name}"))
    c.setAuthor(latin(t.settings.name))
    c.setCreator(CREATOR)
    c.setSubject(latin(title))
    yield c, buf
    c.save()


def _empty(c: Canvas, t: Tournament, title: str, message: str) -> None:
    w, h = c._pagesize
    _text(c, 20 * mm, h - 30 * mm, title, BOLD, 22, w - 40 * mm)
    _text(c, 20 * mm, h - 40 * mm, t.settings.name, FONT, 13, w - 40 * mm)
    _wrapped(c, 20 * mm, h - 55 * mm, message, FONT, 11, w - 40 * mm)
    c.showPage()


def _cut_line(c: Canvas, x1: float, y1: float, x2: float, y2: float) -> None:
    c.saveState()
    c.setStrokeColor(colors.Color(0.6, 0.6, 0.6))
    c.setLineWidth(0.4)
    c.setDash(3, 3)
    c.line(x1, y1, x2, y2)
    c.restoreState()


def _names(t: Tournament, side: Side) -> str:
    """The names of the entrants on one side: "Anna & Bernd"."""
    names: list[str] = []
    for eid in side:
        e = t.entrants.get(eid)
        names.extend(e.names if e is not None else [f"Nr. {eid}"])
    return " & ".join(names)


def _numbers(side: Side) -> str:
    return "Nr. " + " / ".join(side)


def _seated(t: Tournament, round_: int) -> Round:
    if isinstance(round_, bool) or not isinstance(round_, int) \
            or not 1 <= round_ <= len(t.rounds):
        raise TournamentError(f"round={round_!r}: no such round (seated: {len(t.rounds)})",
                              "no_round", round=round_)
    return t.rounds[round_ - 1]


def _grid(items: int, per_page: int, cols: int, w: float, h: float,
          margin: float) -> Iterator[tuple[int, int, float, float, float, float]]:
    """Positions of ``items`` equal cells on pages of ``per_page`` (``cols`` wide):
    (item, index on its page, x, y, cell width, cell height)."""
    rows = per_page // cols
    cw = (w - 2 * margin) / cols
    ch = (h - 2 * margin) / rows
    for i in range(items):
        k = i % per_page
        col, row = k % cols, k // cols
        yield i, k, margin + col * cw, h - margin - (row + 1) * ch, cw, ch


def _grid_cut_lines(c: Canvas, cols: int, rows: int, used: int, w: float, h: float,
                    margin: float) -> None:
    """Cut lines around the first ``used`` cells of a page of ``cols`` × ``rows``."""
    cw = (w - 2 * margin) / cols
    ch = (h - 2 * margin) / rows
    full = -(-used // cols)
    low = h - margin - full * ch
    for i in range(cols + 1):
        _cut_line(c, margin + i * cw, low - margin / 2, margin + i * cw, h - margin / 2)
    for j in range(full + 1):
        yy = h - margin - j * ch
        _cut_line(c, margin / 2, yy, w - margin / 2, yy)


def _slip_pages(c: Canvas, items: int, w: float, h: float, margin: float,
                draw: Callable[[int, float, float, float, float], None]) -> None:
    """``items`` slips, eight to a page in two columns with cut lines; ``draw(i, x, y,
    width, height)`` draws the ``i``-th."""
    for i, k, x, y, cw, ch in _grid(items, 8, 2, w, h, margin):
        if k == 0:
            if i:
                c.showPage()
            _grid_cut_lines(c, 2, 4, min(8, items - i), w, h, margin)
        draw(i, x, y, cw, ch)
    if items:
        c.showPage()


# -- score sheets -----------------------------------------------------------------------

def score_sheets(t: Tournament, round_: int,
                 phone_url: Callable[[int], str] | None = None, *,
                 compress: bool = True) -> bytes:
    """The Spielstandzettel of round ``round_``: one A5 sheet per table (a table with a
    bye gets a sheet saying so), two on each landscape A4 page; with more than two Bobbl
    per round a whole A4 page per table.  ``phone_url(table)`` gives the address of the
    table's phone page, printed as a QR code."""
    rnd = _seated(t, round_)
    per_page = 2 if t.settings.bobbl_per_round <= 2 else 1
    size = landscape(A4) if per_page == 2 else A4
    w, h = size
    with _document(f"Spielstandzettel Runde {round_}", t, size, compress) as (c, buf):
        tables = sorted(rnd.tables)
        for i, table in enumerate(tables):
            k = i % per_page
            if k == 0:
                if i:
                    c.showPage()
                if per_page == 2 and i + 1 < len(tables):
                    _cut_line(c, w / 2, 4 * mm, w / 2, h - 4 * mm)
            _score_sheet(c, t, rnd, table, k * w / per_page, 0, w / per_page, h, phone_url)
        c.showPage()
    return buf.getvalue()


def _score_sheet(c: Canvas, t: Tournament, rnd: Round, table: int, x0: float, y0: float,
                 w: float, h: float, phone_url: Callable[[int], str] | None) -> None:
    s = t.settings
    m = 8 * mm
    left, right = x0 + m, x0 + w - m
    iw = right - left
    top = y0 + h - m
    side1, side2 = rnd.tables[table]

    # header: title and round | table number | QR code
    head = 28 * mm
    qr = head if phone_url is not None and side2 is not None else 0.0
    box_w = 27 * mm
    box_x = right - qr - (3 * mm if qr else 0) - box_w
    if qr:
        draw_qr(c, phone_url(table) if phone_url else "", right - qr, top - qr, qr, border=3)
        _text(c, right - qr, top - qr - 3.2 * mm, "Ergebnis per Handy", FONT, 7, qr,
              align="center", color=GREY)
    c.setFillColor(colors.black)
    c.roundRect(box_x, top - head, box_w, head, 2.5 * mm, stroke=0, fill=1)
    _text(c, box_x, top - 7 * mm, "TISCH", BOLD, 10, box_w, align="center",
          color=colors.white)
    _text(c, box_x + 1 * mm, top - head + 4.5 * mm, table, BOLD, 44, box_w - 2 * mm,
          align="center", color=colors.white)
    tw = box_x - left - 3 * mm
    _text(c, left, top - 3.5 * mm, "SPIELSTANDZETTEL", BOLD, 9, tw, color=GREY)
    _text(c, left, top - 10 * mm, s.name, BOLD, 15, tw, min_size=8)
    _text(c, left, top - 17.5 * mm, f"Runde {rnd.number} von {s.rounds}", BOLD, 14, tw)
    details = [f"{s.bobbl_per_round} Bobbl bis {s.target}"]
    if s.time_limit_minutes:
        details.append(f"Zeitlimit {s.time_limit_minutes} Minuten")
    _text(c, left, top - 23 * mm, " · ".join(details), FONT, 9, tw, color=GREY)
    _text(c, left, top - head + 0.5 * mm, "Beginn: ______ Uhr", FONT, 9, tw, color=GREY)

    # the pairs
    y = top - head - 6 * mm
    count = max(rnd.tables)
    moving = s.seating == "seefest" and rnd.number < s.rounds and count > 1
    rows: list[tuple[str, Side, str]] = []
    if side2 is None:
        lone = f"{_numbers(side1)} · spielfrei in dieser Runde"
        pos = t.draw.get(side1[0], (0, 0))[1] if s.seating == "seefest" else 0
        if moving and pos == 2:
            lone += f", rückt danach an Tisch {table % count + 1}"
        rows.append((f"Paar {pos}" if pos else "Paar", side1, lone))
    else:
        stay = f" · bleibt an Tisch {table}" if s.seating == "seefest" else ""
        rows.append(("Paar 1", side1, _numbers(side1) + stay))
        move = f" · rückt danach an Tisch {table % count + 1}" if moving else ""
        rows.append(("Paar 2", side2, _numbers(side2) + move))
    lab = 17 * mm
    row_h = 11 * mm
    for label, side, note in rows:
        c.setFillColor(LIGHT)
        c.rect(left, y - row_h, iw, row_h, stroke=0, fill=1)
        c.setFillColor(colors.black)
        c.rect(left, y - row_h, lab, row_h, stroke=0, fill=1)
        _text(c, left, y - row_h / 2 - 1.6 * mm, label, BOLD, 11, lab, align="center",
              color=colors.white)
        _text(c, left + lab + 3 * mm, y - 5 * mm, _names(t, side), BOLD, 12.5,
              iw - lab - 5 * mm, min_size=7)
        _text(c, left + lab + 3 * mm, y - 9.2 * mm, note, FONT, 8, iw - lab - 5 * mm,
              color=GREY)
        y -= row_h + 1.5 * mm

    if side2 is None:
        y -= 14 * mm
        _text(c, left, y, "Spielfrei", BOLD, 26, iw, align="center")
        y -= 10 * mm
        tore = "Tor" if s.bye_tore == 1 else "Tore"
        _text(c, left, y, f"Gutgeschrieben werden {s.bye_bobbl} Bobbl und "
              f"{s.bye_tore} {tore}.", FONT, 11, iw, align="center")
        y -= 7 * mm
        _text(c, left, y, "Nichts einzutragen – bitte zur nächsten Runde wieder da sein.",
              FONT, 9, iw, align="center", color=GREY)
        return

    # the Bobbl: a grid each, then the final figures
    foot = 22 * mm
    bottom = y0 + m + foot
    y -= 2.5 * mm
    n = s.bobbl_per_round
    cols = 1 if n == 1 else 2 if n in (2, 4) else 3
    rows_of = -(-n // cols)
    gap = 5 * mm
    gw = (iw - (cols - 1) * gap) / cols
    gh = (y - bottom - (rows_of - 1) * 4 * mm) / rows_of
    for i in range(n):
        gx = left + (i % cols) * (gw + gap)
        gy = y - (i // cols) * (gh + 4 * mm)
        _bobbl_grid(c, t, i + 1, gx, gy, gw, gh)

    # the rule, signatures
    y = bottom - 2.5 * mm
    rule = (f"Ein Bobbl geht, bis ein Paar mit einem gewonnenen Spiel {s.target} Punkte "
            f"erreichen würde; dieses letzte Spiel wird nicht mehr aufgeschrieben. Die "
            f"Punkte des Verlierers zählen als Tore.")
    if s.time_limit_minutes:
        rule += (" Ist ein Bobbl beim Zeitlimit offen, haben ihn beide verloren: den "
                 "Stand bei Zeitende eintragen.")
    _wrapped(c, left, y, rule, FONT, 7, iw, leading=8.4, color=GREY, max_lines=3)
    sw = (iw - 8 * mm) / 2
    for k in range(2):
        sx = left + k * (sw + 8 * mm)
        c.setLineWidth(0.6)
        c.line(sx, y0 + m + 3.5 * mm, sx + sw, y0 + m + 3.5 * mm)
        _text(c, sx, y0 + m, f"Unterschrift Paar {k + 1}", FONT, 7.5, sw, color=GREY)


def _bobbl_grid(c: Canvas, t: Tournament, number: int, x: float, top: float, w: float,
                h: float) -> None:
    """One Bobbl: title bar, the column heads, a row per game, the final figures."""
    target = t.settings.target
    title_h = 6 * mm
    head_h = 5 * mm
    result_h = 15 * mm
    c.setFillColor(colors.black)
    c.rect(x, top - title_h, w, title_h, stroke=0, fill=1)
    _text(c, x + 2 * mm, top - title_h + 1.8 * mm, f"{number}. Bobbl", BOLD, 10.5,
          w / 2, color=colors.white)
    _text(c, x + w / 2, top - title_h + 1.8 * mm, f"bis {target} Punkte", FONT, 8.5,
          w / 2 - 2 * mm, align="right", color=colors.white)
    y = top - title_h
    avail = h - title_h - head_h - result_h
    lines = max(3, min(30, int(avail // (4.5 * mm))))
    rh = avail / lines
    cw = [w * 0.22, w * 0.39, w * 0.39]
    xs = [x, x + cw[0], x + cw[0] + cw[1], x + w]
    c.setFillColor(LIGHT)
    c.rect(x, y - head_h, w, head_h, stroke=0, fill=1)
    for k, label in enumerate(("Spiel", "Paar 1", "Paar 2")):
        _text(c, xs[k], y - head_h + 1.5 * mm, label, BOLD, 8.5, cw[k], align="center")
    y -= head_h
    for r in range(lines):
        if r % 2:
            c.setFillColor(FAINT)
            c.rect(x, y - (r + 1) * rh, w, rh, stroke=0, fill=1)
        _text(c, xs[0], y - (r + 1) * rh + rh / 2 - 1.1 * mm, r + 1, FONT, 7.5, cw[0],
              align="center", color=GREY)
    gy = y - lines * rh
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.35)
    for r in range(1, lines):
        c.line(x, y - r * rh, x + w, y - r * rh)
    c.setLineWidth(0.8)
    for k in (1, 2):
        c.line(xs[k], top - title_h, xs[k], gy)
    c.rect(x, gy, w, top - gy, stroke=1, fill=0)

    # final figures: who won, the loser's points (Tore)
    y = gy - 5 * mm
    _text(c, x, y, "Gewonnen:", BOLD, 8, 17 * mm)
    bx = x + 17 * mm
    for k in (1, 2):
        _checkbox(c, bx, y - 0.6 * mm)
        _text(c, bx + 4.5 * mm, y, f"Paar {k}", FONT, 8, 12 * mm)
        bx += 17 * mm
    y -= 7.5 * mm
    box_w = 16 * mm
    _text(c, x, y, "Tore des Verlierers:", BOLD, 8, w - box_w - 2 * mm)
    c.setLineWidth(1)
    c.rect(x + w - box_w, y - 2.4 * mm, box_w, 7 * mm, stroke=1, fill=0)


# -- table cards ------------------------------------------------------------------------

def table_cards(t: Tournament, *, compress: bool = True) -> bytes:
    """A tent card per table: fold the A4 page in the middle, the number reads from
    both sides.  The tables are those seated (round 1), or those of the draw."""
    w, h = A4
    tables = sorted(t.rounds[0].tables) if t.rounds else \
        list(range(1, max((tp for tp, _ in t.draw.values()), default=0) + 1))
    with _document("Tischkarten", t, A4, compress) as (c, buf):
        if not tables:
            _empty(c, t, "Tischkarten", "Noch keine Tische: es ist noch kein Paar ausgelost.")
        for table in tables:
            _table_half(c, t, table, w, h / 2)
            c.saveState()
            c.translate(w, h)
            c.rotate(180)
            _table_half(c, t, table, w, h / 2)
            c.restoreState()
            _cut_line(c, 8 * mm, h / 2, w - 8 * mm, h / 2)
            _text(c, 8 * mm, h / 2 + 1.5 * mm, "hier falten", FONT, 6.5, 30 * mm,
                  color=GREY)
            c.showPage()
    return buf.getvalue()


def _table_half(c: Canvas, t: Tournament, table: int, w: float, h: float) -> None:
    m = 14 * mm
    c.setLineWidth(2.5)
    c.roundRect(m, m, w - 2 * m, h - 2 * m, 6 * mm, stroke=1, fill=0)
    _text(c, m, h - m - 20 * mm, "TISCH", BOLD, 34, w - 2 * m, align="center", color=GREY)
    _text(c, m + 6 * mm, m + 24 * mm, table, BOLD, 230, w - 2 * m - 12 * mm, align="center")
    _text(c, m + 6 * mm, m + 9 * mm, t.settings.name, FONT, 16, w - 2 * m - 12 * mm,
          align="center", min_size=8)


# -- draw slips ---------------------------------------------------------------------------

def draw_slips(t: Tournament, *, compress: bool = True) -> bytes:
    """A slip per pair from the draw at registration (by table, then pair number),
    eight per A4 page with cut lines.  With seating "draw" (or single players) the
    slip carries the start number only: the tables are drawn each round."""
    w, h = A4
    seefest = t.settings.mode == "pairs" and t.settings.seating == "seefest"
    if seefest:
        ids = sorted((e for e in t.draw if e in t.entrants), key=lambda e: t.draw[e])
    else:
        ids = [e.id for e in t.entrants.values() if e.checked_in]
    count = max((tp for tp, _ in t.draw.values()), default=0)
    margin = 8 * mm
    with _document("Auslosung", t, A4, compress) as (c, buf):
        if not ids:
            _empty(c, t, "Auslosung", "Noch niemand angemeldet.")
        def slip(i: int, x: float, y: float, cw: float, ch: float) -> None:
            _slip(c, t, ids[i], x, y, cw, ch, seefest, count)

        _slip_pages(c, len(ids), w, h, margin, slip)
    return buf.getvalue()


def _slip(c: Canvas, t: Tournament, eid: str, x: float, y: float, w: float, h: float,
          seefest: bool, count: int) -> None:
    e = t.entrants[eid]
    p = 5 * mm
    left, iw, top = x + p, w - 2 * p, y + h - p
    _text(c, left, top - 3 * mm, t.settings.name, FONT, 8, iw * 0.7, color=GREY)
    _text(c, left + iw * 0.7, top - 3 * mm, f"Startnummer {eid}", BOLD, 8, iw * 0.3,
          align="right", color=GREY)
    ny = top - 10 * mm
    for name in e.names:
        _text(c, left, ny, name, BOLD, 13, iw, min_size=7)
        ny -= 5.8 * mm
    if not seefest:
        unit = "Partner und Tisch werden" if t.settings.mode == "singles" else \
            "Tisch und Gegner werden"
        _wrapped(c, left, ny - 4 * mm, f"{unit} vor jeder Runde ausgelost: bitte auf die "
                 "Ansage der Turnierleitung achten.", FONT, 9, iw)
        return
    table, pos = t.draw[eid]
    bh = 19 * mm
    by = y + p + 12 * mm
    bw = (iw - 4 * mm) / 2
    for k, (label, value) in enumerate((("TISCH", table), ("PAAR", pos))):
        bx = left + k * (bw + 4 * mm)
        c.setFillColor(colors.black if k == 0 else LIGHT)
        c.roundRect(bx, by, bw, bh, 2 * mm, stroke=0, fill=1)
        fg = colors.white if k == 0 else colors.black
        _text(c, bx, by + bh - 4.5 * mm, label, BOLD, 8, bw, align="center", color=fg)
        _text(c, bx, by + 2.5 * mm, value, BOLD, 34, bw, align="center", color=fg)
    if pos == 1:
        note = (f"„Paar 1“ bleibt während des ganzen Turniers an Tisch {table} "
                "sitzen.")
    else:
        note = ("„Paar 2“ rückt nach jeder Runde einen Tisch weiter, vom letzten Tisch "
                "zu Tisch 1.")
        if t.started and count > 1:
            route = [(table - 1 + r) % count + 1 for r in range(t.settings.rounds)]
            note += (f" Runde 1–{len(route)}: Tisch "
                     + " · ".join(map(str, route)) + ".")
    _wrapped(c, left, y + p + 8 * mm, note, FONT, 7.5, iw, color=GREY, max_lines=2)


# -- ranking list -------------------------------------------------------------------------

def _finished_rounds(t: Tournament) -> int:
    done = 0
    for r in t.rounds:
        if all(s.decided for s in t.round_slots(r.number)):
            done = r.number
        else:
            break
    return done


def _standing(t: Tournament) -> str:
    done = _finished_rounds(t)
    total = t.settings.rounds
    if done >= total:
        return f"Endstand nach {total} Runde{'n' if total != 1 else ''}"
    if done == 0:
        return "vor Ende der ersten Runde"
    return f"Zwischenstand nach Runde {done} von {total}"


def _numbered_canvas(t: Tournament, header: str, standing: str) -> type:
    """A canvas that draws the page header and "Seite x von y" once all pages are known."""

    class NumberedCanvas(Canvas):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            for state in self._pages:
                self.__dict__.update(state)
                self._decorate(len(self._pages))
                super().showPage()
            super().save()

        def _decorate(self, pages: int) -> None:
            w, h = self._pagesize
            m = 15 * mm
            _text(self, m, h - 14 * mm, t.settings.name, BOLD, 15, w - 2 * m - 55 * mm,
                  min_size=8)
            _text(self, w - m - 55 * mm, h - 14 * mm, header, BOLD, 15, 55 * mm,
                  align="right")
            _text(self, m, h - 19.5 * mm, standing, FONT, 9.5, w - 2 * m, color=GREY)
            self.setLineWidth(0.8)
            self.line(m, h - 22 * mm, w - m, h - 22 * mm)
            _text(self, m, 9 * mm, f"Seite {self._pageNumber} von {pages}", FONT, 8,
                  w - 2 * m, align="right", color=GREY)

    return NumberedCanvas


def ranking_list(t: Tournament, *, rows: Sequence[RankRow] | None = None,
                 compress: bool = True) -> bytes:
    """The ranking (``t.ranking()``, which draws and stores any lot it needs, unless
    ``rows`` are given) as a table over as many A4 pages as it takes, with the
    tournament, the standing and the column heads on every page."""
    ranking = list(rows) if rows is not None else t.ranking()
    method = t.settings.ranking
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=15 * mm, rightMargin=15 * mm,
                            topMargin=27 * mm, bottomMargin=16 * mm,
                            title=latin(f"Rangliste – {t.settings.name}"),
                            author=latin(t.settings.name), creator=CREATOR,
                            subject="Rangliste", invariant=1, lang="de-DE",
                            pageCompression=1 if compress else 0)
    cell = ParagraphStyle("cell", fontName=FONT, fontSize=9.5, leading=11.5,
                          alignment=TA_LEFT)
    note = ParagraphStyle("note", fontName=FONT, fontSize=8, leading=10,
                          textColor=GREY)
    head = ["Platz", "Nr.", "Namen", "Bobbl", "Tore", "Gegn. Tore"]
    widths = [14 * mm, 13 * mm, 0.0, 15 * mm, 15 * mm, 22 * mm]
    if method != "bobbl":
        head += ["Plus", "+/-"]
        widths += [15 * mm, 15 * mm]
    head.append("Los")
    widths.append(11 * mm)
    widths[2] = doc.width - sum(widths)
    data: list[list[Any]] = [head]
    for r in ranking:
        row: list[Any] = [f"{r.rank}.", r.pair,
                          Paragraph(escape(latin(" & ".join(r.names))), cell),
                          r.bobbl, r.tore, r.gegnerische_tore]
        if method != "bobbl":
            row += [r.plus, r.plus - r.minus]
        row.append("Los" if r.los else "")
        data.append(row)
    def styled(t: Table, first: int, stripe: int) -> Table:
        """Body rows from ``first`` on (row 0 the head when ``first`` is 1); the stripes
        start at ``stripe`` so a table split in two keeps them alternating."""
        shades = [colors.white, FAINT][stripe:] + [colors.white, FAINT][:stripe]
        style: list[tuple[Any, ...]] = [
            ("FONT", (0, first), (-1, -1), FONT, 9.5),
            ("FONT", (0, first), (0, -1), BOLD, 9.5),
            ("ALIGN", (0, 0), (1, -1), "RIGHT"),
            ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
            ("ALIGN", (-1, 0), (-1, -1), "CENTER"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LINEBELOW", (0, first), (-1, -1), 0.25, colors.Color(0.75, 0.75, 0.75)),
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ("ROWBACKGROUNDS", (0, first), (-1, -1), shades),
        ]
        if first:
            style += [("FONT", (0, 0), (-1, 0), BOLD, 9.5),
                      ("BACKGROUND", (0, 0), (-1, 0), colors.black),
                      ("TEXTCOLOR", (0, 0), (-1, 0), colors.white)]
        t.setStyle(TableStyle(style))
        return t

    # the last rows go with the legend, so a page never holds the legend alone
    keep = min(3, len(data) - 2) if len(data) > 2 else 0
    body = data[:len(data) - keep]
    story: list[Any] = [styled(LongTable(body, colWidths=widths, repeatRows=1), 1, 0)]
    legend: list[Any] = []
    if keep:
        legend.append(styled(Table(data[len(data) - keep:], colWidths=widths), 0,
                             (len(body) - 1) % 2))
    legend.append(Spacer(1, 4 * mm))
    if method == "bobbl":
        legend.append(Paragraph(
            "Reihenfolge: gewonnene Bobbl, dann Tore (Punkte in verlorenen Bobbln, mehr ist "
            "besser), dann gegnerische Tore (Punkte der Gegner in gewonnenen Bobbln, weniger "
            "ist besser), dann das Los.", note))
    else:
        legend.append(Paragraph(f"Reihenfolge: {'Plus' if method == 'plus' else 'Plus-Minus'}"
                                ", dann das Los.", note))
    if any(r.los for r in ranking):
        legend.append(Paragraph("Los: der Platz wurde durch das Los entschieden.", note))
    story.append(KeepTogether(legend))
    if not ranking:
        story.insert(0, Paragraph("Noch niemand angemeldet.", cell))
    doc.build(story, canvasmaker=_numbered_canvas(t, "Rangliste", _standing(t)))
    return buf.getvalue()


# -- certificates -----------------------------------------------------------------------

def certificates(t: Tournament, top: int = 3, *, date: str | None = None,
                 rows: Sequence[RankRow] | None = None, compress: bool = True) -> bytes:
    """An Urkunde (A4 page) for each of the first ``top`` places; ``date`` is written on
    the date line (blank for handwriting when None)."""
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise TournamentError(f"top={top!r}: a whole number >= 1", "bad_input", field="top")
    ranking = list(rows) if rows is not None else t.ranking()
    w, h = A4
    with _document("Urkunden", t, A4, compress) as (c, buf):
        chosen = [r for r in ranking if r.rank <= top]
        if not chosen:
            _empty(c, t, "Urkunden", "Noch keine Rangliste.")
        for r in chosen:
            _certificate(c, t, r, w, h, date)
            c.showPage()
    return buf.getvalue()


def _certificate(c: Canvas, t: Tournament, r: RankRow, w: float, h: float,
                 date: str | None) -> None:
    m = 14 * mm
    c.setStrokeColor(ACCENT)
    c.setLineWidth(3)
    c.rect(m, m, w - 2 * m, h - 2 * m, stroke=1, fill=0)
    c.setLineWidth(0.8)
    c.rect(m + 3 * mm, m + 3 * mm, w - 2 * m - 6 * mm, h - 2 * m - 6 * mm, stroke=1, fill=0)
    c.setStrokeColor(colors.black)
    x, iw = m + 15 * mm, w - 2 * m - 30 * mm
    y = h - m - 48 * mm
    c.setFillColor(ACCENT)
    c.setFont(BOLD, 54)
    c.drawCentredString(w / 2, y, "URKUNDE")
    y -= 22 * mm
    _text(c, x, y, t.settings.name, BOLD, 24, iw, align="center", min_size=10)
    y -= 30 * mm
    names = list(r.names)
    for k, name in enumerate(names):
        _text(c, x, y, name, BOLD, 30, iw, align="center", min_size=12)
        y -= 13 * mm
        if k < len(names) - 1:
            _text(c, x, y + 1 * mm, "&", FONT, 18, iw, align="center", color=GREY)
            y -= 11 * mm
    y -= 8 * mm
    verb = "belegten" if len(names) > 1 else "belegte"
    _text(c, x, y, f"{verb} den", FONT, 16, iw, align="center")
    y -= 30 * mm
    _text(c, x, y, f"{r.rank}. Platz", BOLD, 72, iw, align="center", color=ACCENT)
    y -= 16 * mm
    if t.settings.ranking == "bobbl":
        won = f"{r.bobbl} gewonnenen Bobbl" if r.bobbl != 1 else "1 gewonnenen Bobbl"
        tore = "1 Tor" if r.tore == 1 else f"{r.tore} Toren"
        line = f"mit {won} und {tore}"
    elif t.settings.ranking == "plus":
        line = f"mit {r.plus} Punkten"
    else:
        line = f"mit {r.plus - r.minus:+d} Punkten (Plus-Minus)"
    _text(c, x, y, line, FONT, 15, iw, align="center")
    # date and signature lines
    ly = m + 32 * mm
    lw = (iw - 20 * mm) / 2
    for k, label in enumerate(("Ort, Datum", "Turnierleitung")):
        lx = x + k * (lw + 20 * mm)
        c.setLineWidth(0.7)
        c.line(lx, ly, lx + lw, ly)
        _text(c, lx, ly - 5 * mm, label, FONT, 9, lw, color=GREY)
        if k == 0 and date:
            _text(c, lx, ly + 2 * mm, date, FONT, 13, lw, align="center")


# -- registration QR codes ----------------------------------------------------------------

def registration_qr_sheet(t: Tournament, url_for_code: Callable[[str], str], *,
                          only: Collection[str] | None = None,
                          compress: bool = True) -> bytes:
    """A check-in card per pre-registration that is not checked in yet (or only the
    entrant ids in ``only``): names, the QR code of ``url_for_code(code)`` and the code,
    eight per A4 page with cut lines."""
    w, h = A4
    pending = [e for e in t.entrants.values()
               if not e.checked_in and (only is None or e.id in only)]
    margin = 8 * mm
    with _document("Anmeldung per QR-Code", t, A4, compress) as (c, buf):
        if not pending:
            _empty(c, t, "Anmeldung per QR-Code", "Keine offenen Voranmeldungen.")
        def card(i: int, x: float, y: float, cw: float, ch: float) -> None:
            e = pending[i]
            _checkin_card(c, t, e.names, e.code, url_for_code(e.code), x, y, cw, ch)

        _slip_pages(c, len(pending), w, h, margin, card)
    return buf.getvalue()


def _checkin_card(c: Canvas, t: Tournament, names: Sequence[str], code: str, url: str,
                  x: float, y: float, w: float, h: float) -> None:
    p = 5 * mm
    q = 42 * mm
    left, top = x + p, y + h - p
    tw = w - 2 * p - q - 4 * mm
    qy = top - q
    draw_qr(c, url, x + w - p - q, qy, q, border=2)
    _text(c, x + w - p - q, qy - 3 * mm, f"Code {code}", MONO, 9, q, align="center")
    _text(c, left, top - 3 * mm, t.settings.name, FONT, 8, tw, color=GREY)
    _text(c, left, top - 10 * mm, "Anmeldung", BOLD, 13, tw)
    ny = top - 17.5 * mm
    for name in names:
        _text(c, left, ny, name, BOLD, 11.5, tw, min_size=7)
        ny -= 5.2 * mm
    _wrapped(c, left, ny - 2 * mm, "Bitte zur Anmeldung vor Ort mitbringen: der QR-Code "
             "meldet euch an. Tisch- und Paarnummer werden dann ausgelost.",
             FONT, 7.5, tw, color=GREY, max_lines=6)
    _text(c, left, y + p, url, FONT, 7, w - 2 * p, min_size=4.5, color=GREY)
