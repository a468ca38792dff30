"""The Schafkopf PIMC bot: Perfect Information Monte Carlo over the double-dummy solver.

For a card decision the bot deals the cards it cannot see in ``N`` ways consistent with
what its seat knows (:mod:`stammtisch.games.schafkopf.bots.sampling`: its own hand, the
contract, the tricks, the voids shown, the rules of the called ace), solves each world
with all hands open (:class:`~stammtisch.games.schafkopf.solver.SchafkopfSolver`, the
partner in a Rufspiel being whoever holds the called ace *in that world*) and plays the
card with the best average.  It never reads another seat's hand.  The loop (sample,
merge equal worlds, evaluate, average, choose) is :mod:`stammtisch.bots.pimc`; this module
holds Schafkopf's evaluator and its settings.

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

from dataclasses import dataclass
from typing import Any

from stammtisch.bots import pimc
from stammtisch.bots.base import BotFactory, ConfiguredBot
from stammtisch.bots.sampling import hands_key
from stammtisch.cards import Card
from stammtisch.engine.core import Action, GameState, Rng
from stammtisch.games.schafkopf.bots.heuristic import HeuristicBot
from stammtisch.games.schafkopf.bots.sampling import Observation, World, observe, sample_world
from stammtisch.games.schafkopf.games import game_by_word
from stammtisch.games.schafkopf.solver import NodeLimitExceeded, SchafkopfSolver, rules_of
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


class PimcBot(ConfiguredBot[PimcSettings]):
    """Samples worlds from its own view and solves each double-dummy."""

    default_settings = PIMC_SETTINGS["pimc"]

    def __init__(self, settings: PimcSettings | None = None, **overrides: Any) -> None:
        super().__init__(settings, **overrides)
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

        def heuristic() -> Card:
            obs = observe(state, seat)
            return self._heuristic.card_from(obs, [c for c in actions if isinstance(c, Card)])

        return pimc.best([pimc.Estimate(e.card, e.utility, e.value) for e in estimates],
                         tolerance=1e-9, prefer=heuristic)

    def card_estimates(self, state: SchafkopfState, seat: int, rng: Rng,
                       worlds: int | None = None) -> list[CardEstimate]:
        """Each legal card of ``seat`` with its averages over worlds sampled from the
        seat's view, in ``legal_actions()`` order."""
        if state.phase != "play" or state.current_player != seat:
            raise ValueError("card estimates need the seat to play a card")
        legal = [a for a in state.legal_actions() if isinstance(a, Card)]
        obs = observe(state, seat)
        if worlds is None:
            worlds = self.settings.early_worlds if len(obs.tricks) < 2 else self.settings.worlds
        sampled = pimc.sample(lambda r: sample_world(obs, r), rng, max(1, worlds), hands_key)
        got = pimc.average(legal, sampled, _CardPlay(self.settings, state, obs, legal))
        if got is None:  # every world too hard to solve in budget: no preference
            return [CardEstimate(c, 0.0, 0.0) for c in legal]
        return [CardEstimate(e.action, e.utility, e.value) for e in got]


class _CardPlay:
    """The evaluator of a card decision (:class:`~stammtisch.bots.pimc.Evaluator`): each
    legal card's utility for the seat and the declaring side's exact future value (late
    in the hand; else 0), a world past its node budget left out, no world past the
    decision's."""

    def __init__(self, settings: PimcSettings, state: SchafkopfState, obs: Observation,
                 legal: list[Card]) -> None:
        self.settings, self.obs, self.legal = settings, obs, legal
        g = game_by_word(obs.contract or "")
        assert g is not None and obs.declarer is not None
        self.kind = g.kind
        self.tricks_mode = g.tout or g.kind == "bettel"
        self.muss = bool(state.muss)
        left = len(obs.hand)  # tricks still to play, the current one included
        self.exact = not self.tricks_mode and left <= settings.exact_from
        self.spent = 0

    def exhausted(self, weight: float) -> bool:
        return self.spent > self.settings.decision_nodes and weight > 0

    def evaluate(self, world: World) -> list[tuple[float, float]] | None:
        obs, s, tricks_mode = self.obs, self.settings, self.tricks_mode
        side = _side(obs, world)
        mine = 1.0 if obs.seat in side else -1.0
        taken = _taken(obs, side, tricks_mode)
        solver = SchafkopfSolver(obs.order, world, side, leader=obs.leader, trick=obs.current,
                                 mode="tricks" if tricks_mode else "augen",
                                 rules=rules_of(obs.called, obs.davonlaufen))
        solver.node_limit = s.world_nodes
        try:
            values, reached = _solve_world(solver, obs, world, self.kind, tricks_mode,
                                           self.exact, taken, self.muss)
        except NodeLimitExceeded:
            return None
        finally:
            self.spent += solver.nodes
        if self.exact:
            return [(mine * (_augen_utility(x, self.muss) + s.augen_weight * (x - 60)), float(x))
                    for x in (taken + values[c] for c in self.legal)]
        if tricks_mode:
            won = 0 if self.kind == "bettel" else 1
            return [(mine * (1.0 if reached[c] == won else -1.0), 0.0) for c in self.legal]
        return [(mine * (-1.5, -1.0, 1.0, 1.5)[reached[c]], 0.0) for c in self.legal]


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


def _factory(name: str) -> BotFactory:
    return lambda: PimcBot(PIMC_SETTINGS[name])


PIMC_FACTORIES: dict[str, BotFactory] = {name: _factory(name) for name in PIMC_SETTINGS}


def bench_decisions(name: str = "pimc", positions: int = 100, seed: int = 0,
                    preset: str = "standard") -> dict[str, Any]:
    """Time the bot's card decisions at random points of the card play of hands the
    heuristic bot plays (at least two legal cards; every trick alike)."""
    from stammtisch.bots.timing import stats, time_decisions
    from stammtisch.games.schafkopf.rules import SchafkopfRules

    rules = SchafkopfRules.preset(preset)

    def deal(game: int, rng: Rng) -> SchafkopfState:
        state = SchafkopfState(rules, game % 4)
        state.apply(state.sample_chance(rng))
        return state

    times = time_decisions(PimcBot(PIMC_SETTINGS[name]), HeuristicBot(), deal, positions, seed,
                           32, wanted=lambda s: isinstance(s, SchafkopfState)
                           and s.declarer is not None)
    return {"bot": name, "seed": seed, "rules": preset, **stats(times.cards, 1)}


if __name__ == "__main__":  # pragma: no cover - a timing tool
    from stammtisch.bots.timing import main

    main(bench_decisions, "Time the Schafkopf PIMC bot's cards.", 100)
