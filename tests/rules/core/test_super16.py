"""Super Chess 16x16 rulings R1-R12 (../shared/rules/super16.md), one test or more per ruling."""
from __future__ import annotations

import pytest

from superchess.rules import Board, FenError, Termination
from superchess.rules.game.record import Game
from tests.rules.helpers import EIGHT, board_with, dests, line_targets

KINGS = {"a2": "K", "p15": "k"}  # out of the way of the pieces under test


# -- R1: the default array ------------------------------------------------------------------
def test_r1_default_array():
    b = Board("super16")
    rank1 = "".join(b.piece_at(f"{chr(97 + f)}1").symbol() for f in range(16))
    rank16 = "".join(b.piece_at(f"{chr(97 + f)}16").symbol() for f in range(16))
    assert rank1 == "RNBUABSQKIBAUBNR"
    assert rank16 == rank1.lower()
    assert b.piece_at("f2").letter == "F" and b.piece_at("l2").letter == "F"
    assert b.piece_at("f15").symbol() == "f" and b.piece_at("l15").symbol() == "f"
    pawns = [s for s, p in b.pieces().items() if p.letter == "P"]
    assert len(pawns) == 28
    assert b.fen() == ("rnbuabsqkibaubnr/pppppfpppppfpppp/16/16/16/16/16/16/16/16/16/16/16/16/"
                       "PPPPPFPPPPPFPPPP/RNBUABSQKIBAUBNR w KQkq - 0 1")
    # Bishops on both colours twice: c1, k1 dark; f1, n1 light
    assert [b.geometry.is_dark(b.cell(s)) for s in ("c1", "k1", "f1", "n1")] == [True, True, False, False]


def test_player1_moves_first_and_players_alternate():
    b = Board("super16")
    assert b.turn == 0
    b.push_text("h2h4")
    assert b.turn == 1
    with pytest.raises(ValueError):
        b.push_text("a2a3")  # not Player 1's turn


# -- movement -------------------------------------------------------------------------------
def test_king_and_fortress_step_one_square_any_direction():
    for letter in "KF":
        pieces = {"h8": letter, "p16": "k"} if letter == "K" else {"h8": "F", **KINGS}
        assert dests(board_with(pieces), "h8") == line_targets("h8", EIGHT)


def test_r2_prince_reaches_the_32_squares_on_the_8_lines_and_jumps():
    assert dests(board_with({"h8": "I", **KINGS}), "h8") == line_targets("h8", EIGHT, 4)
    # surrounded by its own pawns it still jumps to distances 2-4, never onto its own men
    ring = {sq: "P" for sq in line_targets("h8", EIGHT, 1)}
    got = dests(board_with({"h8": "I", **ring, **KINGS}), "h8")
    assert got == line_targets("h8", EIGHT, 4) - line_targets("h8", EIGHT, 1)
    # only the lines: a Knight-offset square within radius 4 is not a target
    assert "i10" not in got


def test_princess_slides_up_to_four_and_is_blocked():
    assert dests(board_with({"h8": "S", **KINGS}), "h8") == line_targets("h8", EIGHT, 4)
    b = board_with({"h8": "S", "h10": "P", "k11": "n", **KINGS})
    got = dests(b, "h8")
    assert "h9" in got and not {"h10", "h11", "h12"} & got  # own piece blocks at distance 2
    assert {"i9", "j10", "k11"} <= got and "l12" not in got  # captures the blocker, stops


def test_archbishop_sixteen_targets_and_lame_path():
    vecs = [(sx * a, sy * b) for a, b in ((4, 3), (2, 3), (3, 4), (3, 2)) for sx in (1, -1) for sy in (1, -1)]
    assert dests(board_with({"h8": "A", **KINGS}), "h8") == line_targets("h8", vecs)
    quadrant = {"l11", "j11", "k12", "k10"}  # the four targets reached over i9, j10, k11
    for blocker in ("i9", "j10", "k11"):  # any of the three diagonal squares, corner included
        for who in ("P", "p"):
            got = dests(board_with({"h8": "A", blocker: who, **KINGS}), "h8")
            assert not quadrant & got, (blocker, who)
            assert len(got) == 12
    # the final square may hold an enemy (captured), never a friend
    assert "l11" in dests(board_with({"h8": "A", "l11": "n", **KINGS}), "h8")
    assert "l11" not in dests(board_with({"h8": "A", "l11": "N", **KINGS}), "h8")


def test_r3_super_knight_jumps_to_the_knight_and_one_four_leaps():
    vecs = [(sx * a, sy * b) for a, b in ((1, 2), (2, 1), (1, 4), (4, 1)) for sx in (1, -1) for sy in (1, -1)]
    ring = {sq: "p" for sq in line_targets("h8", EIGHT, 3)}  # enemies on every line square nearby
    got = dests(board_with({"h8": "U", **ring, **KINGS}), "h8")
    assert got == line_targets("h8", vecs)


def test_rook_bishop_queen_knight():
    orth, diag = EIGHT[:4], EIGHT[4:]
    assert dests(board_with({"h8": "R", **KINGS}), "h8") == line_targets("h8", orth, 15)
    assert dests(board_with({"h8": "B", **KINGS}), "h8") == line_targets("h8", diag, 15)
    assert dests(board_with({"h8": "Q", **KINGS}), "h8") == line_targets("h8", EIGHT, 15)
    knight = [(sx * a, sy * b) for a, b in ((1, 2), (2, 1)) for sx in (1, -1) for sy in (1, -1)]
    assert dests(board_with({"h8": "N", **KINGS}), "h8") == line_targets("h8", knight)


def test_super_pawn_one_or_two_squares_on_every_move_and_diagonal_captures():
    assert dests(board_with({"e5": "P", **KINGS}), "e5") == {"e6", "e7"}
    assert dests(board_with({"e5": "P", "e7": "n", **KINGS}), "e5") == {"e6"}
    assert dests(board_with({"e5": "P", "e6": "n", **KINGS}), "e5") == set()  # never captures straight
    assert dests(board_with({"e5": "P", "d6": "n", "f6": "N", **KINGS}), "e5") == {"e6", "e7", "d6"}
    # Player 2's Super Pawns move down
    assert dests(board_with({"e12": "p", "f11": "R", **KINGS}, side="b"), "e12") == {"e11", "e10", "f11"}


# -- R4: the Fortress rule ------------------------------------------------------------------
def test_r4_non_royal_capture_of_a_garrisoned_piece_destroys_both():
    b = board_with({"a5": "R", "e5": "n", "f6": "f", **KINGS})
    mv = b.parse_move("a5e5")
    assert sorted((sq, p.symbol()) for sq, p in b.captures(mv)) == [("a5", "R"), ("e5", "n")]
    b.push(mv)
    assert b.piece_at("e5") is None and b.piece_at("a5") is None
    assert b.piece_at("f6").symbol() == "f"
    b.pop()
    assert b.piece_at("a5").symbol() == "R" and b.piece_at("e5").symbol() == "n"


@pytest.mark.parametrize("royal", ["Q", "I", "S"])
def test_r4_royal_pieces_capture_garrisoned_pieces_normally(royal):
    b = board_with({"b5": royal, "e5": "n", "f6": "f", **KINGS})
    b.push_text("b5e5")
    assert b.piece_at("e5").symbol() == royal


def test_r4_a_fortress_guards_its_garrison_against_the_king():
    # the King is exempt from destruction, but the Fortress next to its garrison attacks the
    # capture square, so the King can never take a garrisoned piece
    b = board_with({"e4": "K", "e5": "n", "f6": "f", "p16": "k"})
    assert "e5" not in dests(b, "e4")
    b = board_with({"e4": "K", "e5": "n", "p16": "k"})
    assert "e5" in dests(b, "e4")


def test_r4_only_a_fortress_of_the_captured_side_garrisons():
    b = board_with({"a5": "R", "e5": "n", "f6": "F", **KINGS})
    b.push_text("a5e5")
    assert b.piece_at("e5").symbol() == "R"


def test_r4_a_fortress_garrisons_another_fortress_never_itself():
    alone = board_with({"a5": "R", "e5": "f", **KINGS})
    alone.push_text("a5e5")
    assert alone.piece_at("e5").symbol() == "R"
    pair = board_with({"a5": "R", "e5": "f", "f6": "f", **KINGS})
    pair.push_text("a5e5")
    assert pair.piece_at("e5") is None and pair.piece_at("a5") is None


def test_r4_a_fortress_capturing_a_garrisoned_piece_is_destroyed_too():
    b = board_with({"d4": "F", "e5": "n", "f6": "f", **KINGS})
    b.push_text("d4e5")
    assert b.piece_at("e5") is None and b.piece_at("d4") is None


def test_r4_en_passant_garrison_is_judged_at_the_captured_pawns_square():
    # Player 2 double-steps d7->d5 next to a white pawn on e5; the black pawn on d5 is garrisoned
    # by the black Fortress on c6, so the en passant capture destroys the capturer too.
    b = board_with({"e5": "P", "d7": "p", "c6": "f", **KINGS}, side="b")
    b.push_text("d7d5")
    mv = b.parse_move("e5d6")
    assert {sq for sq, _ in b.captures(mv)} == {"d5", "e5"}
    b.push(mv)
    assert b.piece_at("d6") is None and b.piece_at("d5") is None and b.piece_at("e5") is None
    # the landing square's neighbourhood does not matter: d6 is next to the Fortress on c7
    b = board_with({"e5": "P", "d7": "p", "c7": "f", **KINGS}, side="b")
    b.push_text("d7d5")
    b.push_text("e5d6")
    assert b.piece_at("d6").symbol() == "P" and b.piece_at("d5") is None


def test_r4_a_promoting_pawn_that_captures_a_garrisoned_piece_does_not_promote():
    b = board_with({"c15": "P", "d16": "n", "e16": "f", **KINGS})
    to_d16 = [m.text for m in b.legal_moves if m.text.startswith("c15d16")]
    assert to_d16 == ["c15d16"]  # one move, no promotion choice
    b.push_text("c15d16")
    assert b.piece_at("d16") is None and b.piece_at("c15") is None
    # an ungarrisoned capture on the last rank promotes as usual
    b = board_with({"c15": "P", "d16": "n", **KINGS})
    assert len([m for m in b.legal_moves if m.text.startswith("c15d16")]) == 9


def test_r4_mutual_destruction_may_not_expose_the_own_king():
    # The Rook takes the Knight on a5 along rank 5 and would normally keep blocking the a-file;
    # with the Knight garrisoned the Rook vanishes too and the King on a1 would be attacked.
    pieces = {"a1": "K", "a8": "r", "a5": "n", "h5": "R", "p16": "k"}
    assert "h5a5" in {m.text for m in board_with(pieces).legal_moves}
    assert "h5a5" not in {m.text for m in board_with({**pieces, "b6": "f"}).legal_moves}


# -- R5: check is judged without the Fortress rule ------------------------------------------
def test_r5_a_non_royal_attacker_gives_check_even_if_it_would_be_destroyed():
    b = board_with({"e16": "k", "f16": "f", "e1": "R", "a1": "K"}, side="b")
    assert b.is_check()
    # every legal reply deals with the check: after it, the King is not attacked
    for mv in b.legal_moves:
        b.push(mv)
        k = b.king(1)
        assert not b.is_attacked_by(0, k), mv.text
        b.pop()


# -- R6: castling ---------------------------------------------------------------------------
CASTLE = {"a1": "R", "i1": "K", "p1": "R", "a16": "r", "i16": "k", "p16": "r"}


def test_r6_castling_both_ways_for_both_players():
    b = board_with(CASTLE, castling="KQkq")
    assert {"i1k1", "i1g1"} <= {m.text for m in b.legal_moves}
    b.push_text("i1k1")
    assert b.piece_at("k1").letter == "K" and b.piece_at("j1").letter == "R" and b.piece_at("p1") is None
    b.push_text("i16g16")
    assert b.piece_at("g16").symbol() == "k" and b.piece_at("h16").symbol() == "r" and b.piece_at("a16") is None
    assert b.fen().split()[2] == "-"
    b.pop()
    b.pop()
    b.push_text("i1g1")
    assert b.piece_at("g1").letter == "K" and b.piece_at("h1").letter == "R" and b.piece_at("a1") is None
    assert b.fen().split()[2] == "kq"


def test_r6_castling_needs_empty_squares_and_safe_king_path():
    def castles(extra, side="w"):
        b = board_with({**CASTLE, **extra}, castling="KQkq", side=side)
        return {m.text for m in b.legal_moves} & {"i1k1", "i1g1"}

    assert castles({"m1": "N"}) == {"i1g1"}     # a piece anywhere between King and Rook
    assert castles({"b1": "n"}) == {"i1k1"}
    assert castles({"j8": "r"}) == {"i1g1"}     # the crossed square is attacked
    assert castles({"k8": "r"}) == {"i1g1"}     # the landing square is attacked
    assert castles({"i8": "r"}) == set()        # in check
    assert castles({"b8": "r"}) == {"i1k1", "i1g1"}  # b1 is not on the King's path


def test_r6_castling_rights_are_lost_when_king_or_rook_moves():
    b = board_with(CASTLE, castling="KQkq")
    b.push_text("p1p2")
    assert b.fen().split()[2] == "Qkq"
    b.push_text("i16i15")
    assert b.fen().split()[2] == "Q"
    b.push_text("p2p1")
    b.push_text("i15i16")
    assert "i1k1" not in {m.text for m in b.legal_moves}


def test_r6_castling_right_needs_king_and_rook_in_place():
    with pytest.raises(FenError, match="Rook on p1"):
        board_with({"i1": "K", "i16": "k"}, castling="K")


# -- R7: en passant after any two-square advance --------------------------------------------
def test_r7_en_passant_after_a_double_step_from_any_rank():
    b = board_with({"e5": "P", "d7": "p", **KINGS})
    b.push_text("e5e7")  # a two-square advance from the fifth rank
    assert b.ep_square == "e6"
    assert "d7e6" in {m.text for m in b.legal_moves}
    b.push_text("d7e6")
    assert b.piece_at("e7") is None and b.piece_at("e6").symbol() == "p"


def test_r7_en_passant_only_on_the_very_next_move():
    b = board_with({"e5": "P", "d7": "p", "h10": "n", **KINGS})
    b.push_text("e5e7")
    b.push_text("h10g8")
    b.push_text("a2a3")
    assert "d7e6" not in {m.text for m in b.legal_moves}


# -- R8: promotion --------------------------------------------------------------------------
def test_r8_promotion_to_any_type_but_king_and_pawn_queen_by_default():
    b = board_with({"c14": "P", **KINGS})
    promos = sorted(m.text[-1] for m in b.legal_moves if m.text.startswith("c14c16"))
    assert promos == sorted("qrbnisauf")
    assert not [m for m in b.legal_moves if m.text == "c14c15"][0].promotion  # rank 15: no promotion
    assert b.parse_move("c14c16").promotion == "Q"
    b.push_text("c14c16u")
    assert b.piece_at("c16").symbol() == "U"
    b.pop()
    with pytest.raises(ValueError):
        b.push_text("c14c16k")


def test_r8_player2_promotes_on_rank_1():
    b = board_with({"e2": "p", "a16": "K", "p9": "k"}, side="b")
    assert {m.text for m in b.legal_moves if m.from_cell == b.cell("e2")} >= {"e2e1q", "e2e1f"}


# -- check, checkmate, stalemate ------------------------------------------------------------
def test_checkmate_of_the_king_wins():
    b = board_with({"a16": "k", "a15": "p", "b15": "p", "e1": "R", "i1": "K"})
    b.push_text("e1e16")
    assert b.is_check() and b.is_checkmate()
    out = b.outcome()
    assert out.termination is Termination.CHECKMATE and out.winner == 0 and out.result() == "1-0"


def test_capturing_queen_prince_or_princess_does_not_end_the_game():
    b = board_with({"a5": "R", "e5": "q", "e9": "i", "e13": "s", "i1": "K", "i16": "k"})
    for text in ("a5e5", "i16i15", "e5e9", "i15i16", "e9e13"):
        b.push_text(text)
    assert b.outcome() is None


def test_only_the_king_can_be_checked():
    b = board_with({"e1": "R", "e16": "q", "i1": "K", "p9": "k"}, side="b")
    assert not b.is_check()


def test_stalemate_is_a_draw():
    b = board_with({"a16": "k", "c15": "Q", "i1": "K"}, side="b")
    assert not b.is_check() and b.is_stalemate()
    out = b.outcome()
    assert out.termination is Termination.STALEMATE and out.result() == "1/2-1/2"


# -- R9: threefold repetition is automatic --------------------------------------------------
def test_r9_threefold_repetition_ends_the_game():
    b = Board("super16")
    shuffle = ["b1a3", "b16a14", "a3b1", "a14b16"]
    for text in shuffle * 2:
        assert b.outcome() is None
        b.push_text(text)
    assert b.repetition_count() == 3
    out = b.outcome()
    assert out.termination is Termination.REPETITION and not out.claimed and out.result() == "1/2-1/2"


def test_r9_repetition_needs_the_same_castling_rights():
    b = Board("super16", "r7k6r/16/16/16/16/16/16/16/16/16/16/16/16/16/16/R7K6R w KQkq - 0 1")
    # the Kings step out and back: same placement as the start, but no castling rights any more
    for text in ["i1i2", "i16i15", "i2i1", "i15i16", "a1a2", "a16a15", "a2a1", "a15a16"]:
        b.push_text(text)
    assert b.repetition_count() == 2 and b.outcome() is None
    for text in ["a1a2", "a16a15", "a2a1", "a15a16"]:
        b.push_text(text)
    assert b.repetition_count() == 3
    assert b.outcome().termination is Termination.REPETITION


# -- R10: insufficient material -------------------------------------------------------------
@pytest.mark.parametrize("pieces,draw", [
    ({"a1": "K", "p16": "k"}, True),
    ({"a1": "K", "c4": "B", "p16": "k"}, True),
    ({"a1": "K", "c4": "B", "p16": "k", "h9": "n"}, True),
    ({"a1": "K", "c3": "N", "p16": "k", "h9": "b"}, True),
    ({"a1": "K", "c4": "B", "d3": "B", "p16": "k"}, False),
    ({"a1": "K", "c3": "N", "d3": "B", "p16": "k"}, False),
    ({"a1": "K", "c3": "F", "p16": "k"}, False),
    ({"a1": "K", "c3": "P", "p16": "k"}, False),
    ({"a1": "K", "c3": "I", "p16": "k"}, False),
])
def test_r10_insufficient_material(pieces, draw):
    b = board_with(pieces)
    assert b.is_insufficient_material() is draw
    out = b.outcome()
    assert (out is not None and out.termination is Termination.INSUFFICIENT_MATERIAL) is draw


# -- R11: the 100-move rule -----------------------------------------------------------------
ROOKS = {"a1": "K", "h4": "R", "p16": "k", "h12": "r"}


@pytest.mark.parametrize("clock,claim,auto", [(198, False, False), (199, True, False), (200, True, False),
                                              (299, True, False), (300, True, True)])
def test_r11_hundred_move_rule(clock, claim, auto):
    b = board_with(ROOKS, halfmove=clock)
    assert b.can_claim_move_rule() is claim  # at 199 the claim is made with the 200th half-move
    out = b.outcome()
    assert (out is not None and out.termination is Termination.MOVE_RULE) is auto
    if claim and not auto:
        claimed = b.outcome(claim_draw=True)
        assert claimed.termination is Termination.MOVE_RULE and claimed.claimed


def test_r11_a_capture_or_pawn_move_resets_the_count():
    b = board_with({**ROOKS, "c3": "P"}, halfmove=250)
    b.push_text("c3c4")
    assert b.halfmove_clock == 0
    b = board_with(ROOKS, halfmove=250)
    b.push_text("h4h12")
    assert b.halfmove_clock == 0
    b = board_with(ROOKS, halfmove=250)
    b.push_text("h4h5")
    assert b.halfmove_clock == 251


# -- R12 and results that come from the players ---------------------------------------------
def test_r12_flag_fall_against_a_lone_minor_is_a_draw():
    g = Game("super16", board_with({"a1": "K", "c3": "R", "p16": "k", "h9": "n"}).fen())
    g.flag(1)  # Player 2 runs out of time; Player 1 has a Rook: Player 1 wins
    assert g.result() == "1-0" and g.outcome.termination is Termination.TIME
    g = Game("super16", board_with({"a1": "K", "c3": "R", "p16": "k", "h9": "n"}).fen())
    g.flag(0)  # Player 1 runs out; Player 2 has only King + Knight: draw
    assert g.result() == "1/2-1/2"


def test_resignation_and_agreed_draw():
    g = Game("super16")
    g.play("h2h4")
    g.resign(1)
    assert g.result() == "1-0" and g.outcome.termination is Termination.RESIGNATION
    with pytest.raises(ValueError, match="over"):
        g.play("h15h13")
    g = Game("super16")
    g.agree_draw()
    assert g.result() == "1/2-1/2" and g.outcome.termination is Termination.AGREEMENT
