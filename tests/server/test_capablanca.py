"""Capablanca Chess over the server, a data-only variant (no edit to the server): it is offered
with its 10 x 8 board and its pieces (the Archbishop drawn as the Bishop + Knight compound), castling
three squares over websockets moves the Rook beside the King, and the computer answers each move
with one Fairy-Stockfish's `capablanca` (pyffish) finds legal."""
from __future__ import annotations

import pytest

from .util import computer_game, legal_moves, move, new_match, ok, recv_state, wait_for

sf = pytest.importorskip("pyffish")

START = sf.start_fen("capablanca")
# both castlings open to White (as tests/rules/core/test_capablanca.py)
CASTLES = "r2bqkb2r/pppppppp1p/3a2cn2/2A5p1/B1n4P1B/NQP3C2N/PP1PPPP1PP/R4K3R w KQkq - 2 12"


def test_capablanca_is_offered_with_its_board_and_pieces(server):
    b = server.browser()
    option = {v["name"]: v for v in ok(b.get("/api/options"))["variants"]}["capablanca"]
    assert (option["title"], option["files"], option["ranks"]) == ("Capablanca Chess", 10, 8)
    assert not option["multi_move"] and not option["holdings"] and not option["reprogrammable"]
    pieces = ok(b.get("/api/variants/capablanca/pieces"))
    assert pieces["start_fen"] == START
    names = {p["letter"]: p for p in pieces["pieces"]}
    assert names["A"] == {"letter": "A", "name": "Archbishop", "label": "A", "drawing": "bishop-knight"}
    assert names["C"] == {"letter": "C", "name": "Chancellor", "label": "C"}
    assert ok(b.get("/api/variants/capablanca/layout"))["labels"]["square"]["files"] == "abcdefghij"


def test_castling_over_websockets(server):
    m = new_match(server, variant="capablanca", fen=CASTLES, time_control="blitz-3+2")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        s1 = recv_state(w1)["state"]
        recv_state(w2)
        offered = {text for texts in legal_moves(s1).values() for text in texts}
        assert offered == set(sf.legal_moves("capablanca", CASTLES, [])) >= {"f1i1", "f1c1"}
        after = move(w1, [w2], "f1i1")[1]["state"]["pieces"]
        assert (after["i1"], after["h1"]) == ("K", "R") and "f1" not in after and "j1" not in after


def test_the_computer_answers_with_legal_moves(server, threads):
    human, game_id = computer_game(server, variant="capablanca", level=1, time_control="rapid-10+5")
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        for ply, text in enumerate(("e2e4", "h1i3", "d2d4")):  # the Chancellor out (else any legal move)
            moves = ok(human.get(f"/api/games/{game_id}"))["moves"]
            legal = sf.legal_moves("capablanca", START, moves)
            move(ws, [], text if text in legal else sorted(legal)[0])
            s = wait_for(server, game_id, human, lambda st, n=2 * ply + 2: len(st["moves"]) == n)
            assert s["moves"][-1] in sf.legal_moves("capablanca", START, s["moves"][:-1])
            assert recv_state(ws)["event"] == {"kind": "move", "move": s["moves"][-1], "side": 1}
    assert server.store.moves(game_id) == s["moves"] and s["status"] == "active" and s["turn"] == 0
