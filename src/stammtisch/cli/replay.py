"""``stammtisch replay [--json] FILE...``: check game records and print their results.

Each record names its game (``"game": "mucken"``); the registry's description of that
game loads and replays it.  A record without the key is read as ``--game`` (default
``mucken``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from stammtisch.cli.output import json_line
from stammtisch.errors import RecordError, StammtischError
from stammtisch.games import registry


def game_of(text: str, default: str = registry.DEFAULT_GAME) -> str:
    """The ``game`` key of a record (``default`` without one, or if the text is not JSON:
    the game's own loader then reports the problem)."""
    try:
        data = json.loads(text)
    except ValueError:
        return default
    if isinstance(data, dict) and "game" in data:
        game = data["game"]
        if not isinstance(game, str):
            raise RecordError(f"game: {game!r} is not a game name")
        return game
    return default


def replay_one(path: Path, default_game: str = registry.DEFAULT_GAME) -> dict[str, Any]:
    """Replay one record file; the summary, or ``{"error": ...}``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        return {"error": f"{path}: cannot read: {e.strerror or e}"}
    try:
        desc = registry.get(game_of(text, default_game))
        return desc.replay_record(text)
    except StammtischError as e:
        return {"error": str(e)}


def _human(path: Path, out: dict[str, Any], default_game: str) -> str:
    if "error" in out:
        error = out["error"].removeprefix(f"{path}: ")  # the line names the file already
        return f"{path}: ERROR {error}"
    text = path.read_text(encoding="utf-8")
    return f"{path}: {registry.get(game_of(text, default_game)).describe_result(out)}"


def replay_command(
    files: list[Path] = typer.Argument(..., help="Game record files (JSON).", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line."),
    game: str = typer.Option(registry.DEFAULT_GAME, "--game",
                             help="The game of records without a 'game' key: "
                                  + ", ".join(registry.names()) + "."),
) -> None:
    """Check each game record against its rules; print one line per file, in order.

    The record's "game" key chooses the game.  Exits 1 if any record is invalid (after
    printing a line for every file).
    """
    try:
        registry.get(game)
    except StammtischError as e:
        raise typer.BadParameter(str(e), param_hint="--game") from None
    failed = False
    for path in files:
        out = replay_one(path, game)
        failed |= "error" in out
        if as_json:
            typer.echo(json_line(out))
        else:
            typer.echo(_human(path, out, game))
    if failed:
        raise typer.Exit(1)
