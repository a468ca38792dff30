"""The engine's core contract: a state with a phase, a player to act, legal actions,
a checked ``apply``, an explicitly unchecked fast path, chance, a terminal test,
a result with one return per seat and the teams that share it, and per-seat views.

Every game in :mod:`stammtisch.games` subclasses :class:`GameState`.  The server,
the bots, the CLI and the tests all drive games through this one interface.

Randomness never comes from a global source: chance nodes are resolved by
:func:`resolve_chance` with an injected ``random.Random`` (seeded, for
reproducible runs) or ``random.SystemRandom`` (cryptographic, for real play).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, Self, TypeVar

from stammtisch.cards import Card
from stammtisch.engine.results import GameResult
from stammtisch.errors import IllegalActionError

#: ``current_player`` while chance (shuffling, dealing, drawing) is to act.
CHANCE: Final = -1
#: ``current_player`` once the game is over.
TERMINAL: Final = -2


class Rng(Protocol):
    """What the engine needs of a random source (``random.Random`` and
    ``random.SystemRandom`` both qualify)."""

    def random(self) -> float: ...

    def randrange(self, start: int, stop: int | None = ..., step: int = ...) -> int: ...

    def shuffle(self, x: list[Any]) -> None: ...


@dataclass(frozen=True, slots=True)
class Say:
    """Something a player says: a bid (``weiter``, ``muck``), ``kontra``, ``gut`` …"""

    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True)
class Cut:
    """Abheben: lift ``count`` cards off the top and put them under the rest."""

    count: int

    def __str__(self) -> str:
        return f"cut:{self.count}"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the shuffled deck, top card first."""

    order: tuple[Card, ...]

    def __str__(self) -> str:
        return "shuffle:" + " ".join(str(c) for c in self.order)


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the dealt hands by seat (used when a record gives hands directly)."""

    hands: tuple[tuple[Card, ...], ...]

    def __str__(self) -> str:
        return "deal:" + "|".join(" ".join(str(c) for c in h) for h in self.hands)


#: An action is a card (play it), a :class:`Say`, a :class:`Cut` or a chance action.
Action = Card | Say | Cut | Shuffle | Deal


class GameState(ABC):
    """One play-through of a game.  Mutable: :meth:`apply` changes it in place
    (use :meth:`clone` to branch).  On any error the state is left untouched."""

    #: registry name of the game, e.g. ``"mucken"``
    game_name: str = ""
    num_seats: int = 4

    # -- what subclasses provide -------------------------------------------
    @property
    @abstractmethod
    def phase(self) -> str:
        """Name of the current phase (``"shuffle"``, ``"bidding"``, ``"play"``, ``"end"`` …)."""

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat to act, :data:`CHANCE`, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the player to act, in a stable order.  Empty at
        chance nodes whose outcomes are too many to list, and when terminal."""

    @abstractmethod
    def apply_unchecked(self, action: Action) -> None:
        """Fast path for bots and search: apply ``action`` WITHOUT checking it.
        An illegal action corrupts the state; use :meth:`apply` unless the
        action came from :meth:`legal_actions`."""

    @abstractmethod
    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now (only called when it is not)."""

    @abstractmethod
    def sample_chance(self, rng: Rng) -> Action:
        """Draw the chance outcome at a chance node."""

    @abstractmethod
    def is_chance_outcome(self, action: Action) -> bool:
        """Whether ``action`` is a possible outcome of the current chance node."""

    @abstractmethod
    def final_result(self) -> GameResult | None:
        """The typed result once terminal (a frozen value of the game's own
        :class:`~stammtisch.engine.results.GameResult` class), else ``None``."""

    def result(self) -> dict[str, Any] | None:
        """The result once terminal as JSON-ready data (:meth:`final_result`'s
        ``as_dict()``), else ``None``."""
        final = self.final_result()
        return None if final is None else final.as_dict()

    @abstractmethod
    def returns(self) -> list[float]:
        """One number per seat in the game's own unit, more is better (Mucken: points of
        the pair, Schafkopf: cents, Mulatschak: the score change with its sign turned, Mus:
        points of the pair); zero-sum where the game is.  All zeros until terminal."""

    @abstractmethod
    def teams(self) -> list[tuple[int, ...]]:
        """The seats that share a result, each group sorted, the groups by their first
        seat: pairs (``[(0, 2), (1, 3)]``), a declarer's side and its opponents, or each
        seat alone.  Known at the latest when terminal."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as JSON-ready data.
        Hidden information is removed here, at the source."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse an action's text form (as ``str(action)`` writes it)."""

    # -- shared behaviour ----------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def is_legal(self, action: Action) -> bool:
        if self.current_player == CHANCE:
            return self.is_chance_outcome(action)
        if self.current_player == TERMINAL:
            return False
        return action in self.legal_actions()

    def apply(self, action: Action) -> None:
        """Check ``action`` and apply it for the player to act.

        Raises :class:`IllegalActionError` (``game_over`` or ``illegal_action``)
        and leaves the state unchanged when the action is not legal now.
        """
        player = self.current_player
        if player == TERMINAL:
            raise IllegalActionError(f"{action}: the game is over", "game_over")
        if not self.is_legal(action):
            raise IllegalActionError(f"{action}: {self.explain_illegal(action)}")
        self.apply_unchecked(action)

    def apply_as(self, seat: int, action: Action) -> None:
        """Like :meth:`apply`, but first checks that it is ``seat``'s turn."""
        player = self.current_player
        if player == TERMINAL:
            raise IllegalActionError(f"seat {seat}: {action}: the game is over", "game_over")
        if player != seat:
            who = "chance" if player == CHANCE else f"seat {player}"
            raise IllegalActionError(
                f"seat {seat}: {action}: not your turn ({who} is to act)", "not_your_turn"
            )
        self.apply(action)

    # -- out of turn (optional) ---------------------------------------------
    def out_of_turn_actions(self, seat: int) -> Sequence[Action]:
        """Actions ``seat`` may take now although it is not (necessarily) its turn:
        Mulatschak's Muli, Mus's señas.  Empty for most games and states.  The server offers
        them to that seat beside the ordinary legal actions and applies them with
        :meth:`apply_out_of_turn`."""
        return ()

    def apply_out_of_turn(self, seat: int, action: Action, rng: Rng | None = None) -> None:
        """Check and apply an out-of-turn ``action`` of ``seat`` (one of
        :meth:`out_of_turn_actions`); ``rng`` draws any chance it involves (whether an
        opponent catches a seña), and the outcome is kept in the state so that its record
        replays it exactly.  :class:`IllegalActionError` (``not_your_turn``) and an
        untouched state when it is not allowed now."""
        raise IllegalActionError(f"seat {seat}: {action}: not your turn", "not_your_turn")

    def push(self, text: str) -> Action:
        """Parse ``text`` as an action and apply it (checked).  Returns the action."""
        action = self.parse_action(text)
        self.apply(action)
        return action


def parse_chance(text: str) -> Shuffle | Deal | None:
    """Parse the text form of a chance action (``shuffle:EO GO …`` or
    ``deal:EO GO …|HA …|…``); ``None`` if ``text`` is not one."""
    from stammtisch.cards import cards  # local: cards is a leaf module, keep import cheap

    head, sep, body = text.strip().partition(":")
    if not sep:
        return None
    if head.lower() == "shuffle":
        return Shuffle(cards(body))
    if head.lower() == "deal":
        return Deal(tuple(cards(part) for part in body.split("|")))
    return None


def replay_actions(state: GameState, actions: Sequence[str]) -> GameState:
    """Apply the text forms of ``actions`` in order, each checked (chance included)."""
    for i, text in enumerate(actions):
        try:
            state.apply(state.parse_action(text))
        except ValueError as e:
            raise type(e)(f"action {i}: {e}") from None
    return state


def action_log(state: GameState) -> list[str]:
    """The text forms of every action applied so far, chance included."""
    return [str(a) for _, a in getattr(state, "history", [])]


class TurnState(GameState):
    """A state that keeps its phase and the seat to act in two attributes, ``_phase`` and
    ``_player``."""

    _phase: str
    _player: int

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def current_player(self) -> int:
        return self._player


class CachedTurnState(TurnState):
    """A :class:`TurnState` that caches its legal actions: the subclass computes them in
    :meth:`_compute_legal` and resets ``_legal`` to ``None`` whenever the state changes."""

    _legal: list[Action] | None

    def legal_actions(self) -> Sequence[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    @abstractmethod
    def _compute_legal(self) -> list[Action]:
        """The legal actions now (called once per change of the state)."""


def resolve_chance(state: GameState, rng: Rng) -> None:
    """Apply chance outcomes drawn from ``rng`` until a player (or the end) is to act."""
    while state.current_player == CHANCE:
        state.apply_unchecked(state.sample_chance(rng))


_S = TypeVar("_S", bound=GameState)


def drawn(state: _S, rng: Rng | None) -> _S:
    """``state`` with its chance outcomes drawn from ``rng`` and applied (checked) until a
    player is to act; without ``rng`` it stays as it is (waiting for the shuffle)."""
    if rng is not None:
        while state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
    return state


def play_random(state: GameState, rng: Rng | None = None, *, checked: bool = True) -> GameState:
    """Play ``state`` to the end with uniformly random legal actions (in place)."""
    rng = rng if rng is not None else random.Random()
    while True:
        player = state.current_player
        if player == TERMINAL:
            return state
        if player == CHANCE:
            state.apply_unchecked(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        if checked:
            state.apply(action)
        else:
            state.apply_unchecked(action)
