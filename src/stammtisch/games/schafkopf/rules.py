"""House rules of Schafkopf: one frozen, validated :class:`SchafkopfRules` object.

Presets (the contract ../specs/schafkopf.md): ``standard`` (the common Bavarian rules)
and ``anleitung`` (the reading of seed 002, "Spielanleitung Schafkopf").  Every option
and the sentence of the seed it comes from: docs/rules/schafkopf.md.

>>> r = SchafkopfRules.preset("standard")
>>> r.first_lead, r.all_pass, r.games, r.stoss_words
('vorhand', 'redeal', ('sauspiel', 'wenz', 'solo', 'tout', 'sie'), ('kontra', 're'))
>>> SchafkopfRules.from_json({"preset": "anleitung", "tariff": {"solo": 60}}).tariff_of("solo")
60
>>> SchafkopfRules.from_json({"preset": "standard", "legen": "yes"})
Traceback (most recent call last):
...
stammtisch.errors.RulesError: legen='yes': must be true or false
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stammtisch.errors import RulesError

#: every game a table can allow, in the contract's order
GAME_OPTIONS: tuple[str, ...] = (
    "sauspiel", "hochzeit", "bettel", "geier", "wenz", "farbwenz", "solo", "tout", "sie",
)
FIRST_LEAD: tuple[str, ...] = ("vorhand", "declarer")
ALL_PASS: tuple[str, ...] = ("redeal", "ramsch", "muss")
TARIFF_KEYS: tuple[str, ...] = (
    "rufspiel", "solo", "bettel", "schneider", "schwarz", "laufend", "ramsch",
)
DEFAULT_TARIFF: tuple[tuple[str, int], ...] = (
    ("rufspiel", 10), ("solo", 50), ("bettel", 50), ("schneider", 10), ("schwarz", 10),
    ("laufend", 10), ("ramsch", 10),
)
#: words a Stoß word may not be (they mean something else in some phase)
RESERVED_WORDS = frozenset({"weiter", "gut", "lege", "annehmen", "sie", "hochzeit", "bettel",
                            "geier", "wenz"})
_WORD = re.compile(r"[a-z][a-z-]*\Z")


@dataclass(frozen=True)
class SchafkopfRules:
    """All house rules of one Schafkopf table.  Immutable; build variants with
    :meth:`preset`, :meth:`replace` or :meth:`from_json`, which validate."""

    #: the preset these rules start from ("standard" or "anleitung"); records name it
    preset_name: str = "standard"
    #: who leads the first trick: "vorhand" or "declarer" (a Ramsch: always Vorhand)
    first_lead: str = "vorhand"
    #: when nobody names a game: "redeal", "ramsch" or "muss"
    all_pass: str = "redeal"
    #: the games that may be named (a subset of GAME_OPTIONS; "tout" enables the Tout forms)
    games: tuple[str, ...] = ("sauspiel", "wenz", "solo", "tout", "sie")
    #: Legen: after the first four cards each seat may double with "lege"
    legen: bool = False
    #: the Stoß words in order: the first is said by the non-declaring side
    stoss_words: tuple[str, ...] = ("kontra", "re")
    #: the tariff, in TARIFF_KEYS order
    tariff: tuple[tuple[str, int], ...] = DEFAULT_TARIFF
    #: the holder of the called ace may "davonlaufen" with 4 cards of its suit
    davonlaufen: bool = True
    #: Ramsch: every seat without a trick doubles the value (Jungfrau)
    ramsch_jungfrau: bool = False
    #: Ramsch: a seat taking all 8 tricks wins (Durchmarsch)
    ramsch_durchmarsch: bool = True

    def __post_init__(self) -> None:
        self._validate()

    # -- construction ---------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "standard", /, **options: Any) -> SchafkopfRules:
        """A named preset, optionally with options changed (validated)."""
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesError(
                f"preset={name!r}: unknown Schafkopf preset (known: {', '.join(PRESETS)})")
        base = PRESETS[name]
        return base.replace(**options) if options else base

    def replace(self, **options: Any) -> SchafkopfRules:
        """A copy with ``options`` changed: JSON-style values (lists, a partial tariff
        object) are accepted and checked."""
        known = [f.name for f in dataclasses.fields(self) if f.name != "preset_name"]
        changes: dict[str, Any] = {}
        for key, value in options.items():
            if key not in known:
                raise RulesError(f"unknown Schafkopf rules option {key!r} "
                                 f"(known: preset, {', '.join(known)})")
            if key in ("games", "stoss_words"):
                if not isinstance(value, list | tuple):
                    raise RulesError(f"{key}={value!r}: must be a list of words")
                value = tuple(value)
                if key == "games":
                    value = _games(value)
            elif key == "tariff":
                value = _merge_tariff(self.tariff, value)
            changes[key] = value
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_json(cls, data: Any) -> SchafkopfRules:
        """From a preset name or ``{"preset": "standard", <option>: <value>, ...}``."""
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be a preset name or an object, not {data!r}")
        options = dict(data)
        if "preset" not in options:
            raise RulesError("a rules object must name its preset "
                             f"(\"preset\": one of {', '.join(PRESETS)})")
        name = options.pop("preset")
        return cls.preset(name, **options)

    def to_json(self) -> dict[str, Any]:
        """The full rules object (``from_json`` of it gives these rules back)."""
        return {
            "preset": self.preset_name,
            "first_lead": self.first_lead,
            "all_pass": self.all_pass,
            "games": list(self.games),
            "legen": self.legen,
            "stoss_words": list(self.stoss_words),
            "tariff": dict(self.tariff),
            "davonlaufen": self.davonlaufen,
            "ramsch_jungfrau": self.ramsch_jungfrau,
            "ramsch_durchmarsch": self.ramsch_durchmarsch,
        }

    def to_record(self) -> str | dict[str, Any]:
        """What a record writes: the preset name if the rules are exactly the preset."""
        if PRESETS.get(self.preset_name) == self:
            return self.preset_name
        return self.to_json()

    # -- derived facts --------------------------------------------------------
    @property
    def name(self) -> str:
        """The preset's name, or ``custom`` when options differ from it (what the CLI's
        figures name, as Mucken's rules do)."""
        return self.preset_name if PRESETS.get(self.preset_name) == self else "custom"

    def tariff_of(self, key: str) -> int:
        for k, v in self.tariff:
            if k == key:
                return v
        raise RulesError(f"tariff: no entry {key!r}")

    def allows(self, game: str) -> bool:
        return game in self.games

    # -- validation -----------------------------------------------------------
    def _validate(self) -> None:
        def fail(option: str, why: str) -> None:
            raise RulesError(f"{option}={getattr(self, option)!r}: {why}")

        if self.preset_name not in ("standard", "anleitung"):
            fail("preset_name", "unknown preset (known: standard, anleitung)")
        for option in ("legen", "davonlaufen", "ramsch_jungfrau", "ramsch_durchmarsch"):
            if not isinstance(getattr(self, option), bool):
                fail(option, "must be true or false")
        if not isinstance(self.first_lead, str) or self.first_lead not in FIRST_LEAD:
            fail("first_lead", "must be 'vorhand' or 'declarer'")
        if not isinstance(self.all_pass, str) or self.all_pass not in ALL_PASS:
            fail("all_pass", "must be 'redeal', 'ramsch' or 'muss'")
        if not isinstance(self.games, tuple):
            fail("games", "must be a list of words")
        _games(self.games)
        if tuple(sorted(self.games, key=GAME_OPTIONS.index)) != self.games:
            fail("games", "must be in the order " + " ".join(GAME_OPTIONS))
        if not isinstance(self.stoss_words, tuple):
            fail("stoss_words", "must be a list of words")
        for w in self.stoss_words:
            if not isinstance(w, str) or not _WORD.match(w):
                fail("stoss_words", f"{w!r} is not a lower-case word")
            if w in RESERVED_WORDS or w.startswith(("sauspiel", "solo", "farbwenz")):
                fail("stoss_words", f"{w!r} already means something else")
        if len(set(self.stoss_words)) != len(self.stoss_words):
            fail("stoss_words", "a word is named twice")
        if (not isinstance(self.tariff, tuple)
                or tuple(k for k, _ in self.tariff) != TARIFF_KEYS):
            fail("tariff", "must have exactly the entries " + ", ".join(TARIFF_KEYS))
        for k, v in self.tariff:
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise RulesError(f"tariff.{k}={v!r}: must be a whole number >= 0")


def _games(value: tuple[Any, ...]) -> tuple[str, ...]:
    """Check a ``games`` list and put it in the canonical order."""
    seen: list[str] = []
    for g in value:
        if not isinstance(g, str) or g not in GAME_OPTIONS:
            raise RulesError(f"games: {g!r} is not a game (known: {' '.join(GAME_OPTIONS)})")
        if g in seen:
            raise RulesError(f"games: {g!r} is named twice")
        seen.append(g)
    return tuple(sorted(seen, key=GAME_OPTIONS.index))


def _merge_tariff(base: tuple[tuple[str, int], ...], value: Any) -> tuple[tuple[str, int], ...]:
    """A partial tariff object merged into ``base``."""
    if not isinstance(value, Mapping):
        raise RulesError(f"tariff={value!r}: must be an object of whole numbers")
    merged = dict(base)
    for k, v in value.items():
        if k not in TARIFF_KEYS:
            raise RulesError(f"tariff: unknown entry {k!r} (known: {', '.join(TARIFF_KEYS)})")
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise RulesError(f"tariff.{k}={v!r}: must be a whole number >= 0")
        merged[k] = v
    return tuple((k, merged[k]) for k in TARIFF_KEYS)


PRESETS: dict[str, SchafkopfRules] = {
    "standard": SchafkopfRules(
        preset_name="standard",
        first_lead="vorhand",
        all_pass="redeal",
        games=("sauspiel", "wenz", "solo", "tout", "sie"),
        legen=False,
        stoss_words=("kontra", "re"),
        davonlaufen=True,
        ramsch_jungfrau=False,
        ramsch_durchmarsch=True,
    ),
    "anleitung": SchafkopfRules(
        preset_name="anleitung",
        first_lead="declarer",
        all_pass="ramsch",
        games=GAME_OPTIONS,
        legen=True,
        stoss_words=("kontra", "sup", "re-sup", "hirsch", "bock"),
        davonlaufen=True,
        ramsch_jungfrau=False,
        ramsch_durchmarsch=True,
    ),
}

__all__ = ["GAME_OPTIONS", "PRESETS", "TARIFF_KEYS", "SchafkopfRules"]
