"""Deals of the unseen cards consistent with what one seat knows (Schafkopf).

Everything here starts from ``state.view(seat)`` (and the house rules every player
knows): the seat's own hand, the contract, the declarer, the called card, the partner
once the table knows him, the tricks played and the current trick.  It never reads
another seat's hand, so in a Rufspiel nobody but the holder learns who holds the called
ace before it is played.

A sampled world respects:

- the hand sizes and the suits (follow classes of the contract) a seat was seen not to
  follow;
- the called card (Rufspiel, Muss-Spiel): the declarer does not hold it and held a card of
  its suit when he named the game; and the whole play so far must have been legal in
  the world under the called card's rules (a seat that followed the called suit with
  another card before it was "gesucht" does not hold the ace; the holder leads that suit
  only with the ace unless he may run away; he never discarded it) — checked by
  replaying the tricks with :func:`legal_cards`, the engine's rule mirrored.

>>> import random
>>> from stammtisch.games.schafkopf.state import SchafkopfState
>>> s = SchafkopfState(); s.apply(s.sample_chance(random.Random(1)))
>>> obs = observe(s, 0)
>>> len(obs.hand), obs.sizes
(8, [8, 8, 8, 8])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from stammtisch.bots.sampling import deal_constrained, deal_in_turn, pick_weighted, redraw
from stammtisch.cards import LONG_DECK, Card
from stammtisch.engine.core import Rng
from stammtisch.engine.tricks import TrickOrder
from stammtisch.games.schafkopf.games import NORMAL, game_by_word, order_for
from stammtisch.games.schafkopf.state import SchafkopfState

__all__ = ["Observation", "World", "legal_cards", "observe", "sample_world", "sample_worlds"]

#: the hands of the four seats in one sampled world
World = list[list[Card]]


@dataclass
class Observation:
    """What one seat knows of a hand in play (built from its view only)."""

    seat: int
    hand: list[Card]
    contract: str | None
    declarer: int | None
    #: the partner as the table knows him (Hochzeit; a Rufspiel once the ace is played)
    partner: int | None
    called: Card | None
    order: TrickOrder
    davonlaufen: bool
    #: finished tricks: (leader, cards in playing order)
    tricks: list[tuple[int, list[Card]]]
    #: the current trick: its leader and cards
    leader: int
    current: list[Card]
    sizes: list[int]
    #: seat -> follow classes it has been seen not to hold
    voids: list[set[int]] = field(default_factory=lambda: [set(), set(), set(), set()])
    gesucht: bool = False

    @property
    def played(self) -> set[Card]:
        out = {c for _, cs in self.tricks for c in cs}
        out.update(self.current)
        return out

    def unseen(self) -> list[Card]:
        """The cards the seat cannot see, in deck order."""
        known = set(self.hand) | self.played
        return [c for c in LONG_DECK if c not in known]

    def played_by(self) -> list[list[Card]]:
        out: World = [[], [], [], []]
        for lead, cs in [*self.tricks, (self.leader, self.current)]:
            for i, c in enumerate(cs):
                out[(lead + i) % 4].append(c)
        return out


def observe(state: SchafkopfState, seat: int) -> Observation:
    """The seat's knowledge, read from ``state.view(seat)`` (and the rules)."""
    v = state.view(seat)
    hand = [Card.parse(c) for c in v["hand"]]
    contract = v["contract"]
    g = game_by_word(contract) if isinstance(contract, str) else None
    order = order_for(g.kind, g.suit) if g is not None else NORMAL
    tricks = [(t["leader"], [Card.parse(x["card"]) for x in t["cards"]])
              for t in v["tricks_played"]]
    current = [Card.parse(x["card"]) for x in v["trick"]]
    if v["trick"]:
        leader = v["trick"][0]["seat"]
    elif v["tricks_played"]:
        leader = v["tricks_played"][-1]["winner"]
    else:
        leader = v["to_act"] if v["to_act"] is not None else v["vorhand"]
    called = Card.parse(v["called"]) if v["called"] else None
    obs = Observation(seat, hand, contract, v["declarer"], v["partner"], called, order,
                      bool(state.rules.davonlaufen), tricks, leader, current,
                      list(v["hand_sizes"]))
    for lead, cs in [*tricks, (leader, current)]:
        if not cs:
            continue
        k = order.klass(cs[0])
        for i, c in enumerate(cs[1:], 1):
            if order.klass(c) != k:
                obs.voids[(lead + i) % 4].add(k)
    if called is not None:
        k = order.klass(called)
        obs.gesucht = any(order.klass(cs[0]) == k for _, cs in tricks)
    return obs


def legal_cards(hand: Sequence[Card], led: Card | None, order: TrickOrder,
                called: Card | None, gesucht: bool, davonlaufen: bool) -> list[Card]:
    """The engine's legal cards (``SchafkopfState._legal_cards``) for a hand: follow the
    led class; the holder of the called card obeys its rules until it is "gesucht"."""
    base = order.legal(hand, led)
    if called is None or gesucht or called not in hand:
        return base
    suit_cards = [c for c in hand if c.suit is called.suit and not order.is_trump(c)]
    if led is None:
        if davonlaufen and len(suit_cards) >= 4:
            return base
        return [c for c in base if c == called or c not in suit_cards]
    if order.klass(led) == order.klass(called):
        return [called]
    if len(base) > 1:
        return [c for c in base if c != called]
    return base


def consistent(obs: Observation, world: World) -> bool:
    """Whether the play so far was legal in ``world`` (the called card's rules) and the
    declarer could name the Rufspiel (he held a card of the called suit, not the ace)."""
    called = obs.called
    if called is None:
        return True
    order = obs.order
    played = obs.played_by()
    hands = [list(world[s]) + played[s] for s in range(4)]
    d = obs.declarer
    g = game_by_word(obs.contract) if obs.contract else None
    if d is not None and g is not None and g.kind == "sauspiel" and not g.zehn:
        if called in hands[d]:
            return False
        if not any(c.suit is called.suit and not order.is_trump(c) for c in hands[d]):
            return False
    gesucht = False
    k_called = order.klass(called)
    for lead, cs in [*obs.tricks, (obs.leader, obs.current)]:
        if not cs:
            continue
        for i, c in enumerate(cs):
            s = (lead + i) % 4
            if c not in legal_cards(hands[s], cs[0] if i else None, order, called, gesucht,
                                    obs.davonlaufen):
                return False
            hands[s].remove(c)
        if len(cs) == 4 and order.klass(cs[0]) == k_called:
            gesucht = True
    return True


def sample_world(obs: Observation, rng: Rng, tries: int = 60) -> World:
    """One deal of the unseen cards to the other seats, consistent with ``obs`` (after
    ``tries`` rejected deals the last one that fits the hand sizes and voids is used)."""
    unseen = obs.unseen()
    order = obs.order
    seat = obs.seat
    others = [s for s in range(4) if s != seat]
    need = {s: obs.sizes[s] for s in others}
    # the called card never lies with the declarer (he named the game without it)
    forbid_called = {obs.declarer} if obs.called is not None else set()
    eligible: dict[Card, list[int]] = {}
    for c in unseen:
        k = order.klass(c)
        eligible[c] = [s for s in others if k not in obs.voids[s]
                       and not (c == obs.called and s in forbid_called)]

    def world_of(hands: dict[int, list[Card]]) -> World:
        world: World = [hands.get(s, []) for s in range(4)]
        world[seat] = list(obs.hand)
        return world

    def draw(attempt: int) -> World | None:
        dealt = deal_constrained(list(unseen), eligible, dict(need), rng, pick=pick_weighted)
        return None if dealt is None else world_of(dealt)

    world = redraw(draw, tries, lambda w, attempt: (consistent(obs, w), attempt))
    if world is not None:
        return world
    # the voids cannot be met (should not happen): hand sizes only
    cards = list(unseen)
    rng.shuffle(cards)
    dealt = deal_in_turn(cards, need)
    assert dealt is not None
    return world_of(dealt[0])


def sample_worlds(state: SchafkopfState, seat: int, rng: Rng, n: int) -> list[World]:
    """``n`` worlds consistent with what ``seat`` knows (from its view only)."""
    obs = observe(state, seat)
    return [sample_world(obs, rng) for _ in range(n)]


def with_hands(state: SchafkopfState, world: World) -> SchafkopfState:
    """A copy of ``state`` with the hands of ``world`` (the partner follows the called
    card): a fully known game for the solver, never shown to a bot's seat."""
    s = state.clone()
    s.hands = [list(h) for h in world]
    s._legal = None
    if s.called is not None and not s.called_played:
        s._partner = next(x for x in range(4) if s.called in world[x])
    return s
