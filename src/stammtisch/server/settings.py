"""Typed server settings.  Environment variables ``STAMMTISCH_<FIELD>`` override defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields


@dataclass
class Settings:
    #: SQLAlchemy URL; empty: the embedded SQLite file in the user's data directory
    database_url: str = ""
    host: str = "127.0.0.1"
    port: int = 8000
    #: run Alembic migrations at start
    migrate: bool = True
    #: seconds a bot waits before acting (so people can follow); 0 in tests/benchmarks
    bot_delay: float = 0.8
    #: seconds before a finished game is followed by the next when no human is seated
    auto_next_delay: float = 3.0
    #: default turn timer in seconds (0: none); tables may set their own
    turn_timer: int = 60
    #: seconds a seated player may be away (disconnected) before the seat is released
    #: and their session at the table ends (0: never); tables may set their own
    away_timeout: int = 300
    #: a table of bots only (a demonstration: created with no seat for its creator and
    #: every seat a bot) plays this many games, and a user may run this many at a time
    demo_games: int = 10
    demo_tables: int = 2
    #: seed for shuffling (None: cryptographic randomness) — for tests only
    seed: int | None = None
    #: login attempts per name+address per minute
    login_rate_per_minute: int = 10
    #: registrations per client address per minute, and for all addresses together
    register_rate_per_minute: int = 10
    register_rate_global_per_minute: int = 100
    #: threads that hash and verify passwords (argon2, off the event loop), and how many
    #: hash jobs may wait for them before requests get 503 ``busy``
    password_threads: int = 2
    password_queue: int = 64
    #: the longest websocket message the app reads (characters) and the deepest nesting
    #: of arrays/objects in it; uvicorn drops frames above ``ws_max_size`` bytes itself
    ws_max_message: int = 16384
    ws_max_depth: int = 32
    ws_max_size: int = 1048576
    #: trust X-Forwarded-For/-Proto only from these proxy addresses (comma-separated,
    #: ``*`` for any); empty: proxy headers are ignored (see docs/server.md, Hardening)
    forwarded_allow_ips: str = ""
    #: several workers: the Redis URL they share (leases, relay, lobby); empty: one
    #: process serves every table (docs/server.md, Several workers)
    redis_url: str = ""
    #: seconds a worker's lease on a table lasts unless renewed (renewed every third)
    lease_ttl: float = 3.0
    #: table actions per connection: burst size and refill per second
    action_burst: int = 30
    action_rate: float = 10.0
    chat_max_length: int = 300
    #: set the Secure flag on cookies (behind HTTPS)
    secure_cookies: bool = False
    session_days: int = 30
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        values: dict[str, object] = {}
        for f in fields(cls):
            env = os.environ.get(f"STAMMTISCH_{f.name.upper()}")
            if env is None or f.name == "extra":
                continue
            if f.type in ("int", "int | None"):
                values[f.name] = int(env)
            elif f.type == "float":
                values[f.name] = float(env)
            elif f.type == "bool":
                values[f.name] = env.lower() in ("1", "true", "yes", "on")
            else:
                values[f.name] = env
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
