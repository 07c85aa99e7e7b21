"""Perft: count the leaf nodes of the legal move tree (the standard move-generator check)."""
from __future__ import annotations

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


def divide(pos: Position, depth: int) -> list[tuple[int, int]]:
    """(move, leaf count below it) for each legal move."""
    out = []
    for m in pos.legal():
        pos.make(m)
        out.append((m, perft(pos, depth - 1)))
        pos.unmake()
    return out
