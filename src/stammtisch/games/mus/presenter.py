"""Mus in the terminal (``stammtisch play --game mus``): its presenter.

A match (:func:`stammtisch.games.mus.online.new_match`: sets to ``target`` points, the
match to ``sets`` sets; the deal passes counterclockwise).  ``--bobbl N`` stops the
session after N sets (0: the whole match).  Rules options as ``-o KEY=VALUE``
(``target``, ``sets``, ``reyes``, ``punto_bonus``) and the table options of the señas:
``-o senas=on|sichtbar`` and ``-o catch=0.3`` (see :mod:`stammtisch.games.mus.senas`).  At
a human's prompt ``seña 31`` (or ``sena 31``) shows the partner a seña; the señas a seat
may know are shown with its cards.  Bots make no señas.

Shown: the Mus rounds (who says ``mus``, how many cards each throws away), the Pares and
Juego declarations, every bet with the stake and who must answer, then the showdown lance
by lance (who holds the best hand, what was at stake, the bonus, and why), the points and
the stones (amarracos of 5, piedras of 1) and the sets.  The session loop is the shell's
(:mod:`stammtisch.cli.play_session`); its texts are the ``play.mus.*`` keys of the shared
translations (:mod:`stammtisch.i18n`, as every game's).  Game words stay Spanish.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from stammtisch.engine.core import Action, Say
from stammtisch.errors import StammtischError
from stammtisch.games.base.presenter import BasePresenter, option_items, parse_option_value
from stammtisch.games.mus import senas as senas_mod
from stammtisch.games.mus.online import MusSitting, new_match, stones
from stammtisch.games.mus.options import OPTIONS as RULES_OPTIONS
from stammtisch.games.mus.rules import MusRules
from stammtisch.games.mus.senas import OFF, SenasConfig
from stammtisch.games.mus.state import MAX_ENVIDO, MusState

__all__ = ["MusOptions", "MusPresenter", "parse_rules"]

PAIR_NAMES = ("A", "B")


@dataclass(frozen=True)
class MusOptions:
    """What ``parse_rules`` gives the session: the rules and the table's señas."""

    rules: MusRules
    senas: SenasConfig = field(default=OFF)


def parse_rules(preset: str, options: Sequence[str] = ()) -> MusOptions:
    """Rules from a preset and ``KEY=VALUE`` options, plus ``senas``/``catch`` (the
    table's señas); ``RulesError`` naming the option when one is not valid."""
    table: dict[str, Any] = {}
    items: list[str] = []
    for key, raw in option_items(options):
        if key == "senas":
            table["mode"] = raw.strip()
        elif key == "catch":
            table["catch"] = parse_option_value(raw, words=False)
        else:
            items.append(f"{key}={raw}")
    rules = RULES_OPTIONS.parse_text(preset, items, also_known=("senas", "catch"))
    return MusOptions(rules, SenasConfig(table.get("mode", "off"),
                                         table.get("catch", senas_mod.DEFAULT_CATCH)))


class MusPresenter(BasePresenter[MusState]):
    """Mus at the terminal (see the module).  ``--bobbl``: stop after that many sets
    (``None``/0: play the match to its end)."""

    bot_names: tuple[str, ...] = ("Iñaki", "Maite", "Koldo", "Amaia")
    last_words: frozenset[str] = frozenset()
    bye_on_quit = False
    rules: MusRules
    sitting: MusSitting

    def parse_rules(self, preset: str, options: Sequence[str]) -> MusOptions:
        return parse_rules(preset, options)

    def new_match(self, rules: MusRules | MusOptions, first_dealer: int | None,
                  limit: int | None, players: int) -> MusSitting:
        options = rules if isinstance(rules, MusOptions) else MusOptions(rules)
        self.rules, self.senas, self.sets_limit = options.rules, options.senas, limit
        self.sitting = new_match(self.rules, first_dealer or 0, None, senas=self.senas)
        return self.sitting

    # -- texts ---------------------------------------------------------------------------
    def tx(self, key: str, seat: int | None = None, **params: Any) -> str:
        """The session's text ``play.mus.<key>`` (its ``.du`` form for the single human's
        own seat, its singular for ``n=1``), ``{name}`` the seat's name."""
        full = f"play.mus.{key}"
        if seat is not None and self.shell.is_du(seat) and self.t.has(f"{full}.du"):
            full = f"{full}.du"
        if seat is not None:
            params.setdefault("name", self.names[seat])
        return self.t(full, **params)

    def say(self, text: str) -> None:
        self.out(Text(text))

    def pair_label(self, pair: int) -> str:
        return f"{PAIR_NAMES[pair]} ({self.names[pair]} & {self.names[pair + 2]})"

    # -- the match -------------------------------------------------------------------------
    def done(self) -> bool:
        return self.sitting.is_over() or (
            self.sets_limit is not None and len(self.sitting.match.sets) >= self.sets_limit)

    def welcome(self) -> None:
        r = self.rules
        senas = self.senas.mode if self.senas.mode != "sichtbar" else \
            f"sichtbar (catch {self.senas.catch:g})"
        self.say(self.tx("welcome", preset=r.preset_name, target=r.target, sets=r.sets,
                         reyes=r.reyes, senas=senas))
        if self.sets_limit:
            self.say(self.tx("length", n=self.sets_limit))
        self.say(self.tx("pairs", a=f"{self.names[0]} & {self.names[2]}",
                         b=f"{self.names[1]} & {self.names[3]}"))
        self.shell.roster()

    def start_hand(self) -> MusState:
        state = self.sitting.start_game(self.shell.shuffle_rng)
        self.out()
        self.say(self.tx("header", n=self.shell.hand_no, set=self.sitting.match.set_number,
                         dealer=self.names[state.dealer], mano=self.names[state.mano]))
        self._lance = ""
        self._declared: set[str] = set()
        return state

    def before_turn(self, state: MusState) -> bool:
        if state.lance != self._lance and state.phase == "lances":
            # each declaration when its lance comes, as at the table (docs/rules/mus.md):
            # Pares at the third lance, Juego at the fourth (Juego, or Punto without one);
            # a lance nobody could bet in is passed over, its declaration said before the next
            self._lance, index = state.lance, state.lance_index
            self._declare(state, before=index)
            self.say(self.tx("lance", lance=self._lance.capitalize()))
            self._declare(state, before=index + 1)
        return False

    def _declare(self, state: MusState, before: int) -> None:
        """Say the declarations of the lances before ``before`` not said yet."""
        for at, lance in ((2, "pares"), (3, "juego")):
            if at < before and lance not in self._declared:
                self._declared.add(lance)
                self.say(self.tx("decl", lance=lance.capitalize(), who=", ".join(
                    self.names[s] for s in sorted(state.eligible(lance))) or self.tx("nobody")))

    def apply(self, state: MusState, seat: int, action: Action) -> None:
        phase = state.phase
        state.apply(action)
        word = str(action)
        if word.startswith("descarte "):
            self.say(self.tx("discards", seat, n=len(word.split()) - 1))
            if state.phase == "mus":
                self.say(self.tx("draw"))
            return
        self.say(self.tx("says", seat, word=word))
        if phase == "lances" and state.phase == "lances":
            b = state.betting()
            if b.get("bettor") is not None and b["to_act"] != seat:
                self.say(f"  {self._stake(b)} · {self.tx('answer', b['to_act'])}")

    def _stake(self, b: Mapping[str, Any]) -> str:
        return self.tx("ordago") if b["ordago"] else self.tx("stake", n=b["stake"])

    def end_hand(self, state: MusState) -> None:
        self.show_showdown(state)
        self.sitting.finish_game()
        hand = self.sitting.match.hands[-1]
        self.show_score(hand["score"])
        if hand["set_winner"] is not None:
            self.out(f"[bold]{self.tx('set_won', pair=PAIR_NAMES[hand['set_winner']])}[/bold]")

    # -- a human's turn ---------------------------------------------------------------------
    def _options(self, state: MusState) -> list[str]:
        """The legal words, ``envido`` only as ``envido 2`` (any N up to the maximum)."""
        return [str(a) for a in state.legal_actions()
                if not (str(a).startswith("envido ") and str(a) != "envido 2")]

    def context(self, state: MusState, seat: int) -> None:
        v = state.view(seat)
        self.out()
        b = state.betting()
        if b and b.get("bettor") is not None:
            self.say(f"{b['lance'].capitalize()}: {self._stake(b)} · "
                     f"{self.tx('answer', b['to_act'])}")
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

    def prompt(self, state: MusState, seat: int) -> str:
        return self.tx("prompt", seat)

    def help(self) -> None:
        self.say(self.tx("help"))

    def command(self, state: MusState, seat: int, low: str) -> bool:
        if not low or low.split()[0] not in (senas_mod.WORD, "sena"):
            return super().command(state, seat, low)
        try:
            state.apply_out_of_turn(seat, state.parse_action(low), self.shell.shuffle_rng)
        except StammtischError as e:
            self.out(Text(self.tx("sena_no", why=str(e)), style="red"))
        else:
            self.say(self.tx("sena_made", seat, sena=state.senas[-1].sign))
        return True

    def refuse(self, state: MusState, seat: int, error: str) -> Action | None:
        self.out(Text(error, style="red"))
        return None

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
            action = state.parse_action(low if low.startswith("descarte") else low.lower())
        except StammtischError as e:
            why = str(e)
        else:
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

    def show_last(self, state: MusState, seat: int) -> None:
        """Mus has no tricks (``l`` is no command)."""

    # -- results ------------------------------------------------------------------------------
    def show_showdown(self, state: MusState) -> None:
        r = state.result()
        assert r is not None
        self._declare(state, before=4)  # the declarations of lances nobody bet in
        self.out()
        self.say("  ".join(f"{self.names[s]}: {' '.join(h)}"
                           for s, h in enumerate(r["final_hands"])))
        self.out(f"[bold]{self.tx('showdown')}[/bold]")
        for e in state.showdown_report():
            who = self.tx("nobody") if e["winner"] is None else \
                f"{self.names[e['winner']]} ({PAIR_NAMES[e['pair']]}, {self._best(e)})"
            why = e["why"]
            if why in ("querido", "no_querido"):
                reason = self.tx(why, n=e["stake"])
            elif why == "ordago":
                reason = self.tx("ordago_won")
            elif why == "no_bet":
                reason = self.tx("no_bet", lance=e["lance"].capitalize())
            else:
                reason = self.tx(why) if self.t.has(f"play.mus.{why}") else why
            if e.get("bonus") and any(b["kind"] in ("pares", "juego") for b in e["booked"]):
                reason += "; " + self.tx("bonus", list=", ".join(
                    f"{self.names[b['seat']]} {b.get('combo', b.get('value'))} +{b['points']}"
                    for b in e["bonus"]))
            points = ", ".join(f"{PAIR_NAMES[p]} +{n}" for p, n in enumerate(e["points"]) if n) \
                or self.tx("no_points")
            self.say(self.tx("lance_line", lance=e["lance"].capitalize(), who=who, why=reason,
                             points=points))

    def _best(self, e: Mapping[str, Any]) -> str:
        best = e.get("best")
        if isinstance(best, dict):
            return f"{best['combo']} {best['ranks'][0]}"
        if isinstance(best, list):
            return "-".join(str(x) for x in best)
        return str(best)

    def show_sheet(self) -> None:
        self.show_score()

    def show_score(self, score: Sequence[int] | None = None) -> None:
        """The points of the running set (or ``score``, a hand's), as stones, and the
        sets won."""
        sheet = self.sitting.sheet.to_json()
        a, b = sheet["score"] if score is None else score
        self.say(self.tx("score", a=a, b=b,
                         sa=self.tx("stones", am=stones(a)[0], pi=stones(a)[1]),
                         sb=self.tx("stones", am=stones(b)[0], pi=stones(b)[1]),
                         wa=sheet["sets"][0], wb=sheet["sets"][1]))

    def finale(self) -> None:
        self.out()
        winner = self.sitting.match.winner()
        if winner is not None:
            self.out(f"[bold]{self.tx('match_won', pair=self.pair_label(winner))}[/bold]")
        self.show_score()
        self.say(self.tx("bye"))
