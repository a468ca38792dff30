"""Mus's research adapters: the codec and encoder, the PettingZoo environment (pettingzoo's
api_test and seed_test) and the OpenSpiel game python_mus (pyspiel's random-sim checks)."""

from __future__ import annotations

import copy
import pickle
import random
import warnings

import numpy as np
import pytest

from stammtisch.engine.core import CHANCE, TERMINAL
from stammtisch.errors import IllegalActionError
from stammtisch.games.mus import new_state
from stammtisch.games.mus.rules import MusRules
from stammtisch.research import adapter, kinds, parse_rules_param

pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")
pz_test = pytest.importorskip("pettingzoo.test")

from stammtisch.games.mus.research.encoding import (  # noqa: E402
    NUM_ACTIONS,
    ActionCodec,
    Limits,
    ObservationEncoder,
)
from stammtisch.research import openspiel  # noqa: E402,F401  (registers python_mus)
from stammtisch.research.pettingzoo import env  # noqa: E402

DUPLES = MusRules.preset("duples")
AGENTS = ("seat_0", "seat_1", "seat_2", "seat_3")


def test_facade_reaches_the_adapters() -> None:
    assert kinds("mus") == ["encoding", "openspiel", "pettingzoo"]
    assert adapter("mus", "encoding").__name__ == "stammtisch.games.mus.research.encoding"


def test_codec_round_trips_every_legal_action() -> None:
    codec, enc = ActionCodec(), ObservationEncoder(DUPLES)
    for seed in range(15):
        state = new_state(DUPLES, seed % 4, random.Random(seed))
        rng = random.Random(seed)
        while state.current_player != TERMINAL:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            ids = codec.legal_ids(state, Limits(10**6, 10**6))  # unbounded: the engine's
            assert sorted(ids) == sorted({codec.encode(a, state)
                                          for a in state.legal_actions()})
            for i in ids:
                assert str(codec.decode(i, state)) in {str(a) for a in state.legal_actions()}
            t = enc.encode(state.view(state.current_player))
            assert t.shape == (enc.size,) and t.min() >= 0.0 and t.max() <= 1.0
            bounded = codec.legal_ids(state)
            assert bounded and set(bounded) <= set(ids)
            state.apply(codec.decode(bounded[rng.randrange(len(bounded))], state))
    with pytest.raises(ValueError, match="action id 500"):
        codec.name(500)


def test_pettingzoo_api_and_seed_tests() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        pz_test.api_test(env("mus"), num_cycles=300)
        pz_test.api_test(env("mus", "duples", 2, score0=25, score1=28, max_mus_rounds=1,
                             max_bets=2),
                         num_cycles=300)
        pz_test.seed_test(lambda: env("mus"), num_cycles=50)


def test_pettingzoo_rewards_are_zero_sum_and_illegal_ids_refused() -> None:
    e = env("mus")
    for seed in range(10):
        e.reset(seed=seed)
        totals = dict.fromkeys(AGENTS, 0.0)
        for agent in e.agent_iter():
            obs, reward, done, _, _ = e.last()
            totals[agent] += reward
            if done:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[seed % len(legal)]))
        assert sum(totals.values()) == 0.0
        assert totals["seat_0"] == totals["seat_2"] == -totals["seat_1"]
    e.reset(seed=1)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        e.step(bad)


@pytest.mark.parametrize("params", [
    {}, {"rules": "duples;reyes:4", "dealer": 2, "score0": 25, "max_bets": 2},
])
def test_openspiel_random_sim(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_mus", params)
    assert game.num_distinct_actions() == NUM_ACTIONS and game.num_players() == 4
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_openspiel_clone_pickle_and_returns() -> None:
    game = pyspiel.load_game("python_mus")
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        if len(state.history()) == 60:
            for copied in (state.clone(), copy.deepcopy(state),
                           pickle.loads(pickle.dumps(state))):
                assert copied.history() == state.history() and str(copied) == str(state)
                assert copied.information_state_string(1) == state.information_state_string(1)
    r = state.returns()
    assert sum(r) == 0.0 and r[0] == r[2] and r[1] == r[3]
    with pytest.raises(ValueError, match="not option:number"):
        parse_rules_param("mus", "duples;reyes")
