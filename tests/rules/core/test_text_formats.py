"""Position and move texts of the core (issue: text formats): FEN round trips and errors, piece
symbols, move texts and their errors; game records are in tests/rules/game/test_record.py."""
from __future__ import annotations

import random

import pytest

from superchess.rules import Board, FenError, IllegalMoveError
from tests.rules.helpers import board_with

START16 = Board("super16").fen()


@pytest.mark.parametrize("variant", ["super16", "chess"])
def test_fen_round_trip_along_a_random_game(variant):
    rng = random.Random(7)
    b = Board(variant)
    for _ in range(120):
        fen = b.fen()
        assert Board(variant, fen).fen() == fen
        if b.is_game_over():
            break
        b.push(rng.choice(b.legal_moves))


@pytest.mark.parametrize("variant", ["super16", "chess", "superchess", "vanguard", "intergrid", "tilingrider"])
def test_piece_symbols_are_the_pieces_as_text_and_match_the_fen(variant):
    rng = random.Random(3)
    b = Board(variant)
    for _ in range(12):
        symbols = b.piece_symbols()
        assert symbols == {sq: p.symbol() for sq, p in b.pieces().items()}
        if variant in ("super16", "chess"):  # one lattice: the FEN's placement holds the same pieces
            assert Board(variant, b.fen()).piece_symbols() == symbols
        moves = [m for m in b.legal_moves if m.from_cell >= 0]
        if not moves or b.is_game_over():
            break
        b.push(rng.choice(moves))


def test_fen_multi_digit_empty_runs():
    b = board_with({"a1": "K", "p16": "k", "k10": "N"})
    placement = b.fen().split()[0]
    assert placement.split("/")[6] == "10N5" and placement.split("/")[0] == "15k"


@pytest.mark.parametrize("fen,message", [
    ("16/16/16 w - - 0 1", "FEN has 3 ranks, expected 16"),
    (START16.replace("rnbuabsqkibaubnr", "rnbuabsqkibaubnx"), "unknown piece letter 'x'"),
    (START16.replace("rnbuabsqkibaubnr", "rnbuabsqkibaubnrr"), "rank 16 has more than 16 squares"),
    (START16.replace("/16/", "/15/", 1), "rank 14 has 15 squares"),
    (START16.replace(" w ", " x "), "side to move must be 'w' or 'b'"),
    (START16.replace("KQkq", "KQkz"), "bad castling right 'z'"),
    (START16.replace(" - 0 1", " q17 0 1"), "square 'q17' is off the 16x16 board"),
    (START16.replace(" - 0 1", " zz 0 1"), "bad square 'zz'"),
    (START16.replace(" - 0 1", " e3 0 1"), "does not follow a two-square pawn advance"),
    (START16.replace(" 0 1", " -1 1"), "bad half-move clock"),
    (START16.replace(" 0 1", " 0 0"), "bad move number"),
    (START16.rsplit(" ", 1)[0], "6 fields"),
    (START16.replace("rnbuabsqkibaubnr", "rnbuabsqqibaubnr"), "Player 2 must have exactly one King"),
    ("14Pk/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w - - 0 1", "promotion rank"),
    ("16/15k/16/16/16/16/16/16/16/16/16/16/16/16/16/K14R w - - 0 1", "not to move is in check"),
])
def test_fen_errors_are_clear(fen, message):
    with pytest.raises(FenError, match=message):
        Board("super16", fen)


def test_move_text():
    b = Board("super16")
    assert b.parse_move("h2h4").text == "h2h4"
    b = board_with({"a1": "R", "i1": "K", "p1": "R", "i16": "k", "c15": "P"}, castling="KQ")
    assert b.parse_move("i1k1").text == "i1k1"
    assert b.parse_move("c15c16q").promotion == "Q"
    assert b.parse_move("c15c16a").text == "c15c16a"


@pytest.mark.parametrize("text,message", [
    ("h2", "bad move text"),
    ("h2h17", "off the 16x16 board"),
    ("h2h5", "illegal move h2h5"),
    ("h2h4x", "unknown piece letter 'x'"),
    ("h2h4q", "h2h4 is not a promotion"),
])
def test_move_text_errors(text, message):
    with pytest.raises(IllegalMoveError, match=message):
        Board("super16").parse_move(text)
