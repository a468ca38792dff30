"""Dealing hidden worlds consistent with what one seat knows.

A seat knows its own cards, every card played (and by whom), the hand sizes,
and the voids the others showed by not following the led suit (or trump).  The
calls say something too: a seat that called a game likely holds that game's
trumps, and a seat that said "weiter" with the first call of a round open likely
did not hold a strong hand.  Those call inferences are soft: worlds are drawn
with the hard constraints exactly (own cards, played cards, hand sizes, voids)
and then accepted with a probability from the call model, so an unusual call
never makes sampling fail.

The hard constraints are met with a sequential draw that checks feasibility
(Hall's condition over the three other seats) before every assignment, so every
drawn world is consistent and sampling never gets stuck.

Reads only ``state.view(seat)``-level information plus the seat's own hand.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from stammtisch.cards import Card
from stammtisch.engine.core import Rng
from stammtisch.engine.tricks import TRUMP, TrickOrder
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.state import MuckenState

World = list[list[Card]]


def known_voids(state: MuckenState) -> list[set[int]]:
    """Follow classes (suit numbers or TRUMP) each seat has shown it lacks."""
    order = state.order
    voids: list[set[int]] = [set(), set(), set(), set()]
    tricks = [(lead, cs) for lead, cs in state.tricks.tricks]
    if state.tricks.current:
        tricks.append((state.tricks.leader, tuple(state.tricks.current)))
    for lead, cs in tricks:
        led = order.klass(cs[0])
        for i, c in enumerate(cs[1:], 1):
            if order.klass(c) != led:
                voids[(lead + i) % 4].add(led)
    return voids


def played_cards(state: MuckenState) -> set[Card]:
    out = {c for _, cs in state.tricks.tricks for c in cs}
    out.update(state.tricks.current)
    return out


def unseen_cards(state: MuckenState, seat: int) -> list[Card]:
    gone = played_cards(state) | set(state.hands[seat])
    return [c for c in state.deck if c not in gone]


def _feasible(cards: Sequence[Card], eligible: dict[Card, tuple[int, ...]],
              capacity: dict[int, int]) -> bool:
    seats = [s for s in capacity if capacity[s] > 0]
    if sum(capacity.values()) != len(cards):
        return False
    open_seats = set(seats)
    effective = [set(eligible[c]) & open_seats for c in cards]
    if any(not e for e in effective):
        return False
    for r in range(1, len(seats)):
        for subset in itertools.combinations(seats, r):
            sset = set(subset)
            only = sum(1 for e in effective if e <= sset)
            if only > sum(capacity[s] for s in subset):
                return False
    return True


def deal_consistent(state: MuckenState, seat: int, rng: Rng,
                    voids: list[set[int]] | None = None) -> World:
    """One world: the true hand of ``seat`` and the unseen cards dealt to the others
    with their hand sizes and shown voids respected."""
    order = state.order
    voids = voids if voids is not None else known_voids(state)
    cards = unseen_cards(state, seat)
    others = [s for s in range(4) if s != seat]
    capacity = {s: len(state.hands[s]) for s in others}
    eligible = {c: tuple(s for s in others if order.klass(c) not in voids[s]) for c in cards}
    rng.shuffle(cards)
    # most constrained cards first keeps the draw close to uniform and fast
    cards.sort(key=lambda c: len(eligible[c]))
    hands: World = [[], [], [], []]
    hands[seat] = list(state.hands[seat])
    remaining = list(cards)
    while remaining:
        c = remaining.pop(0)
        options = [s for s in eligible[c] if capacity[s] > 0]
        rng.shuffle(options)
        weights = [capacity[s] for s in options]
        total = sum(weights)
        pick = rng.random() * total
        ordered: list[int] = []
        acc = 0.0
        for s, w in zip(options, weights, strict=True):
            acc += w
            if pick < acc and not ordered:
                ordered.append(s)
        ordered += [s for s in options if s not in ordered]
        for s in ordered:
            capacity[s] -= 1
            if _feasible(remaining, eligible, capacity):
                hands[s].append(c)
                break
            capacity[s] += 1
        else:  # pragma: no cover - the true deal is always a solution
            raise RuntimeError("no consistent world (inconsistent state?)")
    return hands


# -- call model ---------------------------------------------------------------------------
def game_strength(hand: Sequence[Card], order: TrickOrder) -> float:
    """A rough strength of ``hand`` for the game of ``order``: trumps by rank, side aces."""
    n_trumps = len(order.trumps)
    score = 0.0
    for c in hand:
        if order.is_trump(c):
            rank = order.trumps.index(c)
            score += 1.0 + max(0.0, (n_trumps / 2 - rank) / n_trumps) * 2
        elif c.rank.value == "A":
            score += 0.8
    return score


def call_likelihood(state: MuckenState, world: World, seat: int) -> float:
    """How well ``world`` fits the calls heard (1 = fully), for rejection sampling."""
    rules = state.rules
    like = 1.0
    hand_size = rules.hand_size
    for s, word in state.calls:
        if s == seat:
            continue
        bid = rules.bid_by_name(word)
        # the hand the seat held when it spoke: its current cards plus those it played
        held = list(world[s]) + [c for lead, cs in state.tricks.tricks
                                 for i, c in enumerate(cs) if (lead + i) % 4 == s]
        held += [c for i, c in enumerate(state.tricks.current)
                 if (state.tricks.leader + i) % 4 == s]
        if bid is not None:
            order = trick_order(bid.kind, rules.deck, bid.suit)
            strength = game_strength(held, order) * 6 / hand_size
            need = 4.0 + 1.5 * bid.level_index
            like *= 1 / (1 + math.exp(-(strength - need) * 1.5))
        elif word == "weiter" and state.bid is None:
            order = trick_order(rules.games[0], rules.deck)
            strength = game_strength(held, order) * 6 / hand_size
            like *= 1 / (1 + math.exp((strength - 6.0) * 1.0))
    return like


def sample_worlds(state: MuckenState, seat: int, rng: Rng, count: int, *,
                  use_calls: bool = True, max_tries: int = 20) -> list[World]:
    """``count`` worlds for ``seat``; with ``use_calls`` each is drawn by rejection on the
    call model (at most ``max_tries`` draws per world, keeping the best seen)."""
    voids = known_voids(state)
    out: list[World] = []
    for _ in range(count):
        best: World | None = None
        best_like = -1.0
        for _try in range(max_tries if use_calls else 1):
            world = deal_consistent(state, seat, rng, voids)
            if not use_calls:
                best = world
                break
            like = call_likelihood(state, world, seat)
            if rng.random() < like:
                best = world
                break
            if like > best_like:
                best, best_like = world, like
        assert best is not None
        out.append(best)
    return out


def with_hands(state: MuckenState, world: World) -> MuckenState:
    """A copy of ``state`` in which the hands are those of ``world``."""
    s = state.clone()
    s.hands = [list(h) for h in world]
    s._legal = None
    return s


Sampler = Callable[[MuckenState, int, Rng, int], list[World]]
__all__ = ["TRUMP", "call_likelihood", "deal_consistent", "known_voids", "sample_worlds",
           "unseen_cards", "with_hands"]
