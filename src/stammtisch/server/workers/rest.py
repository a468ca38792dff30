"""REST calls about one table across workers: a call (``/api/tables/<id>`` and its
``join``, ``leave``, ``bots``) that lands on a worker other than the table's owner is
replayed inside the owner's own app (ASGI) and its answer published back
(``worker.ClusterRouter``, the middleware, decides; :class:`RestRelay` carries)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from stammtisch.server.workers.common import HTTP_TIMEOUT, Bus

TABLE_PATH = re.compile(r"^/api/tables/([A-Za-z0-9]{1,16})(?:/(?:join|leave|bots))?/?$")


class RestRelay:
    """Both sides of the relayed REST calls of one worker."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        #: the app the owner replays calls in (set when the app starts)
        self.app: Any = None
        #: relaying side: request id -> future of the owner's answer
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def relay_http(self, scope: Any, receive: Any, send: Any, owner: str) -> None:
        """Replay a REST call at the owner and answer with its response."""
        body = b""
        while True:
            event = await receive()
            body += event.get("body", b"")
            if not event.get("more_body"):
                break
        rid = self.bus.new_id()
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[rid] = fut
        client = scope.get("client")
        await self.bus.publish(owner, "j " + json.dumps({
            "k": "http", "rid": rid, "from": self.bus.id, "method": scope["method"],
            "path": scope["path"], "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": [[k.decode("latin-1"), v.decode("latin-1")]
                        for k, v in scope.get("headers", [])],
            "client": list(client) if client else None, "scheme": scope.get("scheme", "http"),
            "body": body.decode("latin-1")}))
        try:
            answer = await asyncio.wait_for(fut, HTTP_TIMEOUT)
            status = int(answer["status"])
            headers = [(k.encode("latin-1"), v.encode("latin-1"))
                       for k, v in answer["headers"]]
            out = str(answer["body"]).encode("latin-1")
        except TimeoutError:
            status = 503
            out = json.dumps({"code": "owner_unreachable", "message":
                              "the worker serving this table does not answer; try again "
                              "in a few seconds"}).encode()
            headers = [(b"content-type", b"application/json"),
                       (b"content-length", str(len(out)).encode())]
        finally:
            self.pending.pop(rid, None)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": out})

    def answered(self, msg: dict[str, Any]) -> None:
        """``resp``: the owner's answer to a call relayed from here."""
        fut = self.pending.pop(msg["rid"], None)
        if fut is not None and not fut.done():
            fut.set_result(msg)

    async def serve_http(self, msg: dict[str, Any]) -> None:
        """``http``: a call relayed to this worker, replayed in its app."""
        body = str(msg["body"]).encode("latin-1")
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        answer: dict[str, Any] = {"k": "resp", "rid": msg["rid"], "status": 500,
                                  "headers": [], "body": ""}
        chunks: list[bytes] = []

        async def send(event: dict[str, Any]) -> None:
            if event["type"] == "http.response.start":
                answer["status"] = event["status"]
                answer["headers"] = [[k.decode("latin-1"), v.decode("latin-1")]
                                     for k, v in event.get("headers", [])]
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))

        path = str(msg["path"])
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": msg["method"], "scheme": msg.get("scheme") or "http",
                 "path": path, "raw_path": path.encode(), "root_path": "",
                 "query_string": str(msg["query"]).encode("latin-1"),
                 "headers": [(k.encode("latin-1"), v.encode("latin-1"))
                             for k, v in msg["headers"]],
                 "client": tuple(msg["client"]) if msg.get("client") else None,
                 "server": None, "stammtisch.relayed": True}
        try:
            await self.app(scope, receive, send)
        except Exception:
            answer["status"] = 500
        answer["body"] = b"".join(chunks).decode("latin-1")
        await self.bus.publish(str(msg["from"]), "j " + json.dumps(answer))

