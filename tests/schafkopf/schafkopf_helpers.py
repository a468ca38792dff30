"""Shared helpers of the Schafkopf tests."""

from __future__ import annotations

from collections.abc import Iterable

from stammtisch.cards import cards
from stammtisch.games.schafkopf import SchafkopfRules, SchafkopfState, game_from_hands

#: dealer 3, Vorhand 0.  Seat 2 holds the Gras ace with three more Gras cards.
D1 = ["EO GO EU H9 G7 E7 S7 S8", "HO SO GU HA E10 EK S9 SK",
      "GA G10 GK G9 HU SU EA E9", "H10 HK H8 H7 SA S10 E8 G8"]


def hand(
    hands: list[str], preset: str = "standard", dealer: int = 3, **options: object
) -> SchafkopfState:
    rules = SchafkopfRules.preset(preset, **options)
    return game_from_hands([cards(h) for h in hands], rules, dealer)


def say(state: SchafkopfState, words: Iterable[str] | str) -> SchafkopfState:
    for w in words.split() if isinstance(words, str) else words:
        state.push(w)
    return state


def legal(state: SchafkopfState) -> list[str]:
    return [str(a) for a in state.legal_actions()]
