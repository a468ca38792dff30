"""Golden Schafkopf records (tests/golden/schafkopf): hand-checked results and refusals,
through the real ``stammtisch replay --json`` command and through the record API."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stammtisch.errors import RecordActionError, RecordError
from stammtisch.games.schafkopf.record import replay_record

GOLDEN = Path(__file__).parent.parent / "golden" / "schafkopf"
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
    assert len(VALID) >= 15 and len(INVALID) >= 6
    contracts = {expected(n)["contract"] for n in VALID}
    for needed in ("sauspiel-gras", "hochzeit", "bettel", "geier", "wenz", "farbwenz-gras",
                   "solo-herz", "solo-herz-tout", "sie", "ramsch", None):
        assert needed in contracts
    assert {record(n)["rules"] if isinstance(record(n)["rules"], str) else "object"
            for n in VALID} == {"standard", "anleitung", "object"}


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
            assert list(got) == list(expected(name)), name  # keys in the contract's order
    proc = subprocess.run([str(exe), "replay", "--json", *files[:1]], capture_output=True,
                          text=True, check=False, timeout=120)
    assert proc.returncode == (1 if NAMES[0] in INVALID else 0)


@pytest.mark.parametrize("name", VALID)
def test_valid_records(name: str) -> None:
    result = replay_record(record(name))
    assert result == expected(name)
    assert sum(result["payments"]) == 0


@pytest.mark.parametrize("name", INVALID)
def test_invalid_records(name: str) -> None:
    with pytest.raises(RecordError) as info:
        replay_record(record(name))
    assert {"error": str(info.value)} == expected(name)
    if str(info.value).startswith("action "):
        assert isinstance(info.value, RecordActionError)
        assert str(info.value).startswith((f"action {info.value.index} ",
                                           f"action {info.value.index}:"))


def test_hand_checked_numbers() -> None:
    """A few results recomputed by hand from the contract (see docs/rules/schafkopf.md)."""
    # Hochzeit, one lege and Kontra/Sup: the opponents hold EO GO HO SO (4 Laufende) and
    # win with 63 + 11 Augen; (10 + 4 * 10) * 2^3 = 400 for each seat
    r = expected("hochzeit_legen_stossen")
    assert r["augen"] == [0, 63, 46, 11] and r["laufende"] == 4 and r["multiplier"] == 8
    assert r["payments"] == [-400, 400, -400, 400]
    # Schellen-Sauspiel by Renonce in a Muss-Spiel: 59 Augen lose (60 would win),
    # 5 Laufende: 10 + 50
    r = expected("muss_renonce")
    assert r["augen"][0] + r["augen"][3] == 59 and r["payments"] == [-60, 60, 60, -60]
    # Wenz lost schwarz "ohne 4": 50 + 10 + 10 + 40 = 110, the soloist pays three times
    assert expected("wenz_ohne_vier")["payments"] == [110, 110, 110, -330]
    # Tout with Kontra and Re: (50 + 6 * 10) * 2 * 4 = 880
    assert expected("solo_tout_kontra_re")["payments"] == [2640, -880, -880, -880]
    # Durchmarsch with Jungfrau: 20 * 2^3 = 160 from each of the three
    assert expected("custom_tariff_jungfrau")["payments"] == [480, -160, -160, -160]


def test_unknown_game_and_bad_shapes() -> None:
    rec = record("sie")
    for change, needle in [
        ({"game": "mucken"}, "game"),
        ({"rules": {"legen": True}}, "preset"),
        ({"dealer": 4}, "dealer"),
        ({"dealer": True}, "dealer"),
        ({"actions": "sie"}, "actions"),
        ({"hands": [["EO"]] * 4}, "hands"),
    ]:
        with pytest.raises(RecordError, match=needle):
            replay_record({**rec, **change})
    # records.md names no other top-level keys: an extra one is carried along, not refused
    assert replay_record({**rec, "title": "Sie", "id": 7}) == replay_record(rec)
    with pytest.raises(RecordActionError, match="pair"):
        replay_record({**rec, "actions": [[0]]})
    bad = {**rec, "hands": [list(h) for h in rec["hands"]]}  # type: ignore[union-attr]
    bad["hands"][0][0] = "X9"  # type: ignore[index]
    with pytest.raises(RecordError, match="not a card"):
        replay_record(bad)
