"""The Schafkopf PIMC bot: Perfect Information Monte Carlo over the double-dummy solver.

For a card decision the bot deals the cards it cannot see in ``N`` ways consistent with
what its seat knows (:mod:`stammtisch.games.schafkopf.bots.sampling`: its own hand, the
contract, the tricks, the voids shown, the rules of the called ace), solves each world
with all hands open (:class:`~stammtisch.games.schafkopf.solver.SchafkopfSolver`, the
partner in a Rufspiel being whoever holds the called ace *in that world*) and plays the
card with the best average.  It never reads another seat's hand.

- **Value of a card in a world:** the outcome class of the game for the declaring side
  with best play from then on — lost schneider (≤ 30 Augen), lost, won, won schneider
  (≥ 91); a Muss-Spiel one Augen lower; Bettel: no trick or not; Tout: all tricks or not.
  The classes are found by zero-window probes at the thresholds
  (:meth:`~stammtisch.games.schafkopf.solver.SchafkopfSolver.probe_cards`), much cheaper
  than exact Augen; with four tricks or fewer left the exact Augen are solved and add a
  small tie-break.  Utility for the bot: +1 / +1.5 for a (schneider) win of its side,
  -1 / -1.5 for a loss.
- **Ties** (e.g. every card wins in every world) go to the heuristic bot's card if it is
  among the best, else the first best card in ``legal_actions()`` order.
- **Bidding, Legen, Stoßen, Hochzeit, a Ramsch's play:** the heuristic bot's rules.

Deterministic for a given ``rng``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from stammtisch.bots.base import BotFactory
from stammtisch.cards import Card
from stammtisch.engine.core import Action, GameState, Rng
from stammtisch.games.schafkopf.bots.heuristic import HeuristicBot
from stammtisch.games.schafkopf.bots.sampling import Observation, World, observe, sample_world
from stammtisch.games.schafkopf.games import game_by_word
from stammtisch.games.schafkopf.solver import NodeLimitExceeded, SchafkopfSolver
from stammtisch.games.schafkopf.state import SchafkopfState

__all__ = ["PIMC_FACTORIES", "PIMC_SETTINGS", "CardEstimate", "PimcBot", "PimcSettings"]


@dataclass(frozen=True, slots=True)
class PimcSettings:
    name: str = "pimc"
    #: worlds per card decision
    worlds: int = 12
    #: worlds in the first two tricks (the most expensive solves)
    early_worlds: int = 8
    #: tricks left from which the exact Augen are solved (tie-break)
    exact_from: int = 4
    #: utility per Augen of the declaring side (tie-break with exact values)
    augen_weight: float = 0.002
    #: solver nodes one world may take; a world past it is left out (node counts, not
    #: time: the play stays deterministic)
    world_nodes: int = 250_000
    #: solver nodes of one decision; no further worlds are solved past it
    decision_nodes: int = 1_000_000


PIMC_SETTINGS: dict[str, PimcSettings] = {
    "pimc-fast": PimcSettings("pimc-fast", worlds=8, early_worlds=6),
    "pimc": PimcSettings("pimc"),
    "pimc-strong": PimcSettings("pimc-strong", worlds=40, early_worlds=24),
}


@dataclass
class CardEstimate:
    card: Card
    #: expected utility for the bot's seat
    utility: float
    #: expected final Augen (tricks in Bettel/Tout) of the declaring side, where known
    value: float


class PimcBot:
    """Samples worlds from its own view and solves each double-dummy."""

    def __init__(self, settings: PimcSettings | None = None, **overrides: Any) -> None:
        base = settings if settings is not None else PIMC_SETTINGS["pimc"]
        if overrides:
            base = dataclasses.replace(base, **overrides)
        self.settings = base
        self.name = base.name
        self._heuristic = HeuristicBot()

    def choose(self, state: GameState, rng: Rng) -> Action:
        actions = list(state.legal_actions())
        if not actions:
            raise ValueError("no legal action: the bot is not to act")
        if len(actions) == 1:
            return actions[0]
        if (not isinstance(state, SchafkopfState) or state.phase != "play"
                or state.declarer is None or state.game is None):
            return self._heuristic.choose(state, rng)
        seat = state.current_player
        estimates = self.card_estimates(state, seat, rng)
        best_u = max(e.utility for e in estimates)
        best = [e.card for e in estimates if e.utility >= best_u - 1e-9]
        if len(best) > 1:
            obs = observe(state, seat)
            h = self._heuristic.card_from(obs, [c for c in actions if isinstance(c, Card)])
            if h in best:
                return h
        return best[0]

    def card_estimates(self, state: SchafkopfState, seat: int, rng: Rng,
                       worlds: int | None = None) -> list[CardEstimate]:
        """Each legal card of ``seat`` with its averages over worlds sampled from the
        seat's view, in ``legal_actions()`` order."""
        if state.phase != "play" or state.current_player != seat:
            raise ValueError("card estimates need the seat to play a card")
        legal = [a for a in state.legal_actions() if isinstance(a, Card)]
        obs = observe(state, seat)
        s = self.settings
        if worlds is None:
            worlds = s.early_worlds if len(obs.tricks) < 2 else s.worlds
        g = game_by_word(obs.contract or "")
        assert g is not None and obs.declarer is not None
        tricks_mode = g.tout or g.kind == "bettel"
        muss = bool(state.muss)
        left = len(obs.hand)  # tricks still to play, the current one included
        exact = not tricks_mode and left <= s.exact_from
        sums_u = {c: 0.0 for c in legal}
        sums_v = {c: 0.0 for c in legal}
        total = 0
        spent = 0
        for world, weight in _dedupe([sample_world(obs, rng) for _ in range(max(1, worlds))]):
            side = _side(obs, world)
            mine = 1.0 if seat in side else -1.0
            taken = _taken(obs, side, tricks_mode)
            if spent > s.decision_nodes and total:
                break
            solver = SchafkopfSolver(obs.order, world, side, leader=obs.leader,
                                     trick=obs.current,
                                     mode="tricks" if tricks_mode else "augen",
                                     called=obs.called, davonlaufen=obs.davonlaufen)
            solver.node_limit = s.world_nodes
            try:
                values, reached = self._solve_world(solver, obs, world, g.kind, tricks_mode,
                                                    exact, taken, muss)
            except NodeLimitExceeded:
                spent += solver.nodes
                continue
            spent += solver.nodes
            if exact:
                for c in legal:
                    x = taken + values[c]
                    u = _augen_utility(x, muss) + s.augen_weight * (x - 60)
                    sums_u[c] += weight * mine * u
                    sums_v[c] += weight * x
            else:
                for c in legal:
                    n = reached[c]
                    if tricks_mode:
                        win = (n == 0) if g.kind == "bettel" else (n == 1)
                        u = 1.0 if win else -1.0
                    else:
                        u = (-1.5, -1.0, 1.0, 1.5)[n]
                    sums_u[c] += weight * mine * u
            total += weight
        if not total:  # every world too hard to solve in budget: no preference
            return [CardEstimate(c, 0.0, 0.0) for c in legal]
        return [CardEstimate(c, sums_u[c] / total, sums_v[c] / total) for c in legal]

    @staticmethod
    def _solve_world(solver: SchafkopfSolver, obs: Observation, world: World, kind: str,
                     tricks_mode: bool, exact: bool, taken: int, muss: bool
                     ) -> tuple[dict[Card, int], dict[Card, int]]:
        """(exact future values, or {}), (threshold classes, or {}) of each legal card."""
        if exact:
            return solver.card_values_at(world, obs.leader, obs.current,
                                         gesucht=obs.gesucht), {}
        if tricks_mode:
            levels = [1 - taken] if kind == "bettel" else [8 - taken]
        else:
            base = [30, 60, 90] if muss else [31, 61, 91]
            levels = [t - taken for t in base]
        return {}, solver.probe_cards(world, obs.leader, obs.current, levels,
                                      gesucht=obs.gesucht)


def _augen_utility(x: int, muss: bool) -> float:
    lo, win, hi = (30, 60, 90) if muss else (31, 61, 91)
    if x >= hi:
        return 1.5
    if x >= win:
        return 1.0
    if x >= lo:
        return -1.0
    return -1.5


def _side(obs: Observation, world: World) -> set[int]:
    """The declaring side in ``world`` (the partner of a Rufspiel: the ace's holder)."""
    assert obs.declarer is not None
    side = {obs.declarer}
    if obs.partner is not None:
        side.add(obs.partner)
    elif obs.called is not None:
        holder = next((s for s in range(4) if obs.called in world[s]), None)
        if holder is not None:
            side.add(holder)
    return side


def _taken(obs: Observation, side: set[int], tricks_mode: bool) -> int:
    out = 0
    for lead, cs in obs.tricks:
        w = (lead + obs.order.winner(cs)) % 4
        if w in side:
            out += 1 if tricks_mode else sum(c.augen for c in cs)
    return out


def _dedupe(worlds: Sequence[World]) -> list[tuple[World, int]]:
    seen: dict[tuple[frozenset[Card], ...], int] = {}
    out: list[tuple[World, int]] = []
    for w in worlds:
        key = tuple(frozenset(h) for h in w)
        i = seen.get(key)
        if i is None:
            seen[key] = len(out)
            out.append((w, 1))
        else:
            out[i] = (out[i][0], out[i][1] + 1)
    return out


def _factory(name: str) -> BotFactory:
    return lambda: PimcBot(PIMC_SETTINGS[name])


PIMC_FACTORIES: dict[str, BotFactory] = {name: _factory(name) for name in PIMC_SETTINGS}


def bench_decisions(name: str = "pimc", positions: int = 100, seed: int = 0,
                    preset: str = "standard") -> dict[str, Any]:
    """Time the bot's card decisions at random points of the card play of hands the
    heuristic bot plays (at least two legal cards; every trick alike)."""
    import math
    import random
    import statistics
    import time

    from stammtisch.games.schafkopf.rules import SchafkopfRules

    rng = random.Random(seed)
    rules = SchafkopfRules.preset(preset)
    bot = PimcBot(PIMC_SETTINGS[name])
    helper = HeuristicBot()
    times: list[float] = []
    game = 0
    while len(times) < positions:
        state = SchafkopfState(rules, game % 4)
        state.apply(state.sample_chance(rng))
        stop = rng.randrange(32)
        played = 0
        while not state.is_terminal():
            if state.phase == "play":
                if played == stop:
                    break
                played += 1
            state.apply(helper.choose(state, rng))
        game += 1
        if (state.is_terminal() or state.declarer is None
                or len(state.legal_actions()) < 2):
            continue
        t = time.perf_counter()
        bot.choose(state, random.Random(game))
        times.append(1000 * (time.perf_counter() - t))
    s = sorted(times)
    return {"bot": name, "seed": seed, "rules": preset, "n": len(s),
            "median_ms": round(statistics.median(s), 1),
            "p95_ms": round(s[max(0, math.ceil(0.95 * len(s)) - 1)], 1),
            "mean_ms": round(statistics.fmean(s), 1), "max_ms": round(s[-1], 1)}


if __name__ == "__main__":  # pragma: no cover - a timing tool
    import argparse
    import json

    parser = argparse.ArgumentParser(description="Time the Schafkopf PIMC bot's cards.")
    parser.add_argument("--bot", default="pimc")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    ns = parser.parse_args()
    print(json.dumps(bench_decisions(ns.bot, ns.positions, ns.seed)))
