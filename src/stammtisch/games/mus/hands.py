"""The values of a Mus hand: card ranks, Grande and Chica keys, Pares and Juego (seed 004,
the contract ../specs/mus.md).  Pure functions of the cards and the rules; the state and the
señas (:mod:`stammtisch.games.mus.senas`) both use them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from stammtisch.cards import Card, Rank
from stammtisch.games.mus.rules import MusRules

__all__ = ["JUEGO_ORDER", "card_value", "chica_key", "grande_key", "juego_rank",
           "juego_value", "pares_key", "rank_of"]

JUEGO_ORDER: Final = (31, 32, 40, 37, 36, 35, 34, 33)

_FACE = {Rank.UNO: 1, Rank.DOS: 2, Rank.TRES: 3, Rank.CUATRO: 4, Rank.CINCO: 5,
         Rank.SEIS: 6, Rank.SIETE: 7, Rank.SOTA: 10, Rank.CABALLO: 11, Rank.REY: 12}


def rank_of(c: Card, rules: MusRules) -> int:
    """The card's rank for comparisons: 12 R (and 3 with 8 reyes), 11 C, 10 S, 7–4 (3, 2),
    1 (and 2 with 8 reyes)."""
    v = _FACE[c.rank]
    if rules.reyes == 8:
        if v == 3:
            return 12
        if v == 2:
            return 1
    return v


def card_value(c: Card, rules: MusRules) -> int:
    """A card's value for Juego and Punto."""
    return min(rank_of(c, rules), 10)


def grande_key(hand: Sequence[Card], rules: MusRules) -> tuple[int, ...]:
    """Higher is better: the ranks from the highest."""
    return tuple(sorted((rank_of(c, rules) for c in hand), reverse=True))


def chica_key(hand: Sequence[Card], rules: MusRules) -> tuple[int, ...]:
    """Lower is better: the ranks from the lowest."""
    return tuple(sorted(rank_of(c, rules) for c in hand))


def pares_key(hand: Sequence[Card], rules: MusRules) -> tuple[int, int, int] | None:
    """``(category, higher pair, second pair)`` with category 1 par, 2 medias, 3 duples
    (four of a kind counts as duples); ``None`` without pares."""
    counts = Counter(rank_of(c, rules) for c in hand)
    if 4 in counts.values():
        r = next(iter(counts))
        return (3, r, r)
    pairs = sorted((r for r, n in counts.items() if n == 2), reverse=True)
    if len(pairs) == 2:
        return (3, pairs[0], pairs[1])
    threes = [r for r, n in counts.items() if n == 3]
    if threes:
        return (2, threes[0], 0)
    if pairs:
        return (1, pairs[0], 0)
    return None


def juego_value(hand: Sequence[Card], rules: MusRules) -> int:
    """The value sum of a hand (Juego from 31)."""
    return sum(card_value(c, rules) for c in hand)


def juego_rank(value: int) -> int:
    """Higher is better among Juego values: 31, 32, 40, 37, 36, 35, 34, 33."""
    return len(JUEGO_ORDER) - JUEGO_ORDER.index(value)
