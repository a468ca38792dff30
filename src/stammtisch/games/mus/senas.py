"""Señas: the agreed signs by which Mus partners tell each other about their cards.

Seed 004: „Mus bezieht seinen Reiz auch daraus, dass es den Spielern eines Teams erlaubt
ist, sich gegenseitig mit Hilfe festgelegter non-verbaler Zeichen Informationen über die
eigenen Handkarten zu geben - am besten natürlich ohne dass die Gegenspieler dies
mitbekommen ;-) So bedeutet zum Beispiel mit einem Auge zwinkern "Ich habe 31" oder mit den
Zähnen auf die Unterlippe beißen "Ich habe 2 Könige". Eine Übersicht der offiziellen
Zeichen finden Sie in den Mus-Regeln“.  The Duples file itself is not at hand; the palette
below is the list of señas commonly published as the accepted ones in Spain (it contains
the seed's two examples).  Readings (docs/rules/mus.md, "Señas"):

- Señas are a *table option* (:class:`SenasConfig`, a match option of
  :func:`stammtisch.games.mus.online.new_match`), not a rule option: the contract fixes
  :class:`~stammtisch.games.mus.rules.MusRules`.  ``off``: no señas; ``on``: señas reach
  the partner only; ``sichtbar``: each opponent also catches each seña independently with
  probability ``catch`` (drawn when the seña is made; without a random source nobody
  catches).
- A seña must be *true* of the sender's current four cards (the common rule „en el mus no
  se podrá mentir en una seña“), and it names the exact combination (no partial señas: with
  duples of kings and aces there is ``duples``, not ``2reyes``).  Each seña at most once
  per seat and per deal of cards (the count starts again after a Mus round's draws).
- Señas are made in the Mus rounds and in the lances (phases ``mus`` and ``lances``), not
  while cards are being discarded, drawn or shuffled, and not after the hand is over.

>>> print(" ".join(IDS))
2reyes 3reyes 2ases 3ases medias duples 31 solomillo juego 30 29 ciego
>>> from stammtisch.cards import cards
>>> from stammtisch.games.mus.rules import MusRules
>>> r = MusRules.preset("duples")
>>> true_signs(cards("OR C3 OC B1"), r)    # the seed's hand A: two kings (R, 3) and 31
['2reyes', '31']
>>> true_signs(cards("OR C3 PR B2"), r)    # three kings and an ace
['3reyes', '31', 'solomillo']
>>> true_signs(cards("O4 C5 P6 B7"), r)    # nothing to tell: 22 al punto
['ciego']
>>> SenasConfig("sichtbar", 0.25).to_json()
{'mode': 'sichtbar', 'catch': 0.25}
>>> SenasConfig("laut")
Traceback (most recent call last):
...
stammtisch.errors.RulesError: senas='laut': must be off, on or sichtbar
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from stammtisch.cards import Card
from stammtisch.errors import RulesError
from stammtisch.games.mus.hands import juego_value, pares_key, rank_of
from stammtisch.games.mus.rules import MusRules

MODES: Final = ("off", "on", "sichtbar")
DEFAULT_CATCH: Final = 0.2
#: the word of a seña action (``seña 31``); ``sena`` is accepted when parsing
WORD: Final = "seña"


def _pares(hand: Sequence[Card], rules: MusRules) -> tuple[int, int, int] | None:
    return pares_key(hand, rules)


def _juego(hand: Sequence[Card], rules: MusRules) -> int:
    return juego_value(hand, rules)


def _ranks(hand: Sequence[Card], rules: MusRules) -> list[int]:
    return sorted(rank_of(c, rules) for c in hand)


@dataclass(frozen=True)
class Sena:
    """One seña: its stable ``id`` (the word after ``seña``), the Spanish name, the
    gesture, and whether a hand may show it (``holds(hand, rules)``)."""

    id: str
    name: str
    gesture: str
    holds: Callable[[Sequence[Card], MusRules], bool]


def _medias(rank: int | None) -> Callable[[Sequence[Card], MusRules], bool]:
    def holds(hand: Sequence[Card], rules: MusRules) -> bool:
        k = _pares(hand, rules)
        if k is None or k[0] != 2:
            return False
        return k[1] == rank if rank is not None else k[1] not in (12, 1)
    return holds


def _par(rank: int) -> Callable[[Sequence[Card], MusRules], bool]:
    def holds(hand: Sequence[Card], rules: MusRules) -> bool:
        return _pares(hand, rules) == (1, rank, 0)
    return holds


def _duples(hand: Sequence[Card], rules: MusRules) -> bool:
    k = _pares(hand, rules)
    return k is not None and k[0] == 3


def _value(test: Callable[[int], bool]) -> Callable[[Sequence[Card], MusRules], bool]:
    def holds(hand: Sequence[Card], rules: MusRules) -> bool:
        return test(_juego(hand, rules))
    return holds


def _solomillo(hand: Sequence[Card], rules: MusRules) -> bool:
    return _ranks(hand, rules) == [1, 12, 12, 12]


def _ciego(hand: Sequence[Card], rules: MusRules) -> bool:
    return not any(s.holds(hand, rules) for s in PALETTE if s.id != "ciego")


#: the palette, in the order a UI lists it
PALETTE: Final[tuple[Sena, ...]] = (
    Sena("2reyes", "dos reyes", "morderse el labio inferior", _par(12)),
    Sena("3reyes", "tres reyes (medias de reyes)",
         "morderse un lado del labio inferior", _medias(12)),
    Sena("2ases", "dos ases (dos pitos)", "sacar la punta de la lengua", _par(1)),
    Sena("3ases", "tres ases (medias de ases)", "sacar la lengua por un lado", _medias(1)),
    Sena("medias", "medias", "torcer la boca cerrada hacia un lado", _medias(None)),
    Sena("duples", "duples", "levantar las cejas", _duples),
    Sena("31", "treinta y una (la una)", "guiñar un ojo", _value(lambda v: v == 31)),
    Sena("solomillo", "solomillo (tres reyes y un as)", "un beso sin sonido", _solomillo),
    Sena("juego", "juego (no de 31)", "sacar los labios cerrados hacia afuera",
         _value(lambda v: v >= 32)),
    Sena("30", "treinta al punto", "alzar los dos hombros", _value(lambda v: v == 30)),
    Sena("29", "veintinueve al punto", "alzar un hombro", _value(lambda v: v == 29)),
    Sena("ciego", "ciego (no llevo nada)", "cerrar los ojos", _ciego),
)
BY_ID: Final[Mapping[str, Sena]] = {s.id: s for s in PALETTE}
IDS: Final[tuple[str, ...]] = tuple(s.id for s in PALETTE)


def true_signs(hand: Sequence[Card], rules: MusRules) -> list[str]:
    """The ids of the señas ``hand`` may show, in palette order."""
    return [s.id for s in PALETTE if s.holds(hand, rules)]


@dataclass(frozen=True)
class SenasConfig:
    """Whether and how señas are played at a table (validated; ``RulesError`` naming the
    option, ``senas`` or ``catch``)."""

    mode: str = "off"
    #: the probability that one opponent catches one seña (``sichtbar`` only)
    catch: float = DEFAULT_CATCH

    def __post_init__(self) -> None:
        if not isinstance(self.mode, str) or self.mode not in MODES:
            raise RulesError(f"senas={self.mode!r}: must be off, on or sichtbar")
        c = self.catch
        if isinstance(c, bool) or not isinstance(c, int | float) or not 0 <= c <= 1:
            raise RulesError(f"catch={c!r}: must be a probability from 0 to 1")
        object.__setattr__(self, "catch", float(c))

    @property
    def enabled(self) -> bool:
        return self.mode != "off"

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "catch": self.catch}

    @classmethod
    def from_json(cls, data: Any) -> SenasConfig:
        if not isinstance(data, Mapping):
            raise RulesError("senas: must be an object {\"mode\": ..., \"catch\": ...}")
        return cls(data.get("mode", "off"), data.get("catch", DEFAULT_CATCH))


OFF: Final = SenasConfig()


@dataclass(frozen=True)
class SenaMade:
    """A seña as it happened: after ``after`` actions of the record (the ``actions``
    list), ``seat`` showed ``sign``; ``seen_by`` are the opponents who caught it."""

    after: int
    seat: int
    sign: str
    seen_by: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"after": self.after, "seat": self.seat, "sign": self.sign,
                "seen_by": list(self.seen_by)}

    def log_word(self) -> str:
        """The seña in a state's action log (``seña 31 by 2 seen 1 3``; ``seen -`` when
        nobody caught it): what a table replays after a restart."""
        seen = " ".join(str(s) for s in self.seen_by) or "-"
        return f"{WORD} {self.sign} by {self.seat} seen {seen}"


def parse_log_word(text: str) -> tuple[int, str, tuple[int, ...]] | None:
    """``(seat, sign, seen_by)`` of a :meth:`SenaMade.log_word`, else ``None``."""
    words = text.split()
    if (len(words) < 6 or words[0] not in (WORD, "sena") or words[2] != "by"
            or words[4] != "seen" or not words[3].isdigit()):
        return None
    seen = words[5:]
    if seen == ["-"]:
        return int(words[3]), words[1], ()
    if not all(w.isdigit() for w in seen):
        return None
    return int(words[3]), words[1], tuple(int(w) for w in seen)


__all__ = ["BY_ID", "DEFAULT_CATCH", "IDS", "MODES", "OFF", "PALETTE", "WORD", "Sena",
           "SenaMade", "SenasConfig", "parse_log_word", "true_signs"]
