"""What a game adds to the one duplicate-deal judge of ``simulate`` and ``arena``.

The judge (:mod:`stammtisch.judging`) seats two lineups of bots on the same deals with
their seats swapped and measures every game by the engine contract's ``returns()``: the
margin of lineup 0 over lineup 1 per game, its 95% confidence interval over deals, the
decision times.  A game's plug-in (``GamePlugin.statistics``) adds through
:class:`JudgeStatistics` how its deals (:class:`Board`) are drawn and started, and a
:class:`Tally` of its own statistics — Mucken's Bobbl and Kontra, Schafkopf's Stöße,
Mulatschak's bids and matches, Mus's órdagos and sets — that words the JSON and the text
of both commands.  :func:`play` is how every judged game is played.
"""

from __future__ import annotations

import math
import random
import statistics
import string
import time
from abc import ABC
from collections import ChainMap, Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self

from stammtisch.bots.base import Bot
from stammtisch.engine.core import CHANCE, TERMINAL, Action, GameState, Rng
from stammtisch.errors import StammtischError

__all__ = ["ARENA_HEAD", "DECLARED", "DECLARER", "Board", "Console", "Derive", "Figures",
           "JudgeError", "JudgeStatistics", "Rate", "Statistics", "Tally", "ci95",
           "decision_ms", "interval", "listing", "per_game", "percent", "play", "ranked",
           "ratio", "seat_list", "share", "table", "verdict", "words"]


class JudgeError(StammtischError):
    """A bad argument to the judge: an unknown bot, too few deals or games, the wrong
    number of bots or seats, rules of another game."""


@dataclass(frozen=True)
class Board:
    """One deal as the judge plays it at every seating (the duplicate bridge's board)."""

    number: int
    dealer: int
    #: the seed of the bots' random stream (the same at every seating)
    bot_seed: int
    #: actions applied first: the shuffle, the dealt hands, a cut
    opening: tuple[Action, ...] = ()
    #: chance during the game (Mus's reshuffles) draws from ``random.Random(chance_seed)``
    chance_seed: int | None = None
    #: the running score the game starts from (Mus's arena), ``None``: a fresh one
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Figures:
    """What the judge measured in one run; a :class:`Tally` words them with its own."""

    game: str
    rules: Any
    seed: int
    arena: bool
    #: the bot of each seat: ``simulate``'s tables (A, B), ``arena``'s two sides
    seatings: list[list[str]]
    deals: int
    games: int
    #: per lineup, the sum of its seats' values (returns) over all games
    totals: list[float]
    #: per deal, the mean margin of lineup 0 over lineup 1 per game
    margins: list[float]
    #: per game: over games (``simulate``) or the mean over deals (``arena``, and
    #: ``simulate`` with the statistics' ``margin_by_deal``)
    margin: float
    ci95: list[float] | None
    #: decision times in seconds by bot name
    times: Mapping[str, list[float]]
    seconds: float
    jobs: int = 1

    def bots(self, lineup: int) -> list[str]:
        """The bots of ``lineup`` (0 or 1) at ``simulate``'s table A (arena: A's side)."""
        return self.seatings[0][lineup::2]

    def per_second(self, count: int) -> float | None:
        return count / self.seconds if self.seconds > 0 else None

    def pick(self, keys: str, extra: Mapping[str, Any]) -> dict[str, Any]:
        """A run's JSON: the space-separated ``keys`` in order, from ``extra`` or else the
        judge's figures (``a``, ``b``: the bots of arena's first side; ``hands``: games;
        ``mean``: the margin; ``bots``: table A's seats; ``players``: the seats)."""
        games, seatings = self.games, self.seatings
        figures = {"game": self.game, "a": seatings[0][0], "b": seatings[0][1],
                   "players": len(seatings[0]), "deals": self.deals, "games": games,
                   "hands": games, "seed": self.seed, "bots": seatings[0], "seatings": seatings,
                   "margin": self.margin, "mean": self.margin, "ci95": self.ci95,
                   "seconds": self.seconds, "games_per_s": self.per_second(games),
                   "deals_per_s": self.per_second(self.deals), "jobs": self.jobs}
        values = {**figures, **extra}
        return {key: values[key] for key in keys.split()}


class Console(Protocol):
    """Where the text of a run goes (a rich console)."""

    def print(self, *objects: Any) -> None: ...


#: a rate for people (the CLI's ``1,234 games/s``): ``rate(per_second, "game")``
Rate = Callable[[float | None, str], str]


class Tally(Protocol):
    """A game's own statistics of one run, booked game by game."""

    def book(self, state: GameState, lineup_of_seat: Sequence[int]) -> None:
        """A finished game; ``lineup_of_seat``: 0 or 1 for each seat."""

    def book_match(self, match: Any, lineup_of_seat: Sequence[int]) -> None:
        """A match (the plug-in's ``new_match``) replaced when over, or left at the end."""

    def to_json(self, figures: Figures) -> dict[str, Any]:
        """The command's JSON (``--json``)."""


class JudgeStatistics(Protocol):
    """What a game adds to the judge (see the module)."""

    #: a game's margin: this times (lineup 0's mean value per seat − lineup 1's)
    margin_scale: float
    #: ``simulate``'s tables: 2 (the second with the seats swapped) or 1
    simulate_tables: int
    #: whether each side of ``arena`` books its games through a match of its own
    arena_matches: bool
    #: whether ``simulate``'s margin is the mean over deals (each deal weighs the same)
    #: rather than over games, as ``arena``'s always is
    margin_by_deal: bool

    def draw(self, rules: Any, master: random.Random, number: int, seats: int,
             arena: bool) -> Board:
        """Deal ``number`` drawn from ``master``."""

    def start(self, rules: Any, board: Board, seats: int) -> GameState:
        """A game of ``board`` outside a match, before its opening."""

    def values(self, state: GameState) -> Sequence[float]:
        """A finished game's value per seat, more is better (``returns()``)."""

    def tally(self, arena: bool) -> Tally:
        """A new tally for a run of ``simulate`` or ``arena``."""

    def print_report(self, out: Mapping[str, Any], console: Console, rate: Rate,
                     arena: bool) -> None:
        """The text of a run from its JSON."""


class Statistics(ABC):
    """The defaults of :class:`JudgeStatistics` for a game's statistics, a class that is
    its own :class:`Tally` too: the plug-in holds an empty one, each run books into a new
    one (:meth:`tally`).  A deal is the shuffle of a fresh game of :attr:`state_class`
    (dealer ``number mod seats``; :meth:`opening`) and then a bots' seed; a game's value
    is its ``returns()``; two tables in ``simulate`` (its margin over games), no matches
    in ``arena``.

    A run books into counters per lineup (:attr:`lineups`, :meth:`count`), by kind of
    game (:attr:`kinds`: contracts, outcomes) and for the run (:attr:`counts`).  Its JSON
    is the keys :attr:`arena_keys` or :attr:`simulate_keys` of the judge's figures and
    the game's :meth:`fields`, a lineup's from :attr:`lineup_fields`
    (:meth:`lineup_json`); its text is the game's :meth:`lines` (templates of
    :func:`words`) and the :meth:`verdict`."""

    margin_scale = 1.0
    simulate_tables = 2
    arena_matches = False
    margin_by_deal = False
    #: a fresh game outside a match: ``state_class(rules, dealer)`` (or :meth:`start`)
    state_class: Callable[[Any, int], GameState]
    #: the JSON keys of ``arena`` and of ``simulate``, in order (:meth:`Figures.pick`)
    arena_keys = simulate_keys = ""
    #: a lineup's JSON fields after its bots: a counter, or a field's name and its
    #: :data:`Derive`
    lineup_fields: tuple[str | tuple[str, Derive], ...] = ()
    #: the verdict's unit and digits, and arena's JSON key of the mean difference
    unit, digits, mean_key = "points per game", 3, "mean"

    def __init__(self) -> None:
        #: a run's counters per lineup (0 and 1)
        self.lineups: list[Counter[str]] = [Counter(), Counter()]
        #: a run's games by kind (a contract, an outcome; Mus: each lance's status)
        self.kinds: Counter[Any] = Counter()
        #: a run's other counters
        self.counts: Counter[str] = Counter()

    def tally(self, arena: bool) -> Self:
        return type(self)()

    def draw(self, rules: Any, master: random.Random, number: int, seats: int,
             arena: bool) -> Board:
        dealer = number % seats
        state = self.start(rules, Board(number, dealer, 0), seats)
        return Board(number, dealer, *self.opening(state, master, arena))

    def opening(self, state: GameState, master: random.Random, arena: bool
                ) -> tuple[int, tuple[Action, ...]]:
        """A deal of ``state`` drawn from ``master``: the bots' seed and the actions it
        opens with (the shuffle, drawn first)."""
        shuffle = state.sample_chance(master)
        return master.getrandbits(64), (shuffle,)

    def start(self, rules: Any, board: Board, seats: int) -> GameState:
        """A game of ``board`` outside a match, before its opening."""
        return self.state_class(rules, board.dealer)

    def values(self, state: GameState) -> Sequence[float]:
        return state.returns()

    def count(self, lineup: int, **amounts: int) -> None:
        """Add ``amounts`` (a ``bool`` counts 1 or 0) to the counters of ``lineup``."""
        counters = self.lineups[lineup]
        for key, amount in amounts.items():
            counters[key] += amount

    def column(self, key: str) -> list[int]:
        """Counter ``key`` of both lineups."""
        return [counters[key] for counters in self.lineups]

    def declarer_json(self) -> dict[str, Any]:
        """Both lineups' ``declarer_games`` and the share of them won (``declarer_wins``)."""
        games = sum(self.column("declarer_games"))
        return {"declarer_games": games,
                "declarer_win_rate": share(sum(self.column("declarer_wins")), games)}

    def lineup_json(self, lineup: int, f: Figures, **head: Any) -> dict[str, Any]:
        """The JSON of ``lineup``: ``head`` (its bots), then its :attr:`lineup_fields`."""
        counters, out = self.lineups[lineup], dict(head)
        for field in self.lineup_fields:
            name, derive = (field, None) if isinstance(field, str) else field
            out[name] = counters[name] if derive is None else derive(counters, f, lineup)
        return out

    def to_json(self, f: Figures) -> dict[str, Any]:
        """The command's JSON (see the class)."""
        return f.pick(self.arena_keys if f.arena else self.simulate_keys, self.fields(f))

    def fields(self, f: Figures) -> dict[str, Any]:
        """The game's JSON fields of a run, and any figure it words otherwise."""
        return {}

    def print_report(self, out: Mapping[str, Any], console: Console, rate: Rate,
                     arena: bool) -> None:
        """The text of a run from its JSON: the game's :meth:`lines`, the :meth:`verdict`."""
        for line in (*self.lines(out, rate, arena), self.verdict(out, arena)):
            console.print(line)

    def lines(self, out: Mapping[str, Any], rate: Rate, arena: bool) -> list[Any]:
        """The lines of a run's text before its verdict: text or rich renderables."""
        return []

    def lineup_lines(self, out: Mapping[str, Any], arena: bool, template: str) -> list[str]:
        """A line per lineup (arena: the JSON's ``stats``, simulate: its ``lineups``):
        ``template`` over the run's JSON, the lineup's and its ``name``
        (:meth:`lineup_name`)."""
        return [words(template, out, lineup, name=lineup["bot"] if arena else
                      self.lineup_name(lineup["bots"]))
                for lineup in out["stats" if arena else "lineups"]]

    def verdict(self, out: Mapping[str, Any], arena: bool) -> str:
        """The last line: arena's mean difference of A over B, simulate's margin of the
        first lineup over the second (:meth:`margin_of`), in :attr:`unit`."""
        if arena:
            return verdict(f"Mean difference {out['a']} − {out['b']}", out[self.mean_key],
                           self.unit, out["ci95"], self.digits, "n/a (one deal)")
        return verdict(self.margin_of(out), out["margin"], self.unit, out["ci95"],
                       self.digits)

    def margin_of(self, out: Mapping[str, Any]) -> str:
        """The head of ``simulate``'s verdict: ``Margin A+A over B+B`` (:meth:`lineup_name`)."""
        first, second = (self.lineup_name(lineup["bots"]) for lineup in out["lineups"])
        return f"Margin {first} over {second}"

    def lineup_name(self, bots: Sequence[str]) -> str:
        """A lineup of ``simulate`` for people: its bots joined by ``+``."""
        return "+".join(bots)


def play(state: GameState, bots: Sequence[Bot], rng: Rng, chance: Rng | None = None,
         times: dict[str, list[float]] | None = None) -> list[Action]:
    """Play ``state`` to its end, checked: the bots by seat with ``rng``, chance with
    ``chance``; each decision's time in seconds by bot name into ``times``.  The actions
    applied, chance included."""
    applied: list[Action] = []
    while (seat := state.current_player) != TERMINAL:
        if seat == CHANCE:
            if chance is None:
                raise JudgeError(f"{state.game_name}: a chance node without a chance seed")
            action = state.sample_chance(chance)
        else:
            bot = bots[seat]
            started = time.perf_counter()
            action = bot.choose(state, rng)
            if times is not None:
                times.setdefault(bot.name, []).append(time.perf_counter() - started)
        state.apply(action)  # checked: a bot's illegal action is an error
        applied.append(action)
    return applied


def ci95(samples: Sequence[float], center: float) -> list[float] | None:
    """``center`` ± 1.96 standard errors of ``samples`` (``None`` below two)."""
    if len(samples) < 2:
        return None
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))
    return [center - half, center + half]


def ranked(counts: Counter[str]) -> dict[str, int]:
    """Counts, the most frequent first (ties by name)."""
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def percent(rate: float | None) -> str:
    """A share for people: ``62.5%``, ``-`` for none."""
    return "-" if rate is None else f"{100 * rate:.1f}%"


def interval(ci: Sequence[float] | None, digits: int = 3, none: str = "n/a") -> str:
    """A confidence interval for people: ``[+0.125, +2.500]``."""
    return none if ci is None else f"[{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]"


def verdict(head: str, value: float, unit: str, ci: Sequence[float] | None, digits: int = 3,
            none: str = "n/a", note: str = "") -> str:
    """The last line of a report: ``head: +1.250 unit (95% CI [...])``."""
    return (f"[bold]{head}: {value:+.{digits}f} {unit}[/bold] "
            f"(95% CI {interval(ci, digits, none)}{note})")


def decision_ms(times: Sequence[float], keys: Sequence[str] = ("median", "p95", "max")
                ) -> dict[str, Any]:
    """Median, 95th percentile and maximum of decision times (seconds) in ms, and their
    number."""
    if not times:
        return {**dict.fromkeys(keys), "decisions": 0}
    ordered = sorted(times)
    at: dict[str, float] = {"median": statistics.median(ordered), "max": ordered[-1],
                            "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]}
    return {**{k: round(1000 * at[k], 3) for k in keys}, "decisions": len(ordered)}


def seat_list(bots: Sequence[str]) -> str:
    """The bots by seat for people: ``0=heuristic, 1=random``."""
    return ", ".join(f"{seat}={bot}" for seat, bot in enumerate(bots))


def listing(counts: Mapping[str, Any]) -> str:
    """Counts for people: ``wenz 3, solo 1``."""
    return ", ".join(f"{key} {n}" for key, n in counts.items())


class _Words(string.Formatter):
    """:meth:`str.format` with a share for people: ``{rate:.1%}`` is ``-`` for none."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if value is None and format_spec.endswith("%"):
            return "-"
        return super().format_field(value, format_spec)


_WORDS = _Words()


def words(template: str, *values: Mapping[str, Any], **more: Any) -> str:
    """A line of a run's text: ``template`` (:meth:`str.format`: ``{points[0]}``,
    ``{seconds:.1f}``) over ``values`` and then ``more``, the later first (a run's JSON,
    a lineup's); a share ``{rate:.1%}`` is ``-`` for none."""
    return _WORDS.vformat(template, (), ChainMap(more, *reversed(values)))


#: the first line of ``arena``'s text (a template of :func:`words`)
ARENA_HEAD = ("[bold]{a} vs {b}[/bold]: {deals} deals, {games} games (each deal with the "
              "seats swapped), rules {rules}, seed {seed}, {seconds:.1f} s")


def table(title: str, columns: Mapping[str, str], rows: Iterable[Mapping[str, Any]]) -> Any:
    """A rich table of ``rows``: a column per header of ``columns``, its cells the header's
    template (:func:`words`) over each row; the first column left, the others right."""
    from rich.table import Table

    out = Table(title=title, title_justify="left")
    for i, header in enumerate(columns):
        out.add_column(header, justify="right" if i else "left")
    for row in rows:
        out.add_row(*(words(cell, row) for cell in columns.values()))
    return out


#: a derived field of a lineup's JSON from its counters, the run's figures and the
#: lineup (0 or 1)
Derive = Callable[[Counter[str], Figures, int], Any]


def per_game(key: str) -> Derive:
    """A lineup's counter ``key`` per game of the run."""
    return lambda counters, f, lineup: counters[key] / f.games


def ratio(part: str, whole: str) -> Derive:
    """A lineup's counter ``part`` per ``whole`` (``None`` without any)."""
    return lambda counters, f, lineup: share(counters[part], counters[whole])


#: a lineup's declared games and the share of them it won (counters ``declarer_games``
#: and ``declarer_wins``), and how a line of text says them (:func:`words`)
DECLARER: tuple[str | tuple[str, Derive], ...] = (
    "declarer_games", ("declarer_win_rate", ratio("declarer_wins", "declarer_games")))
DECLARED = "declared {declarer_games} (won {declarer_win_rate:.1%})"
