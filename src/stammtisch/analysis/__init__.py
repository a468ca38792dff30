"""Analysis tools: the exact double-dummy solver (all hands open) and its reference."""

from stammtisch.analysis.reference import minimax_reference
from stammtisch.analysis.solver import Solver, SolveResult, card_values, solve, solve_state

__all__ = [
    "SolveResult",
    "Solver",
    "card_values",
    "minimax_reference",
    "solve",
    "solve_state",
]
