"""Vanguard Chess on the real Board (../shared/rules/vanguard.md): worked examples V1-V10, one test
per ruling that applies, per-piece destination sets on an empty and a crowded board for both sides,
and a seeded property test (move texts round-trip, push/pop restores FEN and hash)."""
from __future__ import annotations

import random
import re

import pytest

from superchess.rules import Board, FenError, IllegalMoveError, Termination
from superchess.rules.diagram.board import DiagramBoard
from superchess.rules.diagram.variant import get_diagram_variant
from tests.rules.diagram.helpers import DOUBLE_MATE, SEED_LINE_XB, cells, empty_board_offsets, fen_of

START = ("hzxfbwsqkicbfxzh/rnelaayggyaalenr/ppppooottooopppp/16/16/16/16/16/16/16/16/16/16/"
         "PPPPOOOTTOOOPPPP/RNELAAYGGYAALENR/HZXFBWSQKICBFXZH w a1p1a16p16 0 1")
KINGS = {"p1": "K", "p16": "k"}  # "Unless stated ... White King on p1 and Black King on p16"
ID_TO_LETTER = {p.id: p.letter for p in get_diagram_variant("vanguard").pieces}


def board(pieces: dict[str, str], side: str = "w", kings: bool = True, **kw) -> DiagramBoard:
    return Board("vanguard", fen_of({**(KINGS if kings else {}), **pieces}, side, **kw))


def moves_of(b: DiagramBoard, origin: str) -> set[str]:
    return {m.text for m in b.legal_moves if m.text.startswith(origin) and not m.text[len(origin)].isdigit()}


def flipped(pieces: dict[str, str]) -> dict[str, str]:
    """The same position with colours exchanged and ranks mirrored."""
    return {s[0] + str(17 - int(s[1:])): p.swapcase() for s, p in pieces.items()}


def flip_text(text: str) -> str:
    return re.sub(r"([a-p])([0-9]+)", lambda m: m.group(1) + str(17 - int(m.group(2))), text)


# ------------------------------------------------------------------ worked examples

def test_v1_start_position_108_moves_each_side():
    b = Board("vanguard")
    assert b.fen() == START
    white = b.legal_moves
    assert len(white) == 108
    texts = {m.text for m in white}
    assert moves_of(b, "h3") == {"h3g4", "h3i4", "h3h4", "h3h5", "h3h6"}
    assert moves_of(b, "b2") == {"b2a4", "b2c4", "b2a5", "b2c5"}
    assert moves_of(b, "c2") == {"c2a4", "c2b4", "c2c4", "c2d4", "c2e4"}
    assert moves_of(b, "n2") == {"n2l4", "n2m4", "n2n4", "n2o4", "n2p4"}
    assert moves_of(b, "d1") == {"d1a4", "d1c4", "d1e4", "d1g4"}
    assert moves_of(b, "m1") == {"m1j4", "m1l4", "m1n4", "m1p4"}
    assert moves_of(b, "d2") == {"d2c4", "d2b6", "d2e4", "d2f6"}
    assert moves_of(b, "m2") == {"m2l4", "m2k6", "m2n4", "m2o6"}
    assert moves_of(b, "f1") == {"f1" + s for s in ("e2", "g2", "d2", "h2", "e3", "g3", "c2", "i2")}
    assert all(m.kind == "swap" for m in white if m.text.startswith("f1"))
    for pawn in "abcdmnop":
        assert moves_of(b, pawn + "3") == {f"{pawn}3{pawn}{r}" for r in (4, 5, 6, 7)}
    assert {t[:2] for t in texts} == set("abcdefghijklmnop"[i] + "3" for i in range(16)) | {
        "b2", "o2", "c2", "n2", "d1", "m1", "d2", "m2", "f1"}
    b.push_text("a3a4")
    assert len(b.legal_moves) == 108
    assert {flip_text(m.text) for m in Board("vanguard", START.replace(" w ", " b ")).legal_moves} == texts


def test_v2_wizard():
    b = board({"h8": "W", "i9": "P", "f9": "Q", "g7": "r"})
    assert moves_of(b, "h8") == {"h8g9", "h8i7", "h8g7", "h8g10", "h8g11", "h8i6", "h8i5", "h8j7", "h8k7",
                                 "h8i9", "h8f9"}
    kinds = {m.text: m.kind for m in b.legal_moves}
    assert kinds["h8i9"] == kinds["h8f9"] == "swap" and kinds["h8g7"] == "normal"


def test_v3_bowman():
    b = board({"e4": "Y", "e5": "P", "f6": "T", "h5": "A", "d6": "p", "c8": "n", "g8": "r", "i6": "q"})
    assert moves_of(b, "e4") == {"e4d6", "e4g5", "e4g5xi6", "e4c5", "e4c3", "e4g3", "e4d2", "e4f2"}
    adv = b.parse_move("e4g5xi6")
    assert adv.kind == "locust" and b.captures(adv) == [("i6", b.piece_at("i6"))]


def test_v4_helepolis_moved():
    b = board({"d4": "H", "b4": "B", "d6": "p", "d8": "n", "f4": "p", "g4": "p", "d2": "t", "d1": "n"})
    expected = {"d4d5", "d4d6", "d4d7xd6", "d4e4", "d4f4", "d4g4xf4", "d4c4", "d4d3", "d4d2", "d4d1xd2"}
    expected |= {f"d4{f}4xf4xg4" for f in "hijklmnop"}
    assert moves_of(b, "d4") == expected and len(expected) == 19
    run = b.parse_move("d4p4xf4xg4")
    assert [s for s, _ in b.captures(run)] == ["f4", "g4"]


def test_v5_helepolis_initial_jump():
    pieces = {"a1": "H", "a2": "R", "b1": "Z", "a9": "p"}
    b = board(pieces, unmoved="a1")
    assert moves_of(b, "a1") == {f"a1a{r}" for r in range(3, 9)}
    jump = b.parse_move("a1a5")
    assert jump.kind == "jump" and b.captures(jump) == []
    b.push(jump)
    assert b.piece_at("a2").letter == "R" and b.fen().split()[2] == "-"
    assert moves_of(board(pieces), "a1") == set()


def test_v6_berserker():
    b = board({"b2": "E", "a1": "R", "b1": "B", "c1": "N", "a2": "P", "a3": "P", "b3": "P", "c2": "P",
               "c3": "n", "d4": "p"})
    assert moves_of(b, "b2") == {"b2c3", "b2a4", "b2b4", "b2c4", "b2d1", "b2d2", "b2d3", "b2d4", "b2b2xc3",
                                 "b2b4xc3", "b2c4xc3", "b2d2xc3", "b2d3xc3", "b2d4xc3"}
    double = b.parse_move("b2d4xc3")
    assert [s for s, _ in b.captures(double)] == ["c3", "d4"]
    b.push(double)
    assert b.piece_at("c3") is None and b.piece_at("d4").letter == "E" and b.piece_at("b2") is None


def test_v7_archer():
    b = board({"e5": "A", "f6": "P", "c6": "N", "c3": "p", "d7": "n", "g4": "q", "d3": "b"})
    assert moves_of(b, "e5") == {"e5d6", "e5c7", "e5b8", "e5f4", "e5g3", "e5h2", "e5d4", "e5e5xd7",
                                 "e5e5xg4", "e5e5xd3"}
    b.push_text("e5e5xg4")
    assert b.piece_at("e5").letter == "A" and b.piece_at("g4") is None


def test_v8_lancer():
    b = board({"h8": "L", "g8": "P", "g10": "P", "f8": "p", "h10": "p", "j7": "p", "i10": "n", "k8": "b",
               "h5": "q"})
    assert moves_of(b, "h8") == {"h8i10", "h8j7", "h8j9", "h8l10", "h8i6", "h8j4", "h8g6", "h8f4", "h8f7",
                                 "h8d6", "h8f9", "h8d10", "h8h10", "h8h5", "h8k8"}


def test_v9_general():
    b = board({"h8": "G", "e8": "P", "g7": "N", "h9": "p", "h4": "r", "l8": "n", "j10": "b"})
    assert moves_of(b, "h8") == {"h8i9", "h8j10", "h8g9", "h8f10", "h8e11", "h8d12", "h8c13", "h8b14",
                                 "h8a15", "h8i7", "h8j6", "h8k5", "h8l4", "h8m3", "h8n2", "h8o1", "h8h6",
                                 "h8h4", "h8j8", "h8l8", "h8f8"}


def test_v10_rescue_moves_succession_and_mate_without_prince():
    pieces = {"a16": "k", "p16": "i", "h14": "p", "a1": "R", "b14": "Q", "i1": "K"}
    b = board(pieces, side="b", kings=False)
    assert b.is_check()
    assert {m.text for m in b.legal_moves} == {"a16a15", "a16b15", "a16b16", "p16o15", "p16n15", "p16o14",
                                                "h14h13", "h14h12", "h14h11", "h14h10"}
    b.push_text("h14h13")
    take = b.parse_move("a1a16")
    assert ("p16", None, None) not in b.effects(take)
    b.push(take)
    assert b.piece_at("p16").letter == "K" and b.piece_at("p16").side == 1 and b.outcome() is None
    assert b.is_check() and b.king(1) == "p16"  # the new King is subject to check at once (R16)
    for mv in b.legal_moves:  # it can escape, so it must (4.3.2)
        b.push(mv)
        assert not b.is_attacked_by(0, b.king(1))
        b.pop()
    del pieces["p16"]
    mate = board(pieces, side="b", kings=False)
    assert mate.legal_moves == [] and mate.is_checkmate()
    assert mate.outcome().termination is Termination.CHECKMATE and mate.outcome().winner == 0


def test_v10_princess_succeeds_the_queen_r16():
    b = board({"h16": "q", "g16": "s", "h1": "R"})
    effects = {(sq, str(before), str(after)) for sq, before, after in b.effects(b.parse_move("h1h16"))}
    assert effects == {("h1", "R", "None"), ("h16", "q", "R"), ("g16", "s", "q")}
    b.push_text("h1h16")
    assert b.piece_at("g16").letter == "Q" and b.piece_at("g16").side == 1


# ------------------------------------------------------------------ rulings

def test_r1_black_array_same_files():
    b = Board("vanguard")
    assert b.piece_at("h16").symbol() == "q" and b.piece_at("i16").symbol() == "k"
    assert b.piece_at("h1").symbol() == "Q" and b.piece_at("i1").symbol() == "K"
    assert len(b.pieces()) == 96


def test_r3_lancer_captures_only_orthogonally():
    b = board({"h8": "L", "j10": "p", "k11": "p", "h11": "p"})
    assert "h8h11" in moves_of(b, "h8") and not moves_of(b, "h8") & {"h8j10", "h8k11"}


def test_r4_sergeant_diagonal_is_forward_only():
    b = board({"h8": "T", "g7": "p", "i7": "p", "g9": "p"})
    assert moves_of(b, "h8") == {"h8g9", "h8i9", "h8h9", "h8h10", "h8h11", "h8g8", "h8i8"}


def test_r5_helepolis_jump_forward_only():
    b = board({"h8": "H", "h9": "N", "h7": "N", "g8": "N", "i8": "N"}, unmoved="h8")
    assert moves_of(b, "h8") == {f"h8h{r}" for r in range(10, 17)}


def test_r6_helepolis_one_forward_capture_many_sideways():
    b = board({"d4": "H", "d6": "p", "d8": "n", "b4": "p", "a4": "p"})
    got = moves_of(b, "d4")
    assert "d4d7xd6" in got and not any("d8" in t for t in got)
    assert "d4a4xc4" not in got and "d4a4xb4" in got


def test_r7_wizard_swaps_any_friend_even_the_king_and_ignores_paths():
    # the camel square i11 is a friend's (the King): a swap, though the lame path via i9 is blocked
    b = Board("vanguard", fen_of({"h8": "W", "i11": "K", "g9": "P", "h9": "P", "i9": "N", "p16": "k"}))
    assert "h8i11" in moves_of(b, "h8")
    swap = b.parse_move("h8i11")
    assert {(sq, str(a)) for sq, _, a in b.effects(swap)} == {("h8", "K"), ("i11", "W")} and not b.captures(swap)
    b.push_text("h8i11")
    assert b.piece_at("h8").letter == "K" and b.piece_at("i11").letter == "W"


def test_r8_berserker_pass_needs_an_empty_neighbour_and_does_not_remove_check():
    b = board({"h8": "E"})
    passes = [m for m in b.legal_moves if m.kind == "pass"]
    assert [m.text for m in passes] == ["h8h8"] and b.effects(passes[0]) == []
    b.push(passes[0])
    assert b.turn == 1 and b.piece_at("h8").letter == "E"
    checked = Board("vanguard", fen_of({"h8": "E", "p1": "K", "p9": "r", "a16": "k"}))
    assert checked.is_check() and "h8h8" not in {m.text for m in checked.legal_moves}


def test_r9_bowman_knight_blocked_only_if_both_paths_are():
    one = board({"e4": "Y", "e5": "P"})
    assert "e4f6" in moves_of(one, "e4")
    both = board({"e4": "Y", "e5": "P", "f5": "P"})
    assert "e4f6" not in moves_of(both, "e4")


def test_r10_archer_rifle_is_not_blocked_and_archer_stays():
    b = board({"e5": "A", "e6": "P", "f6": "P", "d6": "P", "f7": "n"})
    rifle = b.parse_move("e5e5xf7")
    assert rifle.kind == "rifle" and rifle.to_cell == rifle.from_cell
    assert [(s, p.symbol()) for s, p in b.captures(rifle)] == [("f7", "n")]


def test_r11_initial_moves_from_the_rank_and_the_recorded_right():
    assert moves_of(board({"e3": "P"}), "e3") == {"e3e4", "e3e5", "e3e6", "e3e7"}
    assert moves_of(board({"e4": "P"}), "e4") == {"e4e5"}
    assert moves_of(board({"e14": "p"}, side="b"), "e14") == {"e14e13", "e14e12", "e14e11", "e14e10"}
    b = board({"a1": "H", "a2": "R", "f1": "W", "e2": "P", "a16": "h", "a15": "r"}, unmoved="a1a16")
    b.push_text("f1e2")  # swap: the Helepolis is not involved, it keeps its right
    assert b.fen().split()[2] == "a1a16"
    b = board({"a1": "H", "a2": "R", "b2": "W", "a16": "h"}, unmoved="a1a16")
    b.push_text("b2a1")  # a Wizard swap displaces the Helepolis: its right is gone
    assert b.fen().split()[2] == "a16"
    with pytest.raises(FenError):
        board({"a1": "R"}, unmoved="a1")


def test_r12_promotion_fixed_types_even_after_a_swap():
    for letter, promoted in (("P", "N"), ("O", "H"), ("T", "L")):
        b = board({"e15": letter})
        mv = b.parse_move("e15e16")
        assert mv.promotion == promoted
        b.push(mv)
        assert b.piece_at("e16").letter == promoted
    b = board({"g16": "W", "h14": "P"})
    b.push_text("g16h14")  # N-offset swap puts the Pawn on g16
    assert b.piece_at("g16").letter == "N" and b.fen().split()[2] == "-"


def test_r13_no_castling_no_en_passant():
    b = Board("vanguard", fen_of({"e3": "P", "d5": "p", "i1": "K", "p2": "R", "p16": "k"}))
    b.push_text("e3e5")
    assert "d5e4" not in moves_of(b, "d5") and b.fen().split()[2] == "-"
    assert not {m.text for m in Board("vanguard", fen_of({"i1": "K", "p1": "R", "a1": "R", "p16": "k"})).legal_moves
                } & {"i1k1", "i1g1", "i1c1", "i1o1"}


def test_r14_safe_moves_are_required_when_they_exist():
    b = Board("vanguard", fen_of({"a16": "k", "p14": "i", "a1": "R", "i1": "K", "h10": "p"}, side="b"))
    assert b.is_check()
    texts = {m.text for m in b.legal_moves}
    assert texts == {"a16b15", "a16b16"}


def test_r15_king_capture_wins_prince_capture_does_not():
    b = Board("vanguard", fen_of({"a16": "k", "h14": "p", "a1": "R", "b14": "Q", "i1": "K", "h16": "i"},
                                 side="b"))
    assert b.legal_moves  # a Prince is alive: rescue attempts
    b2 = Board("vanguard", fen_of({"a16": "k", "a1": "R", "i1": "K", "h12": "i", "h2": "Q"}, side="w"))
    b2.push_text("h2h12")
    assert b2.outcome() is None
    # no Prince and no safe move: the King's loss is checkmate, decided before any capture
    b3 = Board("vanguard", fen_of({"a16": "k", "a1": "R", "b1": "R", "i1": "K"}, side="b"))
    assert b3.is_checkmate() and b3.outcome().winner == 0


def test_r15_king_captured_with_prince_taken_in_the_same_move_loses():
    # a Helepolis run takes the Prince and then the King along rank 16 (R17's logic for royals)
    b = Board("vanguard", fen_of({"c16": "i", "e16": "k", "a16": "H", "i1": "K", "h10": "p"}, side="w"))
    run = b.parse_move("a16f16xc16xe16")
    b.push(run)
    assert b.outcome().termination is Termination.CHECKMATE and b.outcome().winner == 0
    assert b.legal_moves == []


def test_r16_r17_succession_only_when_the_heir_survives():
    b = board({"a8": "H", "c8": "q", "e8": "s"})
    b.push_text("a8f8xc8xe8")  # Queen and Princess taken in one run: no Queen arises
    assert not [p for p in b.pieces().values() if p.symbol() in "qs"]
    b = board({"a8": "H", "c8": "q", "e10": "s"})
    b.push_text("a8d8xc8")
    assert b.piece_at("e10").symbol() == "q"


def test_r18_special_captures_attack():
    rifle = Board("vanguard", fen_of({"a16": "k", "c15": "A", "p1": "K"}, side="b"))
    assert rifle.is_check()
    advance = Board("vanguard", fen_of({"e6": "k", "a4": "Y", "p1": "K"}, side="b"))
    assert advance.is_check()  # Bowman a4 -> c5 (empty) takes e6
    assert not Board("vanguard", fen_of({"e6": "k", "a4": "Y", "c5": "P", "p1": "K"}, side="b")).is_check()
    # the Wizard's lame path to e9 is blocked and its N-offset swap (udN) never attacks
    assert not Board("vanguard", fen_of({"e9": "K", "e8": "b", "d7": "w", "p16": "k"})).is_check()
    assert Board("vanguard", fen_of({"e9": "K", "d7": "w", "p16": "k"})).is_check()


def test_r20_move_rule_and_repetition_draws():
    b = board({"a8": "R"}, halfmove=99)
    b.push_text("a8a9")
    assert b.outcome().termination is Termination.MOVE_RULE
    b = board({"a3": "P"}, halfmove=99)
    b.push_text("a3a4")
    assert b.halfmove_clock == 0 and b.outcome() is None
    b = board({"a8": "R", "a12": "r"})
    for _ in range(2):
        for t in ("a8b8", "a12b12", "b8a8", "b12a12"):
            b.push_text(t)
    assert b.repetition_count() == 3 and b.outcome().termination is Termination.REPETITION


def test_r21_move_texts():
    b = board({"b2": "E", "c3": "n", "d4": "p"})
    with pytest.raises(IllegalMoveError):
        b.parse_move("b2d4xc4")
    with pytest.raises(IllegalMoveError):
        b.parse_move("b2-d4")
    assert b.parse_move("b2d4xc3").captured == (b.cell("c3"), b.cell("d4"))
    assert b.parse_move("b2d4xc3").via == (b.cell("c3"),)


# ------------------------------------------------------------------ double checkmate (4.4)

def test_double_checkmate_loses():
    b = Board("vanguard", fen_of(DOUBLE_MATE, side="b"))
    assert b.is_check() and b.is_attacked_by(0, "c16")
    assert b.legal_moves == [] and b.is_checkmate() and not b.is_stalemate()
    assert b.outcome().termination is Termination.CHECKMATE and b.outcome().winner == 0


def test_not_double_checkmate_when_the_prince_can_escape_then_any_move_is_legal_r14():
    pieces = {k: v for k, v in DOUBLE_MATE.items() if k != "p16"}  # d16, next to the Prince, is free
    b = Board("vanguard", fen_of(pieces, side="b"))
    assert b.is_check() and not b.is_checkmate()
    texts = {m.text for m in b.legal_moves}
    assert {"c16d14", "a16b16", "a16a15"} <= texts  # the King may stay in or walk into check


# ------------------------------------------------------------------ per-piece destination sets

@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize("pid", sorted(SEED_LINE_XB))
def test_piece_destinations_on_an_empty_board(pid, side):
    """Every piece type alone on h8 (White) / h9 (Black), the Kings on a1 and a16 (a King alone):
    vanguard.md 3.2, Pawn types off their third rank."""
    letter = ID_TO_LETTER[pid]
    origin = "h8" if side == 0 else "h9"
    kings = {} if pid == "K" else {"a1": "K", "a16": "k"}
    b = Board("vanguard", fen_of({**kings, origin: letter if side == 0 else letter.lower()}, side="wb"[side]))
    expected = cells(origin, empty_board_offsets(pid, False), side) - {("a1", "a16")[side]}  # not onto its own King
    got = {m.text[len(origin):] for m in b.legal_moves if m.text.startswith(origin)}
    assert got == expected


CROWDED = [  # the worked examples' positions: the piece, its board, and its complete move set
    ("h8", {"h8": "W", "i9": "P", "f9": "Q", "g7": "r"}),
    ("e4", {"e4": "Y", "e5": "P", "f6": "T", "h5": "A", "d6": "p", "c8": "n", "g8": "r", "i6": "q"}),
    ("d4", {"d4": "H", "b4": "B", "d6": "p", "d8": "n", "f4": "p", "g4": "p", "d2": "t", "d1": "n"}),
    ("b2", {"b2": "E", "a1": "R", "b1": "B", "c1": "N", "a2": "P", "a3": "P", "b3": "P", "c2": "P",
            "c3": "n", "d4": "p"}),
    ("e5", {"e5": "A", "f6": "P", "c6": "N", "c3": "p", "d7": "n", "g4": "q", "d3": "b"}),
    ("h8", {"h8": "L", "g8": "P", "g10": "P", "f8": "p", "h10": "p", "j7": "p", "i10": "n", "k8": "b",
            "h5": "q"}),
    ("h8", {"h8": "G", "e8": "P", "g7": "N", "h9": "p", "h4": "r", "l8": "n", "j10": "b"}),
    ("h8", {"h8": "S", "h10": "P", "j9": "n", "k11": "p", "f6": "P", "g6": "r"}),
    ("h8", {"h8": "Z", "j9": "P", "l12": "p", "f12": "n", "g10": "P"}),
    ("h8", {"h8": "T", "g9": "p", "h10": "P", "i8": "n", "g8": "P"}),
]


@pytest.mark.parametrize("origin,pieces", CROWDED)
def test_crowded_boards_black_is_the_mirror_of_white(origin, pieces):
    white = board(pieces)
    black = Board("vanguard", fen_of(flipped({**KINGS, **pieces}), side="b"))
    w = moves_of(white, origin)
    assert w and {flip_text(t) for t in moves_of(black, flip_text(origin))} == w


# ------------------------------------------------------------------ property: texts and push/pop

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_round_trip_texts_and_push_pop(seed):
    rng = random.Random(seed)
    b = Board("vanguard")
    for _ in range(40):
        moves = b.legal_moves
        if not moves:
            break
        fen, h = b.fen(), b.zobrist_hash()
        for mv in moves:
            assert b.parse_move(mv.text) == mv
        for mv in rng.sample(moves, min(12, len(moves))):
            b.push(mv)
            assert Board("vanguard", b.fen()).zobrist_hash() == b.zobrist_hash()  # incremental = full
            b.pop()
            assert (b.fen(), b.zobrist_hash()) == (fen, h)
        captures = [m for m in moves if m.captured]
        b.push(rng.choice(captures) if captures and rng.random() < 0.7 else rng.choice(moves))
    assert len(b.move_stack) >= 20 and len(b.pieces()) < 96  # a real game with captures was played


@pytest.mark.parametrize("seed", range(12))
def test_random_crowded_positions_black_mirrors_white(seed):
    """Random placements (Kings and Princes included, pawn types off the promotion ranks): the
    colour-flipped position has exactly the mirrored legal moves, kinds and captures."""
    rng = random.Random(seed)
    letters = [p.letter for p in get_diagram_variant("vanguard").pieces if p.letter not in "KI"]
    squares = [f + str(r) for f in "abcdefghijklmnop" for r in range(2, 16)]
    chosen = rng.sample(squares, 44)
    pieces = {"a1": "K", "p16": "k", "h1": "I", "h16": "i"}
    for i, sq in enumerate(chosen):
        letter = rng.choice(letters)
        pieces[sq] = letter if i % 2 else letter.lower()
    white = Board("vanguard", fen_of(pieces))
    black = Board("vanguard", fen_of(flipped(pieces), side="b"))
    w = {(m.text, m.kind) for m in white.legal_moves}
    assert w
    assert {(flip_text(m.text), m.kind) for m in black.legal_moves} == w


@pytest.mark.parametrize("seed", range(4))
def test_safety_filter_agrees_with_the_full_attack_test(seed):
    """4.3.1 safe moves: the shortcut (a move that changes no cell on the King's lines or in a
    walked attacker's reach is safe) keeps exactly the moves that, played, leave the King
    unattacked by any enemy piece (random games, captures preferred)."""
    rng = random.Random(seed)
    b = Board("vanguard", core="python")  # the Python core's shortcut; the native one: test_native_differential
    pos = b._pos
    for _ in range(60):
        pseudo = pos.pseudo_legal()
        full = [m for m in pseudo if pos.safe_after(m, pos.dt.king)]
        exposed = pos._exposed(pos.kings[pos.side], pos.side ^ 1)
        if exposed is not None:
            assert [m for m in pseudo if pos._untouched(m, exposed) or pos.safe_after(m, pos.dt.king)] == full
        moves = b.legal_moves
        if not moves:
            break
        captures = [m for m in moves if m.captured]
        b.push(rng.choice(captures) if captures and rng.random() < 0.8 else rng.choice(moves))


def test_game_record_round_trip():
    """record.Game plays Vanguard: move texts with captures survive export and import."""
    from superchess.rules.game.record import Game
    g = Game("vanguard", fen_of({"b2": "E", "c3": "n", "d4": "p", "e5": "A", "d7": "n", "p1": "K", "p16": "k"}))
    for text in ("b2d4xc3", "p16o16", "e5e5xd7"):
        g.play(text)
    again = Game.parse(g.export())
    assert again.board.fen() == g.board.fen() and [m.text for m in again.board.move_stack] == [
        "b2d4xc3", "p16o16", "e5e5xd7"]
    g.flag(1)
    assert g.result() == "1-0"  # no insufficient-material rule in Vanguard (4.6)
