"""The position: cells, side to move, rights, clocks and hash; make/unmake and legal moves.

This is the hot core shared by perft and the engine. Moves are integers (see encoding.py); a move
applies as a list of cell changes, so captures of several pieces, swaps or removal of the mover are
the same operation as an ordinary move. Legality: pieces that are neither the King nor possibly
pinned keep their pseudo-legal moves; King moves, pinned pieces, evasions of check and special moves
(en passant, mutual destruction, castling) are checked against the attack tables.
"""
from __future__ import annotations

from .encoding import (
    CASTLE,
    CELL_MASK,
    DESTROY,
    DOUBLE,
    EP,
    PROMO_MASK,
    PROMO_SHIFT,
    SIDE_SHIFT,
    SPECIAL,
    TO_SHIFT,
    code_of,
)
from .perft import perft
from .program import Roster
from .tables import (
    EP_CAPTURE,
    LEAP_C,
    LEAP_M,
    LEAP_MC,
    NO_CELLS,
    PAT_C,
    PAT_M,
    PAT_MC,
    POST_DEDUPE,
    POST_PROMO,
    RAY_C,
    RAY_M,
    RAY_MC,
    tables_for,
)
from .variant import Variant


def attacked(board: list, att: tuple) -> bool:
    """Is the cell whose attack entry is `att` attacked (by the side the entry was built for)?"""
    leaps, pats, rays = att
    for a, codes in leaps:
        if board[a] in codes:
            return True
    for ray in rays:
        for a, codes in ray:
            p = board[a]
            if p:
                if p in codes:
                    return True
                break
    for a, codes, between in pats:
        if board[a] in codes:
            for b in between:
                if board[b]:
                    break
            else:
                return True
    return False


def attackers(board: list, att: tuple) -> list[tuple[int, tuple]]:
    """All attackers of a cell, each with the cells between it and the target (block squares)."""
    leaps, pats, rays = att
    out = [(a, ()) for a, codes in leaps if board[a] in codes]
    for ray in rays:
        for i, (a, codes) in enumerate(ray):
            p = board[a]
            if p:
                if p in codes:
                    out.append((a, tuple(c for c, _ in ray[:i])))
                break
    for a, codes, between in pats:
        if board[a] in codes and not any(board[b] for b in between):
            out.append((a, between))
    return out


class CellPosition:
    """The core state every variant's position shares, whatever its geometry and turn structure:
    `board[cell]` is a piece code (0 = empty), `occ` each side's occupied cells, `kings` each side's
    royal cell (-1: none), the side to move, the clocks, an incremental Zobrist hash and the undo
    stack. A move is a list of cell changes (cell, new code) applied by `_apply` and taken back by
    `_restore`, so multi-captures, castling, a giant King's four cells or an enclosure are all the
    same operation.

    Subclasses add their generation and their turn: `Position` (one lattice; `make` passes the turn),
    `IntergridPosition` (InterGrid's squares and points plus an always-empty sentinel cell; a move's own
    changes, then its enclosures, go through `_apply`) and `TilingPosition` (Tiling Rider's tiles; its
    tables mark no code `checkable`, since it tracks a giant King by its unit's lower-left cell), whose
    `make` keeps the turn and whose `end_turn` passes it (both push onto `stack`; `unmake` pops either).
    `Position` and `TilingPosition` keep their plainest move (two cells) inline in make/unmake for speed
    and send every other move through `_apply`/`_restore`.
    """

    def _init_cells(self, tables, cells: int) -> None:
        """Empty cells and a fresh state; `tables` gives `z_piece[code][cell]` and `checkable[code]`."""
        self.tables = tables
        self.board = [0] * cells
        self.occ: list[set[int]] = [set(), set()]
        self.kings = [-1, -1]
        self.side = 0
        self.halfmove = 0
        self.fullmove = 1
        self.hash = 0
        self.stack: list[tuple] = []

    def put(self, cell: int, code: int) -> None:
        """Place (or with 0, clear) a piece; used while setting up a position."""
        self.hash = self._set(cell, code, self.hash)

    def _set(self, cell: int, new: int, h: int) -> int:
        """Change one cell, keeping `occ` and `kings`; returns the hash `h` with the change."""
        old = self.board[cell]
        if old:
            self.occ[old >> SIDE_SHIFT].discard(cell)
            if self.kings[old >> SIDE_SHIFT] == cell:
                self.kings[old >> SIDE_SHIFT] = -1
        self.board[cell] = new
        if new:
            self.occ[new >> SIDE_SHIFT].add(cell)
            if self.tables.checkable[new]:
                self.kings[new >> SIDE_SHIFT] = cell
        z = self.tables.z_piece
        return h ^ z[old][cell] ^ z[new][cell]

    def _apply(self, changes, undo: list, h: int) -> tuple[int, bool]:
        """Apply cell changes (cell, new code) in order, appending (cell, old code) to `undo`.
        Returns the hash with the changes and whether an enemy piece of the side to move was removed
        (the multi-capture, castling and unit moves of every variant go through here)."""
        board = self.board
        occ = self.occ
        kings = self.kings
        checkable = self.tables.checkable
        zp = self.tables.z_piece
        side = self.side
        captured = False
        for cell, new in changes:
            old = board[cell]
            undo.append((cell, old))
            if old:
                occ[old >> SIDE_SHIFT].discard(cell)
                if old >> SIDE_SHIFT != side:
                    captured = True
                if checkable[old] and kings[old >> SIDE_SHIFT] == cell:
                    kings[old >> SIDE_SHIFT] = -1
            board[cell] = new
            h ^= zp[old][cell] ^ zp[new][cell]
            if new:
                occ[new >> SIDE_SHIFT].add(cell)
                if checkable[new]:
                    kings[new >> SIDE_SHIFT] = cell
        return h, captured

    def _restore(self, undo: list) -> None:
        """Take back cell changes recorded by `_apply` (`kings` is restored by the caller)."""
        board = self.board
        occ = self.occ
        for cell, old in reversed(undo):
            new = board[cell]
            if new:
                occ[new >> SIDE_SHIFT].discard(cell)
            board[cell] = old
            if old:
                occ[old >> SIDE_SHIFT].add(cell)

    def _piece_hash(self) -> int:
        """The pieces' part of the hash, from scratch."""
        zp = self.tables.z_piece
        h = 0
        for cell, p in enumerate(self.board):
            h ^= zp[p][cell]
        return h


class Position(CellPosition):
    """A one-lattice position (chess, super16, Superchess, diagram variants): `make` plays a move
    and passes the turn."""

    # the engine's search may test the King against the attack tables itself; a subclass whose
    # legality needs more (the diagram family's two royals, walked attacks) sets this
    full_legality = False

    def __init__(self, variant: Variant, rosters: tuple[Roster, Roster] = (Roster(), Roster())) -> None:
        self.variant = variant
        self.rosters = rosters
        self._init_cells(tables_for(variant, rosters), variant.geometry.size)
        self._garrison = variant.capture_consequence
        self.castling = 0
        self.ep = -1
        self.ep_key = 0
        self._codes: dict[tuple[int, str], int] = {}
        # holdings per side, counted by piece type index (None: the variant has none); the stack of
        # their changes per move runs beside `stack`
        self.hold: list[list[int]] | None = [[0] * (len(variant.pieces) + 1) for _ in (0, 1)] \
            if variant.holdings else None
        self.hold_stack: list[list[tuple[int, int, int]]] = []

    # -- piece helpers ----------------------------------------------------------------------
    def code_for(self, side: int, letter: str) -> int:
        key = (side, letter)
        code = self._codes.get(key)
        if code is None:  # cached: hooks ask for it on every move generation
            code = self._codes[key] = code_of(side, self.variant.type_index(letter))
        return code

    def letter_at(self, cell: int) -> str | None:
        p = self.board[cell]
        return self.variant.pieces[(p & 63) - 1].letter if p else None

    def rehash(self) -> int:
        """The hash computed from scratch (make/unmake keep it incrementally)."""
        t = self.tables
        h = self._piece_hash() ^ t.z_castle[self.castling] ^ self.ep_key
        if self.side:
            h ^= t.z_side
        if self.hold is not None:
            for side in (0, 1):
                for ti, n in enumerate(self.hold[side]):
                    h ^= t.z_hold[side][ti][n]
        return h

    # -- make / unmake ----------------------------------------------------------------------
    def changes(self, m: int) -> list[tuple[int, int]]:
        """The cell changes (cell, new code) that move `m` makes, in order."""
        board = self.board
        fr = m & CELL_MASK
        to = (m >> TO_SHIFT) & CELL_MASK
        code = board[fr]
        if m & CASTLE:
            _, kf, kt, rf, rt, _, _, _ = self.tables.castle_entries[(m >> PROMO_SHIFT) & PROMO_MASK]
            rook = board[rf]
            return [(kf, 0), (rf, 0), (kt, code), (rt, rook)]
        if m & DESTROY:
            out = [(fr, 0), (to, 0)]
        else:
            promo = (m >> PROMO_SHIFT) & PROMO_MASK
            out = [(fr, 0), (to, (code & ~63) | promo if promo else code)]
        if m & EP:
            files = self.variant.geometry.files
            out.append((fr - fr % files + to % files, 0))
        return out

    def make(self, m: int) -> None:
        board = self.board
        t = self.tables
        side = self.side
        other = side ^ 1
        zp = t.z_piece
        kings = self.kings
        fr = m & CELL_MASK
        to = (m >> TO_SHIFT) & CELL_MASK
        code = board[fr]
        cap = board[to]
        castling = self.castling
        record = (castling, self.ep, self.ep_key, self.halfmove, self.hash, kings[0], kings[1])
        h = self.hash ^ self.ep_key ^ t.z_side
        halfmove = self.halfmove + 1
        if not m & SPECIAL:
            undo = None
            board[fr] = 0
            board[to] = code
            occ = self.occ[side]
            occ.discard(fr)
            occ.add(to)
            h ^= zp[code][fr] ^ zp[code][to]
            if cap:
                self.occ[other].discard(to)
                h ^= zp[cap][to]
                halfmove = 0
                if t.checkable[cap]:
                    kings[other] = -1
            if t.checkable[code]:
                kings[side] = to
        else:
            undo = []
            h, captured = self._apply(self.changes(m), undo, h)
            if captured:
                halfmove = 0
        self.stack.append((m, cap, undo) + record)
        if t.pawn[code]:
            halfmove = 0
        nc = castling & t.castle_keep[fr] & t.castle_keep[to]
        if nc != castling:
            h ^= t.z_castle[castling] ^ t.z_castle[nc]
            self.castling = nc
        self.halfmove = halfmove
        if side:
            self.fullmove += 1
        self.side = other
        self.ep = -1
        self.ep_key = 0
        if m & DOUBLE and t.pawn[board[to]] and not board[(fr + to) >> 1]:
            self.ep = (fr + to) >> 1
            if self.ep_capturable():
                self.ep_key = t.z_ep[self.ep]
                h ^= self.ep_key
        if self.hold is not None:
            h = self._update_holdings(m, cap, undo, side, h)
        self.hash = h

    def _update_holdings(self, m: int, cap: int, undo: list | None, side: int, h: int) -> int:
        """Captured pieces join their owner's holdings; a promotion takes its piece from the
        mover's. Returns the hash with the changes."""
        t = self.tables
        hold = self.hold
        zh = t.z_hold
        changes = []
        captured = (cap,) if undo is None else [old for _, old in undo if old and old >> SIDE_SHIFT != side]
        for c in captured:
            if c and t.holdable[c]:
                owner, ti = c >> SIDE_SHIFT, c & 63
                n = hold[owner][ti]
                h ^= zh[owner][ti][n] ^ zh[owner][ti][n + 1]
                hold[owner][ti] = n + 1
                changes.append((owner, ti, 1))
        promo = 0 if m & CASTLE else (m >> PROMO_SHIFT) & PROMO_MASK
        if promo:
            n = hold[side][promo]
            h ^= zh[side][promo][n] ^ zh[side][promo][n - 1]
            hold[side][promo] = n - 1
            changes.append((side, promo, -1))
        self.hold_stack.append(changes)
        return h

    def unmake(self) -> None:
        m, cap, undo, castling, ep, ep_key, halfmove, h, k0, k1 = self.stack.pop()
        board = self.board
        side = self.side ^ 1
        self.side = side
        if side:
            self.fullmove -= 1
        if undo is None:
            fr = m & CELL_MASK
            to = (m >> TO_SHIFT) & CELL_MASK
            board[fr] = board[to]
            board[to] = cap
            occ = self.occ[side]
            occ.discard(to)
            occ.add(fr)
            if cap:
                self.occ[side ^ 1].add(to)
        else:
            self._restore(undo)
        self.castling = castling
        self.ep = ep
        self.ep_key = ep_key
        self.halfmove = halfmove
        self.hash = h
        self.kings[0] = k0
        self.kings[1] = k1
        if self.hold is not None:
            hold = self.hold
            for owner, ti, delta in self.hold_stack.pop():
                hold[owner][ti] -= delta

    def ep_capturable(self) -> bool:
        """After a double step: can the side to move legally capture en passant? (Only then does
        the en passant square count in the hash, so repetition matches the FIDE notion.)"""
        board = self.board
        ep = self.ep
        gen = self.tables.gen
        own = self.tables.own[self.side]
        garrison = self._garrison(self, self.side ^ 1) if self._garrison else NO_CELLS
        for cell in self.variant.geometry.adjacent[ep]:
            p = board[cell]
            if p and own[p] and self.tables.pawn[p]:
                for kind, entries in gen[p][cell][1]:
                    if kind == EP_CAPTURE:
                        for t, m, captured in entries:
                            if t == ep and self.is_safe(m | DESTROY if captured in garrison else m):
                                return True
        return False

    # -- attacks ----------------------------------------------------------------------------
    def is_attacked(self, cell: int, by_side: int) -> bool:
        return attacked(self.board, self.tables.attacks[by_side][cell])

    def in_check(self) -> bool:
        k = self.kings[self.side]
        return k >= 0 and attacked(self.board, self.tables.attacks[self.side ^ 1][k])

    def is_safe(self, m: int) -> bool:
        """After move m, is the mover's King unattacked? (Applies the move to the cells only.)"""
        board = self.board
        side = self.side
        changes = self.changes(m)
        saved = [(cell, board[cell]) for cell, _ in changes]
        king = self.kings[side]
        kcode = self.tables.king_code[side]
        for cell, new in changes:
            board[cell] = new
            if new == kcode:
                king = cell
        safe = king < 0 or board[king] != kcode or not attacked(board, self.tables.attacks[side ^ 1][king])
        for cell, old in reversed(saved):
            board[cell] = old
        return safe

    def _pinned(self, k: int, side: int) -> set[int]:
        """Own pieces that are the only blocker between the King and an enemy line attack."""
        board = self.board
        own = self.tables.own[side]
        _, pats, rays = self.tables.attacks[side ^ 1][k]
        pinned = set()
        for ray in rays:
            first = -1
            for a, codes in ray:
                p = board[a]
                if p:
                    if first < 0 and own[p]:
                        first = a
                        continue
                    if first >= 0 and p in codes:
                        pinned.add(first)
                    break
        for a, codes, between in pats:
            if board[a] in codes:
                blockers = [b for b in between if board[b]]
                if len(blockers) == 1 and own[board[blockers[0]]]:
                    pinned.add(blockers[0])
        return pinned

    # -- move generation --------------------------------------------------------------------
    def _generate(self, cells, out: list, specials: list) -> None:
        """Pseudo-legal moves of the pieces on `cells` (all of the side to move) into `out`;
        moves that need a full legality test (en passant, mutual destruction) into `specials`."""
        board = self.board
        t = self.tables
        gen = t.gen
        enemy = t.enemy[self.side]
        royal = t.royal
        garrison = self._garrison(self, self.side ^ 1) if self._garrison else NO_CELLS
        ep = self.ep
        append = out.append
        for sq in cells:
            code = board[sq]
            post, groups = gen[code][sq]
            destroy = NO_CELLS if royal[code] else garrison
            if post:
                start = len(out)
            for kind, entries in groups:
                if kind == LEAP_MC:
                    for t_, m in entries:
                        p = board[t_]
                        if not p:
                            append(m)
                        elif enemy[p]:
                            if t_ in destroy:
                                specials.append(m | DESTROY)
                            else:
                                append(m)
                elif kind == RAY_MC:
                    for ray in entries:
                        for t_, m in ray:
                            p = board[t_]
                            if not p:
                                append(m)
                                continue
                            if enemy[p]:
                                if t_ in destroy:
                                    specials.append(m | DESTROY)
                                else:
                                    append(m)
                            break
                elif kind == LEAP_M:
                    for t_, m in entries:
                        if not board[t_]:
                            append(m)
                elif kind == LEAP_C:
                    for t_, m in entries:
                        p = board[t_]
                        if p and enemy[p]:
                            if t_ in destroy:
                                specials.append(m | DESTROY)
                            else:
                                append(m)
                elif kind == EP_CAPTURE:
                    if ep >= 0:
                        for t_, m, captured in entries:
                            if t_ == ep:
                                specials.append(m | DESTROY if captured in destroy else m)
                elif kind <= PAT_C:  # lame paths
                    for t_, m, between in entries:
                        p = board[t_]
                        if p and (kind == PAT_M or not enemy[p]):
                            continue
                        if not p and kind == PAT_C:
                            continue
                        for b in between:
                            if board[b]:
                                break
                        else:
                            if p and t_ in destroy:
                                specials.append(m | DESTROY)
                            else:
                                append(m)
                else:  # move-only or capture-only rays
                    for ray in entries:
                        for t_, m in ray:
                            p = board[t_]
                            if not p:
                                if kind == RAY_M:
                                    append(m)
                                continue
                            if kind == RAY_C and enemy[p]:
                                if t_ in destroy:
                                    specials.append(m | DESTROY)
                                else:
                                    append(m)
                            break
            if post:
                self._post(out, start, post)

    def _post(self, out: list, start: int, post: int) -> None:
        """Promotion expansion and de-duplication for one piece's freshly generated moves."""
        moves = out[start:]
        del out[start:]
        if post & POST_DEDUPE:
            moves = list(dict.fromkeys(moves))
        if post & POST_PROMO:
            geo = self.variant.geometry
            last = geo.ranks - 1 if self.side == 0 else 0
            promos = self.tables.promotions[self.side]
            if self.hold is not None:  # only to a piece in the mover's holdings; none: no move there
                held = self.hold[self.side]
                promos = [p for p in promos if held[p]]
            files = geo.files
            for m in moves:
                if ((m >> TO_SHIFT) & CELL_MASK) // files == last:
                    out.extend(m | p << PROMO_SHIFT for p in promos)
                else:
                    out.append(m)
        else:
            out.extend(moves)

    def _castling_moves(self, out: list) -> None:
        board = self.board
        enemy_att = self.tables.attacks[self.side ^ 1]
        for bit, kf, kt, rf, rt, empty, passing, m in self.tables.castles[self.side]:
            if not self.castling & bit:
                continue
            if any(board[c] for c in empty):
                continue
            if any(attacked(board, enemy_att[c]) for c in passing[:-1]):
                continue
            if self.is_safe(m):
                plain = kf | kt << TO_SHIFT  # a reprogrammed King may reach kt itself: castling wins
                if plain in out:
                    out.remove(plain)
                out.append(m)

    def legal(self) -> list[int]:
        """The legal moves of the side to move, as move integers."""
        side = self.side
        k = self.kings[side]
        own_cells = self.occ[side]
        moves: list[int] = []
        specials: list[int] = []
        if k < 0:  # no King to protect (composed positions of royal-less variants)
            self._generate(own_cells, moves, specials)
            return moves + list(dict.fromkeys(specials))
        board = self.board
        enemy_att = self.tables.attacks[side ^ 1]
        checkers = attackers(board, enemy_att[k])
        kmoves: list[int] = []
        self._generate((k,), kmoves, specials)
        board[k] = 0  # the King must not shelter its own destination square
        for m in kmoves:
            if not attacked(board, enemy_att[(m >> TO_SHIFT) & CELL_MASK]):
                moves.append(m)
        board[k] = self.tables.king_code[side]
        pinned = self._pinned(k, side)
        others = own_cells - pinned
        others.discard(k)
        risky: list[int] = []
        if not checkers:
            self._generate(others, moves, specials)
            self._castling_moves(moves)
        elif len(checkers) == 1:  # capture the checker or block its one path
            a, between = checkers[0]
            targets = set(between)
            targets.add(a)
            replies: list[int] = []
            self._generate(others, replies, specials)
            moves.extend(m for m in replies if (m >> TO_SHIFT) & CELL_MASK in targets)
        else:  # several attack paths: with lame pieces one block may still parry them all
            self._generate(others, risky, specials)
        if pinned:
            self._generate(pinned, risky, specials)
        is_safe = self.is_safe
        moves.extend(m for m in risky if is_safe(m))
        for m in dict.fromkeys(specials):  # a reprogrammed slide can reach a square twice
            if is_safe(m):
                if m & EP:  # en passant takes the text of a plain diagonal move to that square
                    twin = m & (CELL_MASK | CELL_MASK << TO_SHIFT)
                    if twin in moves:
                        moves.remove(twin)
                moves.append(m)
        return moves

    def perft(self, depth: int) -> int:
        """Leaf nodes of the legal move tree `depth` plies deep (bulk counting)."""
        return perft(self, depth)

    def repetitions(self) -> int:
        """How many times the current position has occurred (this occurrence included), looking
        back through reversible moves only."""
        h = self.hash
        stack = self.stack
        count = 1
        i = len(stack) - 2
        stop = len(stack) - self.halfmove
        while i >= stop and i >= 0:
            if stack[i][7] == h:
                count += 1
            i -= 2
        return count

    def move_could_repeat(self, times: int) -> bool:
        """Cheap necessary condition for some move to reach a position for the `times`-th time:
        a position with the opponent to move already occurred `times - 1` times in the reversible
        window. Lets claim checks skip trying every legal move in ordinary positions."""
        if times <= 1:
            return True
        stack = self.stack
        seen: dict[int, int] = {}
        i = len(stack) - 1
        stop = len(stack) - self.halfmove
        while i >= stop and i >= 0:
            h = stack[i][7]
            n = seen[h] = seen.get(h, 0) + 1
            if n >= times - 1:
                return True
            i -= 2
        return False

    def history_hashes(self) -> list[int]:
        """The hashes of the positions before each move made, in order (repetition look-back)."""
        return [entry[7] for entry in self.stack]

    # -- engine helpers: pseudo-legal generation and the null move ---------------------------
    def pseudo_legal(self) -> list[int]:
        """Moves of the side to move that may leave its own King attacked (a search tests that
        after `make`, which is cheaper than proving legality for moves it never tries). Castling
        and its conditions are fully checked; en passant and mutual destruction are included."""
        moves: list[int] = []
        specials: list[int] = []
        self._generate(self.occ[self.side], moves, specials)
        if specials:
            moves.extend(dict.fromkeys(specials))
        if self.castling and self.tables.castles[self.side] and not self.in_check():
            self._castling_moves(moves)
        return moves

    def pseudo_captures(self) -> list[int]:
        """The pseudo-legal moves that remove an enemy piece (en passant and mutual destruction
        included, promotions expanded as `legal` does), for quiescence search."""
        board = self.board
        t = self.tables
        gen = t.gen
        enemy = t.enemy[self.side]
        royal = t.royal
        garrison = self._garrison(self, self.side ^ 1) if self._garrison else NO_CELLS
        ep = self.ep
        out: list[int] = []
        append = out.append
        specials: list[int] = []  # mutual destruction and en passant: never promotion-expanded
        special = specials.append
        for sq in self.occ[self.side]:
            code = board[sq]
            post, groups = gen[code][sq]
            destroy = NO_CELLS if royal[code] else garrison
            if post:
                start = len(out)
            for kind, entries in groups:
                if kind == LEAP_MC or kind == LEAP_C:
                    for t_, m in entries:
                        p = board[t_]
                        if p and enemy[p]:
                            special(m | DESTROY) if t_ in destroy else append(m)
                elif kind == RAY_MC or kind == RAY_C:
                    for ray in entries:
                        for t_, m in ray:
                            p = board[t_]
                            if p:
                                if enemy[p]:
                                    special(m | DESTROY) if t_ in destroy else append(m)
                                break
                elif kind == EP_CAPTURE:
                    if ep >= 0:
                        for t_, m, captured in entries:
                            if t_ == ep:
                                special(m | DESTROY if captured in destroy else m)
                elif kind == PAT_MC or kind == PAT_C:
                    for t_, m, between in entries:
                        p = board[t_]
                        if p and enemy[p]:
                            for b in between:
                                if board[b]:
                                    break
                            else:
                                special(m | DESTROY) if t_ in destroy else append(m)
            if post and len(out) > start:
                self._post(out, start, post)
        if specials:
            out.extend(dict.fromkeys(specials))
        return out

    def make_null(self) -> None:
        """Pass the turn (for null-move pruning). The null move counts as irreversible, so
        repetition look-back stops at it; undo with `unmake_null`."""
        t = self.tables
        self.stack.append((0, 0, None, self.castling, self.ep, self.ep_key, self.halfmove, self.hash,
                           self.kings[0], self.kings[1]))
        self.hash ^= self.ep_key ^ t.z_side
        self.ep = -1
        self.ep_key = 0
        self.halfmove = 0
        self.side ^= 1

    def unmake_null(self) -> None:
        _, _, _, _, ep, ep_key, halfmove, h, _, _ = self.stack.pop()
        self.side ^= 1
        self.ep = ep
        self.ep_key = ep_key
        self.halfmove = halfmove
        self.hash = h


def lone_piece_destinations(pos: Position, cell: int, code: int) -> list[int]:
    """The cells the piece `code` reaches standing alone on `cell` of the empty position `pos` (which
    this sets up, its owner to move): its pseudo-legal moves, as alone nothing can make one illegal
    but the absence of its King, which a diagram ignores."""
    pos.put(cell, code)
    pos.side = code >> SIDE_SHIFT
    return [(m >> TO_SHIFT) & CELL_MASK for m in pos.pseudo_legal()]
