"""What every HTTP request passes on its way in and out: state-changing requests must come from
this site (CSRF), and every response carries the browser's security headers.

Why both `Origin` and `Sec-Fetch-Site`: a page on another port of the same host is *same-site*
(so `SameSite=Lax` cookies go along) but not *same-origin*; browsers tell us with either header,
and a body-less `text/plain` POST needs no CORS preflight, so the check cannot rely on the body.
Clients that send neither header are not browsers (curl, the tests, bots) and cannot carry a
victim's cookie, so they pass.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from .. import i18n  # i18n.Message: starlette.types has a Message of its own
from .errors import error_body, request_lang

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def same_origin_socket(ws: WebSocket) -> bool:
    """Browsers send `Origin` on WebSocket handshakes; refuse pages of other sites (the cookie
    would otherwise let them play for our user). Clients without `Origin` are not browsers."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == ws.headers.get("host", "").lower()


def cross_site(headers: Headers, scheme: str, public_url: str | None) -> bool:
    """True when a browser tells us the request comes from another origin."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return True
    origin = headers.get("origin")
    if origin is None:
        return False
    allowed = {f"{scheme}://{headers.get('host', '')}".lower()}
    if public_url:
        allowed.add(origin_of(public_url))
    return origin.lower() not in allowed


class Guards:
    """Pure ASGI middleware (no buffering of bodies, WebSockets pass through untouched: the table
    socket checks its own handshake's `Origin`)."""

    def __init__(self, app: ASGIApp, public_url: str | None = None):
        self.app = app
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if scope["method"] not in SAFE_METHODS and cross_site(headers, scope.get("scheme", "http"), self.public_url):
            lang = request_lang(HTTPConnection(scope))
            refusal = JSONResponse(error_body("forbidden", i18n.Message("error.cross_site"), lang), status_code=403)
            await refusal(scope, receive, self._secured(send))
            return
        await self.app(scope, receive, self._secured(send))

    @staticmethod
    def _secured(send: Send) -> Send:
        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                if "content-security-policy" in out:  # a page with a policy of its own (rules)
                    out.setdefault("x-frame-options", "SAMEORIGIN")
                for name, value in SECURITY_HEADERS.items():
                    out.setdefault(name, value)
            await send(message)

        return secured
