"""What a game shows and asks in the terminal (``stammtisch play``): its presenter.

The session loop is written once, in the CLI's shell (:mod:`stammtisch.cli.play_session`):
it deals through the game's match, asks the human seats (``?`` help, ``l`` last trick,
``z`` score sheet, ``q`` quit, the end of input), lets the bots move, hands the terminal
over in hot-seat play and ends the session.  A game's :class:`Presenter` is only what is
its own: how its views, actions, tricks, results and score sheet read in German or
English (:mod:`stammtisch.i18n`), its ``-o KEY=VALUE`` options and ``--humans``, its
prompts, and what a typed answer means.  ``GamePlugin.presenter`` makes one (a loader
that imports the game's presenter module on first use); the shell binds it to itself
(:class:`Shell`) and calls it for one session.

:class:`BasePresenter` holds the defaults and what the presenters share (the names of the
bots, ``--humans`` as ``0,2``, the coloured cards).

>>> parse_option_value("ja"), parse_option_value("[1, 2]"), parse_option_value(" x ")
(True, [1, 2], 'x')
>>> BasePresenter().parse_humans("0, 2")
frozenset({0, 2})
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, Protocol, TypeVar

from rich.text import Text

from stammtisch.cards import Card, Suit
from stammtisch.engine.core import Action, GameState, Rng
from stammtisch.errors import RulesError
from stammtisch.i18n import Translator

__all__ = ["BasePresenter", "Presenter", "Shell", "card_text", "join", "option_items",
           "parse_option_value"]

S = TypeVar("S", bound=GameState)

SUIT_STYLE = {Suit.EICHEL: "cyan", Suit.GRAS: "green", Suit.HERZ: "red",
              Suit.SCHELLEN: "yellow"}
TRUE_WORDS = ("true", "ja", "yes", "on", "1", "j", "y")
FALSE_WORDS = ("false", "nein", "no", "off", "0", "n")


class Shell(Protocol):
    """What the shell offers the presenter bound to it (one session)."""

    t: Translator
    #: every seat's name ("Du"/"You" for a single human, "Spieler N"/"Player N", the bots')
    names: list[str]
    humans: frozenset[int]
    #: one human only (then "Du"/"You" and the ``.du`` texts)
    single: bool
    bot_name: str
    #: the game's match (from :meth:`Presenter.new_match`)
    match: Any
    #: the number of the hand being played (1, 2, …)
    hand_no: int
    shuffle_rng: Rng
    #: hot-seat: the seat whose hand is on the screen
    shown_to: int | None

    def out(self, *items: Any, **kw: Any) -> None:
        """Print (rich markup)."""

    def read(self, prompt: str) -> str:
        """One answer (the end of input ends the session)."""

    def verb(self, seat: int, key: str, **params: Any) -> str:
        """The text ``key`` about ``seat``: its ``.du`` form for the single human."""

    def is_du(self, seat: int) -> bool:
        """Whether ``seat`` is the single human."""

    def confirm_quit(self) -> None:
        """Ask whether to quit; ends the session on yes."""

    def handover(self, seat: int) -> None:
        """Hot-seat: announce whose turn it is before a hand appears."""

    def roster(self) -> None:
        """The humans and the bots in one line (if there are bots), then the help hint."""


class Presenter(Protocol[S]):
    """A game in the terminal: what the shell asks of it (see the module)."""

    #: the bots' names by seat
    bot_names: tuple[str, ...]
    #: the words that show the last trick (empty: the game has no such command)
    last_words: frozenset[str]
    #: hot-seat: hand the terminal over before a human's turn
    hands_over: bool
    #: say goodbye when the session is quit
    bye_on_quit: bool

    def bind(self, shell: Shell) -> None:
        """Bind to the session's shell (before :meth:`new_match`)."""

    def parse_rules(self, preset: str, options: Sequence[str]) -> Any:
        """The rules from a preset and ``KEY=VALUE`` options (``RulesError`` if not)."""

    def parse_humans(self, text: str) -> frozenset[int]:
        """``--humans`` (``0,2``) as seats; ``ValueError`` if not."""

    def new_match(self, rules: Any, first_dealer: int | None, limit: int | None,
                  players: int) -> Any:
        """The session's match (``limit``: ``--bobbl``)."""

    def welcome(self) -> None:
        """The session's first lines (and the seating, if the game draws it)."""

    def done(self) -> bool:
        """Whether the session is over."""

    def start_hand(self) -> S:
        """The next deal from the match, announced."""

    def before_turn(self, state: S) -> bool:
        """Before each turn; ``True`` if the state changed (the shell looks again)."""

    def context(self, state: S, seat: int) -> None:
        """What the human at ``seat`` sees at a turn: the table, the hand, the options."""

    def prompt(self, state: S, seat: int) -> str:
        """The prompt of ``seat``'s turn."""

    def help(self) -> None:
        """The help (``?``)."""

    def command(self, state: S, seat: int, low: str) -> bool:
        """A game's own command or an empty answer (lower case); ``True`` if handled."""

    def interpret(self, state: S, seat: int, text: str) -> tuple[Action | None, str]:
        """The legal action ``text`` means, or ``None`` and why not."""

    def refuse(self, state: S, seat: int, error: str) -> Action | None:
        """Show a refusal; an action to take anyway (a default), or ``None`` to ask again."""

    def apply(self, state: S, seat: int, action: Action) -> None:
        """Apply ``seat``'s action and tell the table what happened (``StammtischError``,
        the state unchanged, if it is not legal)."""

    def end_hand(self, state: S) -> None:
        """The hand's result, booked in the match."""

    def show_last(self, state: S, seat: int) -> None:
        """The last trick, as ``seat`` may see it."""

    def show_sheet(self) -> None:
        """The score sheet."""

    def finale(self) -> None:
        """The session's end."""


class BasePresenter(Generic[S]):
    """The presenters' defaults and shared helpers (``self.t``, ``self.out``, …)."""

    bot_names: tuple[str, ...] = ("Hans", "Schorsch", "Kunni", "Babett")
    last_words: frozenset[str] = frozenset({"l", "letzter", "last"})
    hands_over = False
    bye_on_quit = True
    #: seats ``--humans`` may name
    max_seats = 4
    shell: Shell

    #: the prefix of the game's terminal texts: ``<prefix>.prompt`` (with ``{name}``) and
    #: ``<prefix>.help`` are the default :meth:`prompt` and :meth:`help`
    texts_prefix = "play"

    def bind(self, shell: Shell) -> None:
        self.shell = shell

    @property
    def t(self) -> Translator:
        return self.shell.t

    @property
    def names(self) -> list[str]:
        return self.shell.names

    def out(self, *items: Any, **kw: Any) -> None:
        self.shell.out(*items, **kw)

    def verb(self, seat: int, key: str, **params: Any) -> str:
        return self.shell.verb(seat, key, **params)

    def dat(self, seat: int) -> str:
        """The name after "von", "mit": "dir" ("you") for the single human."""
        return self.t("play.you.dat") if self.shell.is_du(seat) else self.names[seat]

    def akk(self, seat: int) -> str:
        """The name after "an": "dich" ("you") for the single human."""
        return self.t("play.you.akk") if self.shell.is_du(seat) else self.names[seat]

    def parse_humans(self, text: str) -> frozenset[int]:
        """``0,2`` -> the human seats (``ValueError`` if not seats below ``max_seats``)."""
        bad = f"--humans {text!r}: give seats 0-{self.max_seats - 1}, e.g. 0,2"
        try:
            seats = frozenset(int(p) for p in text.split(",") if p.strip())
        except ValueError:
            raise ValueError(bad) from None
        if not seats or not seats <= set(range(self.max_seats)):
            raise ValueError(bad)
        return seats

    def prompt(self, state: S, seat: int) -> str:
        return self.t(f"{self.texts_prefix}.prompt", name=self.names[seat])

    def help(self) -> None:
        self.out(self.t(f"{self.texts_prefix}.help"))

    def done(self) -> bool:
        return bool(self.shell.match.is_over())

    def before_turn(self, state: S) -> bool:
        return False

    def command(self, state: S, seat: int, low: str) -> bool:
        if low:
            return False
        self.context(state, seat)
        return True

    def context(self, state: S, seat: int) -> None:
        raise NotImplementedError

    def refuse(self, state: S, seat: int, error: str) -> Action | None:
        self.out(f"[red]{error}[/red]")
        return None


def card_text(card: Card | str, style: str = "") -> Text:
    """A card in its suit's colour (the Weli bold magenta), with ``style`` on top."""
    c = Card.parse(card) if isinstance(card, str) else card
    base = "bold magenta" if c.is_weli else SUIT_STYLE.get(c.suit, "")
    return Text(str(c), style=f"{base} {style}".strip())


def join(parts: Iterable[Text | str], sep: str = " ") -> Text:
    """Texts and strings joined by ``sep`` (styles kept)."""
    out = Text()
    for i, p in enumerate(parts):
        if i:
            out.append(sep)
        out.append(p if isinstance(p, Text) else Text(p))
    return out


def option_items(options: Sequence[str]) -> Iterator[tuple[str, str]]:
    """``KEY=VALUE`` options as (key, raw value); ``RulesError`` for one without ``=``."""
    for item in options:
        key, sep, raw = item.partition("=")
        if not sep:
            raise RulesError(f"{item!r}: expected KEY=VALUE")
        yield key.strip(), raw


def parse_option_value(raw: str, *, words: bool = True) -> Any:
    """An option's value: yes/no words (``words``), else JSON if it parses, else the text."""
    low = raw.strip().lower()
    if words and low in TRUE_WORDS:
        return True
    if words and low in FALSE_WORDS:
        return False
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw.strip()
