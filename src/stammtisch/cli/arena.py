"""``stammtisch arena``: two bots in duplicate matches; the mean score difference with a 95% CI.

Every deal is played twice with the same cards and the same dealer: once with bot A in
pair 0 (seats 0 and 2) and B in pair 1, once with the seats swapped.  The cards are dealt
directly (no Abheben), so both games start from exactly the same hands; the bots of both
games draw from the same random stream.  Luck of the cards cancels out, and the
difference of the two games measures the bots.

Each side is a :class:`~stammtisch.games.mucken.match.MuckenMatch` (dealer rotation,
Einwerfen factors, the score sheet with its Bobbl): game ``i`` of both sides has dealer
``i mod 4``.  The deals (cards and bot seeds) are drawn in order from
``random.Random(SEED)``, so a run is reproducible, also with ``--jobs``: the games are
played in worker processes and then replayed through the matches in order.  (The bots
see the Einwerfen factor 1 while they play; the match books the game with its factor.)
"""

from __future__ import annotations

import importlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from stammtisch.bots.base import Bot
from stammtisch.cards import Card
from stammtisch.cli.extras import unknown_bot_text
from stammtisch.cli.simulate import parse_game, parse_rules
from stammtisch.engine.core import TERMINAL, Deal, GameState
from stammtisch.games import registry

__all__ = ["DealTask", "arena_command", "play_deal", "run_arena"]


@dataclass(frozen=True)
class DealTask:
    """One deal: its number, the hands (by seat), the dealer and the bots' seed."""

    number: int
    hands: tuple[tuple[str, ...], ...]
    dealer: int
    bot_seed: int


def draw_deals(seed: int, deals: int, rules: Any,
               game: str = registry.DEFAULT_GAME) -> Iterator[DealTask]:
    """The deals of a run, in order, from ``random.Random(seed)``."""
    master = random.Random(seed)
    deck = list(_new_state(game, rules, 0).deck)  # type: ignore[attr-defined]
    size = rules.hand_size
    for i in range(deals):
        order = list(deck)
        master.shuffle(order)
        hands = tuple(tuple(str(c) for c in order[s * size:(s + 1) * size]) for s in range(4))
        yield DealTask(i, hands, i % 4, master.getrandbits(64))


def _new_state(game: str, rules: Any, dealer: int) -> GameState:
    return registry.get(game).new_state(rules, dealer, None)


_BOTS: dict[str, Bot] = {}


def _bot(name: str, game: str = registry.DEFAULT_GAME) -> Bot:
    key = name if game == registry.DEFAULT_GAME else f"{game}:{name}"
    bot = _BOTS.get(key)
    if bot is None:
        bot = _BOTS[key] = registry.make_bot(game, name)
    return bot


def _play_game(rules: Any, task: DealTask, seating: Sequence[str],
               game: str = registry.DEFAULT_GAME) -> list[str]:
    state = _new_state(game, rules, task.dealer)
    state.apply(Deal(tuple(tuple(Card.parse(c) for c in h) for h in task.hands)))
    rng = random.Random(task.bot_seed)
    bots = [_bot(n, game) for n in seating]
    actions: list[str] = []
    while state.current_player != TERMINAL:
        seat = state.current_player
        action = bots[seat].choose(state, rng)
        state.apply(action)  # checked: a bot's illegal action is an error
        actions.append(str(action))
    return actions


def play_deal(args: tuple[Any, ...]) -> tuple[int, list[list[str]]]:
    """Both games of one deal (A in pair 0, then A in pair 1): the actions of each.

    ``args``: ``(rules, task, a, b)`` or ``(rules, task, a, b, game)``."""
    rules, task, a, b = args[:4]
    game = args[4] if len(args) > 4 else registry.DEFAULT_GAME
    first = _play_game(rules, task, [a, b, a, b], game)
    second = _play_game(rules, task, [b, a, b, a], game)
    return task.number, [first, second]


@dataclass
class _Side:
    """What one bot did over the run."""

    bot: str
    points: int = 0
    games_won: int = 0
    declarer_games: int = 0
    declarer_wins: int = 0
    kontra: int = 0

    def to_json(self, games: int) -> dict[str, Any]:
        return {"bot": self.bot, "points": self.points,
                "points_per_game": self.points / games if games else 0.0,
                "games_won": self.games_won, "declarer_games": self.declarer_games,
                "declarer_win_rate": (self.declarer_wins / self.declarer_games
                                      if self.declarer_games else None),
                "kontra": self.kontra}


def run_arena(
    bot_a: str,
    bot_b: str,
    deals: int,
    seed: int,
    rules: Any,
    *,
    jobs: int = 1,
    progress: Progress | None = None,
    game: str = registry.DEFAULT_GAME,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals of ``bot_a`` against ``bot_b``; JSON-ready figures
    (see :func:`arena_command`)."""
    if deals < 1:
        raise ValueError("deals must be at least 1")
    known = registry.bot_names(game)
    for name in (bot_a, bot_b):
        if name not in known:
            raise ValueError(f"unknown bot {name!r} (known: {', '.join(known)})")
    new_match = registry.get(game).new_match
    if new_match is None or not registry.get(game).pair_statistics:
        raise ValueError(f"{game}: arena needs a pair game with a match")
    started = time.perf_counter()
    tasks = list(draw_deals(seed, deals, rules, game))
    args = [(rules, t, bot_a, bot_b, game) for t in tasks]
    # side 0: A in pair 0; side 1: A in pair 1
    matches = [new_match(rules, 0), new_match(rules, 0)]
    sheets = [[matches[0].sheet], [matches[1].sheet]]
    stats = [_Side(bot_a), _Side(bot_b)]
    contracts: dict[str, int] = {}
    margins: list[float] = []
    task_id = progress.add_task("arena", total=deals) if progress is not None else None

    def book(number: int, actions_of_games: list[list[str]]) -> None:
        task = tasks[number]
        margin = 0
        for side, actions in enumerate(actions_of_games):
            m = matches[side]
            if m.is_over():  # a Hänger is decided: a new match, the dealer moves on
                m = matches[side] = new_match(rules, m.dealer)
                sheets[side].append(m.sheet)
            state = m.start_game()
            if state.dealer != task.dealer:  # pragma: no cover - the rotation is fixed
                raise RuntimeError("the dealers of the two sides differ")
            state.apply(Deal(tuple(tuple(Card.parse(c) for c in h) for h in task.hands)))
            for text in actions:
                state.apply(state.parse_action(text))
            m.finish_game()
            o = state.outcome
            assert o is not None
            contracts[state.contract] = contracts.get(state.contract, 0) + 1
            a_pair = side  # A sits in pair 0 on side 0, in pair 1 on side 1
            if o.winner is not None:
                who = 0 if o.winner == a_pair else 1
                stats[who].points += o.score
                stats[who].games_won += 1
                margin += o.score if who == 0 else -o.score
            if state.declarer is not None:
                who = 0 if state.declarer % 2 == a_pair else 1
                stats[who].declarer_games += 1
                if o.winner == state.declarer % 2:
                    stats[who].declarer_wins += 1
                if state.doubling_seats:
                    stats[0 if state.doubling_seats[0] % 2 == a_pair else 1].kontra += 1
        margins.append(margin / 2)
        if progress is not None and task_id is not None:
            progress.advance(task_id)

    if jobs <= 1:
        for a in args:
            book(*play_deal(a))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for number, played in pool.map(play_deal, args, chunksize=1):
                book(number, played)
    elapsed = time.perf_counter() - started

    bobbl = [0, 0]
    for side in (0, 1):
        for sheet in sheets[side]:
            won = sheet.bobbl_won()
            bobbl[0] += won[side]  # A's pair on this side
            bobbl[1] += won[1 - side]
    games = 2 * deals
    mean = statistics.fmean(margins)
    ci95: list[float] | None = None
    if len(margins) >= 2:
        half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
        ci95 = [mean - half, mean + half]
    return {
        "a": bot_a,
        "b": bot_b,
        "deals": deals,
        "games": games,
        "mean": mean,
        "ci95": ci95,
        "bobbl": bobbl,
        "seed": seed,
        "rules": rules.name,
        "points": [stats[0].points, stats[1].points],
        "stats": [stats[0].to_json(games), stats[1].to_json(games)],
        "contracts": dict(sorted(contracts.items(), key=lambda kv: (-kv[1], kv[0]))),
        "seconds": elapsed,
    }


def _parse_pair(text: str, game: str = registry.DEFAULT_GAME) -> tuple[str, str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) != 2:
        raise typer.BadParameter(f"{text!r}: give exactly two bots, e.g. pimc,heuristic",
                                 param_hint="--bots")
    known = registry.bot_names(game)
    for n in names:
        if n not in known:
            raise typer.BadParameter(unknown_bot_text(n, set(known)),
                                     param_hint="--bots")
    return names[0], names[1]


def _print_human(out: dict[str, Any], console: Console) -> None:
    a, b = out["stats"]
    ci = out["ci95"]
    ci_text = "n/a (one deal)" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"
    console.print(f"[bold]{out['a']} vs {out['b']}[/bold]: {out['deals']} deals, "
                  f"{out['games']} games (each deal with the seats swapped), rules "
                  f"{out['rules']}, seed {out['seed']}, {out['seconds']:.1f} s")
    for s in (a, b):
        rate = s["declarer_win_rate"]
        console.print(f"  {s['bot']}: {s['points']} points ({s['points_per_game']:.3f}/game), "
                      f"{s['games_won']} games won, declared {s['declarer_games']} "
                      f"(won {'-' if rate is None else f'{100 * rate:.1f}%'}), "
                      f"Kontra {s['kontra']}")
    console.print(f"  Bobbl: {out['a']} {out['bobbl'][0]}, {out['b']} {out['bobbl'][1]}")
    console.print(f"[bold]Mean difference {out['a']} − {out['b']}: {out['mean']:+.3f} points "
                  f"per game[/bold] (95% CI {ci_text})")


def arena_command(
    bots: str = typer.Option(..., "--bots", help="Two bots A,B, e.g. pimc,heuristic. Known "
                             "(Mucken): " + ", ".join(registry.bot_names("mucken")) + "."),
    game: str = typer.Option(registry.DEFAULT_GAME, "--game",
                             help="The game: " + ", ".join(registry.names()) + "."),
    deals: int = typer.Option(100, "--deals", "-n", min=1,
                              help="Deals to play (each twice: 2N games)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the deals and the bots."),
    rules: str | None = typer.Option(
        None, "--rules",
        help='Rules preset (Mucken: seefest, wikipedia; default: the game\'s default preset) '
             'or a JSON object {"preset": ..., option: value}.'),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1,
                             help="Worker processes (the result does not depend on it)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object (keys below)."),
) -> None:
    """Duplicate matches of bot A against bot B; mean score difference per game.

    Each deal is played twice with the same cards and dealer, A in pair 0 (seats 0+2)
    and then in pair 1.  The difference per game is A's credited points minus B's; its
    95% confidence interval treats each deal (two games) as one sample.

    JSON keys: a, b (bot names), deals, games, mean (A − B per game), ci95 ([lo, hi];
    null with one deal), bobbl ([won by A, won by B] from the MuckenMatch score sheets
    of both sides), seed, rules, points ([A, B]), stats (per bot: points,
    points_per_game, games_won, declarer_games, declarer_win_rate, kontra), contracts,
    seconds.
    """
    desc = parse_game(game, match=True)
    a, b = _parse_pair(bots, game)
    table_rules = parse_rules(rules or desc.default_preset, game)
    stderr = Console(stderr=True)
    with Progress(
        TextColumn(f"{a} vs {b}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=stderr, disable=as_json, transient=sys.stderr.isatty(),
    ) as progress:
        if desc.judge is not None:  # the game judges its own bots (Mulatschak, Mus)
            judge = importlib.import_module(desc.judge)
            out = judge.run_arena(a, b, deals, seed, table_rules, jobs=jobs,
                                  progress=progress, game=game)
            if not as_json:
                judge.print_arena(out, Console())
                return
        elif not desc.pair_statistics:  # scored per seat (Schafkopf): cents, no pairs
            from stammtisch.cli.seat_games import print_seat_arena, run_seat_arena

            out = run_seat_arena(a, b, deals, seed, table_rules, jobs=jobs,
                                 progress=progress, game=game)
            if not as_json:
                print_seat_arena(out, Console())
                return
        else:
            out = run_arena(a, b, deals, seed, table_rules, jobs=jobs, progress=progress,
                            game=game)
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
    else:
        _print_human(out, Console())
