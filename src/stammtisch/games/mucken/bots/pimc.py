"""The PIMC bot: Perfect Information Monte Carlo over the double-dummy solver.

For every decision the bot deals the cards it cannot see in ``N`` ways consistent with
what its seat knows (:func:`stammtisch.games.mucken.bots.sampling.sample_worlds`: its own hand, the
cards played and by whom, the voids shown, a soft model of the calls heard), solves each
world exactly with all hands open (:mod:`stammtisch.analysis.solver`), and takes the
option with the best average.  It never reads another seat's hand: the worlds are built
from ``state.hands[seat]`` and the public record of the game only.  The loop (sample,
merge equal worlds, evaluate, average, choose) is :mod:`stammtisch.bots.pimc`; this
module holds Mucken's evaluators: the card play's and, for the calls, the probes of
whole deals.

- **Spielen:** for every legal card, the final Augen of its pair with best play from
  then on, in each world (one :class:`~stammtisch.analysis.solver.Solver` per world, with
  the contract's trick order, Stichzwang in a Ramsch, the own pair as the side).  The
  Augen are turned into the game's score for the pair (win/lose, schneider, schwarz,
  Kontra — :func:`~stammtisch.games.mucken.analysis.game_outcome`; the minimax of a
  score that rises with the Augen is the score of the minimax Augen) and averaged, plus
  a small weight per Augen that breaks ties.  A Ramsch is a misère (fewest Augen wins):
  it is solved with :class:`~stammtisch.games.mucken.analysis.SplitSolver`, the own
  pair minimising its Augen.  A Pflichtmuck counts one point for more than 60 Augen.
- **Ansagen:** for each game it may call, the expected score with itself as declarer
  over sampled deals (solve the whole deal double-dummy in the game's order, score it
  with :func:`~stammtisch.games.mucken.scoring.score_game`; schwarz needs every trick,
  checked in the tricks mode).  Double-dummy flatters the declarers (they play as if they
  saw every card), so their Augen are reduced by ``declarer_bias`` and a lost call counts
  ``1 + kontra_risk`` times (a lost game tends to come with a Kontra) — both calibrated
  in duplicate matches (docs/bots.md).  "Weiter" is valued as the game that would be
  played without this call: the standing bid (with its holder as declarer; against us if
  the other pair holds it), else the no-game rule (Pflichtmuck by the same double-dummy
  solve, a Ramsch by the misère solver, 0 for Einwerfen and a Muss-Spiel).  It calls the
  best game whose expectation beats "weiter" by ``call_margin``; in a Muss-Spiel the
  best game.  Each world is searched only until its score is certain (zero-window probes
  at the score's steps, see :class:`_Probe`).
- **Kontra (Re, Sup, Hirsch):** the expected score for its pair with and without the
  doubling over sampled deals (the announced game solved with the declarer as such, the
  same ``declarer_bias``); it doubles when the expectation with the doubling is positive
  and beats the one without by ``kontra_margin``.
- **Abheben:** a uniformly random legal cut (one ``rng.randrange``, as the other bots).

Everything is deterministic for a given ``rng``: the worlds come from it, the solvers
are deterministic, and ties go to the first option in ``legal_actions()`` order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from stammtisch.analysis.solver import Solver
from stammtisch.bots import pimc
from stammtisch.bots.base import ConfiguredBot, settled
from stammtisch.bots.sampling import dedupe, hands_key
from stammtisch.cards import Card
from stammtisch.engine.core import CHANCE, Action, GameState, Rng, Say
from stammtisch.engine.tricks import TrickOrder
from stammtisch.games.mucken.analysis import SplitSolver, game_outcome, guess_tricks
from stammtisch.games.mucken.bots.sampling import World, WorldSampler, played_cards, sample_worlds
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.rules import DOUBLING_WORDS, Bid, MuckenRules
from stammtisch.games.mucken.state import MuckenState

__all__ = ["PIMC_FACTORIES", "PIMC_SETTINGS", "PimcBot", "PimcSettings"]


@dataclass(frozen=True, slots=True)
class PimcSettings:
    """How hard the bot thinks (worlds per decision) and its calling thresholds."""

    name: str = "pimc"
    #: worlds per card decision
    worlds: int = 20
    #: worlds per card decision in the first trick (the most expensive solves)
    first_trick_worlds: int = 12
    #: worlds per bidding or doubling decision
    bid_worlds: int = 16
    #: worlds for a Ramsch (the misère solver is slower)
    ramsch_worlds: int = 6
    #: score points per Augen, added to the expected score to break ties
    augen_weight: float = 0.01
    #: expected points a call must gain over "weiter"
    call_margin: float = 0.25
    #: Augen taken from the declarers' double-dummy result when judging a game (calls,
    #: Kontra): at the table nobody sees the cards, and that costs the declarers more
    declarer_bias: float = 6.0
    #: a call's lost games count this much more (the other pair gives Kontra when it
    #: holds the cards for it)
    kontra_risk: float = 1.0
    #: expected points a Kontra (Re, …) must gain over not doubling
    kontra_margin: float = 0.5


PIMC_SETTINGS: dict[str, PimcSettings] = {
    "pimc-fast": PimcSettings("pimc-fast", worlds=8, first_trick_worlds=6, bid_worlds=8,
                              ramsch_worlds=3),
    "pimc": PimcSettings("pimc"),
    "pimc-strong": PimcSettings("pimc-strong", worlds=48, first_trick_worlds=32, bid_worlds=32,
                                ramsch_worlds=12),
}


@dataclass
class CardEstimate:
    """The average over the sampled worlds for one legal card."""

    card: Card
    #: expected score for the bot's pair (plus the Augen tie-break)
    utility: float
    #: expected final Augen of the bot's pair
    augen: float


class PimcBot(ConfiguredBot[PimcSettings]):
    """Samples worlds from its own view and solves each double-dummy."""

    default_settings = PIMC_SETTINGS["pimc"]

    # -- the bot interface -------------------------------------------------------------
    def choose(self, state: GameState, rng: Rng) -> Action:
        if (forced := settled(state, rng, MuckenState)) is not None:
            return forced
        assert isinstance(state, MuckenState)
        phase, seat = state.phase, state.current_player
        if phase == "play":
            return self.best_card(state, seat, rng)
        decide = {"bidding": self._bid, "muss": self._bid, "doubling": self._double}.get(phase)
        actions = state.legal_actions()
        if decide is not None:
            return decide(state, seat, rng, actions)
        return actions[rng.randrange(len(actions))]

    # -- card play -----------------------------------------------------------------------
    def best_card(self, state: MuckenState, seat: int, rng: Rng) -> Card:
        estimates = self.card_estimates(state, seat, rng)
        return pimc.best([pimc.Estimate(e.card, e.utility, e.augen) for e in estimates],
                         by_value=True)

    def card_estimates(self, state: MuckenState, seat: int, rng: Rng,
                       worlds: int | None = None) -> list[CardEstimate]:
        """Each legal card of ``seat`` (to play) with its averages over sampled worlds,
        in ``legal_actions()`` order.  Uses only what ``seat`` knows."""
        if state.phase != "play" or state.current_player != seat:
            raise ValueError("card estimates need the seat to play a card")
        legal = [a for a in state.legal_actions() if isinstance(a, Card)]
        s = self.settings
        if worlds is None:
            if state.contract == "ramsch":
                worlds = s.ramsch_worlds
            elif not state.tricks.tricks:
                worlds = s.first_trick_worlds
            else:
                worlds = s.worlds
        if len(legal) == 1:
            return [CardEstimate(legal[0], 0.0, float(state.pair_augen()[seat % 2]))]
        sampled = pimc.sample(WorldSampler(state, seat), rng, max(1, worlds), hands_key)
        got = pimc.average(legal, sampled, _CardPlay(state, seat, legal, s.augen_weight))
        assert got is not None  # every world is solved
        return [CardEstimate(e.action, e.utility, e.value) for e in got]

    # -- Ansagen ------------------------------------------------------------------------
    def _bid(self, state: MuckenState, seat: int, rng: Rng,
             actions: Sequence[Action]) -> Action:
        rules = state.rules
        s = self.settings
        says = [a for a in actions if isinstance(a, Say)]
        mp = seat % 2
        worlds = sample_worlds(state, seat, rng, max(1, s.bid_worlds))
        dd = _DealValues(state, worlds)
        forced = state.phase == "muss"
        weiter: Say | None = None
        ramsch: Say | None = None
        best: tuple[float, Say] | None = None
        for a in says:
            if a.word == "weiter":
                weiter = a
                continue
            if a.word == "ramsch":
                ramsch = a
                continue
            bid = rules.bid_by_name(a.word)
            if bid is None:
                continue
            ev = dd.bid_value(bid, mp, mp, forced=forced, bias=s.declarer_bias,
                              loss_factor=1.0 + (s.kontra_risk if self._can_double(state)
                                                 else 0.0))
            if best is None or ev > best[0]:
                best = (ev, a)
        if weiter is None:  # Muss-Spiel: the best game
            return best[1] if best is not None else says[0]
        base = self._weiter_value(state, seat, dd, rng)
        choice: Say = weiter
        if best is not None and best[0] > base + s.call_margin:
            choice = best[1]
            base = best[0]
        if ramsch is not None and choice is weiter:
            ev = dd.ramsch_value(mp, s.ramsch_worlds)
            if ev > base + s.call_margin:
                choice = ramsch
        return choice

    @staticmethod
    def _can_double(state: MuckenState) -> bool:
        return state.rules.doublings > 0

    def _weiter_value(self, state: MuckenState, seat: int, dd: _DealValues, rng: Rng) -> float:
        """Expected score for the seat's pair if it says "weiter": the standing bid is
        played, or (no bid yet) the no-game rule's game."""
        mp = seat % 2
        if state.bid is not None and state.holder is not None:
            return dd.bid_value(state.bid, state.holder % 2, mp, forced=False,
                                bias=self.settings.declarer_bias)
        no_game = state.rules.no_game
        if no_game == "pflichtmuck":
            return dd.pflichtmuck_value(mp)
        if no_game == "ramsch":
            return dd.ramsch_value(mp, self.settings.ramsch_worlds)
        return 0.0

    # -- Kontra, Re, Sup, Hirsch ----------------------------------------------------------
    def _double(self, state: MuckenState, seat: int, rng: Rng,
                actions: Sequence[Action]) -> Action:
        word = next((a for a in actions if isinstance(a, Say) and a.word != "gut"), None)
        gut = next((a for a in actions if isinstance(a, Say) and a.word == "gut"), None)
        if word is None or gut is None:
            return actions[0]
        bid = state.bid
        holder = state.holder
        if bid is None or holder is None:
            return gut
        assert isinstance(word, Say)
        mp = seat % 2
        worlds = sample_worlds(state, seat, rng, max(1, self.settings.bid_worlds))
        dd = _DealValues(state, worlds)
        d = state.doublings
        assert DOUBLING_WORDS[d] == word.word
        bias = self.settings.declarer_bias
        without = dd.bid_value(bid, holder % 2, mp, forced=state.forced, doublings=d, bias=bias)
        with_ = dd.bid_value(bid, holder % 2, mp, forced=state.forced, doublings=d + 1,
                             bias=bias)
        if with_ > 0 and with_ > without + self.settings.kontra_margin:
            return word
        return gut


class _CardPlay:
    """The evaluator of a card decision: each legal card's score for the seat's pair
    (plus the Augen tie-break) and the pair's final Augen, with best play from then on
    (:class:`~stammtisch.bots.pimc.Evaluator`)."""

    def __init__(self, state: MuckenState, seat: int, legal: list[Card],
                 augen_weight: float) -> None:
        self.state, self.legal, self.augen_weight = state, legal, augen_weight
        self.mp = mp = seat % 2
        self.side = {mp, mp + 2}
        self.ramsch = state.contract == "ramsch"
        self.must = self.ramsch and state.rules.ramsch_stichzwang
        self.leader = state.tricks.leader
        self.trick = list(state.tricks.current)
        self.taken = state.pair_augen()[mp]
        self.tables: dict[int | None, list[float]] = {}

    def exhausted(self, weight: float) -> bool:
        return False

    def evaluate(self, world: World) -> list[tuple[float, float]]:
        state, leader, trick = self.state, self.leader, self.trick
        values: dict[Card, int]
        if self.ramsch:
            misere = SplitSolver(state.order, world, count_side=self.side,
                                 max_side={1 - self.mp, 3 - self.mp}, leader=leader,
                                 trick=trick, must_trump=self.must)
            values = misere.card_values(world, leader, trick)
        else:
            solver = Solver(state.order, world, self.side, leader=leader, trick=trick,
                            must_trump=self.must)
            values = solver.card_values(world, leader, trick)
        tie = _tie_loser(state, world)
        table = self.tables.get(tie)
        if table is None:
            table = self.tables[tie] = self._utility(tie)
        taken = self.taken
        return [(table[taken + values[c]], float(taken + values[c])) for c in self.legal]

    def _utility(self, tie_loser: int | None) -> list[float]:
        """Score for the pair by its final Augen 0..120 in the game being played (plus
        the Augen tie-break)."""
        state, mp = self.state, self.mp
        total = _total_augen(state)
        known = state.pair_tricks()
        declarer = state.declarer
        w = self.augen_weight
        out: list[float] = []
        for v in range(total + 1):
            augen = [0, 0]
            augen[mp] = v
            augen[1 - mp] = total - v
            o = game_outcome(state.rules, state.contract,
                             None if declarer is None else declarer % 2, augen,
                             guess_tricks(augen, known), doublings=state.doublings,
                             forced=state.forced, tie_loser=tie_loser)
            u = _points(o.winner, o.score, mp)
            out.append(u + (-w * v if self.ramsch else w * v))
        return out


# -- helpers -------------------------------------------------------------------------------
def _points(winner: int | None, score: int, pair: int) -> float:
    if winner is None:
        return 0.0
    return float(score if winner == pair else -score)


def _total_augen(state: MuckenState) -> int:
    return sum(c.augen for c in state.deck)


def _tie_loser(state: MuckenState, world: World) -> int | None:
    """The pair holding the tie card in ``world`` (only asked for a Pflichtmuck whose
    60:60 goes against the card's holder; else None)."""
    if state.contract not in ("pflichtmuck", ""):
        return None
    holder = _world_tie_loser(state.rules, world)
    if holder is not None or state.rules.pflichtmuck_tie != "card_holder_loses":
        return holder
    tie = Card.parse(state.rules.tie_card)
    if tie in played_cards(state):
        for seat, action in state.history:
            if action == tie:
                return seat % 2
    return None


class _Probe:
    """One world in one trick order: bounds ``[lo, hi]`` of pair 0's double-dummy Augen,
    narrowed only as far as a question needs it, by zero-window searches of one
    :class:`~stammtisch.analysis.solver.Solver` (its table is shared by the probes)."""

    __slots__ = ("hi", "leader", "lo", "remaining", "solver")

    def __init__(self, order: TrickOrder, world: World, leader: int, total: int) -> None:
        self.solver = Solver(order, world, {0, 2}, leader=leader)
        self.leader = leader
        self.remaining, _ = self.solver.position(world, leader)
        self.lo = 0
        self.hi = total

    def at_least(self, t: int) -> bool:
        """Whether pair 0 takes at least ``t`` Augen (fail-soft bounds narrow both ends)."""
        if self.lo >= t:
            return True
        if self.hi < t:
            return False
        g = self.solver.bound(self.remaining, self.leader, [], t)
        if g >= t:
            self.lo = max(self.lo, g)
            return True
        self.hi = min(self.hi, g)
        return False

    def settle(self, table: Sequence[float]) -> None:
        """Narrow the bounds until ``table`` (indexed by pair 0's Augen) is constant on
        them: then ``table[lo]`` is the value of the exact result."""
        while True:
            lo, hi = self.lo, self.hi
            first = table[lo]
            t = next((v for v in range(lo + 1, hi + 1) if table[v] != first), None)
            if t is None:
                return
            self.at_least(t)


class _DealValues:
    """Double-dummy results of whole deals (the worlds of one bidding or doubling
    decision), per trick order: pair 0's Augen with best play by both pairs (the other
    pair's are what is left of the 120).  Scores are step functions of those Augen, so
    each world is searched only until its score is certain (:class:`_Probe`)."""

    def __init__(self, state: MuckenState, worlds: list[World]) -> None:
        self.state = state
        self.rules: MuckenRules = state.rules
        self.worlds = dedupe(worlds, hands_key)
        self.leader = state.leader
        self.total = _total_augen(state)
        self._probes: dict[str, list[_Probe]] = {}
        self._tricks: dict[tuple[str, int], list[int | None]] = {}
        self._tables: dict[tuple[Any, ...], list[float]] = {}

    def _order(self, bid: Bid | None) -> TrickOrder:
        if bid is None:
            return trick_order("muck", self.rules.deck)
        return trick_order(bid.kind, self.rules.deck, bid.suit)

    def probes(self, order: TrickOrder) -> list[_Probe]:
        got = self._probes.get(order.name)
        if got is None:
            got = self._probes[order.name] = [_Probe(order, w, self.leader, self.total)
                                              for w, _ in self.worlds]
        return got

    def all_tricks(self, order: TrickOrder, pair: int, i: int) -> bool:
        """Whether ``pair`` can take every trick in world ``i`` (only asked when it takes
        all the Augen)."""
        key = (order.name, pair)
        cache = self._tricks.setdefault(key, [None] * len(self.worlds))
        got = cache[i]
        if got is None:
            world = self.worlds[i][0]
            solver = Solver(order, world, {pair, pair + 2}, leader=self.leader, mode="tricks")
            got = cache[i] = solver.value(world, self.leader).value
        return got == self.rules.max_tricks

    def _bid_points(self, bid: Bid, declarer_pair: int, pair: int, a0: int, *, forced: bool,
                    doublings: int, bias: float, loss_factor: float,
                    nine_trick: bool = False) -> float:
        augen = [a0, self.total - a0]
        tricks = guess_tricks(augen)
        if nine_trick:  # all Augen, but a trick (of four Neuner) went to the others
            tricks[0 if a0 == 0 else 1] = 1
        shift = round(bias)
        if shift and tricks[1 - declarer_pair]:
            # the bias moves Augen to the defence (never below zero, nor a new trick)
            d = min(shift, augen[declarer_pair])
            augen[declarer_pair] -= d
            augen[1 - declarer_pair] += d
        o = game_outcome(self.rules, bid.name, declarer_pair, augen, tricks,
                         doublings=doublings, forced=forced)
        points = _points(o.winner, o.score, pair)
        if o.winner is not None and o.winner != declarer_pair:
            points *= loss_factor
        return points

    def bid_value(self, bid: Bid, declarer_pair: int, pair: int, *, forced: bool,
                  doublings: int = 0, bias: float = 0.0, loss_factor: float = 1.0) -> float:
        """Expected score for ``pair`` when ``bid`` is played by ``declarer_pair``.

        ``bias``: Augen taken from the declarers' double-dummy result (a declarer with
        all cards open does better than at the table); ``loss_factor``: weight of a
        loss of the declarer pair (a lost game often comes with a Kontra)."""
        order = self._order(bid)
        kw: dict[str, Any] = {"forced": forced, "doublings": doublings, "bias": bias,
                              "loss_factor": loss_factor}
        key = (bid.name, declarer_pair, pair, forced, doublings, bias, loss_factor)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = [
                self._bid_points(bid, declarer_pair, pair, a0, **kw)
                for a0 in range(self.total + 1)]
        probes = self.probes(order)

        def points(i: int, world: World) -> float:
            probe = probes[i]
            probe.settle(table)
            if probe.lo == probe.hi and probe.lo in (0, self.total):
                p = 0 if probe.lo == self.total else 1
                if not self.all_tricks(order, p, i):
                    return self._bid_points(bid, declarer_pair, pair, probe.lo,
                                            nine_trick=True, **kw)
            return table[probe.lo]

        return self._mean(points)

    def pflichtmuck_value(self, pair: int) -> float:
        """Expected score for ``pair`` in a Pflichtmuck (Muck order, no declarer)."""
        probes = self.probes(self._order(None))

        def points(i: int, world: World) -> float:
            tie = _world_tie_loser(self.rules, world)
            key = ("pflichtmuck", pair, tie)
            table = self._tables.get(key)
            if table is None:
                table = self._tables[key] = []
                for a0 in range(self.total + 1):
                    augen = [a0, self.total - a0]
                    o = game_outcome(self.rules, "pflichtmuck", None, augen,
                                     guess_tricks(augen), tie_loser=tie)
                    table.append(_points(o.winner, o.score, pair))
            probes[i].settle(table)
            return table[probes[i].lo]

        return self._mean(points)

    def ramsch_value(self, pair: int, count: int) -> float:
        """Expected score for ``pair`` in a Ramsch (the first ``count`` worlds; slow)."""
        order = self._order(None)
        must = self.rules.ramsch_stichzwang

        def points(i: int, world: World) -> float:
            solver = SplitSolver(order, world, count_side={0, 2}, max_side={1, 3},
                                 leader=self.leader, must_trump=must)
            a0 = solver.value(world, self.leader)
            augen = [a0, self.total - a0]
            o = game_outcome(self.rules, "ramsch", None, augen, guess_tricks(augen))
            return _points(o.winner, o.score, pair)

        return self._mean(points, max(1, count))

    def _mean(self, value: Callable[[int, World], float], count: int | None = None) -> float:
        """The weighted mean of ``value(i, world)`` over the (first ``count``) worlds."""
        worlds = [((i, w), n) for i, (w, n) in enumerate(self.worlds[:count])]
        got = pimc.weighted_mean(worlds, lambda iw: value(*iw))
        assert got is not None
        return got


def _world_tie_loser(rules: MuckenRules, world: World) -> int | None:
    if rules.pflichtmuck_tie != "card_holder_loses":
        return None
    tie = Card.parse(rules.tie_card)
    for seat, hand in enumerate(world):
        if tie in hand:
            return seat % 2
    return None


def _factory(name: str) -> Any:
    return lambda: PimcBot(PIMC_SETTINGS[name])


#: the PIMC bots by name (offered through Mucken's game description)
PIMC_FACTORIES: dict[str, Any] = {name: _factory(name) for name in PIMC_SETTINGS}


# -- timing ----------------------------------------------------------------------------------
def bench_decisions(name: str = "pimc", positions: int = 200, seed: int = 0,
                    rules: MuckenRules | None = None) -> dict[str, Any]:
    """Wall time of the bot's decisions on random positions: card decisions (a random
    point of the card play of a game the heuristic bot plays, the bot to choose among at
    least two cards) and first calls of the bidding.  Median, p95 (nearest rank), mean,
    max in milliseconds."""
    from stammtisch.bots.timing import stats, time_decisions
    from stammtisch.games.mucken.bots.heuristic import HeuristicBot

    rules = rules if rules is not None else MuckenRules.preset("seefest")

    def deal(game: int, rng: Rng) -> MuckenState:
        state = MuckenState(rules, game % 4)
        while state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        return state

    times = time_decisions(PimcBot(PIMC_SETTINGS[name]), HeuristicBot(), deal, positions, seed,
                           rules.deck_size, call_phase="bidding")
    return {"bot": name, "seed": seed, "rules": rules.name, "cards": stats(times.cards),
            "bidding": stats(times.calls)}


if __name__ == "__main__":  # pragma: no cover - a timing tool
    from stammtisch.bots.timing import main

    main(bench_decisions, "Time the PIMC bot's decisions.", 200)
