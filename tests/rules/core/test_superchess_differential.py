"""Superchess against Fairy-Stockfish's rules (pyffish): legal-move sets agree on positions reached
by seeded random play from random set-ups, promotion moves aside (promotion from holdings is ours
alone, superchess R6/R7). The four super pieces are defined for Fairy-Stockfish by their Betza."""
from __future__ import annotations

import random

import pytest

from superchess.rules import Board, get_variant
from superchess.rules.game.setups import random_substitution, substitution_fen

sf = pytest.importorskip("pyffish")

# Fairy-Stockfish reserves `e` for a built-in piece, so its Empress is written `c` here
FS_LETTERS = {"E": "C", "e": "c"}
VARIANTS_INI = """
[superchess:chess]
customPiece1 = a:QN
customPiece2 = c:RN
customPiece3 = s:BN
customPiece4 = v:KN
promotionPieceTypes = qrbncsv
"""
GAMES, PLIES = 30, 60


def fs_fen(board: Board) -> str:
    """Our FEN for Fairy-Stockfish: without the holdings, with its letter for the Empress."""
    placement, rest = board.fen().split(" ", 1)
    placement = placement.split("[")[0]
    return "".join(FS_LETTERS.get(c, c) for c in placement) + " " + rest


def positions():
    rng = random.Random(20261122)
    variant = get_variant("superchess")
    for game in range(GAMES):
        board = Board("superchess", substitution_fen(variant, random_substitution(variant, rng.random())))
        for _ in range(PLIES):
            yield board
            moves = board.legal_moves
            if not moves:
                break
            board.push(rng.choice(moves))


def test_legal_moves_agree_with_fairy_stockfish_on_random_play():
    sf.load_variant_config(VARIANTS_INI)
    compared = checks = 0
    for board in positions():
        fen = fs_fen(board)
        ours = {m.text for m in board.legal_moves if not m.promotion}
        theirs = {m for m in sf.legal_moves("superchess", fen, []) if len(m) == 4}
        # a pawn reaching the last rank is a promotion in both; only ours depends on holdings
        theirs = {m for m in theirs if not _pawn_to_last_rank(board, m)}
        ours = {m for m in ours if not _pawn_to_last_rank(board, m)}
        assert ours == theirs, f"{board.fen()}: only ours {sorted(ours - theirs)}, only theirs {sorted(theirs - ours)}"
        assert board.is_check() == sf.gives_check("superchess", fen, []), board.fen()
        compared += 1
        checks += board.is_check()
    assert compared >= 1000 and checks > 0, (compared, checks)


def _pawn_to_last_rank(board: Board, text: str) -> bool:
    piece = board.piece_at(text[:2])
    return piece is not None and piece.letter == "P" and text[3:] == ("8" if piece.side == 0 else "1")
