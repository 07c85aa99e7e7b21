"""Small helpers for writing rules tests: positions from piece lists, destinations of one piece."""
from __future__ import annotations

from superchess.rules import Board, get_variant


def make_fen(variant: str, pieces: dict[str, str], side: str = "w", castling: str = "-", ep: str = "-",
             halfmove: int = 0, fullmove: int = 1, holdings: str = "") -> str:
    """FEN of a position given as {"i1": "K", "i16": "k", ...} (upper case = Player 1); `holdings`
    as letters (upper case Player 1's) for variants with holdings."""
    geo = get_variant(variant).geometry
    grid = [["" for _ in range(geo.files)] for _ in range(geo.ranks)]
    for square, letter in pieces.items():
        f, r = geo.coords[geo.parse_cell(square)]
        grid[r][f] = letter
    held = f"[{holdings}]" if get_variant(variant).holdings else ""
    return f"{placement(grid)}{held} {side} {castling} {ep} {halfmove} {fullmove}"


def placement(grid: list[list[str]]) -> str:
    """The FEN piece placement of `grid[rank][file]` (letters, "" = empty), top rank first."""
    rows = []
    for rank in reversed(grid):
        row, empty = "", 0
        for cell in rank:
            if not cell:
                empty += 1
                continue
            row += (str(empty) if empty else "") + cell
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def board_with(pieces: dict[str, str], variant: str = "super16", **kw) -> Board:
    rosters = kw.pop("rosters", None)
    return Board(variant, make_fen(variant, pieces, **kw), rosters)


def dests(board: Board, square: str) -> set[str]:
    """Destination squares of the legal moves starting on `square`."""
    cell = board.cell(square)
    return {board.geometry.name(m.to_cell) for m in board.legal_moves if m.from_cell == cell}


def line_targets(square: str, vectors, reach: int = 1) -> set[str]:
    """Squares at k * v from `square`, k = 1..reach, for each vector (on a 16x16 board)."""
    f0, r0 = ord(square[0]) - 97, int(square[1:]) - 1
    out = set()
    for dx, dy in vectors:
        for k in range(1, reach + 1):
            f, r = f0 + k * dx, r0 + k * dy
            if 0 <= f < 16 and 0 <= r < 16:
                out.add(chr(97 + f) + str(r + 1))
    return out


EIGHT = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def occupied_by_side(board: list[int]) -> list[set[int]]:
    """Each side's occupied cells read off a board of piece codes (what `CellPosition.occ` keeps)."""
    return [{c for c, p in enumerate(board) if p and p >> 6 == side} for side in (0, 1)]
