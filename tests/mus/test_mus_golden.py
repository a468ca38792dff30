"""Golden Mus records (tests/golden/mus): hand-checked results and refusals, through the
real ``stammtisch replay --json`` command and through the record API."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stammtisch.errors import RecordActionError, RecordError
from stammtisch.games.mus.record import replay_record
from stammtisch.games.mus.state import RESULT_KEYS

GOLDEN = Path(__file__).parent.parent / "golden" / "mus"
NAMES = sorted(p.name.removesuffix(".json") for p in GOLDEN.glob("*.json")
               if not p.name.endswith(".expected.json"))
VALID = [n for n in NAMES if not n.startswith("invalid_")]
INVALID = [n for n in NAMES if n.startswith("invalid_")]


def expected(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    return data


def test_enough_golden_records() -> None:
    assert len(VALID) >= 10 and len(INVALID) >= 12
    statuses = {s for n in VALID for s in expected(n)["status"].values()}  # type: ignore[attr-defined]
    assert statuses == {"paso", "querido", "no_querido", "ordago", "no_bet", "not_reached"}


def test_the_real_cli_prints_every_golden_line() -> None:
    exe = Path(sys.executable).parent / "stammtisch"
    files = [str(GOLDEN / f"{n}.json") for n in NAMES]
    proc = subprocess.run([str(exe), "replay", "--json", *files], capture_output=True,
                          text=True, check=False, timeout=120)
    assert proc.returncode == 1  # the invalid ones
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == len(NAMES)
    for name, got in zip(NAMES, lines, strict=True):
        assert got == expected(name), name
        if name in VALID:
            assert list(got) == list(RESULT_KEYS), name


@pytest.mark.parametrize("name", VALID)
def test_valid_records_through_the_api(name: str) -> None:
    assert replay_record((GOLDEN / f"{name}.json").read_text()) == expected(name)


@pytest.mark.parametrize("name", INVALID)
def test_invalid_records_are_refused(name: str) -> None:
    with pytest.raises(RecordError) as err:
        replay_record((GOLDEN / f"{name}.json").read_text())
    assert str(err.value) == expected(name)["error"]
    if isinstance(err.value, RecordActionError):
        assert str(err.value).startswith(f"action {err.value.index}")
