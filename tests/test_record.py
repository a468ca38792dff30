"""Game records: the golden records replay to their expected results, bad records
fail with a RecordError naming the first bad entry and the reason."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from stammtisch.errors import RecordError, StammtischError
from stammtisch.games.mucken.record import load, record_of, replay, summary

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_NAMES = sorted(p.name.removesuffix(".json") for p in GOLDEN.glob("*.json")
                      if not p.name.endswith(".expected.json"))

# The three known results (the first with the exact JSON line `replay --json` prints).
EXAMPLE_KONTRA_LINE = ('{"contract":"muck","declarer":0,"kontra":true,'
                       '"trick_winners":[0,0,0,0,0,0],"augen":[120,0],"tricks":[6,0],'
                       '"winner":0,"score":8}')
WENZ = {
    "game": "mucken", "rules": "seefest", "dealer": 0,
    "hands": [["EO", "GO", "SO", "S10", "SK", "S9"], ["HO", "EA", "E10", "GA", "G10", "SA"],
              ["HA", "H10", "EK", "E9", "GK", "G9"], ["EU", "GU", "HU", "SU", "HK", "H9"]],
    "calls": ["weiter", "weiter", "wenz", "weiter"],
    "plays": ["HO", "HA", "HK", "SK", "EK", "EU", "EO", "E10", "GU", "S9", "G10", "G9",
              "HU", "S10", "GA", "GK", "SU", "SO", "EA", "E9", "H9", "GO", "SA", "H10"],
}


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    return data


def test_every_golden_record_has_an_expected_result() -> None:
    assert len(GOLDEN_NAMES) >= 10
    for name in GOLDEN_NAMES:
        assert (GOLDEN / f"{name}.expected.json").is_file(), name
    assert {"muck_kontra_schwarz", "wenz_seat3", "schneidermuck_new_round", "pflichtmuck",
            "pflichtmuck_60_60", "wenz_lost_kontra"} <= set(GOLDEN_NAMES)


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_record_replays_to_its_expected_result(name: str) -> None:
    state = replay((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    assert state.is_terminal()
    assert summary(state) == expected(name)


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_record_round_trips_through_record_of(name: str) -> None:
    state = replay(golden(name))
    rec = record_of(state)
    again = replay(json.dumps(rec))
    assert again.result() == state.result()
    for key in ("dealer", "hands", "calls", "kontra", "re", "sup", "hirsch", "violation"):
        assert rec.get(key) == golden(name).get(key, [] if key == "calls" else None), key
    assert rec["plays"] == golden(name).get("plays", [])


def test_the_example_record_with_kontra() -> None:
    state = replay(golden("muck_kontra_schwarz"))
    assert json.dumps(summary(state), separators=(",", ":")) == EXAMPLE_KONTRA_LINE
    r = state.result()
    assert r is not None and r["doublings"] == 1 and r["column"] == "schwarz"


def test_the_wenz_record() -> None:
    state = replay(WENZ)
    assert summary(state) == {
        "contract": "wenz", "declarer": 3, "kontra": False,
        "trick_winners": [2, 3, 3, 3, 3, 2], "augen": [46, 74], "tricks": [2, 4],
        "winner": 1, "score": 3}
    assert golden("wenz_seat3") == WENZ


def test_the_schneidermuck_bidding_record() -> None:
    rec = golden("schneidermuck_new_round")
    assert rec["dealer"] == 3
    assert rec["calls"] == ["weiter", "weiter", "muck", "wenz", "schneidermuck", "weiter",
                            "weiter", "weiter"]
    state = replay(rec)
    out = summary(state)
    assert (out["contract"], out["declarer"]) == ("schneidermuck", 0)
    assert sum(out["augen"]) == 120 and out["augen"][1] <= 30
    assert (out["winner"], out["score"]) == (0, 4)  # Schneidermuck gewonnen: 4


def test_load_accepts_text_bytes_and_mappings() -> None:
    text = json.dumps(WENZ)
    assert load(text) == WENZ
    assert load(text.encode()) == WENZ
    assert load(WENZ) == WENZ and load(WENZ) is not WENZ
    assert summary(replay(text.encode())) == summary(replay(WENZ))


# -- bad records ---------------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], Any]


def _set(*path: Any) -> Mutation:
    *where, key, value = path

    def change(rec: dict[str, Any]) -> None:
        target: Any = rec
        for k in where:
            target = target[k]
        target[key] = value
    return change


BAD = {
    # hands that are not a dealt deck
    "duplicate card": (_set("hands", 2, 0, "EO"),
                       r"^hands: not a dealt deck: hand 2: EO is dealt twice \(also in hand 0\)$"),
    "duplicate in one hand": (_set("hands", 0, 0, "GO"), r"hand 0: GO is dealt twice"),
    "wrong count": (lambda r: r["hands"][1].pop(),
                    r"^hands: not a dealt deck: hand 1 has 5 cards, needs 6$"),
    "three hands": (lambda r: r["hands"].pop(), r"need 4 hands, got 3"),
    "unknown card": (_set("hands", 2, 1, "X9"),
                     r"^hands\[2\]\[1\]: not a card: 'X9' \(unknown suit 'X'\)$"),
    "card of the long deck": (_set("hands", 2, 1, "E8"), r"hand 2: E8 is not in the short deck"),
    "hands not a list": (_set("hands", "EO GO"), r"^hands: must be a list"),
    # plays
    "not your card": (_set("plays", 0, "HA"),
                      r"^play 0 \(HA\) by seat 1: seat 1 does not hold HA$"),
    "must follow suit": (_set("plays", 1, "EK"),
                         r"^play 1 \(EK\) by seat 2: seat 2 must follow Herz, holds HA H10$"),
    "not a card in the plays": (_set("plays", 3, "Q9"), r"^play 3: not a card: 'Q9'"),
    "record stops before the end": (lambda r: r["plays"].pop(),
                                    r"^plays: the record stops before the game's end "
                                    r"\(23 plays, seat 2 is to play\)$"),
    "a play after the end": (lambda r: r["plays"].append("EO"),
                             r"^play 24 \('EO'\): a play after the game's end$"),
    # calls
    "not higher": (_set("calls", ["weiter", "wenz", "muck", "weiter"]),
                   r"^call 2 \('muck'\) by seat 3: muck is not higher than wenz$"),
    "a call after the bidding ended": (lambda r: r["calls"].append("weiter"),
                                       r"^call 4 \('weiter'\): a call after the bidding ended$"),
    "bidding not finished": (_set("calls", ["weiter", "weiter", "wenz"]),
                             r"^calls: bidding not finished after 3 call\(s\) "
                             r"\(seat 0 is to call\)$"),
    "unknown call": (_set("calls", 0, "passe"),
                     r"^call 0 \('passe'\) by seat 1: 'passe' is not a game of these rules"),
    "call not text": (_set("calls", 0, 5), r"^call 0: 5 is not a call$"),
    # doublings
    "kontra by the declaring pair": (_set("kontra", 1),
                                     r"^kontra: seat 1 is of the declaring pair \(seat 3 "
                                     r"declared wenz\)"),
    "re without kontra": (_set("re", 3), r"^re: seat 3 may not say 're' here$"),
    "kontra not a seat": (_set("kontra", 7), r"^kontra: 7 is not a seat 0..3$"),
    # the record itself
    "unknown key": (_set("bier", 1), r"^unknown key\(s\): bier$"),
    "missing hands": (lambda r: r.pop("hands"), r"^missing key 'hands'$"),
    "bad dealer": (_set("dealer", 4), r"^dealer: 4 is not a seat 0..3$"),
    "unknown preset": (_set("rules", "schafkopf"), r"^rules: unknown Mucken preset 'schafkopf'"),
    "unknown option": (_set("rules", {"preset": "seefest", "bock": 1}),
                       r"^rules: unknown Mucken rules option 'bock'$"),
    "bad factor": (_set("factor", 0), r"^factor: 0 is not a whole number >= 1$"),
    "other game": (_set("game", "schafkopf"), r"^game: 'schafkopf' is not 'mucken'$"),
    "violation after the plays": (_set("violation", {"seat": 1, "after": 30}),
                                  r"^violation.after: 30 but only 24 plays$"),
    "play after the violation": (_set("violation", {"seat": 1, "after": 3}),
                                 r"^play 3: a play after the Regelverstoß$"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_record_names_the_entry_and_the_reason(case: str) -> None:
    change, pattern = BAD[case]
    rec = copy.deepcopy(WENZ)
    change(rec)
    with pytest.raises(RecordError, match=pattern) as info:
        replay(rec)
    assert info.value.code == "invalid_record"
    assert isinstance(info.value, StammtischError)
    with pytest.raises(RecordError, match=pattern):
        replay(json.dumps(rec))


def test_no_kontra_in_a_pflichtmuck() -> None:
    rec = golden("pflichtmuck")
    rec["kontra"] = 0
    with pytest.raises(RecordError, match=r"^kontra: no Kontra in a pflichtmuck$"):
        replay(rec)


def test_the_kontra_seat_is_checked_in_a_valid_record() -> None:
    rec = golden("wenz_lost_kontra")
    assert rec["kontra"] == 0
    rec["kontra"] = 2  # the partner of seat 0 may say it instead: same game, same result
    assert summary(replay(rec)) == expected("wenz_lost_kontra")
    rec["kontra"] = 3
    with pytest.raises(RecordError, match="seat 3 is of the declaring pair"):
        replay(rec)


def test_calls_in_a_muss_spiel_record_refuse_weiter() -> None:
    rec = golden("muss_spiel_60")
    rec["calls"] = ["weiter"] * 5
    with pytest.raises(RecordError, match=r"^call 4 \('weiter'\) by seat 2: .*must call a game"):
        replay(rec)


def test_calls_or_plays_in_a_sie_record_are_refused() -> None:
    rec = golden("sie_wikipedia")
    rec["calls"] = ["weiter"]
    with pytest.raises(RecordError, match=r"^call 0 \('weiter'\): a call after the bidding"):
        replay(rec)
    rec = golden("sie_wikipedia")
    rec["plays"] = ["EO"]
    with pytest.raises(RecordError, match=r"^play 0 \('EO'\): a play after the game's end$"):
        replay(rec)


@pytest.mark.parametrize(
    ("text", "pattern"),
    [("[1, 2]", "a record must be a JSON object"), ("{", "^not JSON: "),
     ('"seefest"', "a record must be a JSON object"), ('{"hands": []}', "missing key 'dealer'")],
)
def test_text_that_is_not_a_record(text: str, pattern: str) -> None:
    with pytest.raises(RecordError, match=pattern):
        replay(text)
