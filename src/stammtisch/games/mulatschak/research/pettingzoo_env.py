"""A PettingZoo AEC environment of one Mulatschak hand for 2–6 players.

Agents ``"seat_0"`` .. ``"seat_{n-1}"`` (``players=n``, default 4) act in every phase a
player acts in: Abheben/Klopfen, the Stichansage, the trump, Mitgehen, the Kartentausch
(card sets chosen card by card, see :mod:`.encoding`), ``nimm``/``weg``/``ab`` and the
tricks.  **A Muli out of turn is not offered** (only ``muli`` in turn).  The shuffle is
resolved inside the environment with a ``random.Random`` seeded by ``reset(seed=...)``;
every hand starts at 21 points each (``scores`` in the constructor changes that).

Each agent observes ``{"observation": Box(float32), "action_mask": Box(int8)}``: the
tensor of :class:`~stammtisch.games.mulatschak.research.encoding.ObservationEncoder` and
the legal action ids (all zero unless the agent is to act).  Rewards are **minus** the
hand's score change (``-result()["delta"]``: Mulatschak scores go down, so a higher
reward is better), given once when the hand ends; all agents terminate then.

>>> env = MulatschakEnv(players=3)
>>> env.reset(seed=3)
>>> env.agent_selection, env.game_state.phase
('seat_2', 'cut')
>>> while env.agents:
...     obs, reward, done, trunc, info = env.last()
...     env.step(None if done else env.action_space(env.agent_selection).sample(
...         obs["action_mask"]))
>>> env.game_state.is_terminal()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from stammtisch.engine.core import TERMINAL, resolve_chance
from stammtisch.games.mulatschak.research.encoding import (
    NUM_ACTIONS,
    Driver,
    ObservationEncoder,
)
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState, canonical

__all__ = ["MulatschakEnv", "env", "render_text"]


class MulatschakEnv(AECEnv):  # type: ignore[misc]
    """One Mulatschak hand as a PettingZoo AEC environment (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "mulatschak_v0", "is_parallelizable": False}

    def __init__(self, rules: MulatschakRules | str | None = None, players: int = 4,
                 dealer: int = 0, *, scores: Sequence[int] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if isinstance(rules, str) or rules is None:
            rules = MulatschakRules.preset(rules or "salzburg")
        if not 2 <= players <= 6:
            raise ValueError(f"players={players!r}: Mulatschak has 2 to 6")
        if not 0 <= dealer < players:
            raise ValueError(f"dealer={dealer!r}: must be a seat 0..{players - 1}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use None or 'ansi'")
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.scores = list(scores) if scores is not None else [21] * players
        if len(self.scores) != players:
            raise ValueError(f"scores={self.scores!r}: one per seat ({players})")
        self.render_mode = render_mode
        self.encoder = ObservationEncoder()
        agents = [f"seat_{s}" for s in range(players)]
        self.possible_agents = list(agents)
        self.agents = list(agents)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            })
            for a in agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in agents}
        self._rng = random.Random()
        self._driver: Driver | None = None
        self.rewards = {a: 0.0 for a in agents}
        self._cumulative_rewards = {a: 0.0 for a in agents}
        self.terminations = {a: False for a in agents}
        self.truncations = {a: False for a in agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        self.agent_selection = agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def driver(self) -> Driver:
        if self._driver is None:
            raise RuntimeError("call reset() first")
        return self._driver

    @property
    def game_state(self) -> MulatschakState:
        """The current :class:`MulatschakState` (for inspection; do not modify it)."""
        return self.driver.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = self.dealer
        if options and "dealer" in options:
            dealer = int(options["dealer"])
        state = MulatschakState(self.rules, dealer, self.scores)
        resolve_chance(state, self._rng)
        self._driver = Driver(state)
        agents = list(self.possible_agents)
        self.agents = agents
        self.rewards = {a: 0.0 for a in agents}
        self._cumulative_rewards = {a: 0.0 for a in agents}
        self.terminations = {a: False for a in agents}
        self.truncations = {a: False for a in agents}
        self.infos = {a: {} for a in agents}
        self._after_move()
        self._accumulate_rewards()

    def _after_move(self) -> None:
        state = self.game_state
        player = state.current_player
        if player == TERMINAL:
            result = state.result()
            assert result is not None
            self.rewards = {a: -float(result["delta"][i])
                            for i, a in enumerate(self.possible_agents)}
            self.terminations = {a: True for a in self.possible_agents}
        else:
            self.agent_selection = self.possible_agents[player]

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for terminated agents")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.driver.apply(int(action))
        self._after_move()
        self._accumulate_rewards()
        if any(self.terminations.values()):
            self._deads_step_first()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self.possible_agents.index(agent)
        driver = self.driver
        observation = self.encoder.encode(driver, seat)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if driver.state.current_player == seat:
            mask[driver.legal_ids()] = 1
        return {"observation": observation, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.game_state)

    def close(self) -> None:
        pass


def render_text(state: MulatschakState) -> str:
    """A few lines describing the hand (all hands open: the table's view)."""
    lines = [f"phase {state.phase}, dealer seat_{state.dealer}, to act: "
             f"{state.current_player}"]
    for seat in range(state.num_seats):
        lines.append(f"  seat_{seat}: " + " ".join(str(c) for c in canonical(state.hands[seat])))
    if state.holder is not None:
        lines.append(f"bid {state.bid} by seat_{state.holder}, trump {state.trump}, "
                     f"home {state.home}")
    if state.trick:
        lines.append("trick: " + " ".join(f"{s}:{c}" for s, c in state.trick))
    result = state.result()
    if result is not None:
        lines.append(f"delta {result['delta']}")
    return "\n".join(lines)


def env(**kwargs: Any) -> MulatschakEnv:
    """PettingZoo-style constructor: ``env(players=5, render_mode="ansi")``."""
    return MulatschakEnv(**kwargs)
