"""Mucken's research encoding: fixed action ids, observation tensors and strings, the deal
card by card and a world sampler, for the PettingZoo environment and OpenSpiel game written
once (:mod:`stammtisch.research`).  The id and tensor layouts are in docs/research.md.

:class:`ActionCodec` numbers the actions of a rules object: the cards of the deck, the bids
(lowest first), ``weiter``, the doubling words, ``gut``, the cuts, ``geben``, ``klopfen``,
``ramsch``.  :class:`ObservationEncoder` builds a flat float32 tensor in [0, 1] from
``state.view(seat)`` alone, seats relative to the observer, in the pieces ``hand``,
``played``, ``trick``, ``trick_leader``, ``tricks_won``, ``augen``, ``hand_sizes``,
``phase``, ``to_act``, ``dealer``, ``cuts``, ``klopfen``, ``calls``, ``standing_bid``,
``bid_holder``, ``contract``, ``declarer``, ``doublings``, ``factor`` and, with perfect
recall, ``play_sequence``.

OpenSpiel deals card by card in the packets of the real deal and leaves out the Abheben (a
random deal is what any cut gives; so no Klopfen either).  :func:`sample_world` deals the
unseen cards uniformly among the deals with the hard facts: voids, the Stichzwang of a
Ramsch, the Muss-Spiel card with the seat that had to call; what calls suggest is not used.

>>> from stammtisch.games.mucken.rules import MuckenRules
>>> codec = ActionCodec(MuckenRules.preset("seefest"))
>>> codec.num_actions, codec.encode(Say("weiter")), str(codec.decode(0))
(58, 30, 'EA')
>>> enc = ObservationEncoder(MuckenRules.preset("seefest"))
>>> enc.size, enc.shape("calls")
(640, (29, 12))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from stammtisch.cards import LONG_DECK, SHORT_DECK, Card
from stammtisch.engine.core import Cut, Say
from stammtisch.engine.tricks import TRUMP
from stammtisch.games.base.encoding import (
    ActionTable,
    DealtEncoding,
    PacketDeal,
    TrickViewEncoder,
    Uniform,
    deal_uniformly,
    shuffle,
)
from stammtisch.games.mucken.rules import DOUBLING_WORDS, LEVELS, MuckenRules
from stammtisch.games.mucken.state import MuckenState

__all__ = ["PHASES", "ActionCodec", "MuckenEncoding", "ObservationEncoder", "max_calls",
           "played_by_seat", "sample_world"]

#: the phases of :class:`~stammtisch.games.mucken.state.MuckenState`, in tensor order
PHASES: tuple[str, ...] = ("shuffle", "cut", "bidding", "muss", "doubling", "play", "end")
#: contracts that are not a bid, in tensor order after the bids
NO_BID_CONTRACTS: tuple[str, ...] = ("pflichtmuck", "ramsch", "sie", "eingeworfen")
MAX_CUTS = 5  # MuckenRules allows cut_max_times <= 5

FloatArray = npt.NDArray[np.float32]


def max_calls(rules: MuckenRules) -> int:
    """An upper bound of the calls (bids, ``weiter``, ``ramsch``, Muss call) in one game."""
    return 4 * len(rules.bids) + 5


def _deck(rules: MuckenRules) -> tuple[Card, ...]:
    return SHORT_DECK if rules.deck == "short" else LONG_DECK


class ActionCodec(ActionTable):
    """Stable integer ids for every action of a rules object (see the module docstring)."""

    def __init__(self, rules: MuckenRules) -> None:
        self.rules = rules
        self.deck: tuple[Card, ...] = _deck(rules)
        self.num_cards = n = len(self.deck)
        cuts = range(rules.cut_min, n - rules.cut_min_left + 1) if rules.cut_max_times else ()
        super().__init__([*self.deck, *(Say(name) for name in rules.bid_names()), Say("weiter"),
                          *(Say(w) for w in DOUBLING_WORDS), Say("gut"), *(Cut(k) for k in cuts),
                          Say("geben"), Say("klopfen"), Say("ramsch")])


class ObservationEncoder(TrickViewEncoder):
    """Turns ``state.view(seat)`` into a flat ``float32`` tensor (layout: docs/research.md)."""

    def __init__(self, rules: MuckenRules, *, perfect_recall: bool = False) -> None:
        self.rules = rules
        n, b = len(_deck(rules)), len(rules.bids)
        self.num_cards = n
        self.max_calls = max_calls(rules)
        words = ["weiter", *rules.bid_names(), "ramsch"]
        self._word = {w: i for i, w in enumerate(words)}
        self._bid = {w: i for i, w in enumerate(rules.bid_names())}
        contracts = [*rules.bid_names(), *NO_BID_CONTRACTS]
        self._contract = {w: i for i, w in enumerate(contracts)}
        super().__init__(_deck(rules), rules.hand_size, PHASES, [
            ("hand", (n,)), ("played", (4, n)), ("trick", (4, n)), ("trick_leader", (4,)),
            ("tricks_won", (4,)), ("augen", (2,)), ("hand_sizes", (4,)),
            ("phase", (len(PHASES),)), ("to_act", (4,)), ("dealer", (4,)),
            ("cuts", (MAX_CUTS,)), ("klopfen", (1,)), ("calls", (self.max_calls, 4 + len(words))),
            ("standing_bid", (b,)), ("bid_holder", (4,)), ("contract", (len(contracts),)),
            ("declarer", (4,)), ("doublings", (len(DOUBLING_WORDS), 4)), ("factor", (1,))],
            perfect_recall)

    def encode_own(self, view: Mapping[str, Any], t: dict[str, FloatArray],
                   rel: Callable[[int], int]) -> None:
        augen, seat = view["augen_taken"], view["seat"]
        t["augen"][0] = augen[seat % 2] / 120.0
        t["augen"][1] = augen[1 - seat % 2] / 120.0
        for i, count in enumerate(view["cuts"][:MAX_CUTS]):
            t["cuts"][i] = count / self.num_cards
        t["klopfen"][0] = 1.0 if view["klopfen"] else 0.0
        if len(view["calls"]) > self.max_calls:
            raise ValueError(f"{len(view['calls'])} calls, more than the bound {self.max_calls}")
        for i, call in enumerate(view["calls"]):
            t["calls"][i, rel(call["seat"])] = 1.0
            t["calls"][i, 4 + self._word[call["call"]]] = 1.0
        if view["standing_bid"] is not None:
            t["standing_bid"][self._bid[view["standing_bid"]]] = 1.0
            t["bid_holder"][rel(view["bid_holder"])] = 1.0
        if view["contract"] is not None:
            t["contract"][self._contract[view["contract"]]] = 1.0
        if view["declarer"] is not None:
            t["declarer"][rel(view["declarer"])] = 1.0
        for i, d in enumerate(view["doublings"]):
            t["doublings"][i, rel(d["seat"])] = 1.0
        t["factor"][0] = 1.0 - 1.0 / max(1, int(view["factor"]))


def _max_utility(rules: MuckenRules) -> float:
    best = max(rules.pflichtmuck_value, rules.ramsch_value * (2 if rules.ramsch_double else 1),
               rules.sie_value if rules.sie else 0)
    for name in rules.bid_names():
        for column in LEVELS:
            v = rules.value(name, column)
            if v is not None:
                best = max(best, v * 2**rules.doublings)
    return float(best)


class MuckenEncoding(DealtEncoding):
    """Mucken's :class:`~stammtisch.games.base.encoding.Encoding` (see the module)."""

    def __init__(self, rules: MuckenRules) -> None:
        self.rules = rules
        self.params: Mapping[str, int] = {}
        self.codec = ActionCodec(rules)
        self.encoders = (ObservationEncoder(rules), ObservationEncoder(rules, perfect_recall=True))
        n = self.num_cards = self.max_chance_outcomes = len(self.codec.deck)
        size = rules.hand_size
        self.deal = PacketDeal(self.codec.deck, (size // 2, size - size // 2))
        self.num_actions = self.codec.num_actions
        self.observation_shape: tuple[int, ...] = (self.encoders[0].size,)
        self.information_state_shape: tuple[int, ...] | None = (self.encoders[1].size,)
        self.max_utility = _max_utility(rules)
        # the deal, the calls, the doubling words (at most 3 per doubling), the cards
        self.max_game_length = n + max_calls(rules) + 3 * max(1, rules.doublings) + n

    def initial_state(self, dealer: int) -> MuckenState:
        return MuckenState(self.rules, dealer)

    def sort_hand(self, state: MuckenState, cards: list[Card]) -> list[Card]:
        return state.sort_hand(cards)

    def observation_string(self, state: MuckenState, seat: int, pending: Sequence[int] = (),
                           *, private: bool = True, perfect_recall: bool = False) -> str:
        v = self.view(state, seat, pending, private)
        parts = [f"p{seat}", v["phase"]]
        if private:
            parts.append("hand:" + " ".join(v["hand"]))
        parts.append("sizes:" + "".join(str(n) for n in v["hand_sizes"]))
        if v["calls"]:
            parts.append("calls:" + " ".join(f"{c['seat']}{c['call']}" for c in v["calls"]))
        if v["contract"]:
            parts.append(f"contract:{v['contract']}@{v['declarer']}")
        if v["doublings"]:
            parts.append("dbl:" + " ".join(f"{d['seat']}{d['word']}" for d in v["doublings"]))
        if perfect_recall:
            plays = [f"{e['seat']}{e['card']}" for t in v["tricks_played"] for e in t["cards"]]
            if plays:
                parts.append("plays:" + " ".join(plays))
        else:
            played = [sorted(e["card"] for t in v["tricks_played"] for e in t["cards"]
                             if e["seat"] == s) for s in range(4)]
            if any(played):
                parts.append("played:" + "|".join(" ".join(p) for p in played))
            parts.append(f"tricks:{v['tricks_taken'][0]}-{v['tricks_taken'][1]}"
                         f" augen:{v['augen_taken'][0]}-{v['augen_taken'][1]}")
        if v["trick"]:
            parts.append("trick:" + " ".join(f"{e['seat']}{e['card']}" for e in v["trick"]))
        if v["to_act"] is not None:
            parts.append(f"to_act:{v['to_act']}")
        return " ".join(parts)

    def resample(self, state: MuckenState, history: Sequence[int], player: int,
                 uniform: Uniform) -> list[int]:
        """Every seat keeps its deal positions; the other seats' hold the cards they
        played and a :func:`sample_world` of the unseen ones."""
        deal, dealer = list(history[:self.num_cards]), state.dealer
        own = self.deal.dealt(deal, dealer, player)
        hidden = sample_world(state, player, own, self.deal.counts(deal, dealer), uniform)
        played = played_by_seat(state)
        for seat in range(4):
            if seat != player:
                positions = [k for k in self.deal.positions(dealer, seat) if k < len(deal)]
                for k, card in zip(positions, [*played[seat], *hidden[seat]], strict=True):
                    deal[k] = self.codec.card_id(card)
        return [*deal, *history[self.num_cards:]]


def played_by_seat(ms: MuckenState) -> list[list[Card]]:
    """The cards each seat has played so far (finished tricks and the current one)."""
    out: list[list[Card]] = [[], [], [], []]
    t = ms.tricks
    for lead, cards in [*t.tricks, (t.leader, tuple(t.current))]:
        for i, c in enumerate(cards):
            out[(lead + i) % 4].append(c)
    return out


def _muss_caller(ms: MuckenState) -> int | None:
    """The seat known to hold the Muss-Spiel card: asked to call after four 'weiter'."""
    if ms.rules.no_game != "muss":
        return None
    if ms.phase == "muss":
        return ms.current_player
    calls = ms.calls
    if len(calls) >= 5 and all(w == "weiter" for _, w in calls[:4]):
        return calls[4][0]
    return None


def sample_world(ms: MuckenState, player: int, own: Sequence[Card], dealt_to: Sequence[int],
                 uniform: Uniform) -> list[list[Card]]:
    """The hidden cards of every other seat, drawn uniformly among the worlds with the hard
    facts ``player`` knows from public information and its cards ``own`` (dealt so far,
    played or held); ``dealt_to``: the cards each seat was dealt so far.  Reads no other
    hand.  ``result[player]`` is empty."""
    order = ms.order
    must_trump = ms.contract == "ramsch" and ms.rules.ramsch_stichzwang
    voids: list[set[int]] = [set(), set(), set(), set()]
    t = ms.tricks
    for lead, cards in [*t.tricks, (t.leader, tuple(t.current))]:
        for i, c in enumerate(cards[1:], start=1):
            k = order.klass(c)
            if k != order.klass(cards[0]):
                voids[(lead + i) % 4].add(order.klass(cards[0]))
                if must_trump and k != TRUMP:
                    voids[(lead + i) % 4].add(TRUMP)
    played = played_by_seat(ms)
    gone = {*own, *(c for p in played for c in p)}
    unseen = [c for c in _deck(ms.rules) if c not in gone]
    hidden = [0 if s == player else dealt_to[s] - len(played[s]) for s in range(4)]
    excluded = [{c for c in unseen if order.klass(c) in voids[s]} for s in range(4)]
    fixed: dict[Card, int] = {}
    muss_seat = _muss_caller(ms)
    if muss_seat is not None and muss_seat != player and Card.parse(ms.rules.muss_card) in unseen:
        fixed[Card.parse(ms.rules.muss_card)] = muss_seat
    out = deal_uniformly(unseen, [*hidden, len(unseen) - sum(hidden)], [*excluded, set()],
                         fixed, uniform)
    for hand in out[:4]:  # the order within a hand is not observable
        shuffle(hand, uniform)
    return out[:4]
