"""The research adapters, written once, over every registered game with an encoding:
PettingZoo's api_test, random play-outs through both adapters paying the game's returns,
OpenSpiel's random_sim_test (with serialization), clones and pickles, and resampled worlds
that the player cannot tell from the real one where the game offers a world sampler."""

from __future__ import annotations

import pickle
import random
import warnings
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pz_test = pytest.importorskip("pettingzoo.test")

from stammtisch.games import registry  # noqa: E402
from stammtisch.research.openspiel import load_game  # noqa: E402
from stammtisch.research.pettingzoo import env  # noqa: E402

GAMES = [g for g in registry.names() if registry.get(g).encoding is not None]
#: encodings whose rewards are not ``state.returns()`` (docs/research.md): Mus's are its
#: pair's points minus the other pair's, an accepted ordago credited with the points the
#: winner still needed (``returns()`` counts the score only), zero-sum
OWN_REWARDS = {"mus"}


def test_every_game_has_the_adapters() -> None:
    assert GAMES == ["mucken", "mulatschak", "mus", "schafkopf"]


def _check_returns(game: str, paid: list[float], state: Any, expected: list[float]) -> None:
    assert paid == expected
    returns = state.returns()
    if game not in OWN_REWARDS:
        assert expected == [float(r) for r in returns]
    else:  # zero-sum, shared within each team of teams()
        assert sum(expected) == 0
        for team in state.teams():
            assert len({expected[s] for s in team}) == 1


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Dict observations
        pz_test.api_test(env(game), num_cycles=200)
        pz_test.seed_test(lambda: env(game), num_cycles=30)
    e = env(game, render_mode="ansi")
    rng = random.Random(1)
    for seed in range(6):
        e.reset(seed=seed, options={"dealer": seed % e.encoding.num_players})
        paid = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, done, truncated, _ = e.last()
            paid[agent] += reward
            assert not truncated and e.observation_space(agent)["observation"].contains(
                obs["observation"])
            if done:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        state = e.game_state
        assert state.is_terminal() and e.agents == []
        _check_returns(game, [paid[a] for a in e.possible_agents], state,
                       e.encoding.returns(state))
    assert "seat_0" in (e.render() or "")


def _random_state(spiel_game: Any, rng: random.Random, stop: float) -> Any:
    """A random play-out, stopped with probability ``stop`` after each player action."""
    state = spiel_game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        if rng.random() < stop:
            break
    return state


@pytest.mark.parametrize("game", GAMES)
def test_openspiel(game: str) -> None:
    spiel_game = load_game(game)
    pyspiel.random_sim_test(spiel_game, num_sims=3, serialize=True, verbose=False)
    rng = random.Random(2)
    for _ in range(4):  # play-outs pay the game's returns
        state = _random_state(spiel_game, rng, 0.0)
        engine = state.game_state
        _check_returns(game, state.returns(), engine,
                       spiel_game.encoding.returns(engine))
    info = spiel_game.get_type().provides_information_state_string
    fresh = spiel_game.new_initial_state().game_state
    offers = spiel_game.encoding.resample(fresh, [], 0, random.random) is not None
    resampled = 0
    for _ in range(6):  # clones, pickles and (where offered) resampled worlds
        state = _random_state(spiel_game, rng, 0.1)
        for copied in (state.clone(), pickle.loads(pickle.dumps(state)),
                       spiel_game.deserialize_state(state.serialize())):
            assert copied.history() == state.history() and str(copied) == str(state)
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        if not offers:
            with pytest.raises(NotImplementedError):
                state.resample_from_infostate(player, random.Random(3))
            continue
        world = state.resample_from_infostate(player, random.Random(3))
        resampled += 1
        assert world.legal_actions() == state.legal_actions()
        observe = "information_state_string" if info else "observation_string"
        assert getattr(world, observe)(player) == getattr(state, observe)(player)
        assert np.array_equal(world.observation_tensor(player),
                              state.observation_tensor(player))
    assert (resampled > 0) == offers
