"""The game server: accounts, lobby, tables, the WebSocket protocol, clocks and bots in seats."""

from .app import create_app

__all__ = ["create_app"]
