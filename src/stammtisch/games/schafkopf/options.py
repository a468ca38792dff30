"""Schafkopf's option schema: every :class:`SchafkopfRules` option with its type, allowed
values and the sentence of seed 002 it comes from (docs/rules/schafkopf.md §1).

>>> OPTIONS.parse_text("anleitung", ["tariff={\\"solo\\": 60}", "legen=nein"]).tariff_of("solo")
60
>>> OPTIONS.parse_text("standard", ["legen=vielleicht"])
Traceback (most recent call last):
...
stammtisch.errors.RulesError: legen='vielleicht': must be true or false
"""

from __future__ import annotations

from stammtisch.games.base.options import Messages, OptionSpec, RulesSchema, Source, derive_options
from stammtisch.games.schafkopf.rules import (
    ALL_PASS,
    FIRST_LEAD,
    GAME_OPTIONS,
    PRESETS,
    TARIFF_KEYS,
    SchafkopfRules,
)

__all__ = ["OPTIONS", "SOURCES"]

#: option -> (seed tag, the sentence of seed 002); "" where [002] says nothing of it
SOURCES: dict[str, Source] = {
    "first_lead": ("002", "Ist erstmal ein entsprechendes Spiel angesagt, so eröffnet der "
                          "Spielmacher dieses, indem er die erste Karte zum Stich auslegt."),
    "all_pass": ("002", "Beim Ramsch handelt es sich um eine Spielvariation, die zum Zuge "
                        "kommt, sobald keine Spielansage statt gefunden hat."),
    "games": ("002", "Neben dem Normalspiel (bestehend aus Ruf-, Sau- oder Partnerspiel) gibt "
                     "es noch das Farb-Solo sowie den Wenz. Sie bilden das Grundgerüst des "
                     "‚reinen' Schafkopfens."),
    "legen": ("002", "Hier hat jeder Spieler die Möglichkeit mit der Aussage ‚Ich lege' nach "
                     "dem Aufdecken der ersten 4 Karten, den Spielpreis zu verdoppeln."),
    "stoss_words": ("002", "ein ‚Kontra' zu geben, was wiederum den Spielpreis verdoppelt."),
    "tariff": ("002", "Wurde direkt um Geld gespielt, so zahlen die Verlierer an die "
                      "Gewinner"),
    "davonlaufen": (None, ""),
    "ramsch_jungfrau": (None, ""),
    "ramsch_durchmarsch": (None, ""),
}

#: Schafkopf's options (the order of ``SchafkopfRules``'s fields); a ``tariff`` object
#: may name only some entries: they are merged into the preset's tariff
OPTIONS: RulesSchema[SchafkopfRules] = RulesSchema(
    game="schafkopf",
    build=SchafkopfRules.preset,
    presets=PRESETS,
    default_preset="standard",
    options=derive_options(SchafkopfRules, SOURCES, skip=("preset_name",), refine={
        "first_lead": {"kind": "choice", "allowed": FIRST_LEAD},
        "all_pass": {"kind": "choice", "allowed": ALL_PASS},
        "games": {"item": OptionSpec("games", "choice", allowed=GAME_OPTIONS)},
        "tariff": {"kind": "mapping", "allowed": TARIFF_KEYS,
                   "item": OptionSpec("tariff", "int", minimum=0)},
    }),
    messages=Messages(unknown="unknown Schafkopf rules option {key!r} (known: preset, {known})",
                      sort_known=False),
)
