"""InterGrid Chess through the public Board API (`Board("intergrid")`, ../shared/rules/intergrid.md):
worked examples I1-I9 and rulings as turns of square move + point move / `end`, records, FEN, and a
seeded random-play differential test against the oracle (tests/oracles/intergrid.py)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from superchess.rules import Board, IllegalMoveError, Piece, Termination
from superchess.rules.core.turns import END_TURN
from superchess.rules.game.record import Game
from tests.oracles import intergrid as ig
from tests.rules.intergrid.helpers import board


def texts(b: Board) -> set[str]:
    return {m.text for m in b.legal_moves}


def dests(b: Board, origin: str) -> set[str]:
    return {m.text[2:4] for m in b.legal_moves if m.text[:2] == origin}


def captured(b: Board, text: str) -> dict[str, str]:
    return {name: p.symbol() for name, p in b.captures(b.parse_move(text))}


# =========================================================================== worked examples

def test_i1_rook_and_point_barrier():
    """intergrid I1."""
    b = board({"a3": "R", "B2": "P", "D2": "Q", "D3": "p", "h8": "k", "h5": "K"})
    assert dests(b, "a3") == {"b3", "c3", "a2", "a1", "a4", "a5", "a6", "a7", "a8"}


def test_i2_point_rook_and_square_barriers():
    """intergrid I2: the point Rook's moves are offered after Black's square move."""
    b = board({"A2": "r", "a2": "B", "c2": "r", "c3": "k", "h7": "p", "h1": "K"}, side="b")
    b.push_text("h7h6")
    assert dests(b, "A2") == {"B2", "C2", "A3", "A4", "A5", "A6", "A7", "A8"}


def test_i3_point_bishop_and_no_passive_capture():
    """intergrid I3 (R4: E2 between d2 and e3 is not captured)."""
    b = board({"D3": "b", "b2": "R", "d2": "Q", "e3": "R", "A0": "B", "G0": "r", "a8": "k",
               "h7": "p", "h1": "K"}, side="b")
    b.push_text("h7h6")
    assert dests(b, "D3") == {"C2", "E2", "F1", "C4", "B5", "A6", "E4", "F5", "G6", "H7", "I8"}
    assert captured(b, "D3E2") == {}
    b.push_text("D3E2")
    assert b.piece_at("E2") == Piece("B", 1) and b.turn == 0


def test_i4_displacement_and_enclosure_in_one_move():
    """intergrid I4: captures lists both the displaced Knight and the enclosed Bishop."""
    b = board({"b2": "Q", "e3": "R", "d2": "n", "E2": "b", "h8": "k", "h5": "K"})
    assert captured(b, "b2d2") == {"d2": "n", "E2": "b"}
    b.push_text("b2d2")
    assert b.piece_at("d2") == Piece("Q", 0) and b.piece_at("E2") is None


def test_i5_edge_rule_and_enclosure():
    """intergrid I5."""
    b = board({"b6": "N", "b3": "R", "A4": "p", "B3": "r", "h8": "k", "h5": "K"})
    assert captured(b, "b6a4") == {"A4": "p", "B3": "r"}


def test_i6_point_knight_encloses_two_and_queen_walled_in():
    """intergrid I6: the point move of White's turn takes two square-pieces; Q B0 has no move."""
    b = board({"E2": "N", "B0": "Q", "B2": "P", "b2": "p", "b1": "b", "a1": "r", "h8": "k", "h5": "K"})
    b.push_text("h5h4")
    assert captured(b, "E2C1") == {"b2": "p", "b1": "b"}
    assert dests(b, "B0") == set()
    b.push_text("E2C1")
    assert b.piece_at("b2") is None and b.piece_at("b1") is None and b.turn == 1


def test_i7_pin_across_layers():
    """intergrid I7: d3d4 would let the Bishop enclose e1 with E0 at the end of the turn."""
    b = board({"d3": "P", "e1": "K", "D3": "b", "E0": "q", "h8": "k"})
    assert not b.is_check()
    assert texts(b) == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}
    with pytest.raises(IllegalMoveError):
        b.push_text("d3d4")


def test_i8_initial_position():
    """intergrid I8: 8 square moves; after b1a3, 23 point moves and the end of the turn = 24 turns."""
    b = Board("intergrid")
    assert b.fen() == ig.START_FEN
    assert texts(b) == {"b1a3", "b1c3", "g1f3", "g1h3", "d2d3", "d2d4", "e2e3", "e2e4"}
    b.push_text("b1a3")
    after = [m.text for m in b.legal_moves]
    assert len(after) == 24 and after[-1] == END_TURN
    assert "A2A3" not in after and "A2A4" not in after


@pytest.mark.parametrize("d0", ["N", "n", None])
def test_i9_castling_blocked_by_point_barrier(d0):
    """intergrid I9 (R10): with D0 and D1 occupied the King's step d1-c1 is barred."""
    pieces = {"d1": "K", "a1": "R", "h8": "k", "D1": "N"}
    if d0:
        pieces["D0"] = d0
    b = board(pieces, castling="Q")
    assert ("d1b1" in texts(b)) == (d0 is None)


# =========================================================================== rulings

def test_r7_square_move_may_expose_king_if_point_move_repairs():
    """intergrid R7: d2a2 opens the d-file; only F2E4 (closing D4-E4) makes the turn legal."""
    b = board({"d1": "K", "d2": "R", "d8": "r", "h8": "k", "D4": "P", "F2": "N"})
    b.push_text("d2a2")
    assert b.is_check()  # within the turn the King may stand attacked
    assert END_TURN not in texts(b) and texts(b) == {"F2E4"}
    b.push_text("F2E4")
    assert b.turn == 1 and b.outcome() is None


def test_r7_king_captured_within_a_turn_wins():
    """intergrid R7: the square move opens E1-E4 for the point Rook, which encloses d5 with D5."""
    b = board({"h1": "K", "d2": "P", "e2": "N", "E1": "R", "D5": "N", "d5": "k"})
    assert not b.is_check()
    b.push_text("e2c3")
    assert captured(b, "E1E4") == {"d5": "k"}
    b.push_text("E1E4")
    assert b.outcome().termination is Termination.KING_CAPTURED and b.outcome().winner == 0
    assert b.legal_moves == []


def test_r8_square_move_first_point_move_optional_then_turn_passes():
    """intergrid R8."""
    b = Board("intergrid")
    assert all(m.text[0].islower() for m in b.legal_moves)  # no point move, no `end` at a turn start
    b.push_text("e2e4")
    assert b.turn == 0 and b.moves_in_turn == 1
    *points, end = b.legal_moves
    assert all(m.text[0].isupper() for m in points) and end.text == END_TURN
    b.push_text("G1E2")  # the point move ends the turn by itself
    assert b.turn == 1 and b.moves_in_turn == 0
    b.push_text("e7e5")
    b.push_text(END_TURN)
    assert b.turn == 0 and b.fullmove_number == 2


def test_r9_point_pawn_double_step_en_passant_and_promotion():
    """intergrid R9: en passant within the point layer; promotion on the far line to a point piece."""
    b = board({"h1": "K", "a8": "k", "a7": "p", "D2": "P", "E4": "p", "G7": "P"})
    b.push_text("h1g1")
    b.push_text("D2D4")
    assert b.fen().split()[4] == "D3"
    b.push_text("a7a6")
    assert captured(b, "E4D3") == {"D4": "P"}
    b.push_text("E4D3")
    b.push_text("g1h1")
    assert {"G7G8Q", "G7G8R", "G7G8B", "G7G8N"} <= texts(b)
    assert b.parse_move("G7G8") == b.parse_move("G7G8Q")  # without a letter: the Queen
    b.push_text("G7G8N")
    assert b.piece_at("G8") == Piece("N", 0)


def test_r12_castling_king_and_rook_both_capture():
    """intergrid R12: King on b1 takes C0 by the edge rule, Rook on c1 encloses D1 with d2."""
    b = board({"d1": "K", "a1": "R", "d2": "P", "C0": "n", "D1": "n", "h8": "k"}, castling="Q")
    assert captured(b, "d1b1") == {"C0": "n", "D1": "n"}
    b.push_text("d1b1")
    b.push_text(END_TURN)
    assert b.piece_at("c1") == Piece("R", 0) and b.fen().split()[3] == "-"


def test_r13_promotion_arrival_captures():
    """intergrid R13: the promoted Queen on b8 takes C8 by the edge rule."""
    b = board({"b7": "P", "C8": "n", "a1": "K", "h1": "k"})
    assert captured(b, "b7b8q") == {"C8": "n"}
    assert {e[0]: e[2] for e in b.effects(b.parse_move("b7b8q"))}["b8"] == Piece("Q", 0)


def test_r14_draws_are_automatic_at_turn_starts():
    """intergrid R14: 50 turns each (the clock counts turns), threefold repetition, dead material."""
    assert board({"a1": "K", "h8": "k"}).outcome().termination is Termination.INSUFFICIENT_MATERIAL
    b = Board("intergrid", ig.fen(ig.position({"a1": "K", "b1": "R", "h8": "k"}, halfmove=99)))
    assert b.outcome() is None
    b.push_text("b1b2")
    assert b.outcome() is None  # mid-turn
    b.push_text(END_TURN)
    assert b.halfmove_clock == 100 and b.outcome().termination is Termination.MOVE_RULE
    b = Board("intergrid")
    for text in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        assert b.outcome() is None
        b.push_turn(text)
    assert b.repetition_count() == 3 and b.outcome().termination is Termination.REPETITION
    assert b.outcome().winner is None


def test_checkmate_and_stalemate_through_the_board():
    """intergrid 5 and R8: mate by a square Queen; a player with no square move has no turn."""
    b = board({"a8": "k", "b7": "Q", "b6": "K"}, side="b")
    assert b.is_check() and b.is_checkmate() and not b.is_stalemate()
    assert b.outcome().termination is Termination.CHECKMATE and b.outcome().winner == 0
    b = board({"a1": "K", "A1": "N", "B1": "N", "B0": "N", "h8": "k"})  # point moves exist, no square move
    assert b.legal_moves == [] and b.is_stalemate()
    assert b.outcome().termination is Termination.STALEMATE


def test_check_by_enclosure():
    """intergrid 5: the point Rook can reach E1 while the Queen on D0 is the partner across d1."""
    b = board({"d1": "K", "A1": "r", "D0": "q", "h8": "k", "D2": "P"})
    assert b.is_check() and b.is_attacked_by(1, "d1")


# =========================================================================== text, records, stack

def test_mid_turn_fen_round_trip_and_pop_restores():
    """intergrid R15: mid-turn the text is the turn's start position, ` | ` and the moves so far."""
    b = Board("intergrid")
    b.push_text("e2e4")
    text = b.fen()
    assert text == ig.START_FEN + " | e2e4"
    again = Board("intergrid", text)
    assert again.fen() == text and again.move_stack == [] and texts(again) == texts(b)
    b.push_text("G1E2")
    b.pop()
    assert b.fen() == text
    b.pop()
    assert b.fen() == ig.START_FEN


def test_record_writes_turns_and_reimports():
    """intergrid R15: a turn is its square move and optional point move."""
    g = Game("intergrid")
    for text in ("e2e4", "G1E2", "e7e5", END_TURN, "g1f3", "B1C3", "b8c6"):
        g.play(text)
    record = g.export()
    assert "1. e2e4 G1E2 e7e5 2. g1f3 B1C3 b8c6" in record
    again = Game.parse(record)
    assert again.board.turn_texts() == g.board.turn_texts()
    g.play(END_TURN)  # the record's last turn ends where the text does
    assert again.board.fen() == g.board.fen()


def test_bad_texts():
    b = Board("intergrid")
    for text in ("e2e5", "E2E3", "end", "x", "e2e4 G1E2"):
        with pytest.raises(IllegalMoveError):
            b.push_text(text)
    with pytest.raises(ValueError):
        Board("intergrid", "8/8 w")


# =========================================================================== differential, properties

def _board_turns(b: Board) -> set[str]:
    """Every legal whole turn, enumerated through legal_moves/push/pop."""
    out = set()
    for sq_move in b.legal_moves:
        b.push(sq_move)
        for pt_move in b.legal_moves:
            out.add(sq_move.text if pt_move.text == END_TURN else f"{sq_move.text} {pt_move.text}")
        b.pop()
    return out


@pytest.mark.parametrize("seed", range(4))
def test_random_play_matches_reference(seed):
    """Seeded random play: the same legal turns as intergrid.legal_turns, the same positions, every
    move text parses back to its move, and no legal turn ends with the mover's King attacked (R7)."""
    rng = random.Random(seed)
    b = Board("intergrid")
    state = ig.start()
    for _ in range(30):
        assert b.fen() == ig.fen(state)
        reference = {t.text() for t in ig.legal_turns(state)}
        assert _board_turns(b) == reference
        if not reference:
            break
        for mv in b.legal_moves:
            assert b.parse_move(mv.text) == mv
        turn = rng.choice(sorted(reference))
        mover = b.turn
        b.push_turn(turn)
        state = ig.apply(state, ig.parse_turn(state, turn))
        if b.king(1 - mover) is not None:
            assert not b.is_attacked_by(1 - mover, b.king(mover))
    assert b.fen() == ig.fen(state)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 40))
def test_any_position_round_trips_through_its_text(seed, moves):
    """intergrid R15, R7: after random moves (mid-turn too) the FEN rebuilds the same position with
    the same legal moves, pop restores every earlier FEN, and finished turns leave the King safe."""
    rng = random.Random(seed)
    b = Board("intergrid")
    fens = []
    for _ in range(moves):
        if not b.legal_moves:
            break
        fens.append(b.fen())
        mover = b.turn
        b.push(rng.choice(b.legal_moves))
        if b.turn != mover and b.king(b.turn) is not None:
            assert not b.is_attacked_by(b.turn, b.king(mover))
    again = Board("intergrid", b.fen())
    assert again.fen() == b.fen() and again.legal_moves == b.legal_moves
    while fens:
        b.pop()
        assert b.fen() == fens.pop()
