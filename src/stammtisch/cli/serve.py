"""``stammtisch serve``: the web server (FastAPI + uvicorn).

Everything that can be wrong with the settings is checked before the server starts, and
each problem ends the command with one line on stderr (exit 2): the port (1..65535; 0,
"any free port", is refused because the banner and the links must name the port), the
host (it must resolve to an address of this machine), the port must be free, the database
URL must name a known database (``sqlite:///…`` or ``postgresql://…``), and the database
must accept a connection and the migrations.  The banner ``stammtisch: http://HOST:PORT/``
is printed only once the server listens.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import socket
from typing import Any

import typer

#: exit code for settings that cannot work (like click's usage errors)
BAD_SETTINGS = 2


class ServeError(Exception):
    """A setting that cannot work; the message is the one line shown."""


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def check_port(port: int) -> None:
    if port == 0:
        raise ServeError("port 0 (any free port) is not accepted: the server must know its "
                         "port to print its address; give one of 1..65535, e.g. --port 8000")
    if not 1 <= port <= 65535:
        raise ServeError(f"port {port}: must be 1..65535, e.g. --port 8000")


def check_listen(host: str, port: int) -> None:
    """The host resolves to addresses of this machine and the port is free on all of them."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise ServeError(f"host {host!r}: not a known address ({_one_line(e)}); use e.g. "
                         "--host 127.0.0.1 (this machine) or --host 0.0.0.0 (the network)"
                         ) from None
    for family, kind, proto, _, addr in {(i[0], i[1], i[2], i[3], i[4]) for i in infos}:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            if family == socket.AF_INET6:
                with contextlib.suppress(OSError):
                    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                s.bind(addr)
            except OSError as e:
                reason = e.strerror or str(e)
                if e.errno == 98 or "in use" in reason.lower():
                    raise ServeError(f"port {port} on {host} is already in use (another "
                                     "server?); stop it or choose another --port") from None
                raise ServeError(f"cannot listen on {host}:{port}: {reason}; use --host "
                                 "127.0.0.1, 0.0.0.0 or an address of this machine") from None


def display_url(url: str) -> str:
    """The URL with any password hidden (for messages and the banner)."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


def check_database(url: str, migrate: bool) -> None:
    """The URL names a known database that accepts a connection (and the migrations)."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from stammtisch.persistence.db import Database

    shown = display_url(url)
    hint = "e.g. --db sqlite:///path/to/file.sqlite3 or --db postgresql://user@host/dbname"
    try:
        db = Database(url)
    except NoSuchModuleError:  # (a kind of ArgumentError)
        kind = url.partition(":")[0]
        raise ServeError(f"database URL {shown!r}: unknown database kind {kind!r} "
                         f"(stammtisch works with sqlite and postgresql); {hint}") from None
    except ArgumentError:
        raise ServeError(f"database URL {shown!r} is not a database URL; {hint}") from None
    except ImportError as e:
        raise ServeError(f"database URL {shown!r}: its driver is not installed ({e.name or e}); "
                         f"stammtisch works with sqlite and postgresql; {hint}") from None
    except OSError as e:
        raise ServeError(f"database URL {shown!r}: {_one_line(e)}") from None
    try:
        try:
            with db.engine.connect():
                pass
        except SQLAlchemyError as e:
            cause = _one_line(getattr(e, "orig", None) or e)
            raise ServeError(f"cannot connect to the database {shown}: {cause} — check that "
                             "the database server runs and the database exists (createdb "
                             "NAME), or fix --db") from None
        if migrate:
            try:
                db.migrate()
            except Exception as e:
                cause = _one_line(getattr(e, "orig", None) or e)
                raise ServeError(f"cannot migrate the database {shown}: {cause} — is it a "
                                 "stammtisch database the user may change?") from None
    finally:
        db.dispose()


def serve_command(
    host: str | None = typer.Option(None, "--host", help="Address to listen on "
                                    "[default: 127.0.0.1, or STAMMTISCH_HOST]."),
    port: int | None = typer.Option(None, "--port", help="Port to listen on, 1..65535 "
                                    "[default: 8000, or STAMMTISCH_PORT]."),
    db: str | None = typer.Option(None, "--db", help="Database URL (default: an SQLite file "
                                  "in the user's data directory, or STAMMTISCH_DATABASE_URL; "
                                  "postgresql://... works the same)."),
    bot_delay: float | None = typer.Option(None, "--bot-delay", help="Seconds a bot waits "
                                           "before acting [default: 0.8]."),
    seed: int | None = typer.Option(None, "--seed", help="Seed the shuffle (testing only)."),
    forwarded_allow_ips: str | None = typer.Option(
        None, "--forwarded-allow-ips", help="Believe X-Forwarded-For/-Proto from these proxy "
        "addresses (comma-separated, '*' for any) [default: none, or "
        "STAMMTISCH_FORWARDED_ALLOW_IPS]; only behind a reverse proxy."),
    workers: int = typer.Option(1, "--workers", help="Worker processes sharing the port "
                                "[default: 1]; more than one needs --redis and a "
                                "postgresql:// --db (docs/deployment.md)."),
    redis_url: str | None = typer.Option(None, "--redis", help="Redis URL the workers (of "
                                         "this and other machines) share, e.g. "
                                         "redis://127.0.0.1:6379/0 [default: none, or "
                                         "STAMMTISCH_REDIS_URL]."),
) -> None:
    """Run the web server: lobby, tables, bots, tournaments and the browser UI.

    Command-line options win over STAMMTISCH_* environment variables, which win over
    the defaults (see docs/server.md).  Bad settings (port, host, a port in use, the
    database) end with one line saying what is wrong, exit code 2.
    """
    import uvicorn

    from stammtisch.persistence.db import default_database_url
    from stammtisch.server import Settings, create_app

    try:
        try:
            settings = Settings.from_env(database_url=db, host=host, port=port,
                                         bot_delay=bot_delay, seed=seed,
                                         forwarded_allow_ips=forwarded_allow_ips,
                                         redis_url=redis_url)
        except (TypeError, ValueError) as e:
            raise ServeError(f"a STAMMTISCH_* environment variable is wrong: "
                             f"{_one_line(e)}") from None
        check_port(settings.port)
        check_listen(settings.host, settings.port)
        url = settings.database_url or default_database_url()
        check_cluster(workers, settings.redis_url, url)
        check_database(url, settings.migrate)
    except ServeError as e:
        typer.echo(f"stammtisch serve: {e}", err=True)
        raise typer.Exit(BAD_SETTINGS) from None
    from stammtisch.server import gcpolicy

    # the server's garbage-collector policy (server/gcpolicy.py), inherited by --workers
    os.environ.setdefault(gcpolicy.ENV, f"{gcpolicy.SERVE_DEFAULT:g}")
    # migrated just now: the app need not do it again
    settings = dataclasses.replace(settings, database_url=url, migrate=False)
    banner = (f"stammtisch: http://{settings.host}:{settings.port}/  "
              f"(database: {display_url(url)})")

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:  # listening: now the address is true
                typer.echo(banner, err=True)

    from stammtisch.server.runner import uvicorn_config

    if workers > 1:
        run_workers(settings, workers, banner)
        return
    Server(uvicorn_config(create_app(settings), settings)).run()


def check_cluster(workers: int, redis_url: str, db_url: str) -> None:
    """``--workers``/``--redis``: more than one worker needs Redis and PostgreSQL, and
    Redis must answer."""
    if workers < 1:
        raise ServeError(f"--workers {workers}: give 1 or more")
    if workers > 1 and not redis_url:
        raise ServeError(f"--workers {workers} needs --redis redis://HOST:PORT/DB (the "
                         "workers share their tables through Redis)")
    if (workers > 1 or redis_url) and not db_url.startswith("postgresql"):
        raise ServeError(f"--workers {workers} with --redis needs a PostgreSQL database "
                         "(--db postgresql://user@host/dbname): SQLite cannot be shared "
                         "by several processes or machines")
    if redis_url:
        from stammtisch.server.cluster import check_redis

        try:
            check_redis(redis_url)
        except ValueError as e:
            raise ServeError(_one_line(e)) from None


def run_workers(settings: Any, workers: int, banner: str) -> None:
    """``--workers N``: uvicorn's own supervisor — one listening socket bound here and
    shared by N worker processes (the kernel spreads the connections), workers that die
    are started again, SIGHUP restarts them one by one, SIGTTIN/SIGTTOU add or remove
    one.  Each worker builds its app from the ``STAMMTISCH_*`` variables set here
    (``stammtisch.server.cluster:app_from_env``)."""
    import inspect

    import uvicorn
    from uvicorn.supervisors.multiprocess import Multiprocess

    from stammtisch.server.runner import uvicorn_config

    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if f.name != "extra" and value is not None:
            os.environ[f"STAMMTISCH_{f.name.upper()}"] = str(value)
    config = uvicorn_config("stammtisch.server.cluster:app_from_env", settings,
                            factory=True, workers=workers)
    sock = config.bind_socket()
    typer.echo(f"{banner}  [{workers} workers, redis: {display_url(settings.redis_url)}]",
               err=True)
    if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn < 0.36
        Multiprocess(config, target=uvicorn.Server(config).run,  # type: ignore[call-arg]
                     sockets=[sock]).run()
    else:
        Multiprocess(config, sockets=[sock]).run()
