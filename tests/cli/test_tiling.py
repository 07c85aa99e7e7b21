"""The superchess command with Tiling Rider (multi-move turns, aggregate move texts)."""
from __future__ import annotations

from superchess.rules import Board
from tests.cli.helpers import run
from tests.oracles import tiling as T


def test_tilingrider_fen_and_moves_within_a_turn(capsys):
    """tiling 1.1, R11, T10: the start FEN; moves of the turn so far; `@` moves and `end` listed."""
    code, out, _ = run(capsys, "fen", "--variant", "tilingrider")
    assert code == 0 and out.strip() == T.START_FEN
    code, out, _ = run(capsys, "moves", "--variant", "tilingrider", "--moves", "a4a5 c4c5")
    assert code == 0 and out.split() == [m.text for m in Board("tilingrider", T.START_FEN + " | a4a5 c4c5").legal_moves]
    fen = "16kk/16kk/18/18/18/18/18/18/18/2W15/3W14/2WW14/18/18/KK16/KK16 w 3 0 5"  # T10's wazirs
    code, out, _ = run(capsys, "moves", "--variant", "tilingrider", "--fen", fen, "--moves", "c7c6")
    assert code == 0 and "@c5c9" in out.split() and out.split()[-1] == "end"
    code, _, err = run(capsys, "moves", "--variant", "tilingrider", "--moves", "a4a7")
    assert code != 0 and "illegal" in err
