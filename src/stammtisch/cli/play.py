"""``stammtisch play [--game G]``: a session of a game in the terminal.

The session loop is written once (:class:`stammtisch.cli.play_session.PlaySession`); what
is the game's own comes from its presenter (``GamePlugin.presenter``: ``parse_rules(preset,
options)``, ``parse_humans(text)``, its texts and prompts).  This command parses the
options and runs the session.

``--players N`` is for games of varying seats (the description's ``seats`` range, e.g.
Mulatschak 2–6): the session gets ``players=N``.  A game of fixed seats takes only its
own number; any other is a one-line error (exit 2).  ``--hotseat``, ``--humans`` and
``--first-dealer`` are checked against the number of seats.
"""

from __future__ import annotations

import random
import sys

import typer
from rich.console import Console

from stammtisch.cli.extras import unknown_bot_text
from stammtisch.cli.play_session import PlaySession, default_bot_name, presenter_of, stdin_reader
from stammtisch.engine.core import Rng
from stammtisch.errors import StammtischError
from stammtisch.games import registry
from stammtisch.i18n import LANGUAGES, Translator, default_language


def _fail(message: str, t: Translator) -> typer.Exit:
    typer.echo(t("play.error", message=message), err=True)
    return typer.Exit(2)


def play_command(
    game: str = typer.Option(registry.DEFAULT_GAME, "--game",
                             help="The game: " + ", ".join(registry.names()) + "."),
    rules: str | None = typer.Option(
        None, "--rules", help="Rules preset (Mucken: seefest or wikipedia; default: the "
                              "game's default preset)."),
    option: list[str] = typer.Option(
        [], "--option", "-o", metavar="KEY=VALUE",
        help="Change a rules option, e.g. -o bobbl_target=31 -o klopfen=true "
             "-o games=muck,wenz,geier (repeatable)."),
    bots: str | None = typer.Option(
        None, "--bots", help="Bot for the other seats (default: the game's default bot, "
                             "for Mucken the heuristic)."),
    seed: int | None = typer.Option(None, "--seed", help="Seed shuffling and bots "
                                                        "(reproducible sessions)."),
    bobbl: int = typer.Option(2, "--bobbl", min=0, help="Stop after N Bobbl (0: no limit)."),
    first_dealer: int | None = typer.Option(
        None, "--first-dealer", min=0, max=5,
        help="Seat of the first dealer (0-3; Mulatschak 0 to players-1); default: "
             "Auskarten (Mucken), seat 0 (the others)."),
    players: int | None = typer.Option(
        None, "--players", metavar="N",
        help="Number of players for games of varying seats (Mulatschak: 2-6, default 4); "
             "the four-seat games take only 4."),
    hotseat: bool = typer.Option(False, "--hotseat", help="All seats are human "
                                                           "(one terminal, taking turns)."),
    humans: str | None = typer.Option(
        None, "--humans", help="Human seats, e.g. 0,2 (0 = you; clockwise; 2 = partner)."),
    lang: str | None = typer.Option(
        None, "--lang", metavar="de|en",
        help="Language of the session: de or en [default: de if LC_ALL, LC_MESSAGES or "
             "LANG (the first set) starts with 'de', else en]. Game terms stay German."),
) -> None:
    """Play in the terminal (Mucken: you at seat 0 and a bot partner against two bots;
    Mulatschak: you against bots, --players 2-6).

    Enter cards as EO, h10, … or their number; calls as weiter, muck, kontra, gut …;
    at the cut a number of cards, Enter (default), geben or klopfen.  Commands:
    '?' help, 'l' last trick, 'z' score sheet, 'q' quit.  Works with piped input
    (one answer per line; the session ends cleanly at the end of input).
    """
    language = (lang or default_language()).strip().lower()
    if language not in LANGUAGES:
        raise typer.BadParameter(f"{lang!r}: choose de or en", param_hint="--lang")
    t = Translator(language)
    try:
        desc = registry.get(game)
        presenter = presenter_of(desc)
    except StammtischError as e:
        raise typer.BadParameter(str(e), param_hint="--game") from None
    low, high = desc.seats
    count = low if low == high else 4
    if players is not None:
        if low == high and players != low:
            raise _fail(t("play.players_fixed", n=players, game=game, seats=low), t)
        if not low <= players <= high:
            raise _fail(t("play.players_range", n=players, game=game, min=low, max=high), t)
        count = players
    if first_dealer is not None and first_dealer >= count:
        raise _fail(f"--first-dealer {first_dealer}: a seat 0-{count - 1}", t)
    try:
        the_rules = presenter.parse_rules(rules or desc.default_preset, option)
    except StammtischError as e:
        raise _fail(t("play.rules_error", message=e), t) from None
    try:
        seats = presenter.parse_humans(humans) if humans is not None else (
            frozenset(range(count)) if hotseat else frozenset({0}))
    except ValueError as e:
        raise _fail(str(e), t) from None
    if not seats <= set(range(count)):
        raise _fail(f"--humans {humans}: seats 0-{count - 1} ({count} players)", t)
    bot = bots if bots is not None else default_bot_name(game)
    known = registry.bot_names(game)
    if bot not in known:
        raise _fail(unknown_bot_text(bot, set(known)), t)
    if seed is not None:
        base = random.Random(seed)
        shuffle_rng: Rng = random.Random(base.getrandbits(64))
        bot_rng: Rng = random.Random(base.getrandbits(64))
    else:
        shuffle_rng = random.SystemRandom()
        bot_rng = random.Random()
    console = Console(highlight=False)
    tty = sys.stdin.isatty()
    try:
        session = PlaySession(
            desc, the_rules, console=console, read=stdin_reader(console, tty),
            humans=seats, bot=bot, shuffle_rng=shuffle_rng, bot_rng=bot_rng,
            bobbl_limit=bobbl, first_dealer=first_dealer,
            interactive=tty and console.is_terminal, lang=language, players=count,
        )
    except ValueError as e:  # RulesError and the session's own checks
        raise _fail(str(e), t) from None
    try:
        code = session.run()
    except KeyboardInterrupt:
        console.print("\n" + t("play.interrupted"))
        code = 130
    raise typer.Exit(code)
