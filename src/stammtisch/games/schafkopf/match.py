"""A Schafkopf sitting: the dealer moves on, the payments add up, and Kreuzbock rounds.

Kreuzbock is not part of the hand contract (../specs/schafkopf.md): it is a match rule of
seed 002 — "Üblicherweise werden dabei vier Spiele gespielt, also eine Runde, wobei die sich
über Kreuz gegenübersitzenden Spieler automatisch Partner sind. Es gibt jedoch keine
Spielerpartei im eigentlichen Sinne. Es gilt vielmehr, dass die Partei, die zuletzt
‚Kontra' gegeben hat, die Spielerpartei ist. Wurde kein ‚Kontra' gegeben, ist die Partei,
die zuerst gelegt hat, die Spielerpartei. Tritt beides nicht ein, ist die Partei mit dem
höchsten Trumpf, d.h. dem Eichel-Ober, die Spielerpartei."

Reading implemented here (seed 002 says when only as "in bestimmten Situationen"):

- with ``kreuzbock=True`` a round of four Kreuzbock hands follows every Ramsch, and the
  table may ask for one (:meth:`SchafkopfMatch.ask_kreuzbock`); rounds add up;
- a Kreuzbock hand (:class:`KreuzbockState`) has no bidding: Legen (with ``rules.legen``),
  then Stoßen in which any seat may open with ``stoss_words[0]`` (asked once from Vorhand)
  and only the other pair may answer with the next word; the pair that said the last word,
  else the pair that said ``lege`` first, else the pair holding EO is the declaring party
  (``declarer`` is that seat, ``partner`` the seat opposite);
- it is played with the normal trumps, Vorhand leads, and scored like a Sauspiel: 61 wins,
  Schneider, Schwarz, Laufende from 3, ``rufspiel`` + extras, × 2 per ``lege`` and Stoß
  word, ± v per seat.

>>> import random
>>> from stammtisch.engine import play_random
>>> m = SchafkopfMatch(SchafkopfRules.preset("anleitung"), kreuzbock=True)
>>> m.ask_kreuzbock()
>>> hand = m.new_hand()
>>> type(hand).__name__, hand.phase
('KreuzbockState', 'shuffle')
>>> m.finish_hand(play_random(hand, random.Random(3)))
>>> m.kreuzbock_pending, m.dealer, sum(m.totals)
(3, 1, 0)
"""

from __future__ import annotations

from typing import Any

from stammtisch.cards import Card
from stammtisch.engine.core import TERMINAL, Action, Say
from stammtisch.engine.tricks import TrickPlay
from stammtisch.errors import IllegalActionError, RulesError
from stammtisch.games.schafkopf.games import NORMAL
from stammtisch.games.schafkopf.rules import SchafkopfRules
from stammtisch.games.schafkopf.state import (
    BIDDING,
    EO,
    LEGEN,
    PLAY,
    STOSSEN,
    SchafkopfState,
    _laufende,
)


class KreuzbockState(SchafkopfState):
    """One Kreuzbock hand: seats 0 and 2 against 1 and 3, no bidding (see the module)."""

    def _dealt(self, hands: list[list[Card]]) -> None:
        super()._dealt(hands)
        if self._phase != LEGEN:
            self._start_kreuzbock()

    def public_partner(self) -> int | None:
        return self._partner  # crosswise: everybody knows

    def _stoss_side(self, seat: int) -> object:
        return seat % 2  # the pairs stoß each other

    def _may_stoss(self, seat: int) -> bool:
        return not self.stoss or seat % 2 != self._last_side

    def explain_illegal(self, action: Action) -> str:
        if self._phase == STOSSEN and isinstance(action, Say) and action.word != "gut":
            words = " ".join(str(a) for a in self.legal_actions())
            return f"seat {self._player} may say {words} now, not {action.word!r}"
        return super().explain_illegal(action)

    def apply_unchecked(self, action: Action) -> None:
        ph = self._phase
        super().apply_unchecked(action)
        if ph == LEGEN and self._phase == BIDDING:
            self._start_kreuzbock()

    def _start_kreuzbock(self) -> None:
        self.contract = "kreuzbock"
        self.order = NORMAL
        self._start_stossen()  # no declarer yet: every seat is asked, from Vorhand

    def _start_play(self) -> None:
        if self.stoss:
            seat = self.stoss[-1][0]
        elif self.lege_seats:
            seat = self.lege_seats[0]
        else:
            seat = next(s for s in range(4) if EO in self.hands[s])
        self.declarer = seat
        self._partner = (seat + 2) % 4
        self._phase = PLAY
        self.start_hands = tuple(tuple(h) for h in self.hands)
        self.tricks = TrickPlay(4, self.vorhand)
        self._player = self.vorhand

    def _score(self) -> dict[str, Any]:
        rules = self.rules
        t = self.tricks
        d = self.declarer
        assert d is not None and self._partner is not None
        party = {d, self._partner}
        party_augen = sum(t.augen[s] for s in party)
        party_tricks = sum(1 for w in t.winners if w in party)
        won = party_augen >= 61
        schneider = party_augen >= 91 or party_augen <= 30
        schwarz = (8 - party_tricks if won else party_tricks) == 0
        laufende = _laufende(NORMAL, party, self.start_hands)
        laufende = laufende if laufende >= 3 else 0
        v = (rules.tariff_of("rufspiel") + (rules.tariff_of("schneider") if schneider else 0)
             + (rules.tariff_of("schwarz") if schwarz else 0)
             + rules.tariff_of("laufend") * laufende) * self.multiplier
        return {
            "contract": "kreuzbock", "declarer": d, "partner": self._partner,
            "trick_winners": list(t.winners), "augen": list(t.augen),
            "winner": "declarers" if won else "opponents", "schneider": schneider,
            "schwarz": schwarz, "laufende": laufende, "multiplier": self.multiplier,
            "payments": [v if (s in party) == won else -v for s in range(4)], "loser": None,
        }



class SchafkopfMatch:
    """A sitting: hands one after another, the dealer moving clockwise, the payments
    summed per seat, and (with ``kreuzbock``) Kreuzbock rounds after a Ramsch."""

    def __init__(self, rules: SchafkopfRules | None = None, *, kreuzbock: bool = False,
                 dealer: int = 0) -> None:
        if not isinstance(kreuzbock, bool):
            raise RulesError(f"kreuzbock={kreuzbock!r}: must be true or false")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < 4:
            raise RulesError(f"dealer={dealer!r}: must be a seat 0..3")
        self.rules = rules if rules is not None else SchafkopfRules.preset("standard")
        self.kreuzbock = kreuzbock
        self.dealer = dealer
        self.totals = [0, 0, 0, 0]
        self.kreuzbock_pending = 0
        self.results: list[dict[str, Any]] = []
        self._current: SchafkopfState | None = None

    def ask_kreuzbock(self) -> None:
        """The table asks for a round of four Kreuzbock hands."""
        if not self.kreuzbock:
            raise RulesError("this table does not play Kreuzbock (kreuzbock=False)")
        self.kreuzbock_pending += 4

    def new_hand(self) -> SchafkopfState:
        """The next hand (a Kreuzbock hand while a round is pending), at its shuffle."""
        if self._current is not None:
            raise IllegalActionError("finish the current hand first", "illegal_action")
        cls = KreuzbockState if self.kreuzbock_pending else SchafkopfState
        self._current = cls(self.rules, self.dealer)
        return self._current

    def finish_hand(self, state: SchafkopfState) -> None:
        """Book a finished hand: payments, Kreuzbock bookkeeping, the next dealer."""
        if state is not self._current:
            raise IllegalActionError("not the current hand of this match", "illegal_action")
        if state.current_player != TERMINAL:
            raise IllegalActionError("the hand is not over yet", "illegal_action")
        r = state.result()
        assert r is not None
        self.results.append(r)
        self.totals = [a + b for a, b in zip(self.totals, r["payments"], strict=True)]
        if isinstance(state, KreuzbockState):
            self.kreuzbock_pending -= 1
        elif self.kreuzbock and r["contract"] == "ramsch":
            self.kreuzbock_pending += 4
        self.dealer = (self.dealer + 1) % 4
        self._current = None


__all__ = ["KreuzbockState", "SchafkopfMatch"]
