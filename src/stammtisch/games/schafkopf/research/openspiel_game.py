"""Schafkopf as a Python OpenSpiel game: ``pyspiel.load_game("python_schafkopf")``.

Importing this module registers the game with ``pyspiel.register_game``.  A sequential,
imperfect-information, zero-sum game of four players with explicit stochastic chance and
terminal rewards (the hand's payments in cents).  Parameters: ``rules`` (a preset name,
default ``standard``, optionally with options: ``standard;legen:true;stoss_words:kontra/re``,
see :func:`parse_rules_param`) and ``dealer`` (seat 0..3, default 0).

**The deal** is chance dealing card by card: 32 chance nodes, each drawing one of the cards
not dealt yet with equal probability (the outcome is the card's action id ``0 .. 31``, see
:mod:`stammtisch.games.schafkopf.research.encoding`), in the packets of the real deal —
four cards to each seat from the dealer's left, twice — so the ``k``-th card goes to a
fixed seat and the first packet is what a seat sees when it decides on Legen.  Everything
after — Legen, bidding, Muss-Spiel, Ramsch, Hochzeit, Stoßen, the tricks, the payments — is
the engine's :class:`~stammtisch.games.schafkopf.state.SchafkopfState`, applied *checked*.

**Observations** (:class:`SchafkopfObserver`) come from ``state.view(player)`` (during
the deal: the cards dealt to that player so far) — never from hidden cards: not the other
hands, not the second packet during Legen, not the card passed in a Hochzeit, not the
partner of a Rufspiel before the called ace falls.  ``perfect_recall=True`` adds the order
of the played cards; ``private_info=NONE`` gives the public observation.

**Resampling** (:meth:`SchafkopfOpenSpielState.resample_from_infostate`, for IS-MCTS)
deals a world the player cannot tell from the real one.  The player's own cards (during
Legen: the first packet only) and every played card stay; the unseen cards go to the
seats that hide cards, uniformly among the deals that respect the hard facts:

- **voids**: a seat that did not follow the led class holds no card of it;
- **the called ace**: the declarer of a Sauspiel does not hold it; a seat that led the
  called suit without the ace falling in that trick (davonlaufen) holds it;
- **Muss-Spiel**: the seat that had to call holds EO;
- **Hochzeit**: after the exchange the Hochzeiter holds no trump; each of the two knows the
  card he gave (the other holds it), a third seat draws the two passed cards among those
  possible.

Then the world is replayed *checked* through a fresh state: a world in which any recorded
word or card would have been illegal (a Sauspiel named without a plain card of the suit, a
Hochzeit without exactly one trump, the called ace not played when its suit was led, …) is
rejected and another drawn, so every world returned is possible and, among the worlds
with the hard facts above, the accepted ones are equally likely (one exception: a
Hochzeit seen by a third seat, whose two passed cards are drawn uniformly in each world, so
those worlds are not weighted by how many exchanges lead to them).  Soft inferences (what
a ``weiter`` suggests) are not used.

>>> import pyspiel
>>> game = pyspiel.load_game("python_schafkopf")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), game.num_distinct_actions()
(True, 32, 70)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from stammtisch.cards import LONG_DECK, Card
from stammtisch.engine.core import TERMINAL, Deal
from stammtisch.errors import StammtischError
from stammtisch.games.schafkopf.games import NORMAL
from stammtisch.games.schafkopf.research.encoding import (
    NUM_ACTIONS,
    ActionCodec,
    ObservationEncoder,
)
from stammtisch.games.schafkopf.rules import PRESETS, SchafkopfRules
from stammtisch.games.schafkopf.state import EO, SchafkopfState

__all__ = ["GAME_TYPE", "SchafkopfGame", "SchafkopfObserver", "SchafkopfOpenSpielState",
           "parse_rules_param", "rules_param", "sample_world"]

_NUM_PLAYERS = 4
#: how many worlds :meth:`resample_from_infostate` draws before it gives up
MAX_TRIES = 5000

GAME_TYPE = pyspiel.GameType(
    short_name="python_schafkopf",
    long_name="Python Schafkopf (Bavarian, 4 players)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_NUM_PLAYERS,
    min_num_players=_NUM_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "standard", "dealer": 0},
)


# -- parameters ---------------------------------------------------------------------------


def parse_rules_param(text: str) -> SchafkopfRules:
    """The rules of a ``rules`` parameter: a preset name, optionally followed by
    ``;option:value`` items (lists with ``/``, ``true``/``false``, whole numbers), e.g.
    ``standard;legen:true;games:sauspiel/wenz``.  No commas or parentheses (OpenSpiel's game
    strings must parse back); the tariff cannot be given this way."""
    preset, *items = text.strip().split(";")
    options: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition(":")
        if not sep or not key.strip():
            raise ValueError(f"rules={text!r}: {item!r} is not 'option:value'")
        raw = raw.strip()
        value: Any
        if "/" in raw or key.strip() in ("games", "stoss_words"):
            value = [p for p in raw.split("/") if p]
        elif raw in ("true", "false"):
            value = raw == "true"
        else:
            try:
                value = int(raw)
            except ValueError:
                value = raw
        options[key.strip()] = value
    return SchafkopfRules.preset(preset.strip(), **options)


def rules_param(rules: SchafkopfRules) -> str:
    """The ``rules`` parameter that gives ``rules`` (see :func:`parse_rules_param`).

    >>> rules_param(SchafkopfRules.preset("standard", legen=True, stoss_words=["kontra"]))
    'standard;legen:true;stoss_words:kontra'
    """
    base = PRESETS[rules.preset_name].to_json()
    items = [rules.preset_name]
    for key, value in rules.to_json().items():
        if key == "preset" or value == base[key]:
            continue
        if isinstance(value, list):
            text = "/".join(str(v) for v in value)
        elif isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = str(value)
        items.append(f"{key}:{text}")
    param = ";".join(items)
    if parse_rules_param(param) != rules:
        raise ValueError(f"these rules cannot be written as a game parameter (tariff?): "
                         f"{param!r}")
    return param


@dataclass(eq=False)
class _Shared:
    """Rules, codec and deal layout of one parameter set."""

    key: tuple[str, int]
    rules: SchafkopfRules
    dealer: int
    codec: ActionCodec
    #: seat that receives the k-th card dealt
    deal_seats: tuple[int, ...]
    #: positions (indices of the deal) of each seat's cards, in the seat's hand order
    seat_positions: tuple[tuple[int, ...], ...]
    #: the cards by action id (as Mucken's game names them, for ``bench compare``)
    cards: tuple[Card, ...] = LONG_DECK

    def __reduce__(self) -> tuple[Any, ...]:
        return (_shared_for, self.key)


_SHARED: dict[tuple[str, int], _Shared] = {}


def _shared_for(rules_text: str, dealer: int) -> _Shared:
    key = (rules_text, dealer)
    found = _SHARED.get(key)
    if found is not None:
        return found
    if not 0 <= dealer < 4:
        raise ValueError(f"dealer={dealer!r}: must be a seat 0..3")
    rules = parse_rules_param(rules_text)
    seats: list[int] = []
    for _packet in range(2):
        for i in range(4):
            seats.extend([(dealer + 1 + i) % 4] * 4)
    positions = tuple(tuple(k for k, s in enumerate(seats) if s == seat) for seat in range(4))
    shared = _Shared(key, rules, dealer, ActionCodec(rules), tuple(seats), positions)
    _SHARED[key] = shared
    return shared


def _max_utility(rules: SchafkopfRules) -> float:
    t = rules.tariff_of
    top = max((t("solo") + 8 * t("laufend")) * 4,
              max(t("rufspiel"), t("solo")) + t("schneider") + t("schwarz") + 8 * t("laufend"),
              t("bettel"), t("ramsch") * 2**4)
    doublings = (4 if rules.legen else 0) + len(rules.stoss_words)
    return float(3 * top * 2**doublings)


class SchafkopfGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_schafkopf`` (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.shared = _shared_for(str(params.get("rules", "standard")),
                                  int(params.get("dealer", 0)))
        rules = self.shared.rules
        utility = _max_utility(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=32,
            num_players=_NUM_PLAYERS,
            min_utility=-utility,
            max_utility=utility,
            utility_sum=0.0,
            # deal, Legen, bids and Muss call, Hochzeit answers and card, Stoßen, cards
            max_game_length=32 + 4 + 5 + 4 + 3 * (len(rules.stoss_words) + 1) + 32,
        )
        super().__init__(GAME_TYPE, info, params)

    @property
    def rules(self) -> SchafkopfRules:
        return self.shared.rules

    @property
    def codec(self) -> ActionCodec:
        return self.shared.codec

    def new_initial_state(self) -> SchafkopfOpenSpielState:
        return SchafkopfOpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> SchafkopfObserver:
        return SchafkopfObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


# -- the state ----------------------------------------------------------------------------


class _Core:
    """The Python side of a state: the deal so far, the player actions, the engine state.
    Pickled as the parameters and the ids only, rebuilt by replaying them."""

    __slots__ = ("actions", "deal", "schafkopf", "shared")

    def __init__(self, shared: _Shared) -> None:
        self.shared = shared
        self.deal: list[int] = []
        self.actions: list[int] = []
        self.schafkopf = SchafkopfState(shared.rules, shared.dealer)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_core, (*self.shared.key, list(self.deal), list(self.actions)))

    @property
    def dealing(self) -> bool:
        return len(self.deal) < 32

    def apply(self, action: int) -> None:
        if self.dealing:
            if not 0 <= action < 32 or action in self.deal:
                raise ValueError(f"chance outcome {action} is not a card still to deal")
            self.deal.append(action)
            if not self.dealing:
                self.schafkopf.apply(Deal(_hands_of(self.shared, self.deal)))
            return
        self.schafkopf.apply(self.shared.codec.decode(action))
        self.actions.append(action)

    def dealt_so_far(self, seat: int) -> list[Card]:
        return [LONG_DECK[self.deal[k]] for k in self.shared.seat_positions[seat]
                if k < len(self.deal)]

    def view(self, player: int) -> dict[str, Any]:
        """``SchafkopfState.view(player)``; during the deal with the cards dealt so far."""
        v = self.schafkopf.view(player)
        if self.dealing:
            v["hand"] = [str(c) for c in NORMAL.sorted(self.dealt_so_far(player))]
            counts = [0, 0, 0, 0]
            for k in range(len(self.deal)):
                counts[self.shared.deal_seats[k]] += 1
            v["hand_sizes"] = counts
        return v


def _hands_of(shared: _Shared, deal: Sequence[int]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(LONG_DECK[deal[k]] for k in shared.seat_positions[s]) for s in range(4))


def _rebuild_core(rules_text: str, dealer: int, deal: list[int], actions: list[int]) -> _Core:
    core = _Core(_shared_for(rules_text, dealer))
    for a in deal:
        core.apply(a)
    for a in actions:
        core.apply(a)
    return core


class SchafkopfOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A ``python_schafkopf`` state: the deal card by card, then a :class:`SchafkopfState`."""

    def __init__(self, game: SchafkopfGame) -> None:
        super().__init__(game)
        self._core = _Core(game.shared)

    @property
    def schafkopf(self) -> SchafkopfState:
        """The engine state (after the deal; before it, still at its shuffle node)."""
        return self._core.schafkopf

    def current_player(self) -> int:
        core = self._core
        if core.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        player = core.schafkopf.current_player
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        return self._core.shared.codec.legal_ids(self._core.schafkopf)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        assert core.dealing
        dealt = set(core.deal)
        rest = [i for i in range(32) if i not in dealt]
        p = 1.0 / len(rest)
        return [(i, p) for i in rest]

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal:{LONG_DECK[action]}"
        return self._core.shared.codec.name(action)

    def is_terminal(self) -> bool:
        core = self._core
        return not core.dealing and core.schafkopf.is_terminal()

    def returns(self) -> list[float]:
        result = self._core.schafkopf.result()
        if result is None:
            return [0.0] * 4
        return [float(p) for p in result["payments"]]

    def __str__(self) -> str:
        core = self._core
        sk = core.schafkopf
        lines = []
        for seat in range(4):
            hand = core.dealt_so_far(seat) if core.dealing else sk.hands[seat]
            lines.append(f"seat {seat}: " + " ".join(str(c) for c in sk.order.sorted(hand)))
        if core.dealing:
            lines.append(f"dealing: {len(core.deal)} of 32 cards dealt")
            return "\n".join(lines)
        lines.append(f"phase: {sk.phase}")
        if sk.lege_seats:
            lines.append(f"lege: {sk.lege_seats}")
        if sk.bids:
            lines.append("bids: " + " ".join(f"{s}:{w}" for s, w in sk.bids))
        if sk.contract:
            lines.append(f"contract: {sk.contract}, declarer {sk.declarer}, Stoß {sk.stoss}")
        t = sk.tricks
        for (lead, cards), w in zip(t.tricks, t.winners, strict=True):
            lines.append(f"trick led by {lead}: " + " ".join(str(c) for c in cards) + f" -> {w}")
        if t.current:
            lines.append(f"trick led by {t.leader}: " + " ".join(str(c) for c in t.current))
        if sk.is_terminal():
            lines.append(f"returns: {self.returns()}")
        return "\n".join(lines)

    # -- resampling -------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any = None) -> SchafkopfOpenSpielState:
        """A state ``player_id`` cannot tell from this one (see the module docstring).

        ``probability_sampler``: a ``pyspiel.UniformProbabilitySampler`` (or any callable
        returning uniform floats in [0, 1)), a ``random.Random``, or ``None``.
        """
        core = self._core
        uniform = _uniform_source(probability_sampler)
        deal, actions = sample_world(core, player_id, uniform)
        new = self.get_game().new_initial_state()
        for a in deal:
            new.apply_action(a)
        for a in actions:
            new.apply_action(a)
        return new  # type: ignore[no-any-return]


# -- the world sampler ----------------------------------------------------------------------


def _uniform_source(sampler: Any) -> Callable[[], float]:
    if sampler is None:
        return random.random
    if isinstance(sampler, random.Random):
        return sampler.random
    if callable(sampler):
        return lambda: float(sampler())
    raise TypeError(f"not a source of uniform numbers: {sampler!r}")


def _below(uniform: Callable[[], float], n: int) -> int:
    return min(n - 1, int(uniform() * n))


def _shuffle(cards: list[Card], uniform: Callable[[], float]) -> None:
    for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates
        j = _below(uniform, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


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


def knowledge(core: _Core, player: int) -> Knowledge:
    """The hard facts ``player`` knows (see the module docstring)."""
    shared = core.shared
    sk = core.schafkopf
    known_positions: list[dict[int, Card]] = [{}, {}, {}, {}]
    own_positions = [k for k in shared.seat_positions[player] if k < len(core.deal)]
    if sk.phase == "legen":
        own_positions = own_positions[:4]  # the second packet is not seen yet
    for k in own_positions:
        known_positions[player][k] = LONG_DECK[core.deal[k]]
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
    own_now = ({c for c in sk.hands[player]} if not core.dealing and sk.phase != "legen"
               else set(known_positions[player].values()))
    unseen = [c for c in LONG_DECK if c not in own_now and c not in played_cards]
    dealt_to = [0, 0, 0, 0]
    for k in range(len(core.deal)):
        dealt_to[shared.deal_seats[k]] += 1
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
    exchange = sk._exchange
    if exchange is not None and sk.declarer is not None and sk.acceptor is not None:
        given, trump = exchange
        excluded[sk.declarer] |= {c for c in unseen if NORMAL.is_trump(c)}
        if player == sk.acceptor:
            fixed[given] = sk.declarer
        elif player == sk.declarer:
            fixed[trump] = sk.acceptor
    fixed = {c: s for c, s in fixed.items() if c in unseen}
    undealt = len(unseen) - sum(hidden)
    return Knowledge(known_positions, played, unseen, hidden, excluded, fixed, undealt)


def sample_world(core: _Core, player: int,
                 uniform: Callable[[], float]) -> tuple[list[int], list[int]]:
    """A world ``player`` cannot tell from ``core``'s: the deal (card ids, in deal order)
    and the player actions to replay (the Hochzeit's card may differ)."""
    know = knowledge(core, player)
    shared = core.shared
    for _ in range(MAX_TRIES):
        hidden = _sample_hidden(know, uniform)
        candidate = _world_from(core, player, know, hidden, uniform)
        if candidate is not None:
            return candidate
    raise StammtischError(f"no consistent world found for player {player} in {MAX_TRIES} "
                          f"draws (rules {shared.key[0]!r})")


def _sample_hidden(know: Knowledge, uniform: Callable[[], float]) -> list[list[Card]]:
    """The unseen cards placed: per seat (and 4: not dealt yet), uniformly among the
    placements that respect ``excluded`` and ``fixed``."""
    caps = [*know.hidden, know.undealt]
    out: list[list[Card]] = [[], [], [], [], []]
    free: list[Card] = []
    for c in know.unseen:
        seat = know.fixed.get(c)
        if seat is not None:
            out[seat].append(c)
            caps[seat] -= 1
        else:
            free.append(c)
    if any(cap < 0 for cap in caps):
        raise StammtischError("inconsistent knowledge: a seat holds more known cards than "
                              "it has")
    groups: dict[tuple[int, ...], list[Card]] = {}
    for c in free:
        allowed = tuple(b for b in range(5)
                        if caps[b] > 0 and (b == 4 or c not in know.excluded[b]))
        groups.setdefault(allowed, []).append(c)
    types = sorted(groups.items())
    counts = _WorldCounter([len(cs) for _, cs in types], [a for a, _ in types])
    remaining = tuple(caps)
    if counts.count(0, remaining) == 0:
        raise StammtischError("no deal is consistent with what the player has seen")
    for i, (allowed, cards_of_type) in enumerate(types):
        splits = []
        total = 0
        for split in _splits(len(cards_of_type), allowed, remaining):
            rest = tuple(remaining[b] - split[b] for b in range(5))
            w = _multinomial(split) * counts.count(i + 1, rest)
            if w:
                splits.append((w, split, rest))
                total += w
        r = uniform() * total
        chosen = splits[-1]
        for item in splits:
            r -= item[0]
            if r < 0:
                chosen = item
                break
        _, split, remaining = chosen
        shuffled = list(cards_of_type)
        _shuffle(shuffled, uniform)
        pos = 0
        for b in range(5):
            out[b].extend(shuffled[pos: pos + split[b]])
            pos += split[b]
    return out


def _world_from(core: _Core, player: int, know: Knowledge, hidden: list[list[Card]],
                uniform: Callable[[], float]) -> tuple[list[int], list[int]] | None:
    """The deal and actions of a world, or ``None`` if a recorded action would be illegal
    in it (checked by replaying on a fresh :class:`SchafkopfState`)."""
    shared = core.shared
    sk = core.schafkopf
    n = len(core.deal)
    # each seat's cards in the world now (played and held), then as dealt
    start: list[list[Card]] = [[*know.played[s], *hidden[s]] for s in range(4)]
    start[player] = [*know.played[player], *(c for c in sk.hands[player]
                                             if c not in know.played[player])] \
        if not core.dealing and sk.phase != "legen" else [*hidden[player]]
    actions = list(core.actions)
    exchange = sk._exchange
    if exchange is not None and sk.declarer is not None and sk.acceptor is not None:
        d, a = sk.declarer, sk.acceptor
        given, trump = exchange
        if player not in (d, a):
            given = start[d][_below(uniform, len(start[d]))]
            trumps = [c for c in start[a] if NORMAL.is_trump(c)]
            if not trumps:
                return None
            trump = trumps[_below(uniform, len(trumps))]
        if given not in start[d] or trump not in start[a]:  # pragma: no cover - fixed cards
            return None
        start[d] = [trump if c == given else c for c in start[d]]
        start[a] = [given if c == trump else c for c in start[a]]
        index = (4 if shared.rules.legen else 0) + len(sk.bids) + len(sk.hochzeit_answers)
        if shared.codec.decode(actions[index]) != exchange[0]:  # pragma: no cover
            raise StammtischError("the Hochzeit's card is not where it was expected")
        actions[index] = shared.codec.card_id(given)
    order: list[int] = [-1] * n
    for seat in range(4):
        positions = [k for k in shared.seat_positions[seat] if k < n]
        known = know.known_positions[seat] if seat == player else {}
        if seat == player and not core.dealing and sk.phase != "legen":
            cards = [LONG_DECK[core.deal[k]] for k in positions]  # the real dealt hand
        else:
            rest = [c for c in start[seat] if c not in known.values()]
            _shuffle(rest, uniform)
            cards = [known[k] if k in known else rest.pop() for k in positions]
        for k, c in zip(positions, cards, strict=True):
            order[k] = shared.codec.card_id(c)
    if core.dealing:
        return order, actions
    check = SchafkopfState(shared.rules, shared.dealer)
    try:
        check.apply(Deal(_hands_of(shared, order)))
        for action in actions:
            check.apply(shared.codec.decode(action))
    except StammtischError:
        return None
    return order, actions


def _multinomial(split: Sequence[int]) -> int:
    out = math.factorial(sum(split))
    for k in split:
        out //= math.factorial(k)
    return out


def _splits(n: int, allowed: Sequence[int], caps: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way to put ``n`` cards into the ``allowed`` buckets within their capacities."""
    out: list[tuple[int, ...]] = []
    split = [0, 0, 0, 0, 0]

    def place(i: int, left: int) -> None:
        b = allowed[i]
        if i == len(allowed) - 1:
            if left <= caps[b]:
                split[b] = left
                out.append(tuple(split))
                split[b] = 0
            return
        for k in range(min(left, caps[b]) + 1):
            split[b] = k
            place(i + 1, left - k)
        split[b] = 0

    if not allowed:
        return [(0, 0, 0, 0, 0)] if n == 0 else []
    place(0, n)
    return out


class _WorldCounter:
    """Number of ways to place the card types ``t..`` into buckets of given capacities."""

    def __init__(self, sizes: list[int], allowed: list[tuple[int, ...]]) -> None:
        self.sizes = sizes
        self.allowed = allowed
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(self, t: int, caps: tuple[int, ...]) -> int:
        if t == len(self.sizes):
            return 1 if not any(caps) else 0
        key = (t, caps)
        found = self.memo.get(key)
        if found is not None:
            return found
        total = 0
        for split in _splits(self.sizes[t], self.allowed[t], caps):
            rest = tuple(caps[b] - split[b] for b in range(5))
            total += _multinomial(split) * self.count(t + 1, rest)
        self.memo[key] = total
        return total


# -- the observer ---------------------------------------------------------------------------


class SchafkopfObserver:
    """Observation and information-state tensors and strings (OpenSpiel's PyObserver).

    ``perfect_recall`` adds the order of the played cards; ``private_info`` SINGLE_PLAYER
    includes the own hand, NONE leaves it out.  ``ALL_PLAYERS`` is not offered.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_schafkopf observes for one player: "
                             "private_info=ALL_PLAYERS is not supported")
        if not iig_obs_type.public_info:
            raise ValueError("python_schafkopf: observations without public information "
                             "are not supported")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = ObservationEncoder(perfect_recall=self.perfect_recall)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.split(self.tensor)

    def _view(self, state: SchafkopfOpenSpielState, player: int) -> dict[str, Any]:
        v = state._core.view(player)
        if not self.private:
            v["hand"] = []
            v["legal"] = []
        return v

    def set_from(self, state: SchafkopfOpenSpielState, player: int) -> None:
        self.encoder.encode(self._view(state, player), out=self.tensor)

    def string_from(self, state: SchafkopfOpenSpielState, player: int) -> str:
        v = self._view(state, player)
        parts = [f"p{player}", v["phase"]]
        if self.private:
            parts.append("hand:" + " ".join(v["hand"]))
        parts.append("sizes:" + "".join(str(n) for n in v["hand_sizes"]))
        if v["lege"]:
            parts.append("lege:" + "".join(str(s) for s in v["lege"]))
        if v["bids"]:
            parts.append("bids:" + " ".join(f"{b['seat']}{b['word']}" for b in v["bids"]))
        if v["hochzeit"]:
            parts.append("hz:" + " ".join(f"{h['seat']}{h['word']}" for h in v["hochzeit"]))
        if v["contract"]:
            parts.append(f"contract:{v['contract']}@{v['declarer']}")
        if v["partner"] is not None:
            parts.append(f"partner:{v['partner']}")
        if v["stoss"]:
            parts.append("stoss:" + " ".join(f"{s['seat']}{s['word']}" for s in v["stoss"]))
        if self.perfect_recall:
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


if GAME_TYPE.short_name not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, SchafkopfGame)
