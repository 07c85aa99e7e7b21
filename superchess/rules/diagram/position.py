"""The core `Position` for diagram variants (Vanguard): the same board, integer moves, make/unmake
by cell changes and Zobrist hash, plus what the variant's rules add as named switches:

* walked XBetza patterns and initial-only rays (`DiagramTables.walks`) beside the core groups;
* moves applied through interned records (`MULTI`: captures off the destination, igui, rifle,
  pass, swap), the fixed promotion of pawn types (4.5, R12), the promotion by choice of a
  pasted diagram's promoChoice (its type in the move's PROMO field) and royal succession as the
  `after_capture` rule (R16, R17: when the last piece of a `lost` type is captured, its heir
  becomes one in place);
* recorded unmoved rights (R11: Helepolis) in the state and the hash;
* attack including every special capture (4.2, R18) and the two-royal legality of 4.3/4.4 (a
  player who can keep the King safe must; otherwise, with a Prince alive and no double
  checkmate, any move).

Piece codes are the core's (``side << 6 | type index``, diagram order), so the position text of
the position text (`fen.py`) reads and writes it.
"""
from __future__ import annotations

from ..core.encoding import (
    CELL_MASK,
    MULTI,
    PROMO_MASK,
    PROMO_SHIFT,
    RECORD_SHIFT,
    SIDE_SHIFT,
    SPECIAL,
    TO_SHIFT,
)
from ..core.position import Position, attacked
from .tables import DiagramTables, diagram_parts
from .variant import DiagramVariant, PieceRule
from .xbetza import walk_cells

_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


class DiagramCorePosition(Position):
    """A diagram variant's state on the core; see the module docstring."""

    # the engine's search takes `legal()` and `in_check()` at every node instead of testing the
    # King against the attack tables itself (two royals, 4.3 rescue moves, walked attacks)
    full_legality = True

    def __init__(self, rules: DiagramVariant) -> None:
        variant, dt = diagram_parts(rules)
        super().__init__(variant)
        self.rules = rules
        self.dt: DiagramTables = dt
        self.files, self.ranks = rules.files, rules.ranks
        self.unmoved: frozenset[int] = frozenset()
        self._unmoved_stack: list[frozenset[int]] = []
        self._rule: list[PieceRule | None] = [None] + list(rules.pieces)

    # -- setting up (the interface `fen.py` reads and writes) ------------------------------
    def clear(self) -> None:
        for c in range(len(self.board)):
            if self.board[c]:
                self.put(c, 0)
        self.unmoved = frozenset()
        self.stack.clear()
        self._unmoved_stack.clear()

    def code(self, side: int, letter: str) -> int:
        return side << SIDE_SHIFT | self.rules.type_index(letter)

    def rule_of(self, code: int) -> PieceRule:
        return self._rule[code & 63]

    def rehash(self) -> int:
        """The hash from scratch (unmoved rights included); also stored as `hash`."""
        h = super().rehash()
        for c in self.unmoved:
            h ^= self.dt.z_unmoved[c]
        self.hash = h
        return h

    # -- moves ---------------------------------------------------------------------------------
    def record(self, m: int) -> tuple[int, int, tuple[int, ...], str]:
        """(origin, destination, captured cells in path order, kind) of a move integer."""
        if m & MULTI:
            return self.dt.records[m >> RECORD_SHIFT]
        fr, to = m & CELL_MASK, (m >> TO_SHIFT) & CELL_MASK
        return fr, to, ((to,) if self.board[to] else ()), "normal"

    def _unmoved_at(self, cell: int, code: int) -> bool:
        """R11: a pawn type on its start ranks; other pieces by the recorded right."""
        start = self.dt.pawn_start[code]
        if start:
            return cell // self.files in start
        return cell in self.unmoved

    def _walked(self, sq: int, code: int, out: list, captures_only: bool = False) -> None:
        """Moves of the piece on `sq` from its initial rays and walked patterns, into `out` (with
        `captures_only`, at least those that capture, from the patterns that can)."""
        walk = self.dt.walks[code][sq]
        if walk is None:
            return
        initial_rays, trie = walk
        board = self.board
        side = code >> SIDE_SHIFT
        unmoved = self.dt.initial[code] and self._unmoved_at(sq, code)
        if unmoved:
            enemy = self.tables.enemy[side]
            for entries, to_empty, to_enemy in initial_rays:
                for t, m in entries:
                    p = board[t]
                    if not p:
                        if to_empty:
                            out.append(m)
                        continue
                    if to_enemy and enemy[p]:
                        out.append(m)
                    break
        if trie is not None and (trie.takes or not captures_only):
            if captures_only:
                enemy = self.tables.enemy[side]
                if not any(enemy[board[c]] for c in self.dt.capture_cells(code, sq)):
                    return
            encode = self.dt.encode
            for mv in walk_cells(self.dt.cell_walk(code, sq), sq, board, self.tables.own[side], self.files, unmoved,
                                 captures_only):
                out.extend(encode(sq, code, mv))

    def pseudo_legal(self) -> list[int]:
        """Every move of the side to move by its patterns, whatever it leaves attacked."""
        moves: list[int] = []
        self._generate(self.occ[self.side], moves, [])
        n = len(moves)
        board = self.board
        for sq in self.occ[self.side]:
            self._walked(sq, board[sq], moves)
        return list(dict.fromkeys(moves)) if len(moves) > n else moves

    def pseudo_captures(self) -> list[int]:
        """The pseudo-legal moves that capture an enemy piece (for quiescence): the core groups'
        captures, then the walked patterns that can capture."""
        out = super().pseudo_captures()
        n = len(out)
        board = self.board
        records = self.dt.records
        walked: list[int] = []
        for sq in self.occ[self.side]:
            self._walked(sq, board[sq], walked, True)
        out.extend(m for m in walked if (records[m >> RECORD_SHIFT][2] if m & MULTI
                                         else board[(m >> TO_SHIFT) & CELL_MASK]))
        return list(dict.fromkeys(out)) if len(out) > n else out

    # -- make / unmake -------------------------------------------------------------------------
    def changes(self, m: int) -> list[tuple[int, int]]:
        """The cell changes (cell, new code) of move `m`: captures, swap, promotion (4.5, R12) and
        succession (R16, R17)."""
        board = self.board
        dt = self.dt
        if m & MULTI:
            o, d, caps, kind = dt.records[m >> RECORD_SHIFT]
            piece = board[o]
            after: dict[int, int] = {}
            if kind == "swap":
                after[o], after[d] = board[d], piece
            elif kind != "pass":
                for c in caps:
                    after[c] = 0
                if d != o:
                    after[o] = 0
                    after[d] = piece
            if m >> PROMO_SHIFT & PROMO_MASK:  # a promotion by choice (promoChoice): the type is in the move
                after[d] = (piece & ~63) | m >> PROMO_SHIFT & PROMO_MASK
            for c, v in after.items():  # any friendly pawn type that lands in the zone (R12)
                if v and dt.morph[v] and dt.in_zone[v >> SIDE_SHIFT][c]:
                    after[c] = (v & ~63) | dt.morph[v]
        else:
            to = (m >> TO_SHIFT) & CELL_MASK
            after = dict(super().changes(m))
            caps = (to,) if board[to] else ()
            if not (caps and dt.lost[board[to]]):
                return list(after.items())
        opp = (board[m & CELL_MASK] >> SIDE_SHIFT) ^ 1
        occ = self.occ[opp]
        for lost, heir in dt.succession:
            code = opp << SIDE_SHIFT | lost
            if not any(board[c] == code for c in caps):
                continue
            if any(after.get(c, board[c]) == code for c in occ):
                continue
            heirs = sorted(c for c in occ if after.get(c, board[c]) == opp << SIDE_SHIFT | heir)
            if heirs:
                after[heirs[0]] = code
        return list(after.items())

    def make(self, m: int) -> None:
        if not m & SPECIAL:
            to = (m >> TO_SHIFT) & CELL_MASK
            if self.dt.lost[self.board[to]]:  # a capture that may hand a role on: apply by changes
                m = self.dt.intern((m & CELL_MASK, to, (to,), "normal")) | m & PROMO_MASK << PROMO_SHIFT
        touched = ()
        if self.unmoved:
            o, d, caps, kind = self.record(m)
            if kind != "pass":
                touched = self.unmoved & ({o, d} | set(caps))
        self._unmoved_stack.append(self.unmoved)
        super().make(m)
        if touched:
            for c in touched:
                self.hash ^= self.dt.z_unmoved[c]
            self.unmoved = self.unmoved - touched

    def unmake(self) -> None:
        super().unmake()
        self.unmoved = self._unmoved_stack.pop()

    # -- attack and legality -------------------------------------------------------------------
    def attacked_by(self, cell: int, by: int) -> bool:
        """Some move of `by` would capture the piece on `cell` (4.2, R18): the core's attack
        tables, then the walked patterns of `by`'s pieces that can capture there. An empty cell is
        judged as if a piece of the other side stood on it."""
        board = self.board
        if attacked(board, self.tables.attacks[by][cell]):
            return True
        sources = [a for a, codes in self.dt.walk_sources[by][cell] if board[a] in codes]
        if not sources:
            return False
        empty = not board[cell]
        if empty:
            board[cell] = self.tables.king_code[by ^ 1] or (by ^ 1) << SIDE_SHIFT | 1
        try:
            for a in sources:
                found: list[int] = []
                self._walked(a, board[a], found, True)
                if any(cell in self.record(m)[2] for m in found):
                    return True
            return False
        finally:
            if empty:
                board[cell] = 0

    def is_attacked(self, cell: int, by_side: int) -> bool:
        return self.attacked_by(cell, by_side)

    def in_check(self) -> bool:
        k = self.kings[self.side]
        return k >= 0 and self.attacked_by(k, self.side ^ 1)

    def king_lost(self) -> bool:
        """The side to move has lost its King with no Prince to succeed it (R15)."""
        return bool(self.dt.king) and self.kings[self.side] < 0

    def capture_gain(self, m: int, value: list[int]) -> int:
        """The summed `value` (per piece code) of every piece move `m` captures."""
        board = self.board
        return sum(value[board[c]] for c in self.record(m)[2])

    def captures_first(self, moves: list[int], value: list[int], order_value: list[int]) -> list[int]:
        """The capturing moves and promotions among `moves`, most taken first (summed `value` per
        piece code), then the cheapest mover (`order_value`): the search's first stage."""
        board = self.board
        records = self.dt.records
        keyed = []
        for m in moves:
            if m & MULTI:
                caps = records[m >> RECORD_SHIFT][2]
                gain = sum(value[board[c]] for c in caps) if caps else 0
            else:
                gain = value[board[(m >> TO_SHIFT) & CELL_MASK]]
            promo = (m >> PROMO_SHIFT) & 63
            if gain or promo:
                keyed.append((gain * 4096 + promo * 64 - order_value[board[m & CELL_MASK]] // 16, m))
        keyed.sort(reverse=True)
        return [m for _, m in keyed]

    def royal_cell(self, side: int, type_index: int) -> int:
        """The cell of `side`'s piece of that type (King or Prince), or -1."""
        if type_index:
            code = side << SIDE_SHIFT | type_index
            for c in self.occ[side]:
                if self.board[c] == code:
                    return c
        return -1

    def safe_after(self, m: int, type_index: int) -> bool:
        """After `m`, the mover's royal of that type stands and is not attacked."""
        board = self.board
        side = self.side
        royal = side << SIDE_SHIFT | type_index
        changes = self.changes(m)
        saved = [(cell, board[cell]) for cell, _ in changes]
        at = self.kings[side] if type_index == self.dt.king else self.royal_cell(side, type_index)
        for cell, new in changes:
            board[cell] = new
            if new == royal:
                at = cell
        safe = at >= 0 and board[at] == royal and not self.attacked_by(at, side ^ 1)
        for cell, old in reversed(saved):
            board[cell] = old
        return safe

    def double_checkmated(self, pseudo: list[int]) -> bool:
        """4.4, given that no move keeps the King safe: the Prince is attacked, no move makes it
        safe, and every orthogonally adjacent cell it could step to is attacked."""
        side = self.side
        p = self.royal_cell(side, self.dt.prince)
        if p < 0 or not self.in_check() or not self.attacked_by(p, side ^ 1):
            return False
        if any(self.safe_after(m, self.dt.prince) for m in pseudo):
            return False
        board = self.board
        prince = board[p]
        own = self.tables.own[side]
        for dx, dy in _ORTHOGONAL:
            x, y = p % self.files + dx, p // self.files + dy
            if not (0 <= x < self.files and 0 <= y < self.ranks):
                continue
            t = y * self.files + x
            old = board[t]
            if old and own[old]:
                continue
            board[p], board[t] = 0, prince
            hit = self.attacked_by(t, side ^ 1)
            board[p], board[t] = prince, old
            if not hit:
                return False
        return True

    def no_royal_rescue(self) -> bool:
        """No Prince can rescue the side to move: it has none, or it is double checkmated (4.4)."""
        return self.royal_cell(self.side, self.dt.prince) < 0 or self.double_checkmated(self.pseudo_legal())

    def _exposed(self, k: int, opp: int) -> set[int] | None:
        """With the King on `k` not attacked: the cells a move must change to let `opp` attack it
        (the King's own cell, the only piece between it and a line attacker, the paths of lame
        attackers, everything a walked attacker inspects; a piece moving onto a line only blocks
        it). None when the King is attacked."""
        board = self.board
        _, pats, rays = self.tables.attacks[opp][k]
        out = {k}
        for ray in rays:
            first = -1
            for a, codes in ray:
                p = board[a]
                if p:
                    if first < 0:
                        first = a
                        continue
                    if p in codes:
                        out.add(first)
                    break
        for a, codes, between in pats:
            if board[a] in codes:
                out.update(between)
        reach = self.dt.reach
        for a, codes in self.dt.walk_sources[opp][k]:
            if board[a] in codes:
                out.add(a)
                out |= reach(board[a], a)
        if self.attacked_by(k, opp):
            return None
        return out

    def _untouched(self, m: int, exposed: set[int]) -> bool:
        """The move changes no cell of `exposed`, takes at most one piece (two taken on one line
        could open it) and hands no role on (succession): it cannot expose the King."""
        if m & MULTI:
            o, d, caps, _ = self.dt.records[m >> RECORD_SHIFT]
            board, lost = self.board, self.dt.lost
            return o not in exposed and d not in exposed and len(caps) < 2 \
                and not any(c in exposed or lost[board[c]] for c in caps)
        to = (m >> TO_SHIFT) & CELL_MASK
        return m & CELL_MASK not in exposed and to not in exposed and not self.dt.lost[self.board[to]]

    def legal(self) -> list[int]:
        """4.3: the moves that keep the King safe if any; else none (no Prince, or double
        checkmate) or every move (a Prince is alive). No moves at all once the King is lost."""
        side = self.side
        pseudo = self.pseudo_legal()
        king = self.dt.king
        if not king:
            return pseudo
        if self.kings[side] < 0:
            return []
        exposed = self._exposed(self.kings[side], side ^ 1)
        if exposed is None:
            safe = [m for m in pseudo if self.safe_after(m, king)]
        else:
            safe = [m for m in pseudo if self._untouched(m, exposed) or self.safe_after(m, king)]
        if safe or self.royal_cell(side, self.dt.prince) < 0 or self.double_checkmated(pseudo):
            return safe
        return pseudo
