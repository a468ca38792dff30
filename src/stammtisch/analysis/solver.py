"""Exact double-dummy solver for trick games with all hands open (Mucken; Schafkopf later).

Value of a position: the most Augen (or tricks) the optimising ``side`` — a set of
seats — takes from here on with best play by both sides, the other seats minimising.

>>> from stammtisch.cards import cards
>>> from stammtisch.games.mucken.orders import trick_order
>>> hands = [cards("EO GO"), cards("EA E10"), cards("HO SO"), cards("GA G10")]
>>> r = solve(trick_order("muck", "short"), hands, leader=0, side={0, 2})
>>> r.value, str(r.best_card)
(54, 'EO')

Design (figures in docs/performance.md, ``## Solver``):

- Cards are bit positions of one int.  The layout is fixed per trick order: each
  follow class takes a contiguous run of bits, weakest card lowest, and the trumps
  take the top run.  "The cards that beat the best card so far" is one
  precomputed mask, and the winner of a trick is the highest bit among the trumps
  and the cards of the led class.  Every card keeps its owner for the whole deal,
  so a position is ``remaining`` (the unplayed cards) and the leader, and a seat's
  hand is ``remaining & seat_mask[seat]``.
- Alpha-beta (fail-soft) on the Augen still to come, driven by zero-window probes
  that bisect between the known bounds and share one transposition table.  The
  table is kept at trick boundaries only: one dict per leader, keyed by
  ``remaining``; an entry holds a lower and an upper bound of the future value and
  the leader's best card.  The position after a trick is looked up in the table
  before any call.
- One search call plays a whole trick as four nested loops (no call per card);
  a copy of it for the last two tricks evaluates the last trick directly.
- Equivalent cards: two cards of one hand, adjacent in the order of their class
  with no unplayed card (nor a card on the table) between them, win and lose the
  same tricks now and later.  They are merged only when their Augen are equal as
  well (the four trump Ober of a Muck, the 9-8-7 of the long deck, the Unter of a
  Wenz): adjacent cards with different Augen are both searched, because which
  trick receives which of the two values can matter.  In the ``tricks`` mode
  every card counts the same, so any adjacent run is merged.
- Move ordering: when leading, the table's card, else the card that last proved a
  bound at this depth for this leader, then the richest cards; with five or more
  tricks left (four, without a card from the table) the leads are sorted by a
  quick look at their trick (each follower plays its first card).  A follower
  first takes a trick the other side holds (the fourth hand with its richest
  winner, the others with their cheapest), gives Augen to a trick its own side
  holds safely, and otherwise throws its cheapest card.  Move lists are cached
  per trick order, across deals.
- Cheap bounds: the future value lies in ``[0, Augen still out]``; a window
  outside that range is answered at once.
- Small ints: keys and masks stay below 2**30 for the short deck (one CPython
  digit), card bits come from a table, and the caches are indexed by small ints;
  this alone was worth about 20 %.

Pure Python and deterministic (no randomness; dictionaries keyed by ints).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from stammtisch.cards import Card
from stammtisch.engine.tricks import TRUMP, TrickOrder, TrickPlay


class _PairRules(Protocol):
    @property
    def ramsch_stichzwang(self) -> bool: ...


class PairTrickState(Protocol):
    """What :func:`solve_state` and :func:`card_values` read of a four-seat pair trick
    game in play (Mucken's ``MuckenState``); the solver imports no concrete game."""

    @property
    def phase(self) -> str: ...
    @property
    def current_player(self) -> int: ...
    @property
    def contract(self) -> str | None: ...
    @property
    def rules(self) -> _PairRules: ...
    @property
    def hands(self) -> Sequence[Sequence[Card]]: ...
    @property
    def tricks(self) -> TrickPlay: ...
    @property
    def order(self) -> TrickOrder: ...
    def pair_augen(self) -> list[int]: ...
    def pair_tricks(self) -> list[int]: ...

__all__ = [
    "SolveResult",
    "Solver",
    "card_values",
    "solve",
    "solve_state",
]

MODES = ("augen", "tricks")
_INF = 1 << 20  # (a one-digit int for CPython)
# kinds of follow orders (see _Layout.follow_order)
_OPP, _SAFE, _DANGER, _LAST_OPP = range(4)
_MAX_CARDS = 40
_CACHE_LIMIT = 200_000


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The exact value (``taken`` included), the search effort and a best card.

    ``nodes`` counts the cards tried by the search.  ``best_card`` is a card for
    the player to move that reaches ``value`` (``None`` if no card is left).
    """

    value: int
    nodes: int
    best_card: Card | None = None
    mode: str = "augen"

    @property
    def value_augen(self) -> int:
        return self.value


class _Layout:
    """Bit layout and card tables of one trick order (and mode), shared by all deals."""

    def __init__(self, order: TrickOrder, mode: str) -> None:
        self.order = order
        self.mode = mode
        in_order = [c for c in Card._by_index if order.klass(c) >= 0]
        classes = sorted({order.klass(c) for c in in_order}, key=lambda k: (k == TRUMP, k))
        layout: list[Card] = []
        for k in classes:
            layout.extend(sorted((c for c in in_order if order.klass(c) == k), key=order.power))
        if len(layout) > _MAX_CARDS:
            raise ValueError(f"the solver handles at most {_MAX_CARDS} cards")
        n = len(layout)
        self.cards: tuple[Card, ...] = tuple(layout)
        self.index: dict[Card, int] = {c: i for i, c in enumerate(layout)}
        self.aug: list[int] = [c.augen if mode == "augen" else 0 for c in layout]
        self.bonus = 0 if mode == "augen" else 1
        class_mask: dict[int, int] = {}
        for i, c in enumerate(layout):
            k = order.klass(c)
            class_mask[k] = class_mask.get(k, 0) | (1 << i)
        self.trump_mask = class_mask.get(TRUMP, 0)
        #: all cards of each card's class
        self.cmask: list[int] = [class_mask[order.klass(c)] for c in layout]
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

    @staticmethod
    def bits(m: int) -> list[int]:
        out = []
        while m:
            b = m & -m
            out.append(b.bit_length() - 1)
            m ^= b
        return out

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
        if len(cache) > _CACHE_LIMIT:
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
        if kind == _SAFE:
            out = self.rich_first(h)  # give Augen
        elif kind == _DANGER:
            # overtake with the strongest card, else throw the cheapest
            out = self.bits(win)[::-1] + self.cheap_first(h ^ win) if win else self.cheap_first(h)
        elif win:
            # take the trick: the last hand with its richest winner, others cheaply
            if kind == _LAST_OPP:
                out = self.rich_first(win) + self.cheap_first(h ^ win)
            else:
                out = self.bits(win) + self.cheap_first(h ^ win)
        else:
            out = self.cheap_first(h)
        cache = self.follow[kind][best]
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[h] = out
        return out


_LAYOUTS: dict[tuple[int, str], _Layout] = {}


def _layout(order: TrickOrder, mode: str) -> _Layout:
    key = (id(order), mode)
    lay = _LAYOUTS.get(key)
    if lay is None or lay.order is not order:
        if len(_LAYOUTS) > 64:
            _LAYOUTS.clear()
        lay = _LAYOUTS[key] = _Layout(order, mode)
    return lay


class Solver:
    """The solver for one deal: owners of the cards and a transposition table.

    ``hands[seat]`` are the cards the seats hold now, ``trick`` the cards on the
    table (played in turn from ``leader``).  Every card keeps its owner, so one
    solver answers any later position of the same deal and keeps what it learnt:
    :meth:`value` and :meth:`card_values`.  Four seats.
    """

    def __init__(
        self,
        order: TrickOrder,
        hands: Sequence[Sequence[Card]],
        side: Collection[int],
        *,
        leader: int = 0,
        trick: Sequence[Card] = (),
        mode: str = "augen",
        must_trump: bool = False,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be 'augen' or 'tricks', not {mode!r}")
        if len(hands) != 4:
            raise ValueError(f"the solver plays four seats, got {len(hands)} hands")
        if not 0 <= leader < 4 or len(trick) >= 4:
            raise ValueError("leader must be a seat 0..3 and the trick hold at most 3 cards")
        self.order = order
        self.mode = mode
        self.must_trump = must_trump
        self.side = frozenset(side)
        lay = self._lay = _layout(order, mode)
        self.cards = lay.cards
        self.index = lay.index
        n = len(lay.cards)
        self.owner: list[int] = [-1] * n
        seen: set[Card] = set()
        placed = [(seat, c) for seat, hand in enumerate(hands) for c in hand]
        placed += [((leader + i) % 4, c) for i, c in enumerate(trick)]
        for seat, c in placed:
            i = lay.index.get(c)
            if i is None:
                raise ValueError(f"{c} is not a card of the order {order.name!r}")
            if c in seen:
                raise ValueError(f"{c} is held twice")
            seen.add(c)
            self.owner[i] = seat
        self.seat_mask: list[int] = [
            sum(1 << i for i in range(n) if self.owner[i] == s) for s in range(4)
        ]
        self.in_side: list[bool] = [s in self.side for s in range(4)]
        #: transposition table per leader: remaining -> (lower, upper, best lead)
        self.tt: list[dict[int, tuple[int, int, int]]] = [{}, {}, {}, {}]
        self.nodes = 0
        self._search = self._build_search()

    # -- public --------------------------------------------------------------
    def mask_of(self, cards_: Collection[Card]) -> int:
        idx = self.index
        m = 0
        for c in cards_:
            m |= 1 << idx[c]
        return m

    def value(
        self,
        hands: Sequence[Sequence[Card]],
        leader: int,
        trick: Sequence[Card] = (),
    ) -> SolveResult:
        """Exact future value of a position of this deal (``taken`` not included)."""
        remaining, table = self._position(hands, leader, trick)
        start = self.nodes
        v, best = self._solve(remaining, leader, table)
        return SolveResult(v, self.nodes - start, self.cards[best] if best >= 0 else None,
                           self.mode)

    def card_values(
        self,
        hands: Sequence[Sequence[Card]],
        leader: int,
        trick: Sequence[Card] = (),
    ) -> dict[Card, int]:
        """Future value (for ``side``) after each legal card of the player to move."""
        remaining, table = self._position(hands, leader, trick)
        seat = (leader + len(table)) % 4
        out: dict[Card, int] = {}
        for i in self._legal(remaining, seat, table):
            v, _ = self._solve(remaining ^ (1 << i), leader, [*table, i])
            out[self.cards[i]] = v
        return out

    # -- internals -------------------------------------------------------------
    def _position(
        self, hands: Sequence[Sequence[Card]], leader: int, trick: Sequence[Card]
    ) -> tuple[int, list[int]]:
        if len(hands) != 4 or not 0 <= leader < 4 or len(trick) >= 4:
            raise ValueError("need four hands, a leader 0..3 and at most 3 cards on the table")
        size = len(hands[(leader + len(trick)) % 4])
        remaining = 0
        for j in range(4):
            seat = (leader + j) % 4
            if len(hands[seat]) != (size - 1 if j < len(trick) else size):
                raise ValueError("the hands do not fit the cards on the table")
            m = self.mask_of(hands[seat])
            if m & ~self.seat_mask[seat]:
                raise ValueError(f"seat {seat} holds cards this solver gave to another seat")
            remaining |= m
        if self.mask_of(trick) & remaining:
            raise ValueError("a card on the table is still held")
        return remaining, [self.index[c] for c in trick]

    def _legal(self, remaining: int, seat: int, table: list[int]) -> list[int]:
        lay = self._lay
        hand = remaining & self.seat_mask[seat]
        if table:
            f = hand & lay.cmask[table[0]]
            if f:
                hand = f
            elif self.must_trump and hand & lay.trump_mask:
                hand &= lay.trump_mask
        return lay.bits(hand)

    def _trick_value(self, table: list[int]) -> tuple[int, int]:
        """(winner, value for ``side``) of a complete trick."""
        lay = self._lay
        best = table[0]
        for i in table[1:]:
            if (1 << i) & lay.beat[best]:
                best = i
        w = self.owner[best]
        gain = sum(lay.aug[i] for i in table) + lay.bonus
        return w, (gain if self.in_side[w] else 0)

    def _upper(self, cards_: int) -> int:
        """Augen (plus one per trick in the tricks mode) of the cards ``cards_``."""
        aug = self._lay.aug
        return sum(aug[i] for i in self._lay.bits(cards_)) + self._lay.bonus * (
            cards_.bit_count() // 4
        )

    def _solve(self, remaining: int, leader: int, table: list[int]) -> tuple[int, int]:
        """(exact future value, a best card of the player to move or -1).

        Zero-window probes bisect between the bounds until they meet (fail-soft
        answers narrow faster than the bisection step).  The best card comes with
        the probes: for a maximising mover the card of the last probe that failed
        high reaches the final lower bound, i.e. the value (likewise the last
        fail-low card of a minimising mover).  Without such a probe every card has
        the value (0 for a maximiser, everything for a minimiser).
        """
        if not remaining and len(table) < 4:
            return 0, -1
        total = self._upper(remaining | self.mask_of([self.cards[i] for i in table]))
        maxing = self.in_side[(leader + len(table)) % 4]
        lo, hi = 0, total
        best = -1
        while lo < hi:
            beta = (lo + hi + 1) // 2
            g, mv = self._root(remaining, leader, table, beta - 1, beta)
            if g < beta:
                hi = g
                if not maxing:
                    best = mv
            else:
                lo = g
                if maxing:
                    best = mv
        if best < 0 and remaining and len(table) < 4:
            best = self._legal(remaining, (leader + len(table)) % 4, table)[-1]
        return lo, best

    def _root(
        self, remaining: int, leader: int, table: list[int], alpha: int, beta: int
    ) -> tuple[int, int]:
        """Search from any position; returns (value, best card) with fail-soft bounds."""
        if len(table) == 4:
            w, gain = self._trick_value(table)
            if not remaining:
                return gain, -1
            sub = self._search(remaining, w, remaining.bit_count() // 4,
                               self._upper(remaining), alpha - gain, beta - gain)
            return gain + sub, -1
        if not remaining:
            return 0, -1
        if not table:
            v = self._search(remaining, leader, remaining.bit_count() // 4,
                             self._upper(remaining), alpha, beta)
            e = self.tt[leader].get(remaining)
            return v, (e[2] if e is not None else -1)
        seat = (leader + len(table)) % 4
        maxing = self.in_side[seat]
        best_v = -_INF if maxing else _INF
        best_c = -1
        for i in self._legal(remaining, seat, table):
            self.nodes += 1
            v, _ = self._root(remaining ^ (1 << i), leader, [*table, i], alpha, beta)
            if maxing:
                if v > best_v:
                    best_v, best_c = v, i
                    if v > alpha:
                        alpha = v
            elif v < best_v:
                best_v, best_c = v, i
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best_v, best_c

    def _build_search(self) -> Callable[[int, int, int, int, int, int], int]:
        """The trick-level alpha-beta as a closure over the tables (fast locals)."""
        lay = self._lay
        owner = self.owner
        aug = lay.aug
        bonus = lay.bonus
        cmask = lay.cmask
        beat = lay.beat
        above = lay.above
        eq = lay.eq
        eq_all = lay.eq_all
        trump_mask = lay.trump_mask
        lead = lay.lead
        lead_order = lay.lead_order
        follow_order = lay.follow_order
        follow = lay.follow
        f_opp, f_safe, f_danger, f_last = follow
        seat_mask = self.seat_mask
        in_side = self.in_side
        must_trump = self.must_trump
        tts = self.tt
        tt_gets = [d.get for d in tts]
        killer = [-1] * 64
        BIT = [1 << i for i in range(len(aug))]
        #: per leader: the side flags and seat masks of the four hands in playing order
        seats_from: list[tuple[bool, bool, bool, bool, int, int, int, int]] = [
            (in_side[ld], in_side[(ld + 1) & 3], in_side[(ld + 2) & 3], in_side[(ld + 3) & 3],
             seat_mask[ld], seat_mask[(ld + 1) & 3], seat_mask[(ld + 2) & 3],
             seat_mask[(ld + 3) & 3])
            for ld in range(4)
        ]
        solver = self
        INF = _INF
        NEG_INF = -_INF
        OPP = _OPP
        SAFE = _SAFE
        DANGER = _DANGER
        LAST_OPP = _LAST_OPP

        def prune(m: int, alive: int) -> int:
            """Drop cards with an equivalent card (same hand, adjacent, same Augen) above."""
            e = m & eq_all
            while e:
                b = e & -e
                e ^= b
                nxt = alive & above[b.bit_length() - 1]
                if nxt & -nxt & m & eq[b.bit_length() - 1]:
                    m ^= b
            return m

        def probe_order(
            moves0: list[int], first: int, p1: int, p2: int, p3: int,
            x0: bool, x1: bool, x2: bool, x3: bool,
        ) -> list[int]:
            """Order leads by a quick look at their trick: each follower plays its first
            card in the usual order; leads whose trick brings the leader's side the
            most Augen come first (``first``, the table's card, stays in front)."""
            scored: list[tuple[int, int]] = []
            for c0 in moves0:
                cm = cmask[c0]
                h1 = p1 & cm or p1
                h2 = p2 & cm or p2
                h3 = p3 & cm or p3
                bt = beat[c0]
                kind = OPP if x1 != x0 else DANGER if (h2 | h3) & bt else SAFE
                c1 = (follow[kind][c0].get(h1) or follow_order(h1, c0, kind))[0]
                if BIT[c1] & bt:
                    w1 = c1
                    xw = x1
                else:
                    w1 = c0
                    xw = x0
                bt1 = beat[w1]
                kind = OPP if x2 != xw else DANGER if h3 & bt1 else SAFE
                c2 = (follow[kind][w1].get(h2) or follow_order(h2, w1, kind))[0]
                if BIT[c2] & bt1:
                    w2 = c2
                    xw = x2
                else:
                    w2 = w1
                kind = LAST_OPP if x3 != xw else SAFE
                c3 = (follow[kind][w2].get(h3) or follow_order(h3, w2, kind))[0]
                w3 = c3 if BIT[c3] & beat[w2] else w2
                g = aug[c0] + aug[c1] + aug[c2] + aug[c3] + bonus
                scored.append(((-g if in_side[owner[w3]] == x0 else g) * 64 + len(scored), c0))
            scored.sort()
            out = [c for _, c in scored]
            if first >= 0:
                out.remove(first)
                out.insert(0, first)
            return out

        def search(rem: int, leader: int, n: int, ub: int, alpha: int, beta: int) -> int:
            """Future value from a trick boundary with ``n`` >= 3 tricks left; ``ub`` =
            the Augen (+ tricks) still out.  Fail-soft; the bounds go to the table."""
            KILLER_N = n << 2
            e = tt_gets[leader](rem)
            if e is not None:
                lo, hi, bm = e
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                if ub <= alpha:
                    return ub
                if beta <= 0:
                    return 0
                lo, hi, bm = 0, ub, -1
            a_in = alpha
            b_in = beta
            nodes = 0
            x0, x1, x2, x3, m0, m1, m2, m3 = seats_from[leader]
            p0 = rem & m0
            p1 = rem & m1
            p2 = rem & m2
            p3 = rem & m3
            if rem & eq_all:
                q = p0 & eq_all
                if q & (q - 1):
                    p0 = prune(p0, rem)
                q = p1 & eq_all
                if q & (q - 1):
                    p1 = prune(p1, rem)
                q = p2 & eq_all
                if q & (q - 1):
                    p2 = prune(p2, rem)
                q = p3 & eq_all
                if q & (q - 1):
                    p3 = prune(p3, rem)
            fresh = bm < 0  # no card from the table
            if bm < 0:
                bm = killer[KILLER_N | leader]
            if bm >= 0 and not p0 >> bm & 1:
                bm = -1
            moves0 = lead[bm + 1].get(p0)
            if moves0 is None:
                moves0 = lead_order(p0, bm)
            # a quick look at each lead's trick pays where the subtrees are large
            if (n >= 5 or (n == 4 and fresh)) and len(moves0) > 1:
                moves0 = probe_order(moves0, bm, p1, p2, p3, x0, x1, x2, x3)
            a0 = alpha
            b0 = beta
            v0 = NEG_INF if x0 else INF
            best_move = -1
            for c0 in moves0:
                nodes += 1
                r1 = rem ^ BIT[c0]
                g0 = aug[c0]
                cm = cmask[c0]
                h1 = p1 & cm
                if not h1:
                    h1 = p1 & trump_mask if must_trump and p1 & trump_mask else p1
                h2 = p2 & cm
                if not h2:
                    h2 = p2 & trump_mask if must_trump and p2 & trump_mask else p2
                h3 = p3 & cm
                if not h3:
                    h3 = p3 & trump_mask if must_trump and p3 & trump_mask else p3
                bt = beat[c0]
                if x1 != x0:
                    kind = OPP
                    moves1 = f_opp[c0].get(h1)
                elif (h2 | h3) & bt:
                    kind = DANGER
                    moves1 = f_danger[c0].get(h1)
                else:
                    kind = SAFE
                    moves1 = f_safe[c0].get(h1)
                if moves1 is None:
                    moves1 = follow_order(h1, c0, kind)
                a1 = a0
                b1 = b0
                v1 = NEG_INF if x1 else INF
                for c1 in moves1:
                    nodes += 1
                    r2 = r1 ^ BIT[c1]
                    if BIT[c1] & bt:
                        w1 = c1
                        xw = x1
                    else:
                        w1 = c0
                        xw = x0
                    g1 = g0 + aug[c1]
                    bt1 = beat[w1]
                    if x2 != xw:
                        kind = OPP
                        moves2 = f_opp[w1].get(h2)
                    elif h3 & bt1:
                        kind = DANGER
                        moves2 = f_danger[w1].get(h2)
                    else:
                        kind = SAFE
                        moves2 = f_safe[w1].get(h2)
                    if moves2 is None:
                        moves2 = follow_order(h2, w1, kind)
                    a2 = a1
                    b2 = b1
                    v2 = NEG_INF if x2 else INF
                    for c2 in moves2:
                        nodes += 1
                        r3 = r2 ^ BIT[c2]
                        if BIT[c2] & bt1:
                            w2 = c2
                            xw2 = x2
                        else:
                            w2 = w1
                            xw2 = xw
                        g2 = g1 + aug[c2]
                        bt2 = beat[w2]
                        if x3 != xw2:
                            moves3 = f_last[w2].get(h3)
                            if moves3 is None:
                                moves3 = follow_order(h3, w2, LAST_OPP)
                        else:
                            moves3 = f_safe[w2].get(h3)
                            if moves3 is None:
                                moves3 = follow_order(h3, w2, SAFE)
                        a3 = a2
                        b3 = b2
                        v3 = NEG_INF if x3 else INF
                        for c3 in moves3:
                            nodes += 1
                            w3 = c3 if BIT[c3] & bt2 else w2
                            tv = g2 + aug[c3] + bonus
                            win = owner[w3]
                            gain = tv if in_side[win] else 0
                            ub4 = ub - tv
                            a = a3 - gain
                            b = b3 - gain
                            if ub4 <= a:
                                v = gain + ub4
                            elif b <= 0:
                                v = gain
                            else:
                                r4 = r3 ^ BIT[c3]
                                e = tt_gets[win](r4)
                                if e is not None and e[0] >= b:
                                    v = gain + e[0]
                                elif e is not None and e[1] <= a:
                                    v = gain + e[1]
                                elif n == 3:
                                    v = gain + search2(r4, win, ub4, a, b)
                                else:
                                    v = gain + search(r4, win, n - 1, ub4, a, b)
                            if x3:
                                if v > v3:
                                    v3 = v
                                    if v > a3:
                                        a3 = v
                                        if v >= b3:
                                            break
                            elif v < v3:
                                v3 = v
                                if v < b3:
                                    b3 = v
                                    if a3 >= v:
                                        break
                        v = v3
                        if x2:
                            if v > v2:
                                v2 = v
                                if v > a2:
                                    a2 = v
                                    if v >= b2:
                                        break
                        elif v < v2:
                            v2 = v
                            if v < b2:
                                b2 = v
                                if a2 >= v:
                                    break
                    v = v2
                    if x1:
                        if v > v1:
                            v1 = v
                            if v > a1:
                                a1 = v
                                if v >= b1:
                                    break
                    elif v < v1:
                        v1 = v
                        if v < b1:
                            b1 = v
                            if a1 >= v:
                                break
                v = v1
                if x0:
                    if v > v0:
                        v0 = v
                        best_move = c0
                        if v > a0:
                            a0 = v
                            if v >= b0:
                                break
                elif v < v0:
                    v0 = v
                    best_move = c0
                    if v < b0:
                        b0 = v
                        if a0 >= v:
                            break
            solver.nodes += nodes
            # store the bound; keep the leader's card when it proved something
            if v0 <= a_in:
                if v0 < hi:
                    hi = v0
                if not x0:
                    bm = best_move
                    killer[KILLER_N | leader] = best_move
            elif v0 >= b_in:
                if v0 > lo:
                    lo = v0
                if x0:
                    bm = best_move
                    killer[KILLER_N | leader] = best_move
            else:
                lo = hi = v0
                bm = best_move
            tts[leader][rem] = (lo, hi, bm)
            return v0

        def search2(rem: int, leader: int, ub: int, alpha: int, beta: int) -> int:
            """:func:`search` for the last two tricks, where the cards left decide the
            last one (a copy of the loops without the table probes of the children)."""
            KILLER_N = 8
            e = tt_gets[leader](rem)
            if e is not None:
                lo, hi, bm = e
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                if ub <= alpha:
                    return ub
                if beta <= 0:
                    return 0
                lo, hi, bm = 0, ub, -1
            a_in = alpha
            b_in = beta
            nodes = 0
            x0, x1, x2, x3, m0, m1, m2, m3 = seats_from[leader]
            p0 = rem & m0
            p1 = rem & m1
            p2 = rem & m2
            p3 = rem & m3
            if rem & eq_all:
                q = p0 & eq_all
                if q & (q - 1):
                    p0 = prune(p0, rem)
                q = p1 & eq_all
                if q & (q - 1):
                    p1 = prune(p1, rem)
                q = p2 & eq_all
                if q & (q - 1):
                    p2 = prune(p2, rem)
                q = p3 & eq_all
                if q & (q - 1):
                    p3 = prune(p3, rem)
            if bm < 0:
                bm = killer[KILLER_N | leader]
            if bm >= 0 and not p0 >> bm & 1:
                bm = -1
            moves0 = lead[bm + 1].get(p0)
            if moves0 is None:
                moves0 = lead_order(p0, bm)
            a0 = alpha
            b0 = beta
            v0 = NEG_INF if x0 else INF
            best_move = -1
            for c0 in moves0:
                nodes += 1
                r1 = rem ^ BIT[c0]
                g0 = aug[c0]
                cm = cmask[c0]
                h1 = p1 & cm
                if not h1:
                    h1 = p1 & trump_mask if must_trump and p1 & trump_mask else p1
                h2 = p2 & cm
                if not h2:
                    h2 = p2 & trump_mask if must_trump and p2 & trump_mask else p2
                h3 = p3 & cm
                if not h3:
                    h3 = p3 & trump_mask if must_trump and p3 & trump_mask else p3
                bt = beat[c0]
                if x1 != x0:
                    kind = OPP
                    moves1 = f_opp[c0].get(h1)
                elif (h2 | h3) & bt:
                    kind = DANGER
                    moves1 = f_danger[c0].get(h1)
                else:
                    kind = SAFE
                    moves1 = f_safe[c0].get(h1)
                if moves1 is None:
                    moves1 = follow_order(h1, c0, kind)
                a1 = a0
                b1 = b0
                v1 = NEG_INF if x1 else INF
                for c1 in moves1:
                    nodes += 1
                    r2 = r1 ^ BIT[c1]
                    if BIT[c1] & bt:
                        w1 = c1
                        xw = x1
                    else:
                        w1 = c0
                        xw = x0
                    g1 = g0 + aug[c1]
                    bt1 = beat[w1]
                    if x2 != xw:
                        kind = OPP
                        moves2 = f_opp[w1].get(h2)
                    elif h3 & bt1:
                        kind = DANGER
                        moves2 = f_danger[w1].get(h2)
                    else:
                        kind = SAFE
                        moves2 = f_safe[w1].get(h2)
                    if moves2 is None:
                        moves2 = follow_order(h2, w1, kind)
                    a2 = a1
                    b2 = b1
                    v2 = NEG_INF if x2 else INF
                    for c2 in moves2:
                        nodes += 1
                        r3 = r2 ^ BIT[c2]
                        if BIT[c2] & bt1:
                            w2 = c2
                            xw2 = x2
                        else:
                            w2 = w1
                            xw2 = xw
                        g2 = g1 + aug[c2]
                        bt2 = beat[w2]
                        if x3 != xw2:
                            moves3 = f_last[w2].get(h3)
                            if moves3 is None:
                                moves3 = follow_order(h3, w2, LAST_OPP)
                        else:
                            moves3 = f_safe[w2].get(h3)
                            if moves3 is None:
                                moves3 = follow_order(h3, w2, SAFE)
                        a3 = a2
                        b3 = b2
                        v3 = NEG_INF if x3 else INF
                        for c3 in moves3:
                            nodes += 1
                            w3 = c3 if BIT[c3] & bt2 else w2
                            tv = g2 + aug[c3] + bonus
                            win = owner[w3]
                            # the last trick: no choice left, the cards decide
                            r4 = r3 ^ BIT[c3]
                            li = (r4 & seat_mask[win]).bit_length() - 1
                            top = (r4 & (cmask[li] | trump_mask)).bit_length() - 1
                            if in_side[win]:
                                v = ub if in_side[owner[top]] else tv
                            else:
                                v = ub - tv if in_side[owner[top]] else 0
                            if x3:
                                if v > v3:
                                    v3 = v
                                    if v > a3:
                                        a3 = v
                                        if v >= b3:
                                            break
                            elif v < v3:
                                v3 = v
                                if v < b3:
                                    b3 = v
                                    if a3 >= v:
                                        break
                        v = v3
                        if x2:
                            if v > v2:
                                v2 = v
                                if v > a2:
                                    a2 = v
                                    if v >= b2:
                                        break
                        elif v < v2:
                            v2 = v
                            if v < b2:
                                b2 = v
                                if a2 >= v:
                                    break
                    v = v2
                    if x1:
                        if v > v1:
                            v1 = v
                            if v > a1:
                                a1 = v
                                if v >= b1:
                                    break
                    elif v < v1:
                        v1 = v
                        if v < b1:
                            b1 = v
                            if a1 >= v:
                                break
                v = v1
                if x0:
                    if v > v0:
                        v0 = v
                        best_move = c0
                        if v > a0:
                            a0 = v
                            if v >= b0:
                                break
                elif v < v0:
                    v0 = v
                    best_move = c0
                    if v < b0:
                        b0 = v
                        if a0 >= v:
                            break
            solver.nodes += nodes
            # store the bound; keep the leader's card when it proved something
            if v0 <= a_in:
                if v0 < hi:
                    hi = v0
                if not x0:
                    bm = best_move
                    killer[KILLER_N | leader] = best_move
            elif v0 >= b_in:
                if v0 > lo:
                    lo = v0
                if x0:
                    bm = best_move
                    killer[KILLER_N | leader] = best_move
            else:
                lo = hi = v0
                bm = best_move
            tts[leader][rem] = (lo, hi, bm)
            return v0

        def search_any(rem: int, leader: int, n: int, ub: int, alpha: int, beta: int) -> int:
            if n >= 3:
                return search(rem, leader, n, ub, alpha, beta)
            if n == 2:
                return search2(rem, leader, ub, alpha, beta)
            # one trick left: the cards decide
            top = rem & seat_mask[leader]
            top = (rem & (cmask[top.bit_length() - 1] | trump_mask)).bit_length() - 1
            solver.nodes += 4
            return ub if in_side[owner[top]] else 0

        return search_any


def solve(
    order: TrickOrder,
    hands: Sequence[Sequence[Card]],
    leader: int,
    side: Collection[int],
    trick: Sequence[Card] = (),
    taken: int = 0,
    *,
    mode: str = "augen",
    must_trump: bool = False,
) -> SolveResult:
    """Exact value for ``side`` (a set of seats) of the position, ``taken`` included.

    ``hands[seat]`` are the cards held now; ``trick`` the cards on the table, led
    by ``leader``; ``mode`` is ``"augen"`` (card points) or ``"tricks"``.
    ``must_trump``: a player who cannot follow must trump if able (Ramsch).
    """
    solver = Solver(order, hands, side, leader=leader, trick=trick, mode=mode,
                    must_trump=must_trump)
    r = solver.value(hands, leader, trick)
    return SolveResult(r.value + taken, r.nodes, r.best_card, mode)


def _state_args(state: PairTrickState) -> tuple[list[list[Card]], int, list[Card], bool]:
    if state.phase != "play":
        raise ValueError(f"the game is not in the play phase (phase {state.phase!r})")
    t = state.tricks
    must = state.contract == "ramsch" and state.rules.ramsch_stichzwang
    return [list(h) for h in state.hands], t.leader, list(t.current), must


def _pair_side(pair: int) -> frozenset[int]:
    if pair not in (0, 1):
        raise ValueError(f"pair must be 0 or 1, not {pair!r}")
    return frozenset({pair, pair + 2})


def _taken(state: PairTrickState, pair: int, mode: str) -> int:
    if mode == "augen":
        return state.pair_augen()[pair]
    return state.pair_tricks()[pair]


def solve_state(state: PairTrickState, side_pair: int, *, mode: str = "augen") -> SolveResult:
    """Exact final Augen (or tricks) of pair ``side_pair`` (0: seats 0+2, 1: seats 1+3)
    of a Mucken game in play, with best play by all from here; taken Augen included."""
    hands, leader, trick, must = _state_args(state)
    return solve(state.order, hands, leader, _pair_side(side_pair), trick,
                 _taken(state, side_pair, mode), mode=mode, must_trump=must)


def card_values(
    state: PairTrickState, side_pair: int | None = None, *, mode: str = "augen"
) -> dict[Card, int]:
    """The exact final Augen (taken included) of a pair after each legal card of the
    player to move, with best play afterwards.  ``side_pair`` defaults to the
    mover's pair, so the best card's value is :func:`solve_state`'s value."""
    hands, leader, trick, must = _state_args(state)
    pair = state.current_player % 2 if side_pair is None else side_pair
    solver = Solver(state.order, hands, _pair_side(pair), leader=leader, trick=trick,
                    mode=mode, must_trump=must)
    base = _taken(state, pair, mode)
    return {c: base + v for c, v in solver.card_values(hands, leader, trick).items()}
