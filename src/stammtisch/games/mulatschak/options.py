"""Mulatschak's option schema: every :class:`MulatschakRules` option with its type,
allowed values and the sentence of seed 003 it comes from (docs/rules/mulatschak.md).

>>> OPTIONS.parse_text("salzburg", ["muli_broken=breaker", "weiss_nicht=ja"]).weiss_nicht
True
"""

from __future__ import annotations

from stammtisch.games.base.options import RulesSchema, Source, derive_options
from stammtisch.games.mulatschak.rules import ALL_PASS, MULI_BROKEN, PRESETS, MulatschakRules

__all__ = ["OPTIONS", "SOURCES"]

#: option -> (seed tag, the sentence of seed 003)
SOURCES: dict[str, Source] = {
    "klopfen": ("003", "Anstelle abzuheben gibt es auch die Möglichkeit zu klopfen, dadurch "
                       "zählen die Punkte ebenfalls doppelt."),
    "stichzwang": ("003", "Es herrscht hierbei sowohl Farbzwang als auch Stichzwang."),
    "muli_broken": ("003", "Sollte der Muli nicht aufgehen, … fällt der Ansager um 10 Punkte "
                           "hinauf und alle anderen Mitspieler um 10 Punkte hinunter"),
    "all_pass": ("003", "0 Stiche werden allerdings mit „keinen“ oder „weiter“ bezeichnet."),
    "weiss_nicht": ("003", 'Der Spieler sagt bei der Farbauswahl "Weiß ich noch nicht", '
                           "bekommt 5 verdeckte Karten und die sechste Karte aufgedreht."),
}

#: Mulatschak's options (the order of ``MulatschakRules``'s fields)
OPTIONS: RulesSchema[MulatschakRules] = RulesSchema(
    game="mulatschak",
    build=MulatschakRules.preset,
    presets={name: MulatschakRules.preset(name) for name in PRESETS},
    default_preset="salzburg",
    options=derive_options(MulatschakRules, SOURCES, skip=("preset_name",), refine={
        "muli_broken": {"kind": "choice", "allowed": MULI_BROKEN},
        "all_pass": {"kind": "choice", "allowed": ALL_PASS},
    }),
)
