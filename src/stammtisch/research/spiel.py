"""One OpenSpiel game and state over any game plug-in with a research encoding.

:func:`register` makes ``python_<game>`` known to ``pyspiel`` (every registered game is
registered by importing :mod:`stammtisch.research.openspiel`); this module imports no
registry, so that a game's own bot can play on it.  The games are sequential,
imperfect-information, with explicit stochastic chance and terminal rewards, zero-sum where
the encoding says so.  Parameters: ``rules`` (a preset name, optionally with
``;option:value`` items, see :func:`~stammtisch.games.base.encoding.parse_rules_param`),
``dealer`` and the game's own (``Encoding.params``: Mulatschak's ``players``, Mus's
``score0``, ``score1``, ``max_mus_rounds``, ``max_bets``).

A state is the engine state driven by the encoding's ids: chance is told id by id as the
encoding models it (a card per chance node), an action taking several ids is applied when
complete, every engine action is applied *checked*.  Observations and strings are the
encoding's (``make_py_observer``; ``private_info=NONE`` leaves out the own cards,
``ALL_PLAYERS`` is refused); :meth:`SpielState.resample_from_infostate` (IS-MCTS) replays
a world of the encoding's sampler where the game has one.  Clones and pickles carry only
the parameters and the ids and are rebuilt by replaying them.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from stammtisch.engine.core import CHANCE, TERMINAL
from stammtisch.games.base.encoding import EncodedGame, Encoding, Uniform, describe, encoding_of

__all__ = ["GAME_TYPES", "Observer", "SpielGame", "SpielState", "load_game", "register"]

#: the registered OpenSpiel game types by game name, and the plug-ins
GAME_TYPES: dict[str, pyspiel.GameType] = {}
_PLUGINS: dict[str, EncodedGame] = {}

Params = tuple[tuple[str, Any], ...]


@functools.cache
def _defaults(game: str) -> Params:
    plugin = _PLUGINS[game]
    params = encoding_of(plugin).params
    return (("rules", plugin.default_preset), ("dealer", 0), *params.items())


@functools.cache
def _setup(game: str, params: Params) -> tuple[Encoding[Any], int]:
    """The encoding and dealer of a parameter set (cached: shared by its states)."""
    options = dict(params)
    rules, dealer = str(options.pop("rules")), int(options.pop("dealer"))
    enc = encoding_of(_PLUGINS[game], rules, **options)
    if not 0 <= dealer < enc.num_players:
        raise ValueError(f"dealer={dealer!r}: must be a seat 0..{enc.num_players - 1}")
    return enc, dealer


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_<game>`` for one parameter set (each game registers a
    subclass that names it)."""

    game_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game = self.game_name
        self.key = (game, tuple(sorted({**dict(_defaults(game)), **(params or {})}.items())))
        self.encoding, self.dealer = _setup(*self.key)
        self.rules = self.encoding.rules
        e = self.encoding
        info = pyspiel.GameInfo(
            num_distinct_actions=e.num_actions, max_chance_outcomes=e.max_chance_outcomes,
            num_players=e.num_players, min_utility=-e.max_utility, max_utility=e.max_utility,
            utility_sum=0.0 if e.zero_sum else None, max_game_length=e.max_game_length)
        super().__init__(GAME_TYPES[game], info, dict(params or {}))

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Observer:
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                        params)


class _Core:
    """The Python side of a state: the engine state, the ids chosen so far at the node
    and every id applied.  Pickled as the parameters and the ids, rebuilt by replaying."""

    __slots__ = ("encoding", "history", "key", "pending", "state")

    def __init__(self, key: tuple[str, Params]) -> None:
        self.key = key
        self.encoding, dealer = _setup(*key)
        self.state = self.encoding.initial_state(dealer)
        self.pending: list[int] = []
        self.history: list[int] = []

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.key, list(self.history)))

    def apply(self, index: int) -> None:
        pending = self.pending
        pending.append(index)
        try:
            action = self.encoding.action_of(self.state, pending)
            if action is not None:
                self.state.apply(action)
        except Exception:
            pending.pop()
            raise
        if action is not None:
            pending.clear()
        self.history.append(index)


def _rebuild(key: tuple[str, Params], history: list[int]) -> _Core:
    core = _Core(key)
    for index in history:
        core.apply(index)
    return core


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A ``python_<game>`` state: the engine state driven by the encoding's ids."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self._core = _Core(game.key)

    @property
    def game_state(self) -> Any:
        """The engine state (during a chance told id by id, still at its chance node)."""
        return self._core.state

    def current_player(self) -> int:
        player = self._core.state.current_player
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.TERMINAL) if player == TERMINAL else int(player)

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.encoding.legal_ids(self._core.state, self._core.pending)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        ids = self._core.encoding.legal_ids(self._core.state, self._core.pending)
        p = 1.0 / len(ids)
        return [(i, p) for i in ids]

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._core.encoding.action_name(action, chance=player == pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        return bool(self._core.state.is_terminal())

    def returns(self) -> list[float]:
        return self._core.encoding.returns(self._core.state)

    def __str__(self) -> str:
        core = self._core
        return describe(core.state, [f"seat {s}" for s in range(core.encoding.num_players)],
                        core.pending)

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any = None) -> SpielState:
        """A state ``player_id`` cannot tell from this one, from the encoding's world
        sampler.  ``probability_sampler``: a ``pyspiel.UniformProbabilitySampler`` (or any
        callable returning uniform floats in [0, 1)), a ``random.Random``, or ``None``."""
        core = self._core
        world = core.encoding.resample(core.state, core.history, player_id,
                                       _uniform(probability_sampler))
        if world is None:
            raise NotImplementedError(f"python_{core.key[0]} has no world sampler")
        new: SpielState = self.get_game().new_initial_state()
        for index in world:
            new.apply_action(index)
        return new


def _uniform(sampler: Any) -> Uniform:
    if sampler is None:
        return random.random
    if isinstance(sampler, random.Random):
        return sampler.random
    if callable(sampler):
        return lambda: float(sampler())
    raise TypeError(f"not a source of uniform numbers: {sampler!r}")


class Observer:
    """Observation (and, with ``perfect_recall``, information-state) tensors and strings:
    OpenSpiel's PyObserver.  ``private_info`` SINGLE_PLAYER includes the own cards, NONE
    leaves them out; ``ALL_PLAYERS`` is not offered."""

    def __init__(self, game: SpielGame, iig_obs_type: Any, params: dict[str, Any] | None
                 ) -> None:
        name, e = f"python_{game.game_name}", game.encoding
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"{name} observes for one player: private_info=ALL_PLAYERS is "
                             f"not supported")
        if not iig_obs_type.public_info:
            raise ValueError(f"{name}: observations without public information are not "
                             f"supported")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        if self.perfect_recall and not (e.information_state_shape or e.information_state_strings):
            raise ValueError(f"{name}: perfect-recall observations are not provided")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        shape = (self.perfect_recall and e.information_state_shape) or e.observation_shape
        self.tensor = np.zeros(math.prod(shape), np.float32)
        self.dict = e.pieces(self.tensor, perfect_recall=self.perfect_recall)

    def set_from(self, state: SpielState, player: int) -> None:
        core = state._core
        core.encoding.observation(core.state, player, core.pending, private=self.private,
                                  perfect_recall=self.perfect_recall, out=self.tensor)

    def string_from(self, state: SpielState, player: int) -> str:
        core = state._core
        return core.encoding.observation_string(core.state, player, core.pending,
                                                private=self.private,
                                                perfect_recall=self.perfect_recall)


def register(plugin: EncodedGame) -> pyspiel.GameType:
    """Register ``python_<game>`` with pyspiel (once); its game type."""
    game = plugin.name
    if game not in GAME_TYPES:
        _PLUGINS[game], e = plugin, encoding_of(plugin)
        GAME_TYPES[game] = game_type = pyspiel.GameType(
            short_name=f"python_{game}", long_name=f"Python {plugin.title['en']} (stammtisch)",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=(pyspiel.GameType.Utility.ZERO_SUM if e.zero_sum
                     else pyspiel.GameType.Utility.GENERAL_SUM),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=plugin.seats[1], min_num_players=plugin.seats[0],
            provides_information_state_string=e.information_state_strings,
            provides_information_state_tensor=e.information_state_shape is not None,
            provides_observation_string=True, provides_observation_tensor=True,
            parameter_specification=dict(_defaults(game)))
        if game_type.short_name not in pyspiel.registered_names():
            # a class of its own per game: pyspiel releases the creator at exit without the
            # GIL, which crashes for a function or a functools.partial but not for a class
            pyspiel.register_game(game_type, type(f"SpielGame_{game}", (SpielGame,), {
                "game_name": game, "__module__": __name__}))
    return GAME_TYPES[game]


def load_game(plugin: EncodedGame, params: Mapping[str, Any] | None = None) -> SpielGame:
    """``pyspiel.load_game("python_<game>", params)``, registered first if need be."""
    register(plugin)
    loaded: SpielGame = pyspiel.load_game(f"python_{plugin.name}", dict(params or {}))
    return loaded
