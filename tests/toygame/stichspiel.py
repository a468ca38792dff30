"""Stichspiel: a toy trick game for two, the example of docs/architecture.md "Adding a game".

Six cards (Herz and Eichel: Ass, Zehn, König), three to each seat; seat ``1 - dealer``
leads; the other must follow suit if able; the higher card of the led suit takes the
trick, and its taker leads next.  Each trick is a point; option ``points_per_trick``
changes that.  ``returns()``: a seat's points minus the other's (zero-sum); each seat plays
alone.  Not implemented: anything else — it is only an example.

This module is everything the game provides: its rules, its state and its plug-in.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stammtisch.cards import Card, cards
from stammtisch.engine.core import (
    CHANCE,
    TERMINAL,
    Action,
    GameState,
    Rng,
    Shuffle,
    parse_chance,
    replay_actions,
    resolve_chance,
)
from stammtisch.engine.records import load_record
from stammtisch.engine.results import GameResult
from stammtisch.errors import InvalidActionError, RecordError, RulesError
from stammtisch.games.base import GamePlugin
from stammtisch.games.base.encoding import Layout, draw
from stammtisch.games.base.options import RulesSchema, derive_options
from stammtisch.games.base.plain import PlainPresenter, PlainStatistics
from stammtisch.games.base.rounds import rounds_match

DECK = cards("HA H10 HK EA E10 EK")
RANK = {c: i for i, c in enumerate(DECK)}  # lower index is higher within its suit


@dataclass(frozen=True)
class StichRules:
    """The house rules: one option."""

    name: str = "standard"
    points_per_trick: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.points_per_trick <= 10:
            raise RulesError(f"points_per_trick={self.points_per_trick}: must be 1..10")

    @classmethod
    def preset(cls, name: str = "standard", /, **options: Any) -> StichRules:
        if name not in PRESETS:
            raise RulesError(f"unknown Stichspiel preset {name!r} (known: standard)")
        try:
            return dataclasses.replace(PRESETS[name], **options)
        except TypeError as e:
            raise RulesError(str(e)) from None

    @classmethod
    def from_json(cls, data: str | Mapping[str, Any]) -> StichRules:
        """From a preset name or ``to_json()``'s object."""
        options = {"name": data} if isinstance(data, str) else dict(data)
        return cls.preset(options.pop("name", "standard"), **options)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


PRESETS = {"standard": StichRules()}

#: the option schema: the CLI's ``-o``, the REST API and the lobby form parse through it
OPTIONS: RulesSchema[StichRules] = RulesSchema(
    game="stichspiel", build=StichRules.preset, presets=PRESETS, default_preset="standard",
    options=derive_options(StichRules, {"points_per_trick": (None, "a toy's own rule")},
                           skip=("name",), refine={"points_per_trick": {"minimum": 1,
                                                                        "maximum": 10}}))


@dataclass(frozen=True)
class StichResult(GameResult):
    trick_winners: tuple[int, ...]
    points: tuple[int, ...]


class StichState(GameState):
    game_name = "stichspiel"
    num_seats = 2

    def __init__(self, rules: StichRules, dealer: int = 0) -> None:
        self.rules, self.dealer = rules, dealer
        self.hands: list[list[Card]] = [[], []]
        self.trick: list[tuple[int, Card]] = []
        self.winners: list[int] = []
        self.history: list[tuple[int, Action]] = []
        self._player = CHANCE

    @property
    def phase(self) -> str:
        return "shuffle" if self._player == CHANCE else "end" if self.is_terminal() else "play"

    @property
    def current_player(self) -> int:
        return self._player

    def legal_actions(self) -> Sequence[Action]:
        if self._player < 0:
            return []
        hand = self.hands[self._player]
        if self.trick:
            led = self.trick[0][1].suit
            follow = [c for c in hand if c.suit is led]
            return sorted(follow or hand, key=RANK.__getitem__)
        return sorted(hand, key=RANK.__getitem__)

    def apply_unchecked(self, action: Action) -> None:
        self.history.append((self._player, action))
        if isinstance(action, Shuffle):
            self.hands = [list(action.order[:3]), list(action.order[3:])]
            self._player = 1 - self.dealer
            return
        assert isinstance(action, Card)
        self.hands[self._player].remove(action)
        self.trick.append((self._player, action))
        if len(self.trick) < 2:
            self._player = 1 - self._player
            return
        (first, a), (second, b) = self.trick
        winner = second if b.suit is a.suit and RANK[b] < RANK[a] else first
        self.winners.append(winner)
        self.trick = []
        self._player = TERMINAL if len(self.winners) == 3 else winner

    def explain_illegal(self, action: Action) -> str:
        if not isinstance(action, Card):
            return f"seat {self._player} must play a card"
        if action not in self.hands[self._player]:
            return f"seat {self._player} does not hold {action}"
        return f"seat {self._player} must follow {self.trick[0][1].suit.german_name}"

    def sample_chance(self, rng: Rng) -> Action:
        order = list(DECK)
        rng.shuffle(order)
        return Shuffle(tuple(order))

    def is_chance_outcome(self, action: Action) -> bool:
        return (self._player == CHANCE and isinstance(action, Shuffle)
                and sorted(action.order, key=RANK.__getitem__) == list(DECK))

    def final_result(self) -> StichResult | None:
        if not self.is_terminal():
            return None
        points = [self.winners.count(s) * self.rules.points_per_trick for s in (0, 1)]
        return StichResult(tuple(self.winners), tuple(points))

    def returns(self) -> list[float]:
        r = self.final_result()
        return [0, 0] if r is None else [r.points[0] - r.points[1], r.points[1] - r.points[0]]

    def teams(self) -> list[tuple[int, ...]]:
        return [(0,), (1,)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"game": self.game_name, "phase": self.phase, "to_act": self._player,
                "hand": None if seat is None else [str(c) for c in self.hands[seat]],
                "hand_sizes": [len(h) for h in self.hands],
                "trick": [[s, str(c)] for s, c in self.trick], "winners": list(self.winners),
                "legal": ([str(a) for a in self.legal_actions()]
                          if seat is not None and seat == self._player else [])}

    def clone(self) -> StichState:
        return copy.deepcopy(self)

    def parse_action(self, text: str) -> Action:
        chance = parse_chance(text)
        if chance is not None:
            return chance
        try:
            return Card.parse(text)
        except ValueError:
            raise InvalidActionError(f"{text!r}: not a card") from None


# -- records: the rules, the dealer and the action log ------------------------------------
def new_state(rules: StichRules, dealer: int = 0, rng: Rng | None = None) -> StichState:
    state = StichState(rules, dealer)
    if rng is not None:
        resolve_chance(state, rng)
    return state


def record_of(state: GameState) -> dict[str, Any]:
    assert isinstance(state, StichState)
    return {"game": "stichspiel", "rules": state.rules.to_json(), "dealer": state.dealer,
            "actions": [str(a) for _, a in state.history]}


def replay(source: str | bytes | Mapping[str, Any]) -> StichState:
    record = load_record(source, "stichspiel", ("rules", "dealer"))
    if record["dealer"] not in (0, 1):
        raise RecordError(f"dealer: {record['dealer']!r} is not 0 or 1")
    rules = dict(record["rules"])
    state = StichState(StichRules.preset(rules.pop("name", "standard"), **rules),
                       record["dealer"])
    return replay_actions(state, record["actions"])  # type: ignore[return-value]


def replay_record(source: Any) -> dict[str, Any]:
    result = replay(source).final_result()
    if result is None:
        raise RecordError("the record ends before the game")
    return result.to_json()


# -- research: ids, tensors and chance for the generic PettingZoo and OpenSpiel adapters --
class StichEncoding:
    """Action ids 0..5 are the cards of ``DECK``; OpenSpiel draws the shuffle card by card
    (outcome ids 0..5 likewise); the observation: the own hand, the trick's cards, the
    tricks won per seat (relative to the observer) and who is to act."""

    num_players, num_actions, num_cards = 2, 6, 6
    information_state_shape: tuple[int, ...] | None = None
    information_state_strings = False
    zero_sum, max_chance_outcomes, max_game_length = True, 6, 12
    params: Mapping[str, int] = {}

    def __init__(self, rules: StichRules) -> None:
        self.rules = rules
        self.max_utility = 3.0 * rules.points_per_trick
        self.layout = Layout([("hand", (6,)), ("trick", (6,)), ("won", (2,)),
                              ("to_act", (2,))])
        self.observation_shape: tuple[int, ...] = (self.layout.size,)

    def initial_state(self, dealer: int) -> StichState:
        return StichState(self.rules, dealer)

    def legal_ids(self, state: StichState, pending: Sequence[int] = ()) -> list[int]:
        if state.current_player == CHANCE:
            return [i for i in range(6) if i not in pending]
        return sorted(DECK.index(c) for c in state.legal_actions() if isinstance(c, Card))

    def action_index(self, action: Action, state: StichState) -> int:
        if not isinstance(action, Card) or action not in DECK:
            raise InvalidActionError(f"{action}: not a card of the game")
        return DECK.index(action)

    def action_of(self, state: StichState, ids: Sequence[int]) -> Action | None:
        if state.current_player == CHANCE:
            return draw(DECK, range(6), ids)
        return DECK[ids[-1]]

    def action_name(self, index: int, *, chance: bool = False) -> str:
        return f"{'draw:' if chance else ''}{DECK[index]}"

    def returns(self, state: StichState) -> list[float]:
        return [float(r) for r in state.returns()]

    def observation(self, state: StichState, seat: int, pending: Sequence[int] = (), *,
                    private: bool = True, perfect_recall: bool = False,
                    out: Any = None) -> Any:
        out = self.layout.cleared(out)
        t = self.layout.split(out)
        for c in (state.hands[seat] if private else ()):
            t["hand"][DECK.index(c)] = 1
        for _, c in state.trick:
            t["trick"][DECK.index(c)] = 1
        for w in state.winners:
            t["won"][(w - seat) % 2] += 1 / 3
        if state.current_player >= 0:
            t["to_act"][(state.current_player - seat) % 2] = 1
        return out

    def pieces(self, tensor: Any, *, perfect_recall: bool = False) -> dict[str, Any]:
        return self.layout.split(tensor)

    def observation_string(self, state: StichState, seat: int, pending: Sequence[int] = (),
                           *, private: bool = True, perfect_recall: bool = False) -> str:
        view = state.view(seat)
        return (f"hand {' '.join(view['hand'] if private else [])} | trick "
                f"{' '.join(c for _, c in view['trick'])} | won {view['winners']}")

    def resample(self, state: StichState, history: Sequence[int], player: int,
                 uniform: Any) -> list[int] | None:
        return None


PLUGIN: GamePlugin = GamePlugin(
    name="stichspiel", title={"de": "Stichspiel", "en": "Trick game"}, seats=(2, 2),
    zero_sum=True, rules_class=StichRules, options=OPTIONS, new_state=new_state,
    load_record=lambda s: load_record(s, "stichspiel", ("rules", "dealer")), replay_state=replay,
    replay_record=replay_record, record_of=record_of,
    describe_result=lambda out: f"points {out['points'][0]}:{out['points'][1]}",
    new_match=rounds_match(new_state), presenter=lambda: PlainPresenter(PLUGIN),
    statistics=PlainStatistics(new_state),
    encoding=lambda rules, **params: StichEncoding(rules),
)
