"""Rollouts for Mulatschak's decisions before the card play (bidding, trump, mitgehen,
exchange): each option is played out to the end of the hand in sampled worlds by the
heuristic bot, and the option with the best mean score change wins.

A world (:func:`world_state`) is the real state with everything the seat cannot see
replaced: the other seats' hands (as many cards as each holds now) and the stock (as many
cards as it holds, the cut card at its bottom when the seat saw it there) are drawn from
the cards the seat has not seen; what is left are the discards.  It uses only the seat's
view, its own words and the public history (the cards dealt are not read).  A world in
which a seat's bid is more than the heuristic's estimate of that seat's hand allows is
redrawn a few times (a soft reading of the bids).

Both options of one world see the same cards and the same random stream (common random
numbers), so the comparison is sharper than the worlds' variance.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from stammtisch.bots import pimc
from stammtisch.bots.sampling import deal_in_turn, redraw
from stammtisch.cards import Card
from stammtisch.engine.core import Action, Rng, Say
from stammtisch.games.mulatschak.bots.heuristic import HeuristicBot
from stammtisch.games.mulatschak.bots.sampling import observe
from stammtisch.games.mulatschak.state import MulatschakState

__all__ = ["rollout_values", "world_state"]


def world_state(state: MulatschakState, seat: int, rng: Rng, tries: int = 6
                ) -> MulatschakState:
    """A copy of ``state`` with the hidden cards redrawn (see the module)."""
    obs = observe(state, seat)
    view = state.view(seat)
    revealed = Card.parse(view["revealed"]) if view["revealed"] is not None else None
    pool = obs.unseen()  # without the seat's discards and the cards it saw elsewhere
    sizes = view["hand_sizes"]
    keeper = view["weli_keeper"]
    weli = next((c for c in pool if c.is_weli), None)
    if keeper is not None and keeper != seat and weli is not None \
            and state.phase in ("bidding", "trump", "mitgehen"):
        pool.remove(weli)  # the cut Weli is still in its keeper's hand
    else:
        keeper = None
    bids = _bids(state)
    heuristic = HeuristicBot()
    world = state.clone()
    room = {s: sizes[s] - (s == keeper) for s in range(state.num_seats) if s != seat}

    def draw(attempt: int) -> tuple[dict[int, list[Card]], list[Card]] | None:
        cards = list(pool)
        rng.shuffle(cards)
        dealt = deal_in_turn(cards, room)
        if dealt is not None and keeper is not None and weli is not None:
            dealt[0][keeper].append(weli)
        return dealt

    dealt = redraw(draw, tries, lambda d, attempt: (
        attempt == tries - 1 or _consistent(d[0], bids, heuristic, state), 0.0))
    assert dealt is not None
    hands, rest = dealt
    for s, h in hands.items():
        world.hands[s] = h
    stock_size = view["stock_size"]
    if revealed is not None and revealed not in obs.hand and stock_size:
        stock = [*rest[:stock_size - 1], revealed]
    else:
        stock = rest[:stock_size]
    world.stock = stock
    return world


def _bids(state: MulatschakState) -> dict[int, int]:
    """The highest number each seat said in the bidding (public)."""
    out: dict[int, int] = {}
    for s, a in state.history:
        if isinstance(a, Say) and (a.word.isdigit() or a.word == "muli"):
            out[s] = max(out.get(s, 0), 5 if a.word == "muli" else int(a.word))
    return out


def _consistent(hands: dict[int, list[Card]], bids: dict[int, int], heuristic: HeuristicBot,
                state: MulatschakState) -> bool:
    from stammtisch.games.mulatschak.bots.heuristic import estimate
    from stammtisch.games.mulatschak.state import SUITS

    for s, b in bids.items():
        if s in hands and len(hands[s]) == 5:
            best = max(estimate(hands[s], t, state.num_seats) for t in SUITS)
            if best < b - 0.5:
                return False
    return True


def _play_out(world: MulatschakState, bot: HeuristicBot, rng: Rng) -> None:
    while not world.is_terminal():
        world.apply_unchecked(bot.choose(world, rng))


class _PlayOut:
    """The evaluator of the options in one world (:class:`~stammtisch.bots.pimc.Evaluator`):
    each played out by the heuristic bot from the same random stream, valued as what the
    seat is paid (its score change with the sign turned)."""

    def __init__(self, options: Sequence[Action], seat: int) -> None:
        self.options, self.seat, self.bot = options, seat, HeuristicBot()

    def exhausted(self, weight: float) -> bool:
        return False

    def evaluate(self, world: tuple[MulatschakState, int]) -> list[tuple[float, float]]:
        base, seed = world
        out: list[tuple[float, float]] = []
        for a in self.options:
            w = base.clone()
            w.apply_unchecked(a)
            _play_out(w, self.bot, random.Random(seed))
            r = w.result()
            assert r is not None
            out.append((-float(r["delta"][self.seat]), 0.0))
        return out


def rollout_values(state: MulatschakState, seat: int, options: Sequence[Action], rng: Rng,
                   worlds: int = 8) -> dict[Action, float]:
    """The mean score change of ``seat`` (lower is better) after each option, over
    ``worlds`` sampled worlds played out by the heuristic bot (each world drawn with the
    seed of its play-outs)."""
    sampled = pimc.sample(lambda r: (world_state(state, seat, r), r.randrange(2**32)), rng,
                          worlds)
    got = pimc.average(options, sampled, _PlayOut(options, seat))
    assert got is not None
    return {e.action: -e.utility for e in got}
