"""``stammtisch`` — the command line entry point.  Each command lives in its own module."""

from __future__ import annotations

import sys
from typing import Any

import typer

from stammtisch import __version__
from stammtisch.cli import analyze, arena, bench, play, replay, serve, simulate, tournament


class _App(typer.Typer):
    """The root app; a module missing at run time ends in one line naming the extra."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except ModuleNotFoundError as e:
            from stammtisch.cli.extras import missing_module_line

            print(missing_module_line(e.name or str(e)), file=sys.stderr)
            sys.exit(1)


app = _App(
    name="stammtisch",
    help="Wirtshaus card games: Mucken (and Muckturniere, Schafkopf, Mulatschak, Mus).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # plain click help: Rich markup mode would eat every "[...]" of the help texts
    # ("[default: 8000]", "[A, B]", "[low, high]") -- see tests/test_cli_help.py
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"stammtisch {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Wirtshaus card games."""


app.command("serve")(serve.serve_command)
app.command("replay")(replay.replay_command)
app.command("play")(play.play_command)
app.command("simulate")(simulate.simulate_command)
app.command("arena")(arena.arena_command)
app.command("analyze")(analyze.analyze_command)
app.add_typer(bench.bench_app, name="bench")
app.add_typer(tournament.tournament_app, name="tournament")

if __name__ == "__main__":  # pragma: no cover
    app()
