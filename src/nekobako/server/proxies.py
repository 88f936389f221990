"""Which peers' `X-Forwarded-For` / `-Proto` are believed, and a loud warning when a proxy that is
not believed sends them.

Login, sign-up and guest limits count per client address. Behind a reverse proxy that is not
named in `--forwarded-allow-ips`, every client arrives as the proxy's one address, so one guesser
locks everyone out of logging in for a minute. Nothing at start-up can tell that a proxy is in
front, so the first request that carries `X-Forwarded-For` or `Forwarded` from a peer not trusted
is logged (once per process) with the address to name. uvicorn's own `ProxyHeadersMiddleware`
does the believing; this wraps it, because behind it the peer's address is already replaced.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

log = logging.getLogger("nekobako.server")
FORWARDING = (b"x-forwarded-for", b"forwarded")

UNTRUSTED = (
    "WARNING: requests arrive through a proxy that is not trusted: %s sent %s, which is ignored. "
    "Every client behind it counts as the one address %s, so the login, sign-up and guest limits "
    "per address are shared by all of them (one guesser locks everyone out). "
    "Start the server with --forwarded-allow-ips %s (the proxy's address; docs/deploy.md)."
)
FORWARDED_ONLY = (
    "WARNING: the trusted proxy %s sends only a 'Forwarded' header; nekobako reads X-Forwarded-For "
    "and X-Forwarded-Proto (set them in the proxy; docs/deploy.md), so every client counts as %s."
)


class ProxyCheck:
    """ASGI middleware: warn once about forwarding headers from an untrusted peer, then let
    uvicorn's middleware believe the trusted ones (`forwarded_allow_ips`: None trusts nobody)."""

    def __init__(self, app: Any, forwarded_allow_ips: str | None) -> None:
        self.inner: Any = app if forwarded_allow_ips is None else ProxyHeadersMiddleware(app, forwarded_allow_ips)
        self.trusted = None if forwarded_allow_ips is None else self.inner.trusted_hosts
        self.warned = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if not self.warned and scope["type"] in ("http", "websocket"):
            self.check(scope)
        await self.inner(scope, receive, send)

    def check(self, scope: dict[str, Any]) -> None:
        names = {name for name, _ in scope["headers"] if name in FORWARDING}
        if not names:
            return
        peer = scope["client"][0] if scope.get("client") else "unknown"
        if self.trusted is None or peer not in self.trusted:
            sent = " and ".join(sorted(n.decode().title() for n in names))
            log.warning(UNTRUSTED, peer, sent, peer, peer)
            self.warned = True
        elif b"x-forwarded-for" not in names:
            log.warning(FORWARDED_ONLY, peer, peer)
            self.warned = True
        # else a trusted proxy doing its job: keep watching for another that is not
