"""``stammtisch simulate``: bots play many Mucken games; statistics of the result.

Every deal is played at two tables (:class:`~stammtisch.games.mucken.match.MuckenMatch`,
each with its own dealer rotation and score sheet) with the bots' seats swapped:
at table A the first lineup sits in pair 0 (seats 0 and 2), at table B in
pair 1.  Both tables get the same shuffle, drawn from ``random.Random(SEED)``,
and the bots of one deal draw from the same random stream at both tables, so
bots that cut uniformly at random (random, heuristic) cut alike and both lineups
hold exactly the same cards.  The margin of one lineup over the other is
therefore measured on equal cards; its 95% confidence interval treats each deal
(two games) as one sample.
"""

from __future__ import annotations

import importlib
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from stammtisch.bots.base import Bot
from stammtisch.cli.extras import unknown_bot_text
from stammtisch.cli.output import plural, rate
from stammtisch.engine.core import CHANCE, TERMINAL, GameState, Rng
from stammtisch.errors import StammtischError
from stammtisch.games import registry

DEFAULT_BOTS = "heuristic,random"


@dataclass
class LineupStats:
    """What one lineup (the bots of one pair) did over all games."""

    bots: list[str]
    points: int = 0
    games_won: int = 0
    bobbl: int = 0
    declarer_games: int = 0
    declarer_wins: int = 0
    kontra: int = 0

    def to_json(self, games: int) -> dict[str, Any]:
        return {
            "bots": self.bots,
            "points": self.points,
            "points_per_game": self.points / games if games else 0.0,
            "games_won": self.games_won,
            "bobbl": self.bobbl,
            "declarer_games": self.declarer_games,
            "declarer_win_rate": _rate(self.declarer_wins, self.declarer_games),
            "kontra": self.kontra,
        }


class SimTable:
    """One table: its seating (bot name per seat), its bots, its match and score sheets."""

    def __init__(self, seating: list[str], lineup_of_pair: tuple[int, int],
                 rules: Any, game: str = registry.DEFAULT_GAME) -> None:
        self.seating = seating
        #: the lineup (0: the first named) sitting in pair 0 and in pair 1
        self.lineup_of_pair = lineup_of_pair
        self.rules = rules
        self.bots: list[Bot] = [registry.make_bot(game, n) for n in seating]
        new_match = registry.get(game).new_match
        if new_match is None or not registry.get(game).pair_statistics:
            raise StammtischError(f"{game}: simulate needs a pair game with a match")
        self.new_match = new_match
        self.match = new_match(rules, 0)
        self.sheets: list[Any] = [self.match.sheet]

    def next_game(self) -> Any:
        m = self.match
        if m.is_over():  # Hänger: best of three Bobbl done; a new match, the dealer moves on
            m = self.match = self.new_match(self.rules, m.dealer)
            self.sheets.append(m.sheet)
        return m.start_game()

    def bobbl_won(self) -> list[int]:
        won = [0, 0]
        for sheet in self.sheets:
            b = sheet.bobbl_won()
            won[0] += b[0]
            won[1] += b[1]
        return won


def _rate(wins: int, games: int) -> float | None:
    return wins / games if games else None


def _parse_bots(text: str, game: str = registry.DEFAULT_GAME) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    known = registry.bot_names(game)
    for n in names:
        if n not in known:
            raise typer.BadParameter(
                unknown_bot_text(n, set(known)), param_hint="--bots")
    if len(names) not in (2, 4):
        raise typer.BadParameter(
            f"{text!r}: give two bots (one per pair) or four (one per seat), e.g. "
            f"{DEFAULT_BOTS}", param_hint="--bots")
    return names


def parse_game(game: str, *, match: bool = False) -> registry.GameDescription:
    """The registry's description of ``game``; a bad name (or, with ``match``, a game
    without a match to play) is a ``--game`` error."""
    try:
        desc = registry.get(game)
    except StammtischError as e:
        raise typer.BadParameter(str(e), param_hint="--game") from None
    if match and desc.new_match is None:
        raise typer.BadParameter(
            f"{game}: simulate and arena need a match (dealer rotation, score sheet); "
            "not this one yet", param_hint="--game")
    return desc


def parse_rules(text: str, game: str = registry.DEFAULT_GAME) -> Any:
    """A preset name, or a JSON object ``{"preset": ..., <option>: value}``."""
    desc = parse_game(game)
    try:
        if text.lstrip().startswith("{"):
            return desc.rules_class.from_json(json.loads(text))
        return desc.make_rules(text)
    except (StammtischError, json.JSONDecodeError) as e:
        raise typer.BadParameter(str(e), param_hint="--rules") from None


def _play(state: GameState, bots: list[Bot], rng: Rng) -> None:
    while True:
        player = state.current_player
        if player == TERMINAL:
            return
        if player == CHANCE:  # pragma: no cover - the shuffle is applied before
            raise RuntimeError("unexpected chance node")
        state.apply(bots[player].choose(state, rng))


def run_simulation(
    games: int,
    seed: int,
    bot_names: list[str],
    rules: Any,
    progress: Progress | None = None,
    game: str = registry.DEFAULT_GAME,
) -> dict[str, Any]:
    """Play ``games`` games; the statistics as JSON-ready data (see the command help)."""
    if len(bot_names) == 2:
        a, b = bot_names
        seat_a = [a, b, a, b]
    else:
        seat_a = list(bot_names)
    seat_b = [seat_a[s ^ 1] for s in range(4)]
    tables = [SimTable(seat_a, (0, 1), rules, game), SimTable(seat_b, (1, 0), rules, game)]
    lineups = [LineupStats([seat_a[0], seat_a[2]]), LineupStats([seat_a[1], seat_a[3]])]
    master = random.Random(seed)
    contracts: Counter[str] = Counter()
    points = [0, 0]
    decl_games = decl_wins = 0
    score_total = 0
    deal_margins: list[float] = []
    played = 0
    task = progress.add_task("simulate", total=games) if progress is not None else None
    started = time.perf_counter()
    while played < games:
        shuffle = None
        bot_seed = 0
        margin = 0
        in_deal = 0
        for table in tables:
            if played >= games:
                break
            state = table.next_game()
            if shuffle is None:
                shuffle = state.sample_chance(master)
                bot_seed = master.getrandbits(64)
            state.apply(shuffle)
            _play(state, table.bots, random.Random(bot_seed))
            table.match.finish_game()
            played += 1
            in_deal += 1
            # statistics of this game
            o = state.outcome
            assert o is not None
            contracts[state.contract] += 1
            score_total += o.score
            if o.winner is not None:
                points[o.winner] += o.score
                lw = table.lineup_of_pair[o.winner]
                lineups[lw].points += o.score
                lineups[lw].games_won += 1
                margin += o.score if lw == 0 else -o.score
            declarer = state.declarer
            if declarer is not None:
                decl_games += 1
                ld = table.lineup_of_pair[declarer % 2]
                lineups[ld].declarer_games += 1
                if o.winner == declarer % 2:
                    decl_wins += 1
                    lineups[ld].declarer_wins += 1
                if state.doubling_seats:
                    lineups[table.lineup_of_pair[state.doubling_seats[0] % 2]].kontra += 1
            if progress is not None and task is not None:
                progress.advance(task)
        deal_margins.append(margin / in_deal)
    elapsed = time.perf_counter() - started

    bobbl = [0, 0]
    for table in tables:
        won = table.bobbl_won()
        for pair in (0, 1):
            bobbl[pair] += won[pair]
            lineups[table.lineup_of_pair[pair]].bobbl += won[pair]
    margin_mean = (lineups[0].points - lineups[1].points) / games
    ci95: list[float] | None = None
    if len(deal_margins) >= 2:
        half = 1.96 * statistics.stdev(deal_margins) / math.sqrt(len(deal_margins))
        ci95 = [margin_mean - half, margin_mean + half]
    return {
        "games": games,
        "deals": len(deal_margins),
        "seed": seed,
        "rules": rules.name,
        "bots": seat_a,
        "seatings": [seat_a, seat_b],
        "contracts": dict(sorted(contracts.items(), key=lambda kv: (-kv[1], kv[0]))),
        "declarer_games": decl_games,
        "declarer_win_rate": _rate(decl_wins, decl_games),
        "average_score": score_total / games,
        "points": points,
        "bobbl": bobbl,
        "lineups": [lu.to_json(games) for lu in lineups],
        "margin": margin_mean,
        "ci95": ci95,
        "seconds": elapsed,
        "games_per_s": games / elapsed if elapsed > 0 else None,
    }


def _fmt_rate(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _lineup_name(bots: list[str]) -> str:
    return bots[0] if bots[0] == bots[1] else "+".join(bots)


def _print_human(out: dict[str, Any], console: Console) -> None:
    a, b = out["lineups"]
    console.print(
        f"[bold]{out['games']} {plural(out['games'], 'game')}[/bold] ({out['deals']} "
        f"{plural(out['deals'], 'deal')}, each at two tables with the seats swapped), rules "
        f"{out['rules']}, seed {out['seed']}, {rate(out['games_per_s'], 'game')}")
    console.print(f"Seats (table A): {', '.join(f'{s}={n}' for s, n in enumerate(out['bots']))}")
    t = Table(title="Games called", title_justify="left")
    t.add_column("contract")
    t.add_column("games", justify="right")
    t.add_column("share", justify="right")
    for name, n in out["contracts"].items():
        t.add_row(name, str(n), f"{100 * n / out['games']:.1f}%")
    console.print(t)
    console.print(
        f"Declarer win rate: {_fmt_rate(out['declarer_win_rate'])} "
        f"of {out['declarer_games']} announced games; average score {out['average_score']:.2f} "
        f"points per game")
    console.print(
        f"Points by seats: pair 0 (seats 0+2) {out['points'][0]}, pair 1 (seats 1+3) "
        f"{out['points'][1]}; Bobbl won: pair 0 {out['bobbl'][0]}, pair 1 {out['bobbl'][1]}")
    t = Table(title="Lineups", title_justify="left")
    for col in ("lineup", "points", "pts/game", "won", "Bobbl", "declared", "decl. won",
                "Kontra"):
        t.add_column(col, justify="left" if col == "lineup" else "right")
    for lu in (a, b):
        t.add_row(_lineup_name(lu["bots"]), str(lu["points"]), f"{lu['points_per_game']:.3f}",
                  str(lu["games_won"]), str(lu["bobbl"]), str(lu["declarer_games"]),
                  _fmt_rate(lu["declarer_win_rate"]), str(lu["kontra"]))
    console.print(t)
    ci = out["ci95"]
    ci_text = "n/a" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"
    console.print(
        f"[bold]Margin {_lineup_name(a['bots'])} over {_lineup_name(b['bots'])}: "
        f"{out['margin']:+.3f} points per game[/bold] (95% CI {ci_text})")


def simulate_command(
    game: str = typer.Option(registry.DEFAULT_GAME, "--game",
                             help="The game: " + ", ".join(registry.names()) + "."),
    games: int = typer.Option(1000, "--games", "-n", min=1, help="Number of games to play."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the shuffles and the bots."),
    bots: str = typer.Option(
        DEFAULT_BOTS, "--bots",
        help="Two bots (pair 0 = seats 0+2, pair 1 = seats 1+3) or four (seat 0..3), "
             "comma-separated. Known (Mucken): " + ", ".join(registry.bot_names("mucken")) + "."),
    rules: str | None = typer.Option(
        None, "--rules",
        help='Rules preset (Mucken: seefest, wikipedia; default: the game\'s default preset) '
             'or a JSON object {"preset": ..., option: value}.'),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object (keys below)."),
) -> None:
    """Let bots play GAMES games of Mucken and print statistics.

    Each deal is played twice, at two tables with the pairs' seats swapped
    (same shuffle, same cut by bots that cut at random), so the margin compares
    the lineups on the same cards.  A table is a MuckenMatch: the dealer moves
    on, Einwerfen factors and the score sheet (Bobbl) carry over.

    JSON keys: games, deals, seed, rules, bots (bot per seat at table A),
    seatings (table A and B), contracts (name -> games, incl. pflichtmuck,
    ramsch, eingeworfen), declarer_games, declarer_win_rate (share of the
    announced games won by the declarer pair; null if none), average_score
    (points credited per game), points (pair 0, pair 1 by seats, both tables
    added), bobbl (Bobbl won by pair 0, by pair 1, from the score sheets),
    lineups (per lineup: bots, points, points_per_game, games_won, bobbl,
    declarer_games, declarer_win_rate, kontra), margin (points per game of
    the first lineup over the second), ci95 (low and high end of the margin's
    95% confidence interval; null below two deals), seconds, games_per_s.
    """
    desc = parse_game(game, match=True)
    names = _parse_bots(bots, game)
    table_rules = parse_rules(rules or desc.default_preset, game)
    stderr = Console(stderr=True)
    show = not as_json and sys.stderr.isatty()
    with Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=stderr, disable=not show, transient=True,
    ) as progress:
        if desc.judge is not None:  # the game judges its own bots (Mulatschak, Mus)
            judge = importlib.import_module(desc.judge)
            out = judge.run_simulation(games, seed, names, table_rules, progress, game)
            if not as_json:
                judge.print_simulation(out, Console())
                return
        elif not desc.pair_statistics:  # scored per seat (Schafkopf): cents, no pairs
            from stammtisch.cli.seat_games import print_seat_simulation, run_seat_simulation

            out = run_seat_simulation(games, seed, names, table_rules, progress, game)
            if not as_json:
                print_seat_simulation(out, Console())
                return
        else:
            out = run_simulation(games, seed, names, table_rules, progress, game)
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
    else:
        _print_human(out, Console())
