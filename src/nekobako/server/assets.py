"""The browser client's files as a slow phone should get them (issue 17): each file kept in memory
with its gzip form, sent compressed to browsers that accept it, and addressed by the version of
the whole client (`/static/v/<version>/app.js`, a hash of every file's contents) so browsers keep
them for a year and never ask again; a changed file changes the version, hence every address.
`index.html` names that version and lists the page's module graph as `modulepreload` links, so
the browser fetches every module in parallel with the first instead of one import level at a time.

`/static/<path>` (no version) still works, revalidated on every use (ETag), for the rules pages
and anything that links a file directly. The files are read again when one changes on disk, so
editing the client while the server runs needs only a reload."""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import text
from .errors import request_lang

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
}
# `import … from "./x.js"` and `import "./x.js"` (static imports: what a module needs before it runs)
STATIC_IMPORT = re.compile(
    r"""^\s*(?:import|export)\s[^;]*?\bfrom\s*["'](\.[^"']+)["']|^\s*import\s*["'](\.[^"']+)["']""", re.M
)
# the page modules app.js imports by route, and what each page may load next (games by name)
PAGES = {
    "lobby": ("lobby.js",),
    "table": ("table.js", "games/*.js"),
    "replay": ("replay.js", "games/*.js"),
    "player": ("player.js",),
    "tutorial": ("tutorial.js", "games/*.js"),
}
# the page is the same for everyone but for its boot data (the reader's words and account)
PAGE_CACHE = "private, no-cache"


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None  # None when gzip would not make it smaller
    etag: str
    media_type: str


@dataclass(frozen=True)
class Build:
    version: str
    files: dict[str, Asset]
    imports: dict[str, tuple[str, ...]]  # module → the modules it imports statically


def _asset(body: bytes, name: str) -> Asset:
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    media = TYPES.get(PurePosixPath(name).suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
    etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
    return Asset(body, packed if len(packed) < len(body) else None, etag, media)


def _imports(name: str, text: str) -> tuple[str, ...]:
    base = PurePosixPath(name).parent
    found = []
    for match in STATIC_IMPORT.finditer(text):
        target = PurePosixPath(base, match.group(1) or match.group(2))
        parts: list[str] = []
        for part in target.parts:
            if part == "..":
                parts.pop()
            elif part != ".":
                parts.append(part)
        found.append("/".join(parts))
    return tuple(found)


class Assets:
    def __init__(self, folder: Path):
        self.folder = folder
        self._stamp: tuple[tuple[str, int, int], ...] | None = None
        self._build: Build | None = None

    def _paths(self) -> list[Path]:
        return sorted(p for p in self.folder.rglob("*") if p.is_file() and not p.name.startswith("."))

    def build(self) -> Build:
        """The files as they are on disk now (read again only when one changed)."""
        paths = self._paths()
        stamp = tuple((str(p), (s := p.stat()).st_mtime_ns, s.st_size) for p in paths)
        if self._build is None or stamp != self._stamp:
            files: dict[str, Asset] = {}
            imports: dict[str, tuple[str, ...]] = {}
            digest = hashlib.sha256()
            for path in paths:
                name = path.relative_to(self.folder).as_posix()
                body = path.read_bytes()
                digest.update(name.encode() + b"\0" + body + b"\0")
                files[name] = _asset(body, name)
                if name.endswith(".js"):
                    imports[name] = _imports(name, body.decode("utf-8"))
            self._build, self._stamp = Build(digest.hexdigest()[:12], files, imports), stamp
        return self._build

    def preloads(self, page: str, game: str | None = None) -> list[str]:
        """Every module `page` runs (app.js, the page module, the games it may draw: only `game`'s
        when the server knows which), in import order."""
        build = self.build()
        roots = ["app.js"]
        for pattern in PAGES.get(page, ()):
            if game is not None and pattern == "games/*.js" and f"games/{game}.js" in build.imports:
                pattern = f"games/{game}.js"
            roots += sorted(n for n in build.imports if PurePosixPath(n).match(pattern))
        seen: dict[str, None] = {}

        def visit(name: str) -> None:
            if name in seen or name not in build.imports:
                return
            seen[name] = None
            for dep in build.imports[name]:
                visit(dep)

        for root in roots:
            visit(root)
        return list(seen)

    def index(self, page: str, game: str | None = None, boot: dict[str, Any] | None = None) -> bytes:
        """index.html for a page: versioned addresses, the page's module graph preloaded, and `boot`
        (what the page would otherwise ask for first) inside it as JSON, which no script runs."""
        build = self.build()
        prefix = f"/static/v/{build.version}/"
        html = build.files["index.html"].body.decode("utf-8").replace('"/static/', f'"{prefix}')
        # only modules: what the page asks the API for first comes inside it (`boot`, pages.py), as a
        # preloaded answer the page does not use at once makes Chromium warn
        links = "".join(f'\n  <link rel="modulepreload" href="{prefix}{name}">' for name in self.preloads(page, game))
        html = html.replace("\n</head>", f"{links}\n</head>", 1)
        if boot is not None:  # last: the links above are found first; the modules run after the page is parsed
            html = html.replace(
                "\n</body>", f'\n<script type="application/json" id="boot">{script_json(boot)}</script>\n</body>', 1
            )
        return html.encode("utf-8")

    def response(self, request: Request, name: str, cache: str) -> Response:
        asset = self.build().files.get(name)
        if asset is None or name == "index.html":
            return PlainTextResponse(text("error.http_404", request_lang(request)), 404)
        return send(request, asset.body, asset.gzipped, asset.etag, asset.media_type, cache)


def script_json(value: Any) -> str:
    """JSON that can stand inside a <script> element: no `</script>` or `<!--` can end it early."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def send(
    request: Request,
    body: bytes,
    gzipped: bytes | None,
    etag: str,
    media_type: str,
    cache: str,
    vary: str = "Accept-Encoding",
) -> Response:
    """A file with its validators: 304 when the browser has it, gzip when the browser takes it."""
    headers = {"Cache-Control": cache, "ETag": etag, "Vary": vary}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    if gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        body = gzipped
    return Response(body, media_type=media_type, headers=headers)


def gzip_page(request: Request, html: bytes) -> Response:
    packed = gzip.compress(html, compresslevel=6, mtime=0)
    etag = '"' + hashlib.sha256(html).hexdigest()[:16] + '"'
    vary = "Accept-Encoding, Accept-Language, Cookie"  # the boot data: the reader's language and account
    return send(request, html, packed if len(packed) < len(html) else None, etag, TYPES[".html"], PAGE_CACHE, vary)


class ConditionalGet:
    """Pure ASGI middleware for the API's GET answers (the lobby polls `/api/tables` every few
    seconds): each 200 answer gets an ETag (a hash of its body) and `Cache-Control: no-cache`, so
    the browser asks again every time with `If-None-Match`, and an unchanged answer is a bodiless
    304 (issue 17: a lobby polled cheaply). Answers that already carry an ETag are left alone."""

    def __init__(self, app: ASGIApp, prefix: str = "/api/"):
        self.app = app
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        asked = Headers(scope=scope).get("if-none-match", "")
        start: Message | None = None
        body = bytearray()

        async def buffered(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            body.extend(message.get("body", b""))
            if message.get("more_body"):
                return
            headers = MutableHeaders(scope=start)
            if start["status"] == 200 and "etag" not in headers:
                etag = 'W/"' + hashlib.sha256(body).hexdigest()[:20] + '"'
                headers["etag"] = etag
                headers.setdefault("cache-control", "no-cache")
                headers.append("vary", "Cookie")
                if etag in asked:
                    del headers["content-length"]
                    await send({**start, "status": 304})
                    await send({"type": "http.response.body", "body": b""})
                    return
            await send(start)
            await send({"type": "http.response.body", "body": bytes(body)})

        await self.app(scope, receive, buffered)
