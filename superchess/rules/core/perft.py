"""Perft: count the leaf nodes of the legal move tree (the standard move-generator check)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .position import Position


def perft(pos: Position, depth: int) -> int:
    """Leaf count at `depth` plies; the last ply is counted without being played (bulk counting)."""
    if depth <= 0:
        return 1
    moves = pos.legal()
    if depth == 1:
        return len(moves)
    total = 0
    make, unmake = pos.make, pos.unmake
    for m in moves:
        make(m)
        total += perft(pos, depth - 1)
        unmake()
    return total
