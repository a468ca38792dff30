"""Refusals of the tournament API say which refusal they are (issue 9): besides ``code``
and the English ``message`` (for API clients) they carry ``reason`` and ``params``, so a
page words them in its reader's language (``error.<code>.<reason>`` in the UI's texts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stammtisch.server import Settings, create_app
from stammtisch.server.auth import SESSION_COOKIE


@pytest.fixture
def anna(tmp_path: Path) -> Iterator[Any]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                              bot_delay=0, auto_next_delay=0, seed=7))
    with TestClient(app) as client:
        r = client.post("/api/guest", json={"name": "Anna"})
        headers = {"x-csrf-token": r.json()["csrf"],
                   "cookie": f"{SESSION_COOKIE}={r.cookies.get(SESSION_COOKIE)}"}
        client.cookies.clear()

        def call(method: str, path: str, body: Any = None) -> Any:
            return client.request(method, path, json=body, headers=headers)
        yield call


def refusal(r: Any, status: int, code: str, reason: str, /, **params: object) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert (body["code"], body.get("reason"), body.get("params", {})) == (code, reason, params)
    assert body["message"]  # the English text stays, for API clients


def test_refusals_carry_reason_and_params(anna: Any) -> None:
    refusal(anna("POST", "/api/tournaments", {"settings": {"rounds": 0}}), 422,
            "invalid_tournament", "setting_range", setting="rounds", min=1, max=50)
    tid = anna("POST", "/api/tournaments", {"settings": {"rounds": 2}}).json()["id"]
    base = f"/api/tournaments/{tid}"
    refusal(anna("GET", "/api/tournaments/nope"), 404, "not_found", "no_tournament")
    assert anna("POST", f"{base}/entrants", {"names": ["A", "B"]}).status_code == 200
    refusal(anna("POST", f"{base}/start"), 422, "invalid_tournament", "too_few_pairs",
            needed=2, have=1)
    refusal(anna("POST", f"{base}/entrants", {"names": ["Solo"]}), 422,
            "invalid_tournament", "bad_pair_names")
    refusal(anna("POST", f"{base}/check-in", {"code": "QR9"}), 422, "invalid_tournament",
            "unknown_code", checkin="QR9")
    refusal(anna("POST", f"{base}/entrants/77/paid", {"paid": True}), 404, "not_found",
            "no_entrant", entrant="77")
    refusal(anna("POST", f"{base}/rounds/3/time-up", {}), 404, "not_found", "no_round",
            round=3)
    refusal(anna("GET", f"{base}/pdf/poster"), 404, "not_found", "no_printout")
