"""Promotion by choice in pasted Interactive Diagrams (issue 7, "Interactive Diagram import":
promotion settings played). The convention (README "Vanguard: status"): the first ``maxPromote``
pieces defined (default 1; royal pieces and pieces with a fixed ``morph=`` type excepted) that end a
move in the ``promoZone`` (default 1 rank deep) must promote to one of ``promoChoice``'s pieces: one
legal move per choice, written with the type's letter (``a7a8q``). A piece with ``morph=`` keeps its
fixed type (Vanguard 4.5, R12), so Vanguard is unchanged. Orthodox promotion is checked against
python-chess as the oracle."""
from __future__ import annotations

import random

import chess
import pytest

from superchess.rules import Board, IllegalMoveError
from superchess.rules.diagram.line import parse_diagram
from superchess.rules.diagram.variant import get_diagram_variant, rules_from_diagram
from tests.rules.diagram.helpers import ORTHODOX_BY_CHOICE

# pawns one step from promotion on both sides, pieces to capture on the last ranks
NEAR_PROMOTION = ("r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w - 0 1", "1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - 0 1")


def _texts(b: Board) -> set[str]:
    return {m.text for m in b.legal_moves}


def _oracle(cb: chess.Board) -> set[str]:
    return {m.uci() for m in cb.legal_moves}


def test_promotion_choices_of_the_rules():
    rules = rules_from_diagram(ORTHODOX_BY_CHOICE)
    assert rules.promotion_choices == ("Q", "R", "B", "N")  # what the server's picker offers
    assert rules.by_letter["P"].choices == ("Q", "R", "B", "N") and rules.by_letter["P"].pawn
    assert not any(p.choices for p in rules.pieces if p.letter != "P")
    assert get_diagram_variant("vanguard").promotion_choices == ()  # 4.5: fixed types only


def test_a_pawn_on_the_last_rank_has_one_move_per_choice():
    b = Board(rules_from_diagram(ORTHODOX_BY_CHOICE), "r3k3/1P6/8/8/8/8/8/4K3 w - 0 1")
    promos = [m for m in b.legal_moves if m.from_cell == b.cell("b7")]
    assert sorted(m.text for m in promos) == ["b7a8b", "b7a8n", "b7a8q", "b7a8r",
                                              "b7b8b", "b7b8n", "b7b8q", "b7b8r"]  # no plain b7b8
    for mv in promos:
        b.push(mv)
        assert b.piece_at(b.name(mv.to_cell)).letter == mv.promotion == mv.text[-1].upper()
        assert b.piece_at(b.name(mv.to_cell)).side == 0 and b.piece_at("b7") is None
        b.pop()


def test_black_promotes_on_the_first_rank():
    b = Board(rules_from_diagram(ORTHODOX_BY_CHOICE), "4k3/8/8/8/8/8/6p1/4K2R b - 0 1")
    assert {m.text for m in b.legal_moves if m.from_cell == b.cell("g2")} == {
        f"g2{t}{p}" for t in ("g1", "h1") for p in "qrbn"}
    b.push_text("g2h1n")
    assert b.piece_at("h1").letter == "N" and b.piece_at("h1").side == 1


def test_a_promotion_needs_its_letter_and_a_legal_one():
    b = Board(rules_from_diagram(ORTHODOX_BY_CHOICE), "r3k3/1P6/8/8/8/8/8/4K3 w - 0 1")
    with pytest.raises(IllegalMoveError, match="promotes"):
        b.parse_move("b7b8")
    with pytest.raises(IllegalMoveError):
        b.parse_move("b7b8k")
    with pytest.raises(IllegalMoveError):
        b.parse_move("e1e2q")


@pytest.mark.parametrize("fen", NEAR_PROMOTION)
def test_every_move_round_trips_through_its_text(fen):
    b = Board(rules_from_diagram(ORTHODOX_BY_CHOICE), fen)
    for mv in b.legal_moves:
        assert b.parse_move(mv.text) == mv and b.parse_move(mv.text).text == mv.text
        b.push(mv)
        b.pop()
        assert b.fen() == fen


@pytest.mark.parametrize("fen", NEAR_PROMOTION)
@pytest.mark.parametrize("seed", [1, 2])
def test_orthodox_promotion_plays_like_python_chess(fen, seed):
    """Every under-promotion included; the diagram has no castling and no en passant (none arises
    from these positions without castling rights)."""
    rng = random.Random(seed)
    b = Board(rules_from_diagram(ORTHODOX_BY_CHOICE), fen)
    board, side, *_ = fen.split()
    cb = chess.Board(f"{board} {side} - - 0 1")
    for _ in range(30):
        ours = _texts(b)
        assert ours == {m for m in _oracle(cb) if not cb.is_en_passant(chess.Move.from_uci(m))}, b.fen()
        if not ours:
            break
        text = rng.choice(sorted(ours))
        b.push_text(text)
        cb.push_uci(text)
        assert b.fen().split()[0] == cb.board_fen()


def test_promo_zone_two_promotes_on_the_second_last_rank_too():
    rules = rules_from_diagram(ORTHODOX_BY_CHOICE.replace("promoChoice", "promoZone=2 promoChoice"))
    b = Board(rules, "4k3/8/1P6/8/8/8/8/4K3 w - 0 1")
    assert {m.text for m in b.legal_moves if m.from_cell == b.cell("b6")} == {f"b6b7{p}" for p in "qrbn"}
    b.push_text("b6b7r")
    assert b.piece_at("b7").letter == "R"
    b = Board(rules, "4k3/8/8/8/8/8/1p6/4K3 b - 0 1")  # Black's zone: ranks 2 and 1
    assert {m.text for m in b.legal_moves if m.from_cell == b.cell("b2")} == {f"b2b1{p}" for p in "qrbn"}
    b = Board(rules, "4k3/8/8/8/8/1p6/8/4K3 b - 0 1")
    assert {m.text for m in b.legal_moves if m.from_cell == b.cell("b3")} == {f"b3b2{p}" for p in "qrbn"}


def test_a_rider_promotes_on_every_zone_cell_and_captures_there():
    """A lance (``fR``) defined first: its ray into a two-rank zone gives every choice on both zone
    cells, the capture on the last rank included, and stops at the enemy."""
    line = ("files=4 ranks=8 promoZone=2 promoChoice=QR lance:L:fR:lance:a1,,d8 queen:Q:Q:queen:b1,,b8 "
            "rook:R:R:rook:c1,,c8 king:K:K:king:d1,,a8 royal=4")
    b = Board(rules_from_diagram(line), "2k1/4/4/4/4/4/4/L2K w - 0 1")
    got = {m.text for m in b.legal_moves if m.from_cell == b.cell("a1")}
    assert got == {f"a1a{r}" for r in range(2, 7)} | {f"a1a{r}{p}" for r in (7, 8) for p in "qr"}
    b = Board(rules_from_diagram(line), "2k1/r3/4/4/4/4/4/L2K w - 0 1")  # every copy of the ray stops
    got = {m.text for m in b.legal_moves if m.from_cell == b.cell("a1")}
    assert got == {f"a1a{r}" for r in range(2, 7)} | {f"a1a7{p}" for p in "qr"}
    b.push_text("a1a7q")
    assert b.piece_at("a7").letter == "Q" and b.piece_at("a7").side == 0


@pytest.mark.parametrize("xbetza", ["fmWifmnD", "fmWifmR2"])
def test_an_initial_double_step_into_the_zone_promotes(xbetza):
    """The pawn's initial two-step (a lame leap, walked; or an initial-only ray) lands on the last
    rank of a 4-rank board: one move per choice."""
    line = f"files=4 ranks=4 promoChoice=QN pawn:P:{xbetza}:pawn:a2,,d3 queen:Q:Q:queen:c1,,d4 " \
           "knight:N:N:knight:d1,,b4 king:K:K:king:b1,,c4 royal=4"
    b = Board(rules_from_diagram(line))
    got = {m.text for m in b.legal_moves if m.from_cell == b.cell("a2")}
    assert got == {"a2a3", "a2a4q", "a2a4n"}
    b.push_text("a2a4n")
    assert b.piece_at("a4").letter == "N"


def test_a_multi_leg_capture_into_the_zone_promotes():
    """A checker-like jump over an enemy (``fcafmW``, a locust move applied through its record)
    that lands on the last rank: one move per choice, the jumped piece taken, the type chosen."""
    line = "files=4 ranks=8 promoChoice=QR man:M:fmWfcafmW:man:a2,,d7 queen:Q:Q:queen:b1,,b8 " \
           "rook:R:R:rook:c1,,c8 king:K:K:king:d1,,d8 royal=4"
    b = Board(rules_from_diagram(line), "3k/r3/M3/4/4/4/4/3K w - 0 1")
    got = {m.text for m in b.legal_moves if m.from_cell == b.cell("a6")}
    assert got == {"a6a8xa7q", "a6a8xa7r"}
    for mv in b.legal_moves:
        if mv.text == "a6a8xa7r":
            assert b.captures(mv)[0][0] == "a7" and mv.promotion == "R"
    b.push_text("a6a8xa7r")
    assert b.piece_at("a8").letter == "R" and b.piece_at("a7") is None and b.piece_at("a6") is None
    b.pop()
    assert b.parse_move("a6a8xa7q").promotion == "Q"


def test_a_morph_piece_keeps_its_fixed_type_beside_a_choice():
    """Vanguard 4.5: ``morph=`` is a fixed type, written without a letter; the first piece (no
    morph) promotes by choice in the same game."""
    line = ("files=6 ranks=6 promoChoice=QR pawn:P:fmWfcF:pawn:a2 soldier:S:fmW:soldier:b2 morph=R "
            "rook:R:R:rook:a1 queen:Q:Q:queen:b1 king:K:K:king:f1 royal=5")
    rules = rules_from_diagram(line)
    assert rules.by_letter["S"].choices == () and rules.by_letter["S"].morph == "R"
    b = Board(rules, "5k/PS4/6/6/6/5K w - 0 1")
    got = {m.text: m.promotion for m in b.legal_moves if m.from_cell in (b.cell("a5"), b.cell("b5"))}
    assert got == {"a5a6q": "Q", "a5a6r": "R", "b5b6": "R"}
    b.push_text("b5b6")
    assert b.piece_at("b6").letter == "R"


def test_which_pieces_promote_by_choice():
    """The first maxPromote pieces (default 1), without royals and morph= pieces; none without
    promoChoice; the flag characters of promoChoice (``*``) are recorded and do not change play."""
    body = "pawn:P:fmW:pawn:a2 soldier:S:fW:soldier:b2 rook:R:R:rook:a1 king:K:K:king:f1 royal=4"
    assert parse_diagram("files=6 ranks=6 promoChoice=R " + body).choice_promoters == ("P",)
    assert parse_diagram("files=6 ranks=6 maxPromote=2 promoChoice=R " + body).choice_promoters == ("P", "S")
    assert parse_diagram("files=6 ranks=6 " + body).choice_promoters == ()
    royal_first = "files=6 ranks=6 maxPromote=2 promoChoice=R king:K:K:king:f1 pawn:P:fmW:pawn:a2 " \
                   "rook:R:R:rook:a1 royal=1"
    assert parse_diagram(royal_first).choice_promoters == ("P",)
    starred = parse_diagram("files=6 ranks=6 promoChoice=*R " + body)
    assert starred.promo_flags == "*" and starred.choice_promoters == ("P",)
    fen = "5k/P5/6/6/6/5K w - 0 1"
    plain, flagged = (Board(rules_from_diagram(f"files=6 ranks=6 promoChoice={c} " + body), fen)
                      for c in ("R", "*R"))
    assert _texts(plain) == _texts(flagged) and "a5a6r" in _texts(plain)
