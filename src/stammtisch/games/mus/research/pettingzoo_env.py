"""A PettingZoo AEC environment of one Mus hand.

Agents ``"seat_0"`` .. ``"seat_3"`` (pairs 0+2 and 1+3; play goes counterclockwise, so the
agent after ``seat_s`` is ``seat_{s-1}``) act in every phase a player acts in: the Mus
rounds, the discards and the betting of the lances.  The shuffle and the reshuffles are
resolved inside the environment with a ``random.Random`` seeded by ``reset(seed=...)``.

Each agent observes ``{"observation": Box(float32), "action_mask": Box(int8)}``: the tensor
of :class:`~stammtisch.games.mus.research.encoding.ObservationEncoder` built from
``state.view(seat)`` and the legal action ids (all zero unless the agent is to act),
within the :class:`~stammtisch.games.mus.research.encoding.Limits`.  Rewards come once,
when the hand ends: each agent gets its pair's points of the hand minus the other pair's
(:func:`stammtisch.games.mus.statistics.hand_points`: an accepted ordago credits the winner
with the points it still needed for the set), so they sum to zero.  ``score``
(``[pair 0, pair 1]`` before the hand) may be given per hand with
``reset(options={"score": [a, b], "dealer": k})``.

>>> env = MusEnv()
>>> env.reset(seed=3)
>>> env.agent_selection, env.game_state.phase
('seat_3', 'mus')
>>> while env.agents:
...     obs, reward, done, trunc, info = env.last()
...     env.step(None if done else env.action_space(env.agent_selection).sample(
...         obs["action_mask"]))
>>> env.game_state.is_terminal()
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from stammtisch.engine.core import CHANCE, TERMINAL, resolve_chance
from stammtisch.errors import IllegalActionError
from stammtisch.games.mus.research.encoding import (
    NUM_ACTIONS,
    ActionCodec,
    Limits,
    ObservationEncoder,
)
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.state import MusState
from stammtisch.games.mus.statistics import hand_points

__all__ = ["AGENTS", "MusEnv", "env", "render_text"]

AGENTS: tuple[str, ...] = ("seat_0", "seat_1", "seat_2", "seat_3")


class MusEnv(AECEnv):  # type: ignore[misc]
    """One Mus hand as a PettingZoo AEC environment.

    ``rules``: a :class:`MusRules` or a preset name; ``dealer``: the dealer's seat;
    ``score``: the running score before the hand; ``limits``: the research bounds;
    ``render_mode``: ``None`` or ``"ansi"``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "mus_v0", "is_parallelizable": False}

    def __init__(
        self,
        rules: MusRules | str | None = None,
        dealer: int = 0,
        *,
        score: tuple[int, int] = (0, 0),
        limits: Limits | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(rules, str) or rules is None:
            rules = MusRules.preset(rules or "duples")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use None or 'ansi'")
        if not 0 <= dealer < 4:
            raise ValueError(f"dealer={dealer!r}: must be a seat 0..3")
        self.rules = rules
        self.dealer = dealer
        self.score = self._check_score(score)
        self.limits = limits or Limits()
        self.render_mode = render_mode
        self.codec = ActionCodec()
        self.encoder = ObservationEncoder(rules)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            })
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self._rng = random.Random()
        self._state: MusState | None = None
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def _check_score(self, score: Any) -> tuple[int, int]:
        a, b = (int(x) for x in score)
        if not (0 <= a < self.rules.target and 0 <= b < self.rules.target):
            raise ValueError(f"score={score!r}: each from 0 to target - 1")
        return a, b

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> MusState:
        """The current :class:`MusState` (for inspection; do not modify it)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer, score = self.dealer, self.score
        if options and "dealer" in options:
            dealer = int(options["dealer"])
        if options and "score" in options:
            score = self._check_score(options["score"])
        self._state = MusState(self.rules, dealer, score)
        resolve_chance(self._state, self._rng)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._after_move()
        self._accumulate_rewards()

    def _after_move(self) -> None:
        state = self.game_state
        while state.current_player == CHANCE:  # a reshuffle of the discards
            resolve_chance(state, self._rng)
        if state.current_player == TERMINAL:
            pts = hand_points(state)
            diff = float(pts[0] - pts[1])
            self.rewards = {a: diff if i % 2 == 0 else -diff for i, a in enumerate(AGENTS)}
            self.terminations = {a: True for a in AGENTS}
        else:
            self.agent_selection = AGENTS[state.current_player]

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for terminated agents")
        state = self.game_state
        action = int(action)
        if action not in self.codec.legal_ids(state, self.limits):
            raise IllegalActionError(
                f"{agent}: action id {action} ({self.codec.name(action)}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.apply_as(AGENTS.index(agent), self.codec.decode(action, state))
        self._after_move()
        self._accumulate_rewards()
        if any(self.terminations.values()):
            self._deads_step_first()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = AGENTS.index(agent)
        state = self.game_state
        observation = self.encoder.encode(state.view(seat))
        if state.current_player == seat:
            mask = self.codec.legal_mask(state, self.limits)
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.game_state)

    def close(self) -> None:
        pass


def render_text(state: MusState) -> str:
    """A few lines describing the hand (all hands open: the table's view)."""
    who = {CHANCE: "chance", TERMINAL: "nobody (hand over)"}.get(
        state.current_player, f"seat_{state.current_player}")
    lines = [f"phase {state.phase}, mano seat_{state.mano}, to act: {who}, "
             f"score {state.score[0]}:{state.score[1]}"]
    for seat in range(4):
        lines.append(f"  seat_{seat}: " + " ".join(str(c) for c in state.hands[seat]))
    words = [f"seat_{s} {a}" for s, a in state.history if s >= 0]
    if words:
        lines.append("words: " + ", ".join(words[-8:]))
    result = state.result()
    if result is not None:
        lines.append(f"status {result['status']}")
    return "\n".join(lines)


def env(**kwargs: Any) -> MusEnv:
    """PettingZoo-style constructor: ``env(rules="duples", render_mode="ansi")``."""
    return MusEnv(**kwargs)
