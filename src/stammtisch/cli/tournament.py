"""``stammtisch tournament …``: Muckturnier commands."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from stammtisch.tournament.ranking import METHODS, RankRow, ResultsError, parse_results, rank

#: the column of the figure a method ranks by (bobbl ranks by the columns always shown)
FIGURE_COLUMN: dict[str, tuple[str, Callable[[RankRow], int]]] = {
    "plus": ("Plus", lambda r: r.plus),
    "plus-minus": ("Plus-Minus", lambda r: r.own - r.minus),
}



def _figure_text(method: str, value: int) -> str:
    return f"{value:+d}" if method == "plus-minus" and value else str(value)


tournament_app = typer.Typer(help="Muckturniere: ranking and the tournament manager.",
                             no_args_is_help=True,
                             rich_markup_mode=None)


@tournament_app.command("rank")
def rank_command(
    file: Path = typer.Argument(..., help="Results file (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array, best first."),
    method: str = typer.Option("bobbl", "--method",
                               help="bobbl (Bobbl → Tore → gegnerische Tore → Los), plus, "
                                    "plus-minus."),
) -> None:
    """Rank a results file.  Exits 1 with a message naming the bad entry on bad input.

    The table shows the figure the method ranks by: Bobbl, Tore, gegn. Tore (bobbl), a
    Plus column (plus) or a Plus-Minus column (plus-minus).

    JSON output: objects with rank, pair, bobbl (Bobbl won), tore (points in Bobbl
    lost), gegnerische_tore (opponents' points in Bobbl won), los (position among
    equal pairs decided by lot), names, played; with --method plus or plus-minus also
    plus and plus_minus.
    """
    if method not in METHODS:
        typer.echo(f"error: --method {method!r} (known: {', '.join(METHODS)})", err=True)
        raise typer.Exit(1)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        typer.echo(f"error: {file}: cannot read: {e.strerror or e}", err=True)
        raise typer.Exit(1) from None
    except json.JSONDecodeError as e:
        typer.echo(f"error: {file}: not JSON: {e}", err=True)
        raise typer.Exit(1) from None
    try:
        rows = rank(parse_results(data), method)  # type: ignore[arg-type]
    except ResultsError as e:
        typer.echo(f"error: {file}: {e}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps([r.to_json(method) for r in rows],  # type: ignore[arg-type]
                              ensure_ascii=False))
        return
    # the figure the method ranks by comes first after the names (for bobbl: Bobbl, Tore,
    # gegn. Tore, in that order)
    figure = FIGURE_COLUMN.get(method)
    table = Table(title=str(data.get("name") or "Rangliste"))
    for col in ("Rang", "Paar", "Namen", *([figure[0]] if figure else []),
                "Bobbl", "Tore", "gegn. Tore", "Los"):
        table.add_column(col, justify="left" if col in ("Paar", "Namen", "Los") else "right")
    for r in rows:
        extra = [_figure_text(method, figure[1](r))] if figure else []
        table.add_row(str(r.rank), r.pair, " / ".join(r.names), *extra, str(r.bobbl),
                      str(r.tore), str(r.gegnerische_tore), "Los" if r.los else "")
    Console().print(table)
