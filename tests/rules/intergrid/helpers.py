"""Shared helpers of the InterGrid tests (rules, engine, server, browser)."""
from __future__ import annotations

from superchess.rules import Board
from tests.oracles import intergrid as ig


def board(pieces: dict[str, str], side: str = "w", castling: str = "-") -> Board:
    """A board from {"a3": "R", "B2": "P", ...} (name case = layer, letter case = colour)."""
    return Board("intergrid", ig.fen(ig.position(pieces, side, castling)))
