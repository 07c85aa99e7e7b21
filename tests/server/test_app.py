"""The application's shape: its endpoints are routers over one `Services` object per application
(server/services.py), so two applications in one process share no game or account."""
from __future__ import annotations

from .util import Server, new_match, recv, register


def test_two_apps_in_one_process_keep_their_own_games_and_accounts(server, tmp_path, clock):
    other = Server(tmp_path / "other", clock)
    try:
        register(server.browser(), "alice")
        m = new_match(server)
        stranger = other.browser()
        assert stranger.post("/api/login", json={"name": "alice", "password": "correct horse"}).status_code == 401
        assert stranger.get(f"/api/games/{m.id}").status_code == 404
        with stranger.websocket_connect(f"/ws/games/{m.id}") as ws:
            assert recv(ws) == {"type": "error", "message": "no such game"}
        assert m.state(m.p1)["status"] == "active"
    finally:
        other.close()
