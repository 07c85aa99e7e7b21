"""FEN, move text and game records (issue: text formats)."""
from __future__ import annotations

import random

import pytest

from superchess.rules import Board, FenError, IllegalMoveError, Program, Roster, Termination
from superchess.rules.game.record import Game, RecordError

from .helpers import board_with

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


def _random_game(variant, seed, plies, rosters=None, fen=None):
    rng = random.Random(seed)
    g = Game(variant, fen, rosters)
    for _ in range(plies):
        if g.outcome:
            break
        g.play(rng.choice(g.board.legal_moves).text)
    return g


def test_record_round_trip_default_array():
    g = _random_game("super16", 3, 60)
    g.resign(1)
    text = g.export()
    assert '[Variant "super16"]' in text and "[FEN" not in text and "Roster" not in text
    assert '[Result "1-0"]' in text and '[Termination "resignation"]' in text
    h = Game.parse(text)
    assert [m.text for m in h.board.move_stack] == [m.text for m in g.board.move_stack]
    assert h.board.fen() == g.board.fen() and h.outcome == g.outcome
    assert h.export() == text


def test_record_round_trip_with_fen_and_rosters():
    r1 = Roster({"N": Program("jump", ((0, 3), (1, 1)))})
    r2 = Roster({"Q": Program("step", ((0, 4), (2, 4)))})
    fen = board_with({"a1": "K", "p16": "k", "h8": "N", "h12": "q", "c4": "P"}, side="b").fen()
    g = _random_game("super16", 5, 30, (r1, r2), fen)
    text = g.export()
    assert f'[FEN "{fen}"]' in text and '[SetUp "1"]' in text
    assert '[Roster1 "N:jump:0,3/1,1"]' in text and '[Roster2 "Q:step:0,4/2,4"]' in text
    assert text.split("\n\n")[1].startswith("1...")  # Player 2 moved first
    h = Game.parse(text)
    assert h.board.rosters == g.board.rosters and h.board.fen() == g.board.fen()
    assert h.export() == text


def test_record_of_a_finished_game_keeps_its_termination():
    g = Game("super16")
    for text in ["b1a3", "b16a14", "a3b1", "a14b16"] * 2:
        g.play(text)
    assert g.outcome.termination is Termination.REPETITION
    h = Game.parse(g.export())
    assert h.outcome == g.outcome and h.result() == "1/2-1/2"


def test_chess_record_round_trip_with_claimed_draw():
    g = Game("chess")
    for text in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]:
        g.play(text)
    g.claim_draw()  # Black's f6g8 would repeat the start a third time
    assert g.outcome.claimed and g.outcome.termination is Termination.REPETITION
    h = Game.parse(g.export())
    assert h.outcome == g.outcome


@pytest.mark.parametrize("text,message", [
    ('[Variant "super16"]\n\n1. h2h5 *', "move 1: illegal move h2h5"),
    ('[Variant "nope"]\n\n*', "unknown variant"),
    ('[Variant "super16"\n\n*', "bad header"),
    ('[Variant "super16"]\n[Result "1-0"]\n\n1. h2h4 0-1', "differs from the Result header"),
    ('[Variant "super16"]\n[Result "1-0"]\n[Termination "checkmate"]\n\n1. h2h4 1-0', "does not end in checkmate"),
    ('[Variant "super16"]\n[Roster1 "N:jump:0,0"]\n\n*', r"\(0, 0\)"),
])
def test_record_errors(text, message):
    with pytest.raises((RecordError, ValueError), match=message):
        Game.parse(text)


def test_claiming_without_a_claimable_draw_is_refused():
    g = Game("super16")
    with pytest.raises(RecordError, match="no draw can be claimed"):
        g.claim_draw()
    assert g.outcome is None
