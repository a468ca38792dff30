"""One PettingZoo AEC environment for every game with a research encoding (docs/research.md).

``env(game, rules=None, dealer=0, *, perfect_recall=False, render_mode=None, **params)`` is
one deal of ``game``: agents ``seat_0`` … act in every phase a player acts in; chance is
resolved inside with the engine's ``sample_chance`` and a ``random.Random`` seeded by
``reset(seed=...)`` (``options={"dealer": k}`` chooses the dealer); ``params`` are the
game's own.  Observations are ``{"observation": Box(float32), "action_mask": Box(int8)}``
(the mask all zero unless the agent is to act), actions the encoding's ids (an action of
several ids keeps the agent to act), rewards the encoding's returns, once at the end.

>>> e = env("mucken")
>>> e.reset(seed=3)
>>> e.agent_selection, e.game_state.phase
('seat_3', 'cut')
>>> while e.agents:
...     obs, reward, done, trunc, info = e.last()
...     e.step(None if done else e.action_space(e.agent_selection).sample(obs["action_mask"]))
>>> e.game_state.is_terminal()
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from stammtisch.engine.core import TERMINAL, GameState, resolve_chance
from stammtisch.games import registry
from stammtisch.games.base.encoding import describe, encoding_of

__all__ = ["GameEnv", "env"]


class GameEnv(AECEnv):  # type: ignore[misc]
    """One deal of a registered game as a PettingZoo AEC environment (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "stammtisch_v0", "is_parallelizable": False}

    def __init__(self, game: str, rules: Any = None, dealer: int = 0, *,
                 perfect_recall: bool = False, render_mode: str | None = None,
                 **params: Any) -> None:
        super().__init__()
        self.encoding = encoding_of(registry.get(game), rules, **params)
        self.rules = self.encoding.rules
        n = self.encoding.num_players
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use None or 'ansi'")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer={dealer!r}: must be a seat 0..{n - 1}")
        if perfect_recall and self.encoding.information_state_shape is None:
            raise ValueError(f"{game}: perfect-recall observations are not provided")
        self.metadata = {**GameEnv.metadata, "name": f"{game}_v0"}  # type: ignore[misc]
        self.dealer, self.perfect_recall, self.render_mode = dealer, perfect_recall, render_mode
        shape = (self.encoding.information_state_shape if perfect_recall
                 else self.encoding.observation_shape)
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.num_actions,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoding.num_actions)
                              for a in self.possible_agents}
        self._rng = random.Random()
        self._state: GameState | None = None
        self._pending: list[int] = []
        self._start()
        self.agent_selection = self.possible_agents[0]

    def _start(self) -> None:
        agents = self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> Any:
        """The engine state of the deal (for inspection; do not modify it)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = int((options or {}).get("dealer", self.dealer))
        self._state = self.encoding.initial_state(dealer)
        self._pending = []
        resolve_chance(self._state, self._rng)
        self._start()
        self._after_move()
        self._accumulate_rewards()  # a deal may end before anybody acts (Mucken's Sie)

    def _after_move(self) -> None:
        state = self.game_state
        resolve_chance(state, self._rng)
        if state.current_player == TERMINAL:
            returns = self.encoding.returns(state)
            self.rewards = {a: float(returns[i]) for i, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.possible_agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_player]

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for terminated agents")
        state = self.game_state
        ids = [*self._pending, int(action)]
        engine_action = self.encoding.action_of(state, ids)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if engine_action is not None:
            state.apply_as(self.possible_agents.index(agent), engine_action)
        self._pending = [] if engine_action is not None else ids
        self._after_move()
        self._accumulate_rewards()
        if any(self.terminations.values()):
            self._deads_step_first()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self.possible_agents.index(agent)
        state = self.game_state
        to_act = state.current_player == seat
        pending = self._pending if to_act else []
        observation = self.encoding.observation(state, seat, pending,
                                                perfect_recall=self.perfect_recall)
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        if to_act:
            mask[self.encoding.legal_ids(state, pending)] = 1
        return {"observation": observation, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return describe(self.game_state, self.possible_agents, self._pending)

    def close(self) -> None:
        pass


def env(game: str, rules: Any = None, dealer: int = 0, **kwargs: Any) -> GameEnv:
    """PettingZoo-style constructor: ``env("schafkopf", "standard", render_mode="ansi")``."""
    return GameEnv(game, rules, dealer, **kwargs)
