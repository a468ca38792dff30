"""A PettingZoo AEC environment of one Schafkopf hand.

Agents ``"seat_0"`` .. ``"seat_3"`` act in every phase a player acts in: Legen (with
``rules.legen``), the bidding, a Muss-Spiel call, the Hochzeit (answer, and the card the
acceptor gives), Stoßen and the tricks.  The shuffle is resolved inside the environment
with a ``random.Random`` seeded by ``reset(seed=...)``.

Each agent observes ``{"observation": Box(float32), "action_mask": Box(int8)}``: the tensor
of :class:`~stammtisch.games.schafkopf.research.encoding.ObservationEncoder` built from
``state.view(seat)`` and the legal action ids (all zero unless the agent is to act).
Actions are the ids of :class:`~stammtisch.games.schafkopf.research.encoding.ActionCodec`.
Rewards are the hand's payments (``result()["payments"]``, in cents, zero-sum), given once
when the hand ends; all agents terminate then (a redeal is a hand with no payments).

>>> env = SchafkopfEnv()
>>> env.reset(seed=3)
>>> env.agent_selection, env.game_state.phase
('seat_1', 'bidding')
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
from stammtisch.games.schafkopf.research.encoding import (
    NUM_ACTIONS,
    ActionCodec,
    ObservationEncoder,
)
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState

__all__ = ["AGENTS", "SchafkopfEnv", "env", "render_text"]

AGENTS: tuple[str, ...] = ("seat_0", "seat_1", "seat_2", "seat_3")


class SchafkopfEnv(AECEnv):  # type: ignore[misc]
    """One Schafkopf hand as a PettingZoo AEC environment.

    ``rules``: a :class:`SchafkopfRules` or a preset name; ``dealer``: the dealer's seat
    (also per hand with ``reset(options={"dealer": k})``); ``perfect_recall``: add the order
    of the played cards to the observation; ``render_mode``: ``None`` or ``"ansi"``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "schafkopf_v0", "is_parallelizable": False}

    def __init__(
        self,
        rules: SchafkopfRules | str | None = None,
        dealer: int = 0,
        *,
        perfect_recall: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(rules, str) or rules is None:
            rules = SchafkopfRules.preset(rules or "standard")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use None or 'ansi'")
        if not 0 <= dealer < 4:
            raise ValueError(f"dealer={dealer!r}: must be a seat 0..3")
        self.rules = rules
        self.dealer = dealer
        self.render_mode = render_mode
        self.codec = ActionCodec(rules)
        self.encoder = ObservationEncoder(perfect_recall=perfect_recall)
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
        self._state: SchafkopfState | None = None
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> SchafkopfState:
        """The current :class:`SchafkopfState` (for inspection; do not modify it)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = self.dealer
        if options and "dealer" in options:
            dealer = int(options["dealer"])
        self._state = SchafkopfState(self.rules, dealer)
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
        if state.current_player == CHANCE:  # pragma: no cover - chance only at the start
            resolve_chance(state, self._rng)
        player = state.current_player
        if player == TERMINAL:
            result = state.result()
            assert result is not None
            self.rewards = {a: float(result["payments"][i]) for i, a in enumerate(AGENTS)}
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
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.game_state)

    def close(self) -> None:
        pass


def render_text(state: SchafkopfState) -> str:
    """A few lines describing the hand (all hands open: this is the table's view)."""
    who = {CHANCE: "chance", TERMINAL: "nobody (hand over)"}.get(
        state.current_player, f"seat_{state.current_player}")
    lines = [f"phase {state.phase}, dealer seat_{state.dealer}, to act: {who}"]
    for seat in range(4):
        lines.append(f"  seat_{seat}: " + " ".join(str(c) for c in
                                                   state.order.sorted(state.hands[seat])))
    if state.bids:
        lines.append("bids: " + ", ".join(f"seat_{s} {w}" for s, w in state.bids))
    if state.contract:
        lines.append(f"contract: {state.contract}"
                     + (f" (declarer seat_{state.declarer})" if state.declarer is not None
                        else "")
                     + (f", Stoß {state.stoss}" if state.stoss else ""))
    t = state.tricks
    if t.current:
        lines.append("trick: " + " ".join(str(c) for c in t.current)
                     + f" (led by seat_{t.leader})")
    lines.append(f"Augen {t.augen}")
    result = state.result()
    if result is not None:
        lines.append(f"payments {result['payments']}")
    return "\n".join(lines)


def env(**kwargs: Any) -> SchafkopfEnv:
    """PettingZoo-style constructor: ``env(rules="standard", render_mode="ansi")``."""
    return SchafkopfEnv(**kwargs)
