"""``stammtisch simulate``: bots play many games of any game; statistics of the result.

The judge is :func:`stammtisch.judging.run_simulation` (every deal at two tables with the
lineups' seats swapped, each a match of the game); this module parses the options and
prints the game's report (its plug-in's ``statistics``).  :func:`parse_game`,
:func:`parse_rules` and :func:`print_report` serve ``arena`` too.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from stammtisch.cli.extras import unknown_bot_text
from stammtisch.cli.output import rate
from stammtisch.errors import StammtischError
from stammtisch.games import registry
from stammtisch.judging import run_simulation

__all__ = ["parse_game", "parse_rules", "print_report", "run_simulation", "simulate_command"]

DEFAULT_BOTS = "heuristic,random"


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
    if match and (desc.new_match is None or desc.statistics is None):
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


def print_report(out: Mapping[str, Any], game: str, *, arena: bool) -> None:
    """The text of a run of ``simulate`` or ``arena`` (the game's own words)."""
    statistics = registry.get(game).statistics
    assert statistics is not None
    statistics.print_report(out, Console(), rate, arena)


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
        out = run_simulation(games, seed, names, table_rules, progress, game)
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
    else:
        print_report(out, game, arena=False)
