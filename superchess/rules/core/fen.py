"""Extended FEN: placement (ranks top to bottom, multi-digit empty runs), side, castling, en
passant, half-move clock, full-move number. Reading validates and explains what is wrong."""
from __future__ import annotations

from collections import Counter

from .encoding import SIDE_SHIFT, code_of
from .position import Position
from .tables import MAX_HELD
from .text import FenError, parse_counter, parse_rank, placement_text


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
