"""The project's typed errors.  All are ``ValueError`` subclasses.

Two families, as in python-chess: text that is malformed (:class:`ParseError`)
versus input that is well formed but not allowed here and now
(:class:`IllegalActionError`, :class:`RulesError`, :class:`RecordError`).
Every message names the offending input and where it was.
"""

from __future__ import annotations


class StammtischError(ValueError):
    """Base class of every error raised on bad input."""

    code = "invalid"


class ParseError(StammtischError):
    """Text that is not well formed."""

    code = "parse_error"


class InvalidCardError(ParseError):
    """Text that is not a card."""

    code = "invalid_card"


class InvalidActionError(ParseError):
    """Text that is not an action of the game."""

    code = "invalid_action"


class IllegalActionError(StammtischError):
    """A well-formed action that is not allowed in the current state.

    ``code`` tells the reason class: ``illegal_action``, ``not_your_turn``,
    ``game_over``.
    """

    code = "illegal_action"

    def __init__(self, message: str, code: str = "illegal_action") -> None:
        super().__init__(message)
        self.code = code


class RulesError(StammtischError):
    """A rules object (house rules) that is not valid."""

    code = "invalid_rules"


class RecordError(StammtischError):
    """A game record that cannot be replayed; the message names the first bad entry."""

    code = "invalid_record"


class RecordActionError(RecordError):
    """A record whose action ``index`` (0-based) cannot be applied, or that stops
    before the game is over (``index`` is then the number of actions)."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index
