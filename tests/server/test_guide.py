"""The piece guide (`GET /api/games/{id}/guide`) and a piece's reach (`.../reach/{square}`): diagrams
from the rules' own movement on an empty board, programs as each viewer may see them (a Private
opponent's stays secret, super16 R13-R17), the rules a diagram cannot show."""
from __future__ import annotations

from superchess.rules import Board, Roster
from superchess.rules.game.preview import empty_board_destinations

from .util import act, http_state, move, new_match, ok, recv_state

KNIGHT_03 = {"N": {"mode": "jump", "vectors": [[0, 3]]}}


def pieces_of(guide):
    return {p["letter"]: p for p in guide["pieces"]}


def test_each_diagram_is_the_rules_destinations_from_the_centre_of_an_empty_board(server):
    m = new_match(server, variant="super16")
    guide = ok(m.p1.get(f"/api/games/{m.id}/guide"))
    assert guide["origin"] == "h8" and guide["files"] == 16
    variant = Board("super16").variant
    geo = variant.geometry
    pieces = pieces_of(guide)
    assert set(pieces) == {"K", "Q", "I", "S", "R", "B", "N", "A", "U", "F", "P"}
    for letter, piece in pieces.items():
        expected = {geo.name(c) for c in empty_board_destinations(variant, Roster(), letter, geo.parse_cell("h8"))}
        assert set(piece["destinations"]) == expected, letter
    assert pieces["U"]["name"].lower() == "super knight"
    assert set(pieces["U"]["destinations"]) == {"g10", "i10", "f9", "j9", "f7", "j7", "g6", "i6",   # (1,2)
                                                "g12", "i12", "d9", "l9", "d7", "l7", "g4", "i4"}  # (1,4)
    assert any("Fortress rule" in n for n in guide["notes"])
    assert pieces["U"]["sides"] == [None, None]  # default programs


def test_a_private_opponents_program_stays_secret_until_the_end(server):
    m = new_match(server, variant="super16", mode="private")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1, m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w1), recv_state(w2)
        act(w1, [w2], {"type": "submit_roster", "roster": KNIGHT_03})
        act(w2, [w1], {"type": "submit_roster", "roster": KNIGHT_03})
        mine = pieces_of(ok(m.p1.get(f"/api/games/{m.id}/guide")))["N"]["sides"]
        assert mine[0] == {"program": KNIGHT_03["N"], "destinations": ["h11"]} and mine[1] == "secret"
        theirs = pieces_of(ok(server.browser().get(f"/api/games/{m.id}/guide")))["N"]["sides"]
        assert theirs == ["secret", "secret"]  # a watcher sees neither
        assert ok(m.p1.get(f"/api/games/{m.id}/reach/b16")) == {"square": "b16", "piece": "n", "secret": True,
                                                                "destinations": []}
        assert ok(m.p1.get(f"/api/games/{m.id}/reach/b1"))["destinations"] == ["b4"]  # own program
        move(w1, [w2], "b1b4")
        move(w2, [w1], "b16b13")
        act(w2, [w1], {"type": "resign"})
    ended = pieces_of(ok(m.p1.get(f"/api/games/{m.id}/guide")))["N"]["sides"]
    assert ended[1] == {"program": KNIGHT_03["N"], "destinations": ["h11"]}
    assert http_state(m.p1, m.id)["status"] == "finished"


def test_reach_is_where_a_piece_could_move_on_its_sides_turn_and_bad_squares_are_refused(server):
    m = new_match(server, variant="chess")
    watcher = server.browser()
    assert ok(watcher.get(f"/api/games/{m.id}/reach/g8")) == {"square": "g8", "piece": "n", "secret": False,
                                                              "destinations": ["f6", "h6"]}
    assert ok(watcher.get(f"/api/games/{m.id}/reach/e2"))["destinations"] == ["e3", "e4"]
    for square, words in (("e4", "no piece on e4"), ("z9", "off the 8x8 board"), ("E2", "bad square")):
        r = watcher.get(f"/api/games/{m.id}/reach/{square}")
        assert r.status_code == 400 and words in r.json()["detail"], square
    assert watcher.get("/api/games/nope/guide").status_code == 404


def test_every_family_has_diagrams_and_either_sides_pieces_have_a_reach(server):
    """Issue 23: Vanguard, InterGrid and Tiling Rider diagrams from the board contract's
    `lone_piece_reach` (tests/rules/test_lone_piece_reach.py checks it against the rules' moves), and
    a piece of the side not to move lights where it could go on its side's turn."""
    for variant, origin, theirs, reach in (("vanguard", "h8", "b15", ["a12", "a13", "c12", "c13"]),
                                           ("intergrid", "d4", "e7", ["e5", "e6"]),
                                           ("tilingrider", "i8", "a13", ["a12", "b12"])):
        m = new_match(server, variant=variant)
        guide = ok(m.p1.get(f"/api/games/{m.id}/guide"))
        assert guide["origin"] == origin
        board = Board(variant)
        for letter, piece in pieces_of(guide).items():
            assert piece["destinations"] and piece["destinations"] == board.lone_piece_reach(letter, origin), letter
        assert ok(m.p1.get(f"/api/games/{m.id}/reach/{theirs}"))["destinations"] == reach, variant
    assert pieces_of(guide)["K"]["destinations"][:4] == ["i5", "j5", "i6", "j6"]  # the giant King: whole units
    m = new_match(server, variant="intergrid")  # a point piece: its moves after the square move (R8)
    for point, reach in (("B7", ["A5", "C5", "D8"]), ("B1", ["A3", "C3", "D0"])):
        assert ok(m.p1.get(f"/api/games/{m.id}/reach/{point}"))["destinations"] == reach
