"""Deeply nested JSON (issue 18, item 9): on the websocket an error message and the connection
stays (before: RecursionError, the connection dropped, a traceback in the log); over HTTP a 400."""
from __future__ import annotations

import logging

import pytest

from .util import new_match, ok, recv_error, recv_state, register, sync

DEEP = "[" * 5000 + "]" * 5000  # beyond the JSON parser's recursion limit (and under 16 KB)
DEEP_OBJECT = '{"a":' * 2500 + "1" + "}" * 2500


def nested(depth: int) -> str:
    """Parsable, but deep: what reaches the handlers (below the parser's limit)."""
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT, '{"type": "move", "move": ' + DEEP + "}"])
def test_deep_nesting_on_the_websocket_is_an_error_and_the_connection_stays(server, caplog, text):
    m = new_match(server)
    with caplog.at_level(logging.WARNING), m.p1.websocket_connect(f"/ws/games/{m.id}") as ws:
        recv_state(ws)
        ws.send_text(text)
        assert recv_error(ws) == "malformed message: nested too deeply"
        assert sync(ws)["state"]["moves"] == []  # still connected, nothing changed
        ws.send_json({"type": "move", "move": "h2h4"})
        assert recv_state(ws)["state"]["moves"] == ["h2h4"]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


@pytest.mark.parametrize("payload", [
    '{"type": "move", "move": ' + nested(900) + "}",
    '{"type": "submit_roster", "roster": {"N": {"mode": "jump", "vectors": ' + nested(900) + "}}}",
    '{"type": "resign", "extra": ' + nested(900) + "}",
])
def test_parsable_deep_nesting_reaches_the_handlers_harmlessly(server, caplog, payload):
    m = new_match(server)
    with caplog.at_level(logging.WARNING), m.p1.websocket_connect(f"/ws/games/{m.id}") as ws:
        recv_state(ws)
        ws.send_text(payload)
        reply = ws.receive_json()
        assert reply["type"] in ("error", "state")
        sync(ws)  # still connected
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT, '{"variant": "super16", "roster": ' + DEEP + "}",
                                  '{"variant": "super16", "mode": "symmetric", "roster": {"N": ' + nested(900) + "}}"])
def test_deep_nesting_in_http_bodies_is_a_400(server, body):
    b = server.browser()
    register(b, "nina")
    for method, path in (("POST", "/api/matches"), ("PUT", "/api/rosters/deep"), ("POST", "/api/rosters/preview"),
                         ("POST", "/api/login")):
        r = b.request(method, path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and isinstance(r.json()["detail"], str), (path, r.status_code, r.text)
    assert ok(b.get("/api/games")) == {"ongoing": [], "finished": [], "invitations": []}
    assert ok(b.get("/api/rosters")) == {"rosters": []}
