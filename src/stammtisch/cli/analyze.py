"""``stammtisch analyze RECORD.json [--json]``: every card of a game judged double-dummy.

The record is replayed with every check; each card played is compared with the best
card(s) in the same position with all hands open (a post-game analysis: everyone's
cards are known now).  See :mod:`stammtisch.games.mucken.analysis`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from stammtisch.cli.replay import game_of
from stammtisch.errors import StammtischError
from stammtisch.games import registry
from stammtisch.games.base.analysis import AnalysisHooks

__all__ = ["analyze_command"]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _read(path: Path) -> str:
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise _fail(f"{path}: cannot read: {e.strerror or e}") from None


def _headline(state: Any, ref: int) -> str:
    r = state.result()
    assert r is not None
    who = "" if state.declarer is None else f" von Platz/seat {state.declarer}"
    kontra = " mit Kontra" if state.doublings else ""
    winner = ("nicht gewertet / not scored" if r["winner"] is None
              else f"Paar/pair {r['winner']} +{r['score']}")
    return (f"{state.contract}{who}{kontra}: Augen {r['augen'][0]}:{r['augen'][1]}, "
            f"{winner}.  Werte/values: Augen of pair {ref} (seats {ref}+{ref + 2})"
            + (", a Ramsch: fewer is better for that pair" if state.contract == "ramsch"
               else ""))


def _print_human(state: Any, plays: list[Any], console: Console,
                 analysis: AnalysisHooks[Any, Any]) -> None:
    ref = analysis.reference_pair(state)
    own_headline = analysis.headline  # a game's own words (Schafkopf, Mulatschak)
    console.print(own_headline(state) if own_headline else _headline(state, ref))
    if not plays:
        console.print("Keine Karten gespielt / no cards were played.")
        return
    t = Table(title_justify="left")
    for col in ("#", "Stich", "Platz", "Karte", "vorher", "nachher", "Verlust", "besser", ""):
        t.add_column(col, justify="left" if col in ("Karte", "besser", "") else "right")
    for p in plays:
        better = " ".join(p.best) if p.loss else ""
        mark = "Spiel!" if p.cost_game else ""
        style = "bold red" if p.cost_game else ("yellow" if p.loss else None)
        t.add_row(str(p.index), str(p.trick), str(p.seat), p.card, str(p.value_before),
                  str(p.value_after), str(p.loss) if p.loss else "", better, mark, style=style)
    console.print(t)
    console.print("Stich = trick, Platz = seat, Karte = card played, vorher/nachher = value "
                  "before/after it, Verlust = Augen it lost, besser = the better card(s), "
                  "Spiel! = this card lost the game (the winner flips).")
    own_summary = analysis.summary
    if own_summary is not None:
        console.print(own_summary(state, plays))
        return
    lost = [0, 0]
    for p in plays:
        lost[p.seat % 2] += p.loss
    flips = sum(1 for p in plays if p.cost_game)
    console.print(f"Augen verschenkt / lost: pair 0 {lost[0]}, pair 1 {lost[1]}; "
                  f"{flips} card(s) flipped the game.")


def analyze_command(
    record: Path = typer.Argument(..., help="A game record (JSON; '-' reads stdin).",
                                  show_default=False),
    as_json: bool = typer.Option(False, "--json",
                                 help="Print a JSON list, one object per card played."),
    game: str = typer.Option(registry.DEFAULT_GAME, "--game",
                             help="The game of a record without a 'game' key: "
                                  + ", ".join(registry.names()) + "."),
) -> None:
    """Judge every card of a game with all hands open (double-dummy).

    For each card: the value of the position before and after it (the final Augen of
    the declarer pair — pair 0 in a Pflichtmuck or Ramsch — with best play by all from
    there), the Augen it cost its own pair, the better card(s), and whether it cost the
    game (the winner flips).

    JSON: a list of {index, seat, card, trick, value_before, value_after, loss, best,
    cost_game}.  Exit code 2 for a file that cannot be read or replayed.
    """
    text = _read(record)
    try:
        desc = registry.get(game_of(text, game))
        if desc.analysis is None:
            raise StammtischError(f"{desc.name}: no double-dummy analysis")
        state = desc.replay_state(text)
    except StammtischError as e:
        raise _fail(f"{record}: {e}") from None
    analysis = desc.analysis()
    plays = list(analysis.analyze(state))
    if as_json:
        typer.echo(json.dumps([p.to_json() for p in plays], ensure_ascii=False))
    else:
        _print_human(state, plays, Console(), analysis)
