"""Mulatschak's search bot (``search``): sampled worlds, the tricks played out exactly.

**Card play** (Perfect Information Monte Carlo): the bot deals the cards it cannot see in
``worlds`` ways consistent with its own view
(:func:`~stammtisch.games.mulatschak.bots.sampling.sample_world`: its hand, the cards
played, the suits a seat showed it lacks, Stichzwang's inferences) — never the true
hidden hands — and for each of its legal cards counts exactly, with all hands of that
world open, the tricks its side then takes when the others play against it
(:class:`~stammtisch.games.mulatschak.bots.solver.TrickSolver`, ≤ 5 tricks).  The count is
turned into what the seat is paid (:func:`value`, in units of the multiplier, higher is
better): the bidder ``t`` if ``t ≥ bid`` else −10; a playing non-bidder ``t``, or −5 with
no trick; in a Muli the bidder +10/−10 for five tricks or not, the others (as one side)
+10/−10 for breaking it or not (with ``muli_broken`` ``breaker`` the same reading, an
approximation).  The card with the best mean wins; ties go to the heuristic's card when
it is among the best, else to the first in ``legal_actions()`` order.  The loop (sample,
evaluate, average, choose) is :mod:`stammtisch.bots.pimc`; here is its evaluator.

**Stichansage, Trumpf, Mitgehen, Kartentausch, nimm/weg/ab:** the heuristic bot's rules
(:mod:`~stammtisch.games.mulatschak.bots.heuristic`).  A fast play-out of the bidding
options over sampled worlds was not better than the heuristic's estimate in the time
there was (the exchange to come changes the hands too much), so these decisions fall
back to it.  Out-of-turn Muli: never said.

Deterministic: the worlds are drawn from the ``rng`` the bot is given, and the search is
limited by node counts (``node_budget``), not by time.
"""

from __future__ import annotations

from dataclasses import dataclass

from stammtisch.bots import pimc
from stammtisch.cards import Card
from stammtisch.engine.core import Action, GameState, Rng
from stammtisch.games.mulatschak.bots.heuristic import HeuristicBot, card_value
from stammtisch.games.mulatschak.bots.rollout import rollout_values
from stammtisch.games.mulatschak.bots.sampling import INDEX, Observation, observe, sample_world
from stammtisch.games.mulatschak.bots.solver import NodeLimit, TrickSolver
from stammtisch.games.mulatschak.state import MulatschakState, canonical

__all__ = ["SearchBot", "card_values", "value"]


@dataclass(frozen=True)
class SearchSettings:
    #: worlds per card decision
    worlds: int = 24
    #: solver nodes one decision may use; no further worlds are solved past it
    node_budget: int = 60_000
    #: worlds per decision before the card play (bidding, trump, mitgehen, exchange),
    #: each option played out by the heuristic bot; 0: the heuristic's word
    rollout_worlds: int = 0


def value(obs: Observation, side_tricks: int, muli_broken: str = "all") -> float:
    """What the seat is paid (−delta / m) when its side ends with ``side_tricks``."""
    bid, holder, me = obs.bid, obs.holder, obs.seat
    if bid == 5:
        if holder == me:
            return 10.0 if side_tricks == 5 else -10.0
        return 10.0 if side_tricks >= 1 else -10.0
    if holder == me:
        return float(side_tricks) if side_tricks >= bid else -10.0
    return float(side_tricks) if side_tricks >= 1 else -5.0


def side_of(obs: Observation) -> int:
    """The seats counted together: the seat itself, in a Muli all non-bidders."""
    if obs.bid == 5 and obs.holder != obs.seat:
        return sum(1 << s for s in obs.playing if s != obs.holder)
    return 1 << obs.seat


def card_values(state: MulatschakState, seat: int, rng: Rng,
                settings: SearchSettings | None = None) -> dict[Card, float]:
    """The mean value (:func:`value`) of each legal card of ``seat`` over sampled worlds."""
    settings = settings or SearchSettings()
    legal = [a for a in state.legal_actions() if isinstance(a, Card)]
    obs = observe(state, seat)
    sampled = pimc.sample(lambda r: sample_world(obs, r), rng, settings.worlds)
    got = pimc.average(legal, sampled, _CardPlay(obs, legal, settings.node_budget,
                                                 state.rules.stichzwang))
    return {} if got is None else {e.action: e.utility for e in got}


class _CardPlay:
    """The evaluator of a card decision (:class:`~stammtisch.bots.pimc.Evaluator`): the
    tricks the seat's side takes after each legal card, as :func:`value`, counted exactly
    by one :class:`TrickSolver` whose node budget the worlds share."""

    def __init__(self, obs: Observation, legal: list[Card], budget: int,
                 stichzwang: bool) -> None:
        assert obs.trump is not None and obs.leader is not None
        self.obs, self.legal, self.budget = obs, legal, budget
        self.side = side_of(obs)
        self.done = sum(1 for w in obs.trick_winners if (self.side >> w) & 1)
        self.solver = TrickSolver(obs.trump, stichzwang, node_limit=budget)
        self.trick = [INDEX[c] for _, c in obs.trick]
        self.used = 0
        self.stop = False

    def exhausted(self, weight: float) -> bool:
        return self.stop

    def evaluate(self, world: dict[int, list[Card]]) -> list[tuple[float, float]] | None:
        obs, solver = self.obs, self.solver
        assert obs.leader is not None
        hands = {s: sum(1 << INDEX[c] for c in cs) for s, cs in world.items()}
        solver.node_limit = self.budget - self.used
        try:
            counts = solver.solve_cards(obs.playing, hands, obs.leader, self.trick, self.side,
                                        obs.seat, [INDEX[c] for c in self.legal])
        except NodeLimit:
            self.stop = True
            return None
        finally:
            self.used += solver.nodes
        self.stop = self.used >= self.budget
        return [(value(obs, self.done + counts[INDEX[c]]), 0.0) for c in self.legal]


class SearchBot:
    """PIMC card play over exact trick play-outs; the heuristic elsewhere."""

    name = "search"

    def __init__(self, settings: SearchSettings | None = None) -> None:
        self.settings = settings or SearchSettings()
        self.heuristic = HeuristicBot()

    def choose(self, state: GameState, rng: Rng) -> Action:
        assert isinstance(state, MulatschakState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.phase in _ROLLOUT_PHASES and self.settings.rollout_worlds:
            return self._rollout(state, rng)
        if state.phase != "play":
            return self.heuristic.choose(state, rng)
        seat = state.current_player
        values = card_values(state, seat, rng, self.settings)
        fallback = self.heuristic.choose(state, rng)
        if not values:
            return fallback
        estimates: list[pimc.Estimate[Action]] = [pimc.Estimate(c, v, 0.0)
                                                  for c, v in values.items()]
        return pimc.best(estimates, tolerance=1e-9, prefer=lambda: fallback)

    def _rollout(self, state: MulatschakState, rng: Rng) -> Action:
        seat = state.current_player
        mine = self.heuristic.choose(state, rng)
        options = _options(state, mine)
        if len(options) == 1:
            return mine
        values = rollout_values(state, seat, options, rng, self.settings.rollout_worlds)
        estimates = [pimc.Estimate(a, -v, 0.0) for a, v in values.items()]
        return pimc.best(estimates, tolerance=1e-9, prefer=lambda: mine)


_ROLLOUT_PHASES = ("bidding", "trump", "mitgehen", "exchange")


def _options(state: MulatschakState, mine: Action) -> list[Action]:
    """The options worth a rollout: the heuristic's word and a few alternatives."""
    words = {str(a): a for a in state.legal_actions()}
    out = [mine]
    phase = state.phase
    if phase in ("trump", "mitgehen"):
        return list(words.values())
    if phase == "bidding":
        alt = ["weiter", "bei mir", str(state.bid + 1) if state.bid < 4 else ""]
    else:
        trump = state.trump
        hand = sorted(state.hands[state.current_player], key=lambda c: card_value(c, trump))
        alt = ["behalte", "sau", "bruecke"]
        alt += ["tausche " + " ".join(str(c) for c in canonical(hand[:k])) for k in (1, 2, 3, 4)]
    for w in alt:
        if w in words and words[w] not in out:
            out.append(words[w])
    return out
