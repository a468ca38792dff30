"""House rules of Mulatschak: one frozen, validated :class:`MulatschakRules` object.

The preset ``salzburg`` is the contract ../specs/mulatschak.md (seed 003, the Salzburg
rules).  Every option with the seed sentence it comes from: docs/rules/mulatschak.md.

>>> r = MulatschakRules.preset("salzburg")
>>> r.klopfen, r.stichzwang, r.muli_broken, r.all_pass, r.weiss_nicht
(True, True, 'all', 'redeal', False)
>>> MulatschakRules.from_json({"preset": "salzburg", "muli_broken": "breaker"}).muli_broken
'breaker'
>>> MulatschakRules.from_json({"preset": "salzburg", "klopfen": "yes"})
Traceback (most recent call last):
...
stammtisch.errors.RulesError: klopfen='yes': must be true or false
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stammtisch.errors import RulesError

MULI_BROKEN: tuple[str, ...] = ("all", "breaker")
ALL_PASS: tuple[str, ...] = ("redeal",)
_BOOLS = ("klopfen", "stichzwang", "weiss_nicht")
_CHOICES = {"muli_broken": MULI_BROKEN, "all_pass": ALL_PASS}


@dataclass(frozen=True)
class MulatschakRules:
    """All house rules of one Mulatschak table (validated on construction)."""

    preset_name: str = "salzburg"
    #: the cutter may knock instead of cutting (the hand counts double)
    klopfen: bool = True
    #: a card that beats the trick so far must be played if one is allowed
    stichzwang: bool = True
    #: a broken Muli: "all" other seats -10m, or only the "breaker"
    muli_broken: str = "all"
    #: everybody says weiter: "redeal" (the hand ends, no score changes)
    all_pass: str = "redeal"
    #: "Weiß ich noch nicht": the bidder may take a Brücke instead of naming the trump
    weiss_nicht: bool = False

    def __post_init__(self) -> None:
        if self.preset_name not in PRESETS:
            raise RulesError(f"preset {self.preset_name!r}: unknown (known: "
                             f"{', '.join(sorted(PRESETS))})")
        for name in _BOOLS:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise RulesError(f"{name}={value!r}: must be true or false")
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in choices:
                raise RulesError(f"{name}={value!r}: must be one of {', '.join(choices)}")

    @classmethod
    def preset(cls, name: str = "salzburg", /, **options: Any) -> MulatschakRules:
        """A named preset, optionally with options changed (validated)."""
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesError(f"preset {name!r}: unknown (known: {', '.join(sorted(PRESETS))})")
        fields = {f.name for f in dataclasses.fields(cls)} - {"preset_name"}
        for key in options:
            if key not in fields:
                raise RulesError(f"unknown option {key!r} (known: {', '.join(sorted(fields))})")
        return cls(preset_name=name, **{**PRESETS[name], **options})

    @classmethod
    def from_json(cls, value: Any) -> MulatschakRules:
        """Rules from a preset name or ``{"preset": name, option: value, ...}``."""
        if isinstance(value, str):
            return cls.preset(value)
        if not isinstance(value, Mapping):
            raise RulesError(f"rules: {value!r} is neither a preset name nor an object")
        options = dict(value)
        name = options.pop("preset", "salzburg")
        return cls.preset(name, **options)

    def to_json(self) -> dict[str, Any]:
        """The rules as ``{"preset": name, option: value, ...}`` (every option)."""
        out: dict[str, Any] = {"preset": self.preset_name}
        for f in dataclasses.fields(self):
            if f.name != "preset_name":
                out[f.name] = getattr(self, f.name)
        return out

    def replace(self, **options: Any) -> MulatschakRules:
        """These rules with some options changed (validated)."""
        return MulatschakRules.from_json({**self.to_json(), **options})


PRESETS: dict[str, dict[str, Any]] = {
    "salzburg": {"klopfen": True, "stichzwang": True, "muli_broken": "all",
                 "all_pass": "redeal", "weiss_nicht": False},
}

__all__ = ["ALL_PASS", "MULI_BROKEN", "PRESETS", "MulatschakRules"]
