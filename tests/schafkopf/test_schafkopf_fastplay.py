"""Schafkopf's unchecked fast path plays exactly the hands of the checked public API,
and ``bench playout --game schafkopf`` measures both."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from stammtisch.cards import Card
from stammtisch.cli.bench import api_playout, fast_playout
from stammtisch.cli.main import app
from stammtisch.engine.core import play_random
from stammtisch.games.schafkopf.fastplay import fast_random_playout
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState

VARIANTS = {
    "standard": SchafkopfRules.preset("standard"),
    "anleitung": SchafkopfRules.preset("anleitung"),
    "muss": SchafkopfRules.preset("standard", all_pass="muss",
                                  games=["sauspiel", "hochzeit", "bettel"]),
    "ramsch": SchafkopfRules.preset("anleitung", all_pass="ramsch", davonlaufen=False,
                                    first_lead="vorhand"),
}


class Cautious(random.Random):
    """Favours the first option ("weiter", "gut", the first card), so that Ramsch,
    Muss-Spiel and redeals come up; both paths ask it the same questions."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None and step == 1
        if self.random() < 0.7:
            return 0
        return super().randrange(start)


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("rng_class", [random.Random, Cautious])
def test_fast_path_plays_the_api_hands(name: str, rng_class: type[random.Random]) -> None:
    rules = VARIANTS[name]
    contracts = set()
    for seed in range(150):
        api = SchafkopfState(rules, seed % 4)
        play_random(api, rng_class(seed))
        fast = fast_random_playout(rules, seed % 4, rng_class(seed))
        assert fast.plays == [a.index for _, a in api.history if isinstance(a, Card)]
        contracts.add(api.contract)
        if fast.plays:
            assert fast.trick_winners == api.tricks.winners
            assert fast.augen == api.tricks.augen
            assert fast.state.contract == api.contract
    assert len(contracts) > 2


def test_bench_helpers_agree() -> None:
    rules = SchafkopfRules.preset("anleitung")
    api = [api_playout(rules, d % 4, random.Random(d), "schafkopf") for d in range(40)]
    fast = [fast_playout(rules, d % 4, random.Random(d), "schafkopf") for d in range(40)]
    assert api == fast and all(n in (0, 32) for n in api)


def test_bench_playout_json() -> None:
    result = CliRunner().invoke(app, ["bench", "playout", "--game", "schafkopf", "--seconds",
                                      "0.2", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["rules"] == "standard"
    assert out["api_card_plays_per_s"] > 0 and out["fast_card_plays_per_s"] > 0
    assert out["api_card_plays"] % 32 == 0 and out["fast_card_plays"] % 32 == 0


def test_rules_name() -> None:
    assert SchafkopfRules.preset("anleitung").name == "anleitung"
    assert SchafkopfRules.preset("standard", legen=True).name == "custom"
