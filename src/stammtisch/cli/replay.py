"""``stammtisch replay [--json] FILE...``: check game records and print their results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from stammtisch.cli.output import json_line
from stammtisch.errors import StammtischError
from stammtisch.games.mucken.record import replay, summary
from stammtisch.games.schafkopf.record import replay_record


def replay_one(path: Path) -> dict[str, Any]:
    """Replay one record file; the summary, or ``{"error": ...}``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        return {"error": f"{path}: cannot read: {e.strerror or e}"}
    try:
        data = json.loads(text)
    except ValueError:
        data = None  # the Mucken reader names the JSON error
    game = data.get("game", "mucken") if isinstance(data, dict) else "mucken"
    try:
        if game == "schafkopf":
            return replay_record(data)
        if game != "mucken":
            return {"error": f"game: {game!r} is not a game this replay knows "
                             "(mucken, schafkopf)"}
        state = replay(text)
    except StammtischError as e:
        return {"error": str(e)}
    return summary(state)


def _human(path: Path, out: dict[str, Any]) -> str:
    if "error" in out:
        error = out["error"].removeprefix(f"{path}: ")  # the line names the file already
        return f"{path}: ERROR {error}"
    if "payments" in out:  # Schafkopf
        who = "-" if out["declarer"] is None else f"seat {out['declarer']}"
        return (f"{path}: {out['contract']} ({who}); Augen "
                + ":".join(str(a) for a in out["augen"]) + f"; {out['winner'] or '-'}; "
                + "payments " + " ".join(f"{p:+d}" for p in out["payments"]))
    who = "-" if out["declarer"] is None else f"seat {out['declarer']}"
    winner = "not scored" if out["winner"] is None else f"pair {out['winner']} +{out['score']}"
    kontra = " Kontra" if out["kontra"] else ""
    return (f"{path}: {out['contract']} ({who}){kontra}; Augen {out['augen'][0]}:"
            f"{out['augen'][1]}, Stiche {out['tricks'][0]}:{out['tricks'][1]}; {winner}")


def replay_command(
    files: list[Path] = typer.Argument(..., help="Game record files (JSON).", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line."),
) -> None:
    """Check each game record against its rules; print one line per file, in order.

    Exits 1 if any record is invalid (after printing a line for every file).
    """
    failed = False
    for path in files:
        out = replay_one(path)
        failed |= "error" in out
        if as_json:
            typer.echo(json_line(out))
        else:
            typer.echo(_human(path, out))
    if failed:
        raise typer.Exit(1)
