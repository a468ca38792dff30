"""The unchecked fast path (games/mucken/fastplay.py) plays exactly the games of the checked API."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from stammtisch.cards import Card, cards
from stammtisch.engine.core import Say, play_random
from stammtisch.games.mucken.fastplay import FastGame, fast_random_playout, fast_tables
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState

VARIANTS = {
    "seefest": MuckenRules.preset("seefest"),
    "wikipedia": MuckenRules.preset("wikipedia"),
    "ramsch-stichzwang": MuckenRules.preset("seefest", no_game="ramsch", ramsch_stichzwang=True),
    "muss": MuckenRules.preset("seefest", no_game="muss"),
    "long": MuckenRules.preset("seefest", deck="long"),
    "four-games": MuckenRules.preset("seefest", games=("muck", "wenz", "geier", "farbsolo")),
    "hirsch": MuckenRules.preset("seefest", doublings=4),
    "no-doubling": MuckenRules.preset("seefest", doublings=0),
    "last-man-ramsch": MuckenRules.preset("seefest", no_game="ramsch", ramsch_last_man=True,
                                          durchmarsch=True),
    "no-cut": MuckenRules.preset("wikipedia", cut_min_times=0, cut_max_times=0),
    "klopfen": MuckenRules.preset("seefest", cut_min_times=0, klopfen=True,
                                  partner_overcall_new_round=True),
    "tie-card": MuckenRules.preset("seefest", pflichtmuck_tie="card_holder_loses"),
    "einwerfen-multiply": MuckenRules.preset("wikipedia", einwerfen_double="multiply"),
}


class Cautious(random.Random):
    """A random source whose ``randrange`` favours the first option ("weiter", "gut",
    the first card), so that no-game rules (Pflichtmuck, Ramsch, Einwerfen, Muss-Spiel)
    come up often.  Both paths ask it the same questions, so they still agree."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None and step == 1
        if self.random() < 0.75:
            return 0
        return super().randrange(start)


class SieDeck(random.Random):
    """Shuffles so that the first player (after Klopfen or without cutting) gets a Sie."""

    SIE = cards("EO GO HO SO EU GU")

    def shuffle(self, x: Any, random: Any = None) -> None:
        super().shuffle(x)
        sie: list[Any] = [c if isinstance(x[0], Card) else c.index for c in self.SIE]
        rest = [c for c in x if c not in sie]
        # dealt 3 + 3 from the top: positions 0-2 and 12-14 go to the first player
        x[:] = sie[:3] + rest[:9] + sie[3:] + rest[9:]


def api_game(rules: MuckenRules, dealer: int, rng: random.Random, factor: int = 1) -> MuckenState:
    state = MuckenState(rules, dealer, factor)
    play_random(state, rng, checked=True)
    return state


def replay(game: FastGame) -> MuckenState:
    """Replay the fast game's actions through the checked API."""
    state = MuckenState(game.rules, game.dealer, game.factor)
    for action in game.actions():
        state.apply(action)
    assert state.is_terminal()
    return state


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_same_game_as_checked_api_for_same_seed(name: str) -> None:
    rules = VARIANTS[name]
    for seed in range(150):
        dealer, factor = seed % 4, 1 + seed % 3
        state = api_game(rules, dealer, random.Random(seed), factor)
        fast = fast_random_playout(rules, dealer, random.Random(seed), factor)
        assert fast.result() == state.result(), (name, seed)
        assert fast.actions() == [a for _, a in state.history], (name, seed)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_replaying_the_fast_game_through_checked_api(name: str) -> None:
    rules = VARIANTS[name]
    rng = Cautious(99)
    contracts: Counter[str] = Counter()
    for i in range(120):
        fast = fast_random_playout(rules, i % 4, rng)
        state = replay(fast)
        contracts[fast.contract] += 1
        assert list(state.tricks.winners) == fast.trick_winners
        assert state.pair_augen() == fast.augen
        assert state.outcome == fast.outcome
        assert state.result() == fast.result()
        if fast.plays:
            assert sum(fast.augen) == 120
            assert fast.card_plays == rules.deck_size == len(set(fast.plays))
    # the cautious source reaches this variant's no-game rule
    no_game = {"pflichtmuck": "pflichtmuck", "ramsch": "ramsch", "einwerfen": "eingeworfen"}
    if rules.no_game in no_game:
        assert contracts[no_game[rules.no_game]] > 0, contracts
    if rules.no_game == "muss":
        assert any(c for c in contracts if c not in ("pflichtmuck", "ramsch")), contracts


def test_muss_spiel_is_forced_and_replays() -> None:
    rules = VARIANTS["muss"]
    rng = Cautious(5)
    forced = 0
    for i in range(200):
        fast = fast_random_playout(rules, i % 4, rng)
        state = replay(fast)
        assert state.result() == fast.result()
        if fast.forced:
            forced += 1
            holder = fast.holder
            assert holder is not None
            assert Card.parse(rules.muss_card) in state.dealt[holder]
    assert forced > 0


def test_cautious_cutting_and_klopfen_replay() -> None:
    rules = VARIANTS["klopfen"]
    endings: Counter[str] = Counter()
    for seed in range(200):
        fast = fast_random_playout(rules, seed % 4, random.Random(seed))
        endings[fast.cut_end or "cut"] += 1
        state = replay(fast)
        assert state.klopfen == (fast.cut_end == "klopfen")
        assert state.cuts == fast.cuts
    assert set(endings) >= {"geben", "klopfen"}


@pytest.mark.parametrize("dealer", range(4))
def test_sie_ends_the_game_at_once(dealer: int) -> None:
    rules = VARIANTS["no-cut"]  # wikipedia: sie=True; no Abheben, so the rigged order stays
    fast = fast_random_playout(rules, dealer, SieDeck(dealer))
    state = api_game(rules, dealer, SieDeck(dealer))
    assert fast.contract == state.contract == "sie"
    assert fast.holder == (dealer + 1) % 4
    assert fast.card_plays == 0
    assert fast.result() == state.result()
    assert fast.outcome.winner == (dealer + 1) % 2
    assert replay(fast).result() == fast.result()


def test_einwerfen_records_only_the_calls() -> None:
    rules = VARIANTS["wikipedia"]
    rng = Cautious(3)
    for i in range(300):
        fast = fast_random_playout(rules, i % 4, rng)
        if fast.contract == "eingeworfen":
            assert fast.says == ["weiter"] * 4
            assert fast.plays == [] and fast.outcome.winner is None
            assert fast.actions()[-1] == Say("weiter")
            break
    else:  # pragma: no cover - the cautious source passes 4 times in a row often enough
        pytest.fail("no Einwerfen in 300 games")


def test_tables_are_cached_per_rules_object() -> None:
    rules = MuckenRules.preset("seefest")
    assert fast_tables(rules) is fast_tables(rules)
    other = MuckenRules.preset("seefest", deck="long")
    assert fast_tables(other).deck != fast_tables(rules).deck
    assert len(fast_tables(other).deck) == 32


def test_works_with_a_generic_random_source() -> None:
    """A source that is not a ``random.Random`` goes through ``randrange``."""

    class Source:
        def __init__(self, seed: int) -> None:
            self._r = random.Random(seed)

        def random(self) -> float:
            return self._r.random()

        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
            return self._r.randrange(start)

        def shuffle(self, x: list[Any]) -> None:
            self._r.shuffle(x)

    rules = VARIANTS["seefest"]
    fast = fast_random_playout(rules, 2, Source(8))
    assert fast.result() == fast_random_playout(rules, 2, random.Random(8)).result()
    assert replay(fast).result() == fast.result()
