"""Mucken's entry in the game registry (:mod:`stammtisch.games.registry`).

Everything the server, the CLI, research and persistence use of Mucken is named here;
the heavy parts (bots, the solver analysis, the research adapters) are imported only when
asked for.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from stammtisch.bots.base import BotFactory
from stammtisch.cards import SHORT_DECK, Card
from stammtisch.engine.core import GameState, Rng, resolve_chance
from stammtisch.engine.tricks import TrickOrder
from stammtisch.games.base import GamePlugin
from stammtisch.games.base.analysis import AnalysisHooks
from stammtisch.games.mucken.match import MuckenMatch
from stammtisch.games.mucken.options import OPTIONS
from stammtisch.games.mucken.orders import trick_order
from stammtisch.games.mucken.record import load, record_of, replay, summary
from stammtisch.games.mucken.rules import MuckenRules
from stammtisch.games.mucken.state import MuckenState
from stammtisch.games.mucken.statistics import STATISTICS
from stammtisch.games.mucken.table import TABLE

if TYPE_CHECKING:
    from stammtisch.games.mucken.presenter import MuckenPresenter
    from stammtisch.games.mucken.research.encoding import MuckenEncoding


def new_state(rules: MuckenRules, dealer: int = 0, rng: Rng | None = None) -> MuckenState:
    """A fresh deal; with ``rng`` the shuffle (and every chance node) is drawn at once."""
    state = MuckenState(rules, dealer)
    if rng is not None:
        resolve_chance(state, rng)
    return state


def replay_summary(source: Any) -> dict[str, Any]:
    """Replay a record checked; its summary line (``stammtisch replay --json``)."""
    return summary(replay(source))


def result_line(out: Mapping[str, Any]) -> str:
    """One line of text for a :func:`replay_summary`."""
    who = "-" if out["declarer"] is None else f"seat {out['declarer']}"
    winner = "not scored" if out["winner"] is None else f"pair {out['winner']} +{out['score']}"
    kontra = " Kontra" if out["kontra"] else ""
    return (f"{out['contract']} ({who}){kontra}; Augen {out['augen'][0]}:"
            f"{out['augen'][1]}, Stiche {out['tricks'][0]}:{out['tricks'][1]}; {winner}")


def _record_of(state: GameState) -> dict[str, Any]:
    if not isinstance(state, MuckenState):
        raise TypeError(f"not a Mucken state: {type(state).__name__}")
    return record_of(state)


def _new_match(rules: MuckenRules, first_dealer: int = 0,
               bobbl_limit: int | None = None) -> MuckenMatch:
    return MuckenMatch(rules, first_dealer, bobbl_limit)


def hint(state: GameState, seat: int, seed: int) -> tuple[str, dict[str, float]]:
    """PIMC's card and Augen estimates for ``seat`` from its view only (the hidden hands
    become a random deal consistent with it); runs on a copy of the game."""
    from stammtisch.games.mucken.bots.pimc import PIMC_SETTINGS, PimcBot
    from stammtisch.games.mucken.bots.sampling import deal_consistent, with_hands

    if not isinstance(state, MuckenState):
        raise TypeError(f"not a Mucken state: {type(state).__name__}")
    rng = random.Random(seed)
    view = with_hands(state, deal_consistent(state, seat, rng))
    bot = PimcBot(PIMC_SETTINGS["pimc"])
    estimates = bot.card_estimates(view, seat, rng)
    best = estimates[0]
    for e in estimates[1:]:
        if (e.utility, e.augen) > (best.utility, best.augen):
            best = e
    return str(best.card), {str(e.card): round(e.augen, 1) for e in estimates}


def presenter() -> MuckenPresenter:
    """A new terminal presenter (``stammtisch play``), imported on first use."""
    from stammtisch.games.mucken.presenter import MuckenPresenter

    return MuckenPresenter()


@cache
def load_bots() -> Mapping[str, BotFactory]:
    """Mucken's own bots: heuristic, the PIMC family and (with OpenSpiel) IS-MCTS."""
    from stammtisch.games.mucken.bots.heuristic import HeuristicBot
    from stammtisch.games.mucken.bots.pimc import PIMC_FACTORIES

    bots: dict[str, BotFactory] = {"heuristic": HeuristicBot, **PIMC_FACTORIES}
    try:  # needs the research extra (numpy; OpenSpiel to run)
        from stammtisch.games.mucken.bots.ismcts import ISMCTS_FACTORIES
    except ImportError:
        return bots
    bots.update(ISMCTS_FACTORIES)
    return bots


def solver(state: MuckenState, side_pair: int, *, mode: str = "augen") -> Any:
    """The exact double-dummy value of a Mucken state in play (``solve_state``)."""
    from stammtisch.analysis.solver import solve_state

    return solve_state(state, side_pair, mode=mode)


def fast_playout(rules: MuckenRules, dealer: int, rng: Rng) -> int:
    """A whole random game on the unchecked fast path; its card plays."""
    from stammtisch.games.mucken.fastplay import fast_random_playout

    return fast_random_playout(rules, dealer, rng).card_plays


def prepare_fast_playout(rules: MuckenRules) -> object:
    """Build the fast path's tables for ``rules``."""
    from stammtisch.games.mucken.fastplay import fast_tables

    return fast_tables(rules)


SOLVER_CONTRACTS = ("muck", "wenz", "geier")


def solver_deal(
    rng: random.Random,
) -> tuple[str, TrickOrder, list[list[Card]], tuple[int, ...]]:
    """A random short-deck deal and contract for the solver benchmark; pair 0 declares."""
    kind = rng.choice(SOLVER_CONTRACTS)
    deck = list(SHORT_DECK)
    rng.shuffle(deck)
    hands = [deck[6 * s: 6 * s + 6] for s in range(4)]
    return kind, trick_order(kind, "short"), hands, (0, 2)


def analysis() -> AnalysisHooks[Any, Any]:
    """The double-dummy analysis of a finished game (imports the solver)."""
    from stammtisch.games.mucken import analysis as a

    return AnalysisHooks(analyze=a.analyze, reference_pair=a.reference_pair)


def research_encoding(rules: MuckenRules, **params: Any) -> MuckenEncoding:
    """The research encoding of ``rules`` (ids, tensors: :mod:`stammtisch.research`);
    imported on first use, it needs the research extra."""
    from stammtisch.games.mucken.research.encoding import MuckenEncoding

    return MuckenEncoding(rules, **params)


#: Mucken as the registry knows it
PLUGIN = GamePlugin(
    name="mucken",
    table=TABLE,
    title={"de": "Mucken", "en": "Mucken"},
    seats=(4, 4),
    zero_sum=True,
    rules_class=MuckenRules,
    options=OPTIONS,
    new_state=new_state,
    load_record=load,
    replay_state=replay,
    replay_record=replay_summary,
    record_of=_record_of,
    describe_result=result_line,
    new_match=_new_match,
    statistics=STATISTICS,
    load_bots=load_bots,
    default_bot="heuristic",
    ui_module="table.js",
    record_schema="mucken-record.json",
    solver=solver,
    presenter=presenter,
    fast_playout=fast_playout,
    prepare_fast_playout=prepare_fast_playout,
    solver_deal=solver_deal,
    analysis=analysis,
    hint=hint,
    encoding=research_encoding,
)
