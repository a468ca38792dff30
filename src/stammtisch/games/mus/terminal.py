"""A Mus session in the terminal (``stammtisch play --game mus``).

A match (:func:`stammtisch.games.mus.online.new_match`: sets to ``target`` points, the
match to ``sets`` sets; the deal passes counterclockwise).  ``--bobbl N`` stops the
session after N sets (0: the whole match).  One human at seat 0 with a bot partner
(seat 2) against two bots, or several humans at one terminal (``--hotseat``,
``--humans 0,2``): the prompt names whose turn it is and shows only that seat's cards.

Rules options as ``-o KEY=VALUE`` (``target``, ``sets``, ``reyes``, ``punto_bonus``) and
the table options of the señas: ``-o senas=on|sichtbar`` and ``-o catch=0.3`` (see
:mod:`stammtisch.games.mus.senas`).  At a human's prompt ``seña 31`` (or ``sena 31``)
shows the partner a seña; the señas a seat may know are shown with its cards.  Bots make
no señas.

Shown: the Mus rounds (who says ``mus``, how many cards each throws away), the Pares and
Juego declarations, every bet with the stake and who must answer, then the showdown lance
by lance (who holds the best hand, what was at stake, the bonus, and why), the points and
the stones (amarracos of 5, piedras of 1) and the sets.

The core is :class:`PlaySession`; it takes a ``read(prompt) -> str`` function (raising
``EOFError`` at the end of input) and a rich ``Console``, so tests drive it without a
terminal.  The Mus texts are this module's own (:data:`TEXTS`, de/en); the shared ones
come from :mod:`stammtisch.i18n`.  Game words stay Spanish.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.text import Text

from stammtisch.bots import BOTS, Bot
from stammtisch.bots.base import BotFactory
from stammtisch.engine.core import CHANCE, Action, Rng, Say
from stammtisch.errors import RulesError, StammtischError
from stammtisch.games.mus import senas as senas_mod
from stammtisch.games.mus.online import MusSitting, new_match, stones
from stammtisch.games.mus.rules import OPTIONS, MusRules
from stammtisch.games.mus.senas import OFF, SenasConfig
from stammtisch.games.mus.state import MAX_ENVIDO, MusState
from stammtisch.i18n import Translator

ReadFn = Callable[[str], str]

#: names of bot seats (by seat)
BOT_NAMES = ("Iñaki", "Maite", "Koldo", "Amaia")
QUIT_WORDS = {"q", "quit", "exit", "ende", "aufhören", "aufhoeren"}
HELP_WORDS = {"?", "h", "hilfe", "help"}
SHEET_WORDS = {"z", "zettel", "stand", "sheet"}
YES = {"j", "ja", "y", "yes"}

#: the session's Mus texts by language
TEXTS: dict[str, dict[str, str]] = {
    "de": {
        "welcome": "Mus (Regeln {preset}: Satz bis {target} Punkte, Partie auf {sets} Sätze, "
                   "{reyes} Könige). Señas: {senas}.",
        "length": "Die Sitzung endet nach {n} Sätzen (oder mit der Partie).",
        "pairs": "Paar A: {a} · Paar B: {b}",
        "header": "— Spiel {n} (Satz {set}) · Geber {dealer} · Mano {mano} · "
                  "gegen den Uhrzeigersinn —",
        "says": "{name}: {word}",
        "discards": "{name}: descarte, {n} Karte(n)",
        "draw": "Alle bekommen neue Karten. Neue Mus-Runde.",
        "lance": "— {lance} —",
        "decl": "Pares: {pares} · Juego: {juego}",
        "nobody": "niemand",
        "no_bet": "{lance}: keine Wette (nur ein Paar beteiligt)",
        "stake": "Einsatz {n}",
        "ordago": "Órdago!",
        "answer": "{name} muss antworten",
        "answer.du": "Du musst antworten",
        "your_cards": "Karten von {name}:",
        "your_cards.du": "Deine Karten:",
        "possible": "Möglich: {options}",
        "envido_hint": "envido N mit N von 2 bis {max}",
        "senas_open": "Señas (seña ID): {list}",
        "senas_known": "Bekannte Señas: {list}",
        "prompt": "{name}> ",
        "sena_made": "{name} macht eine Seña.",
        "sena_made.du": "Du zeigst deinem Partner: {sena}.",
        "sena_no": "Seña nicht möglich: {why}",
        "bad": "„{text}“ geht jetzt nicht: {why}",
        "ambiguous": "„{text}“ ist mehrdeutig: {matches}",
        "showdown": "Auswertung:",
        "lance_line": "{lance}: {who} — {why} → {points}",
        "no_points": "keine Punkte",
        "set_over": "nicht gezählt (Satz schon gewonnen)",
        "stopped": "nicht gezählt (Spiel vorher beendet)",
        "not_reached": "nicht erreicht",
        "querido": "Wette angenommen ({n})",
        "no_querido": "Wette abgelehnt: {n} sofort",
        "paso": "en paso",
        "ordago_won": "Órdago angenommen: gewinnt den Satz",
        "bonus": "Bonus {list}",
        "score": "Stand: Paar A {a} ({sa}) · Paar B {b} ({sb}) · Sätze {wa}:{wb}",
        "stones": "{am} Amarracos, {pi} Piedras",
        "set_won": "Paar {pair} gewinnt den Satz!",
        "match_won": "Paar {pair} gewinnt die Partie!",
        "help": "Eingabe: ein Wort (mus, no mus, paso, envido 3, quiero, no quiero, "
                "ordago), eine Nummer der Liste, beim Descarte die Karten (z. B. OR C1); "
                "seña ID zeigt dem Partner eine Seña; z: Stand; q: beenden.",
        "bye": "Ende der Sitzung.",
    },
    "en": {
        "welcome": "Mus (rules {preset}: sets to {target} points, match to {sets} sets, "
                   "{reyes} kings). Señas: {senas}.",
        "length": "The session ends after {n} sets (or with the match).",
        "pairs": "Pair A: {a} · Pair B: {b}",
        "header": "— Hand {n} (set {set}) · dealer {dealer} · Mano {mano} · "
                  "counterclockwise —",
        "says": "{name}: {word}",
        "discards": "{name}: descarte, {n} card(s)",
        "draw": "Everybody draws new cards. A new Mus round.",
        "lance": "— {lance} —",
        "decl": "Pares: {pares} · Juego: {juego}",
        "nobody": "nobody",
        "no_bet": "{lance}: no betting (one pair only)",
        "stake": "stake {n}",
        "ordago": "Órdago!",
        "answer": "{name} must answer",
        "answer.du": "You must answer",
        "your_cards": "{name}'s cards:",
        "your_cards.du": "Your cards:",
        "possible": "Possible: {options}",
        "envido_hint": "envido N with N from 2 to {max}",
        "senas_open": "Señas (seña ID): {list}",
        "senas_known": "Señas known: {list}",
        "prompt": "{name}> ",
        "sena_made": "{name} makes a seña.",
        "sena_made.du": "You show your partner: {sena}.",
        "sena_no": "No seña now: {why}",
        "bad": "“{text}” is not possible now: {why}",
        "ambiguous": "“{text}” is ambiguous: {matches}",
        "showdown": "Showdown:",
        "lance_line": "{lance}: {who} — {why} → {points}",
        "no_points": "no points",
        "set_over": "not counted (the set was already won)",
        "stopped": "not counted (the hand stopped before)",
        "not_reached": "not reached",
        "querido": "bet accepted ({n})",
        "no_querido": "bet refused: {n} at once",
        "paso": "en paso",
        "ordago_won": "órdago accepted: wins the set",
        "bonus": "bonus {list}",
        "score": "Score: pair A {a} ({sa}) · pair B {b} ({sb}) · sets {wa}:{wb}",
        "stones": "{am} amarracos, {pi} piedras",
        "set_won": "Pair {pair} wins the set!",
        "match_won": "Pair {pair} wins the match!",
        "help": "Enter a word (mus, no mus, paso, envido 3, quiero, no quiero, ordago), "
                "a number from the list, at the descarte the cards (e.g. OR C1); "
                "seña ID shows your partner a seña; z: score; q: quit.",
        "bye": "The session is over.",
    },
}

PAIR_NAMES = ("A", "B")


class _Quit(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class MusOptions:
    """What ``parse_rules`` gives :class:`PlaySession`: the rules and the table's señas."""

    rules: MusRules
    senas: SenasConfig = field(default=OFF)


def _convert(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw.strip()


def parse_rules(preset: str, options: Sequence[str] = ()) -> MusOptions:
    """Rules from a preset and ``KEY=VALUE`` options, plus ``senas``/``catch`` (the
    table's señas); ``RulesError`` naming the option when one is not valid."""
    changes: dict[str, Any] = {}
    table: dict[str, Any] = {}
    for item in options:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep:
            raise RulesError(f"{item!r}: expected KEY=VALUE")
        if key == "senas":
            table["mode"] = raw.strip()
        elif key == "catch":
            table["catch"] = _convert(raw)
        elif key in OPTIONS:
            changes[key] = _convert(raw)
        else:
            raise RulesError(f"unknown option {key!r} (known: "
                             f"{', '.join(sorted((*OPTIONS, 'catch', 'senas')))})")
    rules = MusRules.preset(preset, **changes)
    return MusOptions(rules, SenasConfig(table.get("mode", "off"),
                                         table.get("catch", senas_mod.DEFAULT_CATCH)))


def parse_humans(text: str) -> frozenset[int]:
    """``0,2`` -> the human seats (``ValueError`` if not seats 0–3)."""
    try:
        seats = frozenset(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise ValueError(f"--humans {text!r}: give seats 0-3, e.g. 0,2") from None
    if not seats or not seats <= {0, 1, 2, 3}:
        raise ValueError(f"--humans {text!r}: give seats 0-3, e.g. 0,2")
    return seats


def _factories() -> dict[str, BotFactory]:
    from stammtisch.games.mus.plugin import PLUGIN  # plugin imports this module lazily

    return {**BOTS, **dict(PLUGIN.load_bots())}


def default_bot_name() -> str:
    """Mus's default bot if it is there, else ``random``."""
    from stammtisch.games.mus.plugin import PLUGIN

    name = PLUGIN.default_bot
    return name if name in _factories() else "random"


def make_bot(name: str) -> Bot:
    factories = _factories()
    try:
        return factories[name]()
    except KeyError:
        raise StammtischError(
            f"unknown bot {name!r} (known: {', '.join(sorted(factories))})") from None


class PlaySession:
    """A Mus match at one terminal (see the module).  ``bobbl_limit``: stop after that
    many sets (``None``/0: play the match to its end)."""

    def __init__(
        self,
        rules: MusRules | MusOptions,
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
        options = rules if isinstance(rules, MusOptions) else MusOptions(rules)
        self.rules = options.rules
        self.senas = options.senas
        self.t = Translator(lang)
        self.texts = TEXTS.get(lang, TEXTS["en"])
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
        self.sets_limit = bobbl_limit or None
        self.match: MusSitting = new_match(self.rules, first_dealer or 0, None,
                                           senas=self.senas)
        self.hand_no = 0
        self.state: MusState | None = None

    # -- texts and I/O ----------------------------------------------------------------
    def tx(self, key: str, seat: int | None = None, **params: Any) -> str:
        if seat is not None and self.single and seat in self.humans \
                and f"{key}.du" in self.texts:
            key = f"{key}.du"
        if seat is not None:
            params.setdefault("name", self.names[seat])
        return self.texts[key].format(**params)

    def out(self, *items: Any, **kw: Any) -> None:
        self.console.print(*items, **kw)

    def say(self, text: str) -> None:
        self.console.print(Text(text))

    def read(self, prompt: str) -> str:
        try:
            return self._read(prompt)
        except EOFError:
            raise _Quit("eof") from None

    def pair_label(self, pair: int) -> str:
        return f"{PAIR_NAMES[pair]} ({self.names[pair]} & {self.names[pair + 2]})"

    # -- the match ----------------------------------------------------------------------
    def sets_played(self) -> int:
        return len(self.match.match.sets)

    def done(self) -> bool:
        return self.match.is_over() or (
            self.sets_limit is not None and self.sets_played() >= self.sets_limit)

    def run(self) -> int:
        """Play until the match (or the session's sets) is over, or quit / end of input."""
        try:
            self._welcome()
            while not self.done():
                self._play_hand()
            self._finale()
        except _Quit as q:
            self.out()
            self.out(f"[bold]{self.t('play.eof' if q.reason == 'eof' else 'play.quit')}[/bold]")
            if self.match.sheet.hands:
                self.show_score()
        return 0

    def _welcome(self) -> None:
        r = self.rules
        senas = self.senas.mode if self.senas.mode != "sichtbar" else \
            f"sichtbar (catch {self.senas.catch:g})"
        self.say(self.tx("welcome", preset=r.preset_name, target=r.target, sets=r.sets,
                         reyes=r.reyes, senas=senas))
        if self.sets_limit:
            self.say(self.tx("length", n=self.sets_limit))
        self.say(self.tx("pairs", a=f"{self.names[0]} & {self.names[2]}",
                         b=f"{self.names[1]} & {self.names[3]}"))
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
        self.say(self.tx("header", n=self.hand_no, set=self.match.match.set_number,
                         dealer=self.names[state.dealer], mano=self.names[state.mano]))
        lance = ""
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(self.shuffle_rng))
                continue
            if state.lance != lance and state.phase == "lances":
                if not lance:
                    self._declarations(state)
                lance = state.lance
                self.say(self.tx("lance", lance=lance.capitalize()))
            seat = state.current_player
            if seat in self.humans:
                action = self._human_turn(state, seat)
            else:
                action = self.bots[seat].choose(state, self.bot_rng)
            phase = state.phase
            state.apply(action)
            self._narrate(state, seat, phase, action)
        self.show_showdown(state)
        self.match.finish_game()
        self.state = None
        hand = self.match.match.hands[-1]
        self.show_score(hand["score"])
        if hand["set_winner"] is not None:
            self.out(f"[bold]{self.tx('set_won', pair=PAIR_NAMES[hand['set_winner']])}[/bold]")
        if self.interactive and not self.done():
            low = self.read(self.t("play.next_game")).strip().lower()
            if low in QUIT_WORDS:
                self._confirm_quit()

    def _declarations(self, state: MusState) -> None:
        v = state.view(None)
        nobody = self.texts["nobody"]
        self.say(self.tx("decl", pares=", ".join(self.names[s] for s in v["pares"]) or nobody,
                         juego=", ".join(self.names[s] for s in v["juego"]) or nobody))

    def _narrate(self, state: MusState, seat: int, phase: str, action: Action) -> None:
        word = str(action)
        if word.startswith("descarte "):
            self.say(self.tx("discards", seat, n=len(word.split()) - 1))
            if state.phase == "mus":
                self.say(self.texts["draw"])
            return
        self.say(self.tx("says", seat, word=word))
        if phase == "lances" and state.phase == "lances":
            b = state.betting()
            if b.get("bettor") is not None and b["to_act"] != seat:
                stake = self.texts["ordago"] if b["ordago"] else self.tx("stake", n=b["stake"])
                self.say(f"  {stake} · {self.tx('answer', b['to_act'])}")

    # -- a human's turn ---------------------------------------------------------------------
    def _options(self, state: MusState) -> list[str]:
        """The legal words, ``envido`` only as ``envido 2`` (any N up to the maximum)."""
        return [str(a) for a in state.legal_actions()
                if not (str(a).startswith("envido ") and str(a) != "envido 2")]

    def _show_context(self, state: MusState, seat: int) -> None:
        v = state.view(seat)
        self.out()
        b = state.betting()
        if b and b.get("bettor") is not None:
            stake = self.texts["ordago"] if b["ordago"] else self.tx("stake", n=b["stake"])
            self.say(f"{b['lance'].capitalize()}: {stake} · {self.tx('answer', b['to_act'])}")
        hand = Text(self.tx("your_cards", seat) + " ")
        hand.append(" ".join(v["hand"]), style="bold")
        self.out(hand)
        known = v.get("senas") or []
        if known:
            self.say(self.tx("senas_known", list=", ".join(
                f"{self.names[e['seat']]}: {e['sena']}" for e in known)))
        if v.get("senas_open"):
            self.say(self.tx("senas_open", list=", ".join(v["senas_open"])))
        options = self._options(state)
        self.say(self.tx("possible", options="  ".join(
            f"{i}:{w}" for i, w in enumerate(options, 1))))
        if "envido 2" in options:
            self.say("  (" + self.tx("envido_hint", max=MAX_ENVIDO) + ")")

    def _human_turn(self, state: MusState, seat: int) -> Action:
        self._show_context(state, seat)
        while True:
            text = self.read(self.tx("prompt", seat))
            low = text.strip().lower()
            if not low:
                self._show_context(state, seat)
                continue
            if low in HELP_WORDS:
                self.say(self.texts["help"])
                continue
            if low in QUIT_WORDS:
                self._confirm_quit()
                continue
            if low in SHEET_WORDS:
                self.show_score()
                continue
            if low.split()[0] in (senas_mod.WORD, "sena"):
                self._sena(state, seat, low)
                continue
            action, error = self.interpret(state, seat, text)
            if action is not None:
                return action
            self.out(Text(error, style="red"))

    def _sena(self, state: MusState, seat: int, text: str) -> None:
        try:
            state.apply_out_of_turn(seat, state.parse_action(text), self.shuffle_rng)
        except StammtischError as e:
            self.out(Text(self.tx("sena_no", why=str(e)), style="red"))
            return
        made = state.senas[-1]
        self.say(self.tx("sena_made", seat, sena=made.sign))

    def interpret(self, state: MusState, seat: int, text: str) -> tuple[Action | None, str]:
        """The legal action ``text`` means (a number of the list, a word, a unique
        beginning of one, or at the descarte just the cards), or ``None`` and why not."""
        legal = state.legal_actions()
        options = self._options(state)
        low = " ".join(text.strip().split())
        if low.isdigit():
            n = int(low)
            if 1 <= n <= len(options):
                return Say(options[n - 1]), ""
            return None, self.t("play.err.number", n=n, max=len(options))
        if state.phase == "discard" and not low.lower().startswith("descarte"):
            low = "descarte " + low
        try:
            parsed = state.parse_action(low if low.startswith("descarte") else low.lower())
        except StammtischError as e:
            why = str(e)
        else:
            action = parsed
            if isinstance(action, Say) and action.word.startswith("descarte "):
                wanted = sorted(action.word.split()[1:])
                for a in legal:
                    if isinstance(a, Say) and sorted(a.word.split()[1:]) == wanted \
                            and a.word.startswith("descarte "):
                        return a, ""
            if action in legal:
                return action, ""
            why = state.explain_illegal(action)
        matches = [w for w in options if w.startswith(low.lower())]
        if len(matches) == 1:
            return Say(matches[0]), ""
        if len(matches) > 1:
            return None, self.tx("ambiguous", text=text, matches=" ".join(matches))
        return None, self.tx("bad", text=text, why=why)

    def _confirm_quit(self) -> None:
        if self.read(self.t("play.confirm_quit")).strip().lower() in YES:
            raise _Quit("quit")
        self.out(self.t("play.go_on"))

    # -- results ------------------------------------------------------------------------------
    def show_showdown(self, state: MusState) -> None:
        r = state.result()
        assert r is not None
        self.out()
        hands = "  ".join(f"{self.names[s]}: {' '.join(h)}" for s, h in enumerate(r["final_hands"]))
        self.say(hands)
        self.out(f"[bold]{self.texts['showdown']}[/bold]")
        for e in state.showdown_report():
            who = self.texts["nobody"] if e["winner"] is None else \
                f"{self.names[e['winner']]} ({PAIR_NAMES[e['pair']]}, {self._best(e)})"
            why = e["why"]
            if why == "querido":
                reason = self.tx("querido", n=e["stake"])
            elif why == "no_querido":
                reason = self.tx("no_querido", n=e["stake"])
            elif why == "ordago":
                reason = self.texts["ordago_won"]
            elif why == "no_bet":
                reason = self.tx("no_bet", lance=e["lance"].capitalize())
            else:
                reason = self.texts.get(why, why)
            if e.get("bonus") and any(b["kind"] in ("pares", "juego") for b in e["booked"]):
                reason += "; " + self.tx("bonus", list=", ".join(
                    f"{self.names[b['seat']]} {b.get('combo', b.get('value'))} +{b['points']}"
                    for b in e["bonus"]))
            points = ", ".join(f"{PAIR_NAMES[p]} +{n}" for p, n in enumerate(e["points"]) if n) \
                or self.texts["no_points"]
            self.say(self.tx("lance_line", lance=e["lance"].capitalize(), who=who, why=reason,
                             points=points))

    def _best(self, e: Mapping[str, Any]) -> str:
        best = e.get("best")
        if isinstance(best, dict):
            return f"{best['combo']} {best['ranks'][0]}"
        if isinstance(best, list):
            return "-".join(str(x) for x in best)
        return str(best)

    def show_score(self, score: Sequence[int] | None = None) -> None:
        """The points of the running set (or ``score``, a hand's), as stones, and the
        sets won."""
        sheet = self.match.sheet.to_json()
        a, b = sheet["score"] if score is None else score
        self.say(self.tx("score", a=a, b=b,
                         sa=self.tx("stones", am=stones(a)[0], pi=stones(a)[1]),
                         sb=self.tx("stones", am=stones(b)[0], pi=stones(b)[1]),
                         wa=sheet["sets"][0], wb=sheet["sets"][1]))

    def _finale(self) -> None:
        self.out()
        winner = self.match.match.winner()
        if winner is not None:
            self.out(f"[bold]{self.tx('match_won', pair=self.pair_label(winner))}[/bold]")
        self.show_score()
        self.say(self.texts["bye"])


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


__all__ = ["MusOptions", "PlaySession", "default_bot_name", "make_bot", "parse_humans",
           "parse_rules", "stdin_reader"]
