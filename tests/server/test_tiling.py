"""Tiling Rider over the server (issue 9, ../shared/rules/tiling-rider.md): the variant is offered
with its layout (units, tiles, the giant King, section 1 and R3), a turn of several moves including
an aggregate move (T10, R6) and a retraction (R12) is played over websockets, the unfinished turn is
the mover's alone until it ends (the opponent then gets the whole turn), the clock passes only when
the turn ends, retracted moves leave the database, and a restart mid-turn resumes mid-turn."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from superchess.engine import choose_move
from superchess.rules import Board
from superchess.rules.tiling import board as tiling_board
from superchess.server.ai import AIPlayers

from ..rules.tiling.helpers import DEAD_END, board
from .util import (act, computer_game, http_state, legal, move, new_match, ok, recv_error, recv_state, sync,
                   wait_for)

# tiling T10 with T6's Black pieces: c7c6 completes the Wazir unit c5-d6, whose aggregate (a Rook,
# R6) then runs to c11-d12 capturing the Ferz c11 and the Knight d12; Black has a Wazir on r10.
PIECES = {"c5": "W", "d5": "W", "d6": "W", "c7": "W", "c11": "f", "d12": "n", "r10": "w"}


def ok_text(response) -> str:
    assert response.status_code == 200, response.text
    return response.text


def test_tilingrider_is_offered_with_units_tiles_and_the_giant_king(server):
    b = server.browser()
    option = {v["name"]: v for v in ok(b.get("/api/options"))["variants"]}["tilingrider"]
    assert option["multi_move"] and (option["files"], option["ranks"]) == (18, 16)  # R1
    layout = ok(b.get("/api/variants/tilingrider/layout"))
    cells = {c["name"]: c for c in layout["cells"]}
    assert len(cells) == 288 and (cells["r16"]["x"], cells["r16"]["y"]) == (17.5, 15.5)
    # tiling T1: units a1-b2 orange, c1-d2 blue, i1-j2 orange, k1-l2 blue; tiles {a1,a2}, {c1,d1}, {i4,j4}
    assert [cells[n]["tint"] for n in ("a1", "b2", "c1", "d2", "i1", "k1")] == [
        "orange", "orange", "blue", "blue", "orange", "blue"]
    tiles = {frozenset(t) for t in layout["tiles"]}
    assert len(tiles) == 144 and {frozenset(p) for p in (("a1", "a2"), ("c1", "d1"), ("i4", "j4"), ("j5", "j6"))} <= tiles
    assert layout["piece_sizes"] == {"K": 2, "k": 2}  # the giant Kings (R4)


def test_the_pieces_are_named_for_the_board_page_drawings(server):
    """Section 1's piece letters, named (the page draws a piece by its name): every letter of the
    start position, and nothing else."""
    info = ok(server.browser().get("/api/variants/tilingrider/pieces"))
    names = {p["letter"]: p["name"] for p in info["pieces"]}
    placement = Board("tilingrider").fen().split()[0]
    assert set(names) == {c.upper() for c in placement if c.isalpha()}
    assert names == {"K": "King", "W": "Wazir", "F": "Ferz", "G": "Guard", "N": "Knight"}
    assert (info["files"], info["ranks"], info["reprogrammable"]) == (18, 16, False)


def test_a_turn_with_a_retraction_and_an_aggregate_move_is_private_until_it_ends(server, restart):
    fen = board(PIECES, allowance="3").fen()
    m = new_match(server, variant="tilingrider", fen=fen, time_control="blitz-3+2")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        s1, s2 = recv_state(w1)["state"], recv_state(w2)["state"]
        assert set(legal(s1)) == {mv.text for mv in Board("tilingrider", fen).legal_moves if mv.text != "end"}
        assert (s1["allowance"], s1["moves_left"], s1["aggregates"]) == (3, 3, [])
        assert s1["pieces"]["i1"] == s1["pieces"]["j2"] == "K"  # the King on its four squares
        w2.send_json({"type": "move", "move": "r10r9"})
        assert recv_error(w2) == "it is not your turn"
        w1.send_json({"type": "retract"})
        assert recv_error(w1) == "no move of this turn to take back"
        w1.send_json({"type": "move", "move": "c7c9"})  # no such Wazir move (T4)
        assert "illegal" in recv_error(w1).lower()

        own, seen = move(w1, [], "c7c6")[0]["state"], recv_state(w2)
        assert own["turn_moves"] == 1 and own["moves_left"] == 2 and own["can_end_turn"]
        assert own["aggregates"] == [{"cells": ["c5", "d5", "c6", "d6"], "piece": "W"}]  # T10: c7c6 completes c5-d6
        assert "event" not in seen  # the opponent hears nothing of the unfinished turn
        assert seen["state"]["pieces"] == s2["pieces"] and seen["state"]["moves"] == [] and seen["state"]["turn_moves"] == 0
        assert seen["state"]["fen"] == fen and seen["state"]["aggregates"] == []
        assert http_state(m.p2, m.id)["pieces"] == s2["pieces"] and http_state(m.p1, m.id)["turn_moves"] == 1
        assert http_state(server.browser(), m.id)["pieces"] == s2["pieces"]  # nor do watchers
        assert "c7c6" not in ok_text(m.p2.get(f"/api/games/{m.id}/record?notation=coordinates"))  # nor does the
        assert "1. " not in ok_text(m.p2.get(f"/api/games/{m.id}/record"))  # record tell, in either form
        assert seen["state"]["notation"] == [] and len(own["notation"]) == 1
        w2.send_json({"type": "retract"})
        assert recv_error(w2) == "it is not your turn"

        back = act(w1, [w2], {"type": "retract"})  # R12: the unfinished turn can be taken back
        assert back[0]["event"] == {"kind": "retract", "move": "c7c6", "side": 0} and "event" not in back[1]
        assert back[0]["state"]["pieces"] == s1["pieces"] and back[0]["state"]["moves_left"] == 3
        assert server.store.moves(m.id) == []

        move(w1, [], "c7c6")
        recv_state(w2)
        aggregate = legal(sync(w1)["state"])["@c5c11"]  # listed from the unit's lower-left square
        assert aggregate["to"] == "c11" and sorted(aggregate["captures"]) == ["c11", "d12"]  # T6
        own = move(w1, [], "@c5c11")[0]["state"]
        recv_state(w2)
        assert own["moves_left"] == 1 and sorted(own["captured"][1]) == ["f", "n"] and own["clock"]["running"] == 0
        assert not any(t.startswith(("c", "d")) for t in legal(own))  # R10: nothing moves after its aggregate move
        assert sync(w2)["state"]["pieces"] == s2["pieces"]

        ended = move(w1, [w2], "end")
        whole = ended[1]
        assert whole["event"]["turn"] == ["c7c6", "@c5c11", "end"]  # the whole turn arrives at once
        assert whole["state"]["moves"] == ["c7c6", "@c5c11", "end"] and whole["state"]["move_plies"] == [8, 8, 8]
        assert [whole["state"]["pieces"].get(sq) for sq in ("c11", "d11", "c12", "d12", "c5")] == ["W"] * 4 + [None]
        assert whole["state"]["turn"] == 1 and whole["state"]["clock"]["running"] == 1
        assert whole["state"]["allowance"] == 3  # two moves made: Black may make up to 3 (4.1, T10)
        move(w2, [], "r10r9")  # Black's unfinished turn, then a restart
        recv_state(w1)
    server2 = restart(server)
    p1, p2 = server2.browser(cookies=dict(m.p1.cookies)), server2.browser(cookies=dict(m.p2.cookies))
    assert server2.store.moves(m.id) == ["c7c6", "@c5c11", "end", "r10r9"]
    with p1.websocket_connect(f"/ws/games/{m.id}") as w1, p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        mine, theirs = recv_state(w2)["state"], recv_state(w1)["state"]
        assert mine["turn_moves"] == 1 and mine["fen"].endswith("| r10r9") and mine["moves_left"] == 2
        assert theirs["turn_moves"] == 0 and "r10" in theirs["pieces"] and theirs["moves"][-1] == "end"
        act(w2, [w1], {"type": "retract"})
        assert server2.store.moves(m.id) == ["c7c6", "@c5c11", "end"]
        move(w2, [], "r10q10")
        assert "event" not in recv_state(w1)
        done = move(w2, [w1], "end")[1]
        assert done["event"]["turn"] == ["r10q10", "end"] and done["state"]["pieces"]["q10"] == "w"
    assert server2.store.moves(m.id) == ["c7c6", "@c5c11", "end", "r10q10", "end"]


def test_the_computer_plays_a_whole_turn_move_by_move(server, threads):  # noqa: F811
    """Against the computer (level 1): after the human's one-move turn (allowance 2, 4.1) the
    computer makes 1 to 2 moves (T10: one more than the opponent's last turn), each validated by
    the server, and its turn arrives whole."""
    fen = board(PIECES, allowance="2").fen()
    human, game_id = computer_game(server, variant="tilingrider", fen=fen, time_control="blitz-3+2",
                                   creator_side=0, level=1)
    with human.websocket_connect(f"/ws/games/{game_id}") as ws:
        recv_state(ws)
        move(ws, [], "c7c6")
        act(ws, [], {"type": "move", "move": "end"})
    done = wait_for(server, game_id, human, lambda s: s["turn"] == 0 and len(s["moves"]) > 2)
    black = done["moves"][2:]
    assert 1 <= len([t for t in black if t != "end"]) <= 2 and done["allowance"] == len(black) - black.count("end") + 1
    replay = Board("tilingrider", fen)
    for text in done["moves"]:
        replay.push_text(text)
    assert replay.fen() == done["fen"]


def test_the_computer_takes_back_a_move_that_leads_nowhere(server, monkeypatch):
    """tiling R12, 4.2: with the rules' search budget spent (as in a long turn in check) the board
    offers every move undecided; the computer's first move k2l2 (played as the old engine could)
    leaves no way out of check, so the computer takes it back through the server's `retract` and
    plays a whole legal turn; the retracted move leaves the database."""
    monkeypatch.setattr(tiling_board, "SEARCH_BUDGET", 0)
    calls: list[list[str]] = []

    def think(variant, start_fen, moves, *args, **kw):
        calls.append(list(moves))
        return "k2l2" if len(calls) == 1 else choose_move(variant, start_fen, moves, *args, **kw)

    server.hub.ai = AIPlayers(server.hub, lambda: ThreadPoolExecutor(1), think=think)
    human, game_id = computer_game(server, variant="tilingrider", fen=DEAD_END, time_control="blitz-3+2",
                                   creator_side=1, level=1)
    done = wait_for(server, game_id, human, lambda s: s["turn"] == 1)
    server.hub.ai.close()
    assert calls[:3] == [[], ["k2l2"], []]  # k2l2 played, then taken back, then the turn
    assert "k2l2" not in done["moves"] and server.store.moves(game_id) == done["moves"]
    monkeypatch.undo()  # the turn judged with the full search
    replay = Board("tilingrider", DEAD_END)
    for text in done["moves"]:
        replay.push_text(text)
    assert replay.fen() == done["fen"] and replay.turn == 1
