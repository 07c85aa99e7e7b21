"""Extended FEN: placement (ranks top to bottom, multi-digit empty runs), side, castling, en
passant, half-move clock, full-move number. Reading validates and explains what is wrong."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from .encoding import SIDE_SHIFT, code_of
from .position import Position
from .tables import MAX_HELD


class FenError(ValueError):
    """A malformed or impossible position text."""


#: The most digits of a counter field (half-move clock, move number, quiet turns): larger numbers
#: are refused before they are converted.
MAX_COUNTER_DIGITS = 9
_RANK_TOKEN = re.compile(r"([0-9]+)|(.)", re.S)  # a run of empty cells (ASCII digits) or one letter


def parse_rank(text: str, width: int, codes: Mapping[str, int], label: str, cells: str = "squares",
               error: type[FenError] = FenError) -> list[int]:
    """The piece codes of one rank of a placement (0 = empty), read from its letters and its runs of
    empty cells written as numbers; `error` (a FenError) unless it has exactly `width` cells. A run
    is checked against the room left on the rank before anything is allocated for it."""
    row: list[int] = []
    for token in _RANK_TOKEN.finditer(text):
        run = token[1]
        if run and run[0] == "0":
            raise error(f"{label}: bad empty-{cells[:-1]} count {run!r}")
        n = (int(run) if len(run) <= len(str(width)) else width + 1) if run else 1
        if n > width - len(row):
            raise error(f"{label} has more than {width} {cells}")
        if run:
            row.extend([0] * n)
            continue
        code = codes.get(token[2])
        if code is None:
            raise error(f"{label}: unknown piece letter {token[2]!r} (known: {''.join(sorted(codes))})")
        row.append(code)
    if len(row) != width:
        raise error(f"{label} has {len(row)} {cells}, expected {width}")
    return row


def parse_counter(text: str, name: str, low: int = 0, error: type[FenError] = FenError) -> int:
    """A counter field (ASCII digits, at least `low`); `error` (a FenError) naming the field otherwise."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_COUNTER_DIGITS or int(text) < low:
        raise error(f"bad {name} {text!r} (a whole number, at least {low}, at most {MAX_COUNTER_DIGITS} digits)")
    return int(text)


def _split_holdings(placement: str, variant) -> tuple[str, str]:
    """Placement and holdings text: Superchess writes holdings in brackets after the placement."""
    if "[" not in placement:
        if variant.holdings:
            raise FenError("holdings missing: write them in brackets after the placement, e.g. [NQBNnqbn] or []")
        return placement, ""
    if not variant.holdings:
        raise FenError(f"{variant.name} has no holdings (no brackets in its FEN)")
    board, _, rest = placement.partition("[")
    if not rest.endswith("]") or "]" in rest[:-1]:
        raise FenError(f"bad holdings {'[' + rest!r}: expected letters in brackets, e.g. [NQBNnqbn]")
    return board, rest[:-1]


def set_fen(pos: Position, fen: str) -> None:
    """Set `pos` (a fresh position) from FEN text, or raise FenError."""
    variant = pos.variant
    geo = variant.geometry
    t = pos.tables
    fields = fen.split()
    if len(fields) != 6:
        raise FenError(f"FEN needs 6 fields (placement, side, castling, en passant, half-move clock, "
                       f"move number), got {len(fields)}")
    placement, side, castling, ep, half, full = fields
    placement, held = _split_holdings(placement, variant)
    ranks = placement.split("/")
    if len(ranks) != geo.ranks:
        raise FenError(f"FEN has {len(ranks)} ranks, expected {geo.ranks}")
    letters = {}
    for ti, p in enumerate(variant.pieces, 1):
        letters[p.letter] = code_of(0, ti)
        letters[p.letter.lower()] = code_of(1, ti)
    if pos.hold is not None:
        for ch in held:
            code = letters.get(ch)
            if code is None or not t.holdable[code]:
                raise FenError(f"holdings: {ch!r} is not a piece that can be held")
            pos.hold[code >> SIDE_SHIFT][code & 63] += 1
    for i, text in enumerate(ranks):
        r = geo.ranks - 1 - i
        for f, code in enumerate(parse_rank(text, geo.files, letters, f"rank {r + 1}")):
            if code:
                pos.put(geo.cell(f, r), code)
    for s in (0, 1):
        kings = [c for c in pos.occ[s] if t.checkable[pos.board[c]]]
        if any(p.checkable for p in variant.pieces) and len(kings) != 1:
            raise FenError(f"Player {s + 1} must have exactly one King, has {len(kings)}")
        last = geo.ranks - 1 if s == 0 else 0
        for c in pos.occ[s]:
            if t.pawn[pos.board[c]] and geo.rank_of(c) == last:
                raise FenError(f"pawn on {geo.name(c)} stands on its promotion rank")
        if pos.hold is not None:  # captures and promotions only move a piece between board and holdings
            owned = Counter(pos.board[c] & 63 for c in pos.occ[s])
            if any(n + owned[ti] > MAX_HELD for ti, n in enumerate(pos.hold[s]) if n):
                raise FenError(f"Player {s + 1} holds and owns more than {MAX_HELD} pieces of one type")
    if side not in ("w", "b"):
        raise FenError(f"side to move must be 'w' or 'b', not {side!r}")
    pos.side = 0 if side == "w" else 1
    if castling != "-":
        for ch in castling:
            if ch not in t.castle_letters:
                raise FenError(f"bad castling right {ch!r} (use {''.join(t.castle_letters)} or -)")
            i = t.castle_letters.index(ch)
            bit, kf, _, rf, _, _, _, _ = t.castle_entries[i]
            if pos.castling & bit:
                raise FenError(f"castling right {ch!r} given twice")
            s = 0 if ch.isupper() else 1
            if pos.board[kf] != t.king_code[s] or pos.letter_at(rf) is None \
                    or pos.board[rf] >> SIDE_SHIFT != s or variant.by_letter[pos.letter_at(rf)].castles != "rook":
                raise FenError(f"castling right {ch!r} needs the King on {geo.name(kf)} and the Rook on "
                               f"{geo.name(rf)}")
            pos.castling |= bit
    if ep != "-":
        try:
            cell = geo.parse_cell(ep)
        except ValueError as e:
            raise FenError(f"bad en passant square: {e}") from None
        mover = pos.side ^ 1  # the side that made the double step
        step = geo.files if mover == 0 else -geo.files
        pawn_cell = cell + step
        if (not variant.en_passant or pos.board[cell] or not 0 <= pawn_cell < geo.size
                or not t.pawn[pos.board[pawn_cell]] or pos.board[pawn_cell] >> SIDE_SHIFT != mover
                or pos.board[cell - step]):
            raise FenError(f"en passant square {ep} does not follow a two-square pawn advance")
        pos.ep = cell
    pos.halfmove, pos.fullmove = parse_counter(half, "half-move clock"), parse_counter(full, "move number", 1)
    if pos.kings[pos.side ^ 1] >= 0 and pos.is_attacked(pos.kings[pos.side ^ 1], pos.side):
        raise FenError("the side not to move is in check")
    if pos.ep >= 0 and pos.ep_capturable():
        pos.ep_key = t.z_ep[pos.ep]
    pos.hash = pos.rehash()


_EMPTY = "\0"  # marks an empty cell while a placement is written; runs of it become their lengths
_MARKED: dict[int, tuple[list[str], list[str]]] = {}  # id(symbol table) -> (it, it with empties marked)


def placement_text(rows, symbol: list[str] | None = None) -> str:
    """A FEN placement field from rows of piece codes (0 = empty), the top row first, each piece
    written as `symbol[code]` (without `symbol` the rows hold the letters, "" = empty), each run of
    empty cells as its length."""
    if symbol is None:
        text = "/".join("".join(x or _EMPTY for x in row) for row in rows)
    else:
        hit = _MARKED.get(id(symbol))  # the entry holds the table, so its id is not reused meanwhile
        if hit is None or hit[0] is not symbol:
            hit = _MARKED[id(symbol)] = (symbol, [x or _EMPTY for x in symbol])
        get = hit[1].__getitem__
        text = "/".join("".join(map(get, row)) for row in rows)
    for n in range(max(map(len, text.split("/"))), 0, -1):  # the longest runs first, so each run is written whole
        run = _EMPTY * n
        if run in text:
            text = text.replace(run, str(n))
    return text


def board_fen(pos: Position) -> str:
    files, board = pos.variant.geometry.files, pos.board
    return placement_text((board[r * files:r * files + files] for r in range(pos.variant.geometry.ranks - 1, -1, -1)),
                          pos.tables.symbol)


def get_fen(pos: Position) -> str:
    t = pos.tables
    rights = "".join(letter for i, letter in enumerate(t.castle_letters) if pos.castling >> i & 1) or "-"
    ep = pos.variant.geometry.name(pos.ep) if pos.ep >= 0 else "-"
    side = "w" if pos.side == 0 else "b"
    return f"{board_fen(pos)}{holdings_text(pos)} {side} {rights} {ep} {pos.halfmove} {pos.fullmove}"


def holdings_text(pos: Position) -> str:
    """`[NQBnqb]`: Player 1's held pieces upper case, then Player 2's lower case ("" without holdings)."""
    if pos.hold is None:
        return ""
    pieces = pos.variant.pieces
    return "[" + "".join(pieces[ti - 1].letter if side == 0 else pieces[ti - 1].letter.lower()
                         for side in (0, 1) for ti, n in enumerate(pos.hold[side]) if ti for _ in range(n)) + "]"
