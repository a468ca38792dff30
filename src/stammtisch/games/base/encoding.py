"""A game's research encoding: the typed contract between one game and the generic adapters.

The PettingZoo environment (:mod:`stammtisch.research.pettingzoo`) and the OpenSpiel game
(:mod:`stammtisch.research.openspiel`) are written once; they drive the engine contract
(``legal_actions``/``apply``, ``current_player``, chance, ``returns()``, ``view(seat)``) and
ask the game's :class:`Encoding` only for what is its own: integer action ids, observation
tensors and strings, how OpenSpiel's chance is told id by id, and (optionally) a world
sampler.  A game plug-in names its encoding with a loader (``GamePlugin.encoding``) that
imports the game's ``research/encoding.py`` on first use: that module needs numpy.

**Ids chosen one at a time.**  Some actions take several ids: OpenSpiel deals a card per
chance node, and Mulatschak chooses the cards of a ``tausche`` one by one.  The adapters
keep the ids chosen so far at a node (``pending``); :meth:`Encoding.action_of` tells the
engine action they make once complete (``None`` while more are needed).  The PettingZoo
environment resolves chance with the engine's own ``sample_chance``, so its ``pending``
only ever holds a player's ids.

Also here, shared by the encodings and adapters: :class:`GameEncoding` (an encoding's
defaults), :class:`Layout` (the named pieces of a flat tensor) with :class:`Seats` and
:func:`one_hot` (filling them), :class:`ObservationText` (observation strings),
:class:`PacketDeal` and :func:`draw` (chance card by card), :func:`played_and_voids`,
:class:`Knowledge` and :func:`deal_uniformly` (unseen cards placed uniformly among the deals
that respect hard facts: voids, cards known to be with a seat), :func:`rules_param` (rules
as OpenSpiel's ``rules`` parameter) and :func:`describe` (a state as text).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from stammtisch.cards import Card
from stammtisch.engine.core import CHANCE, TERMINAL, Action, Deal, GameState, Shuffle, action_log
from stammtisch.engine.tricks import TRUMP, TrickOrder, TrickPlay
from stammtisch.errors import IllegalActionError, InvalidActionError, StammtischError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


    FloatArray = npt.NDArray[np.float32]
    MaskArray = npt.NDArray[np.int8]

__all__ = ["ActionTable", "DealtEncoding", "EncodedGame", "Encoding", "EncodingLoader",
           "GameEncoding", "Knowledge", "Layout", "NoWorldError", "ObservationText",
           "PacketDeal", "Piece", "ResearchGame", "Seats", "TrickViewEncoder", "Uniform",
           "WorldCounter", "below", "deal_uniformly", "describe", "draw", "encoding_of",
           "one_hot", "parse_rules_param", "played_and_voids", "rules_param", "seated",
           "shuffle"]

#: a source of uniform random numbers in [0, 1)
Uniform = Callable[[], float]
#: the game's state class
StateT = TypeVar("StateT", bound=GameState)


class NoWorldError(StammtischError):
    """No deal is consistent with what a player has seen (or none was found)."""


class Encoding(Protocol[StateT]):
    """One game's ids, tensors and strings for one rules object (and the game's params);
    its methods take the game's own states."""

    #: the rules object the encoding was built for
    rules: Any
    #: seats (OpenSpiel's players, PettingZoo's agents ``seat_0`` …)
    num_players: int
    #: player action ids are ``0 .. num_actions - 1``
    num_actions: int
    #: ids ``0 .. num_cards - 1`` of a player name a card (0: no id does)
    num_cards: int
    #: the shape of :meth:`observation`, and of its perfect-recall form (the information
    #: state tensor; ``None``: not offered)
    observation_shape: tuple[int, ...]
    information_state_shape: tuple[int, ...] | None
    #: whether :meth:`observation_string` has a perfect-recall form
    information_state_strings: bool
    #: OpenSpiel's bounds: returns in ``[-max_utility, max_utility]``, zero-sum or not
    zero_sum: bool
    max_utility: float
    max_chance_outcomes: int
    max_game_length: int
    #: the game's own OpenSpiel parameters besides ``rules`` and ``dealer`` (the values
    #: this encoding was built with; the defaults for ``loader(rules)``)
    params: Mapping[str, int]

    def initial_state(self, dealer: int) -> StateT:
        """A fresh deal waiting at its first chance node."""
        ...

    def legal_ids(self, state: StateT, pending: Sequence[int] = ()) -> list[int]:
        """The legal ids, ascending: the player's, or at chance the outcomes (equally
        likely) that may follow ``pending``."""
        ...

    def action_index(self, action: Action, state: StateT) -> int:
        """The id of ``action`` of the seat to act (InvalidActionError if it has none)."""
        ...

    def action_of(self, state: StateT, ids: Sequence[int]) -> Action | None:
        """The engine action the ids chosen at this node make (``None``: more to come);
        IllegalActionError for an id that may not follow (the engine checks the rest)."""
        ...

    def action_name(self, index: int, *, chance: bool = False) -> str:
        """The text of an id (a chance outcome's with ``chance``)."""
        ...

    def returns(self, state: StateT) -> list[float]:
        """The rewards of a finished deal, one per seat (usually ``state.returns()``)."""
        ...

    def observation(self, state: StateT, seat: int, pending: Sequence[int] = (), *,
                    private: bool = True, perfect_recall: bool = False,
                    out: FloatArray | None = None) -> FloatArray:
        """The flat float32 tensor of what ``seat`` knows (``private=False``: without its
        own cards); written into ``out`` when given."""
        ...

    def pieces(self, tensor: FloatArray, *, perfect_recall: bool = False
               ) -> dict[str, FloatArray]:
        """Named views into an observation tensor."""
        ...

    def observation_string(self, state: StateT, seat: int, pending: Sequence[int] = (),
                           *, private: bool = True, perfect_recall: bool = False) -> str:
        """The observation as text (the information state with ``perfect_recall``)."""
        ...

    def resample(self, state: StateT, history: Sequence[int], player: int,
                 uniform: Uniform) -> list[int] | None:
        """The ids of a world ``player`` cannot tell from the one played with ``history``
        (every id so far, chance included); ``None``: the game offers no sampler."""
        ...


class EncodingLoader(Protocol):
    """``GamePlugin.encoding``: imports the game's encoding on first use and builds it."""

    def __call__(self, rules: Any, **params: Any) -> Encoding[Any]: ...


class EncodedGame(Protocol):
    """What the research adapters read of a game: its ``GamePlugin`` (or a
    :class:`ResearchGame` with the same parts, for a bot of the game that its plug-in
    imports and that so cannot import the plug-in)."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> Mapping[str, str]: ...

    @property
    def seats(self) -> tuple[int, int]: ...

    @property
    def presets(self) -> Mapping[str, Any]: ...

    @property
    def default_preset(self) -> str: ...

    @property
    def make_rules(self) -> Callable[..., Any]: ...

    @property
    def encoding(self) -> EncodingLoader | None: ...


@dataclass(frozen=True)
class ResearchGame:
    """The parts of a game's plug-in the research adapters read (:class:`EncodedGame`)."""

    name: str
    title: Mapping[str, str]
    seats: tuple[int, int]
    presets: Mapping[str, Any]
    default_preset: str
    make_rules: Callable[..., Any]
    encoding: EncodingLoader | None


# -- the named pieces of a flat tensor ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Piece:
    """One named part of a flat observation tensor."""

    name: str
    shape: tuple[int, ...]
    offset: int

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Layout:
    """Named pieces laid out one after the other in a flat float32 tensor."""

    def __init__(self, shapes: Iterable[tuple[str, tuple[int, ...]]]) -> None:
        pieces: list[Piece] = []
        offset = 0
        for name, shape in shapes:
            pieces.append(Piece(name, shape, offset))
            offset += pieces[-1].size
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self.shapes = {p.name: p.shape for p in pieces}
        self.size = offset

    def shape(self, name: str) -> tuple[int, ...]:
        return self.shapes[name]

    def split(self, tensor: FloatArray) -> dict[str, FloatArray]:
        """Named, reshaped views into ``tensor`` (no copies)."""
        return {p.name: tensor[p.offset: p.offset + p.size].reshape(p.shape)
                for p in self.pieces}

    def cleared(self, out: FloatArray | None) -> FloatArray:
        """``out`` zeroed, or a new zero tensor of :attr:`size`."""
        if out is None:
            import numpy as np

            return np.zeros(self.size, dtype=np.float32)
        out.fill(0.0)
        return out

    def describe(self) -> list[dict[str, Any]]:
        """The layout as JSON-ready data: name, shape, offset, size of each piece."""
        return [{"name": p.name, "shape": list(p.shape), "offset": p.offset, "size": p.size}
                for p in self.pieces]


class Seats:
    """Seats relative to an observer, as tensor rows: ``seats[s]`` is ``(s - observer) % n``
    (the observer's row is 0); an index for :func:`one_hot`."""

    def __init__(self, observer: int, n: int = 4) -> None:
        self.observer = observer
        self.n = n

    def __getitem__(self, seat: int) -> int:
        return (seat - self.observer) % self.n

    def rows(self, piece: FloatArray, entries: Iterable[Mapping[str, Any]],
             words: Mapping[str, int] | None = None, key: str = "word") -> None:
        """Row ``i`` of ``piece`` for the ``i``-th entry of a view's list: 1.0 in the column
        of its seat and, with ``words``, in column ``n + words[entry[key]]``."""
        for i, entry in enumerate(entries):
            piece[i, self[entry["seat"]]] = 1.0
            if words is not None:
                piece[i, self.n + words[entry[key]]] = 1.0


def one_hot(piece: FloatArray, index: Mapping[Any, int] | Seats, *keys: Any) -> None:
    """1.0 in ``piece`` at ``index[key]`` for each of the ``keys`` (``None`` is skipped):
    cards, words or seats (``index``: a :class:`Seats`) a tensor piece marks."""
    for key in keys:
        if key is not None:
            piece[index[key]] = 1.0


class ObservationText:
    """An observation string: items (most of them ``key:value``) joined by spaces."""

    def __init__(self, *items: str) -> None:
        self.items = list(items)

    def add(self, key: str, value: object, when: object = True) -> None:
        """The item ``key:value`` (only if ``when`` is true)."""
        if when:
            self.items.append(f"{key}:{value}")

    def join(self, key: str, values: Iterable[object], sep: str = " ") -> None:
        """The item ``key:`` and the ``values`` joined by ``sep`` (none if there are none)."""
        texts = [str(v) for v in values]
        if texts:
            self.items.append(f"{key}:{sep.join(texts)}")

    def __str__(self) -> str:
        return " ".join(self.items)


def seated(entries: Iterable[Mapping[str, Any]], key: str) -> list[str]:
    """``<seat><value>`` of each entry of a view's list, the value ``entry[key]``
    (``0weiter``, ``2EA``)."""
    return [f"{e['seat']}{e[key]}" for e in entries]


class TrickViewEncoder(Layout):
    """The tensor of a seat's view of a four-seat trick game (Mucken's and Schafkopf's view
    format), seats relative to the observer (``r`` is seat ``(seat + r) % 4``), every entry
    in [0, 1].  The pieces ``hand``, ``played`` (by relative seat), ``trick``,
    ``trick_leader``, ``tricks_won`` (/ hand size), ``augen`` (of size ``augen``, the game
    fills it), ``hand_sizes`` (/ hand size), ``phase``, ``to_act`` and ``dealer`` come
    first, then the game's own ``shapes`` (:meth:`encode_own` fills them) and, with
    ``perfect_recall``, ``play_sequence`` (row ``k``: the ``k``-th card played)."""

    #: the view key of the seat to lead when no trick has a card yet
    first_leader = "leader"

    def __init__(self, deck: Sequence[Card], hand_size: int, phases: Sequence[str], augen: int,
                 shapes: Iterable[tuple[str, tuple[int, ...]]], perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.hand_size = hand_size
        self._card = {str(c): i for i, c in enumerate(deck)}
        self._phase = {p: i for i, p in enumerate(phases)}
        n = len(deck)
        super().__init__([
            ("hand", (n,)), ("played", (4, n)), ("trick", (4, n)), ("trick_leader", (4,)),
            ("tricks_won", (4,)), ("augen", (augen,)), ("hand_sizes", (4,)),
            ("phase", (len(phases),)), ("to_act", (4,)), ("dealer", (4,)), *shapes,
            *([("play_sequence", (n, n))] if perfect_recall else [])])

    def encode(self, view: Mapping[str, Any], out: FloatArray | None = None) -> FloatArray:
        """The tensor of ``view`` (a seat's, not a spectator's), into ``out`` if given."""
        seat: int | None = view["seat"]
        if seat is None:
            raise ValueError("the observation needs a seat's view, not a spectator's")
        out = self.cleared(out)
        t, card, h, rel = self.split(out), self._card, float(self.hand_size), Seats(seat)
        one_hot(t["hand"], card, *view["hand"])
        sequence = t.get("play_sequence")
        done = [*((trick["winner"], e) for trick in view["tricks_played"] for e in trick["cards"]),
                *((None, e) for e in view["trick"])]
        for k, (winner, entry) in enumerate(done):
            ci, r = card[entry["card"]], rel[entry["seat"]]
            t["played"][r, ci] = 1.0
            if winner is None:
                t["trick"][r, ci] = 1.0
            if sequence is not None:
                sequence[k, ci] = 1.0
        for trick in view["tricks_played"]:
            t["tricks_won"][rel[trick["winner"]]] += 1.0 / h
        if view["phase"] == "play":
            lead = (view["trick"][0]["seat"] if view["trick"] else
                    view["tricks_played"][-1]["winner"] if view["tricks_played"] else
                    view[self.first_leader])
            t["trick_leader"][rel[lead]] = 1.0
        for s, size in enumerate(view["hand_sizes"]):
            t["hand_sizes"][rel[s]] = size / h
        one_hot(t["phase"], self._phase, view["phase"])
        one_hot(t["to_act"], rel, view["to_act"])
        one_hot(t["dealer"], rel, view["dealer"])
        self.encode_own(view, t, rel)
        return out

    def encode_own(self, view: Mapping[str, Any], t: dict[str, FloatArray], rel: Seats) -> None:
        """Fill the game's own pieces ``t`` from ``view`` (``rel``: the observer's seats)."""
        raise NotImplementedError


# -- fixed ids --------------------------------------------------------------------------


class ActionTable:
    """Fixed integer ids of a game's actions (``None``: an id these rules do not use)."""

    def __init__(self, actions: Iterable[Action | None]) -> None:
        self.actions: tuple[Action | None, ...] = tuple(actions)
        self.num_actions = len(self.actions)
        self._ids = {a: i for i, a in enumerate(self.actions) if a is not None}

    def encode(self, action: Action) -> int:
        """The id of ``action``; :class:`InvalidActionError` if it has none (chance)."""
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise InvalidActionError(f"{action}: not an action with an id") from None

    def decode(self, action_id: int) -> Action:
        """The action of ``action_id`` (any integer type, e.g. ``np.int64``)."""
        i = int(action_id)
        action = self.actions[i] if 0 <= i < self.num_actions else None
        if action is None:
            raise InvalidActionError(f"{action_id!r}: not an action id of these rules "
                                     f"(0..{self.num_actions - 1})")
        return action

    def card_id(self, card: Card) -> int:
        return self._ids[card]

    def name(self, action_id: int) -> str:
        """The text form of the action (as ``str(action)`` writes it)."""
        return str(self.decode(action_id))

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of ``state.legal_actions()``, ascending."""
        return sorted(self._ids[a] for a in state.legal_actions())

    def legal_mask(self, state: GameState) -> MaskArray:
        import numpy as np

        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.legal_ids(state)] = 1
        return mask


# -- a deal card by card -----------------------------------------------------------------


@cache
def _deal_seats(packets: tuple[int, ...], seats: int, dealer: int) -> tuple[int, ...]:
    return tuple((dealer + 1 + i) % seats for packet in packets for i in range(seats)
                 for _ in range(packet))


class PacketDeal:
    """Chance dealing ``deck`` card by card, each seat from the dealer's left getting a
    packet of each size in turn: the ``k``-th card drawn goes to a fixed seat.  Chance
    outcomes are card ids (indexes into ``deck``), equally likely."""

    def __init__(self, deck: Sequence[Card], packets: tuple[int, ...], seats: int = 4) -> None:
        self.deck = tuple(deck)
        self.packets = packets
        self.seats = seats

    def seat_of(self, dealer: int) -> tuple[int, ...]:
        """The seat that receives the ``k``-th card."""
        return _deal_seats(self.packets, self.seats, dealer)

    def positions(self, dealer: int, seat: int) -> list[int]:
        """The indexes of the deal that go to ``seat``, in order."""
        return [k for k, s in enumerate(self.seat_of(dealer)) if s == seat]

    def dealt(self, dealt: Sequence[int], dealer: int, seat: int) -> list[Card]:
        """The cards ``seat`` was dealt so far."""
        return [self.deck[dealt[k]] for k in self.positions(dealer, seat) if k < len(dealt)]

    def counts(self, dealt: Sequence[int], dealer: int) -> list[int]:
        seats = self.seat_of(dealer)
        return [sum(1 for k in range(len(dealt)) if seats[k] == s) for s in range(self.seats)]

    def action(self, dealt: Sequence[int], dealer: int) -> Deal | None:
        """The engine's :class:`Deal` once every card is drawn (``None`` before);
        IllegalActionError for a card drawn twice or no card id."""
        last = dealt[-1]
        if not 0 <= last < len(self.deck) or dealt.index(last) < len(dealt) - 1:
            raise IllegalActionError(f"chance outcome {last} is not a card still to deal")
        if len(dealt) < len(self.deck):
            return None
        return Deal(tuple(tuple(self.dealt(dealt, dealer, s)) for s in range(self.seats)))


def draw(deck: Sequence[Card], available: Sequence[int], ids: Sequence[int]) -> Shuffle | None:
    """Chance drawing the cards ``available`` (ids into ``deck``) one at a time: the
    engine's :class:`Shuffle` in the order drawn once all are (``None`` before);
    IllegalActionError for an id not available or drawn twice."""
    if ids[-1] not in available or ids[-1] in ids[:-1]:
        raise IllegalActionError(f"chance outcome {ids[-1]} is not a card still to draw")
    return Shuffle(tuple(deck[i] for i in ids)) if len(ids) == len(available) else None


class ViewEncoder(Protocol):
    """Turns a seat's view into a flat tensor (a :class:`Layout` of ``size`` floats)."""

    @property
    def size(self) -> int: ...

    def encode(self, view: Mapping[str, Any], out: FloatArray | None = None) -> FloatArray: ...

    def split(self, tensor: FloatArray) -> dict[str, FloatArray]: ...


class GameEncoding:
    """The defaults of an :class:`Encoding`; the game's subclass sets the other attributes
    and :meth:`initial_state`, :meth:`action_index`, :meth:`observation_string`.  Four
    seats, zero-sum, information-state strings, rewards ``state.returns()``, no world
    sampler.  Chance draws the cards :meth:`drawable` of ``chance_deck`` one at a time
    (:func:`draw`; an outcome's name is ``<chance_word>:<card>``); a player's ids are the
    game's (:meth:`player_ids`, :meth:`player_action`, :meth:`player_name`); the tensors
    are the ``encoders``' (plain and perfect recall: the same one when there is no
    perfect-recall tensor) of :meth:`view`."""

    num_players = 4
    zero_sum = True
    information_state_strings = True
    information_state_shape: tuple[int, ...] | None = None
    chance_deck: Sequence[Card]
    chance_word = "draw"
    encoders: tuple[ViewEncoder, ViewEncoder]

    def drawable(self, state: Any) -> Sequence[int]:
        """The ids (into ``chance_deck``) of the cards chance draws from now: all."""
        return range(len(self.chance_deck))

    def player_ids(self, state: Any, pending: Sequence[int]) -> list[int]:
        """:meth:`legal_ids` of the player to act."""
        raise NotImplementedError

    def player_action(self, state: Any, ids: Sequence[int]) -> Action | None:
        """:meth:`action_of` of the player to act."""
        raise NotImplementedError

    def player_name(self, index: int) -> str:
        """:meth:`action_name` of a player's id."""
        raise NotImplementedError

    def legal_ids(self, state: Any, pending: Sequence[int] = ()) -> list[int]:
        if state.current_player != CHANCE:
            return self.player_ids(state, pending)
        drawn = set(pending)
        return [i for i in self.drawable(state) if i not in drawn]

    def action_of(self, state: Any, ids: Sequence[int]) -> Action | None:
        if state.current_player == CHANCE:
            return draw(self.chance_deck, self.drawable(state), ids)
        return self.player_action(state, ids)

    def action_name(self, index: int, *, chance: bool = False) -> str:
        if chance:
            return f"{self.chance_word}:{self.chance_deck[index]}"
        return self.player_name(index)

    def returns(self, state: Any) -> list[float]:
        return [float(r) for r in state.returns()]

    def view(self, state: Any, seat: int, pending: Sequence[int] = (),
             private: bool = True) -> dict[str, Any]:
        """What :meth:`observation` encodes: ``seat``'s view (its own cards if ``private``)."""
        raise NotImplementedError

    def observation(self, state: Any, seat: int, pending: Sequence[int] = (), *,
                    private: bool = True, perfect_recall: bool = False,
                    out: FloatArray | None = None) -> FloatArray:
        return self.encoders[perfect_recall].encode(self.view(state, seat, pending, private), out)

    def pieces(self, tensor: FloatArray, *, perfect_recall: bool = False
               ) -> dict[str, FloatArray]:
        return self.encoders[perfect_recall].split(tensor)

    def resample(self, state: Any, history: Sequence[int], player: int,
                 uniform: Uniform) -> list[int] | None:
        return None


class DealtEncoding(GameEncoding):
    """What the encodings of four-seat trick games share whose ids are an
    :class:`ActionTable`'s (``codec``), whose chance OpenSpiel tells as a :class:`PacketDeal`
    (``deal``: the state then waits at its chance node, and a seat sees the cards dealt to
    it so far, in the order of :meth:`sort_hand`) and whose tensors come from the views
    (``encoders``: plain and perfect recall).  The observation string is written here, the
    game adds its words (:meth:`describe_calls`) and tricks taken (:meth:`describe_taken`)."""

    chance_word = "deal"

    def __init__(self, rules: Any, codec: ActionTable, deal: PacketDeal,
                 encoders: tuple[ViewEncoder, ViewEncoder]) -> None:
        self.rules = rules
        self.params: Mapping[str, int] = {}
        self.codec, self.deal, self.encoders = codec, deal, encoders
        self.chance_deck = deal.deck
        self.num_actions = codec.num_actions
        self.num_cards = self.max_chance_outcomes = len(deal.deck)
        self.observation_shape: tuple[int, ...] = (encoders[0].size,)
        self.information_state_shape = (encoders[1].size,)

    def sort_hand(self, state: Any, cards: list[Card]) -> list[Card]:
        raise NotImplementedError

    def player_ids(self, state: Any, pending: Sequence[int]) -> list[int]:
        return self.codec.legal_ids(state)

    def action_of(self, state: Any, ids: Sequence[int]) -> Action | None:
        if state.current_player == CHANCE:
            return self.deal.action(ids, state.dealer)
        return self.codec.decode(ids[-1])

    def player_name(self, index: int) -> str:
        return self.codec.name(index)

    def action_index(self, action: Action, state: Any) -> int:
        return self.codec.encode(action)

    def view(self, state: Any, seat: int, pending: Sequence[int] = (),
             private: bool = True) -> dict[str, Any]:
        """``state.view(seat)``; during OpenSpiel's deal with the cards dealt so far;
        without the own cards unless ``private``."""
        v: dict[str, Any] = state.view(seat)
        if state.current_player == CHANCE:
            dealt = self.deal.dealt(pending, state.dealer, seat)
            v["hand"] = [str(c) for c in self.sort_hand(state, dealt)]
            v["hand_sizes"] = self.deal.counts(pending, state.dealer)
        if not private:
            v["hand"], v["legal"] = [], []
        return v

    def observation_string(self, state: Any, seat: int, pending: Sequence[int] = (), *,
                           private: bool = True, perfect_recall: bool = False) -> str:
        """``p<seat>``, the phase, the own hand (if ``private``), the hand sizes, the game's
        words, the cards played (in order with ``perfect_recall``, else each seat's sorted
        and the tricks taken), the trick on the table and the seat to act."""
        v = self.view(state, seat, pending, private)
        text = ObservationText(f"p{seat}", v["phase"])
        text.add("hand", " ".join(v["hand"]), when=private)
        text.add("sizes", "".join(str(n) for n in v["hand_sizes"]))
        self.describe_calls(v, text)
        if perfect_recall:
            text.join("plays", (f"{e['seat']}{e['card']}" for t in v["tricks_played"]
                                for e in t["cards"]))
        else:
            played = [sorted(e["card"] for t in v["tricks_played"] for e in t["cards"]
                             if e["seat"] == s) for s in range(4)]
            text.add("played", "|".join(" ".join(p) for p in played), when=any(played))
            self.describe_taken(v, text)
        text.join("trick", seated(v["trick"], "card"))
        text.add("to_act", v["to_act"], when=v["to_act"] is not None)
        return str(text)

    def describe_calls(self, view: Mapping[str, Any], text: ObservationText) -> None:
        """The game's words of the deal, added to an observation string."""
        raise NotImplementedError

    def describe_taken(self, view: Mapping[str, Any], text: ObservationText) -> None:
        """The tricks (and points) each side took, added to an imperfect-recall string."""
        raise NotImplementedError


# -- uniform worlds -------------------------------------------------------------------------


def below(uniform: Uniform, n: int) -> int:
    """A whole number in ``0 .. n-1`` from ``uniform``."""
    return min(n - 1, int(uniform() * n))


def shuffle(cards: list[Card], uniform: Uniform) -> None:
    """Fisher-Yates with the numbers of ``uniform``."""
    for i in range(len(cards) - 1, 0, -1):
        j = below(uniform, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def played_and_voids(tricks: TrickPlay, order: TrickOrder, *, must_trump: bool = False
                     ) -> tuple[list[list[Card]], list[set[int]]]:
    """Per seat of a four-seat trick game: the cards it played (the finished tricks, then
    the current one) and the card classes (suits, ``TRUMP``) it showed it lacks by not
    following; with ``must_trump`` (a duty to trump) also trump when it did not trump."""
    played: list[list[Card]] = [[], [], [], []]
    voids: list[set[int]] = [set(), set(), set(), set()]
    for lead, cards in [*tricks.tricks, (tricks.leader, tuple(tricks.current))]:
        for i, c in enumerate(cards):
            seat, led = (lead + i) % 4, order.klass(cards[0])
            played[seat].append(c)
            if i and order.klass(c) != led:
                voids[seat].add(led)
                if must_trump and order.klass(c) != TRUMP:
                    voids[seat].add(TRUMP)
    return played, voids


@dataclass
class Knowledge:
    """What one player knows about where the cards it cannot see are (the hard facts
    placed directly), for :meth:`deal`."""

    #: per seat: the cards it has played (finished tricks and the current one)
    played: list[list[Card]]
    #: the cards the player cannot see, to be placed
    unseen: list[Card]
    #: per seat: how many unseen cards it holds now (the others are not dealt yet)
    hidden: list[int]
    #: per seat: the cards it cannot hold
    excluded: list[set[Card]]
    #: cards known to be held by a seat (those not unseen are left out)
    fixed: dict[Card, int] = field(default_factory=dict)
    #: per seat: the cards it is known to have been dealt at which deal positions
    known_positions: list[dict[int, Card]] = field(default_factory=list)

    @classmethod
    def of(cls, deck: Sequence[Card], seen: Iterable[Card], played: list[list[Card]],
           hidden: list[int], voids: Sequence[set[int]], order: TrickOrder) -> Knowledge:
        """The facts of a trick game: unseen are the cards of ``deck`` neither ``seen`` nor
        played; a seat cannot hold cards of the classes of its ``voids``."""
        gone = {*seen, *(c for p in played for c in p)}
        unseen = [c for c in deck if c not in gone]
        return cls(played, unseen, hidden, [{c for c in unseen if order.klass(c) in v}
                                            for v in voids])

    def deal(self, uniform: Uniform) -> list[list[Card]]:
        """Each seat's hidden cards and, last, those not dealt yet, drawn uniformly among
        the placements with the facts (:func:`deal_uniformly`)."""
        fixed = {c: s for c, s in self.fixed.items() if c in self.unseen}
        return deal_uniformly(self.unseen, [*self.hidden, len(self.unseen) - sum(self.hidden)],
                              [*self.excluded, set()], fixed, uniform)


def _multinomial(split: Sequence[int]) -> int:
    out = math.factorial(sum(split))
    for k in split:
        out //= math.factorial(k)
    return out


def _splits(n: int, allowed: Sequence[int], caps: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way to put ``n`` cards into the ``allowed`` buckets within their capacities."""
    out: list[tuple[int, ...]] = []
    split = [0] * len(caps)

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
        return [tuple(split)] if n == 0 else []
    place(0, n)
    return out


class WorldCounter:
    """The number of ways to place the card types ``t..`` (``sizes[t]`` cards that may go
    to the buckets ``allowed[t]``) into buckets of the given capacities."""

    def __init__(self, sizes: list[int], allowed: list[tuple[int, ...]]) -> None:
        self.sizes = sizes
        self.allowed = allowed
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(self, t: int, caps: tuple[int, ...]) -> int:
        if t == len(self.sizes):
            return 1 if not any(caps) else 0
        key = (t, caps)
        found = self.memo.get(key)
        if found is None:
            found = sum(_multinomial(split) * self.count(t + 1, _minus(caps, split))
                        for split in _splits(self.sizes[t], self.allowed[t], caps))
            self.memo[key] = found
        return found


def _minus(caps: Sequence[int], split: Sequence[int]) -> tuple[int, ...]:
    return tuple(c - s for c, s in zip(caps, split, strict=True))


def deal_uniformly(unseen: Sequence[Card], caps: Sequence[int],
                   excluded: Sequence[set[Card]], fixed: Mapping[Card, int],
                   uniform: Uniform) -> list[list[Card]]:
    """The ``unseen`` cards placed into buckets (seats, and e.g. "not dealt yet") of the
    capacities ``caps``, uniformly among the placements in which no bucket gets a card of
    its ``excluded`` set and the ``fixed`` cards go to their bucket.  The cards are
    grouped by the buckets they may go to; the world counts are exact."""
    caps = list(caps)
    out: list[list[Card]] = [[] for _ in caps]
    free: list[Card] = []
    for c in unseen:
        bucket = fixed.get(c)
        if bucket is None:
            free.append(c)
        else:
            out[bucket].append(c)
            caps[bucket] -= 1
    if any(cap < 0 for cap in caps):
        raise NoWorldError("inconsistent knowledge: a seat holds more known cards than it has")
    groups: dict[tuple[int, ...], list[Card]] = {}
    for c in free:
        allowed = tuple(b for b in range(len(caps)) if caps[b] > 0 and c not in excluded[b])
        groups.setdefault(allowed, []).append(c)
    types = sorted(groups.items())
    counts = WorldCounter([len(cs) for _, cs in types], [a for a, _ in types])
    remaining = tuple(caps)
    if counts.count(0, remaining) == 0:
        raise NoWorldError("no deal is consistent with what the player has seen")
    for t, (allowed, cards) in enumerate(types):
        weighted = []
        total = 0
        for split in _splits(len(cards), allowed, remaining):
            rest = _minus(remaining, split)
            w = _multinomial(split) * counts.count(t + 1, rest)
            if w:
                weighted.append((w, split, rest))
                total += w
        r = uniform() * total
        chosen = weighted[-1]
        for item in weighted:
            r -= item[0]
            if r < 0:
                chosen = item
                break
        _, split, remaining = chosen
        shuffled = list(cards)
        shuffle(shuffled, uniform)
        pos = 0
        for b, k in enumerate(split):
            out[b].extend(shuffled[pos: pos + k])
            pos += k
    return out


# -- rules as a game parameter, a state as text ---------------------------------------------


def encoding_of(plugin: EncodedGame, rules: Any = None, **params: Any) -> Encoding[Any]:
    """``plugin``'s encoding for ``rules`` (a rules object, a ``rules`` parameter text or
    ``None`` for the default preset) and the game's own ``params``."""
    if plugin.encoding is None:
        raise StammtischError(f"game {plugin.name!r} has no research encoding")
    if rules is None or isinstance(rules, str):
        rules = parse_rules_param(plugin, rules or plugin.default_preset)
    return plugin.encoding(rules, **params)


def parse_rules_param(plugin: EncodedGame, text: str) -> Any:
    """The rules of a ``rules`` parameter: a preset name, optionally followed by
    ``;option:value`` items (lists with ``/``, ``true``/``false``, whole numbers), e.g.
    ``seefest;no_game:muss;doublings:2``.  No commas or parentheses, so that OpenSpiel's
    game strings parse back; tables of values (a score table, a tariff) cannot be given."""
    name, *items = text.strip().split(";")
    base = plugin.make_rules(name.strip()).to_json()
    numbers = all(isinstance(v, int) for k, v in base.items() if k not in ("name", "preset"))
    options: dict[str, Any] = {}
    for item in items:
        key, sep, raw = (part.strip() for part in item.partition(":"))
        if not sep or not key:
            kind = "number" if numbers else "value"
            raise ValueError(f"rules={text!r}: {item!r} is not option:{kind}")
        if isinstance(base.get(key), list) or "/" in raw:
            options[key] = [part for part in raw.split("/") if part]
        elif raw in ("true", "false"):
            options[key] = raw == "true"
        else:
            options[key] = int(raw) if raw.lstrip("-").isdigit() else raw
    return plugin.make_rules(name.strip(), **options)


def rules_param(plugin: EncodedGame, rules: Any) -> str:
    """The ``rules`` parameter that gives ``rules`` (see :func:`parse_rules_param`), from
    its preset (else the one it differs least from); ValueError if it cannot be written
    so."""
    data = rules.to_json()

    def changed(preset: str) -> list[str]:
        base = plugin.make_rules(preset).to_json()
        return [k for k, v in data.items()  # tables (dicts) cannot be written: checked below
                if k not in ("name", "preset") and not isinstance(v, dict) and v != base.get(k)]

    named = [data[k] for k in ("preset", "name") if data.get(k) in plugin.presets]
    preset = named[0] if named else min(plugin.presets, key=lambda name: len(changed(name)))
    items = [preset]
    for key in changed(preset):
        value = data[key]
        text = ("/".join(str(v) for v in value) if isinstance(value, list)
                else str(value).lower() if isinstance(value, bool) else str(value))
        items.append(f"{key}:{text}")
    param = ";".join(items)
    try:
        same = parse_rules_param(plugin, param) == rules
    except ValueError:
        same = False
    if not same:
        raise ValueError(f"these rules cannot be written as a game parameter (a score table "
                         f"or tariff?): {param!r}")
    return param


def describe(state: GameState, names: Sequence[str], pending: Sequence[int] = ()) -> str:
    """A few lines about ``state`` with every hand open (the table's view): PettingZoo's
    ``render`` and OpenSpiel's ``str(state)``; ``names`` of the seats."""
    player = state.current_player
    who = {CHANCE: "chance", TERMINAL: "nobody (game over)"}.get(player) or names[player]
    lines = [f"{state.game_name}, phase {state.phase}, to act: {who}"]
    lines += [f"{name}: {' '.join(state.view(s).get('hand', []))}"
              for s, name in enumerate(names)]
    lines.append("last actions: " + ", ".join(action_log(state)[-12:]))
    if pending:
        lines.append("chosen so far: " + " ".join(str(i) for i in pending))
    if state.is_terminal():
        lines += [f"returns {state.returns()}", f"result {state.result()}"]
    return "\n".join(lines)
