"""InterGrid Chess (../shared/rules/intergrid.md) as a pure, self-contained rules module: the test oracle.

Two lattices on one board: 64 *squares* (a1..h8) and 81 *points* (A0..I8, the grid intersections).
Each layer plays orthodox chess; every step of a move is checked against the other layer (3.1, 3.2);
pieces of one layer capture pieces of the other by enclosure (4). A turn is one square move and an
optional point move; check is judged at the end of the turn (5, R7, R8).

The module works on its own explicit :class:`State`, written straight from the rules text and
independent of the core: `Board("intergrid")` runs on the core (`superchess/rules/intergrid/`) and the
seeded differential tests (tests/rules/intergrid/) compare it with this module move by move.

Coordinates (1, R1): square (f, r) with f, r in 0..7 covers x in [f, f+1], y in [r, r+1] (rank r+1);
point (F, R) with F, R in 0..8 sits at x = F, y = R. So square (f, r) has corners (f, r), (f+1, r),
(f, r+1), (f+1, r+1), and point ``Xn`` is the upper-left corner of square ``xn``.
Cells are indices: square ``r * 8 + f``, point ``R * 9 + F``.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

__all__ = [
    "START_FEN",
    "Applied",
    "FenError",
    "Move",
    "Outcome",
    "State",
    "Turn",
    "apply",
    "apply_point",
    "apply_square",
    "completions",
    "corners",
    "fen",
    "has_legal_turn",
    "insufficient_material",
    "is_check",
    "is_checkmate",
    "is_edge_point",
    "is_stalemate",
    "king_attacked",
    "legal_square_moves",
    "legal_turns",
    "outcome",
    "parse_fen",
    "parse_move",
    "parse_point",
    "parse_square",
    "parse_turn",
    "piece_destinations",
    "point_moves",
    "point_name",
    "point_step_blocked",
    "position",
    "repetition_key",
    "square_attacked",
    "square_moves",
    "square_name",
    "square_step_blocked",
    "squares_around",
    "start",
    "turn_text",
]

# --------------------------------------------------------------------------- data

#: Square lattice is 8 x 8, point lattice 9 x 9 (points are "the squares of a 9 x 9 board", 3).
SQ_N = 8
PT_N = 9
SQ_FILES = "abcdefgh"
PT_FILES = "ABCDEFGHI"

#: Piece letters, the same for both layers (1): the layer is given by where a piece stands, the
#: colour by the letter's case in positions (upper = White), as in FEN.
PIECE_LETTERS = "KQRBNP"
#: Promotion choices per layer (3.4): a square pawn promotes to a square Q/R/B/N, a point pawn to a
#: point Q/R/B/N; there is no point King, so "K" is never a point piece.
PROMOTIONS = "QRBN"
POINT_LETTERS = "QRBNP"

#: The start array of 2 (note the square King on d and Queen on e; no point King; E2/E6 empty).
START_FEN = ("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR "
             "9/1nbrqrnb1/pppp1pppp/9/9/9/PPPP1PPPP/1NBRQRNB1/9 w KQkq - 0 1")

#: Pawn geometry per layer and colour (3.4, R9): forward direction, start row (double step),
#: promotion row. Square rows are rank index 0..7, point rows are lines 0..8.
PAWN = {
    ("s", "w"): (1, 1, 7),
    ("s", "b"): (-1, 6, 0),
    ("p", "w"): (1, 2, 8),
    ("p", "b"): (-1, 6, 0),
}

#: Castling (3.5): the King starts on the d-file. Per right: king home, king target, rook home,
#: rook target, squares that must be empty, squares the King passes (incl. landing) that must not be
#: attacked. Written as names and converted below, so the table reads like the rules text.
_CASTLING_TEXT = {
    "Q": ("d1", "b1", "a1", "c1", ("b1", "c1"), ("c1", "b1")),
    "K": ("d1", "f1", "h1", "e1", ("e1", "f1", "g1"), ("e1", "f1")),
    "q": ("d8", "b8", "a8", "c8", ("b8", "c8"), ("c8", "b8")),
    "k": ("d8", "f8", "h8", "e8", ("e8", "f8", "g8"), ("e8", "f8")),
}

#: Draw thresholds (5): 50 turns by each side without capture or pawn move = 100 turns on the clock,
#: which counts turns (1.1); threefold repetition.
MOVE_RULE_TURNS = 100
REPETITIONS = 3

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KING = ORTHO + DIAG
RAYS = {"R": ORTHO, "B": DIAG, "Q": KING}


# --------------------------------------------------------------------------- names

def sq(f: int, r: int) -> int:
    return r * SQ_N + f


def pt(f: int, r: int) -> int:
    return r * PT_N + f


def sq_xy(i: int) -> tuple[int, int]:
    return i % SQ_N, i // SQ_N


def pt_xy(i: int) -> tuple[int, int]:
    return i % PT_N, i // PT_N


def square_name(i: int) -> str:
    f, r = sq_xy(i)
    return f"{SQ_FILES[f]}{r + 1}"


def point_name(i: int) -> str:
    f, r = pt_xy(i)
    return f"{PT_FILES[f]}{r}"


def parse_square(name: str) -> int:
    if len(name) != 2 or name[0] not in SQ_FILES or name[1] not in "12345678":
        raise ValueError(f"bad square name {name!r}")
    return sq(SQ_FILES.index(name[0]), int(name[1]) - 1)


def parse_point(name: str) -> int:
    if len(name) != 2 or name[0] not in PT_FILES or name[1] not in "012345678":
        raise ValueError(f"bad point name {name!r}")
    return pt(PT_FILES.index(name[0]), int(name[1]))


def corners(s: int) -> tuple[int, ...]:
    """The 4 points adjacent to square ``s`` (1)."""
    f, r = sq_xy(s)
    return (pt(f, r), pt(f + 1, r), pt(f, r + 1), pt(f + 1, r + 1))


def squares_around(p: int) -> tuple[int, ...]:
    """The 1, 2 or 4 squares having point ``p`` as a corner (1)."""
    F, R = pt_xy(p)
    return tuple(sq(f, r) for r in (R - 1, R) for f in (F - 1, F) if 0 <= f < SQ_N and 0 <= r < SQ_N)


def is_edge_point(p: int) -> bool:
    F, R = pt_xy(p)
    return F in (0, PT_N - 1) or R in (0, PT_N - 1)


def _opposite_square(s: int, p: int) -> int | None:
    """The square diagonally opposite ``s`` across its corner ``p``; None off the board (edge)."""
    f, r = sq_xy(s)
    F, R = pt_xy(p)
    f2, r2 = 2 * F - f - 1, 2 * R - r - 1
    return sq(f2, r2) if 0 <= f2 < SQ_N and 0 <= r2 < SQ_N else None


def _opposite_corner(s: int, p: int) -> int:
    """The corner of square ``s`` diagonally opposite its corner ``p``."""
    f, r = sq_xy(s)
    F, R = pt_xy(p)
    return pt(2 * f + 1 - F, 2 * r + 1 - R)


# --------------------------------------------------------------------------- blocking (3.1-3.3)

def square_step_blocked(points: Sequence[str | None], f: int, r: int, df: int, dr: int) -> bool:
    """Is the single step of a square-piece from square (f, r) by (df, dr) blocked by point-pieces?

    Orthogonal: blocked when both endpoints of the crossed grid segment hold point-pieces (3.1; R2:
    no edge effect for square-pieces). Diagonal: blocked when the common corner is occupied. Pieces
    of either colour count (R3). Knight leaps are never blocked (3.3).
    """
    if abs(df) + abs(dr) == 3:
        return False
    if df and dr:
        return points[pt(max(f, f + df), max(r, r + dr))] is not None
    if df:
        x = max(f, f + df)
        return points[pt(x, r)] is not None and points[pt(x, r + 1)] is not None
    y = max(r, r + dr)
    return points[pt(f, y)] is not None and points[pt(f + 1, y)] is not None


def point_step_blocked(squares: Sequence[str | None], F: int, R: int, dF: int, dR: int) -> bool:
    """Is the single step of a point-piece from point (F, R) by (dF, dR) blocked by square-pieces?

    Orthogonal: blocked when every square bordering the segment is occupied - two for an interior
    segment, the single one for an edge segment (3.2, R2). Diagonal: blocked when the crossed square
    is occupied. Either colour (R3); Knights never blocked (3.3).
    """
    if abs(dF) + abs(dR) == 3:
        return False
    if dF and dR:
        return squares[sq(min(F, F + dF), min(R, R + dR))] is not None
    if dF:
        x = min(F, F + dF)
        cells = [(x, R - 1), (x, R)]
    else:
        y = min(R, R + dR)
        cells = [(F - 1, y), (F, y)]
    return all(squares[sq(f, r)] is not None for f, r in cells if 0 <= f < SQ_N and 0 <= r < SQ_N)


# --------------------------------------------------------------------------- state and moves

def color_of(piece: str) -> str:
    return "w" if piece.isupper() else "b"


def other(color: str) -> str:
    return "b" if color == "w" else "w"


@dataclass(frozen=True)
class State:
    """A position, with both layers and the turn phase.

    ``squares``: 64 entries, ``points``: 81 entries; each a piece letter (upper-case White) or None.
    ``phase`` is ``"square"`` at the start of a turn and ``"point"`` between the square move and the
    (optional) point move of the same side. En passant targets are kept per layer (3.4): at the start
    of a turn both were set by the opponent's last turn; after the square move ``ep_square`` holds the
    mover's own (for the opponent's next square move) while ``ep_point`` still holds the opponent's,
    usable by the mover's point move. ``halfmove`` counts turns (1.1); in the point phase it already
    includes the current turn.
    """
    squares: tuple
    points: tuple
    turn: str = "w"
    castling: str = "KQkq"
    ep_square: int | None = None
    ep_point: int | None = None
    halfmove: int = 0
    fullmove: int = 1
    phase: str = "square"

    def layer(self, layer: str) -> tuple:
        return self.squares if layer == "s" else self.points

    def king(self, color: str) -> int | None:
        k = "K" if color == "w" else "k"
        try:
            return self.squares.index(k)
        except ValueError:
            return None


class Move(NamedTuple):
    """One move in one layer: ``layer`` is "s" (square) or "p" (point); ``frm``/``to`` are cell
    indices of that layer; ``promo`` is an upper-case letter or None. Castling is the square King's
    two-file move (d1b1, d1f1)."""
    layer: str
    frm: int
    to: int
    promo: str | None = None

    def text(self) -> str:
        name = square_name if self.layer == "s" else point_name
        promo = ""
        if self.promo:
            promo = self.promo.lower() if self.layer == "s" else self.promo.upper()
        return name(self.frm) + name(self.to) + promo

    def __str__(self) -> str:
        return self.text()


class Turn(NamedTuple):
    """A whole turn: the mandatory square move and the optional point move (R8)."""
    square: Move
    point: Move | None = None

    def text(self) -> str:
        return self.square.text() + (" " + self.point.text() if self.point else "")

    def __str__(self) -> str:
        return self.text()


# --------------------------------------------------------------------------- FEN (1.1, R15)

class FenError(ValueError):
    pass


def _parse_rows(text: str, n: int, allowed: str) -> list:
    rows = text.split("/")
    if len(rows) != n:
        raise FenError(f"expected {n} rows in {text!r}")
    cells: list = [None] * (n * n)
    for i, row in enumerate(rows):
        r = n - 1 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            elif ch.upper() in allowed:
                if f >= n:
                    raise FenError(f"row too long: {row!r}")
                cells[r * n + f] = ch
                f += 1
            else:
                raise FenError(f"bad piece {ch!r} in {row!r}")
        if f != n:
            raise FenError(f"row {row!r} has {f} cells, expected {n}")
    return cells


def _rows_text(cells: Sequence[str | None], n: int) -> str:
    out = []
    for r in range(n - 1, -1, -1):
        row, empty = "", 0
        for f in range(n):
            c = cells[r * n + f]
            if c is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + c
                empty = 0
        out.append(row + (str(empty) if empty else ""))
    return "/".join(out)


def parse_fen(text: str) -> State:
    parts = text.split()
    if len(parts) != 7:
        raise FenError("expected 7 fields: squares points side castling ep halfmove fullmove")
    squares = _parse_rows(parts[0], SQ_N, PIECE_LETTERS)
    points = _parse_rows(parts[1], PT_N, POINT_LETTERS)
    if parts[2] not in ("w", "b"):
        raise FenError(f"bad side {parts[2]!r}")
    castling = "" if parts[3] == "-" else parts[3]
    if any(c not in "KQkq" for c in castling):
        raise FenError(f"bad castling {parts[3]!r}")
    ep_s = ep_p = None
    if parts[4] != "-":
        ep = parts[4]
        for i in range(0, len(ep), 2):
            name = ep[i:i + 2]
            try:
                if name[:1].islower():
                    ep_s = parse_square(name)
                else:
                    ep_p = parse_point(name)
            except ValueError as e:
                raise FenError(str(e)) from None
    try:
        half, full = int(parts[5]), int(parts[6])
    except ValueError:
        raise FenError("bad clocks") from None
    order = "".join(c for c in "KQkq" if c in castling)
    return State(tuple(squares), tuple(points), parts[2], order, ep_s, ep_p, half, full)


def fen(state: State) -> str:
    if state.phase != "square":
        raise ValueError("a position text describes the start of a turn (phase 'square')")
    ep = ""
    if state.ep_square is not None:
        ep += square_name(state.ep_square)
    if state.ep_point is not None:
        ep += point_name(state.ep_point)
    return " ".join([_rows_text(state.squares, SQ_N), _rows_text(state.points, PT_N), state.turn,
                     state.castling or "-", ep or "-", str(state.halfmove), str(state.fullmove)])


def start() -> State:
    return parse_fen(START_FEN)


def position(pieces: dict[str, str], side: str = "w", castling: str = "-", ep: str = "-",
             halfmove: int = 0, fullmove: int = 1, phase: str = "square") -> State:
    """A state from {"a3": "R", "B2": "P", ...}: the name's case gives the layer, the letter's case
    the colour (upper = White)."""
    squares: list = [None] * 64
    points: list = [None] * 81
    for name, letter in pieces.items():
        if name[0].islower():
            squares[parse_square(name)] = letter
        else:
            points[parse_point(name)] = letter
    state = State(tuple(squares), tuple(points), side, "", None, None, halfmove, fullmove)
    state = parse_fen(fen(state).rsplit(" ", 4)[0] + f" {castling} {ep} {halfmove} {fullmove}")
    return replace(state, phase=phase)


# --------------------------------------------------------------------------- move generation

def _layer_geometry(layer: str):
    if layer == "s":
        return SQ_N, square_step_blocked
    return PT_N, point_step_blocked


def _piece_moves(state: State, layer: str, i: int) -> Iterator[Move]:
    """Pseudo-legal moves of the piece on cell ``i`` of ``layer`` (no castling)."""
    n, blocked = _layer_geometry(layer)
    own = state.layer(layer)
    cross = state.points if layer == "s" else state.squares
    piece = own[i]
    color = color_of(piece)
    kind = piece.upper()
    x, y = i % n, i // n

    def enemy(c):
        return c is not None and color_of(c) != color

    if kind == "N":
        for dx, dy in KNIGHT:
            tx, ty = x + dx, y + dy
            if 0 <= tx < n and 0 <= ty < n:
                t = own[ty * n + tx]
                if t is None or enemy(t):
                    yield Move(layer, i, ty * n + tx)
    elif kind == "K":
        for dx, dy in KING:
            tx, ty = x + dx, y + dy
            if 0 <= tx < n and 0 <= ty < n and not blocked(cross, x, y, dx, dy):
                t = own[ty * n + tx]
                if t is None or enemy(t):
                    yield Move(layer, i, ty * n + tx)
    elif kind in RAYS:
        for dx, dy in RAYS[kind]:
            cx, cy = x, y
            while True:
                tx, ty = cx + dx, cy + dy
                if not (0 <= tx < n and 0 <= ty < n) or blocked(cross, cx, cy, dx, dy):
                    break
                t = own[ty * n + tx]
                if t is not None and not enemy(t):
                    break
                yield Move(layer, i, ty * n + tx)
                if t is not None:
                    break
                cx, cy = tx, ty
    elif kind == "P":
        d, start_row, promo_row = PAWN[(layer, color)]
        ep = state.ep_square if layer == "s" else state.ep_point

        def emit(to):
            if to // n == promo_row:
                for p in PROMOTIONS:
                    yield Move(layer, i, to, p)
            else:
                yield Move(layer, i, to)

        ty = y + d
        if 0 <= ty < n:
            one = ty * n + x
            if own[one] is None and not blocked(cross, x, y, 0, d):
                yield from emit(one)
                ty2 = ty + d
                if y == start_row and 0 <= ty2 < n and own[ty2 * n + x] is None \
                        and not blocked(cross, x, ty, 0, d):
                    yield Move(layer, i, ty2 * n + x)
            for dx in (-1, 1):
                tx = x + dx
                if not 0 <= tx < n or blocked(cross, x, y, dx, d):
                    continue
                to = ty * n + tx
                if enemy(own[to]):
                    yield from emit(to)
                elif to == ep and own[to] is None:
                    victim = own[y * n + tx]
                    if victim is not None and enemy(victim) and victim.upper() == "P":
                        yield Move(layer, i, to)


def _layer_moves(state: State, layer: str, color: str) -> Iterator[Move]:
    cells = state.layer(layer)
    for i, c in enumerate(cells):
        if c is not None and color_of(c) == color:
            yield from _piece_moves(state, layer, i)


def _castling_moves(state: State) -> Iterator[Move]:
    color = state.turn
    for right in (("K", "Q") if color == "w" else ("k", "q")):
        if right not in state.castling:
            continue
        kh, kt, rh, rt, empty, passed = _CASTLING[right]
        king, rook = ("K", "R") if color == "w" else ("k", "r")
        if state.squares[kh] != king or state.squares[rh] != rook:
            continue
        if any(state.squares[s] is not None for s in empty):
            continue
        if _path_blocked(state.points, kh, kt) or _path_blocked(state.points, rh, rt):
            continue  # 3.5, R10: a point barrier on any orthogonal step of King or Rook
        enemy = other(color)
        if square_attacked(state, kh, enemy):
            continue
        ok = True
        for s in passed:  # "attacked" as in 5 for a King standing there
            sqs = list(state.squares)
            sqs[kh] = None
            sqs[s] = king
            if square_attacked(replace(state, squares=tuple(sqs)), s, enemy):
                ok = False
                break
        if ok:
            yield Move("s", kh, kt)


def _path_blocked(points, a: int, b: int) -> bool:
    (f, r), (f2, _) = sq_xy(a), sq_xy(b)
    d = 1 if f2 > f else -1
    while f != f2:
        if square_step_blocked(points, f, r, d, 0):
            return True
        f += d
    return False


_CASTLING = {k: (parse_square(v[0]), parse_square(v[1]), parse_square(v[2]), parse_square(v[3]),
                 tuple(parse_square(s) for s in v[4]), tuple(parse_square(s) for s in v[5]))
             for k, v in _CASTLING_TEXT.items()}


def square_moves(state: State) -> list[Move]:
    """Pseudo-legal square moves of the side to move, castling fully checked (3.5).

    Whether a square move belongs to a legal turn depends on the point move that follows (R7); see
    :func:`legal_turns` and :func:`legal_square_moves`.
    """
    return list(_layer_moves(state, "s", state.turn)) + list(_castling_moves(state))


def point_moves(state: State) -> list[Move]:
    """Pseudo-legal point moves of the side to move (normally on the state after its square move)."""
    return list(_layer_moves(state, "p", state.turn))


def piece_destinations(state: State, name: str) -> set[str]:
    """Names of the pseudo-legal destinations of the piece on ``name`` (square or point), whatever
    side is to move; castling excluded. Used to state the worked examples."""
    layer = "s" if name[0].islower() else "p"
    i = parse_square(name) if layer == "s" else parse_point(name)
    piece = state.layer(layer)[i]
    if piece is None:
        return set()
    st = replace(state, turn=color_of(piece))
    namef = square_name if layer == "s" else point_name
    return {namef(m.to) for m in _piece_moves(st, layer, i)}


# --------------------------------------------------------------------------- attack (5, R7)

def square_attacked(state: State, s: int, by: str) -> bool:
    """Is square ``s`` attacked by side ``by`` (5): an enemy square-piece can move to ``s``, or an
    enemy point-piece can move to a corner ``c`` of ``s`` while the corner opposite ``c`` holds another
    enemy point-piece. Evaluated as single moves on the current position; a point en passant counts
    only if ``by`` may play it (it is ``by``'s turn)."""
    squares, points = state.squares, state.points
    f, r = sq_xy(s)

    def is_by(c, kinds):
        return c is not None and color_of(c) == by and c.upper() in kinds

    # square layer: reverse lookup from s (every blocking test is symmetric)
    for dx, dy in KNIGHT:
        tx, ty = f + dx, r + dy
        if 0 <= tx < SQ_N and 0 <= ty < SQ_N and is_by(squares[sq(tx, ty)], "N"):
            return True
    for dx, dy in KING:
        cx, cy, dist = f, r, 0
        slider = "Q" + ("R" if dx == 0 or dy == 0 else "B")
        while True:
            tx, ty = cx + dx, cy + dy
            dist += 1
            if not (0 <= tx < SQ_N and 0 <= ty < SQ_N) or square_step_blocked(points, cx, cy, dx, dy):
                break
            c = squares[sq(tx, ty)]
            if c is not None:
                if is_by(c, slider) or (dist == 1 and is_by(c, "K")):
                    return True
                # a pawn captures diagonally forward: it stands one row behind s (its direction)
                if dist == 1 and dx and dy and is_by(c, "P") and dy == -PAWN[("s", by)][0]:
                    return True
                break
            cx, cy = tx, ty
    # point layer: enclosure
    for c in corners(s):
        o = _opposite_corner(s, c)
        partner = points[o]
        if partner is None or color_of(partner) != by:
            continue
        if points[c] is not None and color_of(points[c]) == by:
            continue
        if _point_reaches(state, c, by, exclude=o):
            return True
    return False


def _point_reaches(state: State, c: int, by: str, exclude: int) -> bool:
    """Can a point-piece of ``by`` (not the one on ``exclude``) move to point ``c``?"""
    squares, points = state.squares, state.points
    F, R = pt_xy(c)
    target = points[c]

    def is_by(i, kinds):
        p = points[i]
        return i != exclude and p is not None and color_of(p) == by and p.upper() in kinds

    for dx, dy in KNIGHT:
        tx, ty = F + dx, R + dy
        if 0 <= tx < PT_N and 0 <= ty < PT_N and is_by(pt(tx, ty), "N"):
            return True
    for dx, dy in KING:
        cx, cy, dist = F, R, 0
        slider = "Q" + ("R" if dx == 0 or dy == 0 else "B")
        while True:
            tx, ty = cx + dx, cy + dy
            dist += 1
            if not (0 <= tx < PT_N and 0 <= ty < PT_N) or point_step_blocked(squares, cx, cy, dx, dy):
                break
            i = pt(tx, ty)
            if points[i] is not None:
                if is_by(i, slider) or (dist == 1 and is_by(i, "K")):
                    return True
                break
            cx, cy = tx, ty
    d, start_row, _ = PAWN[("p", by)]
    if target is None:
        # forward single / double step into c
        b1 = R - d
        if 0 <= b1 < PT_N and not point_step_blocked(squares, F, b1, 0, d):
            if is_by(pt(F, b1), "P"):
                return True
            b2 = b1 - d
            if points[pt(F, b1)] is None and b2 == start_row and is_by(pt(F, b2), "P") \
                    and not point_step_blocked(squares, F, b2, 0, d):
                return True
        # en passant into c, if it is by's right
        if c == state.ep_point and state.turn == by:
            victim = points[pt(F, R - d)] if 0 <= R - d < PT_N else None
            if victim is not None and color_of(victim) != by and victim.upper() == "P":
                for dx in (-1, 1):
                    sx, sy = F - dx, R - d
                    if 0 <= sx < PT_N and is_by(pt(sx, sy), "P") \
                            and not point_step_blocked(squares, sx, sy, dx, d):
                        return True
    else:
        for dx in (-1, 1):
            sx, sy = F - dx, R - d
            if 0 <= sx < PT_N and 0 <= sy < PT_N and is_by(pt(sx, sy), "P") \
                    and not point_step_blocked(squares, sx, sy, dx, d):
                return True
    return False


def king_attacked(state: State, color: str) -> bool:
    k = state.king(color)
    return k is not None and square_attacked(state, k, other(color))


def is_check(state: State) -> bool:
    """Is the King of the side to move attacked (5)?"""
    return king_attacked(state, state.turn)


# --------------------------------------------------------------------------- applying moves (4)

def _update_castling(castling: str, squares, touched: set[int]) -> str:
    out = ""
    for right in castling:
        kh, _, rh, _, _, _ = _CASTLING[right]
        king, rook = ("K", "R") if right.isupper() else ("k", "r")
        if kh in touched or rh in touched or squares[kh] != king or squares[rh] != rook:
            continue
        out += right
    return out


def square_captures_by_arrival(squares, points, arrivals: Sequence[int], color: str) -> set[int]:
    """Points whose enemy point-pieces the arriving square-pieces capture: enclosure with a friendly
    square-piece diagonally opposite across the point (4.3), or the edge rule (4.4, R5)."""
    removed = set()
    for s in arrivals:
        for p in corners(s):
            c = points[p]
            if c is None or color_of(c) == color:
                continue
            o = _opposite_square(s, p)
            if o is None or squares[o] is not None and color_of(squares[o]) == color:  # only edge points have no square opposite: edge rule
                removed.add(p)
    return removed


def point_captures_by_arrival(squares, points, p: int, color: str) -> set[int]:
    """Squares whose enemy square-pieces a point-piece arriving on ``p`` captures by enclosure (4.2)."""
    removed = set()
    for s in squares_around(p):
        c = squares[s]
        if c is None or color_of(c) == color:
            continue
        partner = points[_opposite_corner(s, p)]
        if partner is not None and color_of(partner) == color:
            removed.add(s)
    return removed


class Applied(NamedTuple):
    state: State
    captured_squares: frozenset  # square cells whose pieces were removed
    captured_points: frozenset


def apply_square(state: State, m: Move) -> Applied:
    """Play the square move of the side to move; the result is in the point phase (same side)."""
    assert state.phase == "square" and m.layer == "s"
    color = state.turn
    squares = list(state.squares)
    points = list(state.points)
    piece = squares[m.frm]
    kind = piece.upper()
    cap_s: set[int] = set()
    arrivals = [m.to]
    ep_square = None
    (f, r), (tf, tr) = sq_xy(m.frm), sq_xy(m.to)
    if squares[m.to] is not None:
        cap_s.add(m.to)
    if kind == "P" and f != tf and squares[m.to] is None:  # en passant
        cap_s.add(sq(tf, r))
        squares[sq(tf, r)] = None
    if kind == "P" and abs(tr - r) == 2:
        ep_square = sq(f, (r + tr) // 2)
    squares[m.frm] = None
    squares[m.to] = (m.promo if color == "w" else m.promo.lower()) if m.promo else piece
    touched = {m.frm, m.to}
    if kind == "K" and abs(tf - f) == 2:  # castling: the Rook moves too and also captures (R12)
        right = next(k for k, v in _CASTLING.items() if v[0] == m.frm and v[1] == m.to)
        _, _, rh, rt, _, _ = _CASTLING[right]
        squares[rt] = squares[rh]
        squares[rh] = None
        arrivals.append(rt)
        touched |= {rh, rt}
    cap_p = square_captures_by_arrival(squares, points, arrivals, color)
    for p in cap_p:
        points[p] = None
    reset = kind == "P" or bool(cap_s) or bool(cap_p)
    new = replace(state, squares=tuple(squares), points=tuple(points), phase="point",
                  castling=_update_castling(state.castling, squares, touched),
                  ep_square=ep_square, halfmove=0 if reset else state.halfmove + 1)
    return Applied(new, frozenset(cap_s), frozenset(cap_p))


def apply_point(state: State, m: Move | None) -> Applied:
    """Play the optional point move (None = end the turn without one); the turn passes."""
    assert state.phase == "point"
    color = state.turn
    squares = list(state.squares)
    points = list(state.points)
    cap_s: set[int] = set()
    cap_p: set[int] = set()
    ep_point = None
    halfmove = state.halfmove
    if m is not None:
        assert m.layer == "p"
        piece = points[m.frm]
        kind = piece.upper()
        (F, R), (tF, tR) = pt_xy(m.frm), pt_xy(m.to)
        if points[m.to] is not None:
            cap_p.add(m.to)
        if kind == "P" and F != tF and points[m.to] is None:  # en passant
            cap_p.add(pt(tF, R))
            points[pt(tF, R)] = None
        if kind == "P" and abs(tR - R) == 2:
            ep_point = pt(F, (R + tR) // 2)
        points[m.frm] = None
        points[m.to] = (m.promo if color == "w" else m.promo.lower()) if m.promo else piece
        cap_s = point_captures_by_arrival(squares, points, m.to, color)
        for s in cap_s:
            squares[s] = None
        if kind == "P" or cap_p or cap_s:
            halfmove = 0
    new = replace(state, squares=tuple(squares), points=tuple(points), phase="square",
                  turn=other(color), ep_point=ep_point, halfmove=halfmove,
                  castling=_update_castling(state.castling, squares, set()),
                  fullmove=state.fullmove + (1 if color == "b" else 0))
    return Applied(new, frozenset(cap_s), frozenset(cap_p))


def apply(state: State, turn: Turn) -> State:
    """Play a whole turn (no legality check; use :func:`legal_turns` / :func:`parse_turn`)."""
    mid = apply_square(state, turn.square).state
    return apply_point(mid, turn.point).state


# --------------------------------------------------------------------------- legality (5, R7, R8)

def _turn_ok(final: State, mover: str) -> bool:
    """A turn is legal if at its end the mover's King is not attacked, or if it captured the enemy
    King (5: the capturing side wins at once; R7)."""
    if final.king(other(mover)) is None:
        return True
    return not king_attacked(final, mover)


def completions(state: State, m: Move) -> Iterator[Turn]:
    """The legal turns starting with square move ``m`` (without point move first)."""
    mover = state.turn
    mid = apply_square(state, m).state
    if mid.king(other(mover)) is None:  # King captured by the square move: the game is over
        yield Turn(m)
        return
    if _turn_ok(apply_point(mid, None).state, mover):
        yield Turn(m)
    for pm in point_moves(mid):
        if _turn_ok(apply_point(mid, pm).state, mover):
            yield Turn(m, pm)


def legal_turns(state: State) -> Iterator[Turn]:
    """All legal turns of the side to move (generator), square move order then point move order."""
    if state.king("w") is None or state.king("b") is None:
        return
    for m in square_moves(state):
        yield from completions(state, m)


def has_legal_turn(state: State) -> bool:
    return next(legal_turns(state), None) is not None


def legal_square_moves(state: State) -> list[Move]:
    """Square moves that start at least one legal turn."""
    return [m for m in square_moves(state) if next(completions(state, m), None) is not None]


def is_checkmate(state: State) -> bool:
    return is_check(state) and not has_legal_turn(state)


def is_stalemate(state: State) -> bool:
    return not is_check(state) and not has_legal_turn(state)


# --------------------------------------------------------------------------- text (1.1)

def parse_move(state: State, text: str) -> Move:
    """Parse one move for the side to move: lower-case names = square move, upper-case = point move.
    Only pseudo-legal moves of the right layer parse."""
    text = text.strip()
    if len(text) not in (4, 5):
        raise ValueError(f"bad move text {text!r}")
    if text[0].islower():
        layer, a, b = "s", parse_square(text[:2]), parse_square(text[2:4])
        candidates = square_moves(state)
    else:
        layer, a, b = "p", parse_point(text[:2]), parse_point(text[2:4])
        candidates = point_moves(state)
    promo = text[4:] or None
    if promo is not None:
        if (layer == "s") != promo.islower() or promo.upper() not in PROMOTIONS:
            raise ValueError(f"bad promotion in {text!r}")
        promo = promo.upper()
    m = Move(layer, a, b, promo)
    if m not in candidates:
        raise ValueError(f"not a possible move: {text!r}")
    return m


def parse_turn(state: State, text: str) -> Turn:
    """Parse "<square move>[ <point move>]" and check that the turn is legal."""
    parts = text.split()
    if not 1 <= len(parts) <= 2:
        raise ValueError(f"bad turn text {text!r}")
    sm = parse_move(state, parts[0])
    if sm.layer != "s":
        raise ValueError("a turn starts with a square move")
    pm = None
    if len(parts) == 2:
        mid = apply_square(state, sm).state
        pm = parse_move(mid, parts[1])
        if pm.layer != "p":
            raise ValueError("the second move of a turn is a point move")
    t = Turn(sm, pm)
    if t not in set(completions(state, sm)):
        raise ValueError(f"illegal turn {text!r}")
    return t


def turn_text(turn: Turn) -> str:
    return turn.text()


# --------------------------------------------------------------------------- end of game (5, R14)

def repetition_key(state: State) -> tuple:
    """What "same position, same side to move, same rights" compares (5, R14): both layers, side,
    castling, and en passant targets only when an en passant capture is actually possible."""
    ep_s = state.ep_square
    if ep_s is not None and not any(m.to == ep_s and state.squares[m.frm].upper() == "P"
                                    for m in _layer_moves(state, "s", state.turn)):
        ep_s = None
    ep_p = state.ep_point
    if ep_p is not None and not any(m.to == ep_p and state.points[m.frm].upper() == "P"
                                    for m in _layer_moves(state, "p", state.turn)):
        ep_p = None
    return (state.squares, state.points, state.turn, state.castling, ep_s, ep_p)


def insufficient_material(state: State) -> bool:
    """Orthodox analogue over both layers (R14), kept conservative. Any point-piece or pawn keeps the
    game alive (two point-pieces can enclose, a lone one can block diagonals and be promoted to); with
    the point layer empty the game is orthodox chess with a few more blocked steps, so the orthodox
    dead positions apply: K v K, K + one Bishop or Knight v K, and Kings with Bishops all standing on
    squares of one colour."""
    if any(p is not None for p in state.points):
        return False
    rest = [(i, c.upper()) for i, c in enumerate(state.squares) if c is not None and c.upper() != "K"]
    if any(kind not in "BN" for _, kind in rest):
        return False
    if len(rest) <= 1:
        return True
    if any(kind != "B" for _, kind in rest):
        return False
    return len({sum(sq_xy(i)) % 2 for i, _ in rest}) == 1


class Outcome(NamedTuple):
    result: str  # "1-0", "0-1" or "1/2-1/2"
    reason: str


def outcome(state: State, history: Sequence[tuple] = ()) -> Outcome | None:
    """The game result at the start of a turn, or None. ``history`` holds the repetition keys of the
    earlier turn-start positions of the game (for threefold repetition)."""
    for color, win in (("w", "0-1"), ("b", "1-0")):
        if state.king(color) is None:
            return Outcome(win, "king captured")
    if not has_legal_turn(state):
        if is_check(state):
            return Outcome("0-1" if state.turn == "w" else "1-0", "checkmate")
        return Outcome("1/2-1/2", "stalemate")
    key = repetition_key(state)
    if sum(1 for k in history if k == key) + 1 >= REPETITIONS:
        return Outcome("1/2-1/2", "threefold repetition")
    if state.halfmove >= MOVE_RULE_TURNS:
        return Outcome("1/2-1/2", "50-turn rule")
    if insufficient_material(state):
        return Outcome("1/2-1/2", "insufficient material")
    return None
