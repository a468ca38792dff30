"""Exact double-dummy solver for Schafkopf (all hands open): its hooks on the one driver.

The value of a position is what the declaring side (declarer and partner; a Solo, Wenz,
Geier or Farbwenz: the declarer alone) takes from here on with best play by all four
seats: Augen for the games decided by Augen, tricks for Bettel ("declarer takes no
trick": value 0) and Tout ("all tricks": value 8).  The solver sees the whole deal, so in
a Rufspiel it knows the partner; the bots give it sampled deals only (see
:mod:`stammtisch.games.schafkopf.bots.sampling`).

>>> from stammtisch.cards import cards
>>> from stammtisch.games.schafkopf.state import game_from_hands
>>> s = game_from_hands([cards("EO GO HO SO EU GU HU SU"), cards("EA E10 EK E9 E8 E7 GA G10"),
...     cards("HA H10 HK H9 H8 H7 GK G9"), cards("SA S10 SK S9 S8 S7 G8 G7")], dealer=3)
>>> for w in ["wenz", "weiter", "weiter", "weiter", "gut", "gut", "gut"]:
...     _ = s.push(w)
>>> r = solve_state(s)
>>> r.value, r.mode
(28, 'augen')

It is the driver of :mod:`stammtisch.analysis.solver` (trick-level search, transposition
table with bounds at trick boundaries, equivalent cards, zero-window probes, move
ordering; see its docstring) with Schafkopf's :class:`~stammtisch.analysis.solver.TrickRules`
(:func:`rules_of`):

- the called card (Rufspiel, Muss-Spiel) in the move generation, mirroring
  ``SchafkopfState._legal_cards``: its holder, while its suit has not been led
  ("gesucht"), leads that suit only with the called card itself, unless he holds four or
  more cards of the suit and the rules allow ``davonlaufen``; when the called suit is led,
  the holder must play the called card; the holder may not discard the called card on
  another suit's trick (unless it is his last card).  Whether the called suit has been led
  is one more bit of the position while the called card is still held, so the
  transposition table keeps the two apart;
- the sure-trump bound (the top run of the trumps left, held by one side, is that side's);
- MTD(f) from a greedy play-out's value, and the quick look at the leads from five tricks
  left only (with four as well: the same nodes, more time).

``tests/schafkopf/test_solver.py`` checks the move generation against
``state.legal_actions()`` on random positions and the values against plain minimax.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stammtisch.analysis.solver import NodeLimitExceeded, Solver, SolveResult, TrickRules
from stammtisch.cards import Card
from stammtisch.engine.tricks import TrickOrder
from stammtisch.games.schafkopf.games import order_for
from stammtisch.games.schafkopf.state import PLAY, SchafkopfState

__all__ = [
    "Contract",
    "NodeLimitExceeded",
    "SchafkopfSolver",
    "SolveResult",
    "card_values",
    "contract_of",
    "rules_of",
    "solve",
    "solve_state",
]


def rules_of(called: Card | None = None, davonlaufen: bool = True) -> TrickRules:
    """Schafkopf's hooks on the driver: the called card, the sure-trump bound, MTD(f) from
    a greedy guess, the quick look at the leads from five tricks left."""
    return TrickRules(called=called, davonlaufen=davonlaufen, sure_trumps=True,
                      probe_fresh_four=False, greedy_guess=True)


@dataclass(frozen=True, slots=True)
class Contract:
    """What the solver needs of a game: trick order, what counts, who declares, the
    called card (Rufspiel) and whether its holder may run away (davonlaufen)."""

    word: str
    order: TrickOrder
    mode: str  # "augen" or "tricks"
    side: frozenset[int]
    called: Card | None = None
    davonlaufen: bool = True
    #: a Muss-Spiel (won with 60 Augen)
    muss: bool = False

    @property
    def total(self) -> int:
        """The value of everything: 120 Augen or 8 tricks."""
        return 120 if self.mode == "augen" else 8

    def solve(self, hands: Sequence[Sequence[Card]], leader: int = 0) -> SolveResult:
        """Exact value of the whole deal ``hands`` from the first card (``bench solver``)."""
        return solve(self, hands, leader)

    def declarers_win(self, value: int) -> bool:
        """Whether the declaring side wins with ``value`` (Augen or tricks of the whole
        game; a Muss-Spiel wins with 60)."""
        if self.mode == "tricks":
            return value == 0 if self.word == "bettel" else value == 8
        return value >= (60 if self.muss else 61)


def contract_of(state: SchafkopfState) -> Contract:
    """The contract of a state in play (a Ramsch has none: ``ValueError``).

    Uses the true partner: only for fully known deals (the solver's deal or a sampled
    world, never a seat's real decision)."""
    g = state.game
    d = state.declarer
    if g is None or d is None:
        raise ValueError(f"no declaring side in contract {state.contract!r}")
    side = {d}
    if state.partner is not None:
        side.add(state.partner)
    mode = "tricks" if g.tout or g.kind == "bettel" else "augen"
    return Contract(g.word, order_for(g.kind, g.suit), mode, frozenset(side), g.called,
                    state.rules.davonlaufen, state.muss)


class SchafkopfSolver(Solver):
    """The solver of one Schafkopf deal (every card keeps its owner; one transposition
    table for every position of the deal): the driver with :func:`rules_of`'s hooks
    (``SchafkopfSolver(order, hands, side, ..., rules=rules_of(called, davonlaufen))``, or
    :meth:`for_contract`); ``gesucht`` of a position: the called suit has been led in a
    finished trick."""

    @classmethod
    def for_contract(cls, contract: Contract, hands: Sequence[Sequence[Card]], *,
                     leader: int = 0, trick: Sequence[Card] = ()) -> SchafkopfSolver:
        return cls(contract.order, hands, contract.side, leader=leader, trick=trick,
                   mode=contract.mode, rules=rules_of(contract.called, contract.davonlaufen))

    def solve_position(self, hands: Sequence[Sequence[Card]], leader: int,
                       trick: Sequence[Card] = (), *, gesucht: bool = False) -> SolveResult:
        """Exact future value of a position of this deal (:meth:`Solver.value`)."""
        return self.value(hands, leader, trick, gesucht=gesucht)

    def card_values_at(self, hands: Sequence[Sequence[Card]], leader: int,
                       trick: Sequence[Card] = (), *, gesucht: bool = False
                       ) -> dict[Card, int]:
        """Future value for the declaring side after each legal card of the mover."""
        return self.card_values(hands, leader, trick, gesucht=gesucht)


def solve(contract: Contract, hands: Sequence[Sequence[Card]], leader: int = 0,
          trick: Sequence[Card] = (), taken: int = 0, *, gesucht: bool = False
          ) -> SolveResult:
    """Exact value for the declaring side of ``contract`` (``taken`` included)."""
    solver = SchafkopfSolver.for_contract(contract, hands, leader=leader, trick=trick)
    r = solver.solve_position(hands, leader, trick, gesucht=gesucht)
    return SolveResult(r.value + taken, r.nodes, r.best_card, contract.mode)


def _taken(state: SchafkopfState, contract: Contract) -> int:
    t = state.tricks
    if contract.mode == "augen":
        return sum(t.augen[s] for s in contract.side)
    return sum(1 for w in t.winners if w in contract.side)


def _state_args(state: SchafkopfState) -> tuple[Contract, list[list[Card]], int, list[Card]]:
    if state.phase != PLAY:
        raise ValueError(f"the game is not in the play phase (phase {state.phase!r})")
    t = state.tricks
    return contract_of(state), [list(h) for h in state.hands], t.leader, list(t.current)


def solve_state(state: SchafkopfState) -> SolveResult:
    """Exact final value (Augen, or tricks in Bettel and Tout) of the declaring side of a
    Schafkopf game in play, with best play by all from here; taken included."""
    contract, hands, leader, trick = _state_args(state)
    return solve(contract, hands, leader, trick, _taken(state, contract),
                 gesucht=state.gesucht)


def card_values(state: SchafkopfState) -> dict[Card, int]:
    """The exact final value of the declaring side (taken included) after each legal card
    of the player to move, with best play afterwards."""
    contract, hands, leader, trick = _state_args(state)
    solver = SchafkopfSolver.for_contract(contract, hands, leader=leader, trick=trick)
    base = _taken(state, contract)
    return {c: base + v for c, v in
            solver.card_values_at(hands, leader, trick, gesucht=state.gesucht).items()}
