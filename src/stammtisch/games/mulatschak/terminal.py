"""A Mulatschak session in the terminal (``stammtisch play --game mulatschak [--players N]``).

One match (:func:`stammtisch.games.mulatschak.online.new_match`: every seat from 21 down,
the first at 0 or less wins, a folded hand doubles the next) for 2–6 seats (``--players``,
default 4).  One human at seat 0 plays against bots, or several humans share the terminal
(``--hotseat``, ``--humans 0,2``); the prompt then names whose turn it is and shows only
that seat's cards.  ``--bobbl`` does not apply (the session is one match to a winner).

The hand as the table sees it: the cut (``abheben N``, or ``klopfen``) and the card it
shows (a Weli is kept by the cutter), Zusammengefallen, the Stichansage (``1``–``4``,
``muli``, ``bei mir``, ``weiter``), the Muli out of turn (a human who may say it is offered
``muli`` after the deal and after every raise of a bot), the trump, ``mit``/``daheim``, the
exchange forms (``behalte``, ``tausche E7 G8``, ``sicht E7``, ``sau``, ``sechs``,
``bruecke``, then ``nimm``/``weg`` and ``ab …``), the five tricks, the result and the score
column with the multiplier in force (``z``).

Everything a human is shown comes from ``state.view(seat)`` of a human seat or is public:
a word said, a card shown face up (the cut card, a ``sicht`` card, a Brücke's shown
cards), a card played.  Exchanged and discarded cards are not named (only their number).

The core is :class:`PlaySession`; it takes a ``read(prompt) -> str`` function (raising
``EOFError`` at the end of input) and a rich ``Console``, so tests drive it without a
terminal.  Its texts come from :mod:`stammtisch.i18n` (keys ``play.mu.*`` and some
``play.*`` shared with the other sessions), German or English; game words stay German.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stammtisch.bots.base import BOTS, Bot, BotFactory
from stammtisch.cards import Card, Suit
from stammtisch.engine.core import Action, Rng, Say
from stammtisch.errors import RulesError, StammtischError
from stammtisch.games.mulatschak.online import FOLDED, MulatschakSitting, new_match
from stammtisch.games.mulatschak.rules import MulatschakRules
from stammtisch.games.mulatschak.state import MulatschakState
from stammtisch.i18n import Translator

ReadFn = Callable[[str], str]

#: names of bot seats (by seat)
BOT_NAMES = ("Hans", "Schorsch", "Kunni", "Babett", "Resi", "Sepp")
SUIT_STYLE = {Suit.EICHEL: "cyan", Suit.GRAS: "green", Suit.HERZ: "red",
              Suit.SCHELLEN: "yellow"}

YES = {"j", "ja", "y", "yes"}
QUIT_WORDS = {"q", "quit", "exit", "ende", "aufhören", "aufhoeren"}
HELP_WORDS = {"?", "h", "hilfe", "help"}
LAST_WORDS = {"l", "letzter", "last"}
SHEET_WORDS = {"z", "zettel", "stand", "sheet"}
#: phases where a number picks from the list of possibilities (elsewhere a number is a
#: bid, a cut, or nothing)
INDEXED = ("trump", "mitgehen", "play")
_CARD = re.compile(r"[egsh](a|k|o|u|10|9|8|7|6)", re.IGNORECASE)


class _Quit(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- command-line helpers --------------------------------------------------------------


def _convert(raw: str) -> Any:
    low = raw.strip().lower()
    if low in ("true", "ja", "yes", "on", "1", "j", "y"):
        return True
    if low in ("false", "nein", "no", "off", "0", "n"):
        return False
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw.strip()


def parse_rules(preset: str, options: Sequence[str] = ()) -> MulatschakRules:
    """Rules from a preset name and ``KEY=VALUE`` options (``RulesError`` if not valid)."""
    changes: dict[str, Any] = {}
    for item in options:
        key, sep, raw = item.partition("=")
        if not sep:
            raise RulesError(f"{item!r}: expected KEY=VALUE")
        changes[key.strip()] = _convert(raw)
    return MulatschakRules.preset(preset, **changes)


def parse_humans(text: str) -> frozenset[int]:
    """``0,2`` -> the human seats (``ValueError`` if not seats 0–5; the session checks
    them against the number of players)."""
    try:
        seats = frozenset(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise ValueError(f"--humans {text!r}: give seats 0-5, e.g. 0,2") from None
    if not seats or not seats <= set(range(6)):
        raise ValueError(f"--humans {text!r}: give seats 0-5, e.g. 0,2")
    return seats


def _own_bots() -> Mapping[str, BotFactory]:
    """Mulatschak's own bots (the description's ``load_bots``)."""
    from stammtisch.games.mulatschak.plugin import PLUGIN

    return dict(PLUGIN.load_bots())


def default_bot_name() -> str:
    """Mulatschak's default bot if it can be made, else ``random``."""
    from stammtisch.games.mulatschak.plugin import PLUGIN

    name = PLUGIN.default_bot
    return name if name in {**BOTS, **_own_bots()} else "random"


def make_bot(name: str) -> Bot:
    factories = {**BOTS, **_own_bots()}
    try:
        return factories[name]()
    except KeyError:
        raise StammtischError(
            f"unknown bot {name!r} (known: {', '.join(sorted(factories))})") from None


def card_text(card: Card | str) -> Text:
    c = Card.parse(card) if isinstance(card, str) else card
    return Text(str(c), style="bold magenta" if c.is_weli else SUIT_STYLE.get(c.suit, ""))


def _join(parts: Iterable[Text | str], sep: str = " ") -> Text:
    out = Text()
    for i, p in enumerate(parts):
        if i:
            out.append(sep)
        out.append(p if isinstance(p, Text) else Text(p))
    return out


def normalize(text: str) -> str:
    """Input as the engine writes it: cards and suit letters upper case, words lower case
    (``tausche e7 g8`` -> ``tausche E7 G8``, ``weli`` -> ``S6``)."""
    out = []
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


# -- the session -----------------------------------------------------------------------


class PlaySession:
    """A Mulatschak match at one terminal (see the module).  ``bobbl_limit`` is accepted
    for the command's sake and not used."""

    def __init__(
        self,
        rules: MulatschakRules,
        *,
        console: Console,
        read: ReadFn,
        humans: Iterable[int] = (0,),
        bot: str = "random",
        shuffle_rng: Rng | None = None,
        bot_rng: Rng | None = None,
        bobbl_limit: int | None = None,
        first_dealer: int | None = None,
        interactive: bool = False,
        lang: str = "de",
        players: int = 4,
    ) -> None:
        del bobbl_limit
        self.t = Translator(lang)
        self.rules = rules
        self.console = console
        self._read = read
        # built once to check ``players`` (RulesError naming it), again with the dealer
        self.match: MulatschakSitting = new_match(rules, 0, None, players=players)
        self.players = players
        self.humans = frozenset(humans)
        if not self.humans or not self.humans <= set(range(players)):
            raise ValueError(f"humans: name at least one seat 0..{players - 1} "
                             f"({players} players)")
        if first_dealer is not None and not 0 <= first_dealer < players:
            raise ValueError(f"first dealer {first_dealer}: a seat 0..{players - 1}")
        self.match = new_match(rules, first_dealer or 0, None, players=players)
        self.bot_name = bot
        self.shuffle_rng: Rng = shuffle_rng if shuffle_rng is not None else random.SystemRandom()
        self.bot_rng: Rng = bot_rng if bot_rng is not None else random.Random()
        self.interactive = interactive
        self.single = len(self.humans) == 1
        self.names = [(self.t("play.you") if self.single else self.t("play.player_n", n=p + 1))
                      if p in self.humans else BOT_NAMES[p] for p in range(players)]
        self.bots: dict[int, Bot] = {s: make_bot(bot) for s in range(players)
                                     if s not in self.humans}
        self.hand_no = 0
        self.state: MulatschakState | None = None
        self._shown_to: int | None = None
        #: (seat, standing bid) where a human already declined the Muli out of turn
        self._declined: set[tuple[int, int, int | None]] = set()

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

    # -- the match -------------------------------------------------------------------
    def run(self) -> int:
        """Play until a seat reaches 0 (or quit / end of input).  Exit code 0."""
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
        options = ", ".join(f"{k}={json.dumps(v)}" for k, v in r.to_json().items()
                            if k != "preset")
        self.out(self.t("play.mu.welcome", rules=r.preset_name, n=self.players,
                        options=options))
        humans = ", ".join(self.names[s] for s in sorted(self.humans))
        bots = ", ".join(self.names[s] for s in range(self.players) if s not in self.humans)
        if bots:
            self.out(self.t("play.humans", names=humans) + " · "
                     + self.t("play.bots", bot=self.bot_name, names=bots))
        self.out(self.t("play.help_hint"))

    def _play_hand(self) -> None:
        self.hand_no += 1
        state = self.match.start_game(self.shuffle_rng)
        self.state = state
        self.out()
        factor = (self.t("play.mu.carried", m=2 ** state.doubled) if state.doubled else "")
        self.out(self.t("play.mu.header", n=self.hand_no, dealer=self.names[state.dealer],
                        cutter=self.names[state.cutter], factor=factor))
        self.out(self.t("play.mu.standings", list=self._scores(state.start_scores)))
        offered = False
        while not state.is_terminal():
            if state.phase == "bidding" and not offered:
                offered = True
                if self._offer_muli(state):
                    continue
            seat = state.current_player
            if seat in self.humans:
                action = self._human_turn(state, seat)
            else:
                action = self._bot_turn(state, seat)
            self._apply(state, seat, action)
            if (state.phase == "bidding" and seat not in self.humans
                    and isinstance(action, Say) and action.word[:1].isdigit()):
                self._offer_muli(state)
        self.show_result(state)
        self.match.finish_game()
        self.state = None
        if self.interactive and not self.match.is_over():
            low = self.read(self.t("play.next_game")).strip().lower()
            if low in QUIT_WORDS:
                self._confirm_quit()

    def _bot_turn(self, state: MulatschakState, seat: int) -> Action:
        action = self.bots[seat].choose(state, self.bot_rng)
        if action not in state.legal_actions():
            self.out(self.t("play.bot_illegal", name=self.names[seat], error=str(action)))
            action = state.legal_actions()[0]
        return action

    def _apply(self, state: MulatschakState, seat: int, action: Action) -> None:
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
            self.out(self._verb(state.trick_winners[-1], "play.mu.trick_to",
                                n=len(state.trick_winners)))

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
            self.out(self._verb(seat, "play.mu.plays", card=str(action)))
            return
        assert isinstance(action, Say)
        word = action.word
        head, _, rest = word.partition(" ")
        if phase == "cut":
            card = str(state.revealed)
            if word == "klopfen":
                key = "play.mu.klopft.weli" if state.weli_keeper is not None else "play.mu.klopft"
                self.out(self._verb(seat, key, card=card))
            else:
                key = "play.mu.cut.weli" if state.weli_keeper is not None else "play.mu.cut"
                self.out(self._verb(seat, key, k=rest, card=card))
            if state.folded:
                self._folded(state)
            return
        if phase == "trump" and word == "weiss nicht":
            self.out(self.t("play.mu.says", name=name, word=word))
            self.out(self.t("play.mu.weiss_nicht", name=name, trump=state.trump,
                            cards=" ".join(str(c) for c in state.shown)))
            return
        if head == "tausche":
            self.out(self._verb(seat, "play.mu.tauscht", n=len(rest.split())))
            return
        if head == "sicht":
            self.out(self.t("play.mu.says", name=name, word="sicht"))
            return
        if head == "ab":
            self.out(self._verb(seat, "play.mu.discards", n=len(rest.split())))
            return
        self.out(self.t("play.mu.says", name=name, word=word))
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
            self.out(_join([Text(self.names[s] + ":"), *(card_text(c)
                                                         for c in state.hands[s])]))

    def _bidding_over(self, state: MulatschakState) -> None:
        if state.holder is None:
            self.out(self.t("play.mu.redeal"))
        else:
            self.out(self.t("play.mu.bidder", name=self.names[state.holder],
                            bid=self._bid_text(state.bid)))

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
        for seat in sorted(self.humans):
            if not state.out_of_turn_actions(seat):
                continue
            key = (seat, state.bid, state.holder)
            if key in self._declined:
                continue
            self._declined.add(key)
            self._handover(seat)
            self._show_context(state, seat, offer=True)
            answer = normalize(self.read(self.t("play.mu.muli_offer", name=self.names[seat])))
            if answer in QUIT_WORDS:
                self._confirm_quit()
                continue
            if answer in ("muli", "m", "5"):
                state.apply_out_of_turn(seat, Say("muli"))
                self.out(self._verb(seat, "play.mu.muli_out"))
                if state.phase != "bidding":
                    self._bidding_over(state)
                return True
        return False

    # -- a human's turn -------------------------------------------------------------
    def _handover(self, seat: int) -> None:
        """Hot seat: announce whose turn it is before a hand appears."""
        if self.single or self._shown_to == seat:
            return
        self.out()
        self.out(Panel.fit(self.t("play.handover", name=self.names[seat]),
                           border_style="cyan"))
        if self.interactive:
            answer = self.read(self.t("play.handover_prompt", name=self.names[seat]))
            if answer.strip().lower() in QUIT_WORDS:
                self._confirm_quit()
            self.console.clear()
        self._shown_to = seat

    def _human_turn(self, state: MulatschakState, seat: int) -> Action:
        self._handover(seat)
        self._show_context(state, seat)
        while True:
            text = self.read(self.t("play.mu.prompt", name=self.names[seat]))
            low = text.strip().lower()
            if not low:
                self._show_context(state, seat)
                continue
            if low in HELP_WORDS:
                self.out(self.t("play.mu.help"))
                continue
            if low in QUIT_WORDS:
                self._confirm_quit()
                continue
            if low in LAST_WORDS:
                self.show_last_trick(state)
                continue
            if low in SHEET_WORDS:
                self.show_sheet()
                continue
            action, error = self.interpret(state, seat, text)
            if action is not None:
                return action
            self.out(f"[red]{error}[/red]", markup=True)

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
            action = state.parse_action(words)
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

    def _confirm_quit(self) -> None:
        if self.read(self.t("play.confirm_quit")).strip().lower() in YES:
            raise _Quit("quit")
        self.out(self.t("play.go_on"))

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

    def _show_context(self, state: MulatschakState, seat: int, offer: bool = False) -> None:
        v = state.view(seat)
        ph = v["phase"]
        self.out()
        holder = "—" if v["holder"] is None else self.names[v["holder"]]
        if offer:
            line = self.t("play.mu.phase.offer")
        elif ph == "play":
            line = self.t("play.mu.phase.play", name=holder, bid=self._bid_text(v["bid"]),
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
            self.out(_join([Text(self.t("play.on_table")),
                            *(_join([self.names[s] + ":", card_text(c)])
                              for s, c in v["trick"])], "  "))
        self.out(_join([Text(self._verb(seat, "play.mu.your_cards")),
                        *(card_text(c) for c in v["hand"])]))
        if not offer:
            self.out(self.t("play.mu.possible", options=self._possible(state)))

    def show_last_trick(self, state: MulatschakState) -> None:
        if not state.tricks_played:
            self.out(self.t("play.no_trick_yet"))
            return
        last = state.tricks_played[-1]
        self.out(_join([_join([self.names[s] + ":", card_text(c)]) for s, c in last], "  "))
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
                outcome = self.t("play.mu.outcome.home", name=self.names[bidder],
                                 bid=self._bid_text(r["bid"]))
            else:
                made = t == 5 if r["bid"] == 5 else t >= r["bid"]
                outcome = self.t(f"play.mu.outcome.{'made' if made else 'fell'}",
                                 name=self.names[bidder], bid=self._bid_text(r["bid"]),
                                 trump=r["trump"], t=t)
        self.out(self.t("play.mu.result", n=self.hand_no, outcome=outcome))
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
        sheet = self.match.sheet.to_json()
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
        if sheet["winners"]:
            return
        self.out(self.t("play.mu.in_force", m=sheet["multiplier"]))

    def _finale(self) -> None:
        sheet = self.match.sheet.to_json()
        self.out()
        self.show_sheet()
        winners = sheet["winners"]
        names = ", ".join(self.names[w] for w in winners)
        score, n = sheet["scores"][winners[0]], sheet["count"]
        if len(winners) == 1:
            self.out(self._verb(winners[0], "play.mu.winner", names=names, score=score, n=n))
        else:
            self.out(self.t("play.mu.winners", names=names, score=score, n=n))


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


__all__ = ["PlaySession", "default_bot_name", "make_bot", "normalize", "parse_humans",
           "parse_rules", "stdin_reader"]
