"""Schafkopf's plug-in: its entry in the game registry (:mod:`stammtisch.games.registry`).

The bots, the solver and the analysis are imported only when called.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from stammtisch.bots.base import BotFactory
from stammtisch.cards import LONG_DECK, Card, Rank
from stammtisch.engine.core import GameState, Rng, resolve_chance
from stammtisch.games.base import GamePlugin
from stammtisch.games.base.analysis import AnalysisHooks
from stammtisch.games.schafkopf import online, record
from stammtisch.games.schafkopf.options import OPTIONS
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState
from stammtisch.games.schafkopf.statistics import STATISTICS
from stammtisch.games.schafkopf.table import TABLE

if TYPE_CHECKING:
    from stammtisch.games.schafkopf.presenter import SchafkopfPresenter
    from stammtisch.games.schafkopf.research.encoding import SchafkopfEncoding

__all__ = ["PLUGIN", "hint", "load_bots", "solver", "solver_deal"]

DEFAULT_BOT = "heuristic"

#: the contracts of ``bench solver``, drawn uniformly (the Sauspiel twice: it is the
#: common game)
SOLVER_CONTRACTS = ("sauspiel", "sauspiel", "solo", "wenz", "geier", "farbwenz", "bettel")


def presenter() -> SchafkopfPresenter:
    """A new terminal presenter (``stammtisch play``), imported on first use."""
    from stammtisch.games.schafkopf.presenter import SchafkopfPresenter

    return SchafkopfPresenter()


@cache
def load_bots() -> Mapping[str, BotFactory]:
    """Schafkopf's own bots: heuristic and the PIMC family."""
    from stammtisch.games.schafkopf.bots.heuristic import HeuristicBot
    from stammtisch.games.schafkopf.bots.pimc import PIMC_FACTORIES

    return {"heuristic": HeuristicBot, **PIMC_FACTORIES}


def solver(state: GameState) -> Any:
    """The exact double-dummy value of the declaring side of a Schafkopf state in play
    (:func:`stammtisch.games.schafkopf.solver.solve_state`)."""
    from stammtisch.games.schafkopf.solver import solve_state
    from stammtisch.games.schafkopf.state import SchafkopfState

    if not isinstance(state, SchafkopfState):
        raise TypeError(f"not a Schafkopf state: {type(state).__name__}")
    return solve_state(state)


def solver_deal(rng: random.Random) -> tuple[str, Any, list[list[Card]], tuple[int, ...]]:
    """A random deal and contract for ``bench solver``: ``(kind, contract, hands, side)``.

    The contract goes to the seat with the most trumps of it (a Bettel: a random seat);
    a Sauspiel calls a suit the declarer may call (no ace, a card of the suit), the
    holder of the ace is the partner.  Seat 0 leads.  The returned contract (a
    :class:`~stammtisch.games.schafkopf.solver.Contract`) has ``solve(hands, leader)``.
    """
    from stammtisch.cards import GERMAN_SUITS
    from stammtisch.games.schafkopf.games import CALL_SUITS, NORMAL, order_for
    from stammtisch.games.schafkopf.solver import Contract

    kind = rng.choice(SOLVER_CONTRACTS)
    while True:
        deck = list(LONG_DECK)
        rng.shuffle(deck)
        hands = [deck[8 * s: 8 * s + 8] for s in range(4)]
        suit = rng.choice(GERMAN_SUITS)
        order = order_for(kind, suit if kind in ("solo", "farbwenz") else None)
        declarer = max(range(4), key=lambda s: (sum(order.is_trump(c) for c in hands[s]), -s))
        called = None
        if kind == "bettel":
            declarer = rng.randrange(4)
        side = {declarer}
        if kind == "sauspiel":
            calls = [s for s in CALL_SUITS if Card.of(s, Rank.ASS) not in hands[declarer]
                     and any(c.suit is s and not NORMAL.is_trump(c) for c in hands[declarer])]
            if not calls:
                continue
            called = Card.of(rng.choice(calls), Rank.ASS)
            side.add(next(s for s in range(4) if called in hands[s]))
        mode = "tricks" if kind == "bettel" else "augen"
        contract = Contract(kind, order, mode, frozenset(side), called)
        return kind, contract, hands, tuple(sorted(side))


def hint(state: GameState, seat: int, seed: int) -> tuple[str, dict[str, float]]:
    """PIMC's card for ``seat`` from its own view only (worlds sampled from its view),
    with each card's expected utility; in the other phases the heuristic's choice."""
    from stammtisch.games.schafkopf.bots.heuristic import HeuristicBot
    from stammtisch.games.schafkopf.bots.pimc import PIMC_SETTINGS, PimcBot
    from stammtisch.games.schafkopf.state import SchafkopfState

    if not isinstance(state, SchafkopfState):
        raise TypeError(f"not a Schafkopf state: {type(state).__name__}")
    rng = random.Random(seed)
    if state.phase != "play" or state.current_player != seat or state.declarer is None:
        return str(HeuristicBot().choose(state, rng)), {}
    bot = PimcBot(PIMC_SETTINGS["pimc-fast"])
    estimates = bot.card_estimates(state, seat, rng)
    best = max(estimates, key=lambda e: e.utility)
    return str(best.card), {str(e.card): round(e.utility, 2) for e in estimates}


def new_state(rules: SchafkopfRules, dealer: int = 0,
              rng: Rng | None = None) -> SchafkopfState:
    """A fresh deal; with ``rng`` every chance node is drawn at once."""
    state = SchafkopfState(rules, dealer)
    if rng is not None:
        resolve_chance(state, rng)
    return state


def record_of(state: GameState) -> dict[str, Any]:
    if not isinstance(state, SchafkopfState):
        raise TypeError(f"not a Schafkopf state: {type(state).__name__}")
    return record.record_of(state)


def result_line(out: Mapping[str, Any]) -> str:
    """One line of text for a ``replay --json`` summary."""
    who = "-" if out["declarer"] is None else f"seat {out['declarer']}"
    return (f"{out['contract']} ({who}); Augen " + ":".join(str(a) for a in out["augen"])
            + f"; {out['winner'] or '-'}; payments "
            + " ".join(f"{p:+d}" for p in out["payments"]))


def fast_playout(rules: SchafkopfRules, dealer: int, rng: Rng) -> int:
    """Schafkopf's unchecked fast path (``bench playout``): one random hand's card plays."""
    from stammtisch.games.schafkopf.fastplay import fast_random_playout

    return fast_random_playout(rules, dealer, rng).card_plays


def prepare_fast_playout(rules: SchafkopfRules) -> object:
    from stammtisch.games.schafkopf.fastplay import fast_tables

    return fast_tables(rules)


def analysis() -> AnalysisHooks[Any, Any]:
    """The double-dummy analysis of a finished game (imports the solver)."""
    from stammtisch.games.schafkopf import analysis as a

    return AnalysisHooks(analyze=a.analyze, reference_pair=a.reference_pair,
                         headline=a.headline, summary=a.summary)


def research_encoding(rules: SchafkopfRules, **params: Any) -> SchafkopfEncoding:
    """The research encoding of ``rules`` (ids, tensors: :mod:`stammtisch.research`);
    imported on first use, it needs the research extra."""
    from stammtisch.games.schafkopf.research.encoding import SchafkopfEncoding

    return SchafkopfEncoding(rules, **params)


#: Schafkopf as the registry knows it
PLUGIN = GamePlugin(
    name="schafkopf",
    table=TABLE,
    title={"de": "Schafkopf", "en": "Schafkopf"},
    seats=(4, 4),
    zero_sum=True,
    rules_class=SchafkopfRules,
    options=OPTIONS,
    new_state=new_state,
    load_record=record.load,
    replay_state=record.replay,
    replay_record=lambda source: record.replay_record(record.load(source)),
    record_of=record_of,
    describe_result=result_line,
    fast_playout=fast_playout,
    prepare_fast_playout=prepare_fast_playout,
    new_match=online.new_match,
    statistics=STATISTICS,
    ui_module="table_schafkopf.js",
    presenter=presenter,
    load_bots=load_bots,
    default_bot=DEFAULT_BOT,
    solver=solver,
    solver_deal=solver_deal,
    analysis=analysis,
    hint=hint,
    encoding=research_encoding,
)
