"""The browser client's files: `index.html` at `/`, `/replay/{id}`, `/table/{id}` and
`/player/{name}` (the client routes itself), everything else under `/static/` (assets.py:
compressed, versioned, cached; the module graph preloaded). The client lives in `nekobako/web/`
with no build step.
`/rules/{game}?lang=ja` is a game's rules as a page of its own (rendered once from the package's
Markdown), opened by the Rules buttons at `#the-current-phase`."""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..i18n import LANGS, text
from ..rules import RulesNotFound
from ..rules.html import render_page
from . import requests as _requests  # noqa: F401  (registers the `{name:id}` path convertor)
from .assets import IMMUTABLE, REVALIDATE, Assets, gzip_page
from .catalogue import catalogue_json
from .errors import ApiError, request_lang
from .lobby import installed_games
from .messages import clock_json, delta_state_text
from .requests import current_user

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("nekobako.server")


ASSETS = Assets(WEB_DIR)


async def index(request: Request) -> Response:
    if not (WEB_DIR / "index.html").is_file():
        log.error("the browser client is not installed: %s is missing", WEB_DIR / "index.html")
        return PlainTextResponse(text("error.no_web_client", request_lang(request)), 503)
    page = request.url.path.strip("/").split("/")[0] or "lobby"  # the page app.js will show
    hub = request.app.state.hub
    table_id = request.path_params.get("table_id")
    live = hub.tables.live.get(table_id)
    if page == "table":
        with contextlib.suppress(ApiError):  # no such table: the page says so itself
            live = await hub.get_fresh(table_id)
    user = await current_user(request)
    data = boot(request, user)
    if page in GAME_LIST_PAGES:  # the lobby draws its games at once, the replay names its options
        data["games"] = installed_games()
    if page == "table" and live is not None:
        _, message = delta_state_text(live, live.seat_of(user["id"] if user else None), None, data["lang"])
        data["state"] = {**message, "clock": clock_json(live)}
    # a table names its game: only that game's module is preloaded
    game = live.row.game if live is not None else request.path_params.get("game")  # a tutorial names its game
    return gzip_page(request, ASSETS.index(page, game, data))


# The pages that need `/api/games` as soon as they draw get it inside the page (a link preload would
# do for them, but `/` is also a table opened at `/#/table/ID`, which the server cannot tell from
# the lobby: there a preload goes unused and Chromium warns about it).
GAME_LIST_PAGES = ("lobby", "replay", "tutorial")


def boot(request: Request, user: dict[str, Any] | None) -> dict[str, Any]:
    """What every page needs before it draws, inside the page rather than asked for after it
    (web/boot.js): the words of the reader's language (the one the switch chose, kept in a cookie
    as i18n.js keeps it in localStorage; else Accept-Language, as the browser's own list) and who
    is signed in; a table page adds the reader's first state message (as the socket's first)."""
    lang = request_lang(request)
    return {"lang": lang, "catalogue": catalogue_json(lang), "user": user}


async def static_file(request: Request) -> Response:
    return ASSETS.response(request, request.path_params["path"], REVALIDATE)


async def versioned_file(request: Request) -> Response:
    # an address of an older version (a page opened before an update) gets today's file, not kept
    current = request.path_params["version"] == ASSETS.build().version
    return ASSETS.response(request, request.path_params["path"], IMMUTABLE if current else REVALIDATE)


# The page is the renderer's output only: no script may run in it, styles come from /static.
RULES_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; frame-ancestors 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


async def rules(request: Request) -> Response:
    lang = request.query_params.get("lang", "en")
    try:
        page = render_page(request.path_params["game"], lang)
    except RulesNotFound as exc:  # said in the reader's language (an unknown `lang`: their cookie's or browser's)
        known = lang in LANGS
        words = exc.text(request_lang(request))
        return PlainTextResponse(words, 404 if known else 400, headers=RULES_HEADERS)
    return HTMLResponse(page, headers=RULES_HEADERS)


routes: list[BaseRoute] = [
    Route("/", index, methods=["GET"], include_in_schema=False),
    Route("/replay/{table_id:id}", index, methods=["GET"], include_in_schema=False),
    Route("/table/{table_id:id}", index, methods=["GET"], include_in_schema=False),
    Route("/player/{name}", index, methods=["GET"], include_in_schema=False),
    Route("/tutorial/{game}", index, methods=["GET"], include_in_schema=False),
    Route("/rules/{game}", rules, methods=["GET"], include_in_schema=False),
    Route("/static/v/{version}/{path:path}", versioned_file, methods=["GET", "HEAD"], include_in_schema=False),
    Route("/static/{path:path}", static_file, methods=["GET", "HEAD"], include_in_schema=False),
]
