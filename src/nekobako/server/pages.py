"""The browser client's files: `index.html` at `/` and `/replay/{id}` (the client routes itself),
everything else under `/static/`. The client lives in `nekobako/web/` with no build step."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


async def index(_request: Request) -> Response:
    page = WEB_DIR / "index.html"
    if not page.is_file():
        return PlainTextResponse("the web client is not installed (nekobako/web/index.html is missing)", 503)
    return FileResponse(page, media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-cache"})


routes: list[BaseRoute] = [
    Route("/", index, methods=["GET"], include_in_schema=False),
    Route("/replay/{table_id:int}", index, methods=["GET"], include_in_schema=False),
    Route("/table/{table_id:int}", index, methods=["GET"], include_in_schema=False),
    Mount("/static", app=StaticFiles(directory=WEB_DIR, check_dir=False), name="static"),
]
