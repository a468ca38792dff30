"""Placeholder: ``stammtisch bench`` (being written)."""

from __future__ import annotations

import typer

bench_app = typer.Typer(help="Benchmarks.", no_args_is_help=True)


@bench_app.command("playout")
def playout() -> None:
    """Not yet written."""
    raise typer.Exit(2)
