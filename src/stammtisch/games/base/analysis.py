"""The double-dummy analysis of a finished game, as a game's plug-in offers it
(``stammtisch analyze`` and the server's ``/api/games/{id}/analysis``).

A game with an exact solver gives an :class:`AnalysisHooks` through its plug-in's
``analysis`` loader (imported on first use: the solver is heavy); everything else about
``analyze`` — reading the record, printing the table, the JSON — is written once in the
CLI and the server.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from stammtisch.engine.core import GameState

__all__ = ["AnalysisHooks", "PlayAnalysis", "PlayValue", "the_game"]


class PlayValue(Protocol):
    """One card played, judged with all hands open."""

    @property
    def index(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def card(self) -> str: ...
    @property
    def trick(self) -> int: ...
    @property
    def value_before(self) -> int | float: ...
    @property
    def value_after(self) -> int | float: ...
    @property
    def loss(self) -> int | float: ...
    @property
    def best(self) -> Sequence[str]: ...
    @property
    def cost_game(self) -> bool: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class PlayAnalysis:
    """One card of a game, judged with all hands open — the :class:`PlayValue` of every
    game's analysis.

    ``value_before``/``value_after``: the reference side's final value (Augen; tricks where
    the game counts them) with best play by everyone from the position before/after the
    card.  ``loss``: what the card cost its own side (0 for a best card).  ``best``: the
    cards that keep ``value_before``.  ``cost_game``: with this card the game's result
    (who wins) flips against its side.
    """

    index: int
    seat: int
    card: str
    trick: int
    value_before: int
    value_after: int
    loss: int
    best: tuple[str, ...]
    cost_game: bool

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "card": self.card,
                "trick": self.trick, "value_before": self.value_before,
                "value_after": self.value_after, "loss": self.loss, "best": list(self.best),
                "cost_game": self.cost_game}


S = TypeVar("S", bound=GameState)
P = TypeVar("P", bound=PlayValue)


@dataclass(frozen=True)
class AnalysisHooks(Generic[S, P]):
    """What one game provides for the analysis of its finished games (``S``: its state,
    ``P``: its judged play)."""

    #: judge every card: from a finished state or a record (JSON text or mapping)
    analyze: Callable[[S | str | bytes | Mapping[str, Any]], list[P]]
    #: the pair (or seat) whose value the table shows
    reference_pair: Callable[[S], int]
    #: the game's own first line (``None``: the generic one of pairs and Augen)
    headline: Callable[[S], str] | None = None
    #: the game's own last line (``None``: the Augen each pair lost)
    summary: Callable[[S, list[P]], str] | None = None


def the_game(record_or_state: Any, state_class: type[S], replay: Callable[[Any], S]) -> S:
    """What an analysis judges: a state as it is, or a record replayed with every check."""
    return record_or_state if isinstance(record_or_state, state_class) else replay(record_or_state)
