"""The JSON Schema of Mucken game records (src/stammtisch/schemas/mucken-record.json).

The schema must accept every record that ``record.replay`` accepts (including
records written by ``record_of``) and reject structurally malformed ones.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from stammtisch.engine import play_random
from stammtisch.errors import RecordError
from stammtisch.games.mucken.record import KNOWN_KEYS, record_of, replay, summary
from stammtisch.games.mucken.rules import GAME_KINDS, PRESETS, MuckenRules
from stammtisch.games.mucken.state import BIDDING, PLAY, MuckenState
from stammtisch.schemas import record_schema

MUCK_KONTRA: dict[str, Any] = {
    "game": "mucken",
    "rules": "seefest",
    "dealer": 3,
    "hands": [
        ["EO", "GO", "HO", "SO", "EU", "GU"],
        ["HA", "H10", "HK", "H9", "HU", "SU"],
        ["EA", "E10", "EK", "E9", "GA", "G10"],
        ["GK", "G9", "SA", "S10", "SK", "S9"],
    ],
    "calls": ["muck", "weiter", "weiter", "weiter"],
    "kontra": 1,
    "plays": [
        "EO", "HA", "EA", "GK", "GO", "H10", "E10", "G9", "HO", "HK", "EK", "SA",
        "SO", "H9", "E9", "S10", "EU", "HU", "GA", "SK", "GU", "SU", "G10", "S9",
    ],
}

WENZ: dict[str, Any] = {
    "game": "mucken",
    "rules": "seefest",
    "dealer": 0,
    "hands": [
        ["EO", "GO", "SO", "S10", "SK", "S9"],
        ["HO", "EA", "E10", "GA", "G10", "SA"],
        ["HA", "H10", "EK", "E9", "GK", "G9"],
        ["EU", "GU", "HU", "SU", "HK", "H9"],
    ],
    "calls": ["weiter", "weiter", "wenz", "weiter"],
    "plays": [
        "HO", "HA", "HK", "SK", "EK", "EU", "EO", "E10", "GU", "S9", "G10", "G9",
        "HU", "S10", "GA", "GK", "SU", "SO", "EA", "E9", "H9", "GO", "SA", "H10",
    ],
}


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = record_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _errors(validator: Draft202012Validator, record: Any) -> list[str]:
    return [e.message for e in validator.iter_errors(record)]


def test_record_schema_is_draft_2020_12() -> None:
    schema = record_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["additionalProperties"] is False
    assert record_schema() is not schema  # a fresh copy each time


def test_schema_keys_follow_the_reader() -> None:
    schema = record_schema()
    assert set(schema["properties"]) == KNOWN_KEYS
    assert schema["$defs"]["presetName"]["enum"] == sorted(PRESETS)
    options = {f.name for f in dataclasses.fields(MuckenRules) if f.init}
    assert set(schema["$defs"]["rulesObject"]["properties"]) == options | {"preset"}
    assert schema["$defs"]["gameKind"]["enum"] == list(GAME_KINDS)


def test_worked_examples_validate_and_replay(validator: Draft202012Validator) -> None:
    assert _errors(validator, MUCK_KONTRA) == []
    assert _errors(validator, WENZ) == []
    assert summary(replay(MUCK_KONTRA)) == {
        "contract": "muck", "declarer": 0, "kontra": True, "trick_winners": [0, 0, 0, 0, 0, 0],
        "augen": [120, 0], "tricks": [6, 0], "winner": 0, "score": 8,
    }
    assert summary(replay(WENZ)) == {
        "contract": "wenz", "declarer": 3, "kontra": False,
        "trick_winners": [2, 3, 3, 3, 3, 2], "augen": [46, 74], "tricks": [2, 4],
        "winner": 1, "score": 3,
    }


def _with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    rec = copy.deepcopy(base)
    rec.update(changes)
    return rec


VALID_VARIANTS = [
    # minimal: game and rules are optional, null seats mean "nobody"
    {k: v for k, v in MUCK_KONTRA.items() if k not in ("game", "rules")},
    _with(WENZ, kontra=None, re=None, violation=None, factor=1),
    _with(WENZ, players=["Anna", "Bert", "Cilli", "Done"], meta={"table": 12, "round": 3},
          log=["weiter", "weiter", "wenz", "weiter", "HO"]),
    # cards and calls are read case-insensitively
    _with(WENZ, calls=["Weiter", "WEITER", " wenz ", "weiter"],
          plays=[p.lower() for p in WENZ["plays"]]),
    _with(WENZ, rules={"preset": "seefest", "doublings": 4, "values": {"wenz": [3, 4, 5]}}),
    _with(WENZ, rules={"doublings": 1}),
    _with(MUCK_KONTRA, rules={"preset": "seefest", "doublings": 2}, re=0),
    _with(WENZ, factor=2),
    _with(WENZ, plays=WENZ["plays"][:5], violation={"seat": 1, "after": 5}),
]


@pytest.mark.parametrize("record", VALID_VARIANTS)
def test_valid_variants(validator: Draft202012Validator, record: dict[str, Any]) -> None:
    assert _errors(validator, record) == []
    replay(record)  # the reader accepts them too


def _rules_object_everything() -> dict[str, Any]:
    return {
        "preset": "wikipedia", "name": "stammtisch", "deck": "long",
        "games": ["muck", "geier", "wenz", "farbsolo"], "levels": ["plain", "schneider"],
        "values": {"muck": [2, 3, 4], "schneidermuck": [None, 4, 5]},
        "partner_overcall_new_round": False, "doublings": 4, "kontra_uebernimmt": False,
        "no_game": "ramsch", "pflichtmuck_value": 2, "pflichtmuck_tie": "card_holder_loses",
        "tie_card": "eo", "einwerfen_double": "multiply", "muss_card": "Weli",
        "muss_60_wins": False, "ramsch_value": 2, "ramsch_double": True,
        "ramsch_stichzwang": True, "durchmarsch": True, "ramsch_last_man": True, "sie": False,
        "sie_value": 30, "cut_min": 4, "cut_min_left": 4, "cut_min_times": 0,
        "cut_max_times": 3, "klopfen": False, "auskarten_pairs": True, "bobbl_target": 31,
        "haenger": True,
    }


def test_rules_object_with_every_option(validator: Draft202012Validator) -> None:
    rules = _rules_object_everything()
    MuckenRules.from_json(rules)  # the rules themselves are valid
    assert _errors(validator, _with(WENZ, rules=rules)) == []


MALFORMED = {
    "unknown key": _with(WENZ, kontra_seat=1),
    "other game": _with(WENZ, game="schafkopf"),
    "dealer outside 0..3": _with(WENZ, dealer=4),
    "dealer negative": _with(WENZ, dealer=-1),
    "dealer as text": _with(WENZ, dealer="0"),
    "dealer missing": {k: v for k, v in WENZ.items() if k != "dealer"},
    "hands missing": {k: v for k, v in WENZ.items() if k != "hands"},
    "three hands": _with(WENZ, hands=WENZ["hands"][:3]),
    "hand of five": _with(WENZ, hands=[h[:5] for h in WENZ["hands"]]),
    "unknown suit": _with(WENZ, hands=[["X9", *WENZ["hands"][0][1:]], *WENZ["hands"][1:]]),
    "unknown rank": _with(WENZ, hands=[["E6", *WENZ["hands"][0][1:]], *WENZ["hands"][1:]]),
    "card as number": _with(WENZ, plays=[9, *WENZ["plays"][1:]]),
    "bad play text": _with(WENZ, plays=["HO10", *WENZ["plays"][1:]]),
    "calls not a list": _with(WENZ, calls="weiter weiter wenz weiter"),
    "unknown call": _with(WENZ, calls=["weiter", "weiter", "wenz!", "weiter"]),
    "kontra as boolean": _with(MUCK_KONTRA, kontra=True),
    "kontra seat 4": _with(MUCK_KONTRA, kontra=4),
    "factor zero": _with(WENZ, factor=0),
    "factor as text": _with(WENZ, factor="2"),
    "violation without seat": _with(WENZ, violation={"after": 3}),
    "violation seat 7": _with(WENZ, violation={"seat": 7, "after": 3}),
    "violation after negative": _with(WENZ, violation={"seat": 1, "after": -1}),
    "unknown preset": _with(WENZ, rules="draisendorf"),
    "rules null": _with(WENZ, rules=None),
    "unknown option": _with(WENZ, rules={"preset": "seefest", "sechsermuck": True}),
    "doublings 5": _with(WENZ, rules={"doublings": 5}),
    "unknown game kind": _with(WENZ, rules={"games": ["muck", "bettel"]}),
    "levels out of order": _with(WENZ, rules={"levels": ["schwarz", "plain"]}),
    "levels without plain": _with(WENZ, rules={"levels": ["schneider", "schwarz"]}),
    "value triple too short": _with(WENZ, rules={"values": {"muck": [2, 3]}}),
}


@pytest.mark.parametrize("record", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_records_are_rejected(validator: Draft202012Validator, record: Any) -> None:
    assert _errors(validator, record), "the schema should reject this record"
    with pytest.raises(RecordError):
        replay(record)  # and so does the reader


def test_every_call_name_matches(validator: Draft202012Validator) -> None:
    rules = MuckenRules(games=GAME_KINDS)
    pattern_ok = Draft202012Validator(record_schema()["$defs"]["call"])
    for name in (*rules.bid_names(), "weiter", "ramsch"):
        assert pattern_ok.is_valid(name), name
        assert pattern_ok.is_valid(name.upper()), name
    for word in ("gut", "kontra", "schneider", "schneider muck", "herzsolo", ""):
        assert not pattern_ok.is_valid(word), word


RULE_VARIANTS = [
    MuckenRules.preset("seefest"),
    MuckenRules.preset("wikipedia"),
    MuckenRules.preset("seefest", doublings=4),
    MuckenRules.preset("seefest", no_game="ramsch", ramsch_stichzwang=True, durchmarsch=True,
                       ramsch_last_man=True, ramsch_double=True),
    MuckenRules.preset("seefest", no_game="muss", muss_card="GO"),
    MuckenRules.preset("seefest", pflichtmuck_tie="card_holder_loses"),
    MuckenRules.preset("wikipedia", deck="long", games=("muck", "geier", "wenz", "farbsolo"),
                       sie=False, doublings=2, cut_max_times=2),
    MuckenRules(games=("wenz", "muck"), levels=("plain", "schneider"), sie=True, sie_value=25),
]


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=lambda r: r.name)
def test_records_of_random_games_validate(
    validator: Draft202012Validator, rules: MuckenRules
) -> None:
    for seed in range(40):
        rng = random.Random(seed)
        state = play_random(MuckenState(rules, dealer=seed % 4, factor=1 + seed % 3 // 2),
                            rng)
        record = record_of(state)
        assert _errors(validator, record) == [], record
        assert summary(replay(record)) == summary(state)


NO_GAME_VARIANTS = [
    MuckenRules.preset("seefest"),
    MuckenRules.preset("seefest", pflichtmuck_tie="card_holder_loses"),
    MuckenRules.preset("seefest", no_game="ramsch", ramsch_stichzwang=True, durchmarsch=True),
    MuckenRules.preset("seefest", ramsch_last_man=True),
    MuckenRules.preset("seefest", no_game="muss"),
    MuckenRules.preset("wikipedia"),
]


@pytest.mark.parametrize("rules", NO_GAME_VARIANTS, ids=lambda r: f"{r.name}-{r.no_game}")
def test_records_of_no_game_contracts_validate(
    validator: Draft202012Validator, rules: MuckenRules
) -> None:
    """Random play that mostly says "weiter", so Pflichtmuck, Ramsch, Muss-Spiel and
    Einwerfen records are written too."""
    contracts = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = MuckenState(rules, dealer=seed % 4)
        while not state.is_terminal():
            if state.current_player < 0:
                state.apply_unchecked(state.sample_chance(rng))
                continue
            actions = list(state.legal_actions())
            if state.phase == BIDDING and rng.random() < 0.9:
                action = actions[0] if rng.random() < 0.9 or len(actions) == 1 else actions[-1]
            else:
                action = actions[rng.randrange(len(actions))]
            state.apply(action)
        contracts.add(state.contract)
        record = record_of(state)
        assert _errors(validator, record) == [], record
        assert summary(replay(record)) == summary(state)
    assert contracts & {"pflichtmuck", "ramsch", "eingeworfen"} or rules.no_game == "muss"


def test_records_with_a_violation_validate(validator: Draft202012Validator) -> None:
    rules = MuckenRules.preset("seefest")
    for seed in range(20):
        rng = random.Random(1000 + seed)
        state = MuckenState(rules, dealer=seed % 4)
        stop = rng.randrange(1, 20)
        while not state.is_terminal() and not (state.phase == PLAY and stop == 0):
            if state.phase == PLAY:
                stop -= 1
            if state.current_player < 0:
                state.apply_unchecked(state.sample_chance(rng))
            else:
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
        if state.is_terminal():
            continue
        state.record_violation(rng.randrange(4))
        record = record_of(state)
        assert "violation" in record
        assert _errors(validator, record) == [], record
        assert summary(replay(record)) == summary(state)
