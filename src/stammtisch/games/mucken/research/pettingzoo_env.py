"""A PettingZoo AEC environment of one Mucken game (one deal).

Agents ``"seat_0"`` .. ``"seat_3"`` (pairs seat_0 + seat_2 against seat_1 + seat_3) act in
every phase a player acts in: the Abheben (the cutter chooses a cut, ``geben`` or
``klopfen``; rules with ``cut_max_times=0`` skip it), the bidding, a Muss-Spiel call, the
Kontra/Re/… phase and the tricks.  Chance — the shuffle — is resolved inside the
environment with a ``random.Random`` seeded by ``reset(seed=...)``.

Each agent observes ``{"observation": Box(float32), "action_mask": Box(int8)}``: the tensor
of :class:`~stammtisch.games.mucken.research.encoding.ObservationEncoder` built from
``state.view(seat)`` and the legal action ids (all zero unless the agent is to act).  Actions
are the ids of :class:`~stammtisch.games.mucken.research.encoding.ActionCodec`.  Rewards are
``MuckenState.returns()`` (game points, + for the winning pair, - for the losers), given
once when the game ends; all agents terminate then.  There is no truncation.

>>> env = MuckenEnv()
>>> env.reset(seed=3)
>>> env.agent_selection, env.game_state.phase
('seat_3', 'cut')
>>> while env.agents:
...     obs, reward, done, trunc, info = env.last()
...     env.step(None if done else env.action_space(env.agent_selection).sample(
...         obs["action_mask"]))
>>> env.game_state.is_terminal()
True

A game can end before any player acts only with a Sie dealt by rules with ``sie=True`` and
no Abheben (``cut_max_times=0``; about one deal in 34,000): ``reset`` then leaves every
agent terminated with its reward.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from stammtisch.engine.core import CHANCE, TERMINAL, resolve_chance
from stammtisch.games.mucken.research.encoding import ActionCodec, ObservationEncoder
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState

__all__ = ["MuckenEnv", "env"]

AGENTS: tuple[str, ...] = ("seat_0", "seat_1", "seat_2", "seat_3")


class MuckenEnv(AECEnv):  # type: ignore[misc]
    """One Mucken game as a PettingZoo AEC environment.

    ``rules``: a :class:`MuckenRules` or a preset name; ``dealer``: the dealer's seat (also
    settable per game with ``reset(options={"dealer": k})``); ``perfect_recall``: add the
    order of the played cards to the observation; ``render_mode``: ``None`` or ``"ansi"``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "mucken_v0", "is_parallelizable": False}

    def __init__(
        self,
        rules: MuckenRules | str | None = None,
        dealer: int = 0,
        *,
        perfect_recall: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(rules, str) or rules is None:
            rules = MuckenRules.preset(rules or "seefest")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use None or 'ansi'")
        if not 0 <= dealer < 4:
            raise ValueError(f"dealer={dealer!r}: must be a seat 0..3")
        self.rules = rules
        self.dealer = dealer
        self.render_mode = render_mode
        self.codec = ActionCodec(rules)
        self.encoder = ObservationEncoder(rules, perfect_recall=perfect_recall)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        n = self.codec.num_actions
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
            })
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self._rng = random.Random()
        self._state: MuckenState | None = None
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    # -- spaces ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> MuckenState:
        """The current :class:`MuckenState` (for inspection; do not modify it)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    # -- the game -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = self.dealer
        if options and "dealer" in options:
            dealer = int(options["dealer"])
        self._state = MuckenState(self.rules, dealer)
        resolve_chance(self._state, self._rng)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._after_move()
        self._accumulate_rewards()  # only a Sie ends a game before anybody acts

    def _after_move(self) -> None:
        state = self.game_state
        if state.current_player == CHANCE:  # pragma: no cover - Mucken has chance only first
            resolve_chance(state, self._rng)
        player = state.current_player
        if player == TERMINAL:
            returns = state.returns()
            self.rewards = {a: float(returns[i]) for i, a in enumerate(AGENTS)}
            self.terminations = {a: True for a in AGENTS}
        else:
            self.agent_selection = AGENTS[player]

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for terminated agents")
        state = self.game_state
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.apply_as(AGENTS.index(agent), self.codec.decode(int(action)))
        self._after_move()
        self._accumulate_rewards()
        if any(self.terminations.values()):
            self._deads_step_first()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = AGENTS.index(agent)
        state = self.game_state
        observation = self.encoder.encode(state.view(seat))
        if state.current_player == seat:
            mask = self.codec.legal_mask(state)
        else:
            mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.game_state)

    def close(self) -> None:
        pass


def render_text(state: MuckenState) -> str:
    """A few lines describing the game (all hands open: this is the table's view)."""
    lines = [f"phase {state.phase}, dealer seat_{state.dealer}, "
             f"to act: {_who(state.current_player)}"]
    for seat in range(4):
        hand = " ".join(str(c) for c in state.sort_hand(state.hands[seat]))
        lines.append(f"  seat_{seat}: {hand}")
    if state.calls:
        lines.append("calls: " + ", ".join(f"seat_{s} {w}" for s, w in state.calls))
    if state.contract:
        lines.append(f"contract: {state.contract}"
                     + (f" (declarer seat_{state.declarer})" if state.declarer is not None else "")
                     + (f", doublings {state.doublings}" if state.doublings else ""))
    t = state.tricks
    if t.current:
        lines.append("trick: " + " ".join(str(c) for c in t.current)
                     + f" (led by seat_{t.leader})")
    lines.append(f"tricks {state.pair_tricks()}, Augen {state.pair_augen()}")
    if state.is_terminal():
        lines.append(f"returns {state.returns()}")
    return "\n".join(lines)


def _who(player: int) -> str:
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "nobody (game over)"
    return f"seat_{player}"


def env(**kwargs: Any) -> MuckenEnv:
    """PettingZoo-style constructor: ``env(rules="seefest", render_mode="ansi")``."""
    return MuckenEnv(**kwargs)
