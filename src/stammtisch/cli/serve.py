"""``stammtisch serve``: the web server (FastAPI + uvicorn)."""

from __future__ import annotations

import typer


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    db: str = typer.Option("", "--db", help="Database URL (default: an SQLite file in the "
                           "user's data directory; postgresql://... works the same)."),
    bot_delay: float = typer.Option(0.8, "--bot-delay", help="Seconds a bot waits before acting."),
    seed: int | None = typer.Option(None, "--seed", help="Seed the shuffle (testing only)."),
) -> None:
    """Run the web server: lobby, tables, bots and the browser UI."""
    import uvicorn

    from stammtisch.persistence.db import default_database_url
    from stammtisch.server import Settings, create_app

    settings = Settings.from_env(database_url=db or None, host=host, port=port,
                                 bot_delay=bot_delay, seed=seed)
    url = settings.database_url or default_database_url()
    typer.echo(f"stammtisch: http://{host}:{port}/  (database: {url})", err=True)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning",
                ws_ping_interval=20, ws_ping_timeout=20)
