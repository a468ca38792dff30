"""OpenSpiel's IS-MCTS as a stammtisch bot: ``make_bot("ismcts")``.

:class:`IsmctsBot` plays through the ordinary bot interface (``choose(state, rng)``) and
decides with OpenSpiel's Information Set Monte Carlo Tree Search
(:class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`, Cowling, Powley and Whitehouse
2011) on the game ``python_mucken``: the OpenSpiel game of :mod:`stammtisch.research.spiel`
(written once for every game) over Mucken's research encoding.

For every decision (see :func:`to_openspiel`):

1. **The seat's information state in OpenSpiel.**  ``python_mucken`` deals card by card
   as chance, so a state whose information state for the seat is the real one is built
   by dealing the seat its own cards truthfully and the other seats *a* consistent
   assignment: the cards each of them has played, and for its hidden cards one world
   drawn with :func:`~stammtisch.games.mucken.research.encoding.sample_world` — the sampler
   of ``resample_from_infostate``, which respects the hand sizes, the voids shown, the
   Stichzwang of a Ramsch and the Muss-Spiel card.  The sampler reads only public
   information and the seat's own cards.  The public actions (calls, doublings, cards)
   are then replayed, checked.  IS-MCTS never uses the hidden cards of this state: every
   simulation starts from a fresh ``resample_from_infostate`` of the seat
   (``max_world_samples`` unlimited), so only the information state matters (the test
   swaps other seats' cards and gets the same move).
2. **The search, for a time budget.**  OpenSpiel's IS-MCTS runs a fixed
   ``max_simulations``; here the same algorithm (its ``sample_root_state`` and
   ``run_simulation``, a subclass overriding only the outer loop of ``run_search``) runs
   simulations, looking at the clock after each, until ``time_budget`` seconds of **CPU
   time of the process** (``time.process_time``; ``clock="wall"`` for wall-clock time)
   have passed since ``choose`` was called — building the OpenSpiel state counts — with
   at least one simulation per legal action plus one and at most ``max_simulations``.
   CPU time rather than wall-clock time so that other work on the machine does not
   shorten the search.  ``time_budget=None`` runs exactly
   ``max_simulations`` simulations (deterministic for a given ``rng``: the tests).
3. **The move:** the root action with the most visits (OpenSpiel's ``MAX_VISIT_COUNT``
   final policy), ties to the higher mean return, then the lower action id; decoded with
   the :class:`~stammtisch.games.mucken.research.encoding.ActionCodec` back to our typed action.

The evaluator at the leaves is a uniformly random rollout to the end of the game, as
OpenSpiel's ``RandomRolloutEvaluator`` — by default played on the engine's own
:class:`~stammtisch.games.mucken.state.MuckenState` (``rollout="engine"``: the same
distribution of playouts, about twice the simulations per second of stepping the pyspiel
state); ``rollout="openspiel"`` uses OpenSpiel's evaluator itself.  ``rollout="quiet"``
(the bot ``ismcts-quiet``) plays random cards but says ``weiter`` and ``gut`` in the
playout: uniformly random calls make the random players below the tree overcall into
games they cannot win, which teaches the search to call the highest games itself (the
plain bot declares most games, mostly Schwarz, and loses them — docs/ismcts.md).  The
tree statistics are the game points of ``returns()`` (zero-sum pairs), explored with UCT
(``uct_c``).

Not covered by ``python_mucken``, and so handled here:

- **Abheben:** a uniformly random legal cut (one ``rng.randrange``, as the other bots);
  ``python_mucken`` has no cut, and Klopfen only changes how the cards are dealt.
- A pending Einwerfen ``factor`` multiplies every result alike and is left out.
- Rules that cannot be written as a ``python_mucken`` parameter (a custom score table):
  the bot plays like the heuristic bot.

The bot reads only ``state.hands[seat]`` and public information (the history of calls,
doublings and cards).  OpenSpiel is imported on first use, so this module loads without
the ``research`` extra; the names ``ismcts``, ``ismcts-200ms``, ``ismcts-1s`` and
``ismcts-quiet`` are offered only when OpenSpiel is installed.
"""

from __future__ import annotations

import importlib.util
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from stammtisch.bots.base import ConfiguredBot, settled
from stammtisch.engine.core import Action, Cut, GameState, Rng, Say
from stammtisch.games.base.encoding import ResearchGame, rules_param
from stammtisch.games.mucken.state import MuckenState

if TYPE_CHECKING:
    from stammtisch.games.mucken.research.encoding import ActionCodec, MuckenEncoding
    from stammtisch.research.spiel import SpielGame, SpielState

__all__ = [
    "DEFAULT_TIME_BUDGET",
    "ISMCTS_SETTINGS",
    "IsmctsBot",
    "IsmctsSettings",
    "SearchStats",
    "openspiel_available",
    "openspiel_game_for",
    "public_actions",
    "to_openspiel",
]

#: CPU seconds per decision of ``ismcts``: the median time of the default PIMC bot
#: (``pimc``) per decision with more than one legal action, measured on the positions of
#: PIMC self-play games (see docs/ismcts.md)
DEFAULT_TIME_BUDGET = 0.04

_CUT_WORDS = frozenset({"geben", "klopfen"})
_QUIET = (Say("weiter"), Say("gut"))
ROLLOUTS = ("engine", "openspiel", "quiet")


@dataclass(frozen=True, slots=True)
class IsmctsSettings:
    """How long the bot searches and how (see the module docstring)."""

    name: str = "ismcts"
    #: seconds of search per decision (``None``: exactly ``max_simulations``)
    time_budget: float | None = DEFAULT_TIME_BUDGET
    #: ``"cpu"`` (process CPU time) or ``"wall"`` (wall-clock time) for the budget
    clock: str = "cpu"
    #: the cap of simulations per decision (the exact number when ``time_budget`` is None)
    max_simulations: int = 100_000
    #: UCT exploration constant (the returns are game points)
    uct_c: float = 2.0
    #: random rollouts per leaf
    rollouts: int = 1
    #: ``"engine"`` (random playouts on MuckenState), ``"openspiel"``
    #: (``mcts.RandomRolloutEvaluator``) or ``"quiet"`` (random cards, but the playout
    #: says ``weiter`` and ``gut``: no calls or doublings after the tree)
    rollout: str = "engine"

    def __post_init__(self) -> None:
        if self.clock not in ("cpu", "wall"):
            raise ValueError(f"clock={self.clock!r}: 'cpu' or 'wall'")
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout={self.rollout!r}: one of {', '.join(ROLLOUTS)}")
        if self.time_budget is not None and self.time_budget < 0:
            raise ValueError("time_budget must not be negative")
        if self.max_simulations < 1 or self.rollouts < 1:
            raise ValueError("max_simulations and rollouts must be at least 1")


ISMCTS_SETTINGS: dict[str, IsmctsSettings] = {
    "ismcts": IsmctsSettings("ismcts"),
    "ismcts-200ms": IsmctsSettings("ismcts-200ms", time_budget=0.2),
    "ismcts-1s": IsmctsSettings("ismcts-1s", time_budget=1.0),
    "ismcts-quiet": IsmctsSettings("ismcts-quiet", rollout="quiet"),
}


@dataclass
class SearchStats:
    """What the last search did: simulations run and the time spent (both clocks)."""

    simulations: int
    cpu_seconds: float
    wall_seconds: float
    #: per root action id: (visits, mean return for the seat)
    children: dict[int, tuple[int, float]]


# -- OpenSpiel side ------------------------------------------------------------------------


@cache
def _game(rules_text: str, dealer: int) -> SpielGame:
    # the one OpenSpiel game of the research layer (the import upwards named in the layers
    # contract of pyproject.toml; research.spiel imports no registry, no other game)
    from stammtisch.research.spiel import load_game

    return load_game(_research_game(), {"rules": rules_text, "dealer": dealer})


@cache
def _research_game() -> ResearchGame:
    """What the OpenSpiel game reads of Mucken: the plug-in's parts (the plug-in imports
    this bot, so the bot does not import the plug-in)."""
    from stammtisch.games.mucken.options import OPTIONS
    from stammtisch.games.mucken.research.encoding import MuckenEncoding
    from stammtisch.games.mucken.rules import PRESETS

    def encoding(rules: Any, **params: Any) -> MuckenEncoding:
        return MuckenEncoding(rules, **params)

    return ResearchGame("mucken", {"de": "Mucken", "en": "Mucken"}, (4, 4), PRESETS, "seefest",
                        OPTIONS.make_rules, encoding)


def openspiel_game_for(state: MuckenState) -> SpielGame:
    """The ``python_mucken`` game of ``state``'s rules and dealer (cached); ValueError if
    the rules cannot be a game parameter (a custom score table)."""
    return _game(rules_param(_research_game(), state.rules), state.dealer)


def public_actions(state: MuckenState) -> list[tuple[int, Action]]:
    """The player actions of ``state.history`` that ``python_mucken`` has: calls,
    doublings, cards (not the chance actions nor the Abheben: cuts, geben, klopfen)."""
    out: list[tuple[int, Action]] = []
    for seat, action in state.history:
        if seat < 0 or isinstance(action, Cut):
            continue
        if isinstance(action, Say) and action.word in _CUT_WORDS:
            continue
        out.append((seat, action))
    return out


def to_openspiel(state: MuckenState, seat: int, rng: random.Random) -> SpielState:
    """A ``python_mucken`` state with ``seat``'s information state of ``state``.

    The seat's own cards (held and played) are dealt to it; each other seat is dealt the
    cards it played and a sample of the unseen cards consistent with what ``seat`` knows
    (drawn with ``rng``).  Then the public actions are replayed.  Reads only
    ``state.hands[seat]`` and public information.
    """
    from stammtisch.games.mucken.research.encoding import played_by_seat, sample_world

    if state.phase in ("shuffle", "cut"):
        raise ValueError("the cards are not dealt yet")
    game = openspiel_game_for(state)
    encoding: MuckenEncoding = game.encoding  # type: ignore[assignment]
    codec = encoding.codec
    played = played_by_seat(state)
    own = [*played[seat], *state.hands[seat]]
    hidden = sample_world(state, seat, own, [state.rules.hand_size] * 4, rng.random)
    order = [-1] * encoding.num_cards
    for s in range(4):
        cards = own if s == seat else [*played[s], *hidden[s]]
        for k, card in zip(encoding.deal.positions(state.dealer, s), cards, strict=True):
            order[k] = codec.card_id(card)
    os_state: SpielState = game.new_initial_state()
    for card_id in order:
        os_state.apply_action(card_id)
    for _, action in public_actions(state):
        os_state.apply_action(codec.encode(action))
    return os_state


class _EngineRollout:
    """OpenSpiel's ``RandomRolloutEvaluator`` on the engine state: uniformly random legal
    actions to the end of the game, the returns averaged over ``rollouts`` playouts;
    prior uniform over the legal actions.  ``quiet``: the playout says ``weiter`` and
    ``gut`` whenever it may (it calls and doubles nothing) and plays random cards."""

    def __init__(self, rng: random.Random, rollouts: int = 1, quiet: bool = False) -> None:
        self.rng = rng
        self.rollouts = rollouts
        self.quiet = quiet

    def evaluate(self, state: SpielState) -> list[float]:
        rnd = self.rng.random
        quiet = self.quiet
        total = [0.0, 0.0, 0.0, 0.0]
        for _ in range(self.rollouts):
            s = state.game_state.clone()
            while s.current_player >= 0:
                legal = s.legal_actions()
                if quiet and s.phase != "play":
                    word = next((a for a in _QUIET if a in legal), None)
                    if word is not None:
                        s.apply_unchecked(word)
                        continue
                s.apply_unchecked(legal[int(rnd() * len(legal))])
            for i, r in enumerate(s.returns()):
                total[i] += r
        return [t / self.rollouts for t in total]

    def prior(self, state: SpielState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@cache
def _search_class() -> type[Any]:
    """The IS-MCTS with a time-budget loop (OpenSpiel imported on first use)."""
    from open_spiel.python.algorithms import ismcts  # type: ignore[import-untyped]

    class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        """``ISMCTSBot`` whose ``run_search`` loop stops when ``stop(simulations)`` says."""

        def search(self, state: Any, stop: Callable[[int], bool]) -> int:
            self.reset()
            self._root_node = self.create_new_node(state)
            done = 0
            while True:
                self.run_simulation(self.sample_root_state(state))
                done += 1
                if stop(done):
                    return done

    return TimedISMCTS


# -- the bot -------------------------------------------------------------------------------


class IsmctsBot(ConfiguredBot[IsmctsSettings]):
    """OpenSpiel's IS-MCTS on ``python_mucken`` from the seat's information state."""

    default_settings = ISMCTS_SETTINGS["ismcts"]

    def __init__(self, settings: IsmctsSettings | None = None, **overrides: Any) -> None:
        super().__init__(settings, **overrides)
        #: the figures of the last search (None before the first, or without one)
        self.last: SearchStats | None = None
        self._fallback: Any = None

    def choose(self, state: GameState, rng: Rng) -> Action:
        self.last = None
        if (forced := settled(state, rng, MuckenState, ("shuffle", "cut"))) is not None:
            return forced
        assert isinstance(state, MuckenState)
        seed = rng.randrange(2**32)
        try:
            openspiel_game_for(state)
        except ValueError:  # rules python_mucken cannot express
            return self._heuristic(state, rng)
        action = self.search(state, state.current_player, seed)
        if action not in state.legal_actions():  # pragma: no cover - the engine's ids
            raise RuntimeError(f"IS-MCTS chose {action}, not a legal action")
        return action

    def _heuristic(self, state: MuckenState, rng: Rng) -> Action:
        if self._fallback is None:
            from stammtisch.games.mucken.bots.heuristic import HeuristicBot

            self._fallback = HeuristicBot()
        action: Action = self._fallback.choose(state, rng)
        return action

    def search(self, state: MuckenState, seat: int, seed: int) -> Action:
        """Search ``seat``'s decision in ``state`` with the random seed ``seed``."""
        import numpy as np

        s = self.settings
        started_cpu = time.process_time()
        started_wall = time.perf_counter()
        py_rng = random.Random(seed)
        root = to_openspiel(state, seat, py_rng)
        if root.current_player() != seat:  # pragma: no cover - the replay is checked
            raise RuntimeError("the OpenSpiel state has another player to act")
        codec: ActionCodec = root.get_game().encoding.codec
        legal = root.legal_actions()
        evaluator: Any
        if s.rollout in ("engine", "quiet"):
            evaluator = _EngineRollout(py_rng, s.rollouts, quiet=s.rollout == "quiet")
        else:
            from open_spiel.python.algorithms import mcts

            evaluator = mcts.RandomRolloutEvaluator(
                n_rollouts=s.rollouts, random_state=np.random.RandomState(seed ^ 0x5EED))
        bot = _search_class()(game=root.get_game(), evaluator=evaluator, uct_c=s.uct_c,
                              max_simulations=s.max_simulations,
                              random_state=np.random.RandomState(seed))
        bot.set_resampler(lambda st, player: st.resample_from_infostate(player, py_rng))
        least = min(s.max_simulations, len(legal) + 1)
        budget = s.time_budget
        clock = time.process_time if s.clock == "cpu" else time.perf_counter
        started = started_cpu if s.clock == "cpu" else started_wall

        def stop(done: int) -> bool:
            if done >= s.max_simulations:
                return True
            if done < least or budget is None:
                return False
            return clock() - started >= budget

        simulations = bot.search(root, stop)
        children = {int(a): (int(c.visits), c.value() if c.visits else 0.0)
                    for a, c in bot._root_node.child_info.items()}
        best = min(legal, key=lambda a: (-children.get(a, (0, 0.0))[0],
                                         -children.get(a, (0, 0.0))[1], a))
        self.last = SearchStats(simulations, time.process_time() - started_cpu,
                                time.perf_counter() - started_wall, children)
        return codec.decode(best)


def _factory(name: str) -> Callable[[], IsmctsBot]:
    return lambda: IsmctsBot(ISMCTS_SETTINGS[name])


def openspiel_available() -> bool:
    """Whether OpenSpiel is installed (looked up, not imported)."""
    return importlib.util.find_spec("pyspiel") is not None


#: the IS-MCTS bots by name, offered (through Mucken's game description) only where they can
#: run: without the research extra they are not offered
ISMCTS_FACTORIES: dict[str, Callable[[], IsmctsBot]] = (
    {name: _factory(name) for name in ISMCTS_SETTINGS} if openspiel_available() else {})
