"""Mulatschak in the terminal (``stammtisch play --game mulatschak [--players N]``).

One match (:func:`stammtisch.games.mulatschak.online.new_match`: every seat from 21 down,
the first at 0 or less wins, a folded hand doubles the next) for 2–6 seats (``--players``,
default 4); ``--bobbl`` does not apply.  The hand as the table sees it: the cut
(``abheben N``, or ``klopfen``) and the card it shows (a Weli is kept by the cutter),
Zusammengefallen, the Stichansage (``1``–``4``, ``muli``, ``bei mir``, ``weiter``), the
Muli out of turn (a human who may say it is offered ``muli`` after the deal and after
every raise of a bot), the trump, ``mit``/``daheim``, the exchange forms (``behalte``,
``tausche E7 G8``, ``sicht E7``, ``sau``, ``sechs``, ``bruecke``, then ``nimm``/``weg`` and
``ab …``), the five tricks, the result and the score column with the multiplier in force.

Everything a human is shown comes from ``state.view(seat)`` of a human seat or is public:
a word said, a card shown face up, a card played; exchanged and discarded cards are not
named (only their number).  The session loop is the shell's
(:mod:`stammtisch.cli.play_session`); the texts are :mod:`stammtisch.i18n`'s keys
``play.mu.*`` and some ``play.*``; game words stay German.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from stammtisch.cards import Card
from stammtisch.engine.core import Action, Say
from stammtisch.errors import StammtischError
from stammtisch.games.base.presenter import (
    BasePresenter,
    card_text,
    join,
)
from stammtisch.games.mulatschak.online import FOLDED, MulatschakSitting, new_match
from stammtisch.games.mulatschak.options import OPTIONS
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState

__all__ = ["MulatschakPresenter", "normalize", "parse_rules"]

QUIT_WORDS = {"q", "quit", "exit", "ende", "aufhören", "aufhoeren"}
#: phases where a number picks from the list of possibilities (elsewhere a number is a
#: bid, a cut, or nothing)
INDEXED = ("trump", "mitgehen", "play")
_CARD = re.compile(r"[egsh](a|k|o|u|10|9|8|7|6)", re.IGNORECASE)


def parse_rules(preset: str, options: Sequence[str] = ()) -> MulatschakRules:
    """Rules from a preset name and ``KEY=VALUE`` options: the option schema's one parser
    (:attr:`stammtisch.games.mulatschak.options.OPTIONS`), as the REST API's."""
    return OPTIONS.parse_text(preset, options)


def normalize(text: str) -> str:
    """Input as the engine writes it: cards and suit letters upper case, words lower case
    (``tausche e7 g8`` -> ``tausche E7 G8``, ``weli`` -> ``S6``)."""
    out: list[str] = []
    for tok in text.strip().split():
        if _CARD.fullmatch(tok):
            out.append(tok.upper())
        elif tok.lower() == "weli":
            out.append("S6")
        elif out and out[-1] == "trumpf" and tok.upper() in ("E", "G", "H", "S"):
            out.append(tok.upper())
        else:
            out.append(tok.lower().replace("ü", "ue").replace("ß", "ss"))
    return " ".join(out)


class MulatschakPresenter(BasePresenter[MulatschakState]):
    """Mulatschak at the terminal (see the module)."""

    bot_names: tuple[str, ...] = ("Hans", "Schorsch", "Kunni", "Babett", "Resi", "Sepp")
    texts_prefix = "play.mu"
    hands_over = True
    max_seats = 6
    rules: MulatschakRules
    sitting: MulatschakSitting
    _offered = False

    def parse_rules(self, preset: str, options: Sequence[str]) -> MulatschakRules:
        return parse_rules(preset, options)

    def new_match(self, rules: MulatschakRules, first_dealer: int | None, limit: int | None,
                  players: int) -> MulatschakSitting:
        self.rules, self.players = rules, players
        self.sitting = new_match(rules, first_dealer or 0, None, players=players)
        #: (seat, standing bid, holder) where a human already declined the Muli out of turn
        self._declined: set[tuple[int, int, int | None]] = set()
        return self.sitting

    def welcome(self) -> None:
        r = self.rules
        options = ", ".join(f"{k}={json.dumps(v)}" for k, v in r.to_json().items()
                            if k != "preset")
        self.out(self.t("play.mu.welcome", rules=r.preset_name, n=self.players,
                        options=options))
        self.shell.roster()

    # -- one hand -----------------------------------------------------------------------
    def start_hand(self) -> MulatschakState:
        state = self.sitting.start_game(self.shell.shuffle_rng)
        self.out()
        factor = (self.t("play.mu.carried", m=2 ** state.doubled) if state.doubled else "")
        self.out(self.t("play.mu.header", n=self.shell.hand_no, dealer=self.names[state.dealer],
                        cutter=self.names[state.cutter], factor=factor))
        self.out(self.t("play.mu.standings", list=self._scores(state.start_scores)))
        self._offered = False
        return state

    def before_turn(self, state: MulatschakState) -> bool:
        if state.phase == "bidding" and not self._offered:
            self._offered = True
            return self._offer_muli(state)
        return False

    def apply(self, state: MulatschakState, seat: int, action: Action) -> None:
        phase = state.phase
        shown = len(state.shown)
        tricks = len(state.trick_winners)
        state.apply(action)
        self._narrate(state, seat, phase, action)
        new = state.shown[shown:]
        if new and phase != "trump":
            receiver = state.actor if state.actor is not None else seat
            self._show_face_up(state, receiver, new)
        if len(state.trick_winners) > tricks:
            self.out(self.verb(state.trick_winners[-1], "play.mu.trick_to",
                               n=len(state.trick_winners)))
        if (state.phase == "bidding" and seat not in self.shell.humans
                and isinstance(action, Say) and action.word[:1].isdigit()):
            self._offer_muli(state)

    def end_hand(self, state: MulatschakState) -> None:
        self.show_result(state)
        self.sitting.finish_game()

    def _show_face_up(self, state: MulatschakState, seat: int, cards: Sequence[Card]) -> None:
        if state.phase == "give" and state.sicht_card is not None and state.actor == seat:
            self.out(self.t("play.mu.sicht_card", name=self.names[seat],
                            card=str(state.sicht_card)))
            return
        self.out(self.t("play.mu.shown", name=self.names[seat],
                        cards=" ".join(str(c) for c in cards)))

    def _narrate(self, state: MulatschakState, seat: int, phase: str, action: Action) -> None:
        name = self.names[seat]
        if isinstance(action, Card):
            self.out(self.verb(seat, "play.mu.plays", card=str(action)))
            return
        assert isinstance(action, Say)
        word = action.word
        head, _, rest = word.partition(" ")
        if phase == "cut":
            card = str(state.revealed)
            weli = ".weli" if state.weli_keeper is not None else ""
            if word == "klopfen":
                self.out(self.verb(seat, "play.mu.klopft" + weli, card=card))
            else:
                self.out(self.verb(seat, "play.mu.cut" + weli, k=rest, card=card))
            if state.folded:
                self._folded(state)
            return
        if phase == "trump" and word == "weiss nicht":
            self.out(self.t("play.mu.says", name=name, word=word))
            self.out(self.t("play.mu.weiss_nicht", name=name, trump=state.trump,
                            cards=" ".join(str(c) for c in state.shown)))
            return
        if head in ("tausche", "ab"):
            key = "play.mu.tauscht" if head == "tausche" else "play.mu.discards"
            self.out(self.verb(seat, key, n=len(rest.split())))
            return
        self.out(self.t("play.mu.says", name=name, word="sicht" if head == "sicht" else word))
        if head == "sicht":
            return
        if phase == "bidding" and state.phase != "bidding":
            self._bidding_over(state)
        elif phase == "mitgehen" and state.phase != "mitgehen":
            if state.phase == "end":
                self.out(self.t("play.mu.all_home"))
            else:
                self._announce(state)

    def _folded(self, state: MulatschakState) -> None:
        low = [s for s, h in enumerate(state.hands)
               if not any(c.is_weli or c.rank.value in ("A", "K", "O", "U") for c in h)]
        self.out(self.t("play.mu.folded", names=", ".join(self.names[s] for s in low)))
        for s in low:
            self.out(join([Text(self.names[s] + ":"), *(card_text(c) for c in state.hands[s])]))

    def _bidding_over(self, state: MulatschakState) -> None:
        if state.holder is None:
            self.out(self.t("play.mu.redeal"))
        else:
            self.out(self.verb(state.holder, "play.mu.bidder", bid=self._bid_text(state.bid)))

    def _announce(self, state: MulatschakState) -> None:
        assert state.holder is not None
        m = state.multiplier()
        factor = self.t("play.mu.factor", m=m) if m > 1 else ""
        home = ", ".join(self.names[s] for s in state.home) or "—"
        self.out(self.t("play.mu.contract", name=self.names[state.holder],
                        bid=self._bid_text(state.bid), trump=state.trump, factor=factor,
                        home=home))

    def _bid_text(self, bid: int) -> str:
        return "Muli" if bid == 5 else str(bid)

    def _scores(self, scores: Sequence[int]) -> str:
        return ", ".join(f"{self.names[s]} {v}" for s, v in enumerate(scores))

    # -- the Muli out of turn ----------------------------------------------------------
    def _offer_muli(self, state: MulatschakState) -> bool:
        """Offer every human who may say it now the Muli out of turn; ``True`` if said."""
        for seat in sorted(self.shell.humans):
            if not state.out_of_turn_actions(seat):
                continue
            key = (seat, state.bid, state.holder)
            if key in self._declined:
                continue
            self._declined.add(key)
            self.shell.handover(seat)
            self._show_context(state, seat, offer=True)
            answer = normalize(self.shell.read(self.t("play.mu.muli_offer",
                                                      name=self.names[seat])))
            if answer in QUIT_WORDS:
                self.shell.confirm_quit()
                continue
            if answer in ("muli", "m", "5"):
                state.apply_out_of_turn(seat, Say("muli"))
                self.out(self.verb(seat, "play.mu.muli_out"))
                if state.phase != "bidding":
                    self._bidding_over(state)
                return True
        return False

    # -- a human's turn -------------------------------------------------------------
    def interpret(self, state: MulatschakState, seat: int,
                  text: str) -> tuple[Action | None, str]:
        """The legal action ``text`` means, or ``None`` and why not.  A number is a bid
        in the bidding, the cut's number of cards at the cut, and the number in the list
        of possibilities for the trump, mitgehen and the cards; a suit letter names the
        trump; cards alone discard (``ab``); a unique beginning of a word is the word."""
        legal = list(state.legal_actions())
        phase = state.phase
        words = normalize(text)
        if words.isdigit():
            n = int(words)
            if phase == "cut":
                words = f"abheben {n}"
            elif phase in INDEXED:
                if 1 <= n <= len(legal):
                    return legal[n - 1], ""
                return None, self.t("play.err.number", n=n, max=len(legal))
        if phase == "trump" and words.upper() in ("E", "G", "H", "S"):
            words = f"trumpf {words.upper()}"
        if (phase == "weiss_ab" or (phase == "give" and state.to_discard)) and words \
                and _CARD.fullmatch(words.split()[0]):
            words = "ab " + words
        try:
            action: Action | None = state.parse_action(words)
        except StammtischError:
            action = None
        if action is not None and action in legal:
            return action, ""
        if words and " " not in words:
            heads = sorted({str(a).split(" ")[0] for a in legal if not isinstance(a, Card)})
            matches = [h for h in heads if h.startswith(words)]
            if len(matches) == 1:
                exact = [a for a in legal if str(a) == matches[0]]
                if exact:
                    return exact[0], ""
                if matches[0] == "bei":
                    return Say("bei mir"), ""
            if len(matches) > 1:
                return None, self.t("play.err.ambiguous", text=text, matches=" ".join(matches))
        if action is None:
            return None, self.t("play.mu.err.unknown", text=text,
                                words=self._possible(state))
        why = state.explain_illegal(action)
        return None, self.t("play.err.not_now", text=text, why=why,
                            words=self._possible(state))

    def _possible(self, state: MulatschakState) -> str:
        """The possibilities, short: card lists are summarised (``tausche <1–4 cards>``)."""
        legal = [str(a) for a in state.legal_actions()]
        phase = state.phase
        if phase == "cut":
            return "abheben 1–32" + (", klopfen" if "klopfen" in legal else "")
        if phase == "exchange":
            parts = []
            for head in ("behalte", "tausche", "sicht", "sau", "sechs", "bruecke"):
                if not any(w.split(" ")[0] == head for w in legal):
                    continue
                if head == "tausche":
                    most = max(len(w.split()) - 1 for w in legal if w.startswith("tausche"))
                    parts.append(self.t("play.mu.form.tausche", max=most))
                elif head == "sicht":
                    parts.append(self.t("play.mu.form.sicht"))
                else:
                    parts.append(head)
            return ", ".join(parts)
        if phase == "weiss_ab" or (phase == "give" and state.to_discard):
            return self.t("play.mu.form.ab", n=state.to_discard)
        if phase in INDEXED:
            return "  ".join(f"{i}:{w}" for i, w in enumerate(legal, 1))
        return ", ".join(legal)

    def context(self, state: MulatschakState, seat: int) -> None:
        self._show_context(state, seat)

    def _show_context(self, state: MulatschakState, seat: int, offer: bool = False) -> None:
        v = state.view(seat)
        ph = v["phase"]
        self.out()
        holder = "—" if v["holder"] is None else self.names[v["holder"]]
        if offer:
            line = self.t("play.mu.phase.offer")
        elif ph == "play":
            line = self.verb(v["holder"], "play.mu.phase.play", bid=self._bid_text(v["bid"]),
                             trump=v["trump"], n=len(v["trick_winners"]) + 1)
        elif ph == "mitgehen":
            line = self.t("play.mu.phase.mitgehen", name=holder, bid=self._bid_text(v["bid"]),
                          trump=v["trump"])
        elif ph == "give" and state.sicht_card is not None:
            line = self.t("play.mu.phase.sicht", card=str(state.sicht_card))
        elif ph == "give" or ph == "weiss_ab":
            line = self.t("play.mu.phase.ab", n=state.to_discard)
        else:
            line = self.t(f"play.mu.phase.{ph}")
        self.out(f"[bold]{line}[/bold]")
        m = 2 ** (int(v["klopfen"]) + v["doubled"] + (v["trump"] == "H"))
        if m > 1:
            self.out(self.t("play.mu.factor_now", m=m))
        if ph == "bidding" or offer:
            if v["bid"]:
                self.out(self.t("play.mu.highest", bid=self._bid_text(v["bid"]), name=holder))
            else:
                self.out(self.t("play.mu.no_bid"))
            if v["scores"][seat] <= 5:
                self.out(self.t("play.mu.limit5", score=v["scores"][seat]))
        if ph in ("exchange", "mitgehen") and v["scores"][seat] <= 3:
            self.out(self.t("play.mu.limit3", score=v["scores"][seat]))
        if ph == "play" and v["trick"]:
            self.out(join([Text(self.t("play.on_table")),
                           *(join([self.names[s] + ":", card_text(c)]) for s, c in v["trick"])],
                          "  "))
        self.out(join([Text(self.verb(seat, "play.mu.your_cards")),
                       *(card_text(c) for c in v["hand"])]))
        if not offer:
            self.out(self.t("play.mu.possible", options=self._possible(state)))

    def show_last(self, state: MulatschakState, seat: int) -> None:
        if not state.tricks_played:
            self.out(self.t("play.no_trick_yet"))
            return
        last = state.tricks_played[-1]
        self.out(join([join([self.names[s] + ":", card_text(c)]) for s, c in last], "  "))
        self.out(self.t("play.mu.trick_winner", name=self.names[state.trick_winners[-1]]))

    # -- results and the score column ----------------------------------------------------
    def show_result(self, state: MulatschakState) -> None:
        r = state.result()
        assert r is not None
        self.out()
        if r["folded"]:
            outcome = FOLDED
        elif r["bidder"] is None:
            outcome = self.t("play.mu.no_game")
        else:
            bidder = r["bidder"]
            t = r["tricks"][bidder]
            if not r["trick_winners"]:
                outcome = self.verb(bidder, "play.mu.outcome.home", bid=self._bid_text(r["bid"]))
            else:
                made = t == 5 if r["bid"] == 5 else t >= r["bid"]
                outcome = self.verb(bidder, f"play.mu.outcome.{'made' if made else 'fell'}",
                                    bid=self._bid_text(r["bid"]), trump=r["trump"], n=t)
        self.out(self.t("play.mu.result", n=self.shell.hand_no, outcome=outcome))
        if r["trick_winners"]:
            self.out(self.t("play.mu.tricks", list=", ".join(
                f"{self.names[s]} {n}" for s, n in enumerate(r["tricks"])
                if s not in r["home"])))
        if r["bidder"] is not None:
            self.out(self.t("play.mu.changes", m=r["multiplier"], list=", ".join(
                f"{self.names[s]} {d:+d}" for s, d in enumerate(r["delta"]))))
        self.out(self.t("play.mu.standings", list=self._scores(r["scores"])))
        if r["folded"] or r["bidder"] is None:
            self.out(self.t("play.mu.next_double" if r["folded"] else "play.mu.next_same"))

    def show_sheet(self) -> None:
        sheet = self.sitting.sheet.to_json()
        table = Table(title=self.t("play.mu.sheet_title"), title_justify="left")
        for col in ("hand", "dealer", "game", "factor"):
            table.add_column(self.t(f"play.mu.col.{col}"))
        for name in self.names:
            table.add_column(name, justify="right")
        table.add_row("", "", "", "", *(str(sheet["start"]) for _ in self.names))
        for h in sheet["hands"]:
            if h["note"] == FOLDED:
                game = FOLDED
            elif h["bidder"] is None:
                game = self.t("play.mu.no_game")
            else:
                game = f"{self.names[h['bidder']]}: {self._bid_text(h['bid'])} {h['trump']}"
                if h["note"] == "daheim":
                    game += " · " + self.t("play.mu.all_home_short")
            cells = []
            for s, (score, d) in enumerate(zip(h["scores"], h["delta"], strict=True)):
                mark = " d" if s in h["home"] else ""
                cells.append(f"{score} ({d:+d}{mark})" if h["bidder"] is not None
                             else str(score))
            table.add_row(str(h["number"]), self.names[h["dealer"]], game,
                          f"×{h['multiplier']}", *cells)
        self.out(table)
        if not sheet["winners"]:
            self.out(self.t("play.mu.in_force", m=sheet["multiplier"]))

    def finale(self) -> None:
        sheet = self.sitting.sheet.to_json()
        self.out()
        self.show_sheet()
        winners = sheet["winners"]
        names = ", ".join(self.names[w] for w in winners)
        score, n = sheet["scores"][winners[0]], sheet["count"]
        if len(winners) == 1:
            self.out(self.verb(winners[0], "play.mu.winner", names=names, score=score, n=n))
        else:
            self.out(self.t("play.mu.winners", names=names, score=score, n=n))
