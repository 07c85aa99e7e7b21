"""Structured logs: with `--log-format json` one JSON object a line (time, level, logger, message,
and the id of the request and of the game it concerns, when known); text otherwise. Every HTTP
request and websocket gets an id (`RequestIds`): the proxy's `X-Request-ID` when it is a plain
token, else a new one, echoed in the response's `X-Request-ID`; at level INFO each request is
logged with its status and duration (logger `superchess.http`)."""
from __future__ import annotations

import json
import logging
import re
import secrets
import time
from contextvars import ContextVar

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game_id: ContextVar[str | None] = ContextVar("game_id", default=None)

_TOKEN = re.compile(r"[A-Za-z0-9._-]{1,64}")
_GAME_PATH = re.compile(r"^/(?:ws|api)/games/([A-Za-z0-9_-]{1,24})")
http_log = logging.getLogger("superchess.http")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                 + f".{int(record.msecs):03d}Z", "level": record.levelname, "logger": record.name,
                 "message": record.getMessage()}
        for key, var in (("request_id", request_id), ("game_id", game_id)):
            value = getattr(record, key, None) or var.get()
            if value:
                entry[key] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure(level: str, form: str) -> None:
    """The `superchess` loggers' level and format (`json` or `text`), to standard error."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if form == "json"
                         else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("superchess")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False


class RequestIds:
    """ASGI middleware: the request's id (and the game's, from the path) for the logs made while
    it is served; the id in the response's `X-Request-ID`."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        given = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")
        rid = given if _TOKEN.fullmatch(given) else secrets.token_hex(8)
        found = _GAME_PATH.match(scope.get("path", ""))
        tokens = (request_id.set(rid), game_id.set(found.group(1) if found else None))
        started, status = time.perf_counter(), 0

        async def send_with_id(message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), (b"x-request-id", rid.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if http_log.isEnabledFor(logging.INFO):
                http_log.info("%s %s %s %.1f ms", scope.get("method", "WS"), scope.get("path"), status or "-",
                              1000 * (time.perf_counter() - started))
            request_id.reset(tokens[0])
            game_id.reset(tokens[1])
