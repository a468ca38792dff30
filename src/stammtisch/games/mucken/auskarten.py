"""Auskarten (seeds 000 and 001): finding the first dealer and, optionally, the pairs.

Dealer: every player draws one card from the spread deck; the highest card in the
order of a Muck deals first (seed 001: "Derjenige mit der Höchsten in der
Reihenfolge eines Mucks gibt als erster").  Among plain cards of equal rank the
suit decides: Eichel, Gras, Herz, Schellen.

Pairs (seed 000, "Ausmucken"): the player with the highest card lays the next
card open in the middle; it names a kind (Ober, Neun, …).  He then deals the
following cards one by one, open, starting at his left.  The first player to
receive a card of that kind deals the first game; the second forms a pair with
the first.  The other two form the other pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stammtisch.cards import Card
from stammtisch.engine.core import Rng
from stammtisch.errors import IllegalActionError
from stammtisch.games.mucken.orders import muck_rank_order


@dataclass(frozen=True)
class AuskartenResult:
    draws: tuple[Card, ...]
    """the card each player (by position at the table) drew"""
    dealer: int
    """position of the first dealer"""
    pairs: tuple[tuple[int, int], tuple[int, int]] | None = None
    """with pair forming: the two pairs (positions); the dealer's pair first"""
    dealt: tuple[tuple[int, Card], ...] = ()
    """with pair forming: the open cards dealt, as (position, card)"""


def highest_draw(draws: Sequence[Card], deck: str = "short") -> int:
    """Position of the highest card in Muck order."""
    rank = {c: i for i, c in enumerate(muck_rank_order(deck))}
    for c in draws:
        if c not in rank:
            raise IllegalActionError(f"Auskarten: {c} is not in the {deck} deck", "invalid")
    return min(range(len(draws)), key=lambda i: rank[draws[i]])


def auskarten(rng: Rng, deck: str = "short", form_pairs: bool = False) -> AuskartenResult:
    """Draw for the first dealer (and the pairs, when ``form_pairs``)."""
    cards = list(muck_rank_order(deck))
    rng.shuffle(cards)
    draws = tuple(cards[:4])
    first = highest_draw(draws, deck)
    if not form_pairs:
        return AuskartenResult(draws, first)
    while True:
        rest = list(cards)
        rng.shuffle(rest)
        try:
            return form_pairs_from(draws, first, rest)
        except IllegalActionError:
            # the other cards of the kind all went to one player: shuffle and lay out again
            continue


def form_pairs_from(draws: tuple[Card, ...], opener: int, stack: Sequence[Card]) -> AuskartenResult:
    """Seed 000's pair forming, with ``stack`` the reshuffled deck (top first)."""
    middle = stack[0]
    dealt: list[tuple[int, Card]] = []
    found: list[int] = []
    pos = (opener + 1) % 4
    for c in stack[1:]:
        dealt.append((pos, c))
        if c.rank is middle.rank and pos not in found:
            found.append(pos)
            if len(found) == 2:
                break
        pos = (pos + 1) % 4
    if len(found) < 2:  # the other cards of the kind all reached the same player
        raise IllegalActionError("Auskarten: the stack ran out", "invalid")
    a, b = found
    others = tuple(p for p in range(4) if p not in found)
    return AuskartenResult(draws, a, ((a, b), (others[0], others[1])), tuple(dealt))
