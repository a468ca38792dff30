"""Mucken in the terminal (``stammtisch play --game mucken``): its presenter.

A whole sitting (:class:`~stammtisch.games.mucken.match.MuckenMatch`): Auskarten (or
``--first-dealer``; with ``auskarten_pairs`` the draw also forms the pairs and re-seats
them), then game after game — shuffle, Abheben, Ansagen, Kontra, the tricks — with the
score sheet (Spielstandzettel) after each game, until ``--bobbl`` Bobbl are played.  One
human at seat 0 plays with a bot partner against two bots, or several humans share the
terminal (``--hotseat``, ``--humans 0,2``).  Everything a human is shown comes from
``state.view(seat)`` of a human seat (or is a public action); other hands are shown only
after a game, when the view reveals the dealt cards.

The session loop is the shell's (:mod:`stammtisch.cli.play_session`); this module is what
is Mucken's own: its texts (:mod:`stammtisch.i18n`, keys ``play.*``; game terms stay
German), its ``-o`` options, the Abheben prompt with its default, what a typed answer means.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stammtisch.cards import Card, Rank
from stammtisch.engine.core import Action, Cut, Say
from stammtisch.errors import InvalidCardError
from stammtisch.games.base.presenter import (
    BasePresenter,
    card_text,
    join,
)
from stammtisch.games.mucken.auskarten import AuskartenResult, auskarten, highest_draw
from stammtisch.games.mucken.match import Bobbl, MuckenMatch
from stammtisch.games.mucken.options import OPTIONS
from stammtisch.games.mucken.rules import DOUBLING_WORDS, MuckenRules
from stammtisch.games.mucken.state import MuckenState
from stammtisch.i18n import Translator

__all__ = ["MuckenPresenter", "contract_name", "parse_humans", "parse_rules",
           "trump_description"]

#: the German texts (the default of the helpers below)
GERMAN = Translator("de")
#: after this many invalid answers at the Abheben prompt the default is taken
CUT_PATIENCE = 3


def rank_kind(t: Translator, rank: Rank) -> str:
    """A kind of card in the plural ("es geht um die Könige")."""
    key = f"play.rank_kind.{rank.text}"
    return t(key) if t.has(key) else rank.text


# -- command-line helpers --------------------------------------------------------------


def parse_rules(preset: str, options: Sequence[str] = ()) -> MuckenRules:
    """The rules of ``preset`` changed by ``key=value`` options: the option schema's one
    parser (:attr:`stammtisch.games.mucken.options.OPTIONS`), as the REST API's."""
    return OPTIONS.parse_text(preset, options)


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


def trump_description(rules: MuckenRules, contract: str | None,
                      t: Translator = GERMAN) -> str:
    bid = rules.bid_by_name(contract) if contract else None
    kind = bid.kind if bid is not None else "muck"
    if kind == "wenz":
        return t("play.trump.wenz")
    if kind == "geier":
        return t("play.trump.geier")
    if kind == "farbsolo" and bid is not None and bid.suit is not None:
        return t("play.trump.farbsolo", suit=bid.suit.german_name)
    return t("play.trump.muck")


def contract_name(contract: str | None) -> str:
    if not contract:
        return "—"
    return {
        "pflichtmuck": "Pflichtmuck",
        "eingeworfen": "eingeworfen",
        "ramsch": "Ramsch",
        "sie": "Sie",
    }.get(contract, contract.capitalize())


class MuckenPresenter(BasePresenter[MuckenState]):
    """Mucken at the terminal (see the module)."""

    last_words = frozenset({"l", "letzter", "letzter stich", "last"})
    hands_over = True
    rules: MuckenRules
    sitting: MuckenMatch
    first_dealer: int | None
    _failures = 0

    def parse_rules(self, preset: str, options: Sequence[str]) -> MuckenRules:
        return parse_rules(preset, options)

    def parse_humans(self, text: str) -> frozenset[int]:
        return parse_humans(text)

    def new_match(self, rules: MuckenRules, first_dealer: int | None, limit: int | None,
                  players: int) -> MuckenMatch:
        self.rules, self.first_dealer = rules, first_dealer
        self.sitting = MuckenMatch(rules, first_dealer=first_dealer or 0, bobbl_limit=limit)
        return self.sitting

    # -- names and seats ---------------------------------------------------------------
    def pair_name(self, pair: int) -> str:
        return f"{self.names[pair]} & {self.names[pair + 2]}"

    @property
    def observer(self) -> int:
        """The human seat whose view supplies the public table picture."""
        return min(self.shell.humans)

    # -- the sitting ---------------------------------------------------------------------
    def welcome(self) -> None:
        r, t, humans = self.rules, self.t, self.shell.humans
        games = " < ".join(g.capitalize() for g in r.games)
        deck = t("play.deck.short") if r.deck == "short" else t("play.deck.long")
        doubling = (", ".join(w.capitalize() for w in DOUBLING_WORDS[: r.doublings])
                    or t("play.no_kontra"))
        names = t("play.humans", names=", ".join(self.names[s] for s in sorted(humans)))
        bots = t("play.bots", bot=self.shell.bot_name, names=", ".join(
            self.names[s] for s in range(4) if s not in humans))
        self.out(Panel.fit(
            t("play.welcome", rules=escape(r.name), deck=deck, games=games, doubling=doubling,
              target=r.bobbl_target)
            + (f", {t('play.haenger')}" if r.haenger else "")
            + f"\n{t('play.hotseat') if not self.shell.single else ''}{names}"
            + (f"; {bots}" if len(humans) < 4 else "")
            + f"\n{t('play.help_hint')}",
            title="stammtisch play",
        ))
        if self.first_dealer is not None:
            self.sitting.dealer = self.first_dealer
        else:
            self._show_auskarten(auskarten(self.shell.shuffle_rng, self.rules.deck,
                                           form_pairs=self.rules.auskarten_pairs))
        self.out(self.t("play.pairs", a=self.pair_name(0), b=self.pair_name(1)))

    def _show_auskarten(self, result: AuskartenResult) -> None:
        self.out(self.t("play.auskarten"))
        self.out(join([join([f"{self.names[p]}:", card_text(c)])
                        for p, c in enumerate(result.draws)], "  ·  "))
        if result.pairs is None:
            self.sitting.dealer = result.dealer
            self.out(self.verb(result.dealer, "play.deals_first"))
            return
        opener = highest_draw(result.draws, self.rules.deck)
        kind = result.dealt[-1][1].rank  # the second hit ends the dealing
        self.out(self.verb(opener, "play.kartet_aus", kind=rank_kind(self.t, kind)))
        self.out(join([join([f"{self.names[p]}", card_text(c)]) for p, c in result.dealt],
                       " · "))
        (a, b), (c, d) = result.pairs
        self.out(self.t("play.hits", first=self.names[a], second=self.names[b],
                        first_dat=self.dat(a)))
        # re-seat so that partners face each other; the first human keeps seat 0
        person_seat: dict[int, int] = {}
        anchor = self.observer
        partner = b if anchor == a else a if anchor == b else d if anchor == c else c
        others = sorted(p for p in range(4) if p not in (anchor, partner))
        person_seat[anchor], person_seat[partner] = 0, 2
        person_seat[others[0]], person_seat[others[1]] = 1, 3
        old_names = list(self.names)
        humans = self.shell.humans
        self.shell.names = ["" for _ in range(4)]
        for p, s in person_seat.items():
            self.names[s] = old_names[p]
        self.shell.humans = frozenset(person_seat[p] for p in humans)
        self.sitting.dealer = person_seat[a]
        self.out(self.t("play.new_seating", order=" → ".join(self.names)) + " "
                 + self.verb(person_seat[a], "play.deals_first"))

    def finale(self) -> None:
        won = self.sitting.sheet.bobbl_won()
        self.out()
        n = len(self.sitting.games)
        self.out(Panel.fit(
            self.t("play.finale.one" if n == 1 else "play.finale", n=n, a=self.pair_name(0),
                   x=won[0], y=won[1], b=self.pair_name(1)),
            title=self.t("play.finale.title")))
        self.show_sheet()

    # -- one game ------------------------------------------------------------------------
    def start_hand(self) -> MuckenState:
        m = self.sitting
        state = m.start_game(self.shell.shuffle_rng)
        self.shell.shown_to = None
        cur = m.sheet.current
        totals = [0, 0] if cur.finished else cur.totals
        nr = len(m.sheet.bobbl) + (1 if cur.finished else 0)
        self.out()
        self.out(self.t("play.game_header", n=self.shell.hand_no, dealer=self.names[state.dealer],
                        nr=nr, a=self.pair_name(0), x=totals[0], y=totals[1],
                        b=self.pair_name(1))
                 + (self.t("play.factor", n=state.factor) if state.factor > 1 else ""))
        self.out(self.verb(state.dealer, "play.shuffles"))
        return state

    def apply(self, state: MuckenState, seat: int, action: Action) -> None:
        before = state.view(self.observer)
        state.apply(action)
        self._narrate(state, seat, action, before)

    def end_hand(self, state: MuckenState) -> None:
        self.show_result(state)
        bobbl = self.sitting.finish_game()
        if bobbl is not None:
            self._announce_bobbl(bobbl)
        if not self.sitting.is_over():  # else the finale shows the sheet
            self.show_sheet()

    # -- a human's turn --------------------------------------------------------------------
    def command(self, state: MuckenState, seat: int, low: str) -> bool:
        return state.phase != "cut" and super().command(state, seat, low)

    def refuse(self, state: MuckenState, seat: int, error: str) -> Action | None:
        self.out(Text("✗ " + (error or self.t("play.not_possible")), style="bold red"))
        if state.phase != "cut":
            return None
        self._failures += 1
        if self._failures < CUT_PATIENCE:
            return None
        action = self._default_cut(state)
        self.out(self.t("play.default_taken", cut=self._cut_word(action)))
        return action

    def show_last(self, state: MuckenState, seat: int) -> None:
        self.show_last_trick(state.view(seat))

    # -- narration of public events ------------------------------------------------------
    def _narrate(self, state: MuckenState, seat: int, action: Action,
                 before: Mapping[str, Any]) -> None:
        after = state.view(self.observer)
        phase = before["phase"]
        if phase == "cut":
            if isinstance(action, Cut):
                self.out(self.verb(seat, "play.cuts", n=action.count))
            elif action == Say("klopfen"):
                self.out(self.verb(seat, "play.klopft"))
            else:
                self.out(self.verb(seat, "play.laesst_geben"))
        elif phase in ("bidding", "muss"):
            self.out(join([f"{self.names[seat]}:", Text(str(action), style="bold")]))
        elif phase == "doubling":
            word = str(action)
            self.out(join([f"{self.names[seat]}:",
                            Text(word.capitalize() + "!" if word != "gut" else word,
                                 style="bold magenta" if word != "gut" else "")]))
        elif phase == "play" and isinstance(action, Card):
            self.out(join([f"  {self.names[seat]}:", card_text(action)]))
            if len(after["tricks_played"]) > len(before["tricks_played"]):
                self._show_trick_done(after)
        if phase in ("shuffle", "cut") and after["phase"] not in ("shuffle", "cut"):
            packets = self.t("play.packets.all" if after["klopfen"] else "play.packets.two")
            self.out(self.verb(state.dealer, "play.deals", packets=packets))
            if self.shell.single and after["phase"] != "end":
                self._show_hand(after, self.observer, legal=None)
        if after["phase"] == "play" and phase != "play":
            self._announce_contract(after)

    def _show_trick_done(self, v: Mapping[str, Any]) -> None:
        last = v["last_trick"]
        augen = sum(Card.parse(e["card"]).augen for e in last["cards"])
        n = len(v["tricks_played"])
        self.out(join([
            Text(self.t("play.trick_to", n=n, name=self.akk(last["winner"])), style="bold"),
            self.t("play.trick_score_after", augen=augen, a=self.pair_name(0),
                   x=v["tricks_taken"][0], y=v["tricks_taken"][1], b=self.pair_name(1)),
        ]))

    def _announce_contract(self, v: Mapping[str, Any]) -> None:
        contract = v["contract"]
        decl = v["declarer"]
        t = self.t
        who = t("play.declarer_who", name=self.names[decl], pair=self.pair_name(decl % 2)) \
            if decl is not None else ""
        if contract == "pflichtmuck":
            who = t("play.all_weiter")
        elif contract == "ramsch":
            who = t("play.ramsch_rule")
        dbl = self._doublings_by(v["doublings"])
        self.out(f"[bold]{t('play.playing', contract=contract_name(contract))}[/bold]{who}"
                 + (f" · {dbl}" if dbl else ""))
        self.out(t("play.trump", trump=trump_description(self.rules, contract, t)) + " "
                 + self.verb(v["leader"], "play.leads"))

    def _doublings_by(self, doublings: Sequence[Mapping[str, Any]]) -> str:
        """"Kontra von dir, Re von Hans" ("Kontra by you, Re by Hans")."""
        return ", ".join(self.t("play.doubling_by", word=d["word"].capitalize(),
                                name=self.dat(d["seat"])) for d in doublings)

    def prompt(self, state: MuckenState, seat: int) -> str:
        who = self.names[seat]
        ph = state.phase
        t = self.t
        if ph == "cut":
            return t("play.prompt.cut", name=who,
                     default=self._cut_word(self._default_cut(state)))
        if ph == "play":
            return t("play.prompt.card", name=who)
        if ph == "doubling":
            return t("play.prompt.doubling", name=who, options=t("play.or").join(
                str(a) for a in state.legal_actions()))
        return t("play.prompt.call", name=who)

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
        text = text.strip()
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
            return None, self.t("play.err.number", n=n, max=len(options))
        if ph == "play":
            try:
                c = Card.parse(text)
            except InvalidCardError as e:
                if low.isalpha() and len(low) > 2:
                    return None, self.t("play.err.play_now", text=text)
                return None, self.t("play.err.no_card", text=text, error=e)
            if c in legal:
                return c, ""
            hand = [Card.parse(x) for x in state.view(seat)["hand"]]
            why = state.explain_illegal(c)
            if c not in hand:
                return None, self.t("play.err.not_held", card=c, why=why)
            return None, self.t("play.err.must_follow", card=c, why=why)
        # bidding, muss, doubling: words
        words = [str(a) for a in legal if isinstance(a, Say)]
        if low in words:
            return Say(low), ""
        if low.isalpha():
            matches = [w for w in words if w.startswith(low)]
            if len(matches) == 1:
                return Say(matches[0]), ""
            if len(matches) > 1:
                return None, self.t("play.err.ambiguous", text=text, matches=", ".join(matches))
        try:
            Card.parse(text)
        except InvalidCardError:
            pass
        else:
            return None, self.t("play.err.not_yet", words=", ".join(words))
        if not low:
            return None, self.t("play.err.say_something", words=", ".join(words))
        why = state.explain_illegal(Say(low))
        return None, self.t("play.err.not_now", text=text, why=why, words=", ".join(words))

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
                more = self.t("play.or") + "/".join(words) if words else ""
                return None, self.t("play.err.cut_input", text=low, more=more)
        if action in legal:
            return action, ""
        why = state.explain_illegal(action)
        if isinstance(action, Cut) and len(state.cuts) < state.rules.cut_max_times:
            r = state.rules
            return None, self.t("play.err.cut_range", n=action.count, min=r.cut_min,
                                left=r.cut_min_left, why=why)
        return None, self.t("play.err.not_possible", what=self._cut_word(action), why=why)

    # -- what a human sees at his turn -------------------------------------------------------
    def context(self, state: MuckenState, seat: int) -> None:
        self._failures = 0
        v = state.view(seat)
        ph = v["phase"]
        self.out()
        t = self.t
        title = t("table.turn_of", name=self.names[seat]) if not self.shell.is_du(seat) \
            else t("table.your_turn")
        self.out(f"[bold cyan]{t('play.context', n=self.shell.hand_no, title=title)}[/bold cyan]")
        if ph == "cut":
            done = t("play.cuts_done", cuts=", ".join(map(str, v["cuts"]))) if v["cuts"] else ""
            cut_range = [a.count for a in state.legal_actions() if isinstance(a, Cut)]
            parts = []
            if cut_range:
                parts.append(t("play.cut_range", min=min(cut_range), max=max(cut_range)))
            parts += [str(a) for a in state.legal_actions() if isinstance(a, Say)]
            self.out(self.verb(seat, "play.cut_context", dealer=self.names[state.dealer],
                                done=done, n=state.rules.deck_size))
            self.out(t("play.possible", options=" · ".join(parts),
                       default=self._cut_word(self._default_cut(state))))
            return
        self._show_calls(v)
        if ph == "doubling":
            decl = v["declarer"]
            self.out(t("play.doubling_context", contract=contract_name(v["contract"]),
                       name=self.names[decl], pair=self.pair_name(decl % 2),
                       trump=trump_description(self.rules, v["contract"], t)))
            if v["doublings"]:
                self.out(t("play.so_far", list=self._doublings_by(v["doublings"])))
        if ph == "muss":
            self.out(self.verb(seat, "play.muss", card=self.rules.muss_card))
        if ph == "play":
            self._show_table(v)
        options = self.options(state, seat)
        self._show_hand(v, seat, legal=options if ph == "play" else None)
        if ph != "play":
            self.out(join([Text(f"[{i}]", style="bold") + Text(f" {a}")
                            for i, a in enumerate(options, 1)], "  "), highlight=False)

    def _show_calls(self, v: Mapping[str, Any]) -> None:
        calls = v["calls"]
        if v["phase"] == "play":
            return
        if calls:
            self.out(f"{self.t('table.calls')}: " + " · ".join(
                f"{self.names[c['seat']]}: {c['call']}" for c in calls), highlight=False)
        else:
            self.out(self.verb(v["leader"], "play.calls_first"))
        if v["standing_bid"] and v["phase"] == "bidding":
            holder = next(c["seat"] for c in reversed(calls) if c["call"] != "weiter")
            self.out(self.t("play.highest_bid", bid=v["standing_bid"], name=self.names[holder]))

    def _show_table(self, v: Mapping[str, Any]) -> None:
        decl = v["declarer"]
        t = self.t
        head = f"[bold]{contract_name(v['contract'])}[/bold]"
        if decl is not None:
            head += t("play.by", name=self.dat(decl))
        if v["doublings"]:
            head += " · " + ", ".join(f"{d['word'].capitalize()} ({self.names[d['seat']]})"
                                      for d in v["doublings"])
        n = len(v["tricks_played"]) + 1
        self.out(t("play.table_head", head=head,
                   trump=trump_description(self.rules, v["contract"], t)))
        self.out(t("play.trick_score", n=n, a=self.pair_name(0), x=v["tricks_taken"][0],
                   y=v["tricks_taken"][1], b=self.pair_name(1)))
        if v["trick"]:
            self.out(join([t("play.on_table")] + [
                join([self.names[e["seat"]], card_text(e["card"])]) for e in v["trick"]],
                "  "))
        else:
            self.out(self.verb(v["to_act"], "play.leads"))

    def _show_hand(self, v: Mapping[str, Any], seat: int, legal: Sequence[Action] | None) -> None:
        hand = [Card.parse(c) for c in v["hand"]]
        label = f"{self.t('table.hand')}:" if self.shell.single \
            else self.t("play.cards_of", name=self.names[seat])
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
        self.out(join(parts, " "), highlight=False)
        if legal is not None and len(legal) < len(hand):
            self.out(Text(self.t("play.must_follow_hint"), style="dim"))

    # -- the last trick, the result, the sheet ------------------------------------------------
    def show_last_trick(self, v: Mapping[str, Any]) -> None:
        last = v["last_trick"]
        if last is None:
            self.out(self.t("play.no_trick_yet"))
            return
        augen = sum(Card.parse(e["card"]).augen for e in last["cards"])
        self.out(join([f"{self.t('table.last_trick')}:"] + [
            join([self.names[e["seat"]], card_text(e["card"])]) for e in last["cards"]]
            + [Text(self.t("play.trick_winner", name=self.names[last["winner"]], augen=augen),
                    style="bold")], "  "))

    def show_result(self, state: MuckenState) -> None:
        v = state.view(self.observer)
        r = v["result"]
        lines: list[str] = []
        contract = r["contract"]
        tr = self.t
        title = tr("play.result_title", n=self.shell.hand_no, contract=contract_name(contract))
        pairs = {"a": self.pair_name(0), "b": self.pair_name(1)}
        if contract == "eingeworfen":
            lines.append(tr("play.thrown_in"))
            if self.rules.einwerfen_double != "none":
                lines.append(tr("play.next_double"))
        else:
            decl = r["declarer"]
            if contract == "sie":
                lines.append(tr("play.sie", name=self.names[decl]))
            elif decl is not None:
                lines.append(tr("play.declarer", name=self.names[decl],
                                pair=self.pair_name(decl % 2))
                             + (tr("play.muss_spiel") if r["forced"] else ""))
            if v["doublings"]:
                lines.append(self._doublings_by(v["doublings"]))
            a, t = r["augen"], r["tricks"]
            lines.append(tr("play.augen_line", x=a[0], y=a[1], **pairs))
            lines.append(tr("play.tricks_line", x=t[0], y=t[1], **pairs))
            if r["violation"] is not None:
                lines.append(tr("play.violation", name=self.names[r["violation"]]))
            if r["winner"] is None:
                lines.append(tr("play.not_scored", reason=self._reason(r["reason"])))
            else:
                if r["declarer"] is not None and contract != "sie" and tr.has(
                        f"play.reason.{r['reason']}"):
                    notes = [tr(f"play.reason.{r['reason']}")]
                elif r["declarer"] is not None and contract != "sie":
                    notes = [self._reason(r["reason"])]
                else:
                    notes = [self._reason(r["reason"]) if r["reason"] != "gewonnen" else ""]
                if r["column"] in ("schneider", "schwarz"):
                    notes.append(r["column"])
                if r["doublings"]:
                    notes.append(tr("result.kontra", word="/".join(
                        w.capitalize() for w in DOUBLING_WORDS[: r["doublings"]])))
                if r["factor"] > 1:
                    notes.append(tr("play.factor_note", n=r["factor"]))
                why = ", ".join(n for n in notes if n)
                points = tr("play.points.one" if r["score"] == 1 else "play.points",
                            n=r["score"])
                lines.append(f"[bold]{tr('play.won', pair=self.pair_name(r['winner']))}[/bold]"
                             f" — {points}" + (f" ({why})" if why else ""))
        self.out(Panel("\n".join(lines), title=title, expand=False, border_style="green"))
        dealt = v.get("dealt")
        if dealt:
            table = Table(title=tr("play.dealt"), show_header=False, box=None)
            for seat, hand in enumerate(dealt):
                cards = state.sort_hand([Card.parse(c) for c in hand])
                table.add_row(self.names[seat], join([card_text(c) for c in cards]))
            self.out(table)

    def _announce_bobbl(self, b: Bobbl) -> None:
        assert b.winner is not None and b.loser is not None
        nr = len(self.sitting.sheet.bobbl)
        text = self.t("play.bobbl_done", n=nr, winner=self.pair_name(b.winner),
                      loser=self.pair_name(b.loser))
        if b.brille:
            text += self.t("play.bobbl_brille")
        else:
            text += self.t("play.bobbl_tore", n=b.tore)
        self.out(Panel.fit(text, border_style="yellow"))

    def show_sheet(self) -> None:
        """The Spielstandzettel: every Bobbl with its lines, dots, Brillen and Tore."""
        sheet = self.sitting.sheet
        t = self.t
        table = Table(title=t("sheet.title"), show_lines=False)
        table.add_column(t("play.sheet.game"), justify="right")
        table.add_column(self.pair_name(0), justify="right")
        table.add_column(self.pair_name(1), justify="right")
        table.add_column(t("play.sheet.note"))
        for nr, b in enumerate(sheet.bobbl, 1):
            if not b.entries:
                continue
            table.add_row("", f"[bold]{t('sheet.bobbl', n=nr)}[/bold]", "", "",
                          end_section=False)
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
                    cells[e.pair] = t("play.sheet.bobbl_entry", n=e.points)
                table.add_row(str(e.game), cells[0], cells[1], note)
            if b.finished:
                assert b.loser is not None
                cells = ["", ""]
                cells[b.loser] = t("play.sheet.brille") if b.brille else "●"
                table.add_row("", cells[0], cells[1],
                              t("play.sheet.lost", pair=self.pair_name(b.loser), n=b.tore),
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
            self.out(t("play.sheet.pair", pair=self.pair_name(p), won=won[p],
                       dots=dots[p] or "–", tore=tore[p], gegner=gegner[p]), highlight=False)
        cur = sheet.current
        if not cur.finished:
            self.out(t("play.sheet.current", x=cur.totals[0], y=cur.totals[1],
                       target=sheet.target))

    def _entry_note(self, game: int, note: str) -> str:
        games = self.sitting.games
        if 1 <= game <= len(games):
            s = games[game - 1]
            r = s.result() or {}
            text = contract_name(s.contract)
            if s.declarer is not None:
                text += f" ({self.names[s.declarer]})"
            if s.doublings:
                text += ", " + "/".join(w.capitalize() for w in DOUBLING_WORDS[: s.doublings])
            if r.get("winner") is None:
                text += self.t("play.sheet.not_scored")
            elif r.get("reason"):
                text += f" — {self._reason(r['reason'])}"
            return text
        return note

    def _reason(self, reason: str) -> str:
        """An outcome reason as the UI words it ("weniger Augen" → "fewer Augen")."""
        key = f"reason.{reason}"
        return self.t(key) if self.t.has(key) else reason

    def _cut_word(self, action: Action) -> str:
        if isinstance(action, Cut):
            return self.t("play.cut_n", n=action.count)
        return str(action)
