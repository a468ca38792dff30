"""Shared output helpers of the commands."""

from __future__ import annotations

import json
from typing import Any


def json_line(data: Any) -> str:
    """``data`` as one line of compact JSON (UTF-8 text kept as is): every ``--json``
    output of the ``bench`` commands (and ``replay``) is written with these settings."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def plural(n: float, one: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``; ``many`` if the plural is not ``one + "s"``."""
    return one if n == 1 else (many if many is not None else one + "s")


def rate(per_s: float | None, one: str, many: str | None = None) -> str:
    """A rate for people: ``1,234 games/s``, ``12.3 games/s``, ``0.42 games/s``, ``1 game/s``.

    >>> rate(1.0, "game"), rate(1234.4, "game"), rate(12.34, "game"), rate(0.4236, "game")
    ('1 game/s', '1,234 games/s', '12.3 games/s', '0.42 games/s')
    >>> rate(None, "game"), rate(99.96, "game"), rate(0.001, "game"), rate(2.5, "game")
    ('- games/s', '100 games/s', '< 0.01 games/s', '2.5 games/s')
    """
    if per_s is None:
        return f"- {plural(2, one, many)}/s"
    if per_s >= 99.5:
        text = f"{per_s:,.0f}"
    elif per_s >= 9.995:
        text = f"{per_s:.1f}"
    elif per_s >= 0.005:
        text = f"{per_s:.2f}".rstrip("0").rstrip(".")
    else:
        text = "< 0.01"
    unit = plural(float(text.replace(",", "")) if text[0].isdigit() else 0, one, many)
    return f"{text} {unit}/s"
