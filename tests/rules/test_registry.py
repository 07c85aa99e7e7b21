"""The variant registry and the board contract (docs/contract.md): every registered variant is made by
`Board(name)` as its family's board, offers the whole `BaseBoard` surface, and does what its
registered capabilities say."""
from __future__ import annotations

import pytest

from superchess.engine import ENGINES
from superchess.rules import VARIANTS, BaseBoard, Board, IllegalMoveError, Variant, get_variant, spec_of
from superchess.rules.core.contract import AllowanceBoard
from superchess.rules.diagram.variant import rules_from_diagram

NAMES = tuple(VARIANTS)


@pytest.mark.parametrize("name", NAMES)
def test_a_registered_variant_is_made_as_its_family_board(name):
    spec = VARIANTS[name]
    b = Board(name)
    assert isinstance(b, BaseBoard) and type(b) is spec.family.board
    assert b.variant is spec.variant and b.variant.name == name and b.variant.family == spec.family.name
    assert type(Board(b.variant, b.fen())) is type(b)  # a variant description is sent by its family
    assert spec.engine in ENGINES


@pytest.mark.parametrize("name", NAMES)
def test_every_board_offers_the_contract(name):
    b = Board(name)
    geo, layout = b.geometry, b.geometry.layout()
    assert (layout["width"], layout["height"]) == (geo.files, geo.ranks)
    assert {c["name"] for c in layout["cells"]} <= set(geo.names)
    assert all(geo.parse_cell(c["name"]) >= 0 for c in layout["cells"])
    assert {p.label for p in b.variant.pieces} and b.starting_fen == b.variant.start_fen
    start, moves = b.fen(), b.legal_moves
    assert moves and b.legal_destinations() and not b.is_game_over() and b.outcome() is None
    mv = moves[0]
    assert b.parse_move(mv.text) == mv and isinstance(b.captures(mv), list) and isinstance(b.effects(mv), list)
    b.push(mv)
    assert b.peek() == mv and b.move_stack == [mv] and b.turn_texts() == [mv.text]
    assert b.pop() == mv and b.fen() == start and b.move_stack == []
    with pytest.raises(IllegalMoveError):
        b.push_text("a1a1a1")
    assert b.copy().fen() == b.fen() and b.piece_symbols() == {n: p.symbol() for n, p in b.pieces().items()}


@pytest.mark.parametrize("name", NAMES)
def test_capabilities_say_what_the_boards_do(name):
    caps, b = spec_of(name).capabilities, Board(name)
    b.push(b.legal_moves[0])
    assert (b.moves_in_turn > 0) == caps.multi_move  # the first move of a multi-move turn leaves it open
    assert isinstance(b, AllowanceBoard) == caps.allowance
    assert caps.reprogrammable == b.variant.reprogrammable and caps.holdings == b.variant.holdings
    assert caps.setups == bool(b.variant.setup)
    letters = [p.letter for p in b.variant.pieces]
    assert caps.named_pieces == (len(letters) == len(set(letters)))


def test_unknown_variants_are_refused_by_name():
    for make in (Board, spec_of, get_variant):
        with pytest.raises(ValueError, match="unknown variant 'xiangqi'"):
            make("xiangqi")
    with pytest.raises(ValueError, match="unknown variant 'intergrid'"):
        get_variant("intergrid")  # no core `Variant` behind it


def test_the_core_variant_behind_the_core_and_diagram_families():
    assert isinstance(get_variant("chess"), Variant) and get_variant("chess") is VARIANTS["chess"].variant
    assert get_variant("vanguard").piece_compiler is not None


def test_a_pasted_diagram_plays_on_the_diagram_family_board():
    rules = rules_from_diagram("files=5 ranks=5 pawn:P:fmWfcF:pawn:a2,b2,c2,d2,e2 morph=R rook:R:R:rook:a1,e1 "
                               "king:K:K:king:c1 royal=3")
    b = Board(rules)
    assert type(b) is VARIANTS["vanguard"].family.board and "a2a3" in {m.text for m in b.legal_moves}
