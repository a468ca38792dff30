"""The new-table form (``POST /api/tables``): its fields, and those of them whose
meaning depends on the game.

Besides the game's own rule options (``options``) and match options
(``match_options``), the form has fields from before the registry: a rule option given
at the top level (``bobbl_target``), the match's length in one of two units
(``bobbl_limit``, ``rounds``) and true/false match options (``kreuzbock``).  Which of
them a game takes is the game's (its plug-in's table hooks: ``limit_field``,
``match_flags``); the routes only pass them on.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from stammtisch.games import registry
from stammtisch.games.base.table import TableHooks

#: top-level fields that are rule options of the same name (any game: a game without
#: that option refuses it like any other unknown option)
RULE_FIELDS = ("bobbl_target",)
#: the fields that can give the match's length (the game's ``limit_field`` picks one)
LIMIT_FIELDS = ("bobbl_limit", "rounds")
#: true/false fields that are match options of the games that name them (``match_flags``)
MATCH_FLAGS = ("kreuzbock",)


class TableIn(BaseModel):
    name: str = Field(default="Stammtisch", max_length=80)
    public: bool = True
    #: the game (a registry name); its default preset unless ``preset`` names one
    game: str = registry.DEFAULT_GAME
    preset: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    bobbl_target: int | None = None
    bobbl_limit: int | None = Field(default=2, ge=1, le=50)
    #: the match's length in rounds of four hands (``None``/absent: open end)
    rounds: int | None = Field(default=None, ge=1, le=50)
    #: Kreuzbock rounds after a Ramsch (a match rule, not one of the hand's)
    kreuzbock: bool = False
    turn_timer: int | None = Field(default=None, ge=0, le=3600)
    bots: list[int] | str = Field(default_factory=list)
    bot: str | None = None
    seat: int | None = Field(default=0, ge=0, le=5)
    #: the number of seats, within the game's ``seats`` range (default 4); checked here
    #: (typed ``400 invalid_players``), hence ``Any``
    players: Any = None
    #: game-specific options of the match (passed to the game's ``new_match``; a
    #: ``RulesError`` there is ``400 invalid_match_options``)
    match_options: Any = None
    allow_hints: bool = False
    #: the away rule as true/false: a bot plays for a player who is away (``true``: the
    #: rule ``bot``) or the table waits (``false``: ``wait``); default by ``public``
    bot_takeover: bool | None = None
    #: the away rule by name, ``"wait"`` or ``"bot"`` (checked here: typed
    #: ``422 invalid_away_rule``, hence ``Any``); the same choice as ``bot_takeover``
    away_rule: Any = None
    #: seconds away before the seat is released (0: never; default: the server's setting)
    away_timeout: int | None = Field(default=None, ge=0, le=86400)


#: the away rules by name (the table stores ``bot_takeover``: ``bot`` is ``true``)
AWAY_RULES = ("wait", "bot")


class AwayRuleError(ValueError):
    """``away_rule`` is not one of :data:`AWAY_RULES`, or disagrees with
    ``bot_takeover``."""


def away_rule_of(body: TableIn) -> str:
    """The table's away rule: ``away_rule``, else ``bot_takeover`` (``true``: ``bot``),
    else ``bot`` for a public table and ``wait`` for a private one (among friends)."""
    rule = body.away_rule
    if rule is not None and rule not in AWAY_RULES:
        raise AwayRuleError(f"away_rule={str(rule)[:20]!r}: must be 'wait' or 'bot'")
    if body.bot_takeover is not None:
        named = "bot" if body.bot_takeover else "wait"
        if rule is not None and rule != named:
            raise AwayRuleError(f"away_rule={rule!r} contradicts "
                                f"bot_takeover={str(body.bot_takeover).lower()}")
        return named
    if rule is not None:
        return str(rule)
    return "bot" if body.public else "wait"


def rule_options(body: TableIn) -> dict[str, Any]:
    """The rule options: ``options`` and the top-level rule fields that are given."""
    options = dict(body.options)
    for key in RULE_FIELDS:
        value = getattr(body, key)
        if value is not None:
            options[key] = value
    return options


def match_limit(body: TableIn, hooks: TableHooks) -> int | None:
    """The match's length in the game's own unit (its ``limit_field``)."""
    if hooks.limit_field not in LIMIT_FIELDS:
        raise ValueError(f"limit_field {hooks.limit_field!r}: not one of {LIMIT_FIELDS}")
    value: int | None = getattr(body, hooks.limit_field)
    return value


def set_flags(body: TableIn) -> list[str]:
    """The true/false match options that are set (the game must name each)."""
    return [flag for flag in MATCH_FLAGS if getattr(body, flag)]
