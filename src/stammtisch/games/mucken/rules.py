"""House rules of Mucken: one frozen, validated :class:`MuckenRules` object.

Presets: ``seefest`` (default; the Tauperlitzer Seefest-Mucker, seed 001) and
``wikipedia`` (the common practice the Wikipedia article describes, seed 000).
Every option is documented with its source sentence in docs/rules/mucken.md.

>>> MuckenRules.preset("seefest").bid_names()
('muck', 'wenz', 'schneidermuck', 'schneiderwenz', 'schwarzmuck', 'schwarzwenz')
>>> MuckenRules.preset("seefest").value("schneiderwenz", "schwarz")
6
>>> MuckenRules.preset("seefest", bobbl_target=31).bobbl_target
31
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from stammtisch.cards import GERMAN_SUITS, Card, Suit
from stammtisch.errors import InvalidCardError, RulesError

GameKind = Literal["muck", "wenz", "geier", "farbsolo"]
Level = Literal["plain", "schneider", "schwarz"]
NoGame = Literal["pflichtmuck", "einwerfen", "muss", "ramsch"]

GAME_KINDS: tuple[str, ...] = ("muck", "wenz", "geier", "farbsolo")
LEVELS: tuple[Level, ...] = ("plain", "schneider", "schwarz")
LEVEL_PREFIX = {"plain": "", "schneider": "schneider", "schwarz": "schwarz"}
#: the suits a Farbsolo can be played in (a Herz solo is the Muck)
SOLO_SUITS: tuple[Suit, ...] = (Suit.EICHEL, Suit.GRAS, Suit.SCHELLEN)
SOLO_NAME = {Suit.EICHEL: "eichelsolo", Suit.GRAS: "grassolo", Suit.SCHELLEN: "schellensolo"}
DOUBLING_WORDS: tuple[str, ...] = ("kontra", "re", "sup", "hirsch")


@dataclass(frozen=True, slots=True)
class Bid:
    """A game that can be called: kind, level and (for a Farbsolo) the trump suit."""

    kind: str
    level: Level
    suit: Suit | None = None

    @property
    def name(self) -> str:
        base = SOLO_NAME[self.suit] if self.kind == "farbsolo" and self.suit else self.kind
        return LEVEL_PREFIX[self.level] + base

    @property
    def level_index(self) -> int:
        return LEVELS.index(self.level)

    def __str__(self) -> str:
        return self.name


def _check_card(text: str, option: str) -> None:
    try:
        c = Card.parse(text)
    except InvalidCardError as e:
        raise RulesError(f"{option}={text!r}: {e}") from None
    if c.suit not in GERMAN_SUITS:
        raise RulesError(f"{option}={text!r}: not a card of the German deck")


@dataclass(frozen=True)
class MuckenRules:
    """All house rules of one Mucken table.  Immutable; build variants with
    :meth:`preset` or :meth:`replace`, which validate."""

    name: str = "custom"
    #: "short" (24 cards, A 10 K O U 9) or "long" (32 cards, with 8 and 7)
    deck: Literal["short", "long"] = "short"
    #: the games allowed, lowest first: ("muck", "wenz") is "Wenz über Muck"
    games: tuple[str, ...] = ("muck", "wenz")
    #: the levels that can be announced; schneider and schwarz raise a game
    levels: tuple[Level, ...] = LEVELS
    #: score table overrides: bid name -> (gewonnen, schneider, schwarz); None where impossible
    values: tuple[tuple[str, tuple[int | None, int | None, int | None]], ...] = ()
    #: an overcall by one's own partner also starts a new bidding round (seed 000)
    partner_overcall_new_round: bool = False
    #: how many doublings: 0 none, 1 Kontra, 2 +Re, 3 +Sup, 4 +Hirsch
    doublings: int = 1
    #: the Kontra pair "übernimmt": wins with 61 against a plain game, 60:60 goes to the declarers
    kontra_uebernimmt: bool = True
    #: what happens when all four say "weiter"
    no_game: NoGame = "pflichtmuck"
    pflichtmuck_value: int = 1
    #: Pflichtmuck 60:60: "unscored" (seed 001) or "card_holder_loses" (the pair with tie_card)
    pflichtmuck_tie: Literal["unscored", "card_holder_loses"] = "unscored"
    tie_card: str = "EO"
    #: after Einwerfen: "none", "next" (next game double), "count" (as many games double as
    #: times thrown in), "multiply" (next game x2 per time thrown in)
    einwerfen_double: Literal["none", "next", "count", "multiply"] = "next"
    #: Muss-Spiel: the holder of this card must call a game
    muss_card: str = "EO"
    #: Muss-Spiel counting: the declarers win with 60, a pair is schneiderfrei with 30
    muss_60_wins: bool = True
    ramsch_value: int = 1
    ramsch_double: bool = False
    #: Stichzwang in the Ramsch: who cannot follow must trump if able
    ramsch_stichzwang: bool = False
    #: Durchmarsch: in a Ramsch one player taking every trick wins it for the pair
    durchmarsch: bool = False
    #: the last man may call a Ramsch when the three before him said "weiter"
    ramsch_last_man: bool = False
    #: Sie (all four Ober and the two highest Unter) ends the game at once; needs Muck on top
    sie: bool = False
    sie_value: int = 20
    #: Abheben: fewest cards lifted, fewest left, how many times at least and at most
    cut_min: int = 3
    cut_min_left: int = 3
    cut_min_times: int = 1
    cut_max_times: int = 2
    #: Klopfen instead of cutting: all cards dealt at once
    klopfen: bool = False
    #: Auskarten also forms the pairs (seed 000's procedure)
    auskarten_pairs: bool = False
    #: Bobbl: points a pair must reach by winning a game (21, or 31)
    bobbl_target: int = 21
    #: Hänger: best of three Bobbl
    haenger: bool = False
    _bids: tuple[Bid, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.values, tuple):
            object.__setattr__(self, "values", tuple(sorted(self.values)))
        self._validate()
        object.__setattr__(self, "_bids", self._make_bids())

    # -- construction ---------------------------------------------------------
    @classmethod
    def preset(cls, preset_name: str = "seefest", /, **options: Any) -> MuckenRules:
        """A named preset, optionally with options changed."""
        try:
            base = PRESETS[preset_name]
        except KeyError:
            raise RulesError(
                f"unknown Mucken preset {preset_name!r} (known: {', '.join(sorted(PRESETS))})"
            ) from None
        return base.replace(**options) if options else base

    def replace(self, **options: Any) -> MuckenRules:
        known = {f.name for f in dataclasses.fields(self) if f.init}
        for key in options:
            if key not in known:
                raise RulesError(f"unknown Mucken rules option {key!r}")
        if "games" in options and isinstance(options["games"], list):
            options["games"] = tuple(options["games"])
        if "levels" in options and isinstance(options["levels"], list):
            options["levels"] = tuple(options["levels"])
        if "values" not in options and (
            options.get("games", self.games) != self.games
            or options.get("levels", self.levels) != self.levels
        ):
            # A score table is written for its games and levels; with others it no longer
            # fits (seed 000: the higher game scores more), so the generated table applies.
            options["values"] = ()
        if "values" in options and isinstance(options["values"], Mapping):
            try:
                options["values"] = tuple(
                    (str(k), tuple(v)) for k, v in sorted(options["values"].items())
                )
            except TypeError:
                raise RulesError(
                    "values: each game needs a list of three points (gewonnen, schneider, "
                    "schwarz), e.g. {\"muck\": [2, 3, 4]}") from None
        try:
            return dataclasses.replace(self, **options)
        except TypeError as e:
            raise RulesError(str(e)) from None

    @classmethod
    def from_json(cls, data: str | Mapping[str, Any]) -> MuckenRules:
        """From a preset name or ``{"preset": "seefest", <option>: <value>, ...}``."""
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be a preset name or an object, not {data!r}")
        options = dict(data)
        preset = options.pop("preset", "seefest")
        return cls.preset(str(preset), **options)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init:
                continue
            v = getattr(self, f.name)
            if f.name == "values":
                v = {k: list(t) for k, t in v}
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out

    # -- validation -----------------------------------------------------------
    def _validate(self) -> None:
        def fail(option: str, why: str) -> None:
            raise RulesError(f"{option}={getattr(self, option)!r}: {why}")

        for f in dataclasses.fields(self):
            if not f.init:
                continue
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                fail(f.name, "must be true or false")
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                fail(f.name, "must be a whole number")
            if f.type == "str" and not isinstance(value, str):
                fail(f.name, "must be text")
            if str(f.type).startswith("tuple") and not isinstance(value, tuple):
                fail(f.name, "must be a list")
        if self.deck not in ("short", "long"):
            fail("deck", "must be 'short' or 'long'")
        if not isinstance(self.games, tuple) or not self.games:
            fail("games", "must name at least one game, lowest first")
        for g in self.games:
            if g not in GAME_KINDS:
                fail("games", f"unknown game {g!r} (known: {', '.join(GAME_KINDS)})")
        if len(set(self.games)) != len(self.games):
            fail("games", "a game is named twice")
        if not self.levels or self.levels[0] != "plain":
            fail("levels", "must start with 'plain'")
        if any(lv not in LEVELS for lv in self.levels) or list(self.levels) != sorted(
            self.levels, key=LEVELS.index
        ):
            fail("levels", "must start with 'plain' and keep the order plain, schneider, schwarz")
        if not 0 <= self.doublings <= 4:
            fail("doublings", "must be 0 (none) .. 4 (Kontra, Re, Sup, Hirsch)")
        if self.no_game not in ("pflichtmuck", "einwerfen", "muss", "ramsch"):
            fail("no_game", "must be pflichtmuck, einwerfen, muss or ramsch")
        if self.pflichtmuck_tie not in ("unscored", "card_holder_loses"):
            fail("pflichtmuck_tie", "must be 'unscored' or 'card_holder_loses'")
        if self.einwerfen_double not in ("none", "next", "count", "multiply"):
            fail("einwerfen_double", "must be none, next, count or multiply")
        _check_card(self.tie_card, "tie_card")
        _check_card(self.muss_card, "muss_card")
        for option in ("pflichtmuck_value", "ramsch_value", "sie_value"):
            if not isinstance(getattr(self, option), int) or getattr(self, option) < 1:
                fail(option, "must be a whole number of at least 1")
        if self.sie and self.games[-1] != "muck":
            fail("sie", "a Sie needs Muck as the highest game (seed 000: with Wenz über Muck "
                 "there is no Sie)")
        size = 24 if self.deck == "short" else 32
        if self.cut_min < 1 or self.cut_min_left < 1 or self.cut_min + self.cut_min_left > size:
            fail("cut_min", f"cut_min and cut_min_left must be >= 1 and fit a {size}-card deck")
        if not 0 <= self.cut_min_times <= self.cut_max_times or self.cut_max_times > 5:
            fail("cut_max_times", "need 0 <= cut_min_times <= cut_max_times <= 5")
        if self.bobbl_target < 1:
            fail("bobbl_target", "must be at least 1")
        names = {b.name for b in self._make_bids()}
        for key, triple in self.values:
            if key not in names:
                raise RulesError(f"values: {key!r} is not a game of these rules")
            if len(triple) != 3 or any(v is not None and (not isinstance(v, int) or v < 1)
                                       for v in triple):
                raise RulesError(f"values: {key!r} needs three whole numbers (or null)")

    def _make_bids(self) -> tuple[Bid, ...]:
        bids: list[Bid] = []
        for level in self.levels:
            for kind in self.games:
                if kind == "farbsolo":
                    bids.extend(Bid(kind, level, s) for s in SOLO_SUITS)
                else:
                    bids.append(Bid(kind, level))
        return tuple(bids)

    # -- derived facts ---------------------------------------------------------
    @property
    def bids(self) -> tuple[Bid, ...]:
        """Every game that can be called, lowest first (Farbsoli of one level tie)."""
        return self._bids

    def bid_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self._bids)

    def bid_rank(self, bid: Bid) -> tuple[int, int]:
        """Order of bids: level first, then the game's place in ``games``."""
        return (bid.level_index, self.games.index(bid.kind))

    def bid_by_name(self, name: str) -> Bid | None:
        for b in self._bids:
            if b.name == name:
                return b
        return None

    @property
    def deck_size(self) -> int:
        return 24 if self.deck == "short" else 32

    @property
    def hand_size(self) -> int:
        return self.deck_size // 4

    @property
    def max_tricks(self) -> int:
        return self.hand_size

    def value(self, bid_name: str, column: Level) -> int | None:
        """Points for ``bid_name`` in the score-table column (gewonnen/schneider/schwarz)."""
        col = LEVELS.index(column)
        for key, triple in self.values:
            if key == bid_name:
                return triple[col]
        bid = self.bid_by_name(bid_name)
        if bid is None:
            raise RulesError(f"{bid_name!r} is not a game of these rules")
        if col < bid.level_index:
            return None
        # The generated table reproduces seed 001's and seed 000's tables: plain games score
        # 2, 3, ... by their order, +1 per column; schneider games continue after the plain
        # ones; schwarz games score 8, 10, ... (more with many games, so that a higher
        # call always scores more: seed 000, "Ist ein Wenz höherwertig als ein Muck, dann
        # gibt es entsprechend dafür mehr Punkte").
        n = len(self.games)
        k = self.games.index(bid.kind)
        if bid.level == "plain":
            return 2 + k + col
        if bid.level == "schneider":
            return 2 + n + k + (col - 1)
        return max(8, 2 * n + 4) + 2 * k


PRESETS: dict[str, MuckenRules] = {
    "seefest": MuckenRules(
        name="seefest",
        deck="short",
        games=("muck", "wenz"),
        values=(
            ("muck", (2, 3, 4)),
            ("wenz", (3, 4, 5)),
            ("schneidermuck", (None, 4, 5)),
            ("schneiderwenz", (None, 5, 6)),
            ("schwarzmuck", (None, None, 8)),
            ("schwarzwenz", (None, None, 10)),
        ),
        partner_overcall_new_round=False,
        doublings=1,
        kontra_uebernimmt=True,
        no_game="pflichtmuck",
        pflichtmuck_tie="unscored",
        cut_min=3,
        cut_min_left=3,
        cut_min_times=1,
        cut_max_times=2,
        klopfen=False,
        bobbl_target=21,
    ),
    "wikipedia": MuckenRules(
        name="wikipedia",
        deck="short",
        games=("wenz", "muck"),
        values=(
            ("wenz", (2, 3, 4)),
            ("muck", (3, 4, 5)),
            ("schneiderwenz", (None, 4, 5)),
            ("schneidermuck", (None, 5, 6)),
            ("schwarzwenz", (None, None, 8)),
            ("schwarzmuck", (None, None, 10)),
        ),
        partner_overcall_new_round=True,
        doublings=1,
        kontra_uebernimmt=True,
        no_game="einwerfen",
        einwerfen_double="next",
        sie=True,
        cut_min=3,
        cut_min_left=3,
        cut_min_times=1,
        cut_max_times=1,
        klopfen=True,
        bobbl_target=21,
    ),
}
