"""Schafkopf in the terminal (``stammtisch play --game schafkopf``): its presenter.

A sitting (:func:`stammtisch.games.schafkopf.online.new_match`: the dealer moves on, the
Abrechnung adds up each player's payments) of ``--bobbl`` rounds of four hands (0: no
end).  Everything a human is shown comes from ``state.view(seat)`` of a human seat or is a
public action (a word said, a card played); in a Rufspiel the partner is named only once
the called ace has fallen, and the other hands are shown only after the hand.  The
session loop is the shell's (:mod:`stammtisch.cli.play_session`); the texts are
:mod:`stammtisch.i18n`'s keys ``play.sk.*`` and some ``play.*``; game words stay German.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from stammtisch.cards import Card
from stammtisch.engine.core import Action, Say
from stammtisch.errors import InvalidCardError
from stammtisch.games.base.presenter import (
    BasePresenter,
    card_text,
    join,
)
from stammtisch.games.schafkopf.online import SchafkopfSitting, new_match
from stammtisch.games.schafkopf.options import OPTIONS
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import SchafkopfState

__all__ = ["SchafkopfPresenter", "parse_rules"]


def parse_rules(preset: str, options: Sequence[str] = ()) -> SchafkopfRules:
    """Rules from a preset name and ``KEY=VALUE`` options: the option schema's one parser
    (:attr:`stammtisch.games.schafkopf.options.OPTIONS`), as the REST API's."""
    return OPTIONS.parse_text(preset, options)


class SchafkopfPresenter(BasePresenter[SchafkopfState]):
    """Schafkopf at the terminal (see the module).  ``--bobbl`` is the number of rounds
    of four hands (0: no end)."""

    texts_prefix = "play.sk"
    rules: SchafkopfRules
    sitting: SchafkopfSitting
    _announced = False
    _partner_told = False

    def parse_rules(self, preset: str, options: Sequence[str]) -> SchafkopfRules:
        return parse_rules(preset, options)

    def new_match(self, rules: SchafkopfRules, first_dealer: int | None, limit: int | None,
                  players: int) -> SchafkopfSitting:
        self.rules, self.sitting = rules, new_match(rules, first_dealer or 0, limit)
        return self.sitting

    def welcome(self) -> None:
        r = self.rules
        rounds = self.sitting.rounds
        length = (self.t("play.sk.rounds", n=rounds) if rounds else self.t("play.sk.open_end"))
        self.out(self.t("play.sk.welcome", rules=r.name, games=", ".join(r.games),
                        words=", ".join(r.stoss_words) or "—", length=length))
        self.shell.roster()

    # -- one hand ---------------------------------------------------------------------
    def start_hand(self) -> SchafkopfState:
        state = self.sitting.start_game(self.shell.shuffle_rng)
        self.out()
        self.out(self.t("play.sk.header", n=self.shell.hand_no, dealer=self.names[state.dealer],
                        vorhand=self.names[state.vorhand]))
        self._announced = self._partner_told = False
        return state

    def apply(self, state: SchafkopfState, seat: int, action: Action) -> None:
        tricks_before = len(state.tricks.winners)
        phase = state.phase
        state.apply(action)
        if isinstance(action, Card):
            if phase == "play":  # a Hochzeit's card passes face down
                self.out(self.verb(seat, "play.sk.plays", card=str(action)))
        elif isinstance(action, Say):
            self.out(self.t("play.sk.says", name=self.names[seat], word=action.word))
        if len(state.tricks.winners) > tricks_before:
            n = len(state.tricks.winners)
            self.out(self.t("play.trick_to", n=n, name=self.akk(state.tricks.winners[-1])))
        if not self._announced and state.phase in ("stossen", "play") and state.contract:
            self._announced = True
            self._announce(state)
        if (not self._partner_told and state.called is not None and state.called_played
                and state.partner is not None):
            self._partner_told = True
            self.out(self.verb(state.partner, "play.sk.partner", card=str(state.called)))

    def end_hand(self, state: SchafkopfState) -> None:
        self.show_result(state)
        self.sitting.finish_game()

    def _announce(self, state: SchafkopfState) -> None:
        if state.contract == "ramsch":
            self.out(self.t("play.sk.ramsch"))
            return
        called = "" if state.called is None else self.t("play.sk.called", card=str(state.called))
        who = "—" if state.declarer is None else self.names[state.declarer]
        self.out(self.t("play.sk.contract", contract=state.contract, name=who, called=called))

    # -- a human's turn -------------------------------------------------------------------
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

    def context(self, state: SchafkopfState, seat: int) -> None:
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
            self.out(join([Text(self.t("play.on_table")),
                           *(join([self.names[e["seat"]] + ":", card_text(e["card"])])
                             for e in v["trick"])], "  "))
        self.out(join([Text(self.verb(seat, "play.sk.your_cards")),
                       *(card_text(c) for c in v["hand"])]))
        options = [f"{i}:{a}" for i, a in enumerate(v["legal"], 1)]
        self.out(self.t("play.sk.possible", options="  ".join(options)))

    def show_last(self, state: SchafkopfState, seat: int) -> None:
        self.show_last_trick(state.view(seat))

    def show_last_trick(self, v: Mapping[str, Any]) -> None:
        if not v["tricks_played"]:
            self.out(self.t("play.no_trick_yet"))
            return
        last = v["tricks_played"][-1]
        augen = sum(Card.parse(e["card"]).augen for e in last["cards"])
        self.out(join([join([self.names[e["seat"]] + ":", card_text(e["card"])])
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
        self.out(self.t("play.sk.result", n=self.shell.hand_no, contract=r["contract"] or "—",
                        outcome=outcome))
        if r["contract"] is not None:
            self.out(self.t("play.sk.augen", list=", ".join(
                f"{self.names[s]} {a}" for s, a in enumerate(r["augen"]))))
        self.out(self.t("play.sk.payments", list=", ".join(
            f"{self.names[s]} {self.t.euros(p)}" for s, p in enumerate(r["payments"]))))

    def show_sheet(self) -> None:
        sheet = self.sitting.sheet.to_json()
        table = Table(title=self.t("play.sk.sheet_title"), title_justify="left")
        for col in ("hand", "dealer", "game"):
            table.add_column(self.t(f"play.sk.col.{col}"))
        for name in self.names:
            table.add_column(name, justify="right")
        for h in sheet["hands"]:
            table.add_row(str(h["number"]), self.names[h["dealer"]], h["contract"] or "—",
                          *(self.t.euros(b) for b in h["balance"]))
        self.out(table)

    def finale(self) -> None:
        totals = self.sitting.sheet.totals
        self.out()
        self.show_sheet()
        self.out(self.t("play.sk.finale", n=len(self.sitting.sheet.hands), list=", ".join(
            f"{self.names[s]} {self.t.euros(p)}" for s, p in enumerate(totals))))
