"""The PIMC bot: legal, deterministic, decides from its own view only, calls and doubles
sensibly, plays by the double-dummy values of sampled worlds."""

from __future__ import annotations

import random

import pytest

from stammtisch.cards import Card, cards
from stammtisch.engine.core import CHANCE, TERMINAL, Action, Say
from stammtisch.games import registry
from stammtisch.games.mucken.bots import PimcBot
from stammtisch.games.mucken.bots.heuristic import HeuristicBot
from stammtisch.games.mucken.bots.pimc import PIMC_SETTINGS
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState, game_from_hands

from .conftest import GameFactory

#: few worlds: the tests check behaviour, not strength
FAST = {"worlds": 4, "first_trick_worlds": 3, "bid_worlds": 4, "ramsch_worlds": 2}

RULES = {
    "seefest": MuckenRules.preset("seefest"),
    "wikipedia": MuckenRules.preset("wikipedia"),
    "ramsch": MuckenRules.preset("seefest", no_game="ramsch", ramsch_stichzwang=True),
    "muss": MuckenRules.preset("seefest", no_game="muss"),
    "hirsch": MuckenRules.preset("seefest", doublings=4),
}


def _bot(**kw: object) -> PimcBot:
    return PimcBot(**{**FAST, **kw})  # type: ignore[arg-type]


class _Passer(HeuristicBot):
    """Never calls a game, so the no-game rules come up."""

    def choose(self, state, rng):  # type: ignore[no-untyped-def]
        if state.phase == "bidding":
            return state.legal_actions()[0]
        return super().choose(state, rng)


def _play(rules: MuckenRules, bots: list, seed: int) -> tuple[MuckenState, list[Action]]:  # type: ignore[type-arg]
    state = MuckenState(rules, seed % 4)
    chance = random.Random(seed)
    rng = random.Random(seed + 1)
    actions = []
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(chance))
            continue
        legal = list(state.legal_actions())
        action = bots[state.current_player].choose(state, rng)
        assert action in legal, (action, legal)
        state.apply(action)
        actions.append(action)
    return state, actions


def test_registered_strengths() -> None:
    for name in ("pimc", "pimc-fast", "pimc-strong"):
        assert name in registry.bot_names("mucken")
        bot = registry.make_bot("mucken", name)
        assert isinstance(bot, PimcBot) and bot.name == name
    assert PIMC_SETTINGS["pimc-fast"].worlds < PIMC_SETTINGS["pimc"].worlds
    assert PIMC_SETTINGS["pimc"].worlds < PIMC_SETTINGS["pimc-strong"].worlds


@pytest.mark.parametrize("name", sorted(RULES))
def test_always_legal(name: str) -> None:
    rules = RULES[name]
    p, h = _bot(), HeuristicBot()
    for seed in range(2):
        state, _ = _play(rules, [p, h, p, h] if seed else [h, p, h, p], seed)
        assert state.outcome is not None


class _PassingPimc(PimcBot):
    """The PIMC bot that never calls in the first place (the Muss-Spiel it must call)."""

    def choose(self, state, rng):  # type: ignore[no-untyped-def]
        if state.phase == "bidding":
            return state.legal_actions()[0]
        return super().choose(state, rng)


def test_always_legal_in_no_game_rules() -> None:
    p = _PassingPimc(**FAST)  # type: ignore[arg-type]
    state, _ = _play(RULES["ramsch"], [p, _Passer(), p, _Passer()], 3)
    assert state.contract == "ramsch"
    state, _ = _play(RULES["muss"], [p, p, p, p], 4)  # the holder of the EO must call
    assert state.forced and state.declarer is not None


def test_deterministic_for_a_given_rng() -> None:
    rules = RULES["seefest"]
    bots = [_bot(), HeuristicBot(), _bot(), HeuristicBot()]
    first = _play(rules, bots, 7)[1]
    again = _play(rules, bots, 7)[1]
    assert first == again


def _twin_with_other_hands_swapped(state: MuckenState, seat: int) -> MuckenState | None:
    """The same position with cards exchanged between the other hands (what ``seat``
    cannot see): whole hands of the same size, else one card each."""
    others = [s for s in range(4) if s != seat and state.hands[s]]
    if len(others) < 2:
        return None
    twin = state.clone()
    a, b = others[0], others[-1]
    if len(twin.hands[a]) == len(twin.hands[b]):
        twin.hands[a], twin.hands[b] = twin.hands[b], twin.hands[a]
    else:
        twin.hands[a][0], twin.hands[b][0] = twin.hands[b][0], twin.hands[a][0]
    twin._legal = None
    assert twin.view(seat) == state.view(seat)
    return twin


def test_decides_only_from_its_own_view() -> None:
    p = _bot()
    checked = 0
    for seed in range(2):
        state = MuckenState(RULES["seefest"], seed % 4)
        chance, rng = random.Random(seed), random.Random(seed)
        while state.current_player != TERMINAL:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(chance))
                continue
            seat = state.current_player
            if state.phase in ("bidding", "doubling", "play") and len(state.legal_actions()) > 1:
                twin = _twin_with_other_hands_swapped(state, seat)
                if twin is not None:
                    mine = p.choose(state, random.Random(seed * 100 + checked))
                    assert p.choose(twin, random.Random(seed * 100 + checked)) == mine
                    if state.phase == "play":
                        a = p.card_estimates(state, seat, random.Random(1))
                        b = p.card_estimates(twin, seat, random.Random(1))
                        assert [(e.card, e.augen) for e in a] == [(e.card, e.augen) for e in b]
                    checked += 1
            state.apply(p.choose(state, rng))
    assert checked >= 12


# -- bidding and Kontra -------------------------------------------------------------------
def test_calls_a_game_with_a_super_strong_muck_hand(game: GameFactory) -> None:
    p = _bot(bid_worlds=8)
    state = game(("EO GO HO SO EU HA", "E10 EK E9 GA G10 GK", "G9 SA S10 SK S9 HK",
                  "EA GU HU SU H10 H9"))
    assert state.current_player == 0
    action = p.choose(state, random.Random(0))
    assert isinstance(action, Say) and action.word.endswith("muck"), action


def test_says_weiter_with_a_hopeless_hand(game: GameFactory) -> None:
    p = _bot(bid_worlds=8)
    state = game(("E9 G9 S9 EK GK SK", "EO GO HO EU HA EA", "E10 GA G10 SA S10 HK",
                  "SO GU HU SU H10 H9"))
    assert p.choose(state, random.Random(0)) == Say("weiter")


def test_kontra_with_the_top_trumps_against_a_muck(game: GameFactory) -> None:
    p = _bot(bid_worlds=8)
    hands = ("HA H10 HK EA GA SA", "EO GO HO SO EU GU", "E10 EK E9 G10 GK G9",
             "HU SU H9 S10 SK S9")
    state = game(hands, calls="muck weiter weiter weiter")
    assert state.phase == "doubling" and state.current_player == 1
    assert p.choose(state, random.Random(0)) == Say("kontra")
    # ... and no Kontra with rubbish
    state = game(hands, calls="muck weiter weiter weiter", doubling="gut")
    assert state.current_player == 3
    assert p.choose(state, random.Random(0)) == Say("gut")


def test_muss_spiel_calls_a_game(game: GameFactory) -> None:
    state = game(calls="weiter weiter weiter weiter", rules=RULES["muss"])
    assert state.phase == "muss"
    action = _bot().choose(state, random.Random(0))
    assert isinstance(action, Say) and action in state.legal_actions()
    assert action.word != "weiter"


# -- play --------------------------------------------------------------------------------
MUCK = {"calls": "muck weiter weiter weiter", "doubling": "gut gut"}


def test_schmiert_onto_the_partners_sure_trick(game: GameFactory) -> None:
    state = game(**MUCK, plays="EO H9")  # seat 2, partner of seat 0 who led the top trump
    card = _bot().choose(state, random.Random(0))
    assert str(card) in ("EA", "E10", "GA", "G10")


def test_card_estimates_cover_the_legal_cards(game: GameFactory) -> None:
    state = game(**MUCK, plays="EO")
    estimates = _bot().card_estimates(state, 1, random.Random(0))
    assert [e.card for e in estimates] == list(state.legal_actions())
    assert all(0 <= e.augen <= 120 for e in estimates)


def test_ramsch_ducks_instead_of_taking_augen() -> None:
    rules = MuckenRules.preset("seefest", no_game="ramsch")
    # seat 0 leads the Schellen-König; seat 1 can duck with S9 (seat 2's S10 takes the
    # trick) or take 25 Augen with SA; seat 3 has no Schellen and need not trump
    hands = [cards(h) for h in ("SK EO GO HO SO EU", "SA S9 E9 G9 H9 GU",
                                "S10 EA E10 EK GA G10", "HA H10 HK HU SU GK")]
    state = game_from_hands(hands, rules, dealer=3)
    for word in ("weiter", "weiter", "weiter", "weiter"):
        state.apply(Say(word))
    assert state.contract == "ramsch"
    state.apply(Card.parse("SK"))
    assert _bot(ramsch_worlds=8).choose(state, random.Random(0)) == Card.parse("S9")


# -- the generic loop (stammtisch.bots.pimc) ----------------------------------------------
class _Budget:
    """Action i is worth world * i; a world of -1 is left out; stops after ``stop``
    judged worlds."""

    def __init__(self, stop: int) -> None:
        self.stop, self.judged = stop, 0

    def evaluate(self, world: int) -> list[tuple[float, float]] | None:
        if world < 0:
            return None
        self.judged += 1
        return [(float(world * i), float(world)) for i in range(3)]

    def exhausted(self, weight: float) -> bool:
        return self.judged >= self.stop


def test_loop_averages_by_weight_and_leaves_worlds_out() -> None:
    from stammtisch.bots import pimc

    got = pimc.average("abc", [(1, 3), (-1, 5), (4, 1)], _Budget(10))
    assert got is not None
    assert [(e.action, e.utility, e.value) for e in got] == [
        ("a", 0.0, 7 / 4), ("b", 7 / 4, 7 / 4), ("c", 14 / 4, 7 / 4)]
    assert pimc.average("abc", [(-1, 1)], _Budget(10)) is None


def test_loop_draws_no_world_past_its_budget() -> None:
    from stammtisch.bots import pimc

    drawn: list[int] = []

    def sampler(rng: random.Random) -> int:
        drawn.append(rng.randrange(5))
        return drawn[-1]

    rng = random.Random(3)
    got = pimc.average("abc", pimc.sample(sampler, rng, 10), _Budget(2))
    assert got is not None and len(drawn) == 2  # lazily drawn: the third is never asked
    merged = pimc.sample(sampler, random.Random(3), 10, key=lambda w: w)
    assert sum(n for _, n in merged) == 10 and len({w for w, _ in merged}) == len(merged)


def test_best_breaks_ties_by_value_then_preference_then_order() -> None:
    from stammtisch.bots.pimc import Estimate, best

    es = [Estimate("a", 1.0, 5.0), Estimate("b", 1.0 + 1e-12, 4.0), Estimate("c", 1.0, 6.0)]
    assert best(es) == "b"
    assert best(es, tolerance=1e-9) == "a"
    assert best(es, tolerance=1e-9, by_value=True) == "c"
    assert best(es, tolerance=1e-9, prefer=lambda: "c") == "c"
    assert best(es, tolerance=1e-9, prefer=lambda: "z") == "a"
    asked: list[str] = []
    assert best(es, prefer=lambda: asked.append("x") or "a") == "b" and not asked
