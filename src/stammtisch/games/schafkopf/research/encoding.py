"""Schafkopf's research encoding: fixed action ids, observation tensors and strings, the
deal card by card and a world sampler, for the PettingZoo environment and OpenSpiel game
written once (:mod:`stammtisch.research`).  The id and tensor layouts are in docs/research.md.

:class:`ActionCodec`: the same 70 ids for every rules object — the 32 cards (played, or
given in a Hochzeit), the 26 game words of the bidding and the three Muss-Spiele on a ten,
``weiter``, ``gut``, ``lege``, ``annehmen``, and the table's Stoß words by position.
:class:`ObservationEncoder`: a flat float32 tensor in [0, 1] from ``state.view(seat)``
alone (the view hides other hands, the second packet during Legen, the card passed in a
Hochzeit and the partner of a Rufspiel until the called ace falls), seats relative to the
observer.

OpenSpiel deals the 32 cards one chance node each, four to each seat from the dealer's
left, twice (the first packet is what a seat sees when it decides on Legen).  Resampling
keeps the player's own cards (during Legen the first packet) and every played card and deals
the unseen ones uniformly among the deals with the hard facts: voids, the called ace (not
with the declarer of a Sauspiel; with the seat that led the called suit when the ace did
not fall — davonlaufen), EO with the Muss-Spieler, no trump with the Hochzeiter after the
exchange (each of the two knows the card he gave; a third seat draws the two passed cards).
Each world is replayed *checked*; one in which a recorded word or card would be illegal is
rejected and another drawn.

>>> from stammtisch.games.schafkopf.rules import SchafkopfRules
>>> codec = ActionCodec(SchafkopfRules.preset("anleitung"))
>>> codec.num_actions, codec.encode(Say("weiter")), str(codec.decode(66)), str(codec.decode(0))
(70, 61, 'sup', 'EA')
>>> ObservationEncoder().size
623
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from stammtisch.cards import LONG_DECK, Card
from stammtisch.engine.core import Action, Deal, Say
from stammtisch.errors import RulesError, StammtischError
from stammtisch.games.base.encoding import (
    ActionTable,
    DealtEncoding,
    Knowledge,
    NoWorldError,
    ObservationText,
    PacketDeal,
    Seats,
    TrickViewEncoder,
    Uniform,
    below,
    one_hot,
    played_and_voids,
    seated,
    shuffle,
)
from stammtisch.games.schafkopf.games import BID_GAMES, MUSS_GAMES, NORMAL
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import EO, SchafkopfState

__all__ = ["GAME_WORDS", "MAX_STOSS", "NUM_ACTIONS", "PHASES", "ActionCodec",
           "ObservationEncoder", "SchafkopfEncoding"]

#: the phases of :class:`~stammtisch.games.schafkopf.state.SchafkopfState`, in tensor order
PHASES: tuple[str, ...] = ("shuffle", "legen", "bidding", "muss", "hochzeit", "exchange",
                           "stossen", "play", "end")
#: every game word (bidding, then the Muss-Spiel on a ten)
GAME_WORDS: tuple[str, ...] = (*BID_GAMES, *(w for w in MUSS_GAMES if w not in BID_GAMES))
PLAIN_WORDS: tuple[str, ...] = ("weiter", "gut", "lege", "annehmen")
#: the most Stoß words a table may have for these ids
MAX_STOSS = 5
#: the bidding has one word per seat, and a Muss-Spiel call
MAX_BIDS = 5
NUM_ACTIONS = 32 + len(GAME_WORDS) + len(PLAIN_WORDS) + MAX_STOSS
#: how many worlds the sampler draws before it gives up
MAX_TRIES = 5000
DEAL = PacketDeal(LONG_DECK, (4, 4))

if TYPE_CHECKING:
    from stammtisch.games.base.encoding import FloatArray


class ActionCodec(ActionTable):
    """Stable integer ids for every action (see the module docstring); the Stoß ids name
    the words of ``rules``."""

    num_cards = 32

    def __init__(self, rules: SchafkopfRules | None = None) -> None:
        rules = rules if rules is not None else SchafkopfRules.preset("standard")
        if len(rules.stoss_words) > MAX_STOSS:
            raise RulesError(f"stoss_words: at most {MAX_STOSS} words have action ids")
        self.rules = rules
        stoss: list[Action | None] = [Say(w) for w in rules.stoss_words]
        super().__init__([*LONG_DECK, *(Say(w) for w in (*GAME_WORDS, *PLAIN_WORDS)), *stoss,
                          *[None] * (MAX_STOSS - len(stoss))])


_CARD = {str(c): i for i, c in enumerate(LONG_DECK)}
_AUGEN = {str(c): c.augen for c in LONG_DECK}
_BID_WORD = {w: i for i, w in enumerate(("weiter", *GAME_WORDS))}
_GAME = {w: i for i, w in enumerate(GAME_WORDS)}
_CONTRACT = {w: i for i, w in enumerate((*GAME_WORDS, "ramsch"))}


class ObservationEncoder(TrickViewEncoder):
    """Turns ``state.view(seat)`` into a flat ``float32`` tensor (layout: docs/research.md)."""

    first_leader = "to_act"

    def __init__(self, *, perfect_recall: bool = False) -> None:
        w = len(GAME_WORDS)
        super().__init__(LONG_DECK, 8, PHASES, 4, [
            ("lege", (4,)), ("bids", (MAX_BIDS, 4 + 1 + w)), ("standing", (w,)),
            ("contract", (w + 1,)), ("declarer", (4,)), ("called", (32,)), ("partner", (4,)),
            ("hochzeit", (4, 2)), ("stoss", (MAX_STOSS, 4)), ("multiplier", (1,))],
            perfect_recall)

    def encode_own(self, view: Mapping[str, Any], t: dict[str, FloatArray], rel: Seats) -> None:
        for trick in view["tricks_played"]:
            for entry in trick["cards"]:
                t["augen"][rel[trick["winner"]]] += _AUGEN[entry["card"]] / 120.0
        one_hot(t["lege"], rel, *view["lege"])
        rel.rows(t["bids"], view["bids"][:MAX_BIDS], _BID_WORD)
        one_hot(t["standing"], _GAME, view["standing"])
        if view["contract"] is not None and view["contract"] in _CONTRACT:
            t["contract"][_CONTRACT[view["contract"]]] = 1.0
        one_hot(t["declarer"], rel, view["declarer"])
        one_hot(t["called"], _CARD, view["called"])
        one_hot(t["partner"], rel, view["partner"])
        for answer in view["hochzeit"]:
            t["hochzeit"][rel[answer["seat"]], 0 if answer["word"] == "annehmen" else 1] = 1.0
        rel.rows(t["stoss"], view["stoss"][:MAX_STOSS])
        t["multiplier"][0] = 1.0 - 1.0 / max(1, int(view["multiplier"]))


def _max_utility(rules: SchafkopfRules) -> float:
    t = rules.tariff_of
    top = max((t("solo") + 8 * t("laufend")) * 4,
              max(t("rufspiel"), t("solo")) + t("schneider") + t("schwarz") + 8 * t("laufend"),
              t("bettel"), t("ramsch") * 2**4)
    doublings = (4 if rules.legen else 0) + len(rules.stoss_words)
    return float(3 * top * 2**doublings)


class SchafkopfEncoding(DealtEncoding):
    """Schafkopf's :class:`~stammtisch.games.base.encoding.Encoding` (see the module)."""

    def __init__(self, rules: SchafkopfRules) -> None:
        super().__init__(rules, ActionCodec(rules), DEAL,
                         (ObservationEncoder(), ObservationEncoder(perfect_recall=True)))
        self.max_utility = _max_utility(rules)
        # deal, Legen, bids and Muss call, Hochzeit answers and card, Stoßen, cards
        self.max_game_length = 32 + 4 + 5 + 4 + 3 * (len(rules.stoss_words) + 1) + 32

    def initial_state(self, dealer: int) -> SchafkopfState:
        return SchafkopfState(self.rules, dealer)

    def sort_hand(self, state: SchafkopfState, cards: list[Card]) -> list[Card]:
        return NORMAL.sorted(cards)

    def describe_calls(self, view: Mapping[str, Any], text: ObservationText) -> None:
        text.join("lege", view["lege"], sep="")
        text.join("bids", seated(view["bids"], "word"))
        text.join("hz", seated(view["hochzeit"], "word"))
        text.add("contract", f"{view['contract']}@{view['declarer']}", when=view["contract"])
        text.add("partner", view["partner"], when=view["partner"] is not None)
        text.join("stoss", seated(view["stoss"], "word"))

    def describe_taken(self, view: Mapping[str, Any], text: ObservationText) -> None:
        text.add("tricks", "".join(str(n) for n in view["tricks_taken"]))

    def resample(self, state: SchafkopfState, history: Sequence[int], player: int,
                 uniform: Uniform) -> list[int]:
        """A world drawn with the hard facts, replayed checked (see the module)."""
        deal, actions = list(history[:32]), list(history[32:])
        know = knowledge(state, deal, player)
        for _ in range(MAX_TRIES):
            world = self._world(state, deal, actions, player, know, know.deal(uniform), uniform)
            if world is not None:
                return world
        raise NoWorldError(f"no consistent world found for player {player} in {MAX_TRIES} "
                           f"draws")

    def _world(self, sk: SchafkopfState, deal: list[int], actions: list[int], player: int,
               know: Knowledge, hidden: list[list[Card]], uniform: Uniform) -> list[int] | None:
        """The ids of a world, or ``None`` if a recorded action would be illegal in it."""
        n, dealer = len(deal), sk.dealer
        seen_all = n == 32 and sk.phase != "legen"  # the player knows its whole hand
        # each seat's cards in the world now (played and held), then as dealt
        start = [[*know.played[s], *hidden[s]] for s in range(4)]
        start[player] = ([*know.played[player], *(c for c in sk.hands[player]
                                                  if c not in know.played[player])]
                         if seen_all else [*hidden[player]])
        actions = list(actions)
        if sk._exchange is not None and sk.declarer is not None and sk.acceptor is not None:
            d, a = sk.declarer, sk.acceptor
            given, trump = sk._exchange
            if player not in (d, a):
                given = start[d][below(uniform, len(start[d]))]
                trumps = [c for c in start[a] if NORMAL.is_trump(c)]
                if not trumps:
                    return None
                trump = trumps[below(uniform, len(trumps))]
            if given not in start[d] or trump not in start[a]:  # pragma: no cover - fixed
                return None
            start[d] = [trump if c == given else c for c in start[d]]
            start[a] = [given if c == trump else c for c in start[a]]
            index = (4 if self.rules.legen else 0) + len(sk.bids) + len(sk.hochzeit_answers)
            if self.codec.decode(actions[index]) != sk._exchange[0]:  # pragma: no cover
                raise StammtischError("the Hochzeit's card is not where it was expected")
            actions[index] = self.codec.card_id(given)
        order = [-1] * n
        for seat in range(4):
            positions = [k for k in DEAL.positions(dealer, seat) if k < n]
            known = know.known_positions[seat] if seat == player else {}
            if seat == player and seen_all:
                cards = [LONG_DECK[deal[k]] for k in positions]  # the real dealt hand
            else:
                rest = [c for c in start[seat] if c not in known.values()]
                shuffle(rest, uniform)
                cards = [known[k] if k in known else rest.pop() for k in positions]
            for k, c in zip(positions, cards, strict=True):
                order[k] = self.codec.card_id(c)
        if n == 32:
            check = SchafkopfState(self.rules, dealer)
            try:
                check.apply(Deal(tuple(tuple(DEAL.dealt(order, dealer, s)) for s in range(4))))
                for action in actions:
                    check.apply(self.codec.decode(action))
            except StammtischError:
                return None
        return [*order, *actions]


def knowledge(sk: SchafkopfState, deal: Sequence[int], player: int) -> Knowledge:
    """The hard facts ``player`` knows (see the module docstring)."""
    known_positions: list[dict[int, Card]] = [{}, {}, {}, {}]
    own_positions = [k for k in DEAL.positions(sk.dealer, player) if k < len(deal)]
    if sk.phase == "legen":
        own_positions = own_positions[:4]  # the second packet is not seen yet
    for k in own_positions:
        known_positions[player][k] = LONG_DECK[deal[k]]
    order, called, t = sk.order, sk.called, sk.tricks
    played, voids = played_and_voids(t, order)
    own_now = (set(sk.hands[player]) if len(deal) == 32 and sk.phase != "legen"
               else set(known_positions[player].values()))
    dealt_to = DEAL.counts(deal, sk.dealer)
    hidden = [dealt_to[s] - len(played[s]) for s in range(4)]
    hidden[player] -= len(own_now)
    know = Knowledge.of(LONG_DECK, own_now, played, hidden, voids, order)
    know.known_positions = known_positions
    fixed, excluded = know.fixed, know.excluded
    if called is not None:  # the first trick of the called suit: the ace must fall ...
        led = [(lead, cards) for lead, cards in [*t.tricks, (t.leader, tuple(t.current))]
               if cards and order.klass(cards[0]) == order.klass(called)]
        if led and len(led[0][1]) == 4 and called not in led[0][1]:
            fixed[called] = led[0][0]  # ... unless its holder ran away (davonlaufen)
        if sk.declarer is not None:
            excluded[sk.declarer].add(called)
    if sk.phase == "muss" and sk.current_player != player:
        fixed[EO] = sk.current_player
    elif sk.muss and sk.declarer is not None and sk.declarer != player:
        fixed[EO] = sk.declarer
    if sk._exchange is not None and sk.declarer is not None and sk.acceptor is not None:
        given, trump = sk._exchange
        excluded[sk.declarer] |= {c for c in know.unseen if NORMAL.is_trump(c)}
        if player == sk.acceptor:
            fixed[given] = sk.declarer
        elif player == sk.declarer:
            fixed[trump] = sk.acceptor
    return know
