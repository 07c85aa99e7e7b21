"""Vanguard Chess over the server (issue 7, ../shared/rules/vanguard.md): the variant is offered,
each legal move lists its intermediate cell (`via`) and every cell it captures, a Berserker double
capture (V6) and a Wizard swap (R7) are played over websockets, an illegal move is refused, a restart
mid-game resumes the game, and the computer answers."""
from __future__ import annotations

from superchess.rules import Board

from ..rules.diagram.helpers import BERSERKER_AND_WIZARDS, fen_of
from .util import act, computer_game, legal, move, new_match, ok, recv_error, recv_state, sync, wait_for


def test_vanguard_is_offered_with_its_board(server):
    b = server.browser()
    option = {v["name"]: v for v in ok(b.get("/api/options"))["variants"]}["vanguard"]
    assert (option["files"], option["ranks"]) == (16, 16)  # vanguard 1.1
    assert not option["reprogrammable"] and not option["setups"] and not option["multi_move"]
    layout = ok(b.get("/api/variants/vanguard/layout"))
    assert len(layout["cells"]) == 256 and layout["labels"]["square"]["files"] == "abcdefghijklmnop"
    pieces = {p["letter"]: p for p in ok(b.get("/api/variants/vanguard/pieces"))["pieces"]}
    assert len(pieces) == 21  # vanguard 3.2: the 21 pieces
    assert pieces["E"] == {"letter": "E", "name": "Berserker", "label": "Br"}  # R21: FEN letter and ID


def test_double_capture_and_swap_over_websockets_then_a_restart(server, restart):
    fen = fen_of(BERSERKER_AND_WIZARDS)
    m = new_match(server, variant="vanguard", fen=fen, time_control="blitz-3+2")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        s1 = recv_state(w1)["state"]
        recv_state(w2)
        moves = legal(s1)
        assert set(moves) == {mv.text for mv in Board("vanguard", fen).legal_moves}
        assert moves["b2d4xc3"]["via"] == ["c3"] and moves["b2d4xc3"]["captures"] == ["c3", "d4"]  # V6
        assert moves["b2b2xc3"]["to"] == "b2" and moves["b2b2xc3"]["captures"] == ["c3"]  # igui (R8)
        assert moves["b2d4"]["via"] == [] and moves["b2d4"]["captures"] == ["d4"]
        assert moves["f1e2"]["captures"] == []  # a swap takes nothing (R7)
        w1.send_json({"type": "move", "move": "b2e5xc3"})
        assert "illegal" in recv_error(w1).lower()
        w2.send_json({"type": "move", "move": "h15i16"})
        assert recv_error(w2) == "it is not your turn"

        seen = move(w1, [w2], "b2d4xc3")[1]["state"]
        assert "c3" not in seen["pieces"] and seen["pieces"]["d4"] == "E" and "b2" not in seen["pieces"]
        assert sorted(seen["captured"][1]) == ["n", "p"]  # both pieces of the double capture
        swapped = move(w2, [w1], "h15i16")[0]["state"]
        assert (swapped["pieces"]["h15"], swapped["pieces"]["i16"]) == ("q", "w")
    server2 = restart(server)
    assert server2.store.moves(m.id) == ["b2d4xc3", "h15i16"]
    p1, p2 = server2.browser(cookies=dict(m.p1.cookies)), server2.browser(cookies=dict(m.p2.cookies))
    with p1.websocket_connect(f"/ws/games/{m.id}") as w1, p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        s1 = recv_state(w1)["state"]
        recv_state(w2)
        assert s1["moves"] == ["b2d4xc3", "h15i16"] and s1["turn"] == 0
        assert sorted(s1["captured"][1]) == ["n", "p"]
        after = move(w1, [w2], "f1e2")[1]["state"]
        assert (after["pieces"]["f1"], after["pieces"]["e2"]) == ("P", "W")
        act(w2, [w1], {"type": "resign"})
        final = sync(w1)["state"]
        assert (final["status"], final["result"]) == ("finished", "1-0")


def test_the_computer_answers(server, threads):
    human, game_id = computer_game(server, variant="vanguard", level=1, time_control="rapid-10+5")
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        move(ws, [], "c2d4")
        s = wait_for(server, game_id, human, lambda st: len(st["moves"]) >= 2)
    replay = Board("vanguard")
    for text in s["moves"]:
        replay.push_text(text)  # the computer's move is legal by the rules
    assert replay.turn == 0 and s["legal"]
