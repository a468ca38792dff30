"""Placeholder: `stammtisch play` (being written)."""

from __future__ import annotations

import typer


def play_command() -> None:
    """Not yet written."""
    raise typer.Exit(2)
