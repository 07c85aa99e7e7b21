"""The piece guide's diagrams (issue 23): a board's `lone_piece_reach` (the contract) is where the
rules themselves move that piece when it stands on a board otherwise empty but for the two Kings,
placed out of its way, in every family."""
from __future__ import annotations

from superchess.rules import Board
from tests.rules.diagram.helpers import fen_of
from tests.rules.helpers import board_with
from tests.rules.intergrid.helpers import board as intergrid_board
from tests.rules.tiling.helpers import board as tiling_board


def legal_from(board, square: str) -> set[str]:
    names = board.geometry.names
    """Where the piece on `square` moves (a move that stays, a pass, is no destination)."""
    return {names[m.to_cell] for m in board.legal_moves if m.from_cell >= 0 and names[m.from_cell] == square} - {square}


def letters(variant: str) -> list[str]:
    return list(dict.fromkeys(p.letter for p in Board(variant).variant.pieces))


def test_the_core_family_super16():
    for letter in letters("super16"):
        kings = {"a2": "K", "p3": "k"} if letter != "K" else {"p3": "k"}
        board = board_with({**kings, "h8": letter})
        reach = Board("super16").lone_piece_reach(letter, "h8")
        assert reach and set(reach) == legal_from(board, "h8"), letter
    assert Board("chess").lone_piece_reach("N", "d4") == ["c2", "e2", "b3", "f3", "b5", "f5", "c6", "e6"]


def test_the_diagram_family_vanguard():
    for letter in letters("vanguard"):
        kings = {"a2": "K", "p3": "k"} if letter != "K" else {"p3": "k"}
        board = Board("vanguard", fen_of({**kings, "h8": letter}))
        reach = Board("vanguard").lone_piece_reach(letter, "h8")
        assert reach and set(reach) == legal_from(board, "h8"), letter


def test_intergrid_square_and_point_pieces():
    """intergrid R1: a square piece moves on the squares, a point piece on the points (its moves
    come after the turn's square move, R8)."""
    for letter in letters("intergrid"):
        kings = {"h5": "K", "a8": "k"} if letter != "K" else {"a8": "k"}
        reach = Board("intergrid").lone_piece_reach(letter, "d4")
        assert reach and set(reach) == legal_from(intergrid_board({**kings, "d4": letter}), "d4"), letter
        if letter == "K":
            continue
        board = intergrid_board({"h5": "K", "b8": "k", "E4": letter})
        board.push_text("h5h4")  # the square move: the point moves follow
        reach = Board("intergrid").lone_piece_reach(letter, "E4")
        assert reach and set(reach) == legal_from(board, "E4"), letter


def test_tilingrider_small_pieces_and_the_giant_king():
    """tiling-rider R3-R5: a small piece's steps and elongations; the giant King's steps, each
    destination unit drawn as its four squares."""
    geo = Board("tilingrider").geometry
    for letter in letters("tilingrider"):
        reach = Board("tilingrider").lone_piece_reach(letter, "i8")
        if letter == "K":  # its unit is i7-j8; a move goes by the destination unit's lower-left square
            board = tiling_board({}, kings=("i7", "a15"))
            expected = {geo.names[c] for sq in legal_from(board, "i7") for c in geo.unit_cells[geo.unit_of[geo.parse_cell(sq)]]}
        else:
            expected = legal_from(tiling_board({"i8": letter}, kings=("a1", "q15")), "i8")
        assert reach and set(reach) == expected, letter
