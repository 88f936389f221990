"""`GET /api/catalogue`: what the browser needs to speak and to read the server's codes — every
message in every language (the catalogue of `nekobako.i18n`, the same one the engine, server and
terminal use) and the WebSocket close codes. Served, not copied, so the client cannot drift."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..i18n import browser_catalogue
from .errors import CloseCode


@functools.cache
def catalogue_body() -> tuple[bytes, str]:
    """The JSON body and its ETag, built once per process (the catalogue is package data)."""
    body: dict[str, Any] = {**browser_catalogue(), "close_codes": {c.name: c.value for c in CloseCode}}
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return data, '"' + hashlib.sha256(data).hexdigest()[:20] + '"'


async def catalogue(request: Request) -> Response:
    data, etag = catalogue_body()
    headers = {"ETag": etag, "Cache-Control": "no-cache"}  # revalidated on each load: a new release shows at once
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(data, media_type="application/json", headers=headers)


routes = [Route("/api/catalogue", catalogue)]
