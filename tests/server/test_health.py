"""Health, readiness and request ids (issue 24, docs/deploy.md): `/healthz` answers from the process
alone, `/readyz` says whether the database answers (503 when it does not), every response carries
a request id (the proxy's when it is a plain token), and the JSON logs name the request and game."""
from __future__ import annotations

import json
import logging

import pytest

from superchess.server import logs

from .util import new_match, ok

pytestmark = pytest.mark.postgresql  # these run on PostgreSQL too (tests/server/conftest.py)


def test_healthz_answers_without_the_database(server, monkeypatch):
    monkeypatch.setattr(server.store, "ping", lambda: (_ for _ in ()).throw(OSError("down")))
    assert ok(server.browser().get("/healthz")) == {"status": "ok"}


def test_readyz_checks_the_database(server, monkeypatch):
    b = server.browser()
    assert ok(b.get("/readyz")) == {"status": "ready"}
    monkeypatch.setattr(server.store, "ping", lambda: (_ for _ in ()).throw(OSError("connection refused")))
    r = b.get("/readyz")
    assert r.status_code == 503 and r.json()["status"] == "unavailable" and "OSError" in r.json()["detail"]


def test_every_response_has_a_request_id_the_proxy_s_when_it_is_a_plain_token(server):
    b = server.browser()
    assert b.get("/healthz", headers={"X-Request-ID": "edge-42.a_b"}).headers["x-request-id"] == "edge-42.a_b"
    made = b.get("/healthz").headers["x-request-id"]
    odd = b.get("/healthz", headers={"X-Request-ID": "<script>" + "x" * 80}).headers["x-request-id"]
    assert len(made) == len(odd) == 16 and made != odd and "<" not in odd


def test_json_logs_name_the_request_and_the_game(server):
    m = new_match(server)
    lines = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(logs.JsonFormatter().format(record))
    logs.http_log.addHandler(handler)
    level = logs.http_log.level
    logs.http_log.setLevel(logging.INFO)
    try:
        m.p1.get(f"/api/games/{m.id}", headers={"X-Request-ID": "req-1"})
    finally:
        logs.http_log.removeHandler(handler)
        logs.http_log.setLevel(level)
    entry = json.loads(lines[-1])
    assert entry["request_id"] == "req-1" and entry["game_id"] == m.id and entry["level"] == "INFO"
    assert entry["message"].startswith(f"GET /api/games/{m.id} 200 ")
