"""``stammtisch play``: a Mucken session in the terminal.

A whole sitting (:class:`~stammtisch.games.mucken.match.MuckenMatch`): Auskarten
(or ``--first-dealer``), then game after game — shuffle, Abheben, Ansagen,
Kontra, the tricks — with the score sheet (Spielstandzettel) after each game,
until ``--bobbl`` Bobbl are played.  One human at seat 0 plays with a bot
partner against two bots, or several humans share the terminal (``--hotseat``,
``--humans 0,2``); each prompt then says whose turn it is and shows only that
seat's cards.

Everything a human is shown comes from ``state.view(seat)`` of a human seat
(or is a public action: a card played, a word said, a cut); other hands are
shown only after a game, when the view reveals the dealt cards.

The core is :class:`PlaySession`: it takes a ``read(prompt) -> str`` function
(raising ``EOFError`` at the end of input) and a rich ``Console``, so tests
drive it without a terminal.  :func:`play_command` is the typer command.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import json
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stammtisch.bots.base import BOTS, Bot, make_bot
from stammtisch.cards import Card, Rank, Suit
from stammtisch.engine.core import CHANCE, Action, Cut, Rng, Say, resolve_chance
from stammtisch.errors import InvalidCardError, RulesError, StammtischError
from stammtisch.games.mucken.auskarten import AuskartenResult, auskarten, highest_draw
from stammtisch.games.mucken.match import Bobbl, MuckenMatch
from stammtisch.games.mucken.rules import DOUBLING_WORDS, MuckenRules
from stammtisch.games.mucken.state import MuckenState

ReadFn = Callable[[str], str]

#: names of bot seats (by seat); humans are "Du" (one human) or "Spieler N"
BOT_NAMES = ("Hans", "Schorsch", "Kunni", "Babett")

SUIT_STYLE = {
    Suit.EICHEL: "cyan",
    Suit.GRAS: "green",
    Suit.HERZ: "red",
    Suit.SCHELLEN: "yellow",
}
#: a kind of card in the plural ("es geht um die Könige")
RANK_KIND = {
    Rank.ASS: "Säue (Asse)",
    Rank.ZEHN: "Zehner",
    Rank.KOENIG: "Könige",
    Rank.OBER: "Ober",
    Rank.UNTER: "Unter",
    Rank.NEUN: "Neuner",
    Rank.ACHT: "Achter",
    Rank.SIEBEN: "Siebener",
}
#: Outcome reasons of announced games are the declarers' view
REASON_TEXT = {"gewonnen": "die Spieler gewinnen", "verloren": "die Spieler verlieren"}

#: after this many invalid answers at the Abheben prompt the default is taken
CUT_PATIENCE = 3

YES = {"j", "ja", "y", "yes"}
QUIT_WORDS = {"q", "quit", "exit", "ende", "aufhören", "aufhoeren"}
HELP_WORDS = {"?", "h", "hilfe", "help"}
LAST_WORDS = {"l", "letzter", "letzter stich"}
SHEET_WORDS = {"z", "zettel", "stand"}

HELP_TEXT = """\
[bold]Eingaben[/bold]
  Karte       Farbe E(ichel) G(ras) H(erz) S(chellen) + Wert A 10 K O U 9, z. B. \
[bold]EO[/bold], [bold]h10[/bold], [bold]sa[/bold]
              — oder ihre Nummer in der Liste
  Ansage      das Wort ([bold]weiter[/bold], [bold]muck[/bold], [bold]wenz[/bold], \
[bold]schneidermuck[/bold] …), ein eindeutiger Anfang (z. B. [bold]w[/bold]) oder die Nummer
  Kontra      [bold]kontra[/bold] oder [bold]gut[/bold] (bzw. die Nummer)
  Abheben     eine Anzahl Karten, [bold]Enter[/bold] für die Vorgabe, [bold]geben[/bold] \
oder [bold]klopfen[/bold] (wenn erlaubt)
[bold]Befehle[/bold]
  l, letzter  den letzten Stich anschauen
  z, zettel   den Spielstandzettel (Bobbl, Tore, Brillen) zeigen
  Enter       Tisch und Karten nochmal zeigen
  ?, hilfe    diese Hilfe
  q           aufhören (mit Rückfrage)"""


class _Quit(Exception):
    """The session ends: ``reason`` is "quit" (asked for) or "eof" (input ended)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- command-line helpers --------------------------------------------------------------


def _parse_bool(key: str, raw: str) -> bool:
    low = raw.strip().lower()
    if low in ("1", "true", "yes", "ja", "on", "j", "y"):
        return True
    if low in ("0", "false", "no", "nein", "off", "n"):
        return False
    raise RulesError(f"{key}={raw!r}: expected true/false (ja/nein, 1/0)")


def _parse_values(raw: str) -> dict[str, list[int | None]]:
    """``values`` as JSON: ``{"muck": [2, 3, 4], "schneidermuck": [null, 4, 5]}``."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise RulesError(f"values={raw!r}: not JSON ({e.msg})") from None
    if not isinstance(data, dict):
        raise RulesError(f"values={raw!r}: expected a JSON object "
                         '{"game": [gewonnen, schneider, schwarz], ...}')
    out: dict[str, list[int | None]] = {}
    for k, v in data.items():
        if not isinstance(v, list) or len(v) != 3 or any(
            x is not None and (isinstance(x, bool) or not isinstance(x, int)) for x in v
        ):
            raise RulesError(f"values: {k!r} needs three whole numbers (or null)")
        out[str(k)] = v
    return out


def _convert_option(base: MuckenRules, key: str, raw: str) -> Any:
    known = {f.name for f in dataclasses.fields(base) if f.init}
    if key not in known:
        raise RulesError(f"unknown Mucken rules option {key!r} (known: {', '.join(sorted(known))})")
    current = getattr(base, key)
    if key == "values":
        return _parse_values(raw)
    if isinstance(current, bool):
        return _parse_bool(key, raw)
    if isinstance(current, int):
        try:
            return int(raw.strip())
        except ValueError:
            raise RulesError(f"{key}={raw!r}: expected a whole number") from None
    if isinstance(current, tuple):
        return tuple(part.strip().lower() for part in raw.replace(" ", ",").split(",")
                     if part.strip())
    return raw.strip()


def parse_rules(preset: str, options: Sequence[str] = ()) -> MuckenRules:
    """The rules of ``preset`` changed by ``key=value`` options.

    Values are converted by the option's type: whole numbers, booleans
    (``true``/``false``, ``ja``/``nein``, ``1``/``0``), tuples as comma lists
    (``games=muck,wenz,geier``), ``values`` as a JSON object.  Raises
    :class:`RulesError` for anything the rules do not accept.
    """
    base = MuckenRules.preset(preset)
    changes: dict[str, Any] = {}
    for item in options:
        key, sep, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise RulesError(f"--option {item!r}: expected key=value (e.g. bobbl_target=31)")
        changes[key] = _convert_option(base, key, raw)
    return base.replace(**changes) if changes else base


def parse_humans(text: str) -> frozenset[int]:
    """``"0,2"`` → {0, 2}; raises ValueError for anything else."""
    seats: set[int] = set()
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        if not part.isdigit() or not 0 <= int(part) <= 3:
            raise ValueError(f"--humans {text!r}: seats are 0..3, comma separated (e.g. 0,2)")
        seats.add(int(part))
    if not seats:
        raise ValueError(f"--humans {text!r}: name at least one seat 0..3")
    return frozenset(seats)


def default_bot_name() -> str:
    """"heuristic" if such a bot is registered, else "random"."""
    _load_bots()
    return "heuristic" if "heuristic" in BOTS else "random"


def _load_bots() -> None:
    # the heuristic bot registers itself on import (if it exists)
    with contextlib.suppress(ImportError):
        importlib.import_module("stammtisch.bots.heuristic")


# -- small renderers -------------------------------------------------------------------


def card_text(card: Card | str, style: str = "") -> Text:
    c = Card.parse(card) if isinstance(card, str) else card
    base = SUIT_STYLE.get(c.suit, "")
    return Text(str(c), style=f"{base} {style}".strip())


def _join(parts: Iterable[Text | str], sep: str = " ") -> Text:
    out = Text()
    for i, p in enumerate(parts):
        if i:
            out.append(sep)
        out.append(p if isinstance(p, Text) else Text(p))
    return out


def trump_description(rules: MuckenRules, contract: str | None) -> str:
    bid = rules.bid_by_name(contract) if contract else None
    kind = bid.kind if bid is not None else "muck"
    if kind == "wenz":
        return "nur die vier Unter (Herz ist eine normale Farbe)"
    if kind == "geier":
        return "nur die vier Ober (Herz ist eine normale Farbe)"
    if kind == "farbsolo" and bid is not None and bid.suit is not None:
        return f"alle Ober, alle Unter und {bid.suit.german_name}"
    return "alle Ober, alle Unter und Herz"


def contract_name(contract: str | None) -> str:
    if not contract:
        return "—"
    return {
        "pflichtmuck": "Pflichtmuck",
        "eingeworfen": "eingeworfen",
        "ramsch": "Ramsch",
        "sie": "Sie",
    }.get(contract, contract.capitalize())


# -- the session -----------------------------------------------------------------------


class PlaySession:
    """A Mucken sitting at one terminal.

    ``humans``: the human seats (0–3); every other seat is a bot ``bot``.
    ``read(prompt)`` returns one line of input (raises ``EOFError`` at its end);
    ``console`` receives all output.  ``interactive`` (a real terminal): in
    hot-seat mode wait for Enter and clear the screen before showing a hand,
    and pause after each game.
    """

    def __init__(
        self,
        rules: MuckenRules,
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
    ) -> None:
        self.rules = rules
        self.console = console
        self._read = read
        self.humans = frozenset(humans)
        if not self.humans or not self.humans <= {0, 1, 2, 3}:
            raise ValueError("humans: name at least one seat 0..3")
        self.bot_name = bot
        self.shuffle_rng: Rng = shuffle_rng if shuffle_rng is not None else random.SystemRandom()
        self.bot_rng: Rng = bot_rng if bot_rng is not None else random.Random()
        self.first_dealer = first_dealer
        self.interactive = interactive
        self.single = len(self.humans) == 1
        self.names = self._person_names(self.humans)
        self.bots: dict[int, Bot] = {}
        self.match = MuckenMatch(rules, first_dealer=first_dealer or 0,
                                 bobbl_limit=bobbl_limit if bobbl_limit else None)
        self.game_no = 0
        self._shown_to: int | None = None  # hot-seat: whose hand is on the screen

    # -- names and seats ---------------------------------------------------------
    def _person_names(self, humans: frozenset[int]) -> list[str]:
        single = len(humans) == 1
        return [("Du" if single else f"Spieler {p + 1}") if p in humans else BOT_NAMES[p]
                for p in range(4)]

    def name(self, seat: int) -> str:
        return self.names[seat]

    def pair_name(self, pair: int) -> str:
        return f"{self.names[pair]} & {self.names[pair + 2]}"

    @property
    def observer(self) -> int:
        """The human seat whose view supplies the public table picture."""
        return min(self.humans)

    def _is_du(self, seat: int) -> bool:
        return self.single and seat in self.humans

    def dat(self, seat: int) -> str:
        """The name after "von", "mit": "dir" for the single human."""
        return "dir" if self._is_du(seat) else self.name(seat)

    def akk(self, seat: int) -> str:
        """The name after "an": "dich" for the single human."""
        return "dich" if self._is_du(seat) else self.name(seat)

    def _verb(self, seat: int, du: str, er: str) -> str:
        return f"{self.name(seat)} {du if self._is_du(seat) else er}"

    # -- I/O -------------------------------------------------------------------------
    def out(self, *items: Any, **kw: Any) -> None:
        self.console.print(*items, **kw)

    def read(self, prompt: str) -> str:
        try:
            return self._read(prompt)
        except EOFError:
            raise _Quit("eof") from None

    # -- the whole session -------------------------------------------------------------
    def run(self) -> int:
        """Play until the Bobbl limit (or quit / end of input).  Returns the exit code 0."""
        try:
            self._welcome()
            self._seat_players()
            while not self.match.is_over():
                self._play_game()
            self._finale()
        except _Quit as q:
            self.out()
            if q.reason == "eof":
                self.out("[bold]Eingabe zu Ende — die Sitzung ist beendet.[/bold]")
            else:
                self.out("[bold]Die Sitzung ist beendet.[/bold] Pfüat eich!")
            if self.match.games:
                self.show_sheet()
        return 0

    def _welcome(self) -> None:
        r = self.rules
        games = " < ".join(g.capitalize() for g in r.games)
        deck = "kurzes Blatt (24)" if r.deck == "short" else "langes Blatt (32)"
        doubling = ", ".join(w.capitalize() for w in DOUBLING_WORDS[: r.doublings]) or "kein Kontra"
        self.out(Panel.fit(
            f"[bold]Mucken[/bold] — Regeln [bold]{escape(r.name)}[/bold]: {deck}, {games}, "
            f"{doubling}, Bobbl bis {r.bobbl_target}"
            + (", Hänger" if r.haenger else "")
            + f"\n{'Hot-Seat: ' if not self.single else ''}Menschen: "
            + ", ".join(self.name(s) for s in sorted(self.humans))
            + (f"; Bots ({self.bot_name}): " + ", ".join(
                self.name(s) for s in range(4) if s not in self.humans)
               if len(self.humans) < 4 else "")
            + "\nEingabe [bold]?[/bold] zeigt die Hilfe.",
            title="stammtisch play",
        ))

    def _seat_players(self) -> None:
        if self.first_dealer is not None:
            self.match.dealer = self.first_dealer
        else:
            result = auskarten(self.shuffle_rng, self.rules.deck,
                               form_pairs=self.rules.auskarten_pairs)
            self._show_auskarten(result)
        for seat in range(4):
            if seat not in self.humans:
                self.bots[seat] = make_bot(self.bot_name)
        self.out(f"Paare: [bold]{self.pair_name(0)}[/bold] gegen [bold]{self.pair_name(1)}[/bold]"
                 "  (Partner sitzen sich gegenüber)")

    def _show_auskarten(self, result: AuskartenResult) -> None:
        self.out("[bold]Auskarten[/bold]: jeder zieht eine Karte, die höchste im Muck gibt.")
        self.out(_join([_join([f"{self.name(p)}:", card_text(c)])
                        for p, c in enumerate(result.draws)], "  ·  "))
        if result.pairs is None:
            self.match.dealer = result.dealer
            self.out(self._verb(result.dealer, "gibst", "gibt") + " zuerst.")
            return
        opener = highest_draw(result.draws, self.rules.deck)
        kind = result.dealt[-1][1].rank  # the second hit ends the dealing
        self.out(self._verb(opener, "hast", "hat") + " die höchste Karte und kartet aus; "
                 f"die Karte in der Mitte sagt: es geht um die {RANK_KIND.get(kind, kind.text)}.")
        self.out(_join([_join([f"{self.name(p)}", card_text(c)]) for p, c in result.dealt],
                       " · "))
        (a, b), (c, d) = result.pairs
        self.out(f"Der erste Treffer: {self.name(a)} — gibt zuerst; "
                 f"der zweite: {self.name(b)} — spielt mit {self.dat(a)}.")
        # re-seat so that partners face each other; the first human keeps seat 0
        person_seat: dict[int, int] = {}
        anchor = self.observer
        partner = b if anchor == a else a if anchor == b else d if anchor == c else c
        others = sorted(p for p in range(4) if p not in (anchor, partner))
        person_seat[anchor], person_seat[partner] = 0, 2
        person_seat[others[0]], person_seat[others[1]] = 1, 3
        old_names = list(self.names)
        humans = self.humans
        self.names = ["" for _ in range(4)]
        for p, s in person_seat.items():
            self.names[s] = old_names[p]
        self.humans = frozenset(person_seat[p] for p in humans)
        self.match.dealer = person_seat[a]
        self.out("Neue Sitzordnung (im Uhrzeigersinn): "
                 + " → ".join(self.names) + f"; {self.name(person_seat[a])} gibt zuerst.")

    def _finale(self) -> None:
        won = self.match.sheet.bobbl_won()
        self.out()
        self.out(Panel.fit(
            f"Sitzung vorbei nach {len(self.match.games)} Spielen. Bobbl gewonnen: "
            f"{self.pair_name(0)} {won[0]} : {won[1]} {self.pair_name(1)}",
            title="Ende"))
        self.show_sheet()

    # -- one game --------------------------------------------------------------------------
    def _play_game(self) -> None:
        m = self.match
        state = m.start_game(self.shuffle_rng)
        self.game_no = len(m.games) + 1
        self._shown_to = None
        cur = m.sheet.current
        totals = [0, 0] if cur.finished else cur.totals
        nr = len(m.sheet.bobbl) + (1 if cur.finished else 0)
        self.out()
        self.out(f"[bold reverse] Spiel {self.game_no} [/bold reverse]  Geber: "
                 f"[bold]{self.name(state.dealer)}[/bold] · Bobbl {nr}: "
                 f"{self.pair_name(0)} {totals[0]} : {totals[1]} {self.pair_name(1)}"
                 + (f" · zählt {state.factor}-fach (eingeworfen)" if state.factor > 1 else ""))
        self.out(self._verb(state.dealer, "mischst", "mischt") + ".")
        while not state.is_terminal():
            seat = state.current_player
            if seat == CHANCE:
                resolve_chance(state, self.shuffle_rng)
                continue
            before = state.view(self.observer)
            if seat in self.humans:
                action = self._human_turn(state, seat)
            else:
                action = self._bot_turn(state, seat)
            self._narrate(state, seat, action, before)
        self.show_result(state)
        bobbl = m.finish_game()
        if bobbl is not None:
            self._announce_bobbl(bobbl)
        if m.is_over():
            return  # the finale shows the sheet
        self.show_sheet()
        if self.interactive:
            answer = self.read("Enter: nächstes Spiel (q: aufhören) ").strip().lower()
            if answer in QUIT_WORDS:
                self._confirm_quit()

    def _bot_turn(self, state: MuckenState, seat: int) -> Action:
        bot = self.bots[seat]
        action = bot.choose(state, self.bot_rng)
        try:
            state.apply(action)
        except StammtischError as e:  # a bot bug must not end the session
            self.out(f"[red]Bot {self.name(seat)} wollte etwas Unerlaubtes ({escape(str(e))}); "
                     "er nimmt die erste erlaubte Möglichkeit.[/red]")
            action = state.legal_actions()[0]
            state.apply(action)
        return action

    # -- narration of public events ------------------------------------------------------
    def _narrate(self, state: MuckenState, seat: int, action: Action,
                 before: Mapping[str, Any]) -> None:
        after = state.view(self.observer)
        phase = before["phase"]
        if phase == "cut":
            if isinstance(action, Cut):
                self.out(self._verb(seat, "hebst", "hebt") + f" {action.count} Karten ab.")
            elif action == Say("klopfen"):
                self.out(self._verb(seat, "klopfst", "klopft") + " (alle Karten auf einmal).")
            else:
                self.out(self._verb(seat, "lässt", "lässt") + " geben.")
        elif phase in ("bidding", "muss"):
            self.out(_join([f"{self.name(seat)}:", Text(str(action), style="bold")]))
        elif phase == "doubling":
            word = str(action)
            self.out(_join([f"{self.name(seat)}:",
                            Text(word.capitalize() + "!" if word != "gut" else word,
                                 style="bold magenta" if word != "gut" else "")]))
        elif phase == "play" and isinstance(action, Card):
            self.out(_join([f"  {self.name(seat)}:", card_text(action)]))
            if len(after["tricks_played"]) > len(before["tricks_played"]):
                self._show_trick_done(after)
        if phase in ("shuffle", "cut") and after["phase"] not in ("shuffle", "cut"):
            packets = "alle auf einmal" if after["klopfen"] else "zweimal"
            self.out(self._verb(state.dealer, "gibst", "gibt") + f" ({packets}).")
            if self.single and after["phase"] != "end":
                self._show_hand(after, self.observer, legal=None)
        if after["phase"] == "play" and phase != "play":
            self._announce_contract(after)

    def _show_trick_done(self, v: Mapping[str, Any]) -> None:
        last = v["last_trick"]
        augen = sum(Card.parse(e["card"]).augen for e in last["cards"])
        n = len(v["tricks_played"])
        self.out(_join([
            Text(f"  → Stich {n} an {self.akk(last['winner'])}", style="bold"),
            f"({augen} Augen) · Stiche {self.pair_name(0)} {v['tricks_taken'][0]} : "
            f"{v['tricks_taken'][1]} {self.pair_name(1)}",
        ]))

    def _announce_contract(self, v: Mapping[str, Any]) -> None:
        contract = v["contract"]
        decl = v["declarer"]
        who = f" — Spieler: {self.name(decl)} ({self.pair_name(decl % 2)})" if decl is not None \
            else ""
        if contract == "pflichtmuck":
            who = " — alle haben „weiter“ gesagt"
        elif contract == "ramsch":
            who = " — wer die wenigsten Augen hat, gewinnt"
        dbl = ", ".join(f"{d['word'].capitalize()} von {self.dat(d['seat'])}"
                        for d in v["doublings"])
        self.out(f"[bold]Gespielt wird: {contract_name(contract)}[/bold]{who}"
                 + (f" · {dbl}" if dbl else ""))
        self.out(f"Trumpf: {trump_description(self.rules, contract)}. "
                 + self._verb(v["leader"], "spielst", "spielt") + " aus.")

    # -- a human's turn ------------------------------------------------------------------
    def _handover(self, seat: int) -> None:
        """Hot-seat: announce whose turn it is before a hand appears."""
        if self.single or self._shown_to == seat:
            return
        self.out()
        self.out(Panel.fit(f"[bold]{self.name(seat)}[/bold] ist dran — "
                           "die anderen bitte wegschauen.", border_style="cyan"))
        if self.interactive:
            answer = self.read(f"{self.name(seat)}: Enter drücken, wenn du allein schaust ")
            if answer.strip().lower() in QUIT_WORDS:
                self._confirm_quit()
            self.console.clear()
        self._shown_to = seat

    def _human_turn(self, state: MuckenState, seat: int) -> Action:
        self._handover(seat)
        self._show_context(state, seat)
        failures = 0
        while True:
            text = self.read(self._prompt(state, seat))
            answer = text.strip()
            low = answer.lower()
            if low in QUIT_WORDS:
                self._confirm_quit()
                continue
            if low in HELP_WORDS:
                self.out(HELP_TEXT)
                continue
            if low in LAST_WORDS:
                self.show_last_trick(state.view(seat))
                continue
            if low in SHEET_WORDS:
                self.show_sheet()
                continue
            if not answer and state.phase != "cut":
                self._show_context(state, seat)
                continue
            action, error = self.interpret(state, seat, answer)
            if action is not None:
                state.apply(action)
                return action
            self.out(Text("✗ " + (error or "Das geht nicht."), style="bold red"))
            if state.phase == "cut":
                failures += 1
                if failures >= CUT_PATIENCE:
                    action = self._default_cut(state)
                    self.out(f"Dann halt die Vorgabe: {_cut_word(action)}.")
                    state.apply(action)
                    return action

    def _confirm_quit(self) -> None:
        answer = self.read("Wirklich aufhören? (j/n) ").strip().lower()
        if answer in YES:
            raise _Quit("quit")
        self.out("Gut, es geht weiter.")

    def _prompt(self, state: MuckenState, seat: int) -> str:
        who = self.name(seat)
        ph = state.phase
        if ph == "cut":
            return f"{who} › Abheben (Anzahl, Enter = {_cut_word(self._default_cut(state))}): "
        if ph == "play":
            return f"{who} › Karte (Kurzschrift oder Nummer): "
        if ph == "doubling":
            return f"{who} › {' oder '.join(str(a) for a in state.legal_actions())}? "
        return f"{who} › Ansage (Wort oder Nummer): "

    def _default_cut(self, state: MuckenState) -> Action:
        legal = state.legal_actions()
        geben = Say("geben")
        if state.cuts and geben in legal:
            return geben
        cuts = [a for a in legal if isinstance(a, Cut)]
        if not cuts:
            return geben if geben in legal else legal[0]
        want = len(state.stack) // 2
        return min(cuts, key=lambda c: abs(c.count - want))

    def options(self, state: MuckenState, seat: int) -> list[Action]:
        """The numbered choices shown to ``seat``: legal cards in hand order, or the words."""
        v = state.view(seat)
        if state.phase == "play":
            allowed = set(v["legal"])
            return [Card.parse(c) for c in v["hand"] if c in allowed]
        return [a for a in state.legal_actions() if isinstance(a, Say)]

    def interpret(self, state: MuckenState, seat: int, text: str) -> tuple[Action | None, str]:
        """The action ``text`` means for ``seat`` if it is legal, else (None, the reason)."""
        ph = state.phase
        legal = state.legal_actions()
        low = text.strip().lower()
        if ph == "cut":
            return self._interpret_cut(state, low)
        options = self.options(state, seat)
        if low.isdigit():
            n = int(low)
            if 1 <= n <= len(options):
                return options[n - 1], ""
            return None, f"Nummer {n} gibt es nicht — wähle 1 bis {len(options)}."
        if ph == "play":
            try:
                c = Card.parse(text)
            except InvalidCardError as e:
                if low.isalpha() and len(low) > 2:
                    return None, (f"„{text}“: jetzt wird gespielt — gib eine Karte an "
                                  "(z. B. EO, h10) oder ihre Nummer.")
                return None, f"„{text}“ ist keine Karte ({e}). Beispiele: EO, h10, SA."
            if c in legal:
                return c, ""
            hand = [Card.parse(x) for x in state.view(seat)["hand"]]
            why = state.explain_illegal(c)
            if c not in hand:
                return None, f"{c} hast du nicht auf der Hand ({why})."
            return None, f"{c} darfst du jetzt nicht spielen: Farbe/Trumpf bedienen! ({why})"
        # bidding, muss, doubling: words
        words = [str(a) for a in legal if isinstance(a, Say)]
        if low in words:
            return Say(low), ""
        if low.isalpha():
            matches = [w for w in words if w.startswith(low)]
            if len(matches) == 1:
                return Say(matches[0]), ""
            if len(matches) > 1:
                return None, f"„{text}“ ist mehrdeutig: {', '.join(matches)}."
        try:
            Card.parse(text)
        except InvalidCardError:
            pass
        else:
            return None, f"Jetzt wird noch nicht gespielt, sondern angesagt ({', '.join(words)})."
        if not low:
            return None, f"Bitte etwas sagen: {', '.join(words)}."
        why = state.explain_illegal(Say(low))
        return None, f"„{text}“ geht jetzt nicht: {why}. Möglich: {', '.join(words)}."

    def _interpret_cut(self, state: MuckenState, low: str) -> tuple[Action | None, str]:
        legal = state.legal_actions()
        if not low:
            return self._default_cut(state), ""
        action: Action | None = None
        if low.isdigit():
            action = Cut(int(low))
        elif low.startswith("cut:") and low[4:].isdigit():
            action = Cut(int(low[4:]))
        else:
            words = [str(a) for a in legal if isinstance(a, Say)]
            matches = [w for w in words if w.startswith(low)] if low.isalpha() else []
            if low in words:
                action = Say(low)
            elif len(matches) == 1:
                action = Say(matches[0])
            elif low in ("geben", "klopfen"):
                action = Say(low)
            else:
                return None, (f"„{low}“: beim Abheben gib eine Anzahl Karten an, Enter für "
                              "die Vorgabe" + (" oder " + "/".join(words) if words else "") + ".")
        if action in legal:
            return action, ""
        why = state.explain_illegal(action)
        if isinstance(action, Cut) and len(state.cuts) < state.rules.cut_max_times:
            r = state.rules
            return None, (f"{action.count} Karten abheben geht nicht: mindestens {r.cut_min} "
                          f"abheben und {r.cut_min_left} liegen lassen ({why}).")
        return None, f"{_cut_word(action)} geht nicht: {why}."

    # -- what a human sees at his turn -------------------------------------------------------
    def _show_context(self, state: MuckenState, seat: int) -> None:
        v = state.view(seat)
        ph = v["phase"]
        self.out()
        title = f"{self.name(seat)} ist dran" if not self._is_du(seat) else "Du bist dran"
        self.out(f"[bold cyan]── Spiel {self.game_no} · {title} ──[/bold cyan]")
        if ph == "cut":
            done = f" (schon abgehoben: {', '.join(map(str, v['cuts']))})" if v["cuts"] else ""
            cut_range = [a.count for a in state.legal_actions() if isinstance(a, Cut)]
            parts = []
            if cut_range:
                parts.append(f"{min(cut_range)}–{max(cut_range)} Karten abheben")
            parts += [str(a) for a in state.legal_actions() if isinstance(a, Say)]
            self.out(f"{self.name(state.dealer)} hat gemischt; "
                     + ("du hebst" if self._is_du(seat) else f"{self.name(seat)} hebt")
                     + f" ab{done}. Der Stapel hat {state.rules.deck_size} Karten.")
            self.out("Möglich: " + " · ".join(parts)
                     + f"  (Enter = {_cut_word(self._default_cut(state))})")
            return
        self._show_calls(v)
        if ph == "doubling":
            decl = v["declarer"]
            self.out(f"[bold]{contract_name(v['contract'])}[/bold] von "
                     f"{self.name(decl)} ({self.pair_name(decl % 2)}). "
                     f"Trumpf: {trump_description(self.rules, v['contract'])}.")
            if v["doublings"]:
                self.out("Bisher: " + ", ".join(
                    f"{d['word'].capitalize()} von {self.dat(d['seat'])}" for d in v["doublings"]))
        if ph == "muss":
            self.out("Alle haben „weiter“ gesagt — " + self._verb(seat, "hast", "hat")
                     + f" {self.rules.muss_card} und " + ("musst" if self._is_du(seat) else "muss")
                     + " ein Spiel ansagen (Muss-Spiel).")
        if ph == "play":
            self._show_table(v)
        options = self.options(state, seat)
        self._show_hand(v, seat, legal=options if ph == "play" else None)
        if ph != "play":
            self.out(_join([Text(f"[{i}]", style="bold") + Text(f" {a}")
                            for i, a in enumerate(options, 1)], "  "), highlight=False)

    def _show_calls(self, v: Mapping[str, Any]) -> None:
        calls = v["calls"]
        if v["phase"] == "play":
            return
        if calls:
            self.out("Ansagen: " + " · ".join(f"{self.name(c['seat'])}: {c['call']}"
                                              for c in calls), highlight=False)
        else:
            self.out(self._verb(v["leader"], "sagst", "sagt") + " als Erster an.")
        if v["standing_bid"] and v["phase"] == "bidding":
            holder = next(c["seat"] for c in reversed(calls) if c["call"] != "weiter")
            self.out(f"Höchstes Spiel bisher: [bold]{v['standing_bid']}[/bold] "
                     f"({self.name(holder)})")

    def _show_table(self, v: Mapping[str, Any]) -> None:
        decl = v["declarer"]
        head = f"[bold]{contract_name(v['contract'])}[/bold]"
        if decl is not None:
            head += f" von {self.name(decl)}"
        if v["doublings"]:
            head += " · " + ", ".join(f"{d['word'].capitalize()} ({self.name(d['seat'])})"
                                      for d in v["doublings"])
        n = len(v["tricks_played"]) + 1
        self.out(f"{head} · Trumpf: {trump_description(self.rules, v['contract'])}")
        self.out(f"Stich {n} · Stiche {self.pair_name(0)} {v['tricks_taken'][0]} : "
                 f"{v['tricks_taken'][1]} {self.pair_name(1)}")
        if v["trick"]:
            self.out(_join(["Auf dem Tisch:"] + [
                _join([self.name(e["seat"]), card_text(e["card"])]) for e in v["trick"]],
                "  "))
        else:
            self.out(self._verb(v["to_act"], "spielst", "spielt") + " aus.")

    def _show_hand(self, v: Mapping[str, Any], seat: int, legal: Sequence[Action] | None) -> None:
        hand = [Card.parse(c) for c in v["hand"]]
        label = "Deine Karten:" if self.single else f"Karten von {self.name(seat)}:"
        parts: list[Text | str] = [Text(label, style="bold")]
        if legal is None:
            parts += [card_text(c, "bold") for c in hand]
        else:
            numbers = {c: i for i, c in enumerate(legal, 1)}
            for c in hand:
                if c in numbers:
                    parts.append(Text(f"[{numbers[c]}]", style="bold") + card_text(c, "bold"))
                else:
                    parts.append(card_text(c, "dim") + Text("·", style="dim"))
        self.out(_join(parts, " "), highlight=False)
        if legal is not None and len(legal) < len(hand):
            self.out(Text("  (Karten mit · darfst du jetzt nicht spielen: bedienen!)",
                          style="dim"))

    # -- the last trick, the result, the sheet ------------------------------------------------
    def show_last_trick(self, v: Mapping[str, Any]) -> None:
        last = v["last_trick"]
        if last is None:
            self.out("Es ist noch kein Stich gespielt.")
            return
        augen = sum(Card.parse(e["card"]).augen for e in last["cards"])
        self.out(_join(["Letzter Stich:"] + [
            _join([self.name(e["seat"]), card_text(e["card"])]) for e in last["cards"]]
            + [Text(f"→ {self.name(last['winner'])} ({augen} Augen)", style="bold")], "  "))

    def show_result(self, state: MuckenState) -> None:
        v = state.view(self.observer)
        r = v["result"]
        lines: list[str] = []
        contract = r["contract"]
        title = f"Ergebnis Spiel {self.game_no}: {contract_name(contract)}"
        if contract == "eingeworfen":
            lines.append("Alle haben „weiter“ gesagt — die Karten werden eingeworfen und neu "
                         "gegeben.")
            if self.rules.einwerfen_double != "none":
                lines.append("Das nächste Spiel zählt doppelt.")
        else:
            decl = r["declarer"]
            if contract == "sie":
                lines.append(f"{self.name(decl)} hat die Sie (alle Ober und die zwei höchsten "
                             "Unter) — das Spiel ist sofort aus.")
            elif decl is not None:
                lines.append(f"Spieler: {self.name(decl)} ({self.pair_name(decl % 2)})"
                             + (" — Muss-Spiel" if r["forced"] else ""))
            if v["doublings"]:
                lines.append(", ".join(f"{d['word'].capitalize()} von {self.dat(d['seat'])}"
                                       for d in v["doublings"]))
            a, t = r["augen"], r["tricks"]
            lines.append(f"Augen: {self.pair_name(0)} {a[0]} : {a[1]} {self.pair_name(1)}")
            lines.append(f"Stiche: {self.pair_name(0)} {t[0]} : {t[1]} {self.pair_name(1)}")
            if r["violation"] is not None:
                lines.append(f"Regelverstoß von {self.name(r['violation'])}.")
            if r["winner"] is None:
                lines.append(f"Nicht gewertet ({r['reason']}).")
            else:
                if r["declarer"] is not None and contract != "sie":
                    notes = [REASON_TEXT.get(r["reason"], r["reason"])]
                else:
                    notes = [r["reason"] if r["reason"] != "gewonnen" else ""]
                if r["column"] in ("schneider", "schwarz"):
                    notes.append(r["column"])
                if r["doublings"]:
                    notes.append("mit " + "/".join(w.capitalize()
                                                   for w in DOUBLING_WORDS[: r["doublings"]]))
                if r["factor"] > 1:
                    notes.append(f"{r['factor']}-fach wegen Einwerfen")
                why = ", ".join(n for n in notes if n)
                lines.append(f"[bold]Gewonnen: {self.pair_name(r['winner'])}[/bold] — "
                             f"{r['score']} Punkt{'e' if r['score'] != 1 else ''}"
                             + (f" ({why})" if why else ""))
        self.out(Panel("\n".join(lines), title=title, expand=False, border_style="green"))
        dealt = v.get("dealt")
        if dealt:
            table = Table(title="Die Karten dieses Spiels", show_header=False, box=None)
            for seat, hand in enumerate(dealt):
                cards = state.sort_hand([Card.parse(c) for c in hand])
                table.add_row(self.name(seat), _join([card_text(c) for c in cards]))
            self.out(table)

    def _announce_bobbl(self, b: Bobbl) -> None:
        assert b.winner is not None and b.loser is not None
        nr = len(self.match.sheet.bobbl)
        text = (f"[bold]● Bobbl {nr}![/bold] {self.pair_name(b.winner)} gewinnen den Bobbl, "
                f"{self.pair_name(b.loser)} bekommen ihn")
        if b.brille:
            text += " — zu null: eine [bold]Brille[/bold]!"
        else:
            text += f" — mit {b.tore} geschossenen Toren."
        self.out(Panel.fit(text, border_style="yellow"))

    def show_sheet(self) -> None:
        """The Spielstandzettel: every Bobbl with its lines, dots, Brillen and Tore."""
        sheet = self.match.sheet
        table = Table(title="Spielstandzettel", show_lines=False)
        table.add_column("Spiel", justify="right")
        table.add_column(self.pair_name(0), justify="right")
        table.add_column(self.pair_name(1), justify="right")
        table.add_column("Spiel / Notiz")
        for nr, b in enumerate(sheet.bobbl, 1):
            if not b.entries:
                continue
            table.add_row("", f"[bold]Bobbl {nr}[/bold]", "", "", end_section=False)
            totals = [0, 0]
            for e in b.entries:
                cells = ["", ""]
                note = self._entry_note(e.game, e.note)
                if e.pair is None:
                    cells = ["–", "–"]
                elif e.written:
                    totals[e.pair] += e.points
                    cells[e.pair] = f"{totals[e.pair]} (+{e.points})"
                else:
                    cells[e.pair] = f"(+{e.points}) Bobbl!"
                table.add_row(str(e.game), cells[0], cells[1], note)
            if b.finished:
                assert b.loser is not None
                cells = ["", ""]
                cells[b.loser] = "● Brille" if b.brille else "●"
                table.add_row("", cells[0], cells[1],
                              f"{self.pair_name(b.loser)} bekommen den Bobbl, Tore {b.tore}",
                              end_section=True)
        self.out(table)
        won = sheet.bobbl_won()
        tore = [0, 0]
        gegner = [0, 0]
        dots = ["", ""]
        for b in sheet.finished_bobbl():
            assert b.winner is not None and b.loser is not None
            tore[b.loser] += b.tore  # geschossene Tore: points in a lost Bobbl
            gegner[b.winner] += b.tore  # the opponents' points in a Bobbl this pair won
            dots[b.loser] += "◎" if b.brille else "●"
        for p in (0, 1):
            self.out(f"{self.pair_name(p)}: Bobbl gewonnen {won[p]}, bekommen "
                     f"{dots[p] or '–'} · Tore {tore[p]} · gegnerische Tore {gegner[p]}",
                     highlight=False)
        cur = sheet.current
        if not cur.finished:
            self.out(f"Laufender Bobbl: {cur.totals[0]} : {cur.totals[1]} "
                     f"(bis {sheet.target})")

    def _entry_note(self, game: int, note: str) -> str:
        games = self.match.games
        if 1 <= game <= len(games):
            s = games[game - 1]
            r = s.result() or {}
            text = contract_name(s.contract)
            if s.declarer is not None:
                text += f" ({self.name(s.declarer)})"
            if s.doublings:
                text += ", " + "/".join(w.capitalize() for w in DOUBLING_WORDS[: s.doublings])
            if r.get("winner") is None:
                text += " — nicht gewertet"
            elif r.get("reason"):
                text += f" — {r['reason']}"
            return text
        return note


def _cut_word(action: Action) -> str:
    if isinstance(action, Cut):
        return f"{action.count} abheben"
    return str(action)


# -- the typer command -------------------------------------------------------------------


def _stdin_reader(console: Console, tty: bool) -> ReadFn:
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


def _fail(message: str) -> typer.Exit:
    typer.echo(f"Fehler: {message}", err=True)
    return typer.Exit(2)


def play_command(
    rules: str = typer.Option("seefest", "--rules", help="Rules preset: seefest or wikipedia."),
    option: list[str] = typer.Option(
        [], "--option", "-o", metavar="KEY=VALUE",
        help="Change a rules option, e.g. -o bobbl_target=31 -o klopfen=true "
             "-o games=muck,wenz,geier (repeatable)."),
    bots: str | None = typer.Option(
        None, "--bots", help="Bot for the other seats (default: heuristic if available, "
                             "else random)."),
    seed: int | None = typer.Option(None, "--seed", help="Seed shuffling and bots "
                                                        "(reproducible sessions)."),
    bobbl: int = typer.Option(2, "--bobbl", min=0, help="Stop after N Bobbl (0: no limit)."),
    first_dealer: int | None = typer.Option(
        None, "--first-dealer", min=0, max=3,
        help="Seat of the first dealer (0-3); default: Auskarten."),
    hotseat: bool = typer.Option(False, "--hotseat", help="All four seats are human "
                                                           "(one terminal, taking turns)."),
    humans: str | None = typer.Option(
        None, "--humans", help="Human seats, e.g. 0,2 (0 = you; clockwise; 2 = partner)."),
) -> None:
    """Play Mucken in the terminal: you (seat 0) and a bot partner against two bots.

    Enter cards as EO, h10, … or their number; calls as weiter, muck, kontra, gut …;
    at the cut a number of cards, Enter (default), geben or klopfen.  Commands:
    '?' help, 'l' last trick, 'z' score sheet, 'q' quit.  Works with piped input
    (one answer per line; the session ends cleanly at the end of input).
    """
    try:
        the_rules = parse_rules(rules, option)
    except StammtischError as e:
        raise _fail(f"Regeln: {e}") from None
    try:
        seats = parse_humans(humans) if humans is not None else (
            frozenset(range(4)) if hotseat else frozenset({0}))
    except ValueError as e:
        raise _fail(str(e)) from None
    _load_bots()
    bot = bots if bots is not None else default_bot_name()
    if bot not in BOTS:
        raise _fail(f"unknown bot {bot!r} (known: {', '.join(sorted(BOTS))})")
    if seed is not None:
        base = random.Random(seed)
        shuffle_rng: Rng = random.Random(base.getrandbits(64))
        bot_rng: Rng = random.Random(base.getrandbits(64))
    else:
        shuffle_rng = random.SystemRandom()
        bot_rng = random.Random()
    console = Console(highlight=False)
    tty = sys.stdin.isatty()
    session = PlaySession(
        the_rules, console=console, read=_stdin_reader(console, tty), humans=seats, bot=bot,
        shuffle_rng=shuffle_rng, bot_rng=bot_rng, bobbl_limit=bobbl,
        first_dealer=first_dealer, interactive=tty and console.is_terminal,
    )
    try:
        code = session.run()
    except KeyboardInterrupt:
        console.print("\nAbgebrochen — die Sitzung ist beendet.")
        code = 130
    raise typer.Exit(code)
