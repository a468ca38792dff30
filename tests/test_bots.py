"""The heuristic bot: always legal, decides from its own view only, plays sensibly, beats random."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable

import pytest

from stammtisch.bots import make_bot
from stammtisch.bots.base import Bot
from stammtisch.cards import Card
from stammtisch.engine.core import CHANCE, TERMINAL, Cut, Say
from stammtisch.games import registry
from stammtisch.games.mucken.bots import HeuristicBot
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState

GameFactory = Callable[..., MuckenState]  # the ``game`` fixture of conftest.py

RULES = {
    "seefest": MuckenRules.preset("seefest"),
    "wikipedia": MuckenRules.preset("wikipedia"),
    "ramsch": MuckenRules.preset("seefest", no_game="ramsch", ramsch_stichzwang=True),
    "muss": MuckenRules.preset("seefest", no_game="muss"),
    "long": MuckenRules.preset("seefest", deck="long"),
    "four-games": MuckenRules.preset("seefest", games=("muck", "wenz", "geier", "farbsolo")),
    "hirsch": MuckenRules.preset("seefest", doublings=4),
    "last-man": MuckenRules.preset("seefest", no_game="ramsch", ramsch_last_man=True),
}


def play(rules: MuckenRules, bots: list[Bot], seed: int, dealer: int) -> MuckenState:
    """One game; every bot action is checked to be among the legal actions."""
    state = MuckenState(rules, dealer)
    chance = random.Random(seed)
    rng = random.Random(seed + 1)
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(chance))
            continue
        legal = list(state.legal_actions())
        action = bots[state.current_player].choose(state, rng)
        assert action in legal, (action, legal)
        state.apply(action)
    return state


def test_registered_by_name() -> None:
    assert "heuristic" in registry.bot_names("mucken")
    bot = registry.make_bot("mucken", "heuristic")
    assert isinstance(bot, HeuristicBot)
    assert bot.name == "heuristic"


@pytest.mark.parametrize("name", sorted(RULES))
def test_always_legal(name: str) -> None:
    rules = RULES[name]
    h, r = HeuristicBot(), make_bot("random")
    contracts = set()
    for seed in range(40):
        bots: list[Bot] = [h, h, h, h] if seed % 2 else [h, r, h, r]
        state = play(rules, bots, seed, seed % 4)
        assert state.outcome is not None
        contracts.add(state.contract)
    assert contracts


class Passer(HeuristicBot):
    """Plays like the heuristic bot but never calls a game (so no-game rules come up)."""

    def choose(self, state, rng):  # type: ignore[no-untyped-def]
        if state.phase == "bidding":
            return state.legal_actions()[0]  # weiter
        return super().choose(state, rng)


@pytest.mark.parametrize("name", ["ramsch", "last-man", "muss", "seefest"])
def test_no_game_rules_played_legally(name: str) -> None:
    rules = RULES[name]
    h, p = HeuristicBot(), Passer()
    contracts = set()
    for seed in range(30):
        state = play(rules, [p, h, p, h] if seed % 2 else [p, p, p, p], seed, seed % 4)
        contracts.add(state.contract)
        assert state.forced <= (name == "muss")
        if seed % 2 == 0 and name == "muss":
            assert state.forced  # four times weiter: the holder of the EO must call
    expected = {"ramsch": "ramsch", "last-man": "ramsch", "seefest": "pflichtmuck"}
    if name in expected:
        assert expected[name] in contracts
    else:
        assert not contracts & {"pflichtmuck", "ramsch"}


def test_decides_only_from_its_own_view() -> None:
    """Exchanging cards between two other hands changes nothing the bot may see,
    so its decision stays the same."""
    h = HeuristicBot()
    checked = 0
    for seed in range(30):
        state = MuckenState(RULES["seefest"], seed % 4)
        chance, rng = random.Random(seed), random.Random(seed)
        while state.current_player != TERMINAL:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(chance))
                continue
            seat = state.current_player
            if state.phase in ("bidding", "doubling", "play"):
                others = [s for s in range(4) if s != seat and state.hands[s]]
                if len(others) >= 2:
                    twin = state.clone()
                    a, b = others[0], others[1]
                    twin.hands[a][0], twin.hands[b][0] = twin.hands[b][0], twin.hands[a][0]
                    assert twin.view(seat) == state.view(seat)
                    mine = h.choose(state, random.Random(seed))
                    assert h.choose(twin, random.Random(seed)) == mine
                    checked += 1
            state.apply(h.choose(state, rng))
    assert checked > 500


def test_cuts_with_one_random_draw_like_the_random_bot() -> None:
    state = MuckenState(RULES["seefest"], 0)
    state.apply(state.sample_chance(random.Random(1)))
    assert state.phase == "cut"
    legal = state.legal_actions()
    for seed in range(20):
        action = HeuristicBot().choose(state, random.Random(seed))
        assert isinstance(action, Cut | Say) and action in legal
        assert action == make_bot("random").choose(state, random.Random(seed))


# -- bidding ----------------------------------------------------------------------------


def test_bids_from_hand_strength(game: GameFactory) -> None:
    h = HeuristicBot()
    # dealer 3: seat 0 calls first
    good_muck = game(("EO HO GU HA EA G9", "E10 EK E9 GA G10 GK", "GO SA S10 SK S9 HK",
                      "SO EU HU SU H10 H9"))
    assert h.choose(good_muck, random.Random(0)) == Say("muck")
    good_wenz = game(("EU GU EA E10 GA S9", "EO GO HO SO HA H10", "HU SU EK E9 G10 GK",
                      "G9 SA S10 SK HK H9"))
    assert h.choose(good_wenz, random.Random(0)) == Say("wenz")
    very_strong = game(("EO GO HO EU HA EA", "E10 EK E9 GA G10 GK", "G9 SA S10 SK S9 HK",
                        "SO GU HU SU H10 H9"))
    assert h.choose(very_strong, random.Random(0)) == Say("schneidermuck")
    weak = game(("E9 G9 S9 EK GK SK", "EO GO HO EU HA EA", "E10 GA G10 SA S10 HK",
                 "SO GU HU SU H10 H9"))
    assert h.choose(weak, random.Random(0)) == Say("weiter")


def test_schwarz_only_with_a_hand_that_takes_every_trick(game: GameFactory) -> None:
    h = HeuristicBot()
    hands = ("EO GO HO SO EU GU", "HA H10 HK H9 HU SU", "EA E10 EK E9 GA G10", "GK G9 SA S10 SK S9")
    state = game(hands)
    assert h.choose(state, random.Random(0)) == Say("schwarzmuck")


def test_leaves_the_bid_to_the_partner(game: GameFactory) -> None:
    h = HeuristicBot()
    hands = ("EO GO HO EU HA EA", "E9 G9 S9 EK GK SK", "SO GU HU SU H10 H9",
             "E10 GA G10 SA S10 HK")
    state = game(hands, calls="muck weiter")
    assert state.current_player == 2
    assert h.choose(state, random.Random(0)) == Say("weiter")


# -- Kontra ----------------------------------------------------------------------------


def test_kontra_only_with_strong_defence(game: GameFactory) -> None:
    h = HeuristicBot()
    # seat 0 calls a Muck; seat 1 holds the top trumps, seat 3 rubbish
    hands = ("HA H10 HK EA GA SA", "EO GO HO SO EU GU", "E10 EK E9 G10 GK G9",
             "HU SU H9 S10 SK S9")
    state = game(hands, calls="muck weiter weiter weiter")
    assert state.phase == "doubling" and state.current_player == 1
    assert h.choose(state, random.Random(0)) == Say("kontra")
    state = game(hands, calls="muck weiter weiter weiter", doubling="gut")
    assert state.current_player == 3
    assert h.choose(state, random.Random(0)) == Say("gut")


# -- play ------------------------------------------------------------------------------

MUCK = {"calls": "muck weiter weiter weiter", "doubling": "gut gut"}


def test_declarer_draws_trumps_with_the_top_trump(game: GameFactory) -> None:
    state = game(**MUCK)  # conftest HANDS: seat 0 holds the four Ober
    card = HeuristicBot().choose(state, random.Random(0))
    assert isinstance(card, Card) and card.rank.name == "OBER"


def test_schmiert_onto_the_partners_sure_trick(game: GameFactory) -> None:
    state = game(**MUCK, plays="EO H9")  # seat 2, partner of seat 0 who led EO
    card = HeuristicBot().choose(state, random.Random(0))
    assert str(card) in ("EA", "E10", "GA", "G10")


def test_discards_a_low_card_when_the_trick_is_lost(game: GameFactory) -> None:
    state = game(**MUCK, plays="EO H9 EA")  # seat 3 cannot follow or win
    card = HeuristicBot().choose(state, random.Random(0))
    assert isinstance(card, Card) and card.augen == 0


def test_wins_cheaply_as_the_last_player(game: GameFactory) -> None:
    hands = ("EA E9 G9 S9 GK SK", "E10 GA G10 SA S10 HK", "EK HA H10 H9 SU EU",
             "EO GO HO SO GU HU")
    # seat 0 leads EA, seat 1 follows E10, seat 2 follows EK; seat 3 has no Eichel: any trump wins
    state = game(hands, calls="weiter weiter weiter weiter", plays="EA E10 EK")
    assert state.contract == "pflichtmuck" and state.current_player == 3
    card = HeuristicBot().choose(state, random.Random(0))
    assert str(card) == "HU"  # the lowest trump it holds


def test_leads_a_side_ace(game: GameFactory) -> None:
    hands = ("EA E9 GA G9 SK S9", "E10 G10 SA S10 HK EK", "GK H9 HA H10 SU HU",
             "EO GO HO SO GU EU")
    state = game(hands, calls="weiter weiter weiter muck", doubling="gut gut")
    assert state.declarer == 3 and state.current_player == 0
    card = HeuristicBot().choose(state, random.Random(0))
    assert str(card) in ("EA", "GA")


def test_ramsch_avoids_taking_augen(game: GameFactory) -> None:
    rules = "seefest"
    kw = {"no_game": "ramsch", "calls": "weiter weiter weiter weiter"}
    # seat 1 could take seat 0's HK with HA but ducks with H9
    state = game(rules=rules, plays="HK", **kw)
    assert state.contract == "ramsch"
    assert str(HeuristicBot().choose(state, random.Random(0))) == "H9"
    # seat 2 has no trump: nothing of value onto its partner's trick ...
    state = game(rules=rules, plays="HK H9", **kw)
    assert str(HeuristicBot().choose(state, random.Random(0))) == "E9"
    # ... but an ace onto the opponents' trick
    state = game(rules=rules, plays="HK HA", **kw)
    assert str(HeuristicBot().choose(state, random.Random(0))) in ("EA", "GA")


# -- strength ----------------------------------------------------------------------------


def duplicate_margin(rules: MuckenRules, a: Bot, b: Bot, deals: int, seed: int) -> list[float]:
    """Per deal: points per game of ``a``'s pair over ``b``'s, each deal played twice with
    the seats swapped (same shuffle, same cut)."""
    master = random.Random(seed)
    out = []
    for i in range(deals):
        chance_seed, bot_seed = master.getrandbits(32), master.getrandbits(32)
        margin = 0
        for swap in (0, 1):
            bots = [a, b, a, b] if not swap else [b, a, b, a]
            state = MuckenState(rules, i % 4)
            state.apply(state.sample_chance(random.Random(chance_seed)))
            rng = random.Random(bot_seed)
            while state.current_player != TERMINAL:
                state.apply(bots[state.current_player].choose(state, rng))
            margin += state.returns()[swap]
        out.append(margin / 2)
    return out


def test_beats_random_by_a_wide_margin() -> None:
    margins = duplicate_margin(RULES["seefest"], HeuristicBot(), make_bot("random"), 150, 7)
    mean = statistics.mean(margins)
    half = 1.96 * statistics.stdev(margins) / len(margins) ** 0.5
    assert mean - half > 5.0, (mean, half)


def test_plays_better_than_random_with_the_same_bidding() -> None:
    """Card play alone: the same bidding, heuristic vs. random card choice."""

    class RandomPlay(HeuristicBot):
        def choose(self, state, rng):  # type: ignore[no-untyped-def]
            if state.phase == "play":
                actions = state.legal_actions()
                return actions[rng.randrange(len(actions))]
            return super().choose(state, rng)

    margins = duplicate_margin(RULES["seefest"], HeuristicBot(), RandomPlay(), 150, 8)
    assert statistics.mean(margins) > 0.5


def test_hand_values_rank_hands() -> None:
    from stammtisch.cards import SHORT_DECK, cards
    from stammtisch.games.mucken.bots.heuristic import _hand_value

    order = trick_order("muck", "short")
    top = _hand_value(cards("EO GO HO SO EU GU"), order, SHORT_DECK)
    good = _hand_value(cards("EO HO GU HA EA G9"), order, SHORT_DECK)
    poor = _hand_value(cards("E9 G9 S9 EK GK SK"), order, SHORT_DECK)
    assert top.solid and not good.solid
    assert top.value > good.value > poor.value
    assert (top.trumps, good.trumps, poor.trumps) == (6, 4, 0)
