"""House rules of Mus: one frozen, validated :class:`MusRules` object.

One preset (the contract ../specs/mus.md): ``duples``, the rules of seed 004 (the German
Mus association "Duples").  Options: ``target`` (30 points win a set), ``sets`` (3 sets win
the match), ``reyes`` (8: the 3s are kings and the 2s aces; 4: plain cards) and
``punto_bonus`` (1).  Every option and its seed sentence: docs/rules/mus.md.

>>> r = MusRules.preset("duples")
>>> r.target, r.sets, r.reyes, r.punto_bonus
(30, 3, 8, 1)
>>> MusRules.from_json({"preset": "duples", "reyes": 4}).to_json()
{'preset': 'duples', 'target': 30, 'sets': 3, 'reyes': 4, 'punto_bonus': 1}
>>> MusRules.from_json({"preset": "duples", "reyes": 6})
Traceback (most recent call last):
...
stammtisch.errors.RulesError: reyes=6: must be 8 or 4
>>> MusRules.from_json({"preset": "duples", "senas": True})
Traceback (most recent call last):
...
stammtisch.errors.RulesError: unknown option 'senas' (known: punto_bonus, reyes, sets, target)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stammtisch.errors import RulesError

OPTIONS: tuple[str, ...] = ("target", "sets", "reyes", "punto_bonus")
#: preset name -> its options
PRESET_OPTIONS: dict[str, dict[str, int]] = {
    "duples": {"target": 30, "sets": 3, "reyes": 8, "punto_bonus": 1},
}


@dataclass(frozen=True)
class MusRules:
    """All house rules of one Mus table (immutable; build with :meth:`preset`,
    :meth:`replace` or :meth:`from_json`, which validate)."""

    preset_name: str = "duples"
    #: points that win a set
    target: int = 30
    #: sets that win the match
    sets: int = 3
    #: 8 reyes (3 = king, 2 = ace) or 4 (plain cards)
    reyes: int = 8
    #: the Punto bonus
    punto_bonus: int = 1

    def __post_init__(self) -> None:
        self._validate()

    @classmethod
    def preset(cls, name: str = "duples", /, **options: Any) -> MusRules:
        """The preset ``name`` with ``options`` overriding it (validated)."""
        if name not in PRESET_OPTIONS:
            known = ", ".join(sorted(PRESET_OPTIONS))
            raise RulesError(f"unknown preset {name!r} (known: {known})")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RulesError(
                f"unknown option {unknown[0]!r} (known: {', '.join(sorted(OPTIONS))})")
        return cls(preset_name=name, **{**PRESET_OPTIONS[name], **options})

    def replace(self, **options: Any) -> MusRules:
        """A copy with ``options`` changed (validated)."""
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RulesError(
                f"unknown option {unknown[0]!r} (known: {', '.join(sorted(OPTIONS))})")
        return dataclasses.replace(self, **options)

    @classmethod
    def from_json(cls, data: Any) -> MusRules:
        """Rules from a record's ``rules``: a preset name or ``{"preset": ..., option: ...}``."""
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, Mapping):
            raise RulesError("rules: must be a preset name or an object")
        options = dict(data)
        name = options.pop("preset", "duples")
        if not isinstance(name, str):
            raise RulesError(f"preset={name!r}: must be a preset name")
        return cls.preset(name, **options)

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset_name, **{k: getattr(self, k) for k in OPTIONS}}

    def to_record(self) -> str | dict[str, Any]:
        """The shortest ``rules`` of a record: the preset name when nothing differs."""
        base = PRESET_OPTIONS[self.preset_name]
        changed = {k: getattr(self, k) for k in OPTIONS if getattr(self, k) != base[k]}
        return {"preset": self.preset_name, **changed} if changed else self.preset_name

    def _validate(self) -> None:
        def fail(option: str, why: str) -> None:
            raise RulesError(f"{option}={getattr(self, option)!r}: {why}")

        for option in OPTIONS:
            value = getattr(self, option)
            if isinstance(value, bool) or not isinstance(value, int):
                fail(option, "must be an integer")
        if self.preset_name not in PRESET_OPTIONS:
            fail("preset_name", f"unknown preset (known: {', '.join(sorted(PRESET_OPTIONS))})")
        if self.target < 1:
            fail("target", "must be at least 1")
        if self.sets < 1:
            fail("sets", "must be at least 1")
        if self.reyes not in (8, 4):
            fail("reyes", "must be 8 or 4")
        if self.punto_bonus < 0:
            fail("punto_bonus", "must be 0 or more")


#: preset name -> its rules
PRESETS: dict[str, MusRules] = {name: MusRules.preset(name) for name in PRESET_OPTIONS}

__all__ = ["OPTIONS", "PRESETS", "PRESET_OPTIONS", "MusRules"]
