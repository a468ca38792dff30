"""``stammtisch serve``: the web server (FastAPI + uvicorn)."""

from __future__ import annotations

import typer


def serve_command(
    host: str | None = typer.Option(None, "--host", help="Address to listen on "
                                    "[default: 127.0.0.1, or STAMMTISCH_HOST]."),
    port: int | None = typer.Option(None, "--port", help="Port to listen on "
                                    "[default: 8000, or STAMMTISCH_PORT]."),
    db: str | None = typer.Option(None, "--db", help="Database URL (default: an SQLite file "
                                  "in the user's data directory, or STAMMTISCH_DATABASE_URL; "
                                  "postgresql://... works the same)."),
    bot_delay: float | None = typer.Option(None, "--bot-delay", help="Seconds a bot waits "
                                           "before acting [default: 0.8]."),
    seed: int | None = typer.Option(None, "--seed", help="Seed the shuffle (testing only)."),
) -> None:
    """Run the web server: lobby, tables, bots, tournaments and the browser UI.

    Command-line options win over STAMMTISCH_* environment variables, which win over
    the defaults (see docs/server.md).
    """
    import uvicorn

    from stammtisch.persistence.db import default_database_url
    from stammtisch.server import Settings, create_app

    settings = Settings.from_env(database_url=db, host=host, port=port,
                                 bot_delay=bot_delay, seed=seed)
    url = settings.database_url or default_database_url()
    typer.echo(f"stammtisch: http://{settings.host}:{settings.port}/  (database: {url})",
               err=True)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                log_level="warning", ws_ping_interval=20, ws_ping_timeout=20)
