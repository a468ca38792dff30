"""A Schafkopf session in the terminal (``stammtisch play --game schafkopf``).

A sitting (:func:`stammtisch.games.schafkopf.online.new_match`: the dealer moves on, the
Abrechnung adds up each player's payments) of ``--bobbl`` rounds of four hands (0: no
end).  One human at seat 0 plays against three bots, or several humans share the
terminal (``--hotseat``, ``--humans 0,2``); the prompt then names whose turn it is and
shows only that seat's cards.

Everything a human is shown comes from ``state.view(seat)`` of a human seat or is a
public action (a word said, a card played); in a Rufspiel the partner is named only once
the called ace has fallen, and the other hands are shown only after the hand.

The core is :class:`PlaySession`; it takes a ``read(prompt) -> str`` function (raising
``EOFError`` at the end of input) and a rich ``Console``, so tests drive it without a
terminal.  Its texts come from :mod:`stammtisch.i18n` (keys ``play.sk.*`` and some
``play.*`` shared with Mucken's session), German or English; game words stay German.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from stammtisch.bots.base import BOTS, Bot, BotFactory
from stammtisch.cards import Card, Suit
from stammtisch.engine.core import Action, Rng, Say
from stammtisch.errors import InvalidCardError, RulesError, StammtischError
from stammtisch.games.schafkopf.online import SchafkopfSitting, new_match
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState
from stammtisch.i18n import Translator

ReadFn = Callable[[str], str]

#: names of bot seats (by seat)
BOT_NAMES = ("Hans", "Schorsch", "Kunni", "Babett")
SUIT_STYLE = {Suit.EICHEL: "cyan", Suit.GRAS: "green", Suit.HERZ: "red",
              Suit.SCHELLEN: "yellow"}

YES = {"j", "ja", "y", "yes"}
QUIT_WORDS = {"q", "quit", "exit", "ende", "aufhören", "aufhoeren"}
HELP_WORDS = {"?", "h", "hilfe", "help"}
LAST_WORDS = {"l", "letzter", "last"}
SHEET_WORDS = {"z", "zettel", "stand", "sheet"}


class _Quit(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- command-line helpers --------------------------------------------------------------


def _convert(key: str, raw: str) -> Any:
    """An option's value from ``KEY=VALUE`` text: JSON if it parses, lists by commas."""
    if key in ("games", "stoss_words"):
        return [w.strip() for w in raw.split(",") if w.strip()]
    low = raw.strip().lower()
    if low in ("true", "ja", "yes", "on", "1", "j", "y"):
        return True
    if low in ("false", "nein", "no", "off", "0", "n"):
        return False
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw.strip()


def parse_rules(preset: str, options: Sequence[str] = ()) -> SchafkopfRules:
    """Rules from a preset name and ``KEY=VALUE`` options (``RulesError`` if not valid)."""
    changes: dict[str, Any] = {}
    for item in options:
        key, sep, raw = item.partition("=")
        if not sep:
            raise RulesError(f"{item!r}: expected KEY=VALUE")
        changes[key.strip()] = _convert(key.strip(), raw)
    return SchafkopfRules.preset(preset, **changes)


def parse_humans(text: str) -> frozenset[int]:
    """``0,2`` -> the human seats (``ValueError`` if not seats 0–3)."""
    try:
        seats = frozenset(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise ValueError(f"--humans {text!r}: give seats 0-3, e.g. 0,2") from None
    if not seats or not seats <= {0, 1, 2, 3}:
        raise ValueError(f"--humans {text!r}: give seats 0-3, e.g. 0,2")
    return seats


def _own_bots() -> Mapping[str, BotFactory]:
    """Schafkopf's own bots (heuristic, PIMC …)."""
    from stammtisch.games.schafkopf.plugin import PLUGIN

    return dict(PLUGIN.load_bots())


def default_bot_name() -> str:
    """Schafkopf's default bot (the heuristic)."""
    from stammtisch.games.schafkopf.plugin import PLUGIN

    return PLUGIN.default_bot


def make_bot(name: str) -> Bot:
    factories = {**BOTS, **_own_bots()}
    try:
        return factories[name]()
    except KeyError:
        raise StammtischError(
            f"unknown bot {name!r} (known: {', '.join(sorted(factories))})") from None


def card_text(card: Card | str) -> Text:
    c = Card.parse(card) if isinstance(card, str) else card
    return Text(str(c), style=SUIT_STYLE.get(c.suit, ""))


def _join(parts: Iterable[Text | str], sep: str = " ") -> Text:
    out = Text()
    for i, p in enumerate(parts):
        if i:
            out.append(sep)
        out.append(p if isinstance(p, Text) else Text(p))
    return out


# -- the session -----------------------------------------------------------------------


class PlaySession:
    """A Schafkopf sitting at one terminal (see the module).  ``bobbl_limit`` is the
    number of rounds of four hands (the ``--bobbl`` option; ``None``/0: no end)."""

    def __init__(
        self,
        rules: SchafkopfRules,
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
    ) -> None:
        self.t = Translator(lang)
        self.rules = rules
        self.console = console
        self._read = read
        self.humans = frozenset(humans)
        if not self.humans or not self.humans <= {0, 1, 2, 3}:
            raise ValueError("humans: name at least one seat 0..3")
        self.bot_name = bot
        self.shuffle_rng: Rng = shuffle_rng if shuffle_rng is not None else random.SystemRandom()
        self.bot_rng: Rng = bot_rng if bot_rng is not None else random.Random()
        self.interactive = interactive
        self.single = len(self.humans) == 1
        self.names = [(self.t("play.you") if self.single else self.t("play.player_n", n=p + 1))
                      if p in self.humans else BOT_NAMES[p] for p in range(4)]
        self.bots: dict[int, Bot] = {s: make_bot(bot) for s in range(4) if s not in self.humans}
        self.match: SchafkopfSitting = new_match(rules, first_dealer or 0, bobbl_limit or None)
        self.hand_no = 0
        self.state: SchafkopfState | None = None

    # -- names and I/O -------------------------------------------------------------
    def _is_du(self, seat: int) -> bool:
        return self.single and seat in self.humans

    def _verb(self, seat: int, key: str, **params: Any) -> str:
        if self._is_du(seat) and self.t.has(f"{key}.du"):
            return self.t(f"{key}.du", name=self.names[seat], **params)
        return self.t(key, name=self.names[seat], **params)

    def out(self, *items: Any, **kw: Any) -> None:
        self.console.print(*items, **kw)

    def read(self, prompt: str) -> str:
        try:
            return self._read(prompt)
        except EOFError:
            raise _Quit("eof") from None

    # -- the sitting ---------------------------------------------------------------
    def run(self) -> int:
        """Play until the rounds are over (or quit / end of input).  Exit code 0."""
        try:
            self._welcome()
            while not self.match.is_over():
                self._play_hand()
            self._finale()
        except _Quit as q:
            self.out()
            if q.reason == "eof":
                self.out(f"[bold]{self.t('play.eof')}[/bold]")
            else:
                self.out(f"[bold]{self.t('play.quit')}[/bold] {self.t('play.bye')}")
            if self.match.sheet.hands:
                self.show_sheet()
        return 0

    def _welcome(self) -> None:
        r = self.rules
        rounds = self.match.rounds
        length = (self.t("play.sk.rounds", n=rounds) if rounds else self.t("play.sk.open_end"))
        self.out(self.t("play.sk.welcome", rules=r.name, games=", ".join(r.games),
                        words=", ".join(r.stoss_words) or "—", length=length))
        humans = ", ".join(self.names[s] for s in sorted(self.humans))
        bots = ", ".join(self.names[s] for s in range(4) if s not in self.humans)
        if bots:
            self.out(self.t("play.humans", names=humans) + " · "
                     + self.t("play.bots", bot=self.bot_name, names=bots))
        self.out(self.t("play.help_hint"))

    def _play_hand(self) -> None:
        self.hand_no += 1
        state = self.match.start_game(self.shuffle_rng)
        self.state = state
        self.out()
        self.out(self.t("play.sk.header", n=self.hand_no, dealer=self.names[state.dealer],
                        vorhand=self.names[state.vorhand]))
        announced = False
        partner_told = False
        while not state.is_terminal():
            seat = state.current_player
            if seat in self.humans:
                action = self._human_turn(state, seat)
            else:
                action = self.bots[seat].choose(state, self.bot_rng)
            tricks_before = len(state.tricks.winners)
            phase = state.phase
            state.apply(action)
            self._narrate(seat, phase, action)
            if len(state.tricks.winners) > tricks_before:
                n = len(state.tricks.winners)
                self.out(self.t("play.trick_to", n=n, name=self.names[state.tricks.winners[-1]]))
            if not announced and state.phase in ("stossen", "play") and state.contract:
                announced = True
                self._announce(state)
            if (not partner_told and state.called is not None and state.called_played
                    and state.partner is not None):
                partner_told = True
                self.out(self.t("play.sk.partner", card=str(state.called),
                                name=self.names[state.partner]))
        self.show_result(state)
        self.match.finish_game()
        self.state = None
        if self.interactive and not self.match.is_over():
            low = self.read(self.t("play.next_game")).strip().lower()
            if low in QUIT_WORDS:
                self._confirm_quit()

    def _narrate(self, seat: int, phase: str, action: Action) -> None:
        if isinstance(action, Card):
            if phase == "play":
                self.out(self._verb(seat, "play.sk.plays", card=str(action)))
            return  # a Hochzeit's card passes face down
        if isinstance(action, Say):
            self.out(self.t("play.sk.says", name=self.names[seat], word=action.word))

    def _announce(self, state: SchafkopfState) -> None:
        if state.contract == "ramsch":
            self.out(self.t("play.sk.ramsch"))
            return
        called = "" if state.called is None else self.t("play.sk.called", card=str(state.called))
        who = "—" if state.declarer is None else self.names[state.declarer]
        self.out(self.t("play.sk.contract", contract=state.contract, name=who, called=called))

    # -- a human's turn -------------------------------------------------------------
    def _human_turn(self, state: SchafkopfState, seat: int) -> Action:
        self._show_context(state, seat)
        while True:
            text = self.read(self.t("play.sk.prompt", name=self.names[seat]))
            low = text.strip().lower()
            if not low:
                self._show_context(state, seat)
                continue
            if low in HELP_WORDS:
                self.out(self.t("play.sk.help"))
                continue
            if low in QUIT_WORDS:
                self._confirm_quit()
                continue
            if low in LAST_WORDS:
                self.show_last_trick(state.view(seat))
                continue
            if low in SHEET_WORDS:
                self.show_sheet()
                continue
            action, error = self.interpret(state, seat, text)
            if action is not None:
                return action
            self.out(f"[red]{error}[/red]")

    def interpret(self, state: SchafkopfState, seat: int,
                  text: str) -> tuple[Action | None, str]:
        """The legal action ``text`` means (a number, a card, a word or a unique
        beginning of one), or ``None`` and why not."""
        legal = list(state.legal_actions())
        words = " ".join(str(a) for a in legal)
        low = text.strip().lower()
        if low.isdigit():
            n = int(low)
            if 1 <= n <= len(legal):
                return legal[n - 1], ""
            return None, self.t("play.err.number", n=n, max=len(legal))
        action = state.parse_action(text)
        if action in legal:
            return action, ""
        matches = [a for a in legal if str(a).lower().startswith(low)]
        if len(matches) == 1:
            return matches[0], ""
        if len(matches) > 1:
            return None, self.t("play.err.ambiguous", text=text,
                                matches=" ".join(str(a) for a in matches))
        try:
            why = state.explain_illegal(action)
        except (InvalidCardError, ValueError):
            why = "?"
        return None, self.t("play.err.not_now", text=text, why=why, words=words)

    def _confirm_quit(self) -> None:
        if self.read(self.t("play.confirm_quit")).strip().lower() in YES:
            raise _Quit("quit")
        self.out(self.t("play.go_on"))

    def _show_context(self, state: SchafkopfState, seat: int) -> None:
        v = state.view(seat)
        ph = v["phase"]
        decl = "—" if v["declarer"] is None else self.names[v["declarer"]]
        if ph == "hochzeit":
            line = self.t("play.sk.phase.hochzeit", name=decl)
        elif ph in ("stossen", "play"):
            line = self.t(f"play.sk.phase.{ph}", contract=v["contract"], name=decl,
                          n=len(v["tricks_played"]) + 1)
        else:
            line = self.t(f"play.sk.phase.{ph}")
        self.out()
        self.out(f"[bold]{line}[/bold]")
        if ph == "bidding" and v["standing"]:
            bidder = next(b["seat"] for b in reversed(v["bids"]) if b["word"] == v["standing"])
            self.out(self.t("play.highest_bid", bid=v["standing"], name=self.names[bidder]))
        if v["trick"]:
            self.out(_join([Text(self.t("play.on_table")),
                            *(_join([self.names[e["seat"]] + ":", card_text(e["card"])])
                              for e in v["trick"])], "  "))
        self.out(_join([Text(self._verb(seat, "play.sk.your_cards")),
                        *(card_text(c) for c in v["hand"])]))
        options = [f"{i}:{a}" for i, a in enumerate(v["legal"], 1)]
        self.out(self.t("play.sk.possible", options="  ".join(options)))

    def show_last_trick(self, v: Mapping[str, Any]) -> None:
        if not v["tricks_played"]:
            self.out(self.t("play.no_trick_yet"))
            return
        last = v["tricks_played"][-1]
        augen = sum(Card.parse(e["card"]).augen for e in last["cards"])
        self.out(_join([_join([self.names[e["seat"]] + ":", card_text(e["card"])])
                        for e in last["cards"]], "  "))
        self.out(self.t("play.trick_winner", name=self.names[last["winner"]], augen=augen))

    # -- results and the Abrechnung ----------------------------------------------------
    def show_result(self, state: SchafkopfState) -> None:
        r = state.result()
        assert r is not None
        if r["contract"] is None:
            self.out(self.t("play.sk.redeal"))
            outcome = self.t("play.sk.no_game")
        elif r["contract"] == "ramsch":
            if r["loser"] is None:
                winner = max(range(4), key=lambda s: r["payments"][s])
                outcome = f"{self.t('play.sk.durchmarsch')}: {self.names[winner]}"
            else:
                outcome = self.t("play.sk.ramsch_loser", name=self.names[r["loser"]])
        else:
            won = r["winner"] == "declarers"
            outcome = self.t(f"play.reason.{'gewonnen' if won else 'verloren'}")
            extras = [w for w, on in (("Schneider", r["schneider"]), ("Schwarz", r["schwarz"]))
                      if on]
            if r["laufende"]:
                extras.append(f"{r['laufende']} Laufende")
            if r["multiplier"] > 1:
                extras.append(f"×{r['multiplier']}")
            if extras:
                outcome += " (" + ", ".join(extras) + ")"
        self.out(self.t("play.sk.result", n=self.hand_no, contract=r["contract"] or "—",
                        outcome=outcome))
        if r["contract"] is not None:
            self.out(self.t("play.sk.augen", list=", ".join(
                f"{self.names[s]} {a}" for s, a in enumerate(r["augen"]))))
        self.out(self.t("play.sk.payments", list=", ".join(
            f"{self.names[s]} {p:+d}" for s, p in enumerate(r["payments"]))))

    def show_sheet(self) -> None:
        sheet = self.match.sheet.to_json()
        table = Table(title=self.t("play.sk.sheet_title"), title_justify="left")
        for col in ("hand", "dealer", "game"):
            table.add_column(self.t(f"play.sk.col.{col}"))
        for name in self.names:
            table.add_column(name, justify="right")
        for h in sheet["hands"]:
            table.add_row(str(h["number"]), self.names[h["dealer"]], h["contract"] or "—",
                          *(f"{b:+d}" for b in h["balance"]))
        self.out(table)

    def _finale(self) -> None:
        totals = self.match.sheet.totals
        self.out()
        self.show_sheet()
        self.out(self.t("play.sk.finale", n=len(self.match.sheet.hands), list=", ".join(
            f"{self.names[s]} {p:+d}" for s, p in enumerate(totals))))


def stdin_reader(console: Console, tty: bool) -> ReadFn:
    def read(prompt: str) -> str:
        if tty:
            return console.input(Text(prompt, style="bold"))
        console.print(Text(prompt, style="bold"), end="")
        line = sys.stdin.readline()
        if not line:
            console.print()
            raise EOFError
        line = line.rstrip("\r\n")
        console.print(line, markup=False, highlight=False)
        return line

    return read


__all__ = ["PlaySession", "default_bot_name", "make_bot", "parse_humans", "parse_rules",
           "stdin_reader"]
