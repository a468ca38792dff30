"""The web server: FastAPI app factory, accounts, lobby, tables over websockets, the browser UI."""

from stammtisch.server.app import create_app
from stammtisch.server.settings import Settings

__all__ = ["Settings", "create_app"]
