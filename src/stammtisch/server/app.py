"""``create_app(settings)``: the FastAPI application.  Nothing is created at import time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from stammtisch.persistence.db import Database, default_database_url
from stammtisch.persistence.store import Store
from stammtisch.persistence.tournament_store import TournamentStore
from stammtisch.server import api, games, gcpolicy, online_tournament, tournament_api, ws
from stammtisch.server.auth import PasswordWorkers, RateLimiter
from stammtisch.server.hardening import RequestGuard
from stammtisch.server.settings import Settings
from stammtisch.server.tables import TableManager, TableMoved
from stammtisch.server.workers import Cluster, ClusterRouter
from stammtisch.tournament.service import TournamentService

STATIC = Path(str(resources.files("stammtisch.server") / "static"))
_STATUS_CODES = {404: "not_found", 405: "method_not_allowed"}


def _cluster(settings: Settings, db: Database) -> Cluster | None:
    """With ``redis_url``: this worker's part of a cluster (docs/server.md, Several
    workers; ``server/workers/``); else ``None`` (one process serves every table)."""
    return Cluster(settings, db) if settings.redis_url else None


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.database_url or default_database_url())
        if settings.migrate:
            db.migrate()
        cluster = _cluster(settings, db)  # several workers (server/workers/), else None
        store = Store(db) if cluster is None else cluster.store
        manager = TableManager(store, settings) if cluster is None else cluster.manager
        manager.load()
        app.state.db = db
        # made per start (a stopped app's pool is shut down)
        app.state.passwords = PasswordWorkers(settings.password_threads,
                                              settings.password_queue)
        app.state.store = store
        app.state.tables = manager
        app.state.cluster = cluster
        if cluster is not None:
            cluster.app = app
        app.state.tournament_service = TournamentService(TournamentStore(db), seed=settings.seed)
        app.state.online = online_tournament.OnlineRounds(manager, app.state.tournament_service)
        await (manager.start() if cluster is None else cluster.start())
        app.state.online.resume()
        gc_task = gcpolicy.start()  # STAMMTISCH_GC_FREEZE (server/gcpolicy.py), else None
        try:
            yield
        finally:
            if gc_task is not None:
                gc_task.cancel()
            manager.close()
            if cluster is not None:
                await cluster.stop()
            app.state.passwords.close()
            db.dispose()

    app = FastAPI(title="stammtisch", lifespan=lifespan, docs_url="/api/docs",
                  openapi_url="/api/openapi.json")
    app.state.settings = settings
    app.state.login_limiter = RateLimiter(settings.login_rate_per_minute, 60.0)
    app.state.register_limiter = RateLimiter(settings.register_rate_per_minute, 60.0)
    app.state.register_global_limiter = RateLimiter(settings.register_rate_global_per_minute,
                                                    60.0)

    # Starlette's own (unknown path 404, wrong method 405) too, not only FastAPI's
    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, dict) else {
            "code": _STATUS_CODES.get(exc.status_code, "error"), "message": str(exc.detail)}
        return JSONResponse(detail, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def unexpected_error(_: Request, exc: Exception) -> JSONResponse:
        """Any exception no route turned into an answer: a JSON 500 with a code (the
        traceback goes to the server's log, not to the client)."""
        return JSONResponse({"code": "internal_error",
                             "message": f"internal error ({type(exc).__name__})"},
                            status_code=500)

    @app.exception_handler(TableMoved)
    async def table_moved(_: Request, exc: TableMoved) -> JSONResponse:
        """Several workers: the table moved to another worker during the call (which
        changed nothing): try again, the next call reaches the new owner."""
        return JSONResponse({"code": "table_moved", "message":
                             "the table moved to another server just now; try again"},
                            status_code=503, headers={"retry-after": "1"})

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse({"code": "invalid_request",
                             "message": f"{where}: {first.get('msg', 'invalid')}",
                             "errors": [{"loc": e.get("loc"), "msg": e.get("msg")}
                                        for e in exc.errors()]}, status_code=422)

    app.add_middleware(ClusterRouter)  # REST calls about a table go to its owner
    app.add_middleware(RequestGuard)
    app.include_router(api.router)
    app.include_router(games.router)  # also the /replay/{id} page (checks who may see it)
    app.include_router(online_tournament.router)
    app.include_router(tournament_api.router)
    app.include_router(ws.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    @app.get("/history", include_in_schema=False)
    async def page(table_id: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/turniere", include_in_schema=False)
    @app.get("/turnier/{tournament_id}", include_in_schema=False)
    @app.get("/turnier/{tournament_id}/beamer", include_in_schema=False)
    @app.get("/turnier/{tournament_id}/tisch/{table_no}", include_in_schema=False)
    async def tournament_page(tournament_id: str | None = None,
                              table_no: str | None = None) -> FileResponse:
        """The tournament pages (list, desk, projector, a table's phone page)."""
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    return app
