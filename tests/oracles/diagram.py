"""Test-only oracle: the stand-alone implementation of diagram variants (Vanguard) that ran beside
the core before `DiagramCorePosition` (tests/rules/diagram/test_position.py compares the two).

Its own game state: pieces, side to move, recorded unmoved rights, clocks; pseudo-legal moves from
the compiled XBetza patterns, walked cell by cell; make/unmake as cell-change lists with an
incremental Zobrist hash; attack (Vanguard 4.2, R18) and the two-royal legality of 4.3/4.4.

A move is a tuple ``(origin, dest, captured, kind)`` of cell integers (``y * files + x``), the
captured cells in path order (the destination included when it is captured) and the XBetza kind
(normal, locust, igui, rifle, pass, swap, jump). Piece codes are ``side << 6 | type index``.
"""
from __future__ import annotations

import random

from superchess.rules.diagram.tables import capture_offsets, is_plain
from superchess.rules.diagram.variant import DiagramVariant, PieceRule
from superchess.rules.diagram.xbetza import ENEMY_S, FRIEND_S, Req, generate

SIDE_SHIFT = 6
TYPE_MASK = 63
DMove = tuple[int, int, tuple[int, ...], str]


_STATIC: dict[int, tuple] = {}


def _static(rules: DiagramVariant) -> tuple:
    """Zobrist keys, capture offsets and the caches of compiled cells and attack sources of a rules
    object, made once."""
    entry = _STATIC.get(id(rules))
    if entry is None or entry[0] is not rules:
        n = rules.files * rules.ranks
        rng = random.Random(20231107)
        z = [[rng.getrandbits(64) for _ in range(128)] for _ in range(n)]
        z_unmoved = [rng.getrandbits(64) for _ in range(n)]
        span = max(rules.files, rules.ranks)
        offsets = {(i + 1, s): capture_offsets(p.pats[s], span) for i, p in enumerate(rules.pieces) for s in (0, 1)}
        entry = _STATIC[id(rules)] = (rules, z, z_unmoved, rng.getrandbits(64), offsets, {}, {})
    return entry[1:]


def compile_cell(rules: DiagramVariant, type_index: int, side: int, cell: int) -> tuple[tuple, tuple]:
    """(rays, walked patterns) of a piece type for a side on a cell: a ray is (cells, may end on
    empty, may capture, initial only)."""
    files, ranks = rules.files, rules.ranks
    origin = (cell % files, cell // files)
    rays, walked = [], []
    for pat in rules.pieces[type_index - 1].pats[side]:
        if not is_plain(pat):
            walked.append(pat)
            continue
        leg = pat.legs[0]
        cells = tuple(y * files + x for x, y in leg.cells_from(origin, files, ranks))
        if cells:
            rays.append((cells, bool(leg.end & Req.EMPTY), bool(leg.end & Req.ENEMY), pat.initial))
    return tuple(rays), tuple(walked)


class DiagramPosition:
    """Mutable state with make/unmake; see the module docstring."""

    def __init__(self, rules: DiagramVariant) -> None:
        self.rules = rules
        self.files, self.ranks = rules.files, rules.ranks
        n = self.files * self.ranks
        self.board = [0] * n
        self.occ: tuple[set[int], set[int]] = (set(), set())
        self.side = 0
        self.unmoved: frozenset[int] = frozenset()
        self.halfmove = 0
        self.fullmove = 1
        self.hash = 0
        self.history: list[int] = []  # hashes of earlier positions, for repetition
        self._undo: list[tuple] = []
        self._z, self._z_unmoved, self._z_side, self._offsets, self._compiled, self._sources = _static(rules)
        self._rule = [None] + list(rules.pieces)
        self._king = rules.type_index(rules.king) if rules.king else 0
        self._prince = rules.type_index(rules.prince) if rules.prince else 0
        self._succession = [(rules.type_index(a), rules.type_index(b)) for a, b in rules.succession]

    # -- setting up ---------------------------------------------------------------------------
    def clear(self) -> None:
        self.board = [0] * len(self.board)
        self.occ = (set(), set())
        self.unmoved = frozenset()
        self.history, self._undo = [], []

    def put(self, cell: int, code: int) -> None:
        old = self.board[cell]
        if old:
            self.occ[old >> SIDE_SHIFT].discard(cell)
        self.board[cell] = code
        if code:
            self.occ[code >> SIDE_SHIFT].add(cell)

    def rehash(self) -> None:
        h = self._z_side if self.side else 0
        for c, v in enumerate(self.board):
            if v:
                h ^= self._z[c][v]
        for c in self.unmoved:
            h ^= self._z_unmoved[c]
        self.hash = h

    def code(self, side: int, letter: str) -> int:
        return side << SIDE_SHIFT | self.rules.type_index(letter)

    def rule_of(self, code: int) -> PieceRule:
        return self._rule[code & TYPE_MASK]

    # -- move generation ----------------------------------------------------------------------
    def _unmoved(self, cell: int, code: int) -> bool:
        """R11: a pawn type on its start rank; other pieces by the recorded right."""
        rule = self._rule[code & TYPE_MASK]
        if rule.pawn:
            return cell // self.files in rule.start_ranks[code >> SIDE_SHIFT]
        return cell in self.unmoved

    def piece_moves(self, cell: int) -> list[DMove]:
        """Pseudo-legal moves of the piece on `cell`: compiled rays, then the walked patterns."""
        code = self.board[cell]
        side = code >> SIDE_SHIFT
        board, files = self.board, self.files
        key = (code, cell)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = compile_cell(self.rules, code & TYPE_MASK, side, cell)
        rays, walked = compiled
        rule = self._rule[code & TYPE_MASK]
        unmoved = rule.initial and self._unmoved(cell, code)
        out: dict[DMove, None] = {}
        for cells, to_empty, to_enemy, initial in rays:
            if initial and not unmoved:
                continue
            for c in cells:
                v = board[c]
                if not v:
                    if to_empty:
                        out[(cell, c, (), "normal")] = None
                    continue
                if to_enemy and v >> SIDE_SHIFT != side:
                    out[(cell, c, (c,), "normal")] = None
                break
        if walked:
            def occ(xy):
                v = board[xy[1] * files + xy[0]]
                if not v:
                    return None
                return FRIEND_S if v >> SIDE_SHIFT == side else ENEMY_S

            for mv in generate(walked, (cell % files, cell // files), occ, files, self.ranks, unmoved):
                out[(cell, mv.dest[1] * files + mv.dest[0], tuple(y * files + x for x, y in mv.captured),
                     mv.kind)] = None
        return list(out)

    def pseudo_legal(self, side: int | None = None) -> list[DMove]:
        side = self.side if side is None else side
        out = []
        for c in sorted(self.occ[side]):
            out.extend(self.piece_moves(c))
        return out

    def sources(self, code: int, cell: int) -> frozenset[int]:
        """The cells from which a piece `code` could capture on `cell` on some occupancy."""
        key = (code, cell)
        cells = self._sources.get(key)
        if cells is None:
            offsets = self._offsets[(code & TYPE_MASK, code >> SIDE_SHIFT)]
            tx, ty = cell % self.files, cell // self.files
            cells = self._sources[key] = frozenset(
                y * self.files + x for x in range(self.files) for y in range(self.ranks) if (tx - x, ty - y) in offsets)
        return cells

    def _attacked_from(self, cell: int, attackers) -> bool:
        return any(cell in m[2] for c in attackers for m in self.piece_moves(c))

    def is_attacked(self, cell: int, by: int) -> bool:
        """Some pseudo-legal move of `by` would capture a piece on `cell` (4.2, R18); the cell is
        judged with whatever stands on it (an empty cell as if an enemy of `by` stood there)."""
        placed = False
        if not self.board[cell]:
            self.put(cell, (by ^ 1) << SIDE_SHIFT | self._king if self._king else (by ^ 1) << SIDE_SHIFT | 1)
            placed = True
        try:
            board = self.board
            return self._attacked_from(cell, [c for c in self.occ[by] if c in self.sources(board[c], cell)])
        finally:
            if placed:
                self.put(cell, 0)

    def royal_cell(self, side: int, index: int) -> int:
        """The cell of `side`'s piece of type `index` (King or Prince), or -1."""
        if index:
            code = side << SIDE_SHIFT | index
            for c in self.occ[side]:
                if self.board[c] == code:
                    return c
        return -1

    def king_cell(self, side: int) -> int:
        return self.royal_cell(side, self._king)

    def prince_cell(self, side: int) -> int:
        return self.royal_cell(side, self._prince)

    def in_check(self, side: int | None = None) -> bool:
        side = self.side if side is None else side
        k = self.king_cell(side)
        return k >= 0 and self.is_attacked(k, side ^ 1)

    def _leaves_safe(self, m: DMove, index: int) -> bool:
        """After `m`, the mover's royal of type `index` is not attacked."""
        side = self.side
        self.make(m)
        r = self.royal_cell(side, index)
        safe = r >= 0 and not self.is_attacked(r, side ^ 1)
        self.unmake()
        return safe

    def _safe_moves(self, pseudo: list[DMove]) -> list[DMove]:
        """The moves after which the mover's King is not attacked. Only enemy pieces that could
        capture on the King's cell on some occupancy (`sources`) are tried, and none at all when
        the move removes every one of them; moves of the King itself, and moves that change an
        enemy piece (succession), are tested in full."""
        side = self.side
        k = self.king_cell(side)
        opp = side ^ 1
        board = self.board
        candidates = [c for c in self.occ[opp] if c in self.sources(board[c], k)]
        out = []
        for m in pseudo:
            o, d, caps, kind = m
            if o == k or (kind == "swap" and d == k):
                if self._leaves_safe(m, self._king):
                    out.append(m)
                continue
            live = [c for c in candidates if c not in caps]
            if not live:
                out.append(m)
                continue
            self.make(m)
            if any(after and after >> SIDE_SHIFT == opp for _, _, after in self._undo[-1][1]):
                safe = not self.is_attacked(k, opp)  # an heir changed type: every enemy piece
            else:
                safe = not self._attacked_from(k, live)
            self.unmake()
            if safe:
                out.append(m)
        return out

    def double_checkmated(self, pseudo: list[DMove]) -> bool:
        """4.4, given that no pseudo-legal move keeps the King safe."""
        side = self.side
        p = self.prince_cell(side)
        if p < 0 or not self.in_check(side) or not self.is_attacked(p, side ^ 1):
            return False
        if any(self._leaves_safe(m, self._prince) for m in pseudo):
            return False
        px, py = p % self.files, p // self.files
        prince = self.board[p]
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x, y = px + dx, py + dy
            if not (0 <= x < self.files and 0 <= y < self.ranks):
                continue
            t = y * self.files + x
            if self.board[t] and self.board[t] >> SIDE_SHIFT == side:
                continue
            old = self.board[t]
            self.put(p, 0)
            self.put(t, prince)
            attacked = self.is_attacked(t, side ^ 1)
            self.put(t, old)
            self.put(p, prince)
            if not attacked:
                return False
        return True

    def legal(self) -> list[DMove]:
        """4.3: the safe moves if any; else none (no Prince, or double checkmate) or every
        pseudo-legal move (a Prince is alive). No moves at all once the King is lost."""
        side = self.side
        pseudo = self.pseudo_legal(side)
        if not self._king:
            return pseudo
        if self.king_cell(side) < 0:
            return []
        safe = self._safe_moves(pseudo)
        if safe or self.prince_cell(side) < 0 or self.double_checkmated(pseudo):
            return safe
        return pseudo

    # -- make / unmake ------------------------------------------------------------------------
    def changes(self, m: DMove) -> list[tuple[int, int, int]]:
        """The move as (cell, before, after), promotion (4.5, R12) and succession (R16) included."""
        o, d, caps, kind = m
        board = self.board
        piece = board[o]
        side = piece >> SIDE_SHIFT
        after: dict[int, int] = {}
        if kind == "swap":
            after[o], after[d] = board[d], piece
        elif kind != "pass":
            for c in caps:
                after[c] = 0
            if d != o:
                after[o] = 0
                after[d] = piece
        for c, v in after.items():
            if v and v >> SIDE_SHIFT == side:
                rule = self._rule[v & TYPE_MASK]
                if rule.pawn and self._far(c, side):
                    after[c] = side << SIDE_SHIFT | self.rules.type_index(rule.morph)
        opp = side ^ 1
        for lost, heir in self._succession:
            code = opp << SIDE_SHIFT | lost
            if not any(board[c] == code for c in caps):
                continue
            left = [c for c in self.occ[opp] if after.get(c, board[c]) == code]
            heirs = [c for c in self.occ[opp] if after.get(c, board[c]) == opp << SIDE_SHIFT | heir]
            if not left and heirs:
                after[heirs[0]] = code
        return [(c, board[c], v) for c, v in after.items()]

    def _far(self, cell: int, side: int) -> bool:
        y = cell // self.files
        zone = self.rules.promo_zone
        return y >= self.ranks - zone if side == 0 else y < zone

    def make(self, m: DMove) -> None:
        ch = self.changes(m)
        o, d, caps, _ = m
        mover = self.board[o]
        self._undo.append((m, ch, self.unmoved, self.halfmove, self.hash))
        self.history.append(self.hash)
        h = self.hash
        z = self._z
        for c, before, after in ch:
            if before:
                h ^= z[c][before]
            if after:
                h ^= z[c][after]
            self.put(c, after)
        gone = (self.unmoved & ({o, d} | set(caps))) if ch else frozenset()
        for c in gone:
            h ^= self._z_unmoved[c]
        self.unmoved = self.unmoved - gone
        self.hash = h ^ self._z_side
        self.halfmove = 0 if caps or self._rule[mover & TYPE_MASK].pawn else self.halfmove + 1
        if self.side:
            self.fullmove += 1
        self.side ^= 1

    def unmake(self) -> None:
        m, ch, self.unmoved, self.halfmove, self.hash = self._undo.pop()
        self.history.pop()
        for c, before, _ in reversed(ch):
            self.put(c, before)
        self.side ^= 1
        if self.side:
            self.fullmove -= 1

    def last_move(self) -> DMove | None:
        return self._undo[-1][0] if self._undo else None

    def repetitions(self) -> int:
        """How often the current position has occurred, this time included."""
        return 1 + self.history.count(self.hash)
