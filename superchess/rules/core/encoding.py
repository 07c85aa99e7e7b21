"""Integer encodings used on the hot path.

Piece code: side << 6 | type index (type index 1..63; 0 is an empty cell). Player 1 = side 0.
Move: from cell | to cell << 10 | flags; promotion type index (or castling entry) << 24; with MULTI,
a record index << 31.
"""
CELL_BITS = 10
CELL_MASK = (1 << CELL_BITS) - 1
TO_SHIFT = CELL_BITS

DOUBLE = 1 << 20    # two-square pawn advance: grants en passant
EP = 1 << 21        # en passant capture
CASTLE = 1 << 22    # castling; the castling entry index is in the PROMO field
DESTROY = 1 << 23   # capture in which the mover is removed too (Fortress rule)
PROMO_SHIFT = 24
PROMO_MASK = 63
# a move applied through its interned record (diagram variants: captures off the destination,
# swaps, passes, succession); the record's index is in the bits from RECORD_SHIFT up
MULTI = 1 << 30
RECORD_SHIFT = 31
SPECIAL = DOUBLE | EP | CASTLE | DESTROY | MULTI | (PROMO_MASK << PROMO_SHIFT)

SIDE_SHIFT = 6
SIDE_BIT = 1 << SIDE_SHIFT
MAX_CODE = 2 << SIDE_SHIFT


def code_of(side: int, type_index: int) -> int:
    return side << SIDE_SHIFT | type_index


def side_of(code: int) -> int:
    return code >> SIDE_SHIFT


def type_of(code: int) -> int:
    return code & (SIDE_BIT - 1)


def move_from(m: int) -> int:
    return m & CELL_MASK


def move_to(m: int) -> int:
    return (m >> TO_SHIFT) & CELL_MASK


def move_promo(m: int) -> int:
    return (m >> PROMO_SHIFT) & PROMO_MASK
