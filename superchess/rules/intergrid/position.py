"""The position of a two-lattice variant (InterGrid) on the core: a `position.CellPosition` (a flat
board of piece codes, here over both layers' cells, occupied cells, Kings, incremental Zobrist hash,
make/unmake as lists of cell changes through its `_apply`/`_restore`) with integer moves (encoding.py).

A turn is a sequence of moves by the same side closed by `end_turn` (InterGrid R8: the square move,
then optionally a point move): `make` does not pass the turn; `end_turn` does. Both push onto one
stack that `unmake` pops. A move's cell changes are its own (the mover, a displaced piece, an en
passant victim, the castling Rook) followed by what the variant's arrival hook removes (enclosures
and the edge rule, InterGrid 4). `attacked` is InterGrid 5's notion (one enemy move, enclosure by two
point-pieces included); legality is judged at the end of the turn by `turns.py`.
"""
from __future__ import annotations

from ..core.encoding import CASTLE, CELL_MASK, DOUBLE, EP, PROMO_MASK, PROMO_SHIFT, TO_SHIFT
from ..core.position import CellPosition
from ..core.tables import EP_CAPTURE, LEAP_C, LEAP_M, LEAP_MC, PAT_C, PAT_M, RAY_C, RAY_M, RAY_MC
from .geometry import POINTS, SQUARES
from .tables import CAPTURE, QUIET, intergrid_tables

END = -1  # the end-of-turn entry on the stack


class IntergridPosition(CellPosition):
    """Mutable state on the core's `CellPosition`: `board[cell]` is a piece code (0 = empty) for every
    square and point, plus a sentinel cell that stays empty (unbarred steps)."""

    def __init__(self, variant_name: str = "intergrid") -> None:
        t = intergrid_tables(variant_name)
        self.variant = t.variant
        self.geometry = t.geometry
        self._init_cells(t, t.size + 1)
        self.phase = 0  # moves made in the current turn
        self.castling = 0
        # rights whose King and Rook stood on their cells when the position was set up; the others
        # (a position text may name them) lapse with the first move, as the reference has it
        self.live_castling = -1
        self.ep = [-1, -1]  # per layer: the cell skipped by that layer's last double step
        self.ep_key = 0
        # (the base's `halfmove` counts turns without capture or pawn move here, 1.1)
        self._arrival = self.variant.arrival_captures

    # -- set-up ---------------------------------------------------------------------------------
    def rehash(self) -> int:
        """Recompute the en passant key and the hash from scratch (make/unmake keep both)."""
        t = self.tables
        self.ep_key = self._ep_key()
        h = t.z_castle[self.castling] ^ self.ep_key ^ t.z_phase[self.phase] ^ (t.z_side if self.side else 0)
        self.hash = h ^ self._piece_hash()
        return self.hash

    def _ep_key(self) -> int:
        """At a turn's start the en passant targets count only when the side to move could capture
        there (InterGrid 5, R14: same rights); inside a turn as they stand."""
        z = self.tables.z_ep
        if self.phase:
            return (z[self.ep[SQUARES]] if self.ep[SQUARES] >= 0 else 0) ^ \
                   (z[self.ep[POINTS]] if self.ep[POINTS] >= 0 else 0)
        key = 0
        for e in self.ep:
            if e >= 0 and self._ep_reach(e, self.side):
                key ^= z[e]
        return key

    def _ep_reach(self, e: int, by: int, exclude: int = -1) -> bool:
        """Can a pawn of `by` (not the one on `exclude`) capture en passant onto `e` (pseudo-legally)?"""
        board = self.board
        t = self.tables
        if board[e]:
            return False
        for a, code, victim, b1, b2 in t.reach_ep[by][e]:
            v = board[victim]
            if board[a] == code and a != exclude and v and t.enemy[by][v] and t.pawn[v] and not (board[b1] and board[b2]):
                return True
        return False

    # -- make / unmake --------------------------------------------------------------------------
    def _own_changes(self, m: int) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
        """The cell changes of the move itself and the cells its pieces arrive on."""
        board = self.board
        fr = m & CELL_MASK
        to = (m >> TO_SHIFT) & CELL_MASK
        code = board[fr]
        if m & CASTLE:
            _, kf, kt, rf, rt, _, _, _, _ = self.tables.castle_entries[(m >> PROMO_SHIFT) & PROMO_MASK]
            return [(kf, 0), (rf, 0), (kt, code), (rt, board[rf])], (kt, rt)  # both arrive (R12)
        promo = (m >> PROMO_SHIFT) & PROMO_MASK
        out = [(fr, 0), (to, (code & ~63) | promo if promo else code)]
        if m & EP:
            geo = self.geometry
            out.append((geo.cell(geo.layer[to], geo.coords[to][0], geo.coords[fr][1]), 0))
        return out, (to,)

    def make(self, m: int) -> None:
        """Play move `m` of the side to move; the turn goes on (see `end_turn`)."""
        t = self.tables
        side = self.side
        fr = m & CELL_MASK
        layer = self.geometry.layer[fr]
        pawn = t.pawn[self.board[fr]]
        entry = (m, self.castling, self.ep[0], self.ep[1], self.ep_key, self.halfmove, self.hash,
                 self.phase, self.kings[0], self.kings[1])
        changes, arrivals = self._own_changes(m)
        undo: list[tuple[int, int]] = []
        h, captured = self._apply(changes, undo, self.hash ^ self.ep_key ^ t.z_phase[self.phase])
        enclosed = self._arrival(self, arrivals, side)
        if enclosed:
            h, _ = self._apply([(cell, 0) for cell in enclosed], undo, h)
            captured = True
        castling = self.castling & self.live_castling
        if castling:  # rights lapse when a King's or Rook's cell changes
            keep = t.castle_keep
            for cell, _ in undo:
                castling &= keep[cell]
        if castling != self.castling:
            h ^= t.z_castle[self.castling] ^ t.z_castle[castling]
            self.castling = castling
        if pawn or captured:
            self.halfmove = 0
        elif layer == SQUARES:  # the clock counts turns: the square move starts one
            self.halfmove += 1
        self.ep[layer] = ((fr + ((m >> TO_SHIFT) & CELL_MASK)) >> 1) if m & DOUBLE else -1
        self.phase += 1
        self.ep_key = self._ep_key()
        self.hash = h ^ self.ep_key ^ t.z_phase[self.phase]
        self.stack.append(entry + (undo,))

    def end_turn(self) -> None:
        """Close the turn: the other side moves; a point double step's target stands only if this
        turn made it (the turn without a point move clears the old one)."""
        t = self.tables
        self.stack.append((END, self.castling, self.ep[0], self.ep[1], self.ep_key, self.halfmove,
                           self.hash, self.phase, self.kings[0], self.kings[1], ()))
        h = self.hash ^ self.ep_key ^ t.z_phase[self.phase] ^ t.z_side
        if self.phase < 2:
            self.ep[POINTS] = -1
        if self.side:
            self.fullmove += 1
        self.side ^= 1
        self.phase = 0
        self.ep_key = self._ep_key()
        self.hash = h ^ self.ep_key

    def unmake(self) -> None:
        """Take back the last `make` or `end_turn`."""
        m, castling, ep0, ep1, ep_key, halfmove, h, phase, k0, k1, undo = self.stack.pop()
        if m == END:
            self.side ^= 1
            if self.side:
                self.fullmove -= 1
        if undo:  # a turn end changes no cell
            self._restore(undo)
        self.castling = castling
        self.ep[0], self.ep[1] = ep0, ep1
        self.ep_key = ep_key
        self.halfmove = halfmove
        self.hash = h
        self.phase = phase
        self.kings[0], self.kings[1] = k0, k1

    def redo(self, entry: tuple) -> None:
        """Play again a stack entry that `unmake` took back."""
        self.end_turn() if entry[0] == END else self.make(entry[0])

    def changes(self, m: int) -> list[tuple[int, int, int]]:
        """Every cell move `m` changes, enclosures included: (cell, code before, code after)."""
        before = list(self.board)
        self.make(m)
        after = [(c, before[c], self.board[c]) for c, _ in self.stack[-1][-1]]
        self.unmake()
        return list({c: (c, b, a) for c, b, a in after if b != a}.values())

    # -- attacks (InterGrid 5) --------------------------------------------------------------------
    def reaches(self, target: int, by: int, mode: int, exclude: int = -1) -> bool:
        """Can a piece of `by` (not the one on `exclude`) move to `target` with one move, capturing
        (`CAPTURE`, an occupied target) or not (`QUIET`)? En passant not included."""
        board = self.board
        leaps, paths, rays = self.tables.reach[by][mode][target]
        for a, codes, b1, b2 in leaps:
            if board[a] in codes and a != exclude and not (board[b1] and board[b2]):
                return True
        for ray in rays:
            for a, codes, b1, b2 in ray:
                if board[b1] and board[b2]:
                    break
                p = board[a]
                if p:
                    if p in codes and a != exclude:
                        return True
                    break
        for a, codes, between, bars in paths:
            if board[a] in codes and a != exclude and not any(board[b] for b in between) \
                    and not any(board[b1] and board[b2] for b1, b2 in bars):
                return True
        return False

    def attacked(self, s: int, by: int) -> bool:
        """Is square `s` attacked by `by`: an enemy square-piece can move there, or an enemy point-piece
        can move to a corner whose opposite corner holds another enemy point-piece (5). A point en
        passant counts only when `by` is to move (it is theirs to play)."""
        if self.reaches(s, by, CAPTURE):
            return True
        board = self.board
        own = self.tables.own[by]
        for c, o in self.tables.corner_pairs[s]:
            q = board[o]
            if not q or not own[q]:
                continue
            p = board[c]
            if p:
                if not own[p] and self.reaches(c, by, CAPTURE, o):
                    return True
            elif self.reaches(c, by, QUIET, o) or (c == self.ep[POINTS] and by == self.side
                                                   and self._ep_reach(c, by, o)):
                return True
        return False

    def king_attacked(self, side: int) -> bool:
        k = self.kings[side]
        return k >= 0 and self.attacked(k, side ^ 1)

    # -- move generation ------------------------------------------------------------------------
    def moves(self) -> list[int]:
        """The pseudo-legal moves that may continue the turn: at its start the square moves
        (castling fully checked, 3.5), after them the point moves, then none."""
        if self.phase == 0:
            out = self._generate(SQUARES)
            self._castling_moves(out)
            return out
        return self._generate(POINTS) if self.phase == 1 else []

    def _generate(self, layer: int) -> list[int]:
        board = self.board
        t = self.tables
        gen = t.gen
        enemy = t.enemy[self.side]
        code_layer = t.layer_of_code
        pawn = t.pawn
        ep = self.ep[layer]
        out: list[int] = []
        append = out.append
        for sq in self.occ[self.side]:
            code = board[sq]
            if code_layer[code] != layer:
                continue
            for kind, entries in gen[code][sq]:
                if kind == LEAP_MC:
                    for t_, m, b1, b2 in entries:
                        if board[b1] and board[b2]:
                            continue
                        p = board[t_]
                        if not p or enemy[p]:
                            append(m)
                elif kind == RAY_MC:
                    for ray in entries:
                        for t_, m, b1, b2 in ray:
                            if board[b1] and board[b2]:
                                break
                            p = board[t_]
                            if not p:
                                append(m)
                                continue
                            if enemy[p]:
                                append(m)
                            break
                elif kind == LEAP_M:
                    for t_, m, b1, b2 in entries:
                        if not board[t_] and not (board[b1] and board[b2]):
                            append(m)
                elif kind == LEAP_C:
                    for t_, m, b1, b2 in entries:
                        p = board[t_]
                        if p and enemy[p] and not (board[b1] and board[b2]):
                            append(m)
                elif kind == EP_CAPTURE:
                    for t_, m, victim, b1, b2 in entries:
                        v = board[victim]
                        if t_ == ep and not board[t_] and v and enemy[v] and pawn[v] \
                                and not (board[b1] and board[b2]):
                            append(m)
                elif kind <= PAT_C:
                    for t_, m, between, bars in entries:
                        p = board[t_]
                        if (p and (kind == PAT_M or not enemy[p])) or (not p and kind == PAT_C):
                            continue
                        if any(board[b] for b in between) or any(board[b1] and board[b2] for b1, b2 in bars):
                            continue
                        append(m)
                else:  # move-only or capture-only rays
                    for ray in entries:
                        for t_, m, b1, b2 in ray:
                            if board[b1] and board[b2]:
                                break
                            p = board[t_]
                            if not p:
                                if kind == RAY_M:
                                    append(m)
                                continue
                            if kind == RAY_C and enemy[p]:
                                append(m)
                            break
        return out

    def _castling_moves(self, out: list[int]) -> None:
        """3.5, R10: King and Rook unmoved, the cells between empty, no barrier on any step of either,
        the King not attacked on its cell, on the cells it passes nor where it lands."""
        board = self.board
        t = self.tables
        side = self.side
        kcode, rcode = t.king_code[side], t.rook_code[side]
        for bit, kf, kt, rf, rt, empty, passing, bars, m in t.castles[side]:
            if not self.castling & bit or board[kf] != kcode or board[rf] != rcode:
                continue
            if any(board[c] for c in empty) or any(board[b1] and board[b2] for b1, b2 in bars):
                continue
            if self.attacked(kf, side ^ 1):
                continue
            board[kf] = 0
            safe = True
            for c in passing:  # "attacked" for a King standing there
                board[c] = kcode
                safe = not self.attacked(c, side ^ 1)
                board[c] = 0
                if not safe:
                    break
            board[kf] = kcode
            if safe:
                out.append(m)
