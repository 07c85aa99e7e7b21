"""The Tiling Rider turn search (engine/tiling_search.py): a turn searched as a sequence of moves (beam
search), and `UCI_Variant tilingrider` answering the next move of its turn."""
from __future__ import annotations

import random

from superchess.engine.play import choose_move
from superchess.engine.tiling_search import best_turn, board_after
from superchess.rules import Board, Piece
from superchess.rules.turns import END_TURN
from tests.engine.test_uci import uci  # noqa: F401 - the UCI conversation fixture
from tests.rules import tiling_reference as T
from tests.rules.test_tiling import position


def board(pieces: dict[str, str], **kw) -> Board:
    return Board("tilingrider", T.text(position(pieces, **kw)))


def test_forms_an_aggregate_then_captures_a_whole_unit():
    """tiling T10, R10, R6: c7c6 forms the Rook c5-d6, which then takes all four Guards on c9-d10."""
    b = board({"c5": "W", "d5": "W", "d6": "W", "c7": "W", "c9": "g", "c10": "g", "d9": "g", "d10": "g"},
              allowance="3")
    result = best_turn(b, movetime_ms=None)
    assert result.moves[:2] == ["c7c6", "@c5c9"]
    for text in result.moves:  # the line is a legal turn, move by move
        b.push_text(text)
    if b.moves_in_turn:
        b.push_text(END_TURN)
    assert b.turn == 1 and Piece("G", 1) not in b.pieces().values()


def test_in_check_the_line_ends_safe():
    """tiling T9: the only legal turn is the King's step to g1-h2."""
    result = best_turn(board({"k4": "n"}), movetime_ms=None)
    assert result.moves == ["i1g1"]


def test_uci_plays_a_turn_move_by_move(uci):  # noqa: F811
    """UCI_Variant tilingrider: each `go` answers the next move of the turn (R12: `end` included),
    always legal; four answers complete White's exact first turn (R11)."""
    uci.send("setoption name UCI_Variant value tilingrider")
    played: list[str] = []
    b = Board("tilingrider")
    while b.turn == 0:
        uci.send("position startpos moves " + " ".join(played))
        uci.send("go movetime 300")
        move = uci.until("bestmove")[-1].split()[1]
        assert move in {m.text for m in b.legal_moves}
        b.push_text(move)
        played.append(move)
    assert len(played) == 4
    assert uci.close() == 0


def test_the_server_replay_reaches_the_same_position_as_the_board_and_the_computer_moves_legally():
    """board_after (what choose_move replays a game with) against pushing every move on the Board:
    the same position text, through the exact opening turns (R11, R13), turns ended
    by `end` and turns ended by their last allowed move (4.1)."""
    rng = random.Random(9)
    b = Board("tilingrider")
    while b.fullmove_number < 4:
        b.push(rng.choice(b.legal_moves))
        if len(b.move_stack) % 5 == 0 or not b.moves_in_turn:  # mid-turn (slow in exact turns) and at turn ends
            assert board_after(None, [m.text for m in b.move_stack]).fen() == b.fen()
    mid = Board("tilingrider", b.fen())  # a start position with an unfinished turn in it
    text = choose_move("tilingrider", b.fen(), [], None, 1, 10_000, 0)
    assert text in {m.text for m in mid.legal_moves}
    mid.push_text(text)
    assert board_after(b.fen(), [text]).fen() == mid.fen()
