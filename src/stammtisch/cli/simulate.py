"""Placeholder: `stammtisch simulate` (being written)."""

from __future__ import annotations

import typer


def simulate_command() -> None:
    """Not yet written."""
    raise typer.Exit(2)
