"""Request guard: what no route can use is refused before routing (docs/server.md,
Hardening).

:class:`RequestGuard` is a pure ASGI middleware for HTTP and websocket requests whose
path or query string holds characters no id or parameter of this server has (control
and other unprintable characters — PostgreSQL, for one, cannot even compare a text with a
NUL byte) or is absurdly long.  HTTP gets ``404 not_found`` as JSON (``422
invalid_request`` for an overlong or non-UTF-8 query string); a websocket is closed with
1008 before it is accepted.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

MAX_PATH = 2048
MAX_SEGMENT = 256
MAX_QUERY = 4096


def _printable(text: str) -> bool:
    return text.isprintable()


def problem(scope: dict[str, Any]) -> tuple[int, str, str] | None:
    """``(status, code, message)`` for a request to refuse, or None."""
    path: str = scope.get("path", "")
    if (len(path) > MAX_PATH or not _printable(path)
            or any(len(seg) > MAX_SEGMENT for seg in path.split("/"))):
        return 404, "not_found", "no such page or resource"
    raw: bytes = scope.get("query_string", b"")
    if len(raw) > MAX_QUERY:
        return 422, "invalid_request", "query string too long"
    try:
        pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True, errors="strict",
                          encoding="utf-8")
    except (UnicodeDecodeError, ValueError):
        return 422, "invalid_request", "query string is not UTF-8"
    for key, value in pairs:
        if not (_printable(key) and _printable(value)):
            # like a path: an address with such characters names nothing (a share token
            # with a NUL byte is an unknown token, 404, as the games routes answer)
            return 404, "not_found", f"query parameter {key[:40]!r}: unprintable characters"
    return None


class RequestGuard:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            found = problem(scope)
            if found is not None:
                status, code, message = found
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008, "reason": code})
                    return
                body = json.dumps({"code": code, "message": message}).encode()
                await send({"type": "http.response.start", "status": status,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
