"""The replay's positions (`GET /api/games/{id}/positions/{n}`): the position after any number of
the moves a viewer sees, equal to the state the game showed then; bad numbers are refused."""
from __future__ import annotations

from .util import http_state, move, new_match, recv_state

TILING_FEN = "8kk8/8kk8/18/18/3n14/2f15/17w/18/18/2W15/3W14/2WW14/18/18/8KK8/8KK8 w 3 0 5"
SHOWN = ("pieces", "last_move", "check", "captured", "holdings", "fen", "turn")


def test_each_position_is_the_state_the_game_showed_after_that_many_moves(server):
    m = new_match(server, variant="chess")
    states = [http_state(m.p1, m.id)]
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        for i, text in enumerate(["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5"]):
            mover, other = (w1, w2) if i % 2 == 0 else (w2, w1)
            states.append(move(mover, [other], text)[0]["state"])
    assert states[-1]["check"] == "e1"
    for n, shown in enumerate(states):
        for viewer in (m.p1, m.p2, server.browser()):  # players and a watcher alike
            pos = viewer.get(f"/api/games/{m.id}/positions/{n}").json()
            assert {k: pos[k] for k in SHOWN} == {k: shown[k] for k in SHOWN}, n
            assert pos["moves"] == n


def test_a_number_outside_the_game_is_refused_and_an_unknown_game_is_404(server):
    m = new_match(server, variant="chess")
    r = m.p1.get(f"/api/games/{m.id}/positions/1")
    assert r.status_code == 400 and "this game shows 0" in r.json()["detail"]
    assert m.p1.get(f"/api/games/{m.id}/positions/-1").status_code == 400
    assert m.p1.get(f"/api/games/{m.id}/positions/x").status_code == 400
    assert m.p1.get("/api/games/nope/positions/0").status_code == 404
    assert http_state(m.p1, m.id)["moves"] == []


def test_the_opponent_cannot_replay_into_an_unfinished_drafted_turn(server):
    """tiling-rider R12: the moves of an unfinished turn are the mover's alone."""
    m = new_match(server, variant="tilingrider", fen=TILING_FEN)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        recv_state(w1)
        move(w1, [], "c7c6")
    assert m.p1.get(f"/api/games/{m.id}/positions/1").json()["pieces"]["c6"] == "W"
    r = m.p2.get(f"/api/games/{m.id}/positions/1")
    assert r.status_code == 400 and "this game shows 0" in r.json()["detail"]

