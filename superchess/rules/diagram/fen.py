"""Position text of a diagram variant (Vanguard 1.1): placement (top rank first, empty runs as
numbers), side `w`/`b`, the cells of pieces with a recorded unmoved right (R11, e.g. `a1p1a16p16`,
or `-`), half-move clock, full-move number."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..core.encoding import SIDE_SHIFT
from ..core.text import FenError, parse_counter, parse_rank, placement_text

if TYPE_CHECKING:
    from .position import DiagramCorePosition

_SQ = re.compile(r"([a-z])([0-9]+)")


def _name(pos: DiagramCorePosition, cell: int) -> str:
    return chr(97 + cell % pos.files) + str(cell // pos.files + 1)


def get_fen(pos: DiagramCorePosition) -> str:
    def letter(v: int) -> str:
        return "" if not v else pos.rule_of(v).letter if v >> SIDE_SHIFT == 0 else pos.rule_of(v).letter.lower()

    board, files = pos.board, pos.files
    rows = ([letter(v) for v in board[y * files:(y + 1) * files]] for y in range(pos.ranks - 1, -1, -1))
    unmoved = "".join(_name(pos, c) for c in sorted(pos.unmoved)) or "-"
    return f"{placement_text(rows)} {'wb'[pos.side]} {unmoved} {pos.halfmove} {pos.fullmove}"


def set_fen(pos: DiagramCorePosition, fen: str) -> None:
    """Load `fen` (FenError, a ValueError, names what is wrong)."""
    parts = fen.split()
    if len(parts) != 5:
        raise FenError(f"expected 5 fields (placement side unmoved halfmove fullmove), got {len(parts)}")
    placement, side, unmoved, half, full = parts
    rows = placement.split("/")
    if len(rows) != pos.ranks:
        raise FenError(f"expected {pos.ranks} ranks, got {len(rows)}")
    codes = {}
    for letter in pos.rules.by_letter:
        codes[letter], codes[letter.lower()] = pos.code(0, letter), pos.code(1, letter)
    pos.clear()
    for i, row in enumerate(rows):
        y = pos.ranks - 1 - i
        for x, code in enumerate(parse_rank(row, pos.files, codes, f"rank {y + 1}")):
            if code:
                pos.put(y * pos.files + x, code)
    if side not in ("w", "b"):
        raise FenError(f"side to move must be w or b, not {side!r}")
    pos.side = 0 if side == "w" else 1
    cells = set()
    if unmoved != "-":
        if "".join(f + r for f, r in _SQ.findall(unmoved)) != unmoved:
            raise FenError(f"bad unmoved field {unmoved!r}")
        for f, r in _SQ.findall(unmoved):
            x, y = ord(f) - 97, int(r) - 1 if len(r) <= len(str(pos.ranks)) else -1  # a long number is off the board
            c = y * pos.files + x
            if not (0 <= x < pos.files and 0 <= y < pos.ranks) or not pos.board[c] \
                    or not pos.rule_of(pos.board[c]).recorded_unmoved:
                raise FenError(f"unmoved right on {f}{r}: no piece there that has one")
            cells.add(c)
    pos.unmoved = frozenset(cells)
    pos.halfmove, pos.fullmove = parse_counter(half, "half-move clock"), parse_counter(full, "move number", 1)
    pos.rehash()
