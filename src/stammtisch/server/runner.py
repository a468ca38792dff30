"""How ``stammtisch serve`` runs the app under uvicorn: :func:`uvicorn_config`.

Proxy headers: uvicorn by default believes ``X-Forwarded-For``/``X-Forwarded-Proto``
from 127.0.0.1, so anyone on the machine (or a forged header through a local tunnel)
could pick the client address the login and registration limits count by.  Here they
are believed only when ``Settings.forwarded_allow_ips`` (``serve --forwarded-allow-ips``)
names the proxy; otherwise the socket's peer is the client.
"""

from __future__ import annotations

import os
from typing import Any

from stammtisch.server.settings import Settings

#: ``1`` switches permessage-deflate on (off by default)
DEFLATE_ENV = "STAMMTISCH_WS_DEFLATE"


def deflate_wanted() -> bool:
    """Whether websockets offer permessage-deflate: ``STAMMTISCH_WS_DEFLATE=1``."""
    return os.environ.get(DEFLATE_ENV, "0").strip().lower() in ("1", "true", "yes", "on")


def uvicorn_config(app: Any, settings: Settings, **overrides: Any) -> Any:
    """The ``uvicorn.Config`` for ``app``: host and port from ``settings``, websocket pings
    every 20 s, frames above ``ws_max_size`` refused (close 1009), proxy headers only from
    ``forwarded_allow_ips``."""
    import uvicorn

    trusted = ",".join(p.strip() for p in settings.forwarded_allow_ips.split(",") if p.strip())
    options: dict[str, Any] = {
        "host": settings.host, "port": settings.port, "log_level": "warning",
        "ws_ping_interval": 20, "ws_ping_timeout": 20, "ws_max_size": settings.ws_max_size,
        "proxy_headers": bool(trusted),
        # never None: uvicorn would then read $FORWARDED_ALLOW_IPS (default 127.0.0.1)
        "forwarded_allow_ips": trusted or "127.0.0.1",
        # permessage-deflate only with STAMMTISCH_WS_DEFLATE=1: it costs about 50 KB of
        # memory per socket (300 MB at 1,500 tables) and 0.1 ms of CPU per message for
        # ~25x fewer bytes (docs/performance.md, "Scale: one box")
        "ws_per_message_deflate": deflate_wanted(),
    }
    options.update(overrides)
    return uvicorn.Config(app, **options)
