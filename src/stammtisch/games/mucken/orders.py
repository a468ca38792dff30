"""Trumps and card order of each Mucken game (seed 000, "Die Spiele").

- Muck (also Pflichtmuck, Ramsch): all Ober, all Unter, all Herz are trump —
  EO GO HO SO EU GU HU SU HA H10 HK H9 (H8 H7 in the long deck).
- Farbsolo (Draisendorf): as the Muck, with another suit in place of Herz.
- Wenz: only the four Unter; the Ober rank between König and Neun; Herz is plain.
- Geier: only the four Ober; the Unter rank between König and Neun.
"""

from __future__ import annotations

from functools import cache

from stammtisch.cards import GERMAN_SUITS, Card, Rank, Suit
from stammtisch.engine.tricks import TrickOrder

_SHORT_PLAIN = (Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.NEUN)
_LONG_EXTRA = (Rank.ACHT, Rank.SIEBEN)


@cache
def trick_order(kind: str, deck: str, suit: Suit | None = None) -> TrickOrder:
    """The :class:`TrickOrder` of game ``kind`` ("muck", "wenz", "geier", "farbsolo")."""
    extra = _LONG_EXTRA if deck == "long" else ()
    if kind in ("muck", "farbsolo"):
        trump_suit = Suit.HERZ if kind == "muck" else suit
        if trump_suit is None:
            raise ValueError("a Farbsolo needs its suit")
        plain = (*_SHORT_PLAIN, *extra)
        trumps = [Card.of(s, Rank.OBER) for s in GERMAN_SUITS]
        trumps += [Card.of(s, Rank.UNTER) for s in GERMAN_SUITS]
        trumps += [Card.of(trump_suit, r) for r in plain]
        suits = {s: plain for s in GERMAN_SUITS if s is not trump_suit}
        return TrickOrder(trumps, suits, kind if suit is None else f"{kind}:{suit.value}")
    if kind in ("wenz", "geier"):
        trump_rank, inner = (Rank.UNTER, Rank.OBER) if kind == "wenz" else (Rank.OBER, Rank.UNTER)
        plain = (Rank.ASS, Rank.ZEHN, Rank.KOENIG, inner, Rank.NEUN, *extra)
        trumps = [Card.of(s, trump_rank) for s in GERMAN_SUITS]
        return TrickOrder(trumps, {s: plain for s in GERMAN_SUITS}, kind)
    raise ValueError(f"unknown Mucken game {kind!r}")


def muck_rank_order(deck: str) -> list[Card]:
    """Every card of the deck, highest first, in the order of a Muck (for Auskarten)."""
    order = trick_order("muck", deck)
    cards_ = [c for c in Card._by_index if order.power(c) >= 0]
    return sorted(
        cards_,
        key=lambda c: (order.is_trump(c), order.power(c), -GERMAN_SUITS.index(c.suit)),
        reverse=True,
    )
