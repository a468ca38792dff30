"""``stammtisch bench``: benchmarks (a typer sub-app; one command per benchmark).

``stammtisch bench playout`` plays random legal Mucken games — shuffle, Abheben,
Ansagen, Kontra, the tricks, the score — first through the public API (a
:class:`~stammtisch.games.mucken.state.MuckenState` driven by ``legal_actions()``
and the checked ``apply()``, as :func:`stammtisch.engine.core.play_random`
does) and through the unchecked fast path
:func:`stammtisch.games.mucken.fastplay.fast_random_playout`, each for the
given number of seconds on one core (in alternating slices), and reports games
and card plays per second.  Both make the same random choices from the same seed, so they play the
same games; the fast path only skips the checks and the object bookkeeping.
"""

from __future__ import annotations

import os
import platform
import random
from typing import Any

import typer

from stammtisch.cards import Card
from stammtisch.cli.meter import Meter, measure
from stammtisch.cli.output import json_line
from stammtisch.engine.core import play_random
from stammtisch.errors import StammtischError
from stammtisch.games import registry

bench_app = typer.Typer(help="Benchmarks.", no_args_is_help=True, rich_markup_mode=None)


def api_playout(rules: Any, dealer: int, rng: random.Random,
                game: str = registry.DEFAULT_GAME) -> int:
    """One random game through the checked public API; its number of card plays."""
    state = registry.get(game).new_state(rules, dealer, None)
    play_random(state, rng, checked=True)
    return sum(1 for _, a in getattr(state, "history", []) if isinstance(a, Card))


def fast_playout(rules: Any, dealer: int, rng: random.Random,
                 game: str = registry.DEFAULT_GAME) -> int:
    """One random game through the game's fast path; its number of card plays."""
    fast = registry.get(game).fast_playout
    if fast is None:
        raise StammtischError(f"{game}: no fast path")
    return fast(rules, dealer, rng)


def run_playout_bench(rules: Any, seconds: float, seed: int = 0,
                      game: str = registry.DEFAULT_GAME) -> dict[str, Any]:
    """Both measurements, as the JSON of ``stammtisch bench playout --json``.

    Each path runs ``seconds`` in total, in alternating slices of about half a second
    (API, fast, API, fast ...), so that other load on the machine hits both alike.
    """
    desc = registry.get(game)
    if desc.fast_playout is None or desc.prepare_fast_playout is None:
        raise StammtischError(f"{game}: no fast path to compare with")
    desc.prepare_fast_playout(rules)  # build the tables outside the measured time

    def api_path(r: Any, dealer: int, rng: random.Random) -> int:
        return api_playout(r, dealer, rng, game)

    fast_path = desc.fast_playout
    warm = min(0.2, seconds / 10)
    measure(api_path, rules, warm, seed)
    measure(fast_path, rules, warm, seed)
    api = Meter(api_path, rules, seed)
    fast = Meter(fast_path, rules, seed)
    slices = max(1, min(20, round(seconds / 0.5)))
    for _ in range(slices):
        api.run(seconds / slices)
        fast.run(seconds / slices)
    a, f = api.figures(), fast.figures()
    return {
        "api_card_plays_per_s": a["card_plays_per_s"],
        "fast_card_plays_per_s": f["card_plays_per_s"],
        "api_games_per_s": a["games_per_s"],
        "fast_games_per_s": f["games_per_s"],
        "speedup": f["card_plays_per_s"] / a["card_plays_per_s"],
        "api_card_plays_per_cpu_s": a["card_plays_per_cpu_s"],
        "fast_card_plays_per_cpu_s": f["card_plays_per_cpu_s"],
        "api_games": a["games"],
        "fast_games": f["games"],
        "api_card_plays": a["card_plays"],
        "fast_card_plays": f["card_plays"],
        "seconds": seconds,
        "slices": slices,
        "rules": rules.name,
        "seed": seed,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores",
    }


@bench_app.command("playout")
def playout(
    game: str = typer.Option(registry.DEFAULT_GAME, "--game",
                             help="The game: " + ", ".join(registry.names()) + "."),
    seconds: float = typer.Option(5.0, "--seconds", "-t", min=0.01,
                                  help="Seconds for each of the two measurements."),
    rules: str | None = typer.Option(None, "--rules", help="Rules preset (Mucken: seefest, "
                                     "wikipedia; default: the game's default preset)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the random play-outs."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object (one line)."),
) -> None:
    """Random legal play-outs of whole games: checked public API vs. the fast path.

    Each path runs SECONDS in total, in alternating slices of about 0.5 s, so that
    other load on the machine affects both alike.

    JSON keys: api_card_plays_per_s, fast_card_plays_per_s, api_games_per_s,
    fast_games_per_s (wall clock), speedup (fast/API card plays),
    api_card_plays_per_cpu_s, fast_card_plays_per_cpu_s (per second of this
    process's CPU time), api_games, fast_games, api_card_plays, fast_card_plays,
    seconds (per path), slices, rules, seed, python, machine.
    """
    try:
        desc = registry.get(game)
    except StammtischError as e:
        raise typer.BadParameter(str(e), param_hint="--game") from None
    if desc.fast_playout is None:
        raise typer.BadParameter(f"{game}: no fast path to compare with", param_hint="--game")
    try:
        table_rules = desc.make_rules(rules or desc.default_preset)
    except StammtischError as e:
        raise typer.BadParameter(str(e), param_hint="--rules") from None
    if not as_json:
        typer.echo(f"{desc.title['en']} play-outs ({table_rules.name}), {seconds:g} s each: "
                   "public API "
                   "(legal_actions + checked apply) and fast path, in alternating slices ...",
                   err=True)
    out = run_playout_bench(table_rules, seconds, seed, game)
    if as_json:
        typer.echo(json_line(out))
        return
    typer.echo(f"{'':10}{'games/s':>12}{'card plays/s':>16}")
    typer.echo(f"{'API':10}{out['api_games_per_s']:>12,.0f}{out['api_card_plays_per_s']:>16,.0f}")
    typer.echo(f"{'fast path':10}{out['fast_games_per_s']:>12,.0f}"
               f"{out['fast_card_plays_per_s']:>16,.0f}")
    typer.echo(f"fast path / API: {out['speedup']:.1f}x   ({out['python']}; {out['machine']})")
    typer.echo(f"per CPU second: API {out['api_card_plays_per_cpu_s']:,.0f}, fast path "
               f"{out['fast_card_plays_per_cpu_s']:,.0f} card plays")


def _register_more() -> None:
    """The other benchmarks live in their own modules (each imports its heavy parts lazily)."""
    from stammtisch.cli import bench_compare, bench_server, bench_solver

    bench_app.command("server")(bench_server.server_command)
    bench_app.command("solver")(bench_solver.solver_command)
    bench_app.command("compare")(bench_compare.compare_command)


_register_more()
