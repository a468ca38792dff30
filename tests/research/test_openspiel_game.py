"""The OpenSpiel game python_mucken (stammtisch.research.openspiel over Mucken's encoding)."""

from __future__ import annotations

import copy
import itertools
import math
import pickle
import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from stammtisch.cards import Card
from stammtisch.engine.core import Say
from stammtisch.engine.tricks import TRUMP
from stammtisch.games.base.encoding import WorldCounter
from stammtisch.games.mucken.research.encoding import played_by_seat
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.research import parse_rules_param, rules_param
from stammtisch.research.openspiel import SpielState


def _load(rules: str = "seefest", dealer: int = 0) -> pyspiel.Game:
    return pyspiel.load_game("python_mucken", {"rules": rules, "dealer": dealer})


def _random_state(game: pyspiel.Game, rng: random.Random, stop: float = 1.0) -> pyspiel.State:
    """Play a random game and stop after a random share ``stop`` of the card plays."""
    state = game.new_initial_state()
    cards = game.encoding.num_cards
    target = int(stop * cards)
    played = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if played >= target and state.game_state.phase == "play":
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        played += action < cards
        state.apply_action(action)
    return state


def test_registered() -> None:
    assert "python_mucken" in pyspiel.registered_names()
    game = pyspiel.load_game("python_mucken")
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_players() == 4 and game.num_distinct_actions() == 58
    assert game.max_chance_outcomes() == 24 and game.max_utility() == 20.0


@pytest.mark.parametrize(("rules", "sims"), [
    ("seefest", 20),
    ("wikipedia", 8),
    ("seefest;no_game:muss;doublings:4", 8),
    ("seefest;no_game:ramsch;ramsch_stichzwang:true;deck:long", 5),
])
def test_random_sim_test(rules: str, sims: int) -> None:
    pyspiel.random_sim_test(_load(rules), num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize("rules", ["seefest", "wikipedia;doublings:2;games:wenz/geier/muck"])
def test_serialize_and_clone_round_trip(rules: str) -> None:
    game = _load(rules)
    state = _random_state(game, random.Random(1), stop=0.5)
    for copied in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state)),
                   game.deserialize_state(state.serialize())):
        assert copied.history() == state.history() and str(copied) == str(state)
        assert copied.information_state_string(2) == state.information_state_string(2)
        assert copied.get_game().rules == game.rules


def test_rules_parameter() -> None:
    rules = MuckenRules.preset("seefest", deck="long", games=("muck", "wenz", "geier"),
                               ramsch_stichzwang=True, doublings=0)
    text = rules_param("mucken", rules)
    assert parse_rules_param("mucken", text) == rules
    game = pyspiel.load_game(f"python_mucken(rules={text},dealer=2)")
    assert game.rules == rules and game.dealer == 2
    assert game.max_chance_outcomes() == 32
    with pytest.raises(ValueError, match="option:value"):
        parse_rules_param("mucken", "seefest;doublings")
    with pytest.raises(ValueError, match="score table"):
        rules_param("mucken", MuckenRules.preset("seefest", values={"muck": [1, 2, 3]}))


def test_chance_deals_card_by_card() -> None:
    game = _load(dealer=3)
    state = game.new_initial_state()
    drawn = []
    for k in range(24):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 24 - k
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        drawn.append(outcomes[-1][0])
        state.apply_action(outcomes[-1][0])
    # dealer 3: the first three cards go to seat 0, the next three to seat 1 ...
    cards = game.encoding.codec.deck
    assert set(state.game_state.hands[0]) == {cards[i] for i in drawn[0:3] + drawn[12:15]}
    assert state.current_player() == 0 and state.game_state.phase == "bidding"


def _voids(state: pyspiel.State) -> list[set[int]]:
    ms = state.game_state
    out: list[set[int]] = [set(), set(), set(), set()]
    must_trump = ms.contract == "ramsch" and ms.rules.ramsch_stichzwang
    t = ms.tricks
    for lead, cards in [*t.tricks, (t.leader, tuple(t.current))]:
        for i, c in enumerate(cards[1:], start=1):
            if ms.order.klass(c) != ms.order.klass(cards[0]):
                out[(lead + i) % 4].add(ms.order.klass(cards[0]))
                if must_trump and ms.order.klass(c) != TRUMP:
                    out[(lead + i) % 4].add(TRUMP)
    return out


@pytest.mark.parametrize("rules", ["seefest", "seefest;no_game:ramsch;ramsch_stichzwang:true"])
def test_resampled_worlds_are_consistent(rules: str) -> None:
    game = _load(rules)
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked_voids = 0
    for _ in range(25):
        state = _random_state(game, rng, stop=rng.random())
        ms = state.game_state
        played = played_by_seat(ms)
        voids = _voids(state)
        for player in range(4):
            world = state.resample_from_infostate(player, sampler)
            wm = world.game_state
            assert sorted(wm.hands[player]) == sorted(ms.hands[player])
            assert played_by_seat(wm) == played
            assert wm.calls == ms.calls and wm.contract == ms.contract
            assert wm.doubling_seats == ms.doubling_seats
            assert world.current_player() == state.current_player()
            assert [len(h) for h in wm.hands] == [len(h) for h in ms.hands]
            others = [s for s in range(4) if s != player]
            assert sorted(c for s in others for c in wm.hands[s]) == sorted(
                c for s in others for c in ms.hands[s])
            for s in others:
                for c in wm.hands[s]:
                    assert wm.order.klass(c) not in voids[s]
                    checked_voids += bool(voids[s])
            assert world.information_state_string(player) == \
                state.information_state_string(player)
            np.testing.assert_array_equal(world.information_state_tensor(player),
                                          state.information_state_tensor(player))
            np.testing.assert_array_equal(world.observation_tensor(player),
                                          state.observation_tensor(player))
    assert checked_voids > 0


def test_resampling_keeps_the_muss_card_with_the_caller() -> None:
    game = _load("seefest;no_game:muss")
    weiter = game.encoding.codec.encode(Say("weiter"))
    rng = random.Random(9)
    muss = Card.parse("EO")
    for _ in range(10):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        for _ in range(4):
            state.apply_action(weiter)
        holder = state.current_player()
        assert state.game_state.phase == "muss" and muss in state.game_state.hands[holder]
        for player in range(4):
            world = state.resample_from_infostate(player, random.Random(rng.random()))
            assert muss in world.game_state.hands[holder]


def test_resampling_during_the_deal() -> None:
    game = _load()
    state = game.new_initial_state()
    for a in [5, 7, 9, 11, 13, 15, 17, 19]:
        state.apply_action(a)
    world = state.resample_from_infostate(1, random.Random(0))
    assert world.is_chance_node() and len(world.history()) == 8
    assert world.information_state_string(1) == state.information_state_string(1)
    # seat 1 was dealt the first three cards (dealer 0)
    assert world.history()[:3] == [5, 7, 9]


def test_world_sampler_is_uniform_on_a_small_case() -> None:
    # the world counter against brute force: 3 seats, 6 cards in two types
    sizes, allowed = [3, 3], [(0, 1, 2), (1, 2)]
    counter = WorldCounter(sizes, allowed)
    caps = (2, 2, 2, 0, 0)
    brute = 0
    for owners in itertools.product(range(3), repeat=6):
        if any(owners[i] == 0 for i in range(3, 6)):
            continue
        if Counter(owners) == Counter({0: 2, 1: 2, 2: 2}):
            brute += 1
    assert counter.count(0, caps) == brute


def test_sampled_worlds_are_spread_evenly() -> None:
    # no information yet: seat 1's six cards are a uniform choice from the 18 unseen ones
    game = _load()
    state = _random_state(game, random.Random(3), stop=0.0)
    seen: Counter[Card] = Counter()
    for i in range(600):
        world = state.resample_from_infostate(0, random.Random(i))
        seen.update(world.game_state.hands[1])
    unseen = [c for c in game.encoding.codec.deck if c not in state.game_state.hands[0]]
    assert set(seen) == set(unseen)
    assert max(seen.values()) < 1.4 * min(seen.values())


def test_ismcts_plays_with_resampling(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = Counter[int]()
    original = SpielState.resample_from_infostate

    def spy(self: SpielState, player_id: int, sampler: object = None) -> object:
        calls[player_id] += 1
        return original(self, player_id, sampler)

    monkeypatch.setattr(SpielState, "resample_from_infostate", spy)
    game = _load()
    rng = random.Random(6)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1,
                                              random_state=np.random.RandomState(0)),
        uct_c=2.0,
        max_simulations=25,
        random_state=np.random.RandomState(1),
    )
    state = game.new_initial_state()
    decisions = 0
    cards_played = 0
    while not state.is_terminal() and cards_played < 6:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        cards_played += action < 24
        state.apply_action(action)
        decisions += 1
    assert cards_played == 6 or state.is_terminal()
    assert decisions >= 6
    # every search simulation started from a world resampled for the player to act
    assert sum(calls.values()) >= 25 * 4 and len(calls) >= 3


def test_observer_variants() -> None:
    game = _load()
    state = _random_state(game, random.Random(2), stop=0.3)
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    obs = game.make_py_observer(public)
    obs.set_from(state, 0)
    assert obs.dict["hand"].sum() == 0
    assert "hand:" not in obs.string_from(state, 0)
    private = game.make_py_observer()
    private.set_from(state, 0)
    assert private.dict["hand"].sum() == len(state.game_state.hands[0])
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    assert "seat 0:" in str(state)
