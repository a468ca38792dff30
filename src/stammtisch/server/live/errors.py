"""The two ways a live table refuses what a client sends."""

from __future__ import annotations


class TableMoved(Exception):
    """The table is not served by this process any more (several workers: another worker
    has taken it over, server/workers/): a socket is closed with 1012 and reconnects,
    a REST call answers ``503 table_moved`` (try again)."""


class ActionRejected(Exception):
    """A client message that is refused; ``code`` goes back to the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
