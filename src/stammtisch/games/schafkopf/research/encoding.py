"""Schafkopf's research encoding: fixed action ids, observation tensors and strings, the deal
card by card and a world sampler, for the generic PettingZoo environment and OpenSpiel game
(:mod:`stammtisch.research.pettingzoo`, :mod:`stammtisch.research.openspiel`).

Action ids (:class:`ActionCodec`) are the same for every rules object — 70 ids:

==============  ================================================================
id              action
==============  ================================================================
``0 .. 31``     play (or, in a Hochzeit, give) the card ``LONG_DECK[id]`` (suit by
                suit, Eichel, Gras, Herz, Schellen; ranks A 10 K O U 9 8 7)
``32 .. 57``    a game word of the bidding, lowest rank first (``sauspiel-eichel``
                … ``sie``, the order of :data:`~stammtisch.games.schafkopf.games.BID_GAMES`)
``58 .. 60``    the Muss-Spiel on a ten: ``sauspiel-eichel-zehn``, ``-gras-zehn``,
                ``-schellen-zehn``
``61 .. 64``    ``weiter``, ``gut``, ``lege``, ``annehmen``
``65 .. 69``    the table's Stoß words by position: ``65 + i`` is ``rules.stoss_words[i]``
                (``kontra``, ``re`` in ``standard``; at most :data:`MAX_STOSS` words)
==============  ================================================================

The observation (:class:`ObservationEncoder`) is built from ``state.view(seat)`` alone — the
view hides other hands, the second packet during Legen, the card passed in a Hochzeit and
the partner of a Rufspiel until the called ace falls.  Seats are *relative* to the
observer: ``r`` is absolute seat ``(seat + r) % 4``.  Every entry lies in ``[0, 1]``.
``W = 29`` game words, ``P = 9`` phases.

=================  ===============  ==================================================
piece              shape            meaning
=================  ===============  ==================================================
``hand``           ``(32,)``        own cards (during Legen the first four only)
``played``         ``(4, 32)``      cards on the table so far, by relative seat
``trick``          ``(4, 32)``      the current trick's cards, by relative seat
``trick_leader``   ``(4,)``         who leads / led the current trick (play phase)
``tricks_won``     ``(4,)``         tricks taken by each relative seat, / 8
``augen``          ``(4,)``         Augen taken by each relative seat, / 120
``hand_sizes``     ``(4,)``         cards held by each relative seat, / 8
``phase``          ``(P,)``         shuffle legen bidding muss hochzeit exchange stossen
                                    play end
``to_act``         ``(4,)``         relative seat to act (all 0 at chance or the end)
``dealer``         ``(4,)``         relative seat of the dealer
``lege``           ``(4,)``         who said ``lege``
``bids``           ``(5, 4 + 1+W)`` the words of the bidding and the Muss call in order:
                                    relative seat, then ``weiter`` or a game word
``standing``       ``(W,)``         the highest game named so far
``contract``       ``(W + 1,)``     the game played (a game word, or ``ramsch``)
``declarer``       ``(4,)``         relative seat of the declarer
``called``         ``(32,)``        the called card of a Sauspiel / Muss-Spiel
``partner``        ``(4,)``         the declarer's partner once everybody knows him
``hochzeit``       ``(4, 2)``       answers to a Hochzeit: ``annehmen``, ``gut``
``stoss``          ``(5, 4)``       row ``i``: who said the ``i``-th Stoß word
``multiplier``     ``(1,)``         ``1 - 1/multiplier`` (Legen and Stoßen double)
``play_sequence``  ``(32, 32)``     only with ``perfect_recall``: row ``k`` is the
                                    ``k``-th card played
=================  ===============  ==================================================

**OpenSpiel** deals the 32 cards one chance node each, four to each seat from the dealer's
left, twice (the first packet is what a seat sees when it decides on Legen).
**Resampling** keeps the player's own cards (during Legen the first packet) and every played
card and deals the unseen ones uniformly among the deals with the hard facts: voids, the
called ace (not with the declarer of a Sauspiel; with the seat that led the called suit
when the ace did not fall — davonlaufen), EO with the Muss-Spieler, no trump with the
Hochzeiter after the exchange (each of the two knows the card he gave; a third seat draws
the two passed cards).  Each world is then replayed *checked*; a world in which a recorded
word or card would be illegal is rejected and another drawn.

>>> from stammtisch.games.schafkopf.rules import SchafkopfRules
>>> codec = ActionCodec(SchafkopfRules.preset("anleitung"))
>>> codec.num_actions, codec.encode(Say("weiter")), str(codec.decode(66)), str(codec.decode(0))
(70, 61, 'sup', 'EA')
>>> ObservationEncoder().size
623
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stammtisch.cards import LONG_DECK, Card
from stammtisch.engine.core import CHANCE, Action, Deal, GameState, Say
from stammtisch.errors import InvalidActionError, RulesError, StammtischError
from stammtisch.games.base.encoding import (
    Layout,
    NoWorldError,
    PacketDeal,
    Uniform,
    below,
    deal_uniformly,
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

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


class ActionCodec:
    """Stable integer ids for every action (see the module docstring); the Stoß ids name
    the words of ``rules``."""

    num_cards = 32
    num_actions = NUM_ACTIONS

    def __init__(self, rules: SchafkopfRules | None = None) -> None:
        rules = rules if rules is not None else SchafkopfRules.preset("standard")
        if len(rules.stoss_words) > MAX_STOSS:
            raise RulesError(f"stoss_words: at most {MAX_STOSS} words have action ids")
        self.rules = rules
        stoss: list[Action | None] = [Say(w) for w in rules.stoss_words]
        self.actions: tuple[Action | None, ...] = (
            *LONG_DECK, *(Say(w) for w in GAME_WORDS), *(Say(w) for w in PLAIN_WORDS),
            *stoss, *[None] * (MAX_STOSS - len(stoss)))
        self._ids = {a: i for i, a in enumerate(self.actions) if a is not None}

    def encode(self, action: Action) -> int:
        """The id of ``action``; :class:`InvalidActionError` if it has none (chance)."""
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise InvalidActionError(f"{action}: not an action with an id") from None

    def decode(self, action_id: int) -> Action:
        """The action of ``action_id`` (any integer type)."""
        i = int(action_id)
        action = self.actions[i] if 0 <= i < NUM_ACTIONS else None
        if action is None:
            raise InvalidActionError(f"{action_id!r}: not an action id of these rules")
        return action

    def card_id(self, card: Card) -> int:
        return self._ids[card]

    def name(self, action_id: int) -> str:
        return str(self.decode(action_id))

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of ``state.legal_actions()``, ascending."""
        return sorted(self._ids[a] for a in state.legal_actions())

    def legal_mask(self, state: GameState) -> MaskArray:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_ids(state)] = 1
        return mask


_CARD = {str(c): i for i, c in enumerate(LONG_DECK)}
_AUGEN = {str(c): c.augen for c in LONG_DECK}
_BID_WORD = {w: i for i, w in enumerate(("weiter", *GAME_WORDS))}
_GAME = {w: i for i, w in enumerate(GAME_WORDS)}
_CONTRACT = {w: i for i, w in enumerate((*GAME_WORDS, "ramsch"))}
_PHASE = {p: i for i, p in enumerate(PHASES)}


class ObservationEncoder(Layout):
    """Turns ``state.view(seat)`` into a flat ``float32`` tensor (layout: module docstring)."""

    def __init__(self, *, perfect_recall: bool = False) -> None:
        self.perfect_recall = perfect_recall
        w = len(GAME_WORDS)
        super().__init__([
            ("hand", (32,)), ("played", (4, 32)), ("trick", (4, 32)), ("trick_leader", (4,)),
            ("tricks_won", (4,)), ("augen", (4,)), ("hand_sizes", (4,)),
            ("phase", (len(PHASES),)), ("to_act", (4,)), ("dealer", (4,)), ("lege", (4,)),
            ("bids", (MAX_BIDS, 4 + 1 + w)), ("standing", (w,)), ("contract", (w + 1,)),
            ("declarer", (4,)), ("called", (32,)), ("partner", (4,)), ("hochzeit", (4, 2)),
            ("stoss", (MAX_STOSS, 4)), ("multiplier", (1,)),
            *([("play_sequence", (32, 32))] if perfect_recall else []),
        ])

    def encode(self, view: Mapping[str, Any], out: FloatArray | None = None) -> FloatArray:
        """The tensor of ``view`` (a ``SchafkopfState.view(seat)`` of a seat)."""
        seat: int | None = view["seat"]
        if seat is None:
            raise ValueError("the observation needs a seat's view, not a spectator's")
        out = self.cleared(out)
        t = self.split(out)
        observer: int = seat

        def rel(s: int) -> int:
            return (s - observer) % 4

        for c in view["hand"]:
            t["hand"][_CARD[c]] = 1.0
        played = t["played"]
        sequence = t.get("play_sequence")
        k = 0
        for trick in view["tricks_played"]:
            winner = rel(trick["winner"])
            t["tricks_won"][winner] += 1.0 / 8
            for entry in trick["cards"]:
                ci = _CARD[entry["card"]]
                played[rel(entry["seat"]), ci] = 1.0
                t["augen"][winner] += _AUGEN[entry["card"]] / 120.0
                if sequence is not None:
                    sequence[k, ci] = 1.0
                k += 1
        current = view["trick"]
        for entry in current:
            ci = _CARD[entry["card"]]
            r = rel(entry["seat"])
            played[r, ci] = t["trick"][r, ci] = 1.0
            if sequence is not None:
                sequence[k, ci] = 1.0
            k += 1
        phase = view["phase"]
        if phase == "play":
            if current:
                lead = current[0]["seat"]
            elif view["tricks_played"]:
                lead = view["tricks_played"][-1]["winner"]
            else:
                lead = view["to_act"]
            t["trick_leader"][rel(lead)] = 1.0
        for s, size in enumerate(view["hand_sizes"]):
            t["hand_sizes"][rel(s)] = size / 8.0
        t["phase"][_PHASE[phase]] = 1.0
        if view["to_act"] is not None:
            t["to_act"][rel(view["to_act"])] = 1.0
        t["dealer"][rel(view["dealer"])] = 1.0
        for s in view["lege"]:
            t["lege"][rel(s)] = 1.0
        for i, b in enumerate(view["bids"][:MAX_BIDS]):
            t["bids"][i, rel(b["seat"])] = 1.0
            t["bids"][i, 4 + _BID_WORD[b["word"]]] = 1.0
        if view["standing"] is not None:
            t["standing"][_GAME[view["standing"]]] = 1.0
        contract = view["contract"]
        if contract is not None and contract in _CONTRACT:
            t["contract"][_CONTRACT[contract]] = 1.0
        if view["declarer"] is not None:
            t["declarer"][rel(view["declarer"])] = 1.0
        if view["called"] is not None:
            t["called"][_CARD[view["called"]]] = 1.0
        if view["partner"] is not None:
            t["partner"][rel(view["partner"])] = 1.0
        for answer in view["hochzeit"]:
            t["hochzeit"][rel(answer["seat"]), 0 if answer["word"] == "annehmen" else 1] = 1.0
        for i, s in enumerate(view["stoss"][:MAX_STOSS]):
            t["stoss"][i, rel(s["seat"])] = 1.0
        t["multiplier"][0] = 1.0 - 1.0 / max(1, int(view["multiplier"]))
        return out


def _max_utility(rules: SchafkopfRules) -> float:
    t = rules.tariff_of
    top = max((t("solo") + 8 * t("laufend")) * 4,
              max(t("rufspiel"), t("solo")) + t("schneider") + t("schwarz") + 8 * t("laufend"),
              t("bettel"), t("ramsch") * 2**4)
    doublings = (4 if rules.legen else 0) + len(rules.stoss_words)
    return float(3 * top * 2**doublings)


class SchafkopfEncoding:
    """Schafkopf's :class:`~stammtisch.games.base.encoding.Encoding` (see the module)."""

    num_players = 4
    num_cards = max_chance_outcomes = 32
    num_actions = NUM_ACTIONS
    zero_sum = True
    information_state_strings = True

    def __init__(self, rules: SchafkopfRules) -> None:
        self.rules = rules
        self.params: Mapping[str, int] = {}
        self.codec = ActionCodec(rules)
        self.encoders = (ObservationEncoder(), ObservationEncoder(perfect_recall=True))
        self.observation_shape: tuple[int, ...] = (self.encoders[0].size,)
        self.information_state_shape: tuple[int, ...] | None = (self.encoders[1].size,)
        self.max_utility = _max_utility(rules)
        # deal, Legen, bids and Muss call, Hochzeit answers and card, Stoßen, cards
        self.max_game_length = 32 + 4 + 5 + 4 + 3 * (len(rules.stoss_words) + 1) + 32

    def initial_state(self, dealer: int) -> SchafkopfState:
        return SchafkopfState(self.rules, dealer)

    def legal_ids(self, state: SchafkopfState, pending: Sequence[int] = ()) -> list[int]:
        if state.current_player == CHANCE:
            return DEAL.outcomes(pending)
        return self.codec.legal_ids(state)

    def action_index(self, action: Action, state: SchafkopfState) -> int:
        return self.codec.encode(action)

    def action_of(self, state: SchafkopfState, ids: Sequence[int]) -> Action | None:
        if state.current_player == CHANCE:
            return DEAL.action(ids, state.dealer)
        return self.codec.decode(ids[-1])

    def action_name(self, index: int, *, chance: bool = False) -> str:
        return f"deal:{LONG_DECK[index]}" if chance else self.codec.name(index)

    def returns(self, state: SchafkopfState) -> list[float]:
        return [float(r) for r in state.returns()]

    def view(self, state: SchafkopfState, seat: int, pending: Sequence[int] = (),
             private: bool = True) -> dict[str, Any]:
        """``state.view(seat)``; during OpenSpiel's deal with the cards dealt so far."""
        v = state.view(seat)
        if state.current_player == CHANCE:
            v["hand"] = [str(c) for c in NORMAL.sorted(DEAL.dealt(pending, state.dealer, seat))]
            v["hand_sizes"] = DEAL.counts(pending, state.dealer)
        if not private:
            v["hand"], v["legal"] = [], []
        return v

    def observation(self, state: SchafkopfState, seat: int, pending: Sequence[int] = (), *,
                    private: bool = True, perfect_recall: bool = False,
                    out: FloatArray | None = None) -> FloatArray:
        return self.encoders[perfect_recall].encode(self.view(state, seat, pending, private), out)

    def pieces(self, tensor: FloatArray, *, perfect_recall: bool = False
               ) -> dict[str, FloatArray]:
        return self.encoders[perfect_recall].split(tensor)

    def observation_string(self, state: SchafkopfState, seat: int, pending: Sequence[int] = (),
                           *, private: bool = True, perfect_recall: bool = False) -> str:
        v = self.view(state, seat, pending, private)
        parts = [f"p{seat}", v["phase"]]
        if private:
            parts.append("hand:" + " ".join(v["hand"]))
        parts.append("sizes:" + "".join(str(n) for n in v["hand_sizes"]))
        if v["lege"]:
            parts.append("lege:" + "".join(str(s) for s in v["lege"]))
        for key, short in (("bids", "bids"), ("hochzeit", "hz")):
            if v[key]:
                parts.append(f"{short}:" + " ".join(f"{b['seat']}{b['word']}" for b in v[key]))
        if v["contract"]:
            parts.append(f"contract:{v['contract']}@{v['declarer']}")
        if v["partner"] is not None:
            parts.append(f"partner:{v['partner']}")
        if v["stoss"]:
            parts.append("stoss:" + " ".join(f"{s['seat']}{s['word']}" for s in v["stoss"]))
        if perfect_recall:
            plays = [f"{e['seat']}{e['card']}" for t in v["tricks_played"] for e in t["cards"]]
            if plays:
                parts.append("plays:" + " ".join(plays))
        else:
            played = [sorted(e["card"] for t in v["tricks_played"] for e in t["cards"]
                             if e["seat"] == s) for s in range(4)]
            if any(played):
                parts.append("played:" + "|".join(" ".join(p) for p in played))
            parts.append("tricks:" + "".join(str(n) for n in v["tricks_taken"]))
        if v["trick"]:
            parts.append("trick:" + " ".join(f"{e['seat']}{e['card']}" for e in v["trick"]))
        if v["to_act"] is not None:
            parts.append(f"to_act:{v['to_act']}")
        return " ".join(parts)

    def resample(self, state: SchafkopfState, history: Sequence[int], player: int,
                 uniform: Uniform) -> list[int]:
        """A world drawn with the hard facts, replayed checked (see the module)."""
        deal, actions = list(history[:32]), list(history[32:])
        know = knowledge(state, deal, player)
        for _ in range(MAX_TRIES):
            hidden = deal_uniformly(know.unseen, [*know.hidden, know.undealt],
                                    [*know.excluded, set()], know.fixed, uniform)
            world = self._world(state, deal, actions, player, know, hidden, uniform)
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


@dataclass
class Knowledge:
    """What one player knows about where the cards are (the hard facts placed directly)."""

    #: per seat: the cards it is known to have been dealt at which deal positions
    known_positions: list[dict[int, Card]]
    #: per seat: the cards it has played (finished tricks and the current one)
    played: list[list[Card]]
    #: the cards the player cannot see, to be placed
    unseen: list[Card]
    #: per seat: how many unseen cards it holds now
    hidden: list[int]
    #: per seat: the cards it cannot hold
    excluded: list[set[Card]]
    #: cards known to be held by a seat
    fixed: dict[Card, int]
    #: unseen cards not dealt yet (during the deal)
    undealt: int = 0


def knowledge(sk: SchafkopfState, deal: Sequence[int], player: int) -> Knowledge:
    """The hard facts ``player`` knows (see the module docstring)."""
    known_positions: list[dict[int, Card]] = [{}, {}, {}, {}]
    own_positions = [k for k in DEAL.positions(sk.dealer, player) if k < len(deal)]
    if sk.phase == "legen":
        own_positions = own_positions[:4]  # the second packet is not seen yet
    for k in own_positions:
        known_positions[player][k] = LONG_DECK[deal[k]]
    played: list[list[Card]] = [[], [], [], []]
    excluded: list[set[Card]] = [set(), set(), set(), set()]
    fixed: dict[Card, int] = {}
    order = sk.order
    voids: list[set[int]] = [set(), set(), set(), set()]
    called = sk.called
    called_led = False
    t = sk.tricks
    for lead, cards in [*t.tricks, (t.leader, tuple(t.current))]:
        if not cards:
            continue
        led = order.klass(cards[0])
        for i, c in enumerate(cards):
            seat = (lead + i) % 4
            played[seat].append(c)
            if i and order.klass(c) != led:
                voids[seat].add(led)
        if called is not None and led == order.klass(called) and not called_led:
            called_led = True  # the first trick of the called suit: the ace must fall ...
            if len(cards) == 4 and called not in cards:
                fixed[called] = lead  # ... unless its holder ran away (davonlaufen)
    played_cards = {c for p in played for c in p}
    own_now = (set(sk.hands[player]) if len(deal) == 32 and sk.phase != "legen"
               else set(known_positions[player].values()))
    unseen = [c for c in LONG_DECK if c not in own_now and c not in played_cards]
    dealt_to = DEAL.counts(deal, sk.dealer)
    hidden = [dealt_to[s] - len(played[s]) for s in range(4)]
    hidden[player] -= len(own_now)
    for seat in range(4):
        if voids[seat]:
            excluded[seat] |= {c for c in unseen if order.klass(c) in voids[seat]}
    if called is not None and sk.declarer is not None:
        excluded[sk.declarer].add(called)
    if sk.phase == "muss" and sk.current_player != player:
        fixed[EO] = sk.current_player
    elif sk.muss and sk.declarer is not None and sk.declarer != player:
        fixed[EO] = sk.declarer
    if sk._exchange is not None and sk.declarer is not None and sk.acceptor is not None:
        given, trump = sk._exchange
        excluded[sk.declarer] |= {c for c in unseen if NORMAL.is_trump(c)}
        if player == sk.acceptor:
            fixed[given] = sk.declarer
        elif player == sk.declarer:
            fixed[trump] = sk.acceptor
    fixed = {c: s for c, s in fixed.items() if c in unseen}
    return Knowledge(known_positions, played, unseen, hidden, excluded, fixed,
                     len(unseen) - sum(hidden))
