"""A cap on HTTP request bodies, declared or streamed (chunked): beyond it the request gets a 413
with a one-line reason before any endpoint reads it."""
from __future__ import annotations

import json


class BodyLimit:
    """ASGI middleware: declared `content-length` above `limit`, or more than `limit` bytes
    actually received, answers 413."""

    def __init__(self, app, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        # read the whole body first (it is small by definition), so an endpoint never sees part of one
        messages, received = [], 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            received += len(message.get("body", b""))
            if received > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break
        pending = iter(messages)

        async def replay():
            return next(pending, None) or await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send) -> None:
        body = json.dumps({"detail": f"request too large (at most {self.limit} bytes)"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
