"""The engine plays Superchess (superchess.md): the super pieces valued from their movement like any
piece, promotion only to a held piece, a move at every level, UCI_Variant superchess."""
from __future__ import annotations

import pytest

from superchess.engine import choose_move
from superchess.engine.values import piece_values
from superchess.rules import Board

HOLD_E = "4k3/1P6/8/8/8/8/8/4K3[E] w - - 0 1"


def test_super_pieces_are_valued_from_their_movement():
    value = piece_values("superchess")
    assert value["A"] > value["Q"] > value["E"] > value["R"]  # Amazon = Queen + Knight
    assert value["E"] > value["S"] > value["B"] and value["V"] > value["N"]


@pytest.mark.parametrize("level", range(1, 9))
def test_every_level_plays_a_legal_move_and_promotes_only_to_a_held_piece(level):
    board = Board("superchess")
    text = choose_move("superchess", None, [], None, level, 3_000, 0, seed=level)
    assert text in {m.text for m in board.legal_moves}
    assert choose_move("superchess", HOLD_E, [], None, level, 3_000, 0, seed=level) in {"b7b8e", "e1d1", "e1d2",
                                                                                           "e1e2", "e1f1", "e1f2"}


def test_the_strongest_level_promotes_to_the_held_empress():
    assert choose_move("superchess", HOLD_E, [], None, 8, 3_000, 0) == "b7b8e"
