"""Mus as a Python OpenSpiel game: ``pyspiel.load_game("python_mus")``.

Importing this module registers the game with ``pyspiel.register_game``.  A sequential,
imperfect-information, zero-sum game of four players (pairs 0+2 and 1+3) with explicit
stochastic chance and terminal rewards.  Parameters: ``rules`` (a preset name, default
``duples``, optionally with ``;option:value`` items, e.g. ``duples;reyes:4;target:40``),
``dealer`` (seat 0..3), ``score0`` and ``score1`` (the running score before the hand),
``max_mus_rounds`` and ``max_bets`` (the research bounds of
:class:`~stammtisch.games.mus.research.encoding.Limits`).

**Chance** deals card by card: the shuffle is 40 chance nodes, each drawing one of the
cards not placed yet with equal probability (the outcome is the card's index in
``SPANISH_DECK``); the ``k``-th card goes where the engine's shuffle puts it (the first 16
one at a time from Mano, the rest the stock).  A reshuffle of the discards is a chance
node per discarded card the same way.  Everything else is the engine's
:class:`~stammtisch.games.mus.state.MusState`, applied *checked*; the action ids are
those of :class:`~stammtisch.games.mus.research.encoding.ActionCodec`.

**Returns**: each player's pair's points of the hand minus the other pair's
(:func:`stammtisch.games.mus.statistics.hand_points`; an accepted ordago credits the winner
with the points it still needed).

**Observations** come from ``state.view(player)`` only.  The information state string
(perfect recall) lists, in order, the player's hand whenever it changes and every word
as the player heard it (its own discards by card, the others' by number).

>>> import pyspiel
>>> game = pyspiel.load_game("python_mus")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), game.num_distinct_actions()
(True, 40, 119)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from stammtisch.cards import SPANISH_DECK, Card
from stammtisch.engine.core import CHANCE, TERMINAL, Say, Shuffle
from stammtisch.errors import IllegalActionError
from stammtisch.games.mus.research.encoding import (
    NUM_ACTIONS,
    ActionCodec,
    Limits,
    ObservationEncoder,
)
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import MAX_ENVIDO, MusState
from stammtisch.games.mus.statistics import hand_points

__all__ = ["GAME_TYPE", "MusGame", "MusObserver", "MusOpenSpielState", "parse_rules_param"]

_NUM_PLAYERS = 4
_CARD_INDEX = {c: i for i, c in enumerate(SPANISH_DECK)}

GAME_TYPE = pyspiel.GameType(
    short_name="python_mus",
    long_name="Python Mus (Spanish, 4 players in pairs)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_NUM_PLAYERS,
    min_num_players=_NUM_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "duples", "dealer": 0, "score0": 0, "score1": 0,
                             "max_mus_rounds": 3, "max_bets": 4},
)


def parse_rules_param(text: str) -> MusRules:
    """The rules of a ``rules`` parameter: a preset name, optionally followed by
    ``;option:value`` items with whole numbers, e.g. ``duples;reyes:4``."""
    preset, *items = text.strip().split(";")
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition(":")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise ValueError(f"rules={text!r}: {item!r} is not option:number")
        options[key.strip()] = int(value)
    return MusRules.preset(preset.strip() or "duples", **options)


@dataclass(frozen=True)
class _Params:
    rules_text: str
    dealer: int
    score: tuple[int, int]
    limits: Limits

    @property
    def rules(self) -> MusRules:
        return parse_rules_param(self.rules_text)


def _max_utility(rules: MusRules, limits: Limits) -> float:
    # accepted stakes in four lances, the bonuses (pares 6, juego 6, punto, the en-paso
    # points) and the credit of an ordago (at most the target)
    stake = MAX_ENVIDO * limits.max_bets
    return float(4 * stake + 6 + 6 + rules.punto_bonus + 2 + rules.target)


class MusGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_mus`` (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules_text = str(params.get("rules", "duples"))
        rules = parse_rules_param(rules_text)
        dealer = int(params.get("dealer", 0))
        if not 0 <= dealer < 4:
            raise ValueError(f"dealer={dealer!r}: must be a seat 0..3")
        score = (int(params.get("score0", 0)), int(params.get("score1", 0)))
        if not all(0 <= s < rules.target for s in score):
            raise ValueError(f"score={score}: each from 0 to target - 1")
        limits = Limits(int(params.get("max_mus_rounds", 3)), int(params.get("max_bets", 4)))
        self.params_ = _Params(rules_text, dealer, score, limits)
        self.mus_rules = rules
        self.codec = ActionCodec()
        utility = _max_utility(rules, limits)
        # per lance: 3 passes, the bets (max_bets envidos and an ordago), two refusals
        # after each bet, one quiero
        lance = 3 + 3 * (limits.max_bets + 1) + 1
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=40,
            num_players=_NUM_PLAYERS,
            min_utility=-utility,
            max_utility=utility,
            utility_sum=0.0,
            # the shuffle; per discard round 4 mus, 4 descarte and at most one reshuffle
            # (24 cards); the last Mus round; the lances
            max_game_length=40 + limits.max_mus_rounds * (8 + 24) + 4 + 4 * lance,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> MusOpenSpielState:
        return MusOpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> MusObserver:
        return MusObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
            self.mus_rules)


class _Core:
    """The Python side of a state: the engine state, the chance cards placed so far, the
    ids applied, and each player's perfect-recall log.  Pickled as the parameters and the
    ids, rebuilt by replaying them."""

    def __init__(self, params: _Params) -> None:
        self.params = params
        self.codec = ActionCodec()
        self.mus = MusState(params.rules, params.dealer, params.score)
        self.pending: list[int] = []
        self.ids: list[int] = []
        self.log: list[list[str]] = [[], [], [], []]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.params, list(self.ids)))

    def chance_cards(self) -> list[Card]:
        return list(SPANISH_DECK) if self.mus.phase == "shuffle" else list(self.mus.pool)

    def chance_left(self) -> list[int]:
        placed = set(self.pending)
        return sorted(_CARD_INDEX[c] for c in self.chance_cards()
                      if _CARD_INDEX[c] not in placed)

    def apply(self, action: int) -> None:
        mus = self.mus
        hands_before = [list(h) for h in mus.hands]
        if mus.current_player == CHANCE:
            if action not in self.chance_left():
                raise IllegalActionError(f"chance outcome {action} is not a card to place")
            self.pending.append(action)
            self.ids.append(action)
            if len(self.pending) == len(self.chance_cards()):
                mus.apply(Shuffle(tuple(SPANISH_DECK[i] for i in self.pending)))
                self.pending = []
        else:
            seat = mus.current_player
            if action not in self.codec.legal_ids(mus, self.params.limits):
                raise IllegalActionError(
                    f"action id {action} ({self.codec.name(action)}) is not legal now")
            say: Say = self.codec.decode(action, mus)
            mus.apply(say)
            self.ids.append(action)
            for p in range(4):
                word = say.word
                if word.startswith("descarte ") and p != seat:
                    word = f"descarte {len(word.split()) - 1}"
                self.log[p].append(f"{seat}:{word}")
        for p in range(4):
            if mus.hands[p] != hands_before[p] and len(mus.hands[p]) == 4:
                self.log[p].append("h:" + " ".join(str(c) for c in mus.hands[p]))


def _rebuild(params: _Params, ids: list[int]) -> _Core:
    core = _Core(params)
    for a in ids:
        core.apply(a)
    return core


class MusOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A ``python_mus`` state: chance card by card, then a :class:`MusState`."""

    def __init__(self, game: MusGame) -> None:
        super().__init__(game)
        self._core = _Core(game.params_)

    @property
    def mus(self) -> MusState:
        """The engine state (for inspection; do not modify it)."""
        return self._core.mus

    def current_player(self) -> int:
        player = self._core.mus.current_player
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(player)

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        return self._core.codec.legal_ids(self._core.mus, self._core.params.limits)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._core.chance_left()
        p = 1.0 / len(left)
        return [(i, p) for i in left]

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card:{SPANISH_DECK[action]}"
        return self._core.codec.name(action)

    def is_terminal(self) -> bool:
        return bool(self._core.mus.is_terminal())

    def returns(self) -> list[float]:
        mus = self._core.mus
        if not mus.is_terminal():
            return [0.0] * 4
        pts = hand_points(mus)
        diff = float(pts[0] - pts[1])
        return [diff, -diff, diff, -diff]

    def __str__(self) -> str:
        mus = self._core.mus
        lines = [f"phase {mus.phase}, mano {mus.mano}, score {mus.score[0]}:{mus.score[1]}"]
        for seat in range(4):
            lines.append(f"seat {seat}: " + " ".join(str(c) for c in mus.hands[seat]))
        if self._core.pending:
            lines.append("placing: " + " ".join(str(SPANISH_DECK[i])
                                                for i in self._core.pending))
        words = [f"{s}:{a}" for s, a in mus.history if s >= 0]
        lines.append("words: " + " ".join(words))
        return "\n".join(lines)


class MusObserver:
    """Observation tensors and strings, and the information-state string (OpenSpiel's
    PyObserver).  ``private_info`` SINGLE_PLAYER includes the own hand, NONE leaves it
    out; ``ALL_PLAYERS`` is not offered."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None,
                 rules: MusRules) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_mus observes for one player: "
                             "private_info=ALL_PLAYERS is not supported")
        if not iig_obs_type.public_info:
            raise ValueError("python_mus: observations without public information "
                             "are not supported")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = ObservationEncoder(rules)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.split(self.tensor)

    def _view(self, state: MusOpenSpielState, player: int) -> dict[str, Any]:
        v = state._core.mus.view(player)
        if state._core.mus.phase == "shuffle":
            v["hand"] = []
        if not self.private:
            v["hand"] = []
        return v

    def set_from(self, state: MusOpenSpielState, player: int) -> None:
        self.encoder.encode(self._view(state, player), out=self.tensor)

    def string_from(self, state: MusOpenSpielState, player: int) -> str:
        core = state._core
        if self.perfect_recall:
            own = f"{player}:descarte "
            log = core.log[player] if self.private else [
                f"{own}{len(e.split()) - 1}" if e.startswith(own) else e
                for e in core.log[player] if not e.startswith("h:")]
            placed = len(core.pending) if core.mus.phase == "shuffle" else 0
            return f"p{player} placed:{placed} " + " | ".join(log)
        v = self._view(state, player)
        parts = [f"p{player}", str(v["phase"]), f"score:{v['score'][0]}:{v['score'][1]}"]
        if core.mus.phase == "shuffle":
            parts.append(f"placed:{len(core.pending)}")
        if self.private:
            parts.append("hand:" + " ".join(v["hand"]))
        if v.get("lance"):
            parts.append(f"lance:{v['lance']}")
        parts.append("words:" + " ".join(f"{w[0]}:{w[1]}" for w in v["words"][-8:]))
        return " ".join(parts)


if GAME_TYPE.short_name not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, MusGame)
