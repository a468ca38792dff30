"""Typed results: what a finished game gives, as one frozen value per game.

Each game defines a frozen dataclass derived from :class:`GameResult` with its result's
fields in the contract's order (Mucken: contract, declarer, Kontra, tricks, Augen, winner,
score …).  :meth:`GameState.final_result() <stammtisch.engine.core.GameState.final_result>`
returns it; :meth:`GameResult.as_dict` is the full JSON form (``GameState.result()``,
the views) and :meth:`GameResult.to_json` exactly what ``stammtisch replay --json``
prints (the keys named in ``SUMMARY_KEYS``, in that order).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Toy(GameResult):
...     SUMMARY_KEYS = ("winner",)
...     winner: int
...     points: tuple[int, ...]
>>> Toy(1, (3, -3)).as_dict(), Toy(1, (3, -3)).to_json()
({'winner': 1, 'points': [3, -3]}, {'winner': 1})
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = ["GameResult", "json_ready"]


def json_ready(value: Any) -> Any:
    """``value`` with tuples as lists and mappings as dicts, recursively (JSON's shapes)."""
    if isinstance(value, tuple | list):
        return [json_ready(v) for v in value]
    if isinstance(value, Mapping):
        return {k: json_ready(v) for k, v in value.items()}
    return value


@dataclasses.dataclass(frozen=True)
class GameResult:
    """Base of every game's typed result (a frozen dataclass of its fields)."""

    #: the keys ``replay --json`` prints, in its order (default: every field)
    SUMMARY_KEYS: ClassVar[tuple[str, ...]] = ()

    def as_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready, in the declared order."""
        return {f.name: json_ready(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def to_json(self) -> dict[str, Any]:
        """What ``stammtisch replay --json`` prints for this result."""
        full = self.as_dict()
        keys = self.SUMMARY_KEYS or tuple(full)
        return {k: full[k] for k in keys}
