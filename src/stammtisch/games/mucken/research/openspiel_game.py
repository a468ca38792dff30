"""Mucken as a Python OpenSpiel game: ``pyspiel.load_game("python_mucken")``.

Importing this module registers the game with ``pyspiel.register_game``.  It is a
sequential, imperfect-information, zero-sum game of four players (pairs 0+2 and 1+3) with
explicit stochastic chance and terminal rewards (``MuckenState.returns()``).  Parameters:
``rules`` (a preset name, default ``seefest``, optionally with options:
``seefest;no_game:muss;doublings:2``, see :func:`parse_rules_param` and
:func:`rules_param`) and ``dealer`` (seat 0..3, default 0).

**The deal** is modelled as chance dealing card by card: ``N`` chance nodes (24 for the short
deck), each drawing one of the cards not dealt yet with equal probability, the chance
outcome being the card's action id (``0 .. N-1``, see
:mod:`stammtisch.games.mucken.research.encoding`).  Cards go out in the packets of the real deal —
``N/8`` cards to each seat from the dealer's left, twice — so the ``k``-th card drawn goes
to a fixed seat.  **The Abheben (cut) is omitted**: a uniformly random deal is what any
cut of a well-shuffled deck gives, so the cut changes nothing but the cutter's decision
points; as a consequence there is no Klopfen either (Klopfen is said instead of cutting),
and the cut ids of the action set are never legal.  Everything after the deal — bidding,
Muss-Spiel, Ramsch, Sie, Kontra/Re/…, the tricks and the score — is the engine's
:class:`~stammtisch.games.mucken.state.MuckenState`, applied *checked*.

**Observations** come from :class:`MuckenObserver` (``make_py_observer``), built from
``state.view(player)`` and, during the deal, the cards dealt to that player so far — never
from hidden cards.  The information state (``perfect_recall=True``) adds the order of the
played cards (``play_sequence``) to the observation tensor of
:class:`~stammtisch.games.mucken.research.encoding.ObservationEncoder`; together with the
sequence of calls and the own hand this is perfect recall.  ``private_info=NONE`` gives the public
observation (no hand).

**Resampling** (:meth:`MuckenOpenSpielState.resample_from_infostate`, used by IS-MCTS)
deals a world that the player cannot tell from the real one: the own cards and every
played card stay; the unseen cards are dealt to the other seats, each getting as many as
it has hidden, *uniformly among the deals consistent with* what the table has seen:

- **voids**: a seat that did not follow the led class (a suit, or trump) holds no card of
  that class (judged with the trick order of the contract being played);
- **Stichzwang** (Ramsch with ``ramsch_stichzwang``): a seat that neither followed nor
  trumped holds no trump either;
- **Muss-Spiel**: the seat that had to call holds the ``muss_card`` (until it plays it).

Not used: what the **calls** suggest about the hands (a declarer is as likely to hold few
trumps as many; a seat that said ``weiter`` is not assumed weak), nor how a card was
played (e.g. a seat that schmiert is not assumed to lack higher cards).  These are soft
inferences about *likelihood*; the sampler only applies hard facts, so every world it
deals is possible and every possible world is equally likely.

>>> import pyspiel
>>> game = pyspiel.load_game("python_mucken")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 24)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

from stammtisch.cards import Card
from stammtisch.engine.core import TERMINAL, Deal
from stammtisch.engine.tricks import TRUMP
from stammtisch.games.mucken.research.encoding import ActionCodec, ObservationEncoder, max_calls
from stammtisch.games.mucken.rules import LEVELS, MuckenRules
from stammtisch.games.mucken.state import MuckenState

__all__ = [
    "GAME_TYPE",
    "MuckenGame",
    "MuckenObserver",
    "MuckenOpenSpielState",
    "parse_rules_param",
    "rules_param",
]

_NUM_PLAYERS = 4

GAME_TYPE = pyspiel.GameType(
    short_name="python_mucken",
    long_name="Python Mucken (Franconian, 4 players in pairs)",
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
    parameter_specification={"rules": "seefest", "dealer": 0},
)


# -- per-parameters data shared by a game and its states ---------------------------------


@dataclass(eq=False)
class _Shared:
    """Rules, codec and deal layout of one parameter set (immutable once built)."""

    key: tuple[str, int]
    rules: MuckenRules
    dealer: int
    codec: ActionCodec
    #: seat that receives the k-th card dealt
    deal_seats: tuple[int, ...]
    #: positions (indices of the deal) of each seat's cards
    seat_positions: tuple[tuple[int, ...], ...]
    cards: tuple[Card, ...] = field(default=())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_shared_for, self.key)


_SHARED: dict[tuple[str, int], _Shared] = {}


def parse_rules_param(text: str) -> MuckenRules:
    """The rules of a ``rules`` game parameter: a preset name, optionally followed by
    ``;option:value`` items — e.g. ``seefest;no_game:muss;doublings:2`` or
    ``seefest;deck:long;games:muck/wenz/geier`` (lists with ``/``, ``true``/``false``,
    whole numbers).  No commas or parentheses, so that OpenSpiel's game strings (which
    clones and serialized states carry) parse back.  Score tables (``values``) cannot be
    given this way.
    """
    preset, *items = text.strip().split(";")
    options: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition(":")
        if not sep or not key.strip():
            raise ValueError(f"rules={text!r}: {item!r} is not 'option:value'")
        options[key.strip()] = _param_value(raw.strip())
    return MuckenRules.preset(preset.strip(), **options)


def _param_value(raw: str) -> Any:
    if "/" in raw:
        return tuple(part for part in raw.split("/") if part)
    if raw in ("true", "false"):
        return raw == "true"
    try:
        return int(raw)
    except ValueError:
        return raw


def rules_param(rules: MuckenRules) -> str:
    """The ``rules`` game parameter that gives ``rules`` (see :func:`parse_rules_param`).

    >>> rules_param(MuckenRules.preset("seefest", doublings=2, games=("muck", "wenz", "geier")))
    'seefest;games:muck/wenz/geier;doublings:2'
    """
    base_name = rules.name if rules.name in ("seefest", "wikipedia") else "seefest"
    base = MuckenRules.preset(base_name).to_json()
    items = [base_name]
    for key, value in rules.to_json().items():
        if key in ("name", "values") or value == base[key]:
            continue
        if isinstance(value, list):
            text = "/".join(str(v) for v in value)
            text = text if len(value) > 1 else text + "/"
        elif isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = str(value)
        items.append(f"{key}:{text}")
    param = ";".join(items)
    if parse_rules_param(param) != rules:
        raise ValueError(f"these rules cannot be written as a game parameter (score table?): "
                         f"{param!r}")
    return param


def _shared_for(rules_text: str, dealer: int) -> _Shared:
    key = (rules_text, dealer)
    found = _SHARED.get(key)
    if found is not None:
        return found
    if not 0 <= dealer < 4:
        raise ValueError(f"dealer={dealer!r}: must be a seat 0..3")
    rules = parse_rules_param(rules_text)
    codec = ActionCodec(rules)
    size = rules.hand_size
    seats: list[int] = []
    for packet in (size // 2, size - size // 2):
        for i in range(4):
            seats.extend([(dealer + 1 + i) % 4] * packet)
    positions = tuple(tuple(k for k, s in enumerate(seats) if s == seat) for seat in range(4))
    shared = _Shared(key, rules, dealer, codec, tuple(seats), positions, codec.deck)
    _SHARED[key] = shared
    return shared


def _max_utility(rules: MuckenRules) -> float:
    best = max(rules.pflichtmuck_value, rules.ramsch_value * (2 if rules.ramsch_double else 1),
               rules.sie_value if rules.sie else 0)
    for name in rules.bid_names():
        for column in LEVELS:
            v = rules.value(name, column)
            if v is not None:
                best = max(best, v * 2**rules.doublings)
    return float(best)


class MuckenGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_mucken`` (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules_text = str(params.get("rules", "seefest"))
        dealer = int(params.get("dealer", 0))
        self.shared = _shared_for(rules_text, dealer)
        rules = self.shared.rules
        n = len(self.shared.cards)
        utility = _max_utility(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.codec.num_actions,
            max_chance_outcomes=n,
            num_players=_NUM_PLAYERS,
            min_utility=-utility,
            max_utility=utility,
            utility_sum=0.0,
            # the deal, the calls, the doubling words (at most 3 per doubling), the cards
            max_game_length=n + max_calls(rules) + 3 * max(1, rules.doublings) + n,
        )
        super().__init__(GAME_TYPE, info, params)

    @property
    def rules(self) -> MuckenRules:
        return self.shared.rules

    @property
    def codec(self) -> ActionCodec:
        return self.shared.codec

    def new_initial_state(self) -> MuckenOpenSpielState:
        return MuckenOpenSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MuckenObserver:
        return MuckenObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
            self.shared.rules)


# -- the state ----------------------------------------------------------------------------


class _Core:
    """The Python side of a state: the deal so far, the player actions, the engine state.

    Pickled (OpenSpiel clones and serializes Python states by pickling their ``__dict__``)
    as the parameters and the action ids only, and rebuilt by replaying them: much
    cheaper than pickling a ``MuckenState``, and independent of its internals.
    """

    __slots__ = ("actions", "deal", "mucken", "shared")

    def __init__(self, shared: _Shared) -> None:
        self.shared = shared
        self.deal: list[int] = []
        self.actions: list[int] = []
        self.mucken = MuckenState(shared.rules, shared.dealer)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_core, (*self.shared.key, list(self.deal), list(self.actions)))

    @property
    def dealing(self) -> bool:
        return len(self.deal) < len(self.shared.cards)

    def apply(self, action: int) -> None:
        shared = self.shared
        if self.dealing:
            if not 0 <= action < len(shared.cards) or action in self.deal:
                raise ValueError(f"chance outcome {action} is not a card still to deal")
            self.deal.append(action)
            if not self.dealing:
                hands: list[list[Card]] = [[], [], [], []]
                for k, card_id in enumerate(self.deal):
                    hands[shared.deal_seats[k]].append(shared.cards[card_id])
                self.mucken.apply(Deal(tuple(tuple(h) for h in hands)))
            return
        self.mucken.apply(shared.codec.decode(action))
        self.actions.append(action)

    def dealt_so_far(self, seat: int) -> list[Card]:
        cards, positions = self.shared.cards, self.shared.seat_positions[seat]
        return [cards[self.deal[k]] for k in positions if k < len(self.deal)]

    def view(self, player: int) -> dict[str, Any]:
        """``MuckenState.view(player)``; during the deal with the cards dealt so far."""
        v = self.mucken.view(player)
        if self.dealing:
            v["hand"] = [str(c) for c in self.mucken.sort_hand(self.dealt_so_far(player))]
            counts = [0, 0, 0, 0]
            for k in range(len(self.deal)):
                counts[self.shared.deal_seats[k]] += 1
            v["hand_sizes"] = counts
        return v


def _rebuild_core(rules_text: str, dealer: int, deal: list[int], actions: list[int]) -> _Core:
    core = _Core(_shared_for(rules_text, dealer))
    for a in deal:
        core.apply(a)
    for a in actions:
        core.apply(a)
    return core


class MuckenOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A ``python_mucken`` state: the deal card by card, then a :class:`MuckenState`."""

    def __init__(self, game: MuckenGame) -> None:
        super().__init__(game)
        self._core = _Core(game.shared)

    @property
    def mucken(self) -> MuckenState:
        """The engine state (after the deal; before it, still at its shuffle node)."""
        return self._core.mucken

    # -- OpenSpiel API ----------------------------------------------------------------
    def current_player(self) -> int:
        core = self._core
        if core.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        player = core.mucken.current_player
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        return self._core.shared.codec.legal_ids(self._core.mucken)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        assert core.dealing
        dealt = set(core.deal)
        rest = [i for i in range(len(core.shared.cards)) if i not in dealt]
        p = 1.0 / len(rest)
        return [(i, p) for i in rest]

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        shared = self._core.shared
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal:{shared.cards[action]}"
        return shared.codec.name(action)

    def is_terminal(self) -> bool:
        core = self._core
        return not core.dealing and core.mucken.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self._core.mucken.returns()]

    def __str__(self) -> str:
        core = self._core
        ms = core.mucken
        lines = []
        for seat in range(4):
            hand = ms.hands[seat] if not core.dealing else core.dealt_so_far(seat)
            lines.append(f"seat {seat}: " + " ".join(str(c) for c in ms.sort_hand(hand)))
        if core.dealing:
            lines.append(f"dealing: {len(core.deal)} of {len(core.shared.cards)} cards dealt")
            return "\n".join(lines)
        lines.append(f"phase: {ms.phase}")
        if ms.calls:
            lines.append("calls: " + " ".join(f"{s}:{w}" for s, w in ms.calls))
        if ms.contract:
            lines.append(f"contract: {ms.contract}, declarer {ms.declarer}, "
                         f"doublings {ms.doublings}")
        t = ms.tricks
        for (lead, cards), w in zip(t.tricks, t.winners, strict=True):
            lines.append(f"trick led by {lead}: " + " ".join(str(c) for c in cards)
                         + f" -> {w}")
        if t.current:
            lines.append(f"trick led by {t.leader}: " + " ".join(str(c) for c in t.current))
        if ms.is_terminal():
            lines.append(f"returns: {ms.returns()}")
        return "\n".join(lines)

    # -- resampling -------------------------------------------------------------------
    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any = None
    ) -> MuckenOpenSpielState:
        """A state ``player_id`` cannot tell from this one (see the module docstring).

        ``probability_sampler``: a ``pyspiel.UniformProbabilitySampler`` (or any callable
        returning uniform floats in [0, 1)), a ``random.Random``, or ``None``.
        """
        core = self._core
        shared = core.shared
        uniform = _uniform_source(probability_sampler)
        hidden = sample_world(core, player_id, uniform)
        played = played_by_seat(core.mucken)
        game = self.get_game()
        new = game.new_initial_state()
        # every seat keeps its deal positions; the cards at the other seats' positions are
        # the cards they played and their sampled hidden cards
        order: list[int] = [-1] * len(core.deal)
        for seat in range(4):
            positions = [k for k in shared.seat_positions[seat] if k < len(core.deal)]
            if seat == player_id:
                for k in positions:
                    order[k] = core.deal[k]
            else:
                dealt = [*played[seat], *hidden[seat]]
                for k, card in zip(positions, dealt, strict=True):
                    order[k] = shared.codec.card_id(card)
        for a in order:
            new.apply_action(a)
        for a in core.actions:
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


@dataclass
class Knowledge:
    """What one player knows about where the cards are (hard facts only)."""

    #: the cards the player cannot see, to be placed
    unseen: list[Card]
    #: per seat: how many unseen cards it holds (the player's own entry is 0)
    hidden: list[int]
    #: per seat: the cards it cannot hold
    excluded: list[set[Card]]
    #: cards known to be held by a seat (the Muss-Spiel card)
    fixed: dict[Card, int]
    #: how many unseen cards are not dealt yet (only during the deal)
    undealt: int = 0


def knowledge(core: _Core, player: int) -> Knowledge:
    """The hard facts ``player`` knows (see the module docstring), from public information
    and the player's own cards."""
    shared = core.shared
    ms = core.mucken
    own = set(core.dealt_so_far(player))
    played: list[tuple[int, Card]] = []
    voids: list[set[int]] = [set(), set(), set(), set()]
    order = ms.order
    must_trump = ms.contract == "ramsch" and shared.rules.ramsch_stichzwang
    tricks = [*ms.tricks.tricks, (ms.tricks.leader, tuple(ms.tricks.current))]
    for lead, cards in tricks:
        if not cards:
            continue
        led = order.klass(cards[0])
        for i, c in enumerate(cards):
            seat = (lead + i) % 4
            played.append((seat, c))
            k = order.klass(c)
            if i and k != led:
                voids[seat].add(led)
                if must_trump and k != TRUMP:
                    voids[seat].add(TRUMP)
    played_cards = {c for _, c in played}
    unseen = [c for c in shared.cards if c not in own and c not in played_cards]
    dealt_to = [0, 0, 0, 0]
    for k in range(len(core.deal)):
        dealt_to[shared.deal_seats[k]] += 1
    played_by = [0, 0, 0, 0]
    for seat, _ in played:
        played_by[seat] += 1
    hidden = [0 if s == player else dealt_to[s] - played_by[s] for s in range(4)]
    excluded: list[set[Card]] = [set(), set(), set(), set()]
    for seat in range(4):
        if voids[seat]:
            excluded[seat] = {c for c in unseen if order.klass(c) in voids[seat]}
    fixed: dict[Card, int] = {}
    muss_seat = _muss_caller(ms)
    if muss_seat is not None and muss_seat != player:
        card = Card.parse(shared.rules.muss_card)
        if card in unseen:
            fixed[card] = muss_seat
    return Knowledge(unseen, hidden, excluded, fixed, len(unseen) - sum(hidden))


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


def sample_world(core: _Core, player: int, uniform: Callable[[], float]) -> list[list[Card]]:
    """The hidden cards of every other seat in a world consistent with ``player``'s
    knowledge, drawn uniformly among all such worlds.  ``result[player]`` is empty."""
    know = knowledge(core, player)
    # buckets: the seats 0..3 (the player's with capacity 0) and "not dealt yet" (4)
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
        raise ValueError("inconsistent knowledge: a seat holds more known cards than it has")
    # group the free cards by the set of buckets that may hold them
    groups: dict[tuple[int, ...], list[Card]] = {}
    for c in free:
        allowed = tuple(b for b in range(5)
                        if caps[b] > 0 and (b == 4 or c not in know.excluded[b]))
        groups.setdefault(allowed, []).append(c)
    types = sorted(groups.items())
    counts = _WorldCounter([len(cs) for _, cs in types], [a for a, _ in types])
    remaining = tuple(caps)
    if counts.count(0, remaining) == 0:
        raise ValueError("no deal is consistent with what the player has seen")
    for t, (allowed, cards_of_type) in enumerate(types):
        splits = []
        total = 0
        for split in _splits(len(cards_of_type), allowed, remaining):
            rest = tuple(remaining[b] - split[b] for b in range(5))
            w = _multinomial(split) * counts.count(t + 1, rest)
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
        for i in range(len(shuffled) - 1, 0, -1):  # Fisher-Yates
            j = _below(uniform, i + 1)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        pos = 0
        for b in range(5):
            out[b].extend(shuffled[pos : pos + split[b]])
            pos += split[b]
    for seat in range(4):
        # the order within a hand is not observable; shuffle it so that no position in the
        # deal gives a card's type away
        hand = out[seat]
        for i in range(len(hand) - 1, 0, -1):
            j = _below(uniform, i + 1)
            hand[i], hand[j] = hand[j], hand[i]
    return out[:4]


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
        if i == len(allowed) - 1:
            b = allowed[i]
            if left <= caps[b]:
                split[b] = left
                out.append(tuple(split))
                split[b] = 0
            return
        b = allowed[i]
        for k in range(min(left, caps[b]) + 1):
            split[b] = k
            place(i + 1, left - k)
        split[b] = 0

    if not allowed:
        return [(0, 0, 0, 0, 0)] if n == 0 else []
    place(0, n)
    return out


class _WorldCounter:
    """Number of ways to place the card types ``t..`` into buckets of the given capacities."""

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


class MuckenObserver:
    """Observation and information-state tensors and strings (OpenSpiel's PyObserver).

    ``perfect_recall`` adds the order of the played cards; ``private_info`` SINGLE_PLAYER
    includes the own hand, NONE leaves it out (the public observation).  Hidden cards of
    other players are never included (``ALL_PLAYERS`` is not offered).
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None,
                 rules: MuckenRules) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_mucken observes for one player: private_info=ALL_PLAYERS "
                             "is not supported")
        if not iig_obs_type.public_info:
            raise ValueError("python_mucken: observations without public information are "
                             "not supported")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = ObservationEncoder(rules, perfect_recall=self.perfect_recall)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.split(self.tensor)

    def _view(self, state: MuckenOpenSpielState, player: int) -> dict[str, Any]:
        v = state._core.view(player)
        if not self.private:
            v["hand"] = []
        return v

    def set_from(self, state: MuckenOpenSpielState, player: int) -> None:
        self.encoder.encode(self._view(state, player), out=self.tensor)

    def string_from(self, state: MuckenOpenSpielState, player: int) -> str:
        v = self._view(state, player)
        parts = [f"p{player}", v["phase"]]
        if self.private:
            parts.append("hand:" + " ".join(v["hand"]))
        parts.append("sizes:" + "".join(str(n) for n in v["hand_sizes"]))
        if v["calls"]:
            parts.append("calls:" + " ".join(f"{c['seat']}{c['call']}" for c in v["calls"]))
        if v["contract"]:
            parts.append(f"contract:{v['contract']}@{v['declarer']}")
        if v["doublings"]:
            parts.append("dbl:" + " ".join(f"{d['seat']}{d['word']}" for d in v["doublings"]))
        if self.perfect_recall:
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


if GAME_TYPE.short_name not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, MuckenGame)
