"""The PettingZoo AEC environment (stammtisch.research.pettingzoo) of Mucken."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from stammtisch.errors import IllegalActionError
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.research.pettingzoo import GameEnv

AGENTS = ("seat_0", "seat_1", "seat_2", "seat_3")


def mucken_env(rules: object = None, dealer: int = 0, **kwargs: object) -> GameEnv:
    return GameEnv("mucken", rules, dealer, **kwargs)


@pytest.mark.parametrize("rules", ["seefest", "wikipedia"])
def test_api_test(rules: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about Dict observations for environments it does not list
        warnings.simplefilter("ignore", UserWarning)
        api_test(mucken_env(rules), num_cycles=300)


def test_api_test_without_cut() -> None:
    rules = MuckenRules.preset("seefest", cut_max_times=0, cut_min_times=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(mucken_env(rules, perfect_recall=True), num_cycles=300)
    e = mucken_env(rules)
    e.reset(seed=1)
    assert e.game_state.phase == "bidding"


def test_seed_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        seed_test(lambda: mucken_env(), num_cycles=50)


def _play(e: GameEnv, rng: random.Random) -> dict[str, float]:
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        assert not truncated and info == {}
        if terminated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        assert agent == AGENTS[e.game_state.current_player]
        e.step(int(legal[rng.randrange(len(legal))]))
    return totals


def test_rewards_are_the_game_returns() -> None:
    e = mucken_env("seefest", render_mode="ansi")
    rng = random.Random(2)
    for game in range(20):
        e.reset(seed=game, options={"dealer": game % 4})
        assert e.game_state.dealer == game % 4
        assert e.agent_selection == AGENTS[(game % 4 + 3) % 4]  # the cutter
        totals = _play(e, rng)
        state = e.game_state
        assert state.is_terminal()
        assert [totals[a] for a in AGENTS] == [float(r) for r in state.returns()]
        assert sum(totals.values()) == 0
        assert e.agents == []
    text = e.render()
    assert text is not None and "returns" in text and "seat_0" in text


def test_only_the_agent_to_act_has_a_mask() -> None:
    e = mucken_env()
    e.reset(seed=4)
    for agent in AGENTS:
        mask = e.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == e.agent_selection)
        obs = e.observe(agent)["observation"]
        assert e.observation_space(agent)["observation"].contains(obs)


def test_same_seed_same_game() -> None:
    def run(seed: int) -> list[str]:
        e = mucken_env()
        e.reset(seed=seed)
        _play(e, random.Random(0))
        return [str(a) for _, a in e.game_state.history]

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_illegal_and_missing_actions() -> None:
    e = mucken_env()
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    with pytest.raises(ValueError, match="None"):
        e.step(None)
    assert e.render() is None  # no render mode
    with pytest.raises(ValueError, match="render_mode"):
        mucken_env(render_mode="human")


class _StackedDeck(random.Random):
    """A random source whose shuffle lays the deck in a given order."""

    def __init__(self, order: list[str]) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        from stammtisch.cards import cards

        x[:] = list(cards(" ".join(self.order)))


def test_a_sie_ends_the_game_in_reset() -> None:
    rules = MuckenRules.preset("wikipedia", cut_max_times=0, cut_min_times=0)
    e = mucken_env(rules, dealer=3)
    # dealer 3: seat 0 gets cards 1-3 and 13-15 of the stack (3 + 3 with Klopfen off)
    order = ["EO", "GO", "HO", "GA", "GK", "G9", "G10", "E10", "EK", "HA", "H10", "HK",
             "SO", "EU", "GU", "E9", "EA", "S10", "SA", "SK", "S9", "HU", "H9", "SU"]
    e._rng = _StackedDeck(order)
    e.reset()
    assert e.game_state.contract == "sie"
    assert all(e.terminations.values())
    _, reward, terminated, _, _ = e.last()
    assert terminated and reward == 20.0
    for _agent in e.agent_iter():
        e.step(None)
    assert e.agents == []
