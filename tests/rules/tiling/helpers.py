"""Shared helpers and positions of the Tiling Rider tests (rules, engine, server, browser)."""
from __future__ import annotations

from superchess.rules import Board
from tests.oracles import tiling as T


def board(pieces: dict[str, str], **kw) -> Board:
    """A board with only `pieces` ({square: letter}) and the two giant Kings (see the oracle's `position`)."""
    return Board("tilingrider", T.text(T.position(pieces, **kw)))


# White in check from the Guard aggregate m11-n12 riding at its King q11-r12, two moves allowed: the
# Knight m7 must block (or the King step) within them; a first move elsewhere (the Guard k2l2) leaves
# one move and no way out of check (4.2), though the rules could offer it undecided (R12).
DEAD_END = "18/18/6kk10/6kk10/12gg2KK/w11gg2KK/7W10/18/18/12N3n1/8ff8/8ff8/15f2/2w15/10G7/18 w 2 0 1"
