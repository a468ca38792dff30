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

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from stammtisch.cards import LONG_DECK, SHORT_DECK, Card
from stammtisch.engine.core import Cut, Say
from stammtisch.games.base.encoding import (
    ActionTable,
    DealtEncoding,
    Knowledge,
    ObservationText,
    PacketDeal,
    Seats,
    TrickViewEncoder,
    Uniform,
    one_hot,
    played_and_voids,
    seated,
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

if TYPE_CHECKING:
    from stammtisch.games.base.encoding import FloatArray


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
        super().__init__(_deck(rules), rules.hand_size, PHASES, 2, [
            ("cuts", (MAX_CUTS,)), ("klopfen", (1,)), ("calls", (self.max_calls, 4 + len(words))),
            ("standing_bid", (b,)), ("bid_holder", (4,)), ("contract", (len(contracts),)),
            ("declarer", (4,)), ("doublings", (len(DOUBLING_WORDS), 4)), ("factor", (1,))],
            perfect_recall)

    def encode_own(self, view: Mapping[str, Any], t: dict[str, FloatArray], rel: Seats) -> None:
        augen, seat = view["augen_taken"], view["seat"]
        t["augen"][0] = augen[seat % 2] / 120.0
        t["augen"][1] = augen[1 - seat % 2] / 120.0
        for i, count in enumerate(view["cuts"][:MAX_CUTS]):
            t["cuts"][i] = count / self.num_cards
        t["klopfen"][0] = 1.0 if view["klopfen"] else 0.0
        if len(view["calls"]) > self.max_calls:
            raise ValueError(f"{len(view['calls'])} calls, more than the bound {self.max_calls}")
        rel.rows(t["calls"], view["calls"], self._word, "call")
        if view["standing_bid"] is not None:
            t["standing_bid"][self._bid[view["standing_bid"]]] = 1.0
            t["bid_holder"][rel[view["bid_holder"]]] = 1.0
        one_hot(t["contract"], self._contract, view["contract"])
        one_hot(t["declarer"], rel, view["declarer"])
        rel.rows(t["doublings"], view["doublings"])
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

    codec: ActionCodec

    def __init__(self, rules: MuckenRules) -> None:
        codec, size = ActionCodec(rules), rules.hand_size
        deal = PacketDeal(codec.deck, (size // 2, size - size // 2))
        super().__init__(rules, codec, deal, (ObservationEncoder(rules),
                                              ObservationEncoder(rules, perfect_recall=True)))
        self.max_utility = _max_utility(rules)
        # the deal, the calls, the doubling words (at most 3 per doubling), the cards
        n = self.num_cards
        self.max_game_length = n + max_calls(rules) + 3 * max(1, rules.doublings) + n

    def initial_state(self, dealer: int) -> MuckenState:
        return MuckenState(self.rules, dealer)

    def sort_hand(self, state: MuckenState, cards: list[Card]) -> list[Card]:
        return state.sort_hand(cards)

    def describe_calls(self, view: Mapping[str, Any], text: ObservationText) -> None:
        text.join("calls", seated(view["calls"], "call"))
        text.add("contract", f"{view['contract']}@{view['declarer']}", when=view["contract"])
        text.join("dbl", seated(view["doublings"], "word"))

    def describe_taken(self, view: Mapping[str, Any], text: ObservationText) -> None:
        text.add("tricks", "-".join(str(n) for n in view["tricks_taken"]))
        text.add("augen", "-".join(str(n) for n in view["augen_taken"]))

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
    return played_and_voids(ms.tricks, ms.order)[0]


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
    played, voids = played_and_voids(ms.tricks, order, must_trump=must_trump)
    hidden = [0 if s == player else dealt_to[s] - len(played[s]) for s in range(4)]
    know = Knowledge.of(_deck(ms.rules), own, played, hidden, voids, order)
    muss_seat = _muss_caller(ms)
    if muss_seat is not None and muss_seat != player:
        know.fixed[Card.parse(ms.rules.muss_card)] = muss_seat
    out = know.deal(uniform)
    for hand in out[:4]:  # the order within a hand is not observable
        shuffle(hand, uniform)
    return out[:4]
