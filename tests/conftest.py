"""Shared fixtures for the foundation and Mucken tests.

``game`` builds a Mucken game from dealt hands and drives it through calls,
doubling words and plays, every action checked (``push``), so a test reads
like the table talk: ``game(HANDS, calls="muck weiter weiter weiter")``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import pytest

from stammtisch.cards import Card, cards
from stammtisch.games.mucken import MuckenRules, MuckenState, game_from_hands

#: A deal used throughout: seat 0 holds the four Ober, seat 1 Herz, seat 2 Eichel/Gras,
#: seat 3 Gras/Schellen (no Sie: seat 0 lacks the Gras-Unter).
HANDS = ("EO GO HO SO EU HK", "HA H10 GU H9 HU SU", "EA E10 EK E9 GA G10", "GK G9 SA S10 SK S9")

GameFactory = Callable[..., MuckenState]


def _words(items: str | Iterable[str]) -> list[str]:
    return items.split() if isinstance(items, str) else list(items)


def make_game(
    hands: Sequence[str | Sequence[str]] = HANDS,
    rules: str | MuckenRules = "seefest",
    *,
    dealer: int = 3,
    calls: str | Iterable[str] = (),
    doubling: str | Iterable[str] = (),
    plays: str | Iterable[str] = (),
    factor: int = 1,
    **options: object,
) -> MuckenState:
    """A game dealt ``hands`` (one string or list per seat), then the calls, the
    doubling words (``kontra``/``gut`` …) and the plays, each applied checked."""
    if isinstance(rules, str):
        rules = MuckenRules.preset(rules, **options)
    elif options:
        rules = rules.replace(**options)
    dealt: list[tuple[Card, ...]] = [cards(h) for h in hands]
    state = game_from_hands(dealt, rules, dealer=dealer, factor=factor)
    for text in [*_words(calls), *_words(doubling), *_words(plays)]:
        state.push(text)
    return state


@pytest.fixture
def game() -> GameFactory:
    return make_game
