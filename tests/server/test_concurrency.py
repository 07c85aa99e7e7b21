"""The hub processes a game's events one at a time on the event loop. HTTP endpoints declared with
`def` run in a worker thread: if they compute a game's state there, they touch the same rules-layer
board (whose draw-claim check plays and takes back every legal move) while the loop applies moves."""
from __future__ import annotations

import threading

import pytest

from superchess.rules.position import Position

from .util import move, new_match, recv, recv_state


@pytest.mark.xfail(strict=True, reason="BUG app.py game_state (and my_games, game_record) are sync `def` "
                                       "endpoints, so LiveGame.state() runs in a worker thread on the board the "
                                       "event loop mutates; a thread switch inside Board.can_claim_draw (which "
                                       "makes/unmakes every legal move) lets the loop see a half-played position")
def test_a_state_request_cannot_interleave_with_a_move(server, monkeypatch):
    m = new_match(server)

    async def ident():
        return threading.get_ident()

    loop_thread = server.call(ident)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        recv_state(w1)
        move(w1, [], "h2h4")  # Player 2 to move; Player 2 has no socket, so its state is not cached yet
        paused, resume = threading.Event(), threading.Event()
        original = Position.repetitions
        calls = {}

        def repetitions(self):  # an unlucky thread switch, made to happen on purpose
            me = threading.get_ident()
            if me != loop_thread:
                calls[me] = calls.get(me, 0) + 1
                if calls[me] == 2 and not paused.is_set():  # inside can_claim_repetition's make/unmake
                    paused.set()
                    resume.wait(5)
            return original(self)

        monkeypatch.setattr(Position, "repetitions", repetitions)
        results = []
        t = threading.Thread(target=lambda: results.append(m.p2.get(f"/api/games/{m.id}")))
        t.start()
        try:
            if paused.wait(5):  # the worker thread is half-way through a hypothetical move
                w1.send_json({"type": "move", "move": "g2g4"})  # Player 1 out of turn
                reply = recv(w1)
            else:
                reply = {"type": "error", "message": "(the state was not computed in a worker thread)"}
        finally:
            resume.set()
            t.join(10)
        assert reply["type"] == "error" and "not your turn" in reply["message"], reply
        assert server.store.moves(m.id) == ["h2h4"]
