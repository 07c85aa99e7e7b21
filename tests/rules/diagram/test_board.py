"""Interactive Diagram import played through Board (issue 7): the shipped Vanguard definition is the
seed's diagram line, and a pasted diagram line becomes a playable variant. A hand-made orthodox
diagram (no castling, no en passant, promotion to a Queen only) is checked move for move against
python-chess over seeded random games; a tiny 5x5 diagram shows promotion and checkmate."""
from __future__ import annotations

import random

import chess
import pytest

from superchess.rules import Board, Termination
from superchess.rules.diagram.board import DiagramBoard
from superchess.rules.diagram.line import DiagramError
from superchess.rules.diagram.variant import get_diagram_variant, rules_from_diagram
from tests.rules.diagram.helpers import ORTHODOX, TINY, seed_line


def test_shipped_vanguard_is_the_seed_diagram():
    shipped = get_diagram_variant("vanguard")
    seeded = rules_from_diagram(seed_line(), letters={p.id: p.letter for p in shipped.pieces}, king="K",
                                prince="Pr", hooks={"H": ["forward_initial_jump"]})
    assert seeded.array == shipped.array and seeded.pieces == shipped.pieces


def _our_moves(b: DiagramBoard) -> set[str]:
    return {m.text + ("q" if m.promotion else "") for m in b.legal_moves}


def _oracle_moves(cb: chess.Board) -> set[str]:
    return {m.uci() for m in cb.legal_moves if not cb.is_en_passant(m) and m.promotion in (None, chess.QUEEN)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pasted_orthodox_diagram_plays_like_python_chess(seed):
    rng = random.Random(seed)
    b = Board(rules_from_diagram(ORTHODOX, "orthodox"))
    cb = chess.Board(b.fen().split()[0] + " w - - 0 1")
    for _ in range(60):
        ours = _our_moves(b)
        assert ours == _oracle_moves(cb), b.fen()
        assert b.is_check() == cb.is_check()
        if not ours:
            assert b.is_checkmate() == cb.is_checkmate()
            break
        text = rng.choice(sorted(ours))
        b.push_text(text[:4])
        cb.push_uci(text)


def test_tiny_diagram_start_promotion_and_mate():
    rules = rules_from_diagram(TINY, "tiny")
    b = Board(rules)
    assert b.fen() == "r1k1r/ppppp/5/PPPPP/R1K1R w - 0 1"  # Black's array mirrors White's
    assert {m.text for m in b.legal_moves} == {"a1b1", "c1b1", "c1d1", "e1d1"} | {f"{f}2{f}3" for f in "abcde"}
    b = Board(rules, "k4/2P2/1K3/5/5 w - 0 1")
    promo = b.parse_move("c4c5")
    assert promo.promotion == "R"
    b.push(promo)  # the new Rook gives mate on the fifth rank: a4, b4 are the King's
    assert b.piece_at("c5").letter == "R" and b.is_checkmate()
    assert b.outcome().termination is Termination.CHECKMATE and b.outcome().winner == 0


def test_a_diagram_with_two_royals_must_say_which_is_the_king():
    with pytest.raises(DiagramError, match="King"):
        rules_from_diagram(TINY + " royal=2")
    with pytest.raises(DiagramError, match="one-letter"):
        rules_from_diagram("files=4 ranks=4 king:Kg:K:king:a1 royal=1")
