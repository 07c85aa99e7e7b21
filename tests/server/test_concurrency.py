"""The hub processes a game's events one at a time on the event loop. An HTTP endpoint declared with
`def` would run in a worker thread: computing a game's state there touches the same rules-layer board
(move generation, the draw-claim check that plays and takes back moves) while the loop applies moves."""
from __future__ import annotations

import pytest
import threading
import time

from superchess.rules.core.board import CoreBoard
from superchess.rules.core.position import Position
from superchess.server.live import LiveGame

from .util import move, new_match, recv, recv_state

pytestmark = pytest.mark.postgresql  # these run on PostgreSQL too (tests/server/conftest.py)


def loop_thread(server) -> int:
    async def ident():
        return threading.get_ident()

    return server.call(ident)


def test_http_endpoints_read_live_games_on_the_event_loop(server, monkeypatch):
    m = new_match(server)
    threads = []
    for cls, name in ((LiveGame, "state"), (CoreBoard, "can_claim_draw"), (CoreBoard, "fen")):
        original = getattr(cls, name)

        def spy(*args, _original=original, **kw):
            threads.append(threading.get_ident())
            return _original(*args, **kw)

        monkeypatch.setattr(cls, name, spy)
    watcher = server.browser()
    for b in (m.p1, m.p2, watcher):
        assert b.get(f"/api/games/{m.id}").status_code == 200
        assert b.get("/api/games").status_code == 200
        assert b.get(f"/api/games/{m.id}/record").status_code == 200
    assert threads and set(threads) == {loop_thread(server)}


def test_a_state_request_cannot_interleave_with_a_move(server, monkeypatch):
    m = new_match(server)
    loop = loop_thread(server)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        recv_state(w1)
        move(w1, [], "h2h4")  # Player 2 to move; Player 2 has no socket, so its state is not cached yet
        paused, resume = threading.Event(), threading.Event()
        original = Position.legal

        def legal(self, *args, **kw):  # an unlucky thread switch, made to happen on purpose
            if threading.get_ident() != loop and not paused.is_set():  # half-way through building a state
                paused.set()
                resume.wait(5)
            return original(self, *args, **kw)

        monkeypatch.setattr(Position, "legal", legal)
        results = []
        t = threading.Thread(target=lambda: results.append(m.p2.get(f"/api/games/{m.id}")))
        t.start()
        reply = None
        try:
            while t.is_alive() and not paused.is_set():
                time.sleep(0.002)
            if paused.is_set():  # the worker thread is half-way through reading the game
                w1.send_json({"type": "move", "move": "g2g4"})  # Player 1, out of turn
                reply = recv(w1)
        finally:
            resume.set()
            t.join(10)
        assert results and results[0].status_code == 200
        assert reply is None, f"the state was computed in a worker thread; meanwhile the loop answered {reply}"
        assert server.store.moves(m.id) == ["h2h4"]
