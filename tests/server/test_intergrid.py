"""InterGrid over the server (issue 8, ../shared/rules/intergrid.md): the variant is offered, a turn
of two moves (square move, then a point move or `end`, R8) is played over websockets, each legal
move lists the cells it captures (enclosures, R5-R6), the clock passes only when the turn ends, and
a restart mid-turn resumes mid-turn."""
from __future__ import annotations

from superchess.rules import Board
from superchess.rules.game.record import Game
from superchess.server import variants

from ..rules.intergrid.helpers import board
from .util import act, computer_game, legal, move, new_match, ok, recv_error, recv_state, sync, wait_for

# intergrid I6: White's point Knight E2-C1 encloses the pawn b2 and the Bishop b1 (two captures)
I6 = {"E2": "N", "B0": "Q", "B2": "P", "b2": "p", "b1": "b", "a1": "r", "h8": "k", "h5": "K"}


def test_intergrid_is_offered_with_its_layout(server):
    b = server.browser()
    option = {v["name"]: v for v in ok(b.get("/api/options"))["variants"]}["intergrid"]
    assert option["multi_move"] and not option["reprogrammable"] and not option["setups"]
    assert not option["named_pieces"]  # its pieces are drawn by letter: no /pieces to ask for
    layout = ok(b.get("/api/variants/intergrid/layout"))
    shapes = [c["shape"] for c in layout["cells"]]
    assert (shapes.count("square"), shapes.count("point")) == (64, 81)  # intergrid R1
    cells = {c["name"]: c for c in layout["cells"]}
    assert (cells["a1"]["x"], cells["a1"]["y"]) == (0.5, 0.5) and (cells["I8"]["x"], cells["I8"]["y"]) == (8, 8)
    assert cells["E4"]["size"] < cells["e4"]["size"]


def test_a_two_part_turn_with_an_enclosure_then_a_restart_mid_turn(server, restart):
    fen = board(I6).fen()
    m = new_match(server, accept=False, variant="intergrid", fen=fen, time_control="blitz-3+2")
    assert ok(m.opponent.get(f"/api/invitations/{m.token}"))["title"] == "InterGrid Chess"
    ok(m.opponent.post(f"/api/invitations/{m.token}/accept"))
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        s1, s2 = recv_state(w1)["state"], recv_state(w2)["state"]
        assert s1["variant"] == "intergrid" and s2["legal"] == {}
        assert set(legal(s1)) == {mv.text for mv in Board("intergrid", fen).legal_moves}  # square moves first (R8)
        assert not s1["can_end_turn"] and s1["turn_moves"] == 0
        w2.send_json({"type": "move", "move": "h8g8"})
        assert recv_error(w2) == "it is not your turn"

        after_square = move(w1, [w2], "h5h4")
        own, seen = after_square[0]["state"], after_square[1]["state"]
        assert seen["moves"] == ["h5h4"] and seen["turn"] == 0 and seen["turn_moves"] == 1  # the opponent sees it
        assert own["clock"]["running"] == 0  # the turn is not over
        assert own["can_end_turn"] and all(t[0].isupper() for t in legal(own))  # now the point moves (R8)
        assert sorted(legal(own)["E2C1"]["captures"]) == ["b1", "b2"]  # intergrid I6: both enclosed
        assert legal(own)["E2D4"]["captures"] == []
        w1.send_json({"type": "move", "move": "B0B1"})  # I6: the point Queen is walled in
        assert "illegal" in recv_error(w1).lower()
        w1.send_json({"type": "move", "move": "h4h3"})  # a second square move in one turn
        assert recv_error(w1)

        done = move(w1, [w2], "E2C1")[1]["state"]
        assert "b1" not in done["pieces"] and "b2" not in done["pieces"]
        assert sorted(done["captured"][1]) == ["b", "p"]
        assert done["turn"] == 1 and done["turn_moves"] == 0 and done["clock"]["running"] == 1
        move(w2, [w1], "h8g8")
    server2 = restart(server)  # mid-turn: Black has made the square move only
    p1, p2 = server2.browser(cookies=dict(m.p1.cookies)), server2.browser(cookies=dict(m.p2.cookies))
    assert server2.store.moves(m.id) == ["h5h4", "E2C1", "h8g8"]
    with p1.websocket_connect(f"/ws/games/{m.id}") as w1, p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        s2 = recv_state(w2)["state"]
        recv_state(w1)
        assert s2["turn"] == 1 and s2["turn_moves"] == 1 and s2["can_end_turn"] and s2["fen"].endswith("| h8g8")
        assert all(t[0].isupper() for t in legal(s2))
        ended = move(w2, [w1], "end")[1]["state"]
        assert ended["turn"] == 0 and ended["clock"]["running"] == 0 and ended["moves"][-1] == "end"
        assert ended["move_plies"] == [0, 0, 1, 1]  # two turns of two moves each
        act(w1, [w2], {"type": "resign"})
        final = sync(w2)["state"]
        assert (final["status"], final["result"]) == ("finished", "0-1")
    assert server2.store.moves(m.id) == ["h5h4", "E2C1", "h8g8", "end"]


def test_a_game_ends_in_checkmate_when_the_turn_ends(server):
    """intergrid R7: check and mate are judged at the end of the turn (after `end`)."""
    m = new_match(server, variant="intergrid", fen=board({"c7": "Q", "b6": "K", "a8": "k"}).fen())
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        assert move(w1, [w2], "c7b7")[1]["state"]["status"] == "active"
        final = move(w1, [w2], "end")[1]["state"]
        assert (final["status"], final["result"], final["termination"]) == ("finished", "1-0", "checkmate")
        assert final["reason"] == "Checkmate — Player 1 wins" and final["legal"] == {}
        w2.send_json({"type": "move", "move": "a8a7"})
        assert recv_error(w2) == "the game is not in progress"
    record = m.p1.get(f"/api/games/{m.id}/record")  # readable: a turn on one line, its mark at its end
    assert record.status_code == 200 and "\n1. Qb7# 1-0" in record.text, record.text
    assert Game.parse(record.text).board.is_checkmate()  # the record reads back to the same mate
    machine = m.p1.get(f"/api/games/{m.id}/record?notation=coordinates")
    assert "\n1. c7b7 1-0" in machine.text, machine.text  # a turn is its moves
    assert Game.parse(machine.text).board.is_checkmate()
    assert m.p1.get(f"/api/games/{m.id}/record?notation=nonsense").status_code == 400


def test_the_computer_plays_whole_turns(server, threads):
    """intergrid R8 against the computer: after the human's two-part turn it answers with a turn of
    its own (a square move, then a point move or `end`, each through the server's validation)."""
    human, game_id = computer_game(server, variant="intergrid", level=1, time_control="rapid-10+5")
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        move(ws, [], "e2e4")
        move(ws, [], "end")
        s = wait_for(server, game_id, human, lambda st: st["turn"] == 0 and len(st["moves"]) >= 3)
    assert s["turn_moves"] == 0 and s["move_plies"][2:] == [1] * (len(s["moves"]) - 2)
    replay = Board("intergrid")
    for text in s["moves"]:
        replay.push_text(text)  # every stored move legal by the rules
    assert replay.turn == 0 and replay.moves_in_turn == 0 and s["legal"]


def test_every_variant_lists_its_pieces_one_per_letter(server):
    """The board page asks every variant for its pieces (InterGrid's were a 404)."""
    b = server.browser()
    for name in variants.names():
        pieces = b.get(f"/api/variants/{name}/pieces").json()["pieces"]
        letters = [p["letter"] for p in pieces]
        assert len(letters) == len(set(letters)) and "K" in letters, name
