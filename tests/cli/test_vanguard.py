"""The superchess command on Vanguard: start FEN, legal moves after moves, perft 2 (V1: 108 x 108)."""
from __future__ import annotations

from superchess.rules import Board
from tests.cli.helpers import run


def test_vanguard_fen_moves_and_perft(capsys):
    code, out, _ = run(capsys, "fen", "--variant", "vanguard")
    assert code == 0 and out.strip() == Board("vanguard").fen()
    code, out, _ = run(capsys, "moves", "--variant", "vanguard", "--moves", "c2d4", "n15m13")
    b = Board("vanguard")
    b.push_text("c2d4")
    b.push_text("n15m13")
    assert code == 0 and out.split() == [m.text for m in b.legal_moves]
    code, out, _ = run(capsys, "perft", "--variant", "vanguard", "--depth", "2")
    assert code == 0 and out.split()[-1] == str(108 * 108)  # V1: no White move changes Black's 108


def test_vanguard_illegal_move_is_a_one_line_error(capsys):
    code, _, err = run(capsys, "moves", "--variant", "vanguard", "--moves", "c2c9")
    assert code != 0 and "illegal move c2c9" in err
