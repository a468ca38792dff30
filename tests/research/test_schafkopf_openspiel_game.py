"""The OpenSpiel game python_schafkopf (stammtisch.research.openspiel)."""

from __future__ import annotations

import copy
import math
import pickle
import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from stammtisch.cards import LONG_DECK, Card
from stammtisch.engine.core import Say
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState
from stammtisch.research import parse_rules_param, rules_param
from stammtisch.research.openspiel import SpielState


def _load(rules: str = "standard", dealer: int = 0) -> pyspiel.Game:
    return pyspiel.load_game("python_schafkopf", {"rules": rules, "dealer": dealer})


def _deal(state: pyspiel.State, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])


def _random_state(game: pyspiel.Game, rng: random.Random, stop: float = 1.0) -> pyspiel.State:
    """A random hand stopped after a share ``stop`` of the card plays."""
    state = game.new_initial_state()
    target = int(stop * 32)
    played = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
            continue
        if played >= target and state.game_state.phase == "play":
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        played += action < 32 and state.game_state.phase == "play"
        state.apply_action(action)
    return state


def test_registered() -> None:
    game = pyspiel.load_game("python_schafkopf")
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_players() == 4 and game.num_distinct_actions() == 70
    assert game.max_chance_outcomes() == 32


@pytest.mark.parametrize(("rules", "sims"), [
    ("standard", 10),
    ("anleitung", 6),
    ("standard;all_pass:muss;games:sauspiel/hochzeit", 6),
])
def test_random_sim_test(rules: str, sims: int) -> None:
    pyspiel.random_sim_test(_load(rules), num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize("rules", ["standard", "anleitung;stoss_words:kontra/re"])
def test_serialize_and_clone_round_trip(rules: str) -> None:
    game = _load(rules)
    state = _random_state(game, random.Random(1), stop=0.5)
    for copied in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state)),
                   game.deserialize_state(state.serialize())):
        assert copied.history() == state.history() and str(copied) == str(state)
        assert copied.information_state_string(2) == state.information_state_string(2)
        assert copied.get_game().rules == game.rules


def test_rules_parameter() -> None:
    rules = SchafkopfRules.preset("standard", legen=True, games=["sauspiel", "wenz"],
                                  stoss_words=["kontra"], all_pass="ramsch")
    text = rules_param("schafkopf", rules)
    assert parse_rules_param("schafkopf", text) == rules
    game = pyspiel.load_game(f"python_schafkopf(rules={text},dealer=2)")
    assert game.rules == rules and game.dealer == 2
    with pytest.raises(ValueError, match="option:value"):
        parse_rules_param("schafkopf", "standard;legen")
    with pytest.raises(ValueError, match="tariff"):
        rules_param("schafkopf", SchafkopfRules.preset("standard", tariff={"solo": 60}))


def test_chance_deals_card_by_card() -> None:
    game = _load(dealer=3)
    state = game.new_initial_state()
    drawn = []
    for k in range(32):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 32 - k
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        drawn.append(outcomes[-1][0])
        state.apply_action(outcomes[-1][0])
    # dealer 3: the first four cards go to seat 0, and again cards 17-20
    hand = state.game_state.hands[0]
    assert hand == [LONG_DECK[i] for i in drawn[0:4] + drawn[16:20]]
    assert state.current_player() == 0 and state.game_state.phase == "bidding"


def _voids(sk: SchafkopfState) -> list[set[int]]:
    out: list[set[int]] = [set(), set(), set(), set()]
    t = sk.tricks
    for lead, cards in [*t.tricks, (t.leader, tuple(t.current))]:
        for i, c in enumerate(cards[1:], start=1):
            if sk.order.klass(c) != sk.order.klass(cards[0]):
                out[(lead + i) % 4].add(sk.order.klass(cards[0]))
    return out


def _played(sk: SchafkopfState) -> list[list[Card]]:
    out: list[list[Card]] = [[], [], [], []]
    t = sk.tricks
    for lead, cards in [*t.tricks, (t.leader, tuple(t.current))]:
        for i, c in enumerate(cards):
            out[(lead + i) % 4].append(c)
    return out


@pytest.mark.parametrize("rules", ["standard", "anleitung",
                                   "standard;all_pass:muss;games:sauspiel/hochzeit"])
def test_resampled_worlds_are_consistent(rules: str) -> None:
    game = _load(rules)
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked_voids = 0
    for _ in range(12):
        state = _random_state(game, rng, stop=rng.random())
        sk = state.game_state
        voids = _voids(sk)
        for player in range(4):
            world = state.resample_from_infostate(player, sampler)
            wk = world.game_state
            assert sorted(wk.hands[player]) == sorted(sk.hands[player])
            assert _played(wk) == _played(sk)
            assert wk.bids == sk.bids and wk.contract == sk.contract
            assert wk.stoss == sk.stoss and wk.lege_seats == sk.lege_seats
            assert world.current_player() == state.current_player()
            assert [len(h) for h in wk.hands] == [len(h) for h in sk.hands]
            others = [s for s in range(4) if s != player]
            assert sorted(c for s in others for c in wk.hands[s]) == sorted(
                c for s in others for c in sk.hands[s])
            for s in others:
                for c in wk.hands[s]:
                    assert wk.order.klass(c) not in voids[s]
                    checked_voids += bool(voids[s])
            if sk.called is not None and sk.declarer is not None:
                assert sk.called not in wk.hands[sk.declarer]
            assert world.information_state_string(player) == \
                state.information_state_string(player)
            assert np.array_equal(world.information_state_tensor(player),
                                  state.information_state_tensor(player))
    assert checked_voids > 0


def _to_phase(game: pyspiel.Game, words: list[str], seed: int) -> pyspiel.State | None:
    """A hand dealt at random whose first words are ``words`` (None if not legal)."""
    state = game.new_initial_state()
    _deal(state, random.Random(seed))
    for w in words:
        a = game.encoding.codec.encode(Say(w))
        if a not in state.legal_actions():
            return None
        state.apply_action(a)
    return state


def test_resampling_keeps_eo_with_the_muss_caller() -> None:
    game = _load("standard;all_pass:muss;games:sauspiel")
    eo = Card.parse("EO")
    found = 0
    for seed in range(40):
        state = _to_phase(game, ["weiter"] * 4, seed)
        if state is None or state.game_state.phase != "muss":
            continue
        holder = state.current_player()
        found += 1
        for player in range(4):
            world = state.resample_from_infostate(player, random.Random(seed))
            assert eo in world.game_state.hands[holder]
    assert found > 0


def test_resampling_respects_the_bids() -> None:
    """A seat that named a Sauspiel holds no ace of the suit and a plain card of it."""
    game = _load()
    found = 0
    for seed in range(60):
        state = _to_phase(game, ["sauspiel-eichel"], seed)
        if state is None:
            continue
        found += 1
        bidder = state.game_state.bids[0][0]
        for i in range(5):
            world = state.resample_from_infostate((bidder + 1) % 4, random.Random(i))
            hand = world.game_state.hands[bidder]
            assert Card.parse("EA") not in hand
            assert any(c.suit == Card.parse("E7").suit and c.rank.text not in ("O", "U")
                       for c in hand)
    assert found > 0


def test_resampling_in_a_hochzeit() -> None:
    game = _load("standard;games:sauspiel/hochzeit")
    found = 0
    for seed in range(400):
        state = _to_phase(game, [], seed)
        assert state is not None
        rng = random.Random(seed)
        while not state.is_terminal() and state.game_state.phase not in ("play",):
            legal = state.legal_actions()
            names = [game.encoding.codec.name(a) for a in legal]
            pick = next((a for a, n in zip(legal, names, strict=True)
                         if n in ("hochzeit", "annehmen")), legal[0])
            state.apply_action(pick)
        sk = state.game_state
        if sk.contract != "hochzeit":
            continue
        found += 1
        _, trump = sk._exchange
        for player in range(4):
            world = state.resample_from_infostate(player, rng)
            wk = world.game_state
            assert wk.contract == "hochzeit" and wk.acceptor == sk.acceptor
            assert not any(wk.order.is_trump(c) for c in wk.hands[sk.declarer])
            assert world.information_state_string(player) == \
                state.information_state_string(player)
            if player == sk.declarer:
                assert trump in wk.hands[sk.acceptor]
        if found >= 3:
            break
    assert found > 0


def test_resampling_during_the_deal_and_legen() -> None:
    game = _load()
    state = game.new_initial_state()
    for a in [5, 7, 9, 11, 13, 15, 17, 19]:
        state.apply_action(a)
    world = state.resample_from_infostate(1, random.Random(0))
    assert world.is_chance_node() and len(world.history()) == 8
    assert world.information_state_string(1) == state.information_state_string(1)
    assert world.history()[:4] == [5, 7, 9, 11]  # seat 1 (Vorhand) got the first packet
    game = _load("anleitung")
    state = game.new_initial_state()
    _deal(state, random.Random(1))
    assert state.game_state.phase == "legen"
    seen: Counter[Card] = Counter()
    for i in range(40):
        world = state.resample_from_infostate(1, random.Random(i))
        assert world.game_state.hands[1][:4] == state.game_state.hands[1][:4]
        assert world.information_state_string(1) == state.information_state_string(1)
        seen.update(world.game_state.hands[1][4:])
    assert len(seen) > 10  # the second packet is not known during Legen


def test_sampled_worlds_are_spread_evenly() -> None:
    game = _load()
    state = game.new_initial_state()
    _deal(state, random.Random(3))
    seen: Counter[Card] = Counter()
    for i in range(400):
        world = state.resample_from_infostate(0, random.Random(i))
        seen.update(world.game_state.hands[1])
    unseen = [c for c in LONG_DECK if c not in state.game_state.hands[0]]
    assert set(seen) == set(unseen)
    assert max(seen.values()) < 1.5 * min(seen.values())


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
        uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 8:
        if state.is_chance_node():
            _deal(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert sum(calls.values()) >= 10 * min(decisions, 4)


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
