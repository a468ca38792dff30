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
drawn world is consistent and sampling never gets stuck (the dealing and the
redrawing: :mod:`stammtisch.bots.sampling`).

Reads only ``state.view(seat)``-level information plus the seat's own hand.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from stammtisch.bots.sampling import deal_constrained, hall_feasible, pick_shuffled, redraw
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


def deal_consistent(state: MuckenState, seat: int, rng: Rng,
                    voids: list[set[int]] | None = None) -> World:
    """One world: the true hand of ``seat`` and the unseen cards dealt to the others
    with their hand sizes and shown voids respected (never stuck: Hall's check)."""
    order = state.order
    voids = voids if voids is not None else known_voids(state)
    cards = unseen_cards(state, seat)
    others = [s for s in range(4) if s != seat]
    room = {s: len(state.hands[s]) for s in others}
    eligible = {c: tuple(s for s in others if order.klass(c) not in voids[s]) for c in cards}
    dealt = deal_constrained(cards, eligible, room, rng, pick=pick_shuffled,
                             feasible=hall_feasible)
    if dealt is None:  # pragma: no cover - the true deal is always a solution
        raise RuntimeError("no consistent world (inconsistent state?)")
    hands: World = [dealt.get(s, []) for s in range(4)]
    hands[seat] = list(state.hands[seat])
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


class WorldSampler:
    """Worlds for ``seat`` (:class:`stammtisch.bots.pimc.WorldSampler`); with ``use_calls``
    each is drawn by rejection on the call model (at most ``max_tries`` draws per world,
    keeping the best seen)."""

    def __init__(self, state: MuckenState, seat: int, *, use_calls: bool = True,
                 max_tries: int = 20) -> None:
        self.state, self.seat = state, seat
        self.use_calls, self.tries = use_calls, max_tries if use_calls else 1
        self.voids = known_voids(state)

    def __call__(self, rng: Rng) -> World:
        def judge(world: World, attempt: int) -> tuple[bool, float]:
            if not self.use_calls:
                return True, 0.0
            like = call_likelihood(self.state, world, self.seat)
            return rng.random() < like, like

        world = redraw(lambda _: deal_consistent(self.state, self.seat, rng, self.voids),
                       self.tries, judge)
        assert world is not None
        return world


def sample_worlds(state: MuckenState, seat: int, rng: Rng, count: int, *,
                  use_calls: bool = True, max_tries: int = 20) -> list[World]:
    """``count`` worlds for ``seat`` (see :class:`WorldSampler`)."""
    sampler = WorldSampler(state, seat, use_calls=use_calls, max_tries=max_tries)
    return [sampler(rng) for _ in range(count)]


def with_hands(state: MuckenState, world: World) -> MuckenState:
    """A copy of ``state`` in which the hands are those of ``world``."""
    s = state.clone()
    s.hands = [list(h) for h in world]
    s._legal = None
    return s


__all__ = ["TRUMP", "WorldSampler", "call_likelihood", "deal_consistent", "known_voids",
           "sample_worlds", "unseen_cards", "with_hands"]
