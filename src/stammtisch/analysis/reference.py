"""A plain minimax over the open hands — no pruning, no tables — to check the solver.

Exponential: use it on positions with at most three tricks left (or a full deal
once a few tricks are played).  It plays through :class:`TrickOrder` directly, so
it shares no code with :mod:`stammtisch.analysis.solver`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from stammtisch.cards import Card
from stammtisch.engine.tricks import TrickOrder


def minimax_reference(
    order: TrickOrder,
    hands: Sequence[Sequence[Card]],
    leader: int,
    side: Collection[int],
    trick: Sequence[Card] = (),
    taken: int = 0,
    *,
    mode: str = "augen",
    must_trump: bool = False,
    memo: bool = False,
) -> int:
    """What ``side`` takes (Augen, or tricks with ``mode="tricks"``) with best play by all.

    ``hands`` are the cards still held by seat; ``trick`` the cards on the table,
    led by ``leader``; ``taken`` is added to the result.  ``memo`` remembers the
    exact value of every position at a trick boundary (the cards still held and
    the leader) — still no pruning, but whole deals become feasible (seconds).
    """
    if mode not in ("augen", "tricks"):
        raise ValueError(f"mode must be 'augen' or 'tricks', not {mode!r}")
    n = len(hands)
    held = [list(h) for h in hands]
    sides = frozenset(side)

    seen: dict[tuple[frozenset[Card], int], int] = {}

    def rec(lead: int, table: list[Card]) -> int:
        seat = (lead + len(table)) % n
        if not table and not held[seat]:
            return 0
        if memo and not table:
            key = (frozenset(c for h in held for c in h), lead)
            if key not in seen:
                seen[key] = play(lead, table, seat)
            return seen[key]
        return play(lead, table, seat)

    def play(lead: int, table: list[Card], seat: int) -> int:
        legal = order.legal(held[seat], table[0] if table else None, must_trump=must_trump)
        values = []
        for c in legal:
            held[seat].remove(c)
            now = [*table, c]
            if len(now) == n:
                winner = (lead + order.winner(now)) % n
                gain = (sum(x.augen for x in now) if mode == "augen" else 1)
                v = (gain if winner in sides else 0) + rec(winner, [])
            else:
                v = rec(lead, now)
            held[seat].append(c)
            values.append(v)
        return max(values) if seat in sides else min(values)

    return taken + rec(leader, list(trick))
