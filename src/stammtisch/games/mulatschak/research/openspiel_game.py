"""Mulatschak as a Python OpenSpiel game: ``pyspiel.load_game("python_mulatschak")``.

Importing this module registers the game with ``pyspiel.register_game``.  A sequential,
imperfect-information, general-sum game of 2–6 players (parameter ``players``, default
4) with explicit stochastic chance and terminal rewards.  Parameters: ``players``,
``rules`` (a preset name, default ``salzburg``) and ``dealer`` (seat, default 0).

**The shuffle** is chance card by card: 33 chance nodes, each drawing one of the cards not
drawn yet with equal probability (the outcome is the card's id ``0 .. 32``, see
:mod:`.encoding`); the order drawn is the deck, top first.  Then the engine's
:class:`~stammtisch.games.mulatschak.state.MulatschakState` runs every phase, driven by
the ids of :class:`~stammtisch.games.mulatschak.research.encoding.Driver` (card sets of
the Kartentausch chosen card by card), applied *checked*.  **A Muli out of turn is not
offered** (only ``muli`` in turn).  Each hand starts at 21 points each.

**Returns** are minus the hand's score change (``-delta``: Mulatschak scores go down, so
higher is better), between −40 and +40 (a Muli's ±10 × 4 with Herz and Klopfen).
The hand is not zero-sum (a failed bid costs only the bidder).

**Observations** (:class:`MulatschakObserver`, the PyObserver of
``make_py_observer``): the tensor of
:class:`~stammtisch.games.mulatschak.research.encoding.ObservationEncoder` and a string,
both from ``state.view(player)`` plus the public played cards (``private_info=NONE``
leaves out the own hand).  Information states (perfect recall) are not provided.

>>> import pyspiel
>>> game = pyspiel.load_game("python_mulatschak", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), game.num_players()
(True, 33, 3)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from stammtisch.engine.core import TERMINAL, Shuffle
from stammtisch.games.mulatschak.research.encoding import (
    NUM_ACTIONS,
    Driver,
    ObservationEncoder,
    action_name,
)
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import DECK, MulatschakState, canonical

__all__ = ["GAME_TYPE", "MulatschakGame", "MulatschakObserver", "MulatschakOpenSpielState"]

_NUM_CARDS = len(DECK)

GAME_TYPE = pyspiel.GameType(
    short_name="python_mulatschak",
    long_name="Python Mulatschak (Salzburg, 2-6 players)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4, "rules": "salzburg", "dealer": 0},
)


class MulatschakGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_mulatschak`` (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 4))
        if not 2 <= players <= 6:
            raise ValueError(f"players={players}: Mulatschak has 2 to 6")
        self.players = players
        self.rules_text = str(params.get("rules", "salzburg"))
        self.rules = MulatschakRules.preset(self.rules_text)
        self.dealer = int(params.get("dealer", 0)) % players
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=_NUM_CARDS,
            num_players=players,
            min_utility=-40.0,
            max_utility=40.0,
            utility_sum=None,
            # the shuffle, the cut, the bidding, trump, mitgehen, the exchange chosen card
            # by card, nimm/weg/ab, the tricks
            max_game_length=_NUM_CARDS + 20 + 32 * players,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> MulatschakOpenSpielState:
        return MulatschakOpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> MulatschakObserver:
        return MulatschakObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _Core:
    """The Python side of a state: the cards drawn, the player ids, the driver.  Pickled
    as the parameters and the ids, rebuilt by replaying them."""

    def __init__(self, players: int, rules_text: str, dealer: int) -> None:
        self.key = (players, rules_text, dealer)
        self.deck: list[int] = []
        self.actions: list[int] = []
        self.driver = Driver(MulatschakState(MulatschakRules.preset(rules_text), dealer,
                                             [21] * players))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (*self.key, list(self.deck), list(self.actions)))

    @property
    def dealing(self) -> bool:
        return len(self.deck) < _NUM_CARDS

    def apply(self, action: int) -> None:
        if self.dealing:
            if not 0 <= action < _NUM_CARDS or action in self.deck:
                raise ValueError(f"chance outcome {action} is not a card still to draw")
            self.deck.append(action)
            if not self.dealing:
                self.driver.state.apply(Shuffle(tuple(DECK[i] for i in self.deck)))
            return
        self.driver.apply(action)
        self.actions.append(action)


def _rebuild(players: int, rules_text: str, dealer: int, deck: list[int],
             actions: list[int]) -> _Core:
    core = _Core(players, rules_text, dealer)
    for a in [*deck, *actions]:
        core.apply(a)
    return core


class MulatschakOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A ``python_mulatschak`` state: the shuffle card by card, then a
    :class:`MulatschakState` driven by ids."""

    def __init__(self, game: MulatschakGame) -> None:
        super().__init__(game)
        self._core = _Core(game.players, game.rules_text, game.dealer)

    @property
    def mulatschak(self) -> MulatschakState:
        """The engine state (before the shuffle is complete: at its shuffle node)."""
        return self._core.driver.state

    @property
    def driver(self) -> Driver:
        return self._core.driver

    def current_player(self) -> int:
        core = self._core
        if core.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        player = core.driver.state.current_player
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        return self._core.driver.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        assert core.dealing
        drawn = set(core.deck)
        rest = [i for i in range(_NUM_CARDS) if i not in drawn]
        p = 1.0 / len(rest)
        return [(i, p) for i in rest]

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw:{DECK[action]}"
        return action_name(action)

    def is_terminal(self) -> bool:
        core = self._core
        return not core.dealing and core.driver.state.is_terminal()

    def returns(self) -> list[float]:
        n = self._core.key[0]
        if self._core.dealing:
            return [0.0] * n
        result = self._core.driver.state.result()
        if result is None:
            return [0.0] * n
        return [-float(d) for d in result["delta"]]

    def __str__(self) -> str:
        core = self._core
        if core.dealing:
            return f"drawing: {len(core.deck)} of {_NUM_CARDS} cards"
        s = core.driver.state
        lines = [f"phase: {s.phase}"]
        for seat in range(s.num_seats):
            lines.append(f"seat {seat}: " + " ".join(str(c) for c in canonical(s.hands[seat])))
        if s.holder is not None:
            lines.append(f"bid {s.bid} by {s.holder}, trump {s.trump}, home {s.home}")
        for t in s.tricks_played:
            lines.append("trick: " + " ".join(f"{p}:{c}" for p, c in t))
        if s.trick:
            lines.append("trick: " + " ".join(f"{p}:{c}" for p, c in s.trick))
        if core.driver.chosen:
            lines.append("selected: " + " ".join(str(c) for c in core.driver.chosen))
        if s.is_terminal():
            lines.append(f"returns: {self.returns()}")
        return "\n".join(lines)


class MulatschakObserver:
    """Observation tensor and string (OpenSpiel's PyObserver); ``private_info``
    SINGLE_PLAYER includes the own hand, NONE leaves it out; no perfect recall."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type.perfect_recall:
            raise ValueError("python_mulatschak: perfect-recall observations are not "
                             "provided")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_mulatschak observes for one player: "
                             "private_info=ALL_PLAYERS is not supported")
        if not iig_obs_type.public_info:
            raise ValueError("python_mulatschak: observations without public information "
                             "are not supported")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.encoder = ObservationEncoder()
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.split(self.tensor)

    def set_from(self, state: MulatschakOpenSpielState, player: int) -> None:
        self.encoder.encode(state.driver, player, private=self.private, out=self.tensor)

    def string_from(self, state: MulatschakOpenSpielState, player: int) -> str:
        s = state.mulatschak
        v = s.view(player)
        parts = [f"p{player}", v["phase"]]
        if self.private:
            parts.append("hand:" + " ".join(v["hand"]))
            if s.current_player == player and state.driver.chosen:
                parts.append("selected:" + " ".join(str(c) for c in state.driver.chosen))
        parts.append("sizes:" + ",".join(str(n) for n in v["hand_sizes"]))
        if v["said"]:
            parts.append("said:" + " ".join(f"{p}{w.replace(' ', '_')}" for p, w in v["said"]))
        played = [f"{p}{c}" for t in s.tricks_played for p, c in t]
        if played:
            parts.append("played:" + " ".join(played))
        if v["trick"]:
            parts.append("trick:" + " ".join(f"{p}{c}" for p, c in v["trick"]))
        if v["shown"]:
            parts.append("shown:" + " ".join(v["shown"]))
        parts.append(f"to_act:{v['to_act']}")
        return " ".join(parts)


if GAME_TYPE.short_name not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, MulatschakGame)
