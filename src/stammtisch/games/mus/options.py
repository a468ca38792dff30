"""Mus's option schema: every :class:`MusRules` option with its type, range and the
sentence of seed 004 it comes from (docs/rules/mus.md).  The señas are a table option,
not one of the rules (``games/mus/online.py``).

>>> OPTIONS.parse_text("duples", ["reyes=4", "target=40"]).to_json()
{'preset': 'duples', 'target': 40, 'sets': 3, 'reyes': 4, 'punto_bonus': 1}
"""

from __future__ import annotations

from stammtisch.games.base.options import RulesSchema, Source, derive_options
from stammtisch.games.mus.rules import PRESETS, MusRules

__all__ = ["OPTIONS", "SOURCES"]

#: option -> (seed tag, the sentence of seed 004); "" where it is the contract's option
SOURCES: dict[str, Source] = {
    "target": ("004", "Einen Satz gewinnt das Team, dem es gelingt, 30 Punkte zu erreichen"),
    "sets": ("004", 'Bei "Duples"-Turnieren wird meist auf 3 oder 4 Gewinnsätze gespielt.'),
    "reyes": ("004", 'Die "3"-Karten zählen als Könige, die "2"-Karten als Asse. Es gibt '
                     "also insgesamt acht Könige"),
    "punto_bonus": (None, ""),
}

#: Mus's options (the order of ``MusRules``'s fields)
OPTIONS: RulesSchema[MusRules] = RulesSchema(
    game="mus",
    build=MusRules.preset,
    presets=PRESETS,
    default_preset="duples",
    options=derive_options(MusRules, SOURCES, skip=("preset_name",), refine={
        "target": {"minimum": 1},
        "sets": {"minimum": 1},
        "reyes": {"kind": "choice", "allowed": (8, 4)},
        "punto_bonus": {"minimum": 0},
    }),
)
