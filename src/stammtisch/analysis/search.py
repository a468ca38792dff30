"""The solver driver's search: trick-level alpha-beta over bitmasks, inlined once.

:func:`build_search` turns one deal of :class:`~stammtisch.analysis.solver.Solver` into
a closure ``search(remaining, leader, tricks_left, upper, alpha, beta)``: the future
value for the side from a trick boundary, fail-soft, with the bounds stored in the
deal's transposition table.  One call plays a whole trick as four nested loops (no call
per card); a copy of the loops for the last two tricks evaluates the last trick
directly.  Everything a game may switch on is read from the deal's
:class:`~stammtisch.analysis.solver.TrickRules` once, when the closure is built, so a
rule that is off costs a test of a closure variable per trick at most:

- ``must_trump``: a player who cannot follow must trump if able (Mucken's Ramsch);
- the called card (Schafkopf's Rufsau): its holder, while its class has not been led,
  leads that class only with the card itself (unless he may run away with four or more
  of the class), must play it when the class is led and may not discard it.  "The class
  has been led" is :data:`LED_BIT` of the position (above the card bits) while the card
  is still held, so the table keeps the two apart; a trick from a position with the bit
  plays the card with the bit (``BIT_LED``), so the bit goes with the card;
- ``sure_trumps``: at a boundary without a table entry, the top run of the trumps left,
  held by one side, goes to that side with its Augen whatever is played — a bound;
- ``probe_fresh_four``: the quick look at the leads' tricks (five or more tricks left)
  also with four tricks left when the table has no card for the position;
- the node limit (:attr:`Solver.node_limit`, set through the returned ``set_limit``),
  checked at each boundary with three or more tricks left: :class:`NodeLimitExceeded`.

The techniques (equivalent cards, killer leads, move ordering, the table probes before
each call, small ints) are described in :mod:`stammtisch.analysis.solver`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from stammtisch.analysis.layout import DANGER, LAST_OPP, OPP, SAFE, Layout

__all__ = ["INF", "LED_BIT", "NO_CARD", "NO_LIMIT", "NodeLimitExceeded", "Search",
           "SearchDeal", "SetLimit", "build_search"]

#: a position bit above the card bits: the called card's class has been led
LED_BIT = 1 << 40
#: the "called card" bit of a game without one: never in a position
NO_CARD = 1 << 41
INF = 1 << 20  # (a one-digit int for CPython)

#: ``search(remaining, leader, tricks_left, upper, alpha, beta) -> value``
Search = Callable[[int, int, int, int, int, int], int]
#: ``set_limit(node_limit)``: the search gives up past this many nodes of the deal
SetLimit = Callable[[int], None]
#: no node limit
NO_LIMIT = 1 << 62


class NodeLimitExceeded(Exception):
    """The search passed the solver's ``node_limit`` (the solver's table stays valid)."""


class SearchRules(Protocol):
    """The switches of :class:`~stammtisch.analysis.solver.TrickRules` the search reads."""

    @property
    def must_trump(self) -> bool: ...
    @property
    def sure_trumps(self) -> bool: ...
    @property
    def probe_fresh_four(self) -> bool: ...


class SearchDeal(Protocol):
    """What the search reads of a deal (:class:`~stammtisch.analysis.solver.Solver`)."""

    owner: list[int]
    seat_mask: list[int]
    in_side: list[bool]
    tt: list[dict[int, tuple[int, int, int]]]
    nodes: int

    @property
    def lay(self) -> Layout: ...
    @property
    def rules(self) -> SearchRules: ...
    def called_bits(self) -> tuple[int, int, int, bool]: ...


def build_search(deal: SearchDeal) -> tuple[Search, SetLimit]:
    """The trick-level alpha-beta of ``deal`` as a closure over its tables (fast locals),
    and the setter of its node limit (none at first)."""
    lay = deal.lay
    owner = deal.owner
    aug = lay.aug
    bonus = lay.bonus
    aug_b = lay.aug_bonus
    cmask = lay.cmask
    beat = lay.beat
    above = lay.above
    eq = lay.eq
    eq_all = lay.eq_all
    trump_mask = lay.trump_mask
    class_or_trump = lay.class_or_trump
    lead = lay.lead
    lead_order = lay.lead_order
    follow_order = lay.follow_order
    follow = lay.follow
    f_opp, f_safe, f_danger, f_last = follow
    seat_mask = deal.seat_mask
    in_side = deal.in_side
    card_side = [o >= 0 and in_side[o] for o in owner]  # per card: its owner's side
    rules = deal.rules
    must_trump = rules.must_trump
    tts = deal.tt
    tt_gets = [d.get for d in tts]
    killer = [-1] * 64
    BIT = lay.bit
    #: per leader: the side flags and seat masks of the four hands in playing order
    seats_from: list[tuple[bool, bool, bool, bool, int, int, int, int]] = [
        (in_side[ld], in_side[(ld + 1) & 3], in_side[(ld + 2) & 3], in_side[(ld + 3) & 3],
         seat_mask[ld], seat_mask[(ld + 1) & 3], seat_mask[(ld + 2) & 3],
         seat_mask[(ld + 3) & 3])
        for ld in range(4)
    ]
    solver = deal
    # the called card (Schafkopf's Rufsau): its bit, its class's cards, its holder
    abit, smask, holder, dav = deal.called_bits()
    called_on = holder >= 0
    act_mask = abit | LED_BIT
    ai = abit.bit_length() - 1
    BIT_LED = BIT
    if called_on:
        BIT_LED = BIT[:]
        BIT_LED[ai] |= LED_BIT
    lead_keep = ~(smask ^ abit)
    NEG_INF = -INF

    # sure Augen: the top run of the trumps left, held by one side, takes its own
    # Augen whatever happens (nothing left can beat them); + declarers', - opponents'
    sure_on = rules.sure_trumps and bonus == 0 and trump_mask != 0
    # the quick look at the leads also with four tricks left (no card from the table)
    probe_n = 4 if rules.probe_fresh_four else -1
    sure: dict[int, int] = {}
    sure_get = sure.get

    def sure_of(key: int) -> int:
        t = key
        g = 0
        s0 = -1
        while t:
            i = t.bit_length() - 1
            s = in_side[owner[i]]
            if s0 < 0:
                s0 = s
            elif s != s0:
                break
            g += aug[i]
            t ^= BIT[i]
        v = sure[key] = g if s0 > 0 else -g
        return v

    def prune(m: int, alive: int) -> int:
        """Drop cards with an equivalent card (same hand, adjacent, same Augen) above."""
        e = m & eq_all
        while e:
            b = e & -e
            e ^= b
            i = b.bit_length() - 1
            nxt = alive & above[i]
            if nxt & -nxt & m & eq[i]:
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
        if limited and solver.nodes > limit:
            raise NodeLimitExceeded(solver.nodes)
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
            if sure_on:
                t = rem & trump_mask
                s = sure_get(t)
                if s is None:
                    s = sure_of(t)
                if s > 0:
                    if s >= beta:
                        return s
                    lo = s
                    if s > alpha:
                        alpha = s
                elif s < 0:
                    hi = ub + s
                    if hi <= alpha:
                        return hi
                    if hi < beta:
                        beta = hi
        a_in = alpha
        b_in = beta
        nodes = 0
        x0, x1, x2, x3, m0, m1, m2, m3 = seats_from[leader]
        p0 = rem & m0
        p1 = rem & m1
        p2 = rem & m2
        p3 = rem & m3
        # the called card's holder, counted from the leader, while the card binds him;
        # with the class led before, playing the card clears LED_BIT (BIT_LED)
        hp = -1
        BITS = BIT
        if called_on:
            if rem & LED_BIT:
                BITS = BIT_LED
            elif rem & abit:
                hp = (holder - leader) & 3
                if hp == 0 and not (dav and (p0 & smask).bit_count() >= 4):
                    p0 &= lead_keep
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
        if (n >= 5 or (n == probe_n and fresh)) and len(moves0) > 1:
            moves0 = probe_order(moves0, bm, p1, p2, p3, x0, x1, x2, x3)
        a0 = alpha
        b0 = beta
        v0 = NEG_INF if x0 else INF
        best_move = -1
        for c0 in moves0:
            nodes += 1
            r1 = rem ^ BITS[c0]
            g0 = aug_b[c0]  # the trick bonus (tricks mode) comes with the lead
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
            if hp >= 0:
                if cm != smask:  # the holder may not discard the card
                    if hp == 1:
                        if h1 & abit and h1 != abit:
                            h1 ^= abit
                    elif hp == 2:
                        if h2 & abit and h2 != abit:
                            h2 ^= abit
                    elif hp == 3 and h3 & abit and h3 != abit:
                        h3 ^= abit
                elif hp == 1:  # the called suit is led: the holder must play the card
                    h1 = abit
                elif hp == 2:
                    h2 = abit
                elif hp == 3:
                    h3 = abit
                elif c0 != ai:  # the holder leads and runs away: the suit has been led
                    r1 |= LED_BIT
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
                r2 = r1 ^ BITS[c1]
                if BITS[c1] & bt:
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
                    r3 = r2 ^ BITS[c2]
                    if BITS[c2] & bt1:
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
                        w3 = c3 if BITS[c3] & bt2 else w2
                        tv = g2 + aug[c3]
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
                            r4 = r3 ^ BITS[c3]
                            e = tt_gets[win](r4)
                            if e is None:
                                if n == 3:
                                    v = gain + search2(r4, win, ub4, a, b)
                                else:
                                    v = gain + search(r4, win, n - 1, ub4, a, b)
                            elif e[0] >= b:
                                v = gain + e[0]
                            elif e[1] <= a:
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
            if sure_on:
                t = rem & trump_mask
                s = sure_get(t)
                if s is None:
                    s = sure_of(t)
                if s > 0:
                    if s >= beta:
                        return s
                    lo = s
                    if s > alpha:
                        alpha = s
                elif s < 0:
                    hi = ub + s
                    if hi <= alpha:
                        return hi
                    if hi < beta:
                        beta = hi
        a_in = alpha
        b_in = beta
        nodes = 0
        x0, x1, x2, x3, m0, m1, m2, m3 = seats_from[leader]
        p0 = rem & m0
        p1 = rem & m1
        p2 = rem & m2
        p3 = rem & m3
        hp = -1
        if called_on and rem & act_mask == abit:  # the called card is held, not yet led
            hp = (holder - leader) & 3
            if hp == 0 and not (dav and (p0 & smask).bit_count() >= 4):
                p0 &= lead_keep
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
            g0 = aug_b[c0]  # the trick bonus (tricks mode) comes with the lead
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
            if hp > 0:
                if cm == smask:  # the called suit is led: the holder must play the card
                    if hp == 1:
                        h1 = abit
                    elif hp == 2:
                        h2 = abit
                    else:
                        h3 = abit
                elif hp == 1:
                    if h1 & abit and h1 != abit:
                        h1 ^= abit
                elif hp == 2:
                    if h2 & abit and h2 != abit:
                        h2 ^= abit
                elif h3 & abit and h3 != abit:
                    h3 ^= abit
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
                        tv = g2 + aug[c3]
                        win = owner[w3]
                        # the last trick: no choice left, the cards decide
                        r4 = r3 ^ BIT[c3]
                        li = (r4 & seat_mask[win]).bit_length() - 1
                        top = (r4 & class_or_trump[li]).bit_length() - 1
                        if in_side[win]:
                            v = ub if card_side[top] else tv
                        else:
                            v = ub - tv if card_side[top] else 0
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

    limited = False
    limit = NO_LIMIT

    def set_limit(node_limit: int) -> None:
        nonlocal limited, limit
        limit = node_limit
        limited = node_limit < NO_LIMIT

    return search_any, set_limit

