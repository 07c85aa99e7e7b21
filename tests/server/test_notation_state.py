"""The game state's "notation": the readable text of every move (docs/notation.md), parallel to
"moves", also after a restart (the server rebuilds it from the stored moves)."""
from __future__ import annotations

from .util import http_state, move, new_match, recv_state


def test_state_notation_is_parallel_to_moves(server, restart):
    m = new_match(server, variant="chess", fen="6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    assert http_state(m.p1, m.id)["notation"] == []
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        move(w1, [w2], "g1f1")
        move(w2, [w1], "h7h6")
        seen = move(w1, [w2], "d1d8")[1]["state"]
    assert seen["moves"] == ["g1f1", "h7h6", "d1d8"] and seen["notation"] == ["Kf1", "h6", "Rd8+"]
    move_list = http_state(server.browser(), m.id)  # watchers too
    assert move_list["notation"] == seen["notation"]
    again = restart(server)
    assert http_state(again.browser(cookies=dict(m.p1.cookies)), m.id)["notation"] == ["Kf1", "h6", "Rd8+"]


def test_state_notation_of_a_multi_move_turn(server):
    """InterGrid: each move of a turn has its text; the `end` that closes a turn is its mark alone."""
    m = new_match(server, variant="intergrid")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        move(w1, [w2], "e2e4")
        move(w1, [w2], "G1E2")
        move(w2, [w1], "e7e5")
        state = move(w2, [w1], "end")[0]["state"]
    assert state["moves"] == ["e2e4", "G1E2", "e7e5", "end"] and state["notation"] == ["e4", "NE2", "e5", ""]
