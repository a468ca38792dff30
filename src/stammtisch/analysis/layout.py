"""The bit layout of one trick order for the solver driver, and its move-list caches.

Each follow class takes a contiguous run of bits, weakest card lowest, and the trumps take
the top run, so "the cards that beat the best card so far" is one precomputed mask and a
trick's winner is the highest bit among the trumps and the led class.  A layout also keeps
the ordered move lists of leads and follows (:meth:`Layout.lead_order`,
:meth:`Layout.follow_order`), cached across deals of the same trick order.
"""

from __future__ import annotations

from stammtisch.cards import Card
from stammtisch.engine.tricks import TRUMP, TrickOrder

__all__ = ["CACHE_LIMIT", "DANGER", "LAST_OPP", "MAX_CARDS", "MODES", "OPP", "SAFE", "Layout",
           "layout"]

MODES = ("augen", "tricks")
#: kinds of follow orders (see :meth:`Layout.follow_order`)
OPP, SAFE, DANGER, LAST_OPP = range(4)
MAX_CARDS = 40
CACHE_LIMIT = 200_000



def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first (a card set's cards)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

class Layout:
    """Bit layout and card tables of one trick order (and mode), shared by all deals."""

    def __init__(self, order: TrickOrder, mode: str) -> None:
        self.order = order
        self.mode = mode
        in_order = [c for c in Card._by_index if order.klass(c) >= 0]
        classes = sorted({order.klass(c) for c in in_order}, key=lambda k: (k == TRUMP, k))
        layout: list[Card] = []
        for k in classes:
            layout.extend(sorted((c for c in in_order if order.klass(c) == k), key=order.power))
        if len(layout) > MAX_CARDS:
            raise ValueError(f"the solver handles at most {MAX_CARDS} cards")
        n = len(layout)
        self.cards: tuple[Card, ...] = tuple(layout)
        self.index: dict[Card, int] = {c: i for i, c in enumerate(layout)}
        self.aug: list[int] = [c.augen if mode == "augen" else 0 for c in layout]
        self.bonus = 0 if mode == "augen" else 1
        #: per card: its Augen plus the trick's bonus (one per trick in the tricks mode)
        self.aug_bonus: list[int] = [a + self.bonus for a in self.aug]
        #: per card: its bit
        self.bit: list[int] = [1 << i for i in range(n)]
        class_mask: dict[int, int] = {}
        for i, c in enumerate(layout):
            k = order.klass(c)
            class_mask[k] = class_mask.get(k, 0) | (1 << i)
        self.trump_mask = class_mask.get(TRUMP, 0)
        #: all cards of each card's class
        self.cmask: list[int] = [class_mask[order.klass(c)] for c in layout]
        #: the cards that may take a trick led with card i (its class and the trumps)
        self.class_or_trump: list[int] = [m | self.trump_mask for m in self.cmask]
        #: cards that beat card i when i is the best card of a trick
        self.beat: list[int] = [
            (self.cmask[i] | self.trump_mask) & ~((2 << i) - 1) for i in range(n)
        ]
        #: cards above i in its class
        self.above: list[int] = [self.cmask[i] & ~((2 << i) - 1) for i in range(n)]
        #: the other cards of i's class with i's Augen (candidates for equivalence)
        self.eq: list[int] = [
            sum(1 << j for j in range(n)
                if j != i and self.cmask[j] == self.cmask[i] and self.aug[j] == self.aug[i])
            for i in range(n)
        ]
        self.eq_all = sum(1 << i for i in range(n) if self.eq[i])
        # sort keys: Augen, then strength (bit position)
        self._rich_key = [-(self.aug[i] * 64 + i) for i in range(n)]
        self._cheap_key = [self.aug[i] * 64 + i for i in range(n)]
        #: lead orders: [card to try first + 1] -> {cards: ordered list}
        self.lead: list[dict[int, list[int]]] = [{} for _ in range(n + 1)]
        #: follow orders: [kind][best card] -> {legal cards: ordered list}
        self.follow: list[list[dict[int, list[int]]]] = [
            [{} for _ in range(n)] for _ in range(4)
        ]

    bits = staticmethod(bits)

    def rich_first(self, m: int) -> list[int]:
        """Most Augen first; among equal Augen the stronger card first."""
        return sorted(self.bits(m), key=self._rich_key.__getitem__)

    def cheap_first(self, m: int) -> list[int]:
        """Fewest Augen first; among equal Augen the weaker card first."""
        return sorted(self.bits(m), key=self._cheap_key.__getitem__)

    def lead_order(self, h: int, first: int) -> list[int]:
        """Order the leader's cards ``h``: ``first`` (if >= 0), then the richest."""
        out = self.rich_first(h)
        if first >= 0:
            out.remove(first)
            out.insert(0, first)
        cache = self.lead[first + 1]
        if len(cache) > CACHE_LIMIT:
            cache.clear()
        cache[h] = out
        return out

    def follow_order(self, h: int, best: int, kind: int) -> list[int]:
        """Order a follower's legal cards ``h`` when ``best`` holds the trick.

        ``kind``: OPP the other side holds it, SAFE the own side holds it and no
        later hand can beat it, DANGER the own side holds it but a later hand may
        beat it, LAST_OPP the other side holds it and the follower is the last.
        """
        win = h & self.beat[best]
        if kind == SAFE:
            out = self.rich_first(h)  # give Augen
        elif kind == DANGER:
            # overtake with the strongest card, else throw the cheapest
            out = self.bits(win)[::-1] + self.cheap_first(h ^ win) if win else self.cheap_first(h)
        elif win:
            # take the trick: the last hand with its richest winner, others cheaply
            if kind == LAST_OPP:
                out = self.rich_first(win) + self.cheap_first(h ^ win)
            else:
                out = self.bits(win) + self.cheap_first(h ^ win)
        else:
            out = self.cheap_first(h)
        cache = self.follow[kind][best]
        if len(cache) > CACHE_LIMIT:
            cache.clear()
        cache[h] = out
        return out


_LAYOUTS: dict[tuple[int, str], Layout] = {}


def layout(order: TrickOrder, mode: str) -> Layout:
    """The layout of ``order`` in ``mode`` (built once, kept for the process)."""
    key = (id(order), mode)
    lay = _LAYOUTS.get(key)
    if lay is None or lay.order is not order:
        if len(_LAYOUTS) > 64:
            _LAYOUTS.clear()
        lay = _LAYOUTS[key] = Layout(order, mode)
    return lay
