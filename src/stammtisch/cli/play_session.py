"""The terminal shell of ``stammtisch play``: one session loop for every game.

A :class:`PlaySession` plays the game's match (Mucken's Bobbl, Schafkopf's rounds,
Mulatschak's match to a winner, Mus's sets) at one terminal: it deals, resolves chance,
asks the human seats — the same prompts, ``?`` help, ``l`` last trick, ``z`` score sheet,
``q`` quit (asked first), the end of input ending the session cleanly — lets the bots
move (a bot's illegal move is reported and replaced by the first legal one), hands the
terminal over between the humans in hot-seat play and ends with the finale.  What is the
game's own — how its views, actions, tricks, results and score sheet read, its options,
what a typed answer means — comes from the game's presenter
(:class:`~stammtisch.games.base.presenter.Presenter`, ``GamePlugin.presenter``).

Everything a human is shown comes from the view of a human seat or is public; the
session takes a ``read(prompt) -> str`` function (raising ``EOFError`` at the end of
input) and a rich ``Console``, so tests drive it without a terminal.  ``interactive`` (a
real terminal): in hot-seat play wait for Enter and clear the screen before showing a
hand, and pause after each hand.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from stammtisch.bots.base import Bot
from stammtisch.engine.core import CHANCE, Action, GameState, Rng, resolve_chance
from stammtisch.errors import StammtischError
from stammtisch.games import registry
from stammtisch.games.base import GamePlugin
from stammtisch.games.base.presenter import Presenter
from stammtisch.i18n import Translator

__all__ = ["PlaySession", "ReadFn", "default_bot_name", "presenter_of", "stdin_reader"]

ReadFn = Callable[[str], str]

YES = {"j", "ja", "y", "yes"}
QUIT_WORDS = {"q", "quit", "exit", "ende", "aufhören", "aufhoeren"}
HELP_WORDS = {"?", "h", "hilfe", "help"}
SHEET_WORDS = {"z", "zettel", "stand", "sheet"}


class Quit(Exception):
    """The session ends: ``reason`` is "quit" (asked for) or "eof" (input ended)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def presenter_of(game: str | GamePlugin) -> Presenter[Any]:
    """A new presenter of ``game``; ``StammtischError`` if the game has none."""
    plugin = registry.get(game) if isinstance(game, str) else game
    if plugin.presenter is None:
        raise StammtischError(f"{plugin.name}: no terminal session yet (games with one: "
                              + ", ".join(d.name for d in registry.descriptions()
                                          if d.presenter) + ")")
    return plugin.presenter()


def default_bot_name(game: str) -> str:
    """The game's default bot if it can be made, else ``random``."""
    name = registry.get(game).default_bot
    return name if name in registry.bot_names(game) else "random"


class PlaySession:
    """A sitting of ``game`` at one terminal (see the module).

    ``humans``: the human seats; every other seat is a bot ``bot``.  ``bobbl_limit`` is
    the ``--bobbl`` option (the presenter's match decides what it counts); ``players``
    the number of seats of a game of varying seats (default 4, or its only number).
    """

    def __init__(
        self,
        game: str | GamePlugin,
        rules: Any,
        *,
        console: Console,
        read: ReadFn,
        humans: Iterable[int] = (0,),
        bot: str = "random",
        shuffle_rng: Rng | None = None,
        bot_rng: Rng | None = None,
        bobbl_limit: int | None = 2,
        first_dealer: int | None = None,
        interactive: bool = False,
        lang: str = "de",
        players: int | None = None,
    ) -> None:
        self.plugin = registry.get(game) if isinstance(game, str) else game
        self.presenter = presenter_of(self.plugin)
        low, high = self.plugin.seats
        n = players if players is not None else (low if low == high else 4)
        if not low <= n <= high:
            raise ValueError(f"players {n}: {self.plugin.name} is played by {low} to {high}")
        self.t = Translator(lang)
        self.console = console
        self._read = read
        self.humans = frozenset(humans)
        if not self.humans or not self.humans <= set(range(n)):
            raise ValueError(f"humans: name at least one seat 0..{n - 1} ({n} players)")
        if first_dealer is not None and not 0 <= first_dealer < n:
            raise ValueError(f"first dealer {first_dealer}: a seat 0..{n - 1}")
        self.bot_name = bot
        self.shuffle_rng: Rng = shuffle_rng if shuffle_rng is not None else random.SystemRandom()
        self.bot_rng: Rng = bot_rng if bot_rng is not None else random.Random()
        self.interactive = interactive
        self.single = len(self.humans) == 1
        self.names = [(self.t("play.you") if self.single else self.t("play.player_n", n=p + 1))
                      if p in self.humans else self.presenter.bot_names[p] for p in range(n)]
        self.bots: dict[int, Bot] = {}
        self.hand_no = 0
        self.finished = 0
        self.state: GameState | None = None
        self.shown_to: int | None = None
        self.presenter.bind(self)
        self.match: Any = self.presenter.new_match(rules, first_dealer, bobbl_limit or None, n)

    # -- names and I/O ------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.names[seat]

    def is_du(self, seat: int) -> bool:
        return self.single and seat in self.humans

    def verb(self, seat: int, key: str, **params: Any) -> str:
        """The text ``key`` about ``seat``: its ``.du`` form ("Du gibst") for the single
        human, else with ``{name}`` ("Hans gibt")."""
        if self.is_du(seat) and self.t.has(f"{key}.du"):
            return self.t(f"{key}.du", name=self.names[seat], **params)
        return self.t(key, name=self.names[seat], **params)

    def out(self, *items: Any, **kw: Any) -> None:
        self.console.print(*items, **kw)

    def read(self, prompt: str) -> str:
        try:
            return self._read(prompt)
        except EOFError:
            raise Quit("eof") from None

    def roster(self) -> None:
        humans = ", ".join(self.names[s] for s in sorted(self.humans))
        bots = ", ".join(n for s, n in enumerate(self.names) if s not in self.humans)
        if bots:
            self.out(self.t("play.humans", names=humans) + " · "
                     + self.t("play.bots", bot=self.bot_name, names=bots))
        self.out(self.t("play.help_hint"))

    def interpret(self, state: GameState, seat: int, text: str) -> tuple[Action | None, str]:
        """The legal action ``text`` means for ``seat``, or ``None`` and why not."""
        return self.presenter.interpret(state, seat, text)

    # -- the session -------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the presenter's match is over (or quit / end of input).  Exit code 0."""
        p = self.presenter
        try:
            p.welcome()
            while not p.done():
                self._play_hand()
            p.finale()
        except Quit as q:
            self.out()
            if q.reason == "eof":
                self.out(f"[bold]{self.t('play.eof')}[/bold]")
            else:
                self.out(f"[bold]{self.t('play.quit')}[/bold]"
                         + (f" {self.t('play.bye')}" if p.bye_on_quit else ""))
            if self.finished:
                p.show_sheet()
        return 0

    def _play_hand(self) -> None:
        p = self.presenter
        self.hand_no += 1
        state = self.state = p.start_hand()
        while not state.is_terminal():
            if state.current_player == CHANCE:
                resolve_chance(state, self.shuffle_rng)
                continue
            if p.before_turn(state):
                continue
            seat = state.current_player
            if seat in self.humans:
                p.apply(state, seat, self._human_turn(state, seat))
            else:
                self._bot_turn(state, seat)
        p.end_hand(state)
        self.finished += 1
        self.state = None
        if self.interactive and not p.done() \
                and self.read(self.t("play.next_game")).strip().lower() in QUIT_WORDS:
            self.confirm_quit()

    def _bot_turn(self, state: GameState, seat: int) -> None:
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = registry.make_bot(self.plugin.name, self.bot_name)
        try:
            self.presenter.apply(state, seat, bot.choose(state, self.bot_rng))
        except StammtischError as e:  # a bot bug must not end the session
            self.out("[red]" + self.t("play.bot_illegal", name=self.names[seat],
                                      error=escape(str(e))) + "[/red]")
            self.presenter.apply(state, seat, state.legal_actions()[0])

    # -- a human's turn ------------------------------------------------------------------------
    def handover(self, seat: int) -> None:
        if self.single or self.shown_to == seat:
            return
        self.out()
        self.out(Panel.fit(self.t("play.handover", name=self.names[seat]), border_style="cyan"))
        if self.interactive:
            answer = self.read(self.t("play.handover_prompt", name=self.names[seat]))
            if answer.strip().lower() in QUIT_WORDS:
                self.confirm_quit()
            self.console.clear()
        self.shown_to = seat

    def _human_turn(self, state: GameState, seat: int) -> Action:
        p = self.presenter
        if p.hands_over:
            self.handover(seat)
        p.context(state, seat)
        while True:
            text = self.read(p.prompt(state, seat))
            low = text.strip().lower()
            if low in QUIT_WORDS:
                self.confirm_quit()
            elif low in HELP_WORDS:
                p.help()
            elif low in p.last_words:
                p.show_last(state, seat)
            elif low in SHEET_WORDS:
                p.show_sheet()
            elif not p.command(state, seat, low):
                action, error = p.interpret(state, seat, text)
                if action is None:
                    action = p.refuse(state, seat, error)
                if action is not None:
                    return action

    def confirm_quit(self) -> None:
        if self.read(self.t("play.confirm_quit")).strip().lower() in YES:
            raise Quit("quit")
        self.out(self.t("play.go_on"))


def stdin_reader(console: Console, tty: bool) -> ReadFn:
    """Answers from stdin: the console's input on a terminal, else lines of piped input
    (each echoed after its prompt; ``EOFError`` at the end)."""
    def read(prompt: str) -> str:
        if tty:
            return console.input(Text(prompt, style="bold"))
        console.print(Text(prompt, style="bold"), end="")
        line = sys.stdin.readline()
        if not line:
            console.print()
            raise EOFError
        line = line.rstrip("\r\n")
        console.print(line, markup=False, highlight=False)  # echo piped answers
        return line

    return read
