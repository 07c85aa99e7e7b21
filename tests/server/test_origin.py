"""Cross-site requests (issue 18, item 11): state-changing requests and websocket handshakes whose
`Origin` is not the server's own (nor a configured one) are refused and change nothing; requests
without `Origin` (curl, API clients, these tests) still work; and `superchess serve` passes its
options through."""
from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from superchess import cli
from superchess.server.security import WEBSOCKET_REFUSED

from .util import Server, new_match, ok, recv_state, register

SAME = "http://testserver"  # the TestClient's Host
FOREIGN = ["http://evil.example", "http://testserver:8080", "null", "http://testserver.evil.example",
           "file://"]


def actions(m, account_browser) -> list[tuple]:
    """(browser, method, path, json) of state-changing requests a foreign page would forge."""
    return [(account_browser, "POST", "/api/logout", None), (account_browser, "POST", "/api/logout-all", None),
            (account_browser, "PUT", "/api/me/colour", {"colour": "#000000"}),
            (account_browser, "PUT", "/api/rosters/mine", {"roster": {}}),
            (account_browser, "DELETE", "/api/rosters/mine", None),
            (account_browser, "POST", "/api/matches", {}),
            (m.opponent, "POST", f"/api/invitations/{m.token}/accept", None),
            (m.creator, "POST", f"/api/invitations/{m.token}/decline", None),
            (account_browser, "POST", "/api/login", {"name": "olga", "password": "correct horse"}),
            (account_browser, "POST", "/api/register", {"name": "olga2", "password": "correct horse"})]


def snapshot(server, m, account_browser) -> tuple:
    return (ok(account_browser.get("/api/me")), ok(account_browser.get("/api/rosters")),
            ok(account_browser.get("/api/games")), ok(m.creator.get(f"/api/games/{m.id}"))["status"],
            server.store.player_by_name("olga2"))


@pytest.mark.parametrize("origin", FOREIGN)
def test_foreign_origins_are_refused_and_change_nothing(server, origin):
    m = new_match(server, accept=False)
    olga = server.browser()
    register(olga, "olga")
    ok(olga.put("/api/rosters/mine", json={"roster": {}}))
    before = snapshot(server, m, olga)
    for browser, method, path, body in actions(m, olga):
        r = browser.request(method, path, json=body, headers={"Origin": origin})
        assert r.status_code == 403, (method, path, r.status_code, r.text)
        assert r.json() == {"detail": "cross-site request refused: its Origin is not this server's"}
        assert "set-cookie" not in r.headers
    assert snapshot(server, m, olga) == before
    r = olga.get("/api/me", headers={"Origin": origin})  # reading is not refused (CORS keeps it private)
    assert ok(r)["name"] == "olga"


@pytest.mark.parametrize("origin", [SAME, "HTTP://TestServer/", "https://testserver", None])
def test_the_servers_own_origin_or_none_is_accepted(server, origin):
    m = new_match(server, accept=False)
    headers = {"Origin": origin} if origin else {}
    ok(m.opponent.post(f"/api/invitations/{m.token}/accept", headers=headers))
    olga = server.browser()
    register(olga, "olga")
    assert ok(olga.post("/api/logout", headers=headers)) == {"ok": True}
    assert ok(olga.get("/api/me"))["name"] is None


def test_configured_origins_are_accepted(data_dir, clock):
    """Behind a proxy the public origin may differ from the Host the server sees."""
    s = Server(data_dir, clock, allowed_origins=["https://chess.example.org/", " "])
    try:
        b = s.browser()
        ok(b.post("/api/matches", json={}, headers={"Origin": "https://Chess.Example.org"}))
        assert b.post("/api/matches", json={}, headers={"Origin": "https://example.org"}).status_code == 403
    finally:
        s.close()


@pytest.mark.parametrize("origin", FOREIGN)
def test_a_websocket_from_a_foreign_origin_is_refused(server, origin):
    m = new_match(server)
    with pytest.raises(WebSocketDisconnect) as refused:
        with m.p1.websocket_connect(f"/ws/games/{m.id}", headers={"Origin": origin}) as ws:
            ws.send_json({"type": "resign"})
    assert refused.value.code == WEBSOCKET_REFUSED
    with m.p1.websocket_connect(f"/ws/games/{m.id}", headers={"Origin": SAME}) as ws:
        assert recv_state(ws)["state"]["status"] == "active"  # the game goes on
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as ws:  # no Origin: not a browser
        assert recv_state(ws)["state"]["status"] == "active"


def test_serve_passes_allowed_origins_and_trusted_proxies(monkeypatch, tmp_path):
    """`superchess serve --allowed-origins ... --trusted-proxies ...` (or their environment
    variables) reach create_app and uvicorn (whose proxy headers decide https and the client)."""
    import gc

    import uvicorn

    import superchess.server.app as app_module

    calls = []
    monkeypatch.setattr(app_module, "create_app", lambda data, **kw: calls.append(("app", data, kw)) or "app")
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: calls.append(("run", server.config.app, {
        "proxy_headers": server.config.proxy_headers, "forwarded_allow_ips": server.config.forwarded_allow_ips})))
    monkeypatch.setattr(gc, "freeze", lambda: None)
    monkeypatch.setattr(gc, "set_threshold", lambda *a: None)
    data = str(tmp_path / "data")
    assert cli.main(["serve", "--data", data, "--allowed-origins", "https://a.example, https://b.example",
                     "--trusted-proxies", "10.9.9.9"]) == 0
    monkeypatch.setenv("SUPERCHESS_ALLOWED_ORIGINS", "https://c.example")
    monkeypatch.setenv("SUPERCHESS_TRUSTED_PROXIES", "*")
    assert cli.main(["serve", "--data", data]) == 0
    monkeypatch.delenv("SUPERCHESS_ALLOWED_ORIGINS")
    monkeypatch.delenv("SUPERCHESS_TRUSTED_PROXIES")
    assert cli.main(["serve", "--data", data]) == 0
    apps = [c[2]["allowed_origins"] for c in calls if c[0] == "app"]
    runs = [(c[2]["proxy_headers"], c[2]["forwarded_allow_ips"]) for c in calls if c[0] == "run"]
    assert apps == [["https://a.example", "https://b.example"], ["https://c.example"], []]
    assert runs == [(True, "10.9.9.9"), (True, "*"), (True, "127.0.0.1")]
