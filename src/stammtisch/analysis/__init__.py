"""Analysis tools: the exact double-dummy solver driver (all hands open), its per-game
hooks (:class:`TrickRules`) and the plain minimax it is checked against."""

from stammtisch.analysis.reference import minimax_reference
from stammtisch.analysis.solver import (
    NodeLimitExceeded,
    Solver,
    SolveResult,
    TrickRules,
    card_values,
    solve,
    solve_state,
)

__all__ = [
    "NodeLimitExceeded",
    "SolveResult",
    "Solver",
    "TrickRules",
    "card_values",
    "minimax_reference",
    "solve",
    "solve_state",
]
