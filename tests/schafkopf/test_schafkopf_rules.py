"""SchafkopfRules: the presets exactly as the contract's table; every option validated."""

from __future__ import annotations

import pytest

from stammtisch.errors import RulesError
from stammtisch.games.schafkopf import SchafkopfRules
from stammtisch.games.schafkopf.rules import GAME_OPTIONS

TARIFF = {"rufspiel": 10, "solo": 50, "bettel": 50, "schneider": 10, "schwarz": 10,
          "laufend": 10, "ramsch": 10}


def test_standard_preset_is_the_table() -> None:
    assert SchafkopfRules.from_json("standard").to_json() == {
        "preset": "standard", "first_lead": "vorhand", "all_pass": "redeal",
        "games": ["sauspiel", "wenz", "solo", "tout", "sie"], "legen": False,
        "stoss_words": ["kontra", "re"], "tariff": TARIFF, "davonlaufen": True,
        "ramsch_jungfrau": False, "ramsch_durchmarsch": True,
    }


def test_anleitung_preset_is_the_table() -> None:
    assert SchafkopfRules.from_json({"preset": "anleitung"}).to_json() == {
        "preset": "anleitung", "first_lead": "declarer", "all_pass": "ramsch",
        "games": list(GAME_OPTIONS), "legen": True,
        "stoss_words": ["kontra", "sup", "re-sup", "hirsch", "bock"], "tariff": TARIFF,
        "davonlaufen": True, "ramsch_jungfrau": False, "ramsch_durchmarsch": True,
    }
    assert len(GAME_OPTIONS) == 9


def test_partial_tariff_is_merged_into_the_presets() -> None:
    r = SchafkopfRules.from_json({"preset": "anleitung", "tariff": {"rufspiel": 20}})
    assert r.tariff_of("rufspiel") == 20
    assert r.tariff_of("solo") == 50 and r.tariff_of("ramsch") == 10


def test_round_trip_and_record_form() -> None:
    r = SchafkopfRules.from_json({"preset": "standard", "games": ["wenz", "sauspiel"],
                                  "legen": True})
    assert r.games == ("sauspiel", "wenz")
    assert SchafkopfRules.from_json(r.to_json()) == r
    assert r.to_record() == r.to_json()
    assert SchafkopfRules.preset("anleitung").to_record() == "anleitung"


@pytest.mark.parametrize("data, needle", [
    ({"preset": "standard", "foo": 1}, "unknown"),
    ({"legen": True}, "preset"),
    ({"preset": "bavaria"}, "preset"),
    ("bavaria", "preset"),
    (3, "preset name or an object"),
    ({"preset": "standard", "games": ["wenz", "wenz"]}, "twice"),
    ({"preset": "standard", "games": ["ramsch"]}, "not a game"),
    ({"preset": "standard", "games": "wenz"}, "list"),
    ({"preset": "standard", "legen": 1}, "true or false"),
    ({"preset": "standard", "davonlaufen": "true"}, "true or false"),
    ({"preset": "standard", "ramsch_jungfrau": None}, "true or false"),
    ({"preset": "standard", "first_lead": "dealer"}, "vorhand"),
    ({"preset": "standard", "all_pass": "einwerfen"}, "redeal"),
    ({"preset": "standard", "tariff": {"solo": "50"}}, "whole number"),
    ({"preset": "standard", "tariff": {"solo": True}}, "whole number"),
    ({"preset": "standard", "tariff": {"solo": -5}}, "whole number"),
    ({"preset": "standard", "tariff": {"sie": 5}}, "unknown entry"),
    ({"preset": "standard", "tariff": [1, 2]}, "object"),
    ({"preset": "standard", "stoss_words": ["kontra", "kontra"]}, "twice"),
    ({"preset": "standard", "stoss_words": ["Kontra"]}, "lower-case"),
    ({"preset": "standard", "stoss_words": ["gut"]}, "something else"),
    ({"preset": "standard", "stoss_words": [1]}, "lower-case"),
    ({"preset": "standard", "stoss_words": "kontra"}, "list"),
])
def test_invalid_rules_are_refused(data: object, needle: str) -> None:
    with pytest.raises(RulesError, match=needle):
        SchafkopfRules.from_json(data)


def test_rules_errors_are_value_errors() -> None:
    assert issubclass(RulesError, ValueError)


def test_rules_are_frozen() -> None:
    r = SchafkopfRules.preset("standard")
    with pytest.raises(AttributeError):
        r.legen = True  # type: ignore[misc]
