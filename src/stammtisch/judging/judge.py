"""The one duplicate-deal judge of ``stammtisch simulate`` and ``stammtisch arena``, for
every game, over the engine contract (``returns()``) and the plug-in's statistics
(:mod:`stammtisch.games.base.judging`).

- :func:`run_simulation`: the lineups (two bots: per pair, seats 0+2 and 1+3; four: per
  seat) play at two tables, each a match of the game (dealer rotation, the score sheet; a
  new match when one is over), the second with the seats swapped (seat ``s`` of table B
  holds the bot of seat ``s ^ 1`` of table A).  Both tables get the same deal, drawn from
  ``random.Random(SEED)``, and the bots the same random stream, so both lineups hold the
  same cards.  (A game may judge at one table: Mus.)
- :func:`run_arena`: bot A on the even seats and B on the odd ones, then swapped, each
  deal (drawn in order from ``random.Random(SEED)``, :func:`draw_deals`) played at both
  seatings by :func:`play_deal` — in worker processes with ``--jobs`` — and replayed in
  order, through a match per side where the game keeps one (Mucken's Bobbl, Schafkopf's
  Abrechnung); the result does not depend on the jobs.

A game's margin is lineup 0's mean value per seat minus lineup 1's (times the game's
``margin_scale``); a deal's sample is the mean of its games; the margin of a run is the
mean over its games (``simulate``) or deals (``arena``, and ``simulate`` of a game with
``margin_by_deal``); the 95% CI is over deals.  Decision times are measured around every
``choose``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

from stammtisch.bots.base import Bot
from stammtisch.engine.core import Action, GameState
from stammtisch.games import registry
from stammtisch.games.base import GamePlugin
from stammtisch.games.base.judging import Board, Figures, JudgeError, JudgeStatistics, ci95, play

__all__ = ["DealTask", "Played", "Progress", "draw_deals", "play_deal", "run_arena",
           "run_simulation"]

#: one deal for :func:`play_deal`: game, rules, the deal, the bot names of each seating
DealTask = tuple[str, Any, Board, list[list[str]]]


class Progress(Protocol):
    """What the judge needs of a rich progress display."""

    def add_task(self, description: str, *, total: float | None = ...) -> Any: ...

    def advance(self, task_id: Any) -> None: ...


#: bots by (game, name), made once per process
_BOTS: dict[tuple[str, str], Bot] = {}


def _bots(game: str, names: Sequence[str]) -> list[Bot]:
    for name in names:
        if (game, name) not in _BOTS:
            _BOTS[game, name] = registry.make_bot(game, name)
    return [_BOTS[game, name] for name in names]


def _game(game: str | None, rules: Any) -> tuple[GamePlugin, JudgeStatistics]:
    """The game (named, or the one ``rules`` belong to) and its statistics."""
    for plugin in registry.descriptions() if game is None else [registry.get(game)]:
        if isinstance(rules, plugin.rules_class):
            if plugin.statistics is None or plugin.new_match is None:
                raise JudgeError(f"{plugin.name}: simulate and arena need a match")
            return plugin, plugin.statistics
    raise JudgeError(f"rules: not {game or 'a game'}'s rules ({type(rules).__name__})")


def _check(plugin: GamePlugin, names: Sequence[str], count: int, what: str) -> None:
    if count < 1:
        raise JudgeError(f"{what}={count}: must be at least 1")
    known = registry.bot_names(plugin.name)
    for name in names:
        if name not in known:
            raise JudgeError(f"unknown bot {name!r} (known: {', '.join(known)})")


def _open(state: GameState, board: Board, actions: Sequence[Action] = (),
          checked: bool = True) -> GameState:
    """``board``'s opening and then ``actions`` applied to ``state``."""
    apply = state.apply if checked else state.apply_unchecked
    for action in (*board.opening, *actions):
        apply(action)
    return state


def _play(game: str, state: GameState, board: Board, seating: Sequence[str],
          times: dict[str, list[float]]) -> list[Action]:
    """Open ``board`` on ``state`` and play it; the actions after the opening."""
    chance = None if board.chance_seed is None else random.Random(board.chance_seed)
    return play(_open(state, board), _bots(game, seating), random.Random(board.bot_seed),
                chance, times)


class _Run:
    """A run's figures as its games are booked."""

    def __init__(self, plugin: GamePlugin, stats: JudgeStatistics, rules: Any, arena: bool,
                 seatings: list[list[str]]) -> None:
        self.plugin, self.stats, self.rules, self.arena = plugin, stats, rules, arena
        self.seatings = seatings
        self.tally = stats.tally(arena)
        #: the lineup (0 or 1) of each seat at each table or side: the second swapped
        self.lineups = [[(s + t) % 2 for s in range(len(seatings[0]))]
                        for t in range(len(seatings))]
        assert plugin.new_match is not None
        self.new_match = plugin.new_match
        self.totals: list[float] = [0, 0]
        self.games: list[float] = []
        self.margins: list[float] = []
        self.times: dict[str, list[float]] = {}
        self.started = time.perf_counter()

    def next_game(self, matches: list[Any], t: int, dealer: int | None = None) -> GameState:
        """The next game of table (side) ``t`` (by ``dealer`` if given); a new match when
        its match is over."""
        if matches[t].is_over():
            self.tally.book_match(matches[t], self.lineups[t])
            matches[t] = self.new_match(self.rules, matches[t].dealer)
        if dealer not in (None, matches[t].dealer):  # pragma: no cover - a fixed rotation
            raise JudgeError("the dealers of the two sides differ")
        state: GameState = matches[t].start_game()
        return state

    def book(self, state: GameState, t: int) -> float:
        """A finished game at table (side) ``t``; its margin."""
        lineup_of_seat = self.lineups[t]
        self.tally.book(state, lineup_of_seat)
        sums: list[float] = [0, 0]
        seats = [0, 0]
        for seat, value in enumerate(self.stats.values(state)):
            sums[lineup_of_seat[seat]] += value
            seats[lineup_of_seat[seat]] += 1
        self.totals = [total + part for total, part in zip(self.totals, sums, strict=True)]
        self.games.append(self.stats.margin_scale * (sums[0] / seats[0] - sums[1] / seats[1]))
        return self.games[-1]

    def result(self, seed: int, matches: list[Any], jobs: int = 1) -> dict[str, Any]:
        for t, match in enumerate(matches):
            self.tally.book_match(match, self.lineups[t])
        games = len(self.games)
        by_deal = self.arena or self.stats.margin_by_deal
        margin = statistics.fmean(self.margins) if by_deal else sum(self.games) / games
        return self.tally.to_json(Figures(
            self.plugin.name, self.rules, seed, self.arena, self.seatings, len(self.margins),
            games, self.totals, self.margins, margin, ci95(self.margins, margin), self.times,
            time.perf_counter() - self.started, jobs))


def run_simulation(games: int, seed: int, bot_names: Sequence[str], rules: Any,
                   progress: Progress | None = None, game: str | None = None
                   ) -> dict[str, Any]:
    """Play ``games`` games (see the module); the game's JSON-ready statistics."""
    plugin, stats = _game(game, rules)
    seats = plugin.new_state(rules, 0, None).num_seats
    if seats % 2:
        raise JudgeError(f"{plugin.name}: simulate seats two lineups at an even table")
    names = list(bot_names) * (seats // 2) if len(bot_names) == 2 else list(bot_names)
    if len(names) != seats:
        count = {2: "two", 4: "four", 6: "six"}.get(seats, str(seats))
        raise JudgeError(f"{','.join(bot_names)}: give two bots (one per pair) or {count} "
                         "(one per seat)")
    _check(plugin, names, games, "games")
    run = _Run(plugin, stats, rules, False, [names, [names[s ^ 1] for s in range(seats)]]
               [:stats.simulate_tables])
    matches = [run.new_match(rules, 0) for _ in run.seatings]
    master = random.Random(seed)
    task = progress.add_task("simulate", total=games) if progress is not None else None
    while len(run.games) < games:
        board = stats.draw(rules, master, len(run.margins), seats, False)
        margins = []
        for t, seating in enumerate(run.seatings[:games - len(run.games)]):
            state = run.next_game(matches, t)
            _play(plugin.name, state, board, seating, run.times)
            matches[t].finish_game()
            margins.append(run.book(state, t))
            if progress is not None:
                progress.advance(task)
        run.margins.append(sum(margins) / len(margins))
    return run.result(seed, matches)


def draw_deals(seed: int, deals: int, rules: Any, game: str | None = None,
               seats: int = 4) -> list[Board]:
    """The deals of an arena run, in order, from ``random.Random(seed)``."""
    master = random.Random(seed)
    stats = _game(game, rules)[1]
    return [stats.draw(rules, master, i, seats, True) for i in range(deals)]


#: what :func:`play_deal` gives: the deal's number, the actions of each seating after
#: the opening, the decision times (seconds) by bot name
Played = tuple[int, list[list[Action]], dict[str, list[float]]]


def _deal(task: DealTask) -> tuple[Played, list[GameState]]:
    game, rules, board, seatings = task
    stats = registry.get(game).statistics
    assert stats is not None
    times: dict[str, list[float]] = {}
    states = [stats.start(rules, board, len(seating)) for seating in seatings]
    played = [_play(game, state, board, seating, times)
              for state, seating in zip(states, seatings, strict=True)]
    return (board.number, played, times), states


def play_deal(task: DealTask) -> Played:
    """Both games of one deal outside a match (see :data:`Played`)."""
    return _deal(task)[0]


def run_arena(bot_a: str, bot_b: str, deals: int, seed: int, rules: Any, *, jobs: int = 1,
              progress: Progress | None = None, game: str | None = None,
              players: int | None = None) -> dict[str, Any]:
    """``deals`` duplicate deals of ``bot_a`` against ``bot_b`` at ``players`` seats (the
    game's default table) (see the module); the game's JSON-ready figures."""
    plugin, stats = _game(game, rules)
    _check(plugin, (bot_a, bot_b), deals, "deals")
    seats = plugin.new_state(rules, 0, None).num_seats if players is None else players
    low, high = plugin.seats
    if not low <= seats <= high:
        raise JudgeError(f"players={seats}: {plugin.title['en']} has {low} to {high}")
    run = _Run(plugin, stats, rules, True,
               [[(bot_a, bot_b)[(s + side) % 2] for s in range(seats)] for side in (0, 1)])
    boards = draw_deals(seed, deals, rules, plugin.name, seats)
    matches = [run.new_match(rules, 0) for _ in range(2)] if stats.arena_matches else []
    task = progress.add_task("arena", total=deals) if progress is not None else None
    for (number, played, times), states in _played(plugin.name, rules, boards, run.seatings,
                                                    jobs):
        board = boards[number]
        margins = []
        for t, actions in enumerate(played):
            if matches:
                state = _open(run.next_game(matches, t, board.dealer), board, actions)
                matches[t].finish_game()
            else:  # the very game play_deal played (checked), here or in a worker
                state = states[t] if states else _open(stats.start(rules, board, seats), board,
                                                       actions, checked=False)
            margins.append(run.book(state, t))
        run.margins.append(statistics.fmean(margins))
        for name, ts in times.items():
            run.times.setdefault(name, []).extend(ts)
        if progress is not None:
            progress.advance(task)
    return run.result(seed, matches, jobs)


def _played(game: str, rules: Any, boards: list[Board], seatings: list[list[str]],
            jobs: int) -> Iterator[tuple[Played, list[GameState]]]:
    """The deals played in order: here with their finished games, or in ``jobs`` worker
    processes (the games then replayed from their actions)."""
    tasks: list[DealTask] = [(game, rules, board, seatings) for board in boards]
    if jobs <= 1:
        yield from map(_deal, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        chunks = max(1, min(4, len(tasks) // (4 * jobs)))
        yield from ((played, []) for played in pool.map(play_deal, tasks, chunksize=chunks))
