"""The PettingZoo AEC environment of Schafkopf
(stammtisch.research.pettingzoo)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from stammtisch.errors import IllegalActionError
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.research.pettingzoo import GameEnv

AGENTS = ("seat_0", "seat_1", "seat_2", "seat_3")


def schafkopf_env(rules: object = None, dealer: int = 0, **kwargs: object) -> GameEnv:
    return GameEnv("schafkopf", rules, dealer, **kwargs)


@pytest.mark.parametrize("rules", ["standard", "anleitung"])
def test_api_test(rules: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about Dict observations for environments it does not list
        warnings.simplefilter("ignore", UserWarning)
        api_test(schafkopf_env(rules), num_cycles=300)


def test_api_test_perfect_recall_muss() -> None:
    rules = SchafkopfRules.preset("standard", all_pass="muss", games=["sauspiel", "hochzeit"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(schafkopf_env(rules, perfect_recall=True), num_cycles=300)


def test_seed_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        seed_test(lambda: schafkopf_env(), num_cycles=50)


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


def test_rewards_are_the_payments() -> None:
    e = schafkopf_env("anleitung", render_mode="ansi")
    rng = random.Random(2)
    for game in range(20):
        e.reset(seed=game, options={"dealer": game % 4})
        assert e.game_state.dealer == game % 4
        assert e.agent_selection == AGENTS[(game % 4 + 1) % 4]  # Vorhand
        totals = _play(e, rng)
        result = e.game_state.result()
        assert result is not None
        assert [totals[a] for a in AGENTS] == [float(p) for p in result["payments"]]
        assert sum(totals.values()) == 0 and e.agents == []
    text = e.render()
    assert text is not None and "payments" in text and "seat_0" in text


def test_only_the_agent_to_act_has_a_mask() -> None:
    e = schafkopf_env()
    e.reset(seed=4)
    for agent in AGENTS:
        mask = e.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == e.agent_selection)
        obs = e.observe(agent)["observation"]
        assert e.observation_space(agent)["observation"].contains(obs)


def test_same_seed_same_hand() -> None:
    def run(seed: int) -> list[str]:
        e = schafkopf_env()
        e.reset(seed=seed)
        _play(e, random.Random(0))
        return [str(a) for _, a in e.game_state.history]

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_illegal_and_missing_actions() -> None:
    e = schafkopf_env()
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    with pytest.raises(ValueError, match="None"):
        e.step(None)
    assert e.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        schafkopf_env(render_mode="human")
