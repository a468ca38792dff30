"""``stammtisch play`` prints exactly its golden transcripts (``tests/golden/terminal/``):
every game, German and English, piped answers through the real command and seeded typists
through the shell's API.  See :mod:`terminal_goldens` for the scenarios and how to
rewrite the transcripts (only on purpose)."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "golden" / "terminal"))

import terminal_goldens as goldens


@pytest.mark.parametrize("case", goldens.cases(), ids=lambda c: c.name)
def test_transcript_is_byte_identical(case: goldens.Cli | goldens.Typist) -> None:
    expected = goldens.path_of(case).read_text(encoding="utf-8")
    actual = goldens.run(case)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            "golden", "now", n=2))[:60])
        pytest.fail(f"{case.name}: the transcript changed\n{diff}")


def test_every_transcript_has_its_scenario() -> None:
    names = {c.name for c in goldens.cases()}
    stored = {p.stem for p in goldens.HERE.glob("*.txt")}
    assert stored == names
