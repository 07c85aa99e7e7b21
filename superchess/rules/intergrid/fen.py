"""Position text of a two-lattice variant at a turn's start (InterGrid 1.1, R15): the squares (ranks
top down), the points (lines top down), side, castling, en passant targets (the skipped square and/or
point, e.g. `e3E3`), the clock in turns and the turn number."""
from __future__ import annotations

from ..core.encoding import code_of
from ..core.text import FenError, parse_counter, parse_rank, placement_text
from .geometry import POINTS, SQUARES
from .position import IntergridPosition


def _rows(pos: IntergridPosition, layer: int, text: str) -> None:
    geo = pos.geometry
    w, h = geo.dims[layer]
    kind = "square" if layer == SQUARES else "point"
    rows = text.split("/")
    if len(rows) != h:
        raise FenError(f"expected {h} rows of {kind}s, got {len(rows)}")
    codes = {}
    for (on, letter), ti in pos.variant.by_letter.items():
        if on == layer:
            codes[letter], codes[letter.lower()] = code_of(0, ti), code_of(1, ti)
    for i, row in enumerate(rows):
        y = h - 1 - i
        for x, code in enumerate(parse_rank(row, w, codes, f"{kind} row {y + 1}", f"{kind}s")):
            if code:
                pos.put(geo.cell(layer, x, y), code)


def parse_intergrid_fen(text: str, variant_name: str = "intergrid") -> IntergridPosition:
    """The turn-start position written `text`; FenError with the reason otherwise."""
    parts = text.split()
    if len(parts) != 7:
        raise FenError("expected 7 fields: squares points side castling ep halfmove fullmove")
    pos = IntergridPosition(variant_name)
    geo = pos.geometry
    _rows(pos, SQUARES, parts[0])
    _rows(pos, POINTS, parts[1])
    if parts[2] not in ("w", "b"):
        raise FenError(f"bad side {parts[2]!r}")
    pos.side = "wb".index(parts[2])
    letters = pos.tables.castle_letters
    if parts[3] != "-":
        for ch in parts[3]:
            if ch not in letters:
                raise FenError(f"bad castling {parts[3]!r}")
            pos.castling |= 1 << letters.index(ch)
    t = pos.tables
    pos.live_castling = sum(bit for side in (0, 1) for bit, kf, _, rf, *_ in t.castles[side]
                            if pos.board[kf] == t.king_code[side] and pos.board[rf] == t.rook_code[side])
    if parts[4] != "-":
        for i in range(0, len(parts[4]), 2):
            try:
                cell = geo.parse_cell(parts[4][i:i + 2])
            except ValueError as e:
                raise FenError(f"bad en passant field {parts[4]!r}: {e}") from None
            pos.ep[geo.layer[cell]] = cell
    pos.halfmove, pos.fullmove = parse_counter(parts[5], "half-move clock"), parse_counter(parts[6], "move number", 1)
    pos.rehash()
    return pos


def _rows_text(pos: IntergridPosition, layer: int) -> str:
    geo = pos.geometry
    w, h = geo.dims[layer]
    return placement_text(([pos.board[geo.cell(layer, x, y)] for x in range(w)] for y in range(h - 1, -1, -1)),
                          pos.tables.symbol)


def intergrid_fen(pos: IntergridPosition) -> str:
    """The text of a turn-start position (ValueError inside a turn: write its start and the moves)."""
    if pos.phase:
        raise ValueError("a position text describes the start of a turn")
    castling = "".join(ch for i, ch in enumerate(pos.tables.castle_letters) if pos.castling >> i & 1)
    ep = "".join(pos.geometry.name(e) for e in pos.ep if e >= 0)
    return " ".join([_rows_text(pos, SQUARES), _rows_text(pos, POINTS), "wb"[pos.side], castling or "-",
                     ep or "-", str(pos.halfmove), str(pos.fullmove)])
