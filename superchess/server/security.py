"""Browser-facing protections, as one ASGI middleware: cross-site requests refused by their
`Origin`, and security headers on every HTTP response.

Origin: a state-changing request (any method but GET, HEAD, OPTIONS) and a websocket handshake
that carry an `Origin` must come from this server's own origin (the Origin's host and port are
the request's `Host`) or from one of the configured `allowed_origins` (deployments whose public
origin differs from the Host the server sees). A request without `Origin` is not from a browser
page (browsers send it on every such request), so nothing can be forged with it: curl and API
clients need none. `Referer` is not consulted. A refusal is a 403 (for a websocket: closed
before it opens, which the client sees as a 403 or close code 4403) and changes nothing.
"""
from __future__ import annotations

import json
from typing import Iterable

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # invitation links hold their token: never sent elsewhere
]
WEBSOCKET_REFUSED = 4403


def normal_origin(origin: str) -> str:
    return origin.strip().lower().rstrip("/")


class BrowserGuard:
    """ASGI middleware: the Origin check and the security headers (see the module's docstring)."""

    def __init__(self, app, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(normal_origin(o) for o in allowed_origins if o.strip())

    def origin_allowed(self, headers: dict[bytes, bytes]) -> bool:
        origin = headers.get(b"origin")
        if origin is None:
            return True
        origin = normal_origin(origin.decode("latin-1"))
        if origin in self.allowed:
            return True
        scheme, _, netloc = origin.partition("://")
        host = headers.get(b"host", b"").decode("latin-1").lower()
        return scheme in ("http", "https") and bool(host) and netloc == host

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        checked = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
        if checked and not self.origin_allowed(headers):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": WEBSOCKET_REFUSED})
            else:
                await self._refuse(send)
            return

        async def with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers if scope["type"] == "http" else send)

    @staticmethod
    async def _refuse(send) -> None:
        body = json.dumps({"detail": "cross-site request refused: its Origin is not this server's"}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})
