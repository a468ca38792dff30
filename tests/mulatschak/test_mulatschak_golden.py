"""Golden Mulatschak records (tests/golden/mulatschak): hand-checked results and refusals,
through the record API and, once the game is registered, the real
``stammtisch replay --json`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stammtisch.errors import RecordActionError, RecordError
from stammtisch.games import registry
from stammtisch.games.mulatschak.record import replay_record
from stammtisch.games.mulatschak.state import RESULT_KEYS

GOLDEN = Path(__file__).parent.parent / "golden" / "mulatschak"
NAMES = sorted(p.name.removesuffix(".json") for p in GOLDEN.glob("*.json")
               if not p.name.endswith(".expected.json"))
VALID = [n for n in NAMES if not n.startswith("invalid_")]
INVALID = [n for n in NAMES if n.startswith("invalid_")]


def expected(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    return data


def record(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def test_enough_golden_records() -> None:
    assert len(VALID) >= 15 and len(INVALID) >= 15


@pytest.mark.parametrize("name", VALID)
def test_valid_records(name: str) -> None:
    result = replay_record(record(name))
    assert result == expected(name)
    assert list(result) == list(RESULT_KEYS)


@pytest.mark.parametrize("name", INVALID)
def test_invalid_records(name: str) -> None:
    with pytest.raises(RecordError) as info:
        replay_record(record(name))
    assert {"error": str(info.value)} == expected(name)
    if str(info.value).startswith("action "):
        assert isinstance(info.value, RecordActionError)
        assert str(info.value).startswith((f"action {info.value.index} ",
                                           f"action {info.value.index}:"))


@pytest.mark.skipif("mulatschak" not in registry.names(), reason="not registered yet")
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
    one = [str(GOLDEN / f"{VALID[0]}.json")]
    proc = subprocess.run([str(exe), "replay", "--json", *one], capture_output=True,
                          text=True, check=False, timeout=120)
    assert proc.returncode == 0


def test_hand_checked_numbers() -> None:
    """Results recomputed by hand from the contract (docs/rules/mulatschak.md)."""
    # seat 1 bids 4 in Gras over a bei mir, gets the Weli for E7 and takes all 5 tricks:
    # -5; seats 0 and 2 play without a trick: +5; seat 3 stays home: +1
    r = expected("bei_mir_raise_tausche_sicht_weg")
    assert r["bidder"] == 1 and r["bid"] == 4 and r["home"] == [3]
    assert r["delta"] == [5, -5, 5, 1]
    # Herz after Klopfen: m = 2^2; the bidder (2) makes no trick: +10m; seat 3 at 3 points
    # takes one trick: -4 -> -1, the match winner
    r = expected("klopfen_weli_kept_herz_limits")
    assert r["multiplier"] == 4 and r["delta"] == [20, 40, -16, -4]
    assert r["scores"] == [25, 61, 5, -1] and r["match_winner"] == [3]
    # a Muli out of turn in Herz (m = 2), broken by seat 0 in trick 1, rule "breaker"
    r = expected("muli_out_of_turn_breaker")
    assert r["trick_winners"][0] == 0 and r["delta"] == [-20, 0, 20, 0]
    # Muli made from 8 points: 8 - 10 = -2 wins the match
    r = expected("muli_made_match_winner")
    assert r["delta"] == [-10, 10, 10, 10] and r["match_winner"] == [0]
    # everybody home: the bidder -bid*m, every other +m
    assert expected("everybody_home")["delta"] == [-2, 1, 1, 1]
    # a folded hand with one carried doubling: 2^(0 + 1)
    r = expected("zusammengefallen_doubled")
    assert r["folded"] and r["multiplier"] == 2 and r["delta"] == [0, 0, 0, 0]
    assert expected("everybody_weiter_klopfen")["multiplier"] == 2
