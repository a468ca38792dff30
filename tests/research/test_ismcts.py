"""OpenSpiel's IS-MCTS as a bot (stammtisch.games.mucken.bots.ismcts)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from stammtisch.bots.base import BOTS
from stammtisch.engine.core import CHANCE, TERMINAL, Cut, Deal, Say
from stammtisch.games import registry
from stammtisch.games.mucken.bots import ismcts as ib
from stammtisch.games.mucken.bots.ismcts import IsmctsBot, to_openspiel
from stammtisch.games.mucken.bots.sampling import deal_consistent
from stammtisch.games.mucken.research.encoding import played_by_seat
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState
from stammtisch.judging import judge, run_arena

from .helpers import VARIANTS, random_states

SEEFEST = MuckenRules.preset("seefest")


def _tiny(**overrides: Any) -> IsmctsBot:
    """A deterministic bot: a fixed number of simulations, no clock."""
    options: dict[str, Any] = {"time_budget": None, "max_simulations": 12}
    options.update(overrides)
    return IsmctsBot(**options)


def _truthful(state: MuckenState) -> Any:
    """The python_mucken state with the real deal (every seat's true cards)."""
    game = ib.openspiel_game_for(state)
    encoding = game.encoding
    played = played_by_seat(state)
    order = [-1] * encoding.num_cards
    for s in range(4):
        cards = [*played[s], *state.hands[s]]
        for k, c in zip(encoding.deal.positions(state.dealer, s), cards, strict=True):
            order[k] = encoding.codec.card_id(c)
    os_state = game.new_initial_state()
    for a in order:
        os_state.apply_action(a)
    for _, action in ib.public_actions(state):
        os_state.apply_action(encoding.codec.encode(action))
    return os_state


def _decision_states(rules: MuckenRules, games: int, seed: int) -> list[MuckenState]:
    return [s for s in random_states(rules, games, seed)
            if s.current_player >= 0 and s.phase != "cut"]


def test_registered() -> None:
    assert {"ismcts", "ismcts-200ms", "ismcts-quiet"} <= set(registry.bot_names("mucken"))
    bot = registry.make_bot("mucken", "ismcts")
    assert isinstance(bot, IsmctsBot) and bot.name == "ismcts"
    assert bot.settings.time_budget == ib.DEFAULT_TIME_BUDGET
    fast = registry.make_bot("mucken", "ismcts-200ms")
    assert isinstance(fast, IsmctsBot) and fast.settings.time_budget == 0.2


@pytest.mark.parametrize("rules", VARIANTS[:4], ids=["seefest", "wikipedia", "muss", "ramsch"])
def test_legal_actions_through_whole_games(rules: MuckenRules) -> None:
    bot = _tiny(max_simulations=6)
    rng = random.Random(5)
    for dealer in (0, 3):
        state = MuckenState(rules, dealer)
        while state.current_player != TERMINAL:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            action = bot.choose(state, rng)
            assert action in state.legal_actions()
            if len(state.legal_actions()) > 1 and state.phase != "cut":
                assert bot.last is not None and bot.last.simulations == 6
            state.apply(action)


def test_cut_phase_and_unsupported_rules_still_legal() -> None:
    bot = _tiny()
    rng = random.Random(1)
    state = MuckenState(SEEFEST, 0)
    state.apply(state.sample_chance(rng))
    assert state.phase == "cut"
    assert bot.choose(state, rng) in state.legal_actions()
    # a custom score table cannot be a python_mucken parameter: the heuristic plays
    custom = SEEFEST.replace(values={"muck": (2, 4, 6), "wenz": (3, 5, 7)})
    state = MuckenState(custom, 0)
    state.apply(state.sample_chance(rng))
    while state.phase == "cut":
        state.apply(state.legal_actions()[-1])
    assert bot.choose(state, rng) in state.legal_actions()


@pytest.mark.parametrize("rules", VARIANTS, ids=["seefest", "wikipedia", "muss", "ramsch",
                                                  "long"])
def test_information_state_and_action_mapping(rules: MuckenRules) -> None:
    rng = random.Random(2)
    for state in _decision_states(rules, 3, seed=4)[::3]:
        seat = state.current_player
        os_state = to_openspiel(state, seat, rng)
        codec = ib.openspiel_game_for(state).encoding.codec
        assert os_state.current_player() == seat
        # the seat's information state is the real one
        truth = _truthful(state)
        assert os_state.information_state_string(seat) == truth.information_state_string(seat)
        assert np.array_equal(os_state.information_state_tensor(seat),
                              truth.information_state_tensor(seat))
        # our typed actions <-> OpenSpiel ids, both ways
        legal = list(state.legal_actions())
        assert os_state.legal_actions() == sorted(codec.encode(a) for a in legal)
        for a in legal:
            assert codec.decode(codec.encode(a)) == a
        for i in os_state.legal_actions():
            assert codec.decode(i) in legal
        # the own cards are dealt truthfully, the others hold what they played
        played = played_by_seat(state)
        assert sorted(os_state.game_state.hands[seat]) == sorted(state.hands[seat])
        for s in range(4):
            assert played_by_seat(os_state.game_state)[s] == played[s]


def test_public_actions_leave_out_chance_and_the_cut() -> None:
    rng = random.Random(3)
    state = MuckenState(SEEFEST, 1)
    state.apply(state.sample_chance(rng))
    state.apply(Cut(5))
    state.apply(Say("geben"))
    state.apply(Say("weiter"))
    assert ib.public_actions(state) == [(2, Say("weiter"))]


def _other_world(state: MuckenState, seat: int, rng: random.Random) -> MuckenState:
    """The same game from ``seat``'s point of view, with the other seats' hidden cards
    dealt anew (consistent with the voids they showed)."""
    world = deal_consistent(state, seat, rng)
    played = played_by_seat(state)
    alt = MuckenState(state.rules, state.dealer)
    alt.apply(Deal(tuple(tuple(played[s] + world[s]) for s in range(4))))
    for _, action in ib.public_actions(state):
        alt.apply(action)
    return alt


def test_decision_depends_only_on_the_information_set() -> None:
    checked = 0
    rng = random.Random(9)
    no_cut = SEEFEST.replace(cut_max_times=0, cut_min_times=0)  # views equal, cuts and all
    states = _decision_states(no_cut, 4, seed=8)
    for state in states[::4]:
        if len(state.legal_actions()) < 2:
            continue
        seat = state.current_player
        alt = _other_world(state, seat, rng)
        if [sorted(h) for h in alt.hands] == [sorted(h) for h in state.hands]:
            continue
        assert alt.view(seat) == state.view(seat)
        bot = _tiny(max_simulations=40)
        first = bot.choose(state, random.Random(77))
        stats = bot.last
        second = bot.choose(alt, random.Random(77))
        assert first == second
        assert stats is not None and bot.last is not None
        assert stats.children == bot.last.children
        checked += 1
    assert checked >= 4


def test_time_budget_is_spent() -> None:
    state = next(s for s in _decision_states(SEEFEST, 1, seed=1) if s.phase == "play"
                 and len(s.legal_actions()) > 2)
    bot = IsmctsBot(time_budget=0.05)
    bot.choose(state, random.Random(0))
    assert bot.last is not None
    assert 0.05 <= bot.last.cpu_seconds < 0.5
    assert bot.last.simulations >= len(state.legal_actions()) + 1
    # every root action was tried
    assert len(bot.last.children) == len(state.legal_actions())


@pytest.mark.parametrize("rollout", ["openspiel", "quiet"])
def test_other_rollouts(rollout: str) -> None:
    bot = _tiny(rollout=rollout, max_simulations=20)
    for state in _decision_states(SEEFEST, 1, seed=2)[::2]:
        assert bot.choose(state, random.Random(0)) in state.legal_actions()


def test_tiny_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "ismcts-tiny", lambda: _tiny(max_simulations=5))
    monkeypatch.setattr(judge, "_BOTS", {})
    out = run_arena("ismcts-tiny", "random", 2, 3, SEEFEST)
    assert (out["a"], out["b"], out["deals"], out["games"]) == ("ismcts-tiny", "random", 2, 4)
    lo, hi = out["ci95"]
    assert lo <= out["mean"] <= hi


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        IsmctsBot(clock="sundial")
    with pytest.raises(ValueError):
        IsmctsBot(rollout="psychic")
    with pytest.raises(ValueError):
        IsmctsBot(max_simulations=0)
