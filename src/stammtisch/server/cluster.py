"""The entry points of ``stammtisch serve --workers N`` / ``--redis URL``: each worker
process's app (:func:`app_from_env`, uvicorn's factory) and the check that Redis
answers (:func:`check_redis`).  What several workers do is in
:mod:`stammtisch.server.workers`; this module sits above the app and imports it, nothing
below imports this module.
"""

from __future__ import annotations

from typing import Any

from stammtisch.server.app import create_app
from stammtisch.server.settings import Settings
from stammtisch.server.workers import check_redis

__all__ = ["app_from_env", "check_redis"]


def app_from_env() -> Any:
    """The app of one ``serve --workers N`` worker process (uvicorn's factory): the
    settings come from the ``STAMMTISCH_*`` variables the parent process set."""
    return create_app(Settings.from_env())
