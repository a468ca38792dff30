"""The option schema of a game's rules: one parser for the CLI, the REST API and the lobby.

Each game describes its house rules once, as :class:`OptionSpec` values (name, type,
default, allowed values or range, the seed sentence it comes from) collected in a
:class:`RulesSchema`.  Every way in goes through it:

- :meth:`RulesSchema.parse_text` — ``stammtisch play -o key=value`` (booleans
  ``true``/``false``/``ja``/``nein``/``1``/``0``, whole numbers, comma lists, JSON objects);
- :meth:`RulesSchema.parse_json` — a JSON object (the REST API, ``GamePlugin.make_rules``);
- :meth:`RulesSchema.to_json` — the schema itself for a client (the lobby form).

The schema checks each option's type and allowed values and names the option and the
bad value in a :class:`~stammtisch.errors.RulesError`; then the game's rules class builds
the rules and makes its own checks across options.  :func:`derive_options` reads name,
type, default and ``Literal`` choices from the rules dataclass's fields.

>>> spec = OptionSpec("doublings", "int", default=1, minimum=0, maximum=4)
>>> spec.check(3), spec.from_text("4")
(3, 4)
>>> spec.check(9)
Traceback (most recent call last):
...
stammtisch.errors.RulesError: doublings=9: must be a whole number from 0 to 4
>>> OptionSpec("games", "list", item=OptionSpec("games", "choice", allowed=("muck", "wenz"))
...            ).from_text("Muck, wenz")
['muck', 'wenz']
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from stammtisch.errors import RulesError

__all__ = [
    "Kind",
    "Messages",
    "OptionSpec",
    "RulesLike",
    "RulesSchema",
    "Source",
    "derive_options",
]

#: an option's type: ``choice`` is one of ``allowed``; ``list`` a list of ``item``;
#: ``mapping`` an object whose keys are ``allowed`` (any text if empty) and values ``item``
Kind = Literal["bool", "int", "str", "choice", "list", "mapping"]
#: where an option comes from: (seed tag, e.g. ``"001"``, or ``None``; the sentence)
Source = tuple[str | None, str]

TRUE_WORDS = frozenset({"true", "ja", "yes", "on", "1", "j", "y"})
FALSE_WORDS = frozenset({"false", "nein", "no", "off", "0", "n"})
_LIST_SEPARATORS = re.compile(r"[,\s]+")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _words(values: Iterable[object]) -> str:
    return ", ".join(str(v) for v in values)


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game's rules: what it is, what it may be, where it comes from."""

    name: str
    kind: Kind
    #: the rules class's default, in JSON form (each preset's own: ``RulesSchema``)
    default: Any = None
    #: ``choice``: the values; ``mapping``: the keys (empty: any text)
    allowed: tuple[Any, ...] = ()
    #: ``int``: the smallest and largest value allowed (``None``: no bound)
    minimum: int | None = None
    maximum: int | None = None
    #: ``list`` and ``mapping``: the type of one entry
    item: OptionSpec | None = None
    #: ``list``: the exact number of entries (``None``: any)
    length: int | None = None
    #: ``null`` is allowed (an entry of a Mucken score-table row)
    nullable: bool = False
    #: what a refused value must be, if not the generated text ("must be …")
    why: str = ""
    #: ``mapping``: the message for a refused entry (``{option}``, ``{key}``, ``{value}``,
    #: ``{why}``)
    entry_error: str = "{option}.{key}={value!r}: {why}"
    #: the sentence of the seed the option comes from ("" when it is a reading) and the
    #: seed's tag (``"001"``); both stand in docs/rules/<game>.md
    source: str = ""
    seed: str | None = None

    # -- what a value must be -------------------------------------------------------
    def requirement(self) -> str:
        """The text after ``option=value:`` when a value is refused."""
        if self.why:
            return self.why
        if self.kind == "bool":
            return "must be true or false"
        if self.kind == "int":
            if self.minimum is not None and self.maximum is not None:
                return f"must be a whole number from {self.minimum} to {self.maximum}"
            if self.minimum is not None:
                return f"must be a whole number >= {self.minimum}"
            if self.maximum is not None:
                return f"must be a whole number <= {self.maximum}"
            return "must be a whole number"
        if self.kind == "str":
            return "must be text"
        if self.kind == "choice":
            return f"must be one of {_words(self.allowed)}"
        if self.kind == "list":
            count = "" if self.length is None else f" of {self.length}"
            return f"must be a list{count}"
        return "must be an object"

    def _fail(self, value: Any, why: str | None = None) -> RulesError:
        return RulesError(f"{self.name}={value!r}: {why or self.requirement()}")

    # -- JSON -------------------------------------------------------------------------
    def check(self, value: Any) -> Any:
        """``value`` (JSON: ``bool``, ``int``, ``str``, list, object) checked against this
        option; returned with lists as tuples.  ``RulesError`` naming the option if not."""
        if value is None and self.nullable:
            return None
        if self.kind == "list":
            return self._check_list(value)
        if self.kind == "mapping":
            return self._check_mapping(value)
        if not self._fits(value):
            raise self._fail(value)
        return value

    def _fits(self, value: Any) -> bool:
        """Whether a single value (bool, int, str, one of a choice) is allowed."""
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "int":
            return _is_int(value) and (self.minimum is None or value >= self.minimum) \
                and (self.maximum is None or value <= self.maximum)
        if self.kind == "str":
            return isinstance(value, str)
        return any(type(value) is type(a) and value == a for a in self.allowed)

    def _check_list(self, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or (
                self.length is not None and len(value) != self.length):
            raise self._fail(value)
        if self.item is None:
            return tuple(value)
        out = []
        for entry in value:
            try:
                out.append(self.item.check(entry))
            except RulesError:
                raise self._fail(value, f"each entry {self.item.requirement()} (not "
                                        f"{entry!r})") from None
        return tuple(out)

    def _check_mapping(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise self._fail(value)
        out: dict[str, Any] = {}
        for key, entry in value.items():
            if not isinstance(key, str) or (self.allowed and key not in self.allowed):
                raise RulesError(f"{self.name}: unknown entry {key!r} (known: "
                                 f"{_words(self.allowed)})")
            if self.item is None:
                out[key] = entry
                continue
            try:
                out[key] = self.item.check(entry)
            except RulesError:
                raise RulesError(self.entry_error.format(
                    option=self.name, key=key, value=entry,
                    why=self.item.requirement())) from None
        return out

    # -- text ---------------------------------------------------------------------------
    def from_text(self, raw: str, messages: Messages | None = None) -> Any:
        """The JSON value of ``raw`` (what ``-o name=raw`` gives), not yet checked; a
        ``RulesError`` naming the option and the text when it cannot be read."""
        words = messages or Messages()
        text = raw.strip()
        if self.nullable and text.lower() in ("null", "none", "-"):
            return None
        if self.kind == "bool":
            low = text.lower()
            if low in TRUE_WORDS:
                return True
            if low in FALSE_WORDS:
                return False
            raise self._fail(raw, words.text_bool)
        if self.kind == "int" or (self.kind == "choice" and self.allowed
                                  and all(_is_int(a) for a in self.allowed)):
            try:
                return int(text)
            except ValueError:
                why = words.text_int if self.kind == "int" else None
                raise self._fail(raw, why) from None
        if self.kind in ("str", "choice"):
            if text.startswith('"'):
                try:
                    decoded = json.loads(text)
                except json.JSONDecodeError:
                    return text
                return decoded if isinstance(decoded, str) else text
            return text
        if self.kind == "list" and not text.startswith("["):
            item = self.item or OptionSpec(self.name, "str")
            return [item.from_text(part.lower() if item.kind == "choice" else part, words)
                    for part in _LIST_SEPARATORS.split(text) if part]
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise self._fail(raw, f"not JSON ({e.msg})") from None

    def to_text(self, value: Any) -> str:
        """The text form of a JSON value (``from_text`` of it gives ``value`` back)."""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "list" and self.item is not None and self.item.kind != "list" \
                and value:
            return ",".join(self.item.to_text(v) for v in value)
        if self.kind in ("list", "mapping") or value is None:
            return json.dumps(value, ensure_ascii=False)
        return str(value)

    # -- the schema for a client ------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        """This option's type and constraints as JSON (without defaults and source)."""
        out: dict[str, Any] = {"type": self.kind}
        if self.allowed:
            out["allowed"] = list(self.allowed)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.length is not None:
            out["length"] = self.length
        if self.nullable:
            out["nullable"] = True
        if self.item is not None:
            out["items"] = self.item.describe()
        return out


@dataclass(frozen=True)
class Messages:
    """A game's wording of the parser's own errors (kept from its terminal session)."""

    #: an option the rules do not have (``{key}``, ``{known}``: the option names)
    unknown: str = "unknown option {key!r} (known: {known})"
    #: whether ``{known}`` is sorted (else in the rules class's field order)
    sort_known: bool = True
    #: an ``-o`` item without ``=`` (``{item}``)
    not_a_pair: str = "{item!r}: expected KEY=VALUE"
    #: ``-o`` text that is not a true/false word, not a whole number
    text_bool: str = "must be true or false"
    text_int: str = "must be a whole number"
    #: options whose ``-o`` text is checked whole with the schema's words as it is read
    #: (the terminal did so); the others are refused in the rules class's own words
    checked_as_text: frozenset[str] = frozenset()


class RulesLike(Protocol):
    """What the schema needs of a game's rules object."""

    def to_json(self) -> Mapping[str, Any]: ...


R = TypeVar("R", bound=RulesLike)


@dataclass(frozen=True)
class RulesSchema(Generic[R]):
    """A game's rules options, its presets, and the one parser for every way in."""

    #: the registry name of the game
    game: str
    #: ``build(preset, **options)``: the rules class's constructor from a preset (it
    #: makes the checks across options and words an unknown preset)
    build: Callable[..., R]
    presets: Mapping[str, R]
    default_preset: str
    options: tuple[OptionSpec, ...]
    messages: Messages = field(default_factory=Messages)

    def __post_init__(self) -> None:
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.game}: an option is named twice")
        if self.default_preset not in self.presets:
            raise ValueError(f"{self.game}: default preset {self.default_preset!r} unknown")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.options)

    def option(self, name: str, *, also_known: Collection[str] = ()) -> OptionSpec:
        """The option ``name``; ``RulesError`` listing the known ones if there is none."""
        for spec in self.options:
            if spec.name == name:
                return spec
        known = [*self.names, *also_known]
        listed = sorted(known) if self.messages.sort_known else known
        raise RulesError(self.messages.unknown.format(key=name, known=_words(listed)))

    def _check_preset(self, preset: object) -> str:
        if isinstance(preset, str) and preset in self.presets:
            return preset
        self.build(preset)  # the game's own message for an unknown preset
        raise RulesError(f"unknown {self.game} preset {preset!r} "
                         f"(known: {_words(sorted(self.presets))})")

    # -- the parsers ------------------------------------------------------------------
    def parse_json(self, preset: str, options: Mapping[str, Any] | None = None, *,
                   rules_words: bool = True) -> R:
        """The rules of ``preset`` with ``options`` (JSON values by option name) changed:
        each option checked here, then built by the rules class, which checks them
        together.  ``RulesError`` naming the option and the bad value."""
        name = self._check_preset(preset)
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise RulesError(f"options={options!r}: must be an object of options")
        try:
            checked = {key: self.option(key).check(value) for key, value in options.items()}
        except RulesError:
            if not rules_words:
                raise
            # where the rules class refuses the same input itself, its own words stand (the
            # REST API's messages stay what they were); else the schema's
            try:
                self.build(name, **dict(options))
            except RulesError:
                raise
            except Exception:  # the rules class's slip: the schema's words
                pass
            raise
        try:
            return self.build(name, **checked)
        except RulesError:
            raise
        except (TypeError, ValueError, KeyError) as e:  # a rules class's own slip
            raise RulesError(f"{', '.join(checked) or 'rules'}: {e}") from None

    def make_rules(self, preset: str, /, **options: Any) -> R:
        """``GamePlugin.make_rules``: :meth:`parse_json` with keyword options."""
        return self.parse_json(preset, options)

    def split_text(self, items: Iterable[str]) -> dict[str, str]:
        """``key=value`` items -> raw text by option name (``-`` read as ``_``; the last
        of a repeated name wins); ``RulesError`` for an item without ``=``."""
        out: dict[str, str] = {}
        for item in items:
            key, sep, raw = item.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or not key:
                raise RulesError(self.messages.not_a_pair.format(item=item))
            out[key] = raw
        return out

    def parse_text(self, preset: str, items: Sequence[str] = (), *,
                   also_known: Collection[str] = ()) -> R:
        """The rules of ``preset`` changed by ``key=value`` items (``-o``): booleans
        ``true``/``false``/``ja``/``nein``/``1``/``0``, whole numbers, lists as
        ``a,b,c``, objects as JSON.  ``also_known``: names the caller takes itself (a
        table's options), listed with the known ones when a name is unknown."""
        name = self._check_preset(preset)
        values: dict[str, Any] = {}
        for key, raw in self.split_text(items).items():
            spec = self.option(key, also_known=also_known)
            values[key] = spec.from_text(raw, self.messages)
            if key in self.messages.checked_as_text:
                spec.check(values[key])
        return self.parse_json(name, values)

    # -- the schema for a client ------------------------------------------------------
    def defaults(self, preset: str) -> dict[str, Any]:
        """Every option's value in ``preset`` (JSON)."""
        rules = self.presets[preset].to_json()
        return {o.name: rules[o.name] for o in self.options}

    def to_json(self) -> dict[str, Any]:
        """The schema: the presets and per option its type, constraints, value in each
        preset and source."""
        per_preset = {p: self.defaults(p) for p in self.presets}
        return {
            "game": self.game,
            "presets": list(self.presets),
            "default_preset": self.default_preset,
            "options": [
                {"name": o.name, **o.describe(),
                 "default": {p: per_preset[p][o.name] for p in self.presets},
                 "source": {"seed": o.seed, "sentence": o.source} if o.source else None}
                for o in self.options],
        }


# -- the options of a rules dataclass --------------------------------------------------
def _from_type(name: str, hint: Any) -> OptionSpec | None:
    if hint is bool:
        return OptionSpec(name, "bool")
    if hint is int:
        return OptionSpec(name, "int")
    if hint is str:
        return OptionSpec(name, "str")
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        return OptionSpec(name, "choice", allowed=args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _from_type(name, args[0])
        if item is not None and item.kind in ("str", "int", "choice"):
            return OptionSpec(name, "list", item=item)
    return None


def _json_default(value: Any, kind: Kind) -> Any:
    if kind == "mapping" and isinstance(value, tuple):
        return {k: _json_default(v, "list") for k, v in value}
    if isinstance(value, tuple):
        return [_json_default(v, "list") for v in value]
    return value


def derive_options(rules_class: type, sources: Mapping[str, Source], *,
                   skip: Collection[str] = (),
                   refine: Mapping[str, Mapping[str, Any]] | None = None,
                   ) -> tuple[OptionSpec, ...]:
    """One :class:`OptionSpec` per init field of the dataclass ``rules_class`` (but
    ``skip``), in field order: the type and ``Literal`` choices from its annotation,
    the default from the field, the source from ``sources``; ``refine`` sets what the
    annotation cannot say (a range, the entries of a list or object …).  A field with no
    source or no type the schema can read is a ``TypeError`` (at import)."""
    refine = refine or {}
    hints = typing.get_type_hints(rules_class)
    out: list[OptionSpec] = []
    for f in dataclasses.fields(rules_class):
        if not f.init or f.name in skip:
            continue
        if f.name not in sources:
            raise TypeError(f"{rules_class.__name__}.{f.name}: no source")
        changes = dict(refine.get(f.name, {}))
        spec = _from_type(f.name, hints[f.name])
        if spec is None:
            if "kind" not in changes:
                raise TypeError(f"{rules_class.__name__}.{f.name}: type "
                                f"{hints[f.name]} needs a kind")
            spec = OptionSpec(f.name, changes["kind"])
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else None)
        seed, sentence = sources[f.name]
        spec = dataclasses.replace(spec, **changes, source=sentence, seed=seed)
        out.append(dataclasses.replace(spec, default=_json_default(default, spec.kind)))
    return tuple(out)
