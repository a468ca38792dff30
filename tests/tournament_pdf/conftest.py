"""Helpers of the PDF tests: tournaments built with the domain API, and a look inside
the PDFs without extra dependencies.

``build(pairs, played=…)`` registers pairs with a seeded draw, closes the gaps, starts
and enters every Bobbl of the first ``played`` rounds (seating the next round after
each).  ``pdf_text(data)`` is the text of a PDF written with ``compress=False`` (the
literal strings of its content streams, decoded from cp1252); ``page_count(data)``
counts its page objects.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from stammtisch.tournament.model import Tournament
from stammtisch.tournament.settings import TournamentSettings

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "pdf"

UMLAUT_NAMES = [("Bärbel Größ", "Jürgen Weiß"), ("Öttl Ännchen", "Ülrich Straßer"),
                ("Łukasz Wałęsa", "Šárka Žižková")]

_LITERAL = re.compile(rb"\((?:\\.|[^\\()])*\)", re.S)
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f",
            b"(": b"(", b")": b")", b"\\": b"\\"}


def _unescape(raw: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(raw):
        ch = raw[i:i + 1]
        if ch != b"\\":
            out += ch
            i += 1
            continue
        octal = re.match(rb"[0-7]{1,3}", raw[i + 1:i + 4])
        if octal:
            out.append(int(octal.group(), 8) & 0xFF)
            i += 1 + len(octal.group())
        else:
            out += _ESCAPES.get(raw[i + 1:i + 2], raw[i + 1:i + 2])
            i += 2
    return bytes(out)


def pdf_text(data: bytes) -> str:
    """The shown strings of an uncompressed PDF's content streams, one per line."""
    assert b"/FlateDecode" not in data, "write the PDF with compress=False"
    parts: list[str] = []
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        for lit in _LITERAL.findall(stream):
            parts.append(_unescape(lit[1:-1]).decode("cp1252", "replace"))
    return "\n".join(parts)


def page_count(data: bytes) -> int:
    return len(re.findall(rb"/Type /Page(?![a-zA-Z])", data))


def build(pairs: int = 12, played: int = 0, *, names: Sequence[tuple[str, str]] = (),
          seed: int = 1, **settings: Any) -> Tournament:
    """A tournament of ``pairs`` pairs (the first ones named ``names``), rounds
    1..``played`` entered (winners and Tore drawn from the seed), the next round
    seated."""
    rng = random.Random(seed)
    opts: dict[str, Any] = {"name": "Seefest-Mucker Tauperlitz", "odd_handling": "bye"}
    opts.update(settings)
    t = Tournament(TournamentSettings(**opts))
    for i in range(pairs):
        t.register(names[i] if i < len(names) else (f"Anna{i + 1} Huber",
                                                    f"Bernd{i + 1} Maier"), rng)
    t.close_gaps()
    t.start(rng)
    for r in range(1, played + 1):
        rnd = t.rounds[r - 1]
        for s in t.round_slots(r):
            if rnd.tables[s.table][1] is None:
                continue
            t.enter(r, s.table, s.index, winner=rng.choice((1, 2)),
                    loser_points=rng.randrange(t.settings.target))
        if r < t.settings.rounds:
            t.next_round(rng)
    return t


@pytest.fixture
def make_tournament() -> Callable[..., Tournament]:
    return build
