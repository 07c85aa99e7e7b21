"""A deliberately simple reference move generator for super16 and chess (test oracle; the property
tests of tests/rules/core/test_properties.py check the core against it).

Written from /work/shared/rules/super16.md (and the FIDE Laws for "chess"), independently of the
rules core: it does NOT use superchess.rules.core's tables, position.py's generator, fen.py or the
piece shapes compiled by pieces.py. Movement is restated below from the rules text; reprogrammed pieces
are read from the rosters' `Program.mode` / `Program.vectors` and interpreted as R13 describes.

The only things taken from a `superchess.rules.Board` are its public observations: `variant.name`,
`pieces()`, `turn`, `rosters` and the castling / en passant / clock fields of `fen()`.

Squares are (file, rank), both 0-based; (0, 0) is a1. Sides: 0 = Player 1, 1 = Player 2.
Vectors are written from the owner's side; Player 2's rank component is negated (files are not
mirrored). Everything is recomputed from scratch and copies are made freely: obvious, not fast.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd

# ---------------------------------------------------------------------------------------------
# Variant facts, restated from the rules text
# ---------------------------------------------------------------------------------------------
SIZE = {"chess": (8, 8), "super16": (16, 16)}
PROMOTIONS = {"chess": "QRBN", "super16": "QRBNISAUF"}  # super16 R8, in the roster's order
FORTRESS_RULE = {"chess": False, "super16": True}
ROYAL = {"K", "Q", "I", "S"}  # super16: only matters for the Fortress rule

# Castling (P1 coordinates; Player 2 uses the same files on the last rank):
# right letter -> (king from, king to, rook from, rook to)
CASTLING = {
    "chess": {"K": ((4, 0), (6, 0), (7, 0), (5, 0)),     # e1g1, Rook h1f1
              "Q": ((4, 0), (2, 0), (0, 0), (3, 0))},    # e1c1, Rook a1d1
    "super16": {"K": ((8, 0), (10, 0), (15, 0), (9, 0)),  # R6: i1k1, Rook p1j1
                "Q": ((8, 0), (6, 0), (0, 0), (7, 0))},   # R6: i1g1, Rook a1h1
}

KING8 = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ORTHO = [(1, 0), (0, 1), (-1, 0), (0, -1)]
DIAG = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
KNIGHT = [(a, b) for a in (1, -1, 2, -2) for b in (1, -1, 2, -2) if abs(a) != abs(b)]
LONG_KNIGHT = [(a, b) for a in (1, -1, 4, -4) for b in (1, -1, 4, -4) if abs(a) != abs(b)]
PRINCE = [(k * dx, k * dy) for dx, dy in KING8 for k in range(1, 5)]   # R2: 32 targets on the lines

# Archbishop: 3 squares diagonally, then 1 orthogonally, never jumping; 16 targets
# (±3±1, ±3) and (±3, ±3±1). A path is the list of squares visited; all but the last must be empty.
ARCHBISHOP_PATHS = []
for _sx, _sy in DIAG:
    _diag = [(_sx, _sy), (2 * _sx, 2 * _sy), (3 * _sx, 3 * _sy)]
    for _ox, _oy in ORTHO:
        ARCHBISHOP_PATHS.append(_diag + [(3 * _sx + _ox, 3 * _sy + _oy)])
assert len({p[-1] for p in ARCHBISHOP_PATHS}) == 16


@dataclass(frozen=True)
class Rule:
    """One way a piece moves. mode: jump | step | slide | path.
    vectors: offsets (for path: each item is the list of visited offsets, the last is the target).
    limit: for slide, the maximum number of steps (None = unlimited).
    ranks: origins allowed, counted 1-based from the owner's side (empty = any)."""
    mode: str
    vectors: tuple
    move: bool = True
    capture: bool = True
    limit: int | None = None
    ranks: tuple = ()


def _r(mode, vectors, **kw) -> Rule:
    return Rule(mode, tuple(tuple(v) if mode != "path" else tuple(map(tuple, v)) for v in vectors), **kw)


DEFAULT_MOVES = {
    "super16": {
        "K": [_r("jump", KING8)],
        "Q": [_r("slide", KING8)],
        "I": [_r("jump", PRINCE)],
        "S": [_r("slide", KING8, limit=4)],   # the Prince's targets, every square between empty
        "R": [_r("slide", ORTHO)],
        "B": [_r("slide", DIAG)],
        "N": [_r("jump", KNIGHT)],
        "A": [_r("path", ARCHBISHOP_PATHS)],
        "U": [_r("jump", KNIGHT + LONG_KNIGHT)],  # R3
        "F": [_r("jump", KING8)],
        "P": [_r("jump", [(0, 1)], capture=False),
              _r("step", [(0, 2)], capture=False),          # any move, both squares empty
              _r("jump", [(1, 1), (-1, 1)], move=False)],
    },
    "chess": {
        "K": [_r("jump", KING8)],
        "Q": [_r("slide", KING8)],
        "R": [_r("slide", ORTHO)],
        "B": [_r("slide", DIAG)],
        "N": [_r("jump", KNIGHT)],
        "P": [_r("jump", [(0, 1)], capture=False),
              _r("step", [(0, 2)], capture=False, ranks=(2,)),
              _r("jump", [(1, 1), (-1, 1)], move=False)],
    },
}


# ---------------------------------------------------------------------------------------------
# Position
# ---------------------------------------------------------------------------------------------
def sq_name(sq) -> str:
    return chr(97 + sq[0]) + str(sq[1] + 1)


def parse_sq(name: str):
    return (ord(name[0]) - 97, int(name[1:]) - 1)


@dataclass
class NPos:
    variant: str
    board: dict            # (file, rank) -> (LETTER, side)
    turn: int
    castling: str = ""     # e.g. "KQkq", "" for none
    ep: tuple | None = None
    halfmove: int = 0
    fullmove: int = 1
    rosters: tuple = ({}, {})  # side -> {LETTER: (mode, vectors)}

    @property
    def files(self) -> int:
        return SIZE[self.variant][0]

    @property
    def ranks(self) -> int:
        return SIZE[self.variant][1]

    def on_board(self, sq) -> bool:
        return 0 <= sq[0] < self.files and 0 <= sq[1] < self.ranks

    def copy(self) -> "NPos":
        return NPos(self.variant, dict(self.board), self.turn, self.castling, self.ep,
                    self.halfmove, self.fullmove, self.rosters)

    def king(self, side):
        found = [sq for sq, (letter, s) in self.board.items() if letter == "K" and s == side]
        assert len(found) == 1, f"side {side} has {len(found)} Kings"
        return found[0]

    def placement(self) -> str:
        rows = []
        for r in range(self.ranks - 1, -1, -1):
            row, empty = "", 0
            for f in range(self.files):
                p = self.board.get((f, r))
                if p is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += p[0] if p[1] == 0 else p[0].lower()
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)

    def fen(self) -> str:
        return " ".join([self.placement(), "wb"[self.turn], self.castling or "-",
                         sq_name(self.ep) if self.ep else "-", str(self.halfmove), str(self.fullmove)])


def from_board(board) -> NPos:
    """Read a superchess.rules.Board through its public observations only."""
    variant = board.variant.name
    cells = {parse_sq(name): (p.letter, p.side) for name, p in board.pieces().items()}
    _, side, castling, ep, half, full = board.fen().split()
    assert side == "wb"[board.turn]
    rosters = tuple({letter: (prog.mode, tuple(tuple(v) for v in prog.vectors))
                     for letter, prog in roster.items()} for roster in board.rosters)
    return NPos(variant, cells, board.turn, "" if castling == "-" else castling,
                None if ep == "-" else parse_sq(ep), int(half), int(full), rosters)


def from_fen(variant: str, fen: str, rosters=({}, {})) -> NPos:
    """Parse a FEN (trusting it; for building test positions)."""
    placement, side, castling, ep, half, full = fen.split()
    files, ranks = SIZE[variant]
    cells = {}
    for i, row in enumerate(placement.split("/")):
        r = ranks - 1 - i
        f, num = 0, ""
        for ch in row:
            if ch.isdigit():
                num += ch
                continue
            if num:
                f += int(num)
                num = ""
            cells[(f, r)] = (ch.upper(), 0 if ch.isupper() else 1)
            f += 1
        if num:
            f += int(num)
        assert f == files, row
    return NPos(variant, cells, 0 if side == "w" else 1, "" if castling == "-" else castling,
                None if ep == "-" else parse_sq(ep), int(half), int(full), rosters)


# ---------------------------------------------------------------------------------------------
# Movement
# ---------------------------------------------------------------------------------------------
def rules_for(pos: NPos, letter: str, side: int) -> list[Rule]:
    """The piece's movement: its side's program if reprogrammed (R13), else the default."""
    program = pos.rosters[side].get(letter)
    if program is not None:
        mode, vectors = program
        return [Rule(mode, tuple(vectors))]
    return DEFAULT_MOVES[pos.variant][letter]


def reach(pos: NPos, origin, side: int, rule: Rule):
    """Yield (target, squares that must be empty) for every target the rule names from `origin`,
    ignoring what stands on the target. Off-board targets or path squares are skipped."""
    fwd = 1 if side == 0 else -1
    ox, oy = origin

    def at(dx, dy):
        return (ox + dx, oy + dy * fwd)

    if rule.mode == "jump":
        for dx, dy in rule.vectors:
            t = at(dx, dy)
            if pos.on_board(t):
                yield t, ()
    elif rule.mode == "step":
        for dx, dy in rule.vectors:
            g = gcd(abs(dx), abs(dy))
            t = at(dx, dy)
            if pos.on_board(t):
                yield t, tuple(at(dx // g * k, dy // g * k) for k in range(1, g))
    elif rule.mode == "slide":
        for dx, dy in rule.vectors:
            k = 1
            while rule.limit is None or k <= rule.limit:
                t = at(dx * k, dy * k)
                if not pos.on_board(t):
                    break
                yield t, tuple(at(dx * j, dy * j) for j in range(1, k))
                k += 1
    elif rule.mode == "path":
        for path in rule.vectors:
            squares = [at(dx, dy) for dx, dy in path]
            if all(pos.on_board(s) for s in squares):
                yield squares[-1], tuple(squares[:-1])
    else:
        raise ValueError(rule.mode)


def own_rank(pos: NPos, sq, side: int) -> int:
    return sq[1] + 1 if side == 0 else pos.ranks - sq[1]


def piece_targets(pos: NPos, origin):
    """Pseudo-legal (target, is_capture) pairs of the piece on `origin` (no castling, no en passant).
    A move lands on an empty square; a capture lands on an enemy; never on a friend."""
    letter, side = pos.board[origin]
    out = []
    for rule in rules_for(pos, letter, side):
        if rule.ranks and own_rank(pos, origin, side) not in rule.ranks:
            continue
        for t, between in reach(pos, origin, side, rule):
            if any(b in pos.board for b in between):
                continue
            occupant = pos.board.get(t)
            if occupant is None:
                if rule.move:
                    out.append((t, False))
            elif occupant[1] != side and rule.capture:
                out.append((t, True))
    return list(dict.fromkeys(out))


def can_capture_on(pos: NPos, origin, target) -> bool:
    """Could the piece on `origin` capture an enemy standing on `target` (whatever stands there)?"""
    # Same meaning as `target in [t for t, between in reach(...) if between is empty]`, but solved
    # for the one target instead of enumerating every target (this is the hot spot of the oracle).
    letter, side = pos.board[origin]
    fwd = 1 if side == 0 else -1
    dx, dy = target[0] - origin[0], (target[1] - origin[1]) * fwd   # in the owner's frame

    def empty(offsets) -> bool:
        return not any((origin[0] + x, origin[1] + y * fwd) in pos.board for x, y in offsets)

    for rule in rules_for(pos, letter, side):
        if not rule.capture or (rule.ranks and own_rank(pos, origin, side) not in rule.ranks):
            continue
        for v in rule.vectors:
            if rule.mode == "jump":
                if v == (dx, dy):
                    return True
            elif rule.mode == "step":
                if v == (dx, dy):
                    g = gcd(abs(dx), abs(dy))
                    if empty([(dx // g * k, dy // g * k) for k in range(1, g)]):
                        return True
            elif rule.mode == "slide":
                # target = k * v for a whole k >= 1 (and k <= limit)?
                k = dx // v[0] if v[0] else dy // v[1]
                if k >= 1 and (k * v[0], k * v[1]) == (dx, dy) and (rule.limit is None or k <= rule.limit):
                    if empty([(v[0] * j, v[1] * j) for j in range(1, k)]):
                        return True
            elif rule.mode == "path":
                if v[-1] == (dx, dy) and all(pos.on_board((origin[0] + x, origin[1] + y * fwd))
                                             for x, y in v) and empty(v[:-1]):
                    return True
    return False


def attacked(pos: NPos, sq, by_side: int) -> bool:
    """Could any piece of `by_side` capture on `sq`? Judged without the Fortress rule (R5)."""
    return any(s == by_side and can_capture_on(pos, origin, sq)
               for origin, (_, s) in list(pos.board.items()))


def in_check(pos: NPos, side: int) -> bool:
    return attacked(pos, pos.king(side), 1 - side)


def garrisoned(pos: NPos, sq) -> bool:
    """Is the piece on `sq` next to a Fortress of its own side (not counting itself)?"""
    side = pos.board[sq][1]
    for dx, dy in KING8:
        p = pos.board.get((sq[0] + dx, sq[1] + dy))
        if p == ("F", side):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------------------
@dataclass
class NMove:
    text: str
    frm: tuple
    to: tuple
    captured: tuple | None = None   # square of the captured piece (differs from `to` en passant)
    destroy: bool = False           # Fortress rule: the capturer is removed too
    promo: str | None = None
    castle: str | None = None       # castling right letter (upper case)
    extra: dict = field(default_factory=dict)


def _capture_move(pos: NPos, frm, to, captured) -> NMove:
    letter, side = pos.board[frm]
    destroy = (FORTRESS_RULE[pos.variant] and letter not in ROYAL and garrisoned(pos, captured))
    return NMove(sq_name(frm) + sq_name(to), frm, to, captured, destroy)


def pseudo_moves(pos: NPos) -> list[NMove]:
    side = pos.turn
    moves: list[NMove] = []
    last_rank = pos.ranks - 1 if side == 0 else 0
    for origin, (letter, s) in sorted(pos.board.items()):
        if s != side:
            continue
        for t, is_cap in piece_targets(pos, origin):
            mv = _capture_move(pos, origin, t, t) if is_cap else NMove(sq_name(origin) + sq_name(t), origin, t)
            if letter == "P" and t[1] == last_rank and not mv.destroy:
                for q in PROMOTIONS[pos.variant]:
                    moves.append(NMove(mv.text + q.lower(), origin, t, mv.captured, False, q))
            else:
                moves.append(mv)
    # en passant (super16 R7: after any two-square Super Pawn advance; chess: orthodox)
    if pos.ep is not None:
        back = -1 if side == 0 else 1               # from the skipped square toward the arrival square
        arrival = (pos.ep[0], pos.ep[1] + back)
        if pos.board.get(arrival) == ("P", 1 - side) and pos.ep not in pos.board:
            for dx in (1, -1):
                origin = (arrival[0] + dx, arrival[1])    # beside the arrival square
                if pos.board.get(origin) == ("P", side) and can_capture_on(pos, origin, pos.ep):
                    moves.append(_capture_move(pos, origin, pos.ep, arrival))
    # castling
    for right, (kf, kt, rf, rt) in CASTLING[pos.variant].items():
        letter = right if side == 0 else right.lower()
        if letter not in pos.castling:
            continue
        if side == 1:
            kf, kt, rf, rt = ((sq[0], pos.ranks - 1 - sq[1]) for sq in (kf, kt, rf, rt))
        if pos.board.get(kf) != ("K", side) or pos.board.get(rf) != ("R", side):
            continue
        lo, hi = sorted((kf[0], rf[0]))
        if any((f, kf[1]) in pos.board for f in range(lo + 1, hi)):
            continue
        if in_check(pos, side):
            continue
        # the squares the King crosses are judged in the position before castling, the King still
        # on its square (FIDE's reading; R6 does not say - it matters only for lame attackers such
        # as an Archbishop whose corner square is the King's square)
        step = 1 if kt[0] > kf[0] else -1
        crossed = [(f, kf[1]) for f in range(kf[0] + step, kt[0], step)]
        if any(attacked(pos, c, 1 - side) for c in crossed):
            continue
        # landing on an attacked square is excluded by the ordinary legality test
        moves.append(NMove(sq_name(kf) + sq_name(kt), kf, kt, castle=right, extra={"rook": (rf, rt)}))
    return moves


def play(pos: NPos, mv: NMove) -> NPos:
    """The position after a pseudo-legal move (all fields: placement, side, rights, ep, clocks)."""
    new = pos.copy()
    b = new.board
    side = pos.turn
    piece = b[mv.frm]
    touched = {mv.frm, mv.to}
    if mv.castle:
        rf, rt = mv.extra["rook"]
        rook = b.pop(rf)
        del b[mv.frm]
        b[mv.to] = piece
        b[rt] = rook
        touched |= {rf, rt}
    else:
        del b[mv.frm]
        if mv.captured is not None:
            del b[mv.captured]
            touched.add(mv.captured)
        if mv.destroy:
            b.pop(mv.to, None)  # the capture square is left empty
        else:
            b[mv.to] = (mv.promo, side) if mv.promo else piece
    # castling rights: lost when the King's or that Rook's original square is touched
    rights = ""
    for ch in pos.castling:
        kf, _, rf, _ = CASTLING[pos.variant][ch.upper()]
        if ch.islower():
            kf, rf = (kf[0], pos.ranks - 1 - kf[1]), (rf[0], pos.ranks - 1 - rf[1])
        if kf not in touched and rf not in touched:
            rights += ch
    new.castling = rights
    # en passant square (R7): after a two-square straight advance of a Super Pawn. Rulings where
    # the text is silent (only reachable with reprogrammed pawns or a double step onto the last
    # rank): no right when the pawn promoted on arrival (the piece there is no Super Pawn any more)
    # or did not survive it (Fortress rule), or when the skipped square is occupied (a capturer
    # could not land there). A reprogrammed pawn's straight two-square capture counts as an advance.
    fwd = 1 if side == 0 else -1
    new.ep = None
    skipped = (mv.frm[0], mv.frm[1] + fwd)
    if (piece[0] == "P" and not mv.castle and not mv.destroy and not mv.promo
            and mv.to == (mv.frm[0], mv.frm[1] + 2 * fwd) and skipped not in b):
        new.ep = skipped
    new.halfmove = 0 if (piece[0] == "P" or mv.captured is not None) else pos.halfmove + 1
    new.fullmove = pos.fullmove + (1 if side == 1 else 0)
    new.turn = 1 - side
    return new


def legal_moves(pos: NPos) -> list[tuple[NMove, NPos]]:
    """(move, resulting position) for every legal move. A move is legal when afterwards no enemy
    piece could capture the mover's King. With reprogrammed pieces a plain move can share its text
    with castling (a King programmed to reach the castling square) or with an en passant capture (a
    pawn programmed to move diagonally): the special move takes the text, the plain move is not
    offered (the project's ruling, see the README)."""
    out = []
    for mv in pseudo_moves(pos):
        after = play(pos, mv)
        if not in_check(after, pos.turn):
            out.append((mv, after))
    special = {mv.text for mv, _ in out if mv.castle or mv.captured not in (None, mv.to)}
    return [(mv, after) for mv, after in out
            if mv.text not in special or mv.castle or mv.captured not in (None, mv.to)]


def legal(pos: NPos) -> dict[str, NPos]:
    """Legal move text -> resulting position (the first, should two moves share a text)."""
    out: dict[str, NPos] = {}
    for mv, after in legal_moves(pos):
        out.setdefault(mv.text, after)
    return out


# ---------------------------------------------------------------------------------------------
# Entry points on a superchess.rules.Board
# ---------------------------------------------------------------------------------------------
def naive_legal(board) -> set[str]:
    """The legal move texts of the board's position, computed naively."""
    return set(legal(from_board(board)))


def naive_legal_list(board) -> list[str]:
    """The legal move texts, sorted, with repetitions should two moves share a text."""
    return sorted(mv.text for mv, _ in legal_moves(from_board(board)))


def ep_captures(pos: NPos) -> set[str]:
    """The legal en passant captures (texts)."""
    return {mv.text for mv in pseudo_moves(pos)
            if mv.captured not in (None, mv.to) and not in_check(play(pos, mv), pos.turn)}


def naive_ep_captures(board) -> set[str]:
    """The legal en passant captures of the board's position."""
    return ep_captures(from_board(board))


def naive_after(board, text: str) -> str:
    """The FEN expected after playing legal move `text` on `board`."""
    return legal(from_board(board))[text].fen()


def naive_king_attacked(board, side: int) -> bool:
    """Is `side`'s King attacked (any enemy piece could capture it, without the Fortress rule)?"""
    return in_check(from_board(board), side)
