"""`GET /api/catalogue`: what the browser needs to speak and to read the server's codes — every
message of the interface (the catalogue of `nekobako.i18n`, the same one the engine, server and
terminal use) and the WebSocket close codes. Served, not copied, so the client cannot drift.

`?lang=ja` gives one language only: the page's own language comes inside the page itself
(`boot_data`, read by i18n.js without a request: issue 17, nothing waits for a catalogue before the
first drawing), and the other one is asked for when the reader switches."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..i18n import LANGS, Message, browser_catalogue
from .errors import ApiError, CloseCode

CLOSE_CODES = {c.name: c.value for c in CloseCode}


def catalogue_json(lang: str | None = None) -> dict[str, Any]:
    """The catalogue of `lang` (None: every language) with the close codes, as the browser reads it."""
    every = browser_catalogue()
    langs = every["langs"] if lang is None else [lang]
    return {"langs": every["langs"], **{code: every[code] for code in langs}, "close_codes": CLOSE_CODES}


@functools.cache
def catalogue_body(lang: str | None = None) -> tuple[bytes, str]:
    """The JSON body and its ETag, built once per process and language (the catalogue is package data)."""
    data = json.dumps(catalogue_json(lang), ensure_ascii=False, separators=(",", ":")).encode()
    return data, '"' + hashlib.sha256(data).hexdigest()[:20] + '"'


async def catalogue(request: Request) -> Response:
    lang = request.query_params.get("lang")
    if lang is not None and lang not in LANGS:
        raise ApiError(400, "bad_request", Message("error.lang", langs=list(LANGS)))
    data, etag = catalogue_body(lang)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}  # revalidated on each load: a new release shows at once
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(data, media_type="application/json", headers=headers)


routes = [Route("/api/catalogue", catalogue)]
