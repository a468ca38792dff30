"""``stammtisch arena``: two bots in duplicate deals of any game; the mean difference
per game with a 95% CI.

The judge is :func:`stammtisch.judging.run_arena` (every deal played with the seats of A
and B swapped on the same cards; ``--jobs`` worker processes); this module parses the
options and prints the game's report.
"""

from __future__ import annotations

import json
import sys

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from stammtisch.cli.extras import unknown_bot_text
from stammtisch.cli.simulate import parse_game, parse_rules, print_report
from stammtisch.games import registry
from stammtisch.judging import run_arena

__all__ = ["arena_command", "run_arena"]


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
        out = run_arena(a, b, deals, seed, table_rules, jobs=jobs, progress=progress,
                        game=game)
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
    else:
        print_report(out, game, arena=True)
