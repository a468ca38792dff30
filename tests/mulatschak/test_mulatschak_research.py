"""Mulatschak's research adapters: ids and tensors, the PettingZoo env, the OpenSpiel game."""

from __future__ import annotations

import copy
import pickle
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from pettingzoo.test import api_test  # noqa: E402

from stammtisch.engine.core import Say  # noqa: E402
from stammtisch.errors import IllegalActionError  # noqa: E402
from stammtisch.games.mulatschak.research.encoding import (  # noqa: E402
    FERTIG,
    NUM_ACTIONS,
    Driver,
    ObservationEncoder,
    action_name,
)
from stammtisch.games.mulatschak.rules import MulatschakRules  # noqa: E402
from stammtisch.games.mulatschak.state import DECK, new_state  # noqa: E402
from stammtisch.research import adapter, kinds  # noqa: E402
from stammtisch.research import openspiel as og  # noqa: E402
from stammtisch.research.pettingzoo import env  # noqa: E402


def test_registered_through_the_facade() -> None:
    assert kinds("mulatschak") == ["encoding", "openspiel", "pettingzoo"]
    assert adapter("mulatschak", "encoding").NUM_ACTIONS == NUM_ACTIONS == 88


@pytest.mark.parametrize("players", [2, 4, 6])
def test_pettingzoo_api(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env("mulatschak", players=players), num_cycles=300)


def test_pettingzoo_rewards_are_minus_delta() -> None:
    e = env("mulatschak", players=5)
    for seed in range(8):
        e.reset(seed=seed)
        total = {a: 0.0 for a in e.possible_agents}
        while e.agents:
            obs, reward, done, _, _ = e.last()
            total[e.agent_selection] += reward
            assert obs["observation"].min() >= 0.0 and obs["observation"].max() <= 1.0
            e.step(None if done else e.action_space(e.agent_selection).sample(
                obs["action_mask"]))
        result = e.game_state.result()
        assert result is not None
        assert [total[a] for a in e.possible_agents] == [-float(d) for d in result["delta"]]
    with pytest.raises(ValueError, match="players=7"):
        env("mulatschak", players=7)


@pytest.mark.parametrize("players", [2, 5])
def test_openspiel_random_sims(players: int) -> None:
    game = pyspiel.load_game("python_mulatschak", {"players": players})
    assert game.num_players() == players and game.num_distinct_actions() == NUM_ACTIONS
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def _random_os_state(seed: int, players: int = 4) -> object:
    game = pyspiel.load_game("python_mulatschak", {"players": players})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        if rng.random() < 0.02 and not state.is_chance_node():
            break
    return state


def test_openspiel_clone_and_pickle() -> None:
    for seed in range(6):
        state = _random_os_state(seed)
        for copied in (state.clone(), copy.deepcopy(state),  # type: ignore[attr-defined]
                       pickle.loads(pickle.dumps(state))):
            assert str(copied) == str(state)
            assert copied.history() == state.history()  # type: ignore[attr-defined]


def test_openspiel_returns_and_observer() -> None:
    game = pyspiel.load_game("python_mulatschak")
    obs = game.make_py_observer()
    for seed in range(6):
        state = _random_os_state(seed + 100)
        while not state.is_terminal():  # type: ignore[attr-defined]
            if state.is_chance_node():  # type: ignore[attr-defined]
                state.apply_action(state.chance_outcomes()[0][0])  # type: ignore[attr-defined]
            else:
                state.apply_action(state.legal_actions()[0])  # type: ignore[attr-defined]
        result = state.game_state.result()  # type: ignore[attr-defined]
        assert state.returns() == [-float(d) for d in result["delta"]]  # type: ignore
        for p in range(4):
            obs.set_from(state, p)
            assert obs.tensor.min() >= 0.0 and obs.tensor.max() <= 1.0
            assert obs.string_from(state, p).startswith(f"p{p} ")
    with pytest.raises(ValueError, match="perfect-recall"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert og.GAME_TYPES["mulatschak"].short_name == "python_mulatschak"


def _exchange_state() -> Driver:
    for seed in range(200):
        state = new_state(MulatschakRules(), 0, random.Random(seed))
        d = Driver(state)
        rng = random.Random(seed)
        while not state.is_terminal() and state.phase != "exchange":
            ids = d.legal_ids()
            words = [action_name(i) for i in ids]
            # bid and go along so that an exchange comes
            pick = next((i for i, w in zip(ids, words, strict=True) if w in ("1", "mit")),
                        ids[rng.randrange(len(ids))])
            d.apply(pick)
        if state.phase == "exchange":
            return d
    raise AssertionError("no exchange reached")


def test_tausche_is_chosen_card_by_card() -> None:
    d = _exchange_state()
    state = d.state
    seat = state.current_player
    hand = sorted(state.hands[seat], key=DECK.index)
    first, second = DECK.index(hand[0]), DECK.index(hand[2])
    d.apply(first)
    assert state.current_player == seat and d.mode == "tausche"
    ids = d.legal_ids()
    assert FERTIG in ids and first not in ids and second in ids
    d.apply(second)
    action = d.apply(FERTIG)
    assert action == Say(f"tausche {hand[0]} {hand[2]}")
    with pytest.raises(IllegalActionError):
        d.apply(NUM_ACTIONS - 1 if NUM_ACTIONS - 1 not in d.legal_ids() else 0)


def test_every_legal_id_sequence_reaches_the_end() -> None:
    """Random ids over many hands: no dead end, every engine word checked."""
    for seed in range(60):
        rng = random.Random(seed)
        n = 2 + seed % 5
        d = Driver(new_state(MulatschakRules(), seed % n, rng, [21] * n))
        while not d.state.is_terminal():
            ids = d.legal_ids()
            assert ids, d.state.phase
            d.apply(ids[rng.randrange(len(ids))])


def test_observation_does_not_see_other_hands() -> None:
    enc = ObservationEncoder()
    for seed in range(10):
        state = new_state(MulatschakRules(), 0, random.Random(seed))
        state.push("abheben 4")
        if state.is_terminal():
            continue
        swapped = state.clone()
        swapped.hands[1], swapped.hands[2] = swapped.hands[2], swapped.hands[1]
        a = enc.encode(Driver(state), 0)
        b = enc.encode(Driver(swapped), 0)
        assert np.array_equal(a, b)
        hand = enc.split(a)["hand"]
        assert hand.sum() == 5
