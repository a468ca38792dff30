"""Dealing the cards a seat cannot see: the sampling core every game's world sampler uses.

A search bot's world gives the unseen cards to the other seats, each as many as it holds,
under what the table showed: a seat that did not follow a suit holds none of it, a card
the rules keep from a seat is never dealt to it.  The games say which seat may hold
which card; the dealing, the retries and the merging of equal worlds are here, once:

- :func:`deal_constrained`: card by card, the most constrained first, each to one of its
  seats with a chance by the room left there (:func:`pick_weighted`, or
  :func:`pick_shuffled` with Hall's check :func:`hall_feasible`, which never gets stuck);
- :func:`deal_in_turn`: seat by seat, each taking the first cards it may hold;
- :func:`redraw`: draw until a world is accepted (a soft model, a replay check), else
  keep the best one seen;
- :func:`dedupe`: equal worlds once, with their count as weight.

The randomness comes from the ``rng`` passed in, in a fixed order, so a seeded bot
decides the same every time.

>>> import random
>>> from stammtisch.cards import cards
>>> hand = cards("EO GO HO SO")
>>> eligible = {c: (1, 2) if c.rank.value == "O" else (2,) for c in hand}
>>> dealt = deal_constrained(list(hand), eligible, {1: 2, 2: 2}, random.Random(1),
...                          pick=pick_weighted)
>>> sorted(len(h) for h in dealt.values()), dealt == deal_constrained(
...     list(hand), eligible, {1: 2, 2: 2}, random.Random(1), pick=pick_weighted)
([2, 2], True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from stammtisch.cards import Card
from stammtisch.engine.core import Rng

__all__ = ["Eligible", "deal_constrained", "deal_in_turn", "dedupe", "hall_feasible",
           "hands_key", "pick_shuffled", "pick_weighted", "redraw"]

W = TypeVar("W")

#: card -> the seats that may hold it
Eligible = Mapping[Card, Sequence[int]]
#: the seats to try for a card, in order: ``pick(options, room, rng)``
Pick = Callable[[list[int], Mapping[int, int], Rng], Sequence[int]]
#: whether the cards still to deal fit the room left: ``feasible(cards, eligible, room)``
Feasible = Callable[[Sequence[Card], Eligible, Mapping[int, int]], bool]


def pick_weighted(options: list[int], room: Mapping[int, int], rng: Rng) -> Sequence[int]:
    """One seat, with a chance by its room (no seat: none, and nothing drawn)."""
    if not options:
        return ()
    total = 0
    for s in options:
        total += room[s]
    r = rng.randrange(total)
    for s in options:
        r -= room[s]
        if r < 0:
            return (s,)
    raise AssertionError("unreachable: r < the total room")  # pragma: no cover


def pick_shuffled(options: list[int], room: Mapping[int, int], rng: Rng) -> Sequence[int]:
    """Every seat: first one with a chance by its room, then the others in a random
    order (for a dealer that checks each choice and may need another seat)."""
    rng.shuffle(options)
    pick = rng.random() * sum(room[s] for s in options)
    acc = 0.0
    for i, s in enumerate(options):
        acc += room[s]
        if pick < acc:
            return [s, *options[:i], *options[i + 1:]]
    return options


def hall_feasible(cards: Sequence[Card], eligible: Eligible, room: Mapping[int, int]) -> bool:
    """Whether ``cards`` can still be dealt: they fill the room exactly and, for every set
    of seats, the cards only those seats may hold fit into their room (Hall)."""
    seats = [s for s in room if room[s] > 0]
    if sum(room.values()) != len(cards):
        return False
    open_seats = set(seats)
    effective = [set(eligible[c]) & open_seats for c in cards]
    if any(not e for e in effective):
        return False
    for r in range(1, len(seats)):
        for subset in itertools.combinations(seats, r):
            sset = set(subset)
            only = sum(1 for e in effective if e <= sset)
            if only > sum(room[s] for s in subset):
                return False
    return True


def deal_constrained(cards: list[Card], eligible: Eligible, room: dict[int, int], rng: Rng,
                     *, pick: Pick, feasible: Feasible | None = None
                     ) -> dict[int, list[Card]] | None:
    """Deal ``cards`` (shuffled in place, then the most constrained first) to the seats of
    ``room`` (seat -> cards it still takes; used up in place), each card to the first seat
    ``pick`` offers that ``feasible`` accepts.  ``None`` when a card finds no seat."""
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(eligible[c]))
    hands: dict[int, list[Card]] = {s: [] for s in room}
    for i, c in enumerate(cards):
        for s in pick([s for s in eligible[c] if room[s] > 0], room, rng):
            room[s] -= 1
            if feasible is None or feasible(cards[i + 1:], eligible, room):
                hands[s].append(c)
                break
            room[s] += 1
        else:
            return None
    return hands


def deal_in_turn(cards: Sequence[Card], sizes: Mapping[int, int],
                 allowed: Callable[[int, list[Card]], list[Card]] | None = None
                 ) -> tuple[dict[int, list[Card]], list[Card]] | None:
    """Seat by seat (in the order of ``sizes``), the first ``sizes[seat]`` of the cards
    left that ``allowed(seat, cards)`` keeps (in their order); the hands and the cards
    left over, or ``None`` when a seat finds too few."""
    rest = list(cards)
    hands: dict[int, list[Card]] = {}
    for s, need in sizes.items():
        got = (rest if allowed is None else allowed(s, rest))[:need]
        if len(got) < need:
            return None
        hands[s] = got
        taken = set(got)
        rest = [c for c in rest if c not in taken]
    return hands, rest


def redraw(draw: Callable[[int], W | None], tries: int,
           judge: Callable[[W, int], tuple[bool, float]]) -> W | None:
    """Up to ``tries`` worlds ``draw(attempt)`` (``None``: that draw failed): the first one
    ``judge(world, attempt)`` accepts, else the one it scored highest (the first of
    equals); ``None`` when every draw failed."""
    best: W | None = None
    best_score = 0.0
    for attempt in range(tries):
        world = draw(attempt)
        if world is None:
            continue
        ok, score = judge(world, attempt)
        if ok:
            return world
        if best is None or score > best_score:
            best, best_score = world, score
    return best


def hands_key(world: Sequence[Iterable[Card]]) -> Hashable:
    """A world of hands by seat, as a key that ignores the order within a hand."""
    return tuple(frozenset(h) for h in world)


def dedupe(worlds: Iterable[W], key: Callable[[W], Hashable]) -> list[tuple[W, int]]:
    """Equal worlds (by ``key``) once, in the order first seen, with their count."""
    seen: dict[Hashable, int] = {}
    out: list[tuple[W, int]] = []
    for w in worlds:
        k = key(w)
        i = seen.get(k)
        if i is None:
            seen[k] = len(out)
            out.append((w, 1))
        else:
            out[i] = (out[i][0], out[i][1] + 1)
    return out
