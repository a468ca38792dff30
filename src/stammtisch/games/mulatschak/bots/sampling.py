"""Worlds of the unseen cards consistent with what one Mulatschak seat knows.

:func:`observe` builds an :class:`Observation` from ``state.view(seat)`` and from what was
public at the table and is kept in the state's history (the cards played so far, and the
seat's own exchange words); it never reads another seat's hand, the stock or another
seat's discards.  The view's ``shown`` and ``revealed`` cards that the seat sees and
does not hold are out of every other hand (the view hides those another seat holds), so
they are no candidates.

A sampled world gives each other *playing* seat as many cards as it still holds, drawn
from the unseen cards, and respects what the play showed: a seat that did not follow
the led suit holds none of it (the Weli counts as a trump), one that neither followed nor
trumped holds no trump, and — with ``stichzwang`` — one that played a card of the
allowed class that did not beat the trick so far holds no card of that class that
would have.  The rest of the unseen cards are in the stock, in discards or in the hands
of seats that stayed home.

>>> import random
>>> from stammtisch.games.mulatschak.state import new_state
>>> from stammtisch.games.mulatschak.rules import MulatschakRules
>>> s = new_state(MulatschakRules(), 0, random.Random(2))
>>> _ = s.push("abheben 5")
>>> obs = observe(s, 1)
>>> len(obs.hand), len(obs.unseen())  # the cut card (in the stock) is no candidate
(5, 27)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stammtisch.bots.sampling import deal_in_turn, redraw
from stammtisch.cards import Card
from stammtisch.engine.core import Rng, Say
from stammtisch.games.mulatschak.bots.solver import TrickSolver
from stammtisch.games.mulatschak.state import DECK, MulatschakState

__all__ = ["INDEX", "Observation", "observe", "sample_world"]

INDEX: dict[Card, int] = {c: i for i, c in enumerate(DECK)}


@dataclass
class Observation:
    """What one seat knows of a hand (its own cards, the public play)."""

    seat: int
    num_seats: int
    hand: list[Card]
    trump: str | None
    bid: int
    holder: int | None
    playing: list[int]
    leader: int | None
    #: finished tricks: (seat, card) in playing order
    tricks: list[list[tuple[int, Card]]]
    #: the current trick: (seat, card)
    trick: list[tuple[int, Card]]
    trick_winners: list[int]
    #: cards each seat still holds
    sizes: list[int]
    #: cards that are in no other seat's hand (the seat's discards, seen and not held)
    out: set[Card] = field(default_factory=set)
    #: seat -> card indices it cannot hold (what the play showed)
    excluded: dict[int, int] = field(default_factory=dict)
    #: the card shown to all in a ``sicht`` that waits for ``nimm`` or ``weg``
    sicht: Card | None = None

    def played(self) -> set[Card]:
        cards = {c for t in self.tricks for _, c in t}
        cards.update(c for _, c in self.trick)
        return cards

    def unseen(self) -> list[Card]:
        """The cards the seat neither holds nor saw played nor knows out, deck order."""
        known = set(self.hand) | self.played() | self.out
        return [c for c in DECK if c not in known]

    def others(self) -> list[int]:
        """The other seats still holding cards in play."""
        return [s for s in self.playing if s != self.seat]


def observe(state: MulatschakState, seat: int, stichzwang: bool | None = None) -> Observation:
    """The seat's knowledge (see the module)."""
    view = state.view(seat)
    hand = [Card.parse(c) for c in view["hand"]]
    out: set[Card] = set()
    for text in view["shown"]:
        out.add(Card.parse(text))
    if view["revealed"] is not None:
        out.add(Card.parse(view["revealed"]))
    # the seat's own discards (its own words; other seats' discard words are not read)
    for s, action in state.history:
        if s == seat and isinstance(action, Say):
            head, _, rest = action.word.partition(" ")
            if head in ("tausche", "sicht", "ab") and rest:
                out.update(Card.parse(t) for t in rest.split())
    out -= set(hand)
    # public: every card played was seen by all (the view shows only the current trick)
    tricks = [list(t) for t in state.tricks_played]
    obs = Observation(
        seat=seat, num_seats=state.num_seats, hand=hand, trump=view["trump"],
        bid=view["bid"], holder=view["holder"], playing=list(state.playing),
        leader=state.leader, tricks=tricks,
        trick=[(s, Card.parse(c)) for s, c in view["trick"]],
        trick_winners=list(view["trick_winners"]), sizes=list(view["hand_sizes"]), out=out,
        sicht=state.sicht_card)
    if obs.trump is not None and state.phase == "play":
        _exclusions(obs, state.rules.stichzwang if stichzwang is None else stichzwang)
    return obs


def _exclusions(obs: Observation, stichzwang: bool) -> None:
    assert obs.trump is not None
    solver = TrickSolver(obs.trump, stichzwang)
    ex = {s: 0 for s in obs.playing}
    for trick in [*obs.tricks, obs.trick]:
        if not trick:
            continue
        led = solver.cls[INDEX[trick[0][1]]]
        played: list[int] = []
        for s, card in trick:
            c = INDEX[card]
            if played:
                k = solver.cls[c]
                if k != led:
                    ex[s] |= solver.masks[led]
                    if k != solver.t:
                        ex[s] |= solver.masks[solver.t]
                        klass = 0
                    else:
                        klass = solver.masks[solver.t]
                else:
                    klass = solver.masks[led]
                if stichzwang and klass:
                    best = max(solver.strength(p, led) for p in played)
                    if solver.strength(c, led) <= best:
                        for x in range(len(DECK)):
                            if (klass >> x) & 1 and solver.strength(x, led) > best:
                                ex[s] |= 1 << x
            played.append(c)
    obs.excluded = ex


def sample_world(obs: Observation, rng: Rng, tries: int = 40) -> dict[int, list[Card]]:
    """The other playing seats' hands in one world drawn from ``rng`` (the seat's own
    hand included under its seat).  Most constrained seats draw first; after ``tries``
    failed draws the play's exclusions are dropped (a world is always returned)."""
    pool = obs.unseen()
    others = obs.others()
    others.sort(key=lambda s: -bin(obs.excluded.get(s, 0)).count("1"))
    sizes = {s: obs.sizes[s] for s in others}

    def allowed(seat: int, cards: list[Card]) -> list[Card]:
        ex = obs.excluded.get(seat, 0)
        return [c for c in cards if not (ex >> INDEX[c]) & 1]

    def draw(attempt: int) -> dict[int, list[Card]] | None:
        cards = list(pool)
        rng.shuffle(cards)
        dealt = deal_in_turn(cards, sizes, allowed if attempt < tries else None)
        return None if dealt is None else {obs.seat: list(obs.hand), **dealt[0]}

    world = redraw(draw, tries + 1, lambda w, attempt: (True, 0.0))
    assert world is not None, "unreachable: the last try has no exclusions"
    return world
