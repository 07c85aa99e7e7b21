"""Tiling Rider's position on the core (../shared/rules/tiling-rider.md): a `position.CellPosition`
(cells holding piece codes, occupied cells, incremental Zobrist hash, make/unmake as lists of cell
changes through its `_apply`/`_restore`) with core move integers.

One `TilingPosition` is mutated in place: `make(m)` plays a move of the current turn, `end_turn()`
closes the turn (the other side moves next), `unmake()` takes back the last of either. Besides the
cells it keeps the turn's bookkeeping (4.1, R10): how many moves were made, the cells of pieces that
moved alone (`moved`) or took part in an aggregate move (`done`), whether the King moved, whether
anything was captured; and the turn's allowance (R11, R13), the turns without capture (`halfmove`) and
the turn number (`fullmove`).

- A small piece's move is one changes list of two cells (a capture overwrites the target; `make`
  and `unmake` do these two cells inline, the hot case); an aggregate or King move (`UNIT_MOVE`)
  lifts the four cells of its unit and places them on the destination unit, capturing whatever
  enemy stands there (3.2, 3.3) in the same list, applied by the base's `_apply`.
- `legal()` / `iter_legal()` list the moves the player may make now (4.1, 4.2): a King move never
  ends in check; any other move may not leave the King in check unless it was in check just before.
  Only moves that empty a unit can open an aggregate's line (every attack on a King otherwise is a
  leap or a King's step), so only those (when the enemy has an aggregate) and King moves are tested
  by applying their changes.
- The hash covers the cells, the side of the turn and the turn's allowance (4.3: repetition compares
  turn starts with the same side and allowance); `key()` adds the turn's bookkeeping for searches.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..core.encoding import CELL_MASK, SIDE_SHIFT, TO_SHIFT, code_of
from ..core.position import CellPosition
from ..core.text import FenError, parse_counter, parse_rank, placement_text
from .tables import AGGREGATE, UNIT_MOVE, TilingTables, tiling_tables

NO_CELLS: frozenset[int] = frozenset()


class TilingError(FenError):
    """Bad Tiling Rider position text."""


class TilingPosition(CellPosition):
    """Mutable game state on the core's `CellPosition`: `board[cell]` is a piece code (0 = empty); a
    giant King's code stands on each of its four cells and `kings[side]` is its unit's lower-left cell
    (kept here, not by the base: no code is `checkable` per cell). `halfmove` counts the turns without
    capture, `fullmove` the turns (1.1)."""

    def __init__(self, tables: TilingTables | None = None) -> None:
        t = tables or tiling_tables()
        self.geometry = t.geometry
        self._init_cells(t, t.geometry.size)
        self.allowance = t.variant.opening_allowances[0]
        self.exact = True
        # the turn's bookkeeping (4.1)
        self.made = 0
        self.moved: frozenset[int] = NO_CELLS
        self.done: frozenset[int] = NO_CELLS
        self.king_moved = False
        self.captured = False
        self.history: list[int] = [0]  # hashes of the turn starts so far, the current one last

    # -- set-up and text ----------------------------------------------------------------------
    @classmethod
    def from_fen(cls, fen: str, tables: TilingTables | None = None) -> TilingPosition:
        """A turn-start position from its FEN (1.1); a FenError (TilingError for what is particular to
        Tiling Rider) when it is bad."""
        pos = cls(tables)
        fields = fen.split()
        if len(fields) != 5:
            raise TilingError("position text needs: placement side allowance quiet-turns turn-number")
        placement, side, allowance, quiet, number = fields
        if side not in ("w", "b"):
            raise TilingError(f"side must be w or b, not {side!r}")
        exact = allowance.endswith("!")
        moves = parse_counter(allowance[:-1] if exact else allowance, "allowance", 1, TilingError)
        quiet_turns = parse_counter(quiet, "quiet-turn count", 0, TilingError)
        turn = parse_counter(number, "turn number", 1, TilingError)
        data = pos.tables.variant
        if exact and moves != data.opening_allowances["wb".index(side)]:
            raise TilingError(f"an exact allowance is the first turn's: {data.opening_allowances[0]}! for White, "
                              f"{data.opening_allowances[1]}! for Black (4.1, R11)")
        if moves > data.max_allowance:
            raise TilingError(f"allowance {moves} is more than a turn can reach: at most {data.max_allowance} "
                              f"(one more than the most moves a turn can hold, 4.1)")
        pos._place(placement)
        pos.side, pos.allowance, pos.exact = "wb".index(side), moves, exact
        pos.halfmove, pos.fullmove = quiet_turns, turn
        pos.hash = pos.rehash()
        pos.history = [pos.hash]
        return pos

    def _place(self, placement: str) -> None:
        geo, t = self.geometry, self.tables
        codes = {t.symbol[c]: c for c in range(len(t.symbol)) if t.symbol[c]}
        rows = placement.split("/")
        if len(rows) != geo.ranks:
            raise TilingError(f"placement needs {geo.ranks} ranks, got {len(rows)}")
        for n, row in enumerate(rows):
            r = geo.ranks - 1 - n
            for f, code in enumerate(parse_rank(row, geo.files, codes, f"rank {r + 1}", error=TilingError)):
                if code:
                    self.put(r * geo.files + f, code)
        for side in (0, 1):
            code = t.king_code[side]
            cells = sorted(c for c in self.occ[side] if self.board[c] == code)
            if len(cells) != 4 or tuple(cells) != geo.unit_cells[geo.unit_of[cells[0]]]:
                raise TilingError(f"the {'White' if side == 0 else 'Black'} King must fill exactly one unit")
            self.kings[side] = cells[0]

    def rehash(self) -> int:
        """The hash computed from scratch (make/unmake keep it incrementally)."""
        t = self.tables
        h = t.z_allowance(self.allowance, self.exact) ^ self._piece_hash()
        return h ^ t.z_side if self.side else h

    def start_board(self) -> list[int]:
        """The cells at the start of the current turn (the turn's changes taken back on a copy)."""
        board = list(self.board)
        for record in reversed(self.stack[len(self.stack) - self.made:]):
            for cell, old in reversed(record[1]):
                board[cell] = old
        return board

    def placement(self, board: list[int] | None = None) -> str:
        geo = self.geometry
        board = self.board if board is None else board
        return placement_text((board[r * geo.files:(r + 1) * geo.files] for r in range(geo.ranks - 1, -1, -1)),
                              self.tables.symbol)

    def fen(self) -> str:
        """The FEN of the current turn's start (1.1)."""
        allowance = f"{self.allowance}!" if self.exact else str(self.allowance)
        return f"{self.placement(self.start_board())} {'wb'[self.side]} {allowance} {self.halfmove} {self.fullmove}"

    def move_text(self, m: int) -> str:
        """`c7c6`, `i1g1` (King: lower-left squares), `@c5c9` (aggregate)."""
        names = self.geometry.names
        text = names[m & CELL_MASK] + names[(m >> TO_SHIFT) & CELL_MASK]
        return "@" + text if m & AGGREGATE else text

    # -- make / unmake ------------------------------------------------------------------------
    def changes(self, m: int) -> list[tuple[int, int]]:
        """The cell changes (cell, new code) that move `m` makes, in order."""
        board = self.board
        fr = m & CELL_MASK
        to = (m >> TO_SHIFT) & CELL_MASK
        if not m & UNIT_MOVE:
            return [(fr, 0), (to, board[fr])]
        cells = self.geometry.unit_cells
        src, dst = cells[self.geometry.unit_of[fr]], cells[self.geometry.unit_of[to]]
        return [(s, 0) for s in src] + [(d, board[s]) for s, d in zip(src, dst)]

    def make(self, m: int) -> None:
        """Play move `m` of the current turn (generated by `legal`: no test here)."""
        side = self.side
        fr = m & CELL_MASK
        to = (m >> TO_SHIFT) & CELL_MASK
        undo: list[tuple[int, int]] = []
        self.stack.append((m, undo, self.moved, self.done, self.king_moved, self.captured, self.hash,
                           self.kings[side]))
        if not m & UNIT_MOVE:  # a small piece's two cells inline, as the core `Position.make` keeps them
            board = self.board
            zp = self.tables.z_piece
            code, cap = board[fr], board[to]
            undo += ((fr, code), (to, cap))
            board[fr], board[to] = 0, code
            own = self.occ[side]
            own.discard(fr)
            own.add(to)
            h = self.hash ^ zp[code][fr] ^ zp[code][to]
            if cap:
                self.occ[side ^ 1].discard(to)
                self.hash = h ^ zp[cap][to]
                self.captured = True
            else:
                self.hash = h
            self.moved = (self.moved - {fr}) | {to}
            self.made += 1
            return
        self.hash, captured = self._apply(self.changes(m), undo, self.hash)
        self.captured |= captured
        if m & AGGREGATE:
            cells = self.geometry.unit_cells
            geo = self.geometry
            self.moved = self.moved - set(cells[geo.unit_of[fr]])
            self.done = self.done | set(cells[geo.unit_of[to]])
        else:
            self.king_moved = True
            self.kings[side] = to
        self.made += 1

    def end_turn(self) -> None:
        """Close the turn (4.1, R11): the opponent's allowance is 8! after White's 4!, 9 after Black's
        8!, otherwise one more than the moves made; the turn's bookkeeping starts afresh."""
        t = self.tables
        opening = t.variant.opening_allowances
        self.stack.append((None, self.allowance, self.exact, self.made, self.moved, self.done, self.king_moved,
                           self.captured, self.halfmove, self.fullmove, self.hash))
        if self.exact:
            nxt = opening.index(self.allowance) + 1 if self.allowance in opening else len(opening)
            allowance, exact = (opening[nxt], True) if nxt < len(opening) else (t.variant.after_opening, False)
        else:
            allowance, exact = self.made + 1, False
        self.halfmove = 0 if self.captured else self.halfmove + 1
        self.fullmove += self.side
        self.hash ^= t.z_side ^ t.z_allowance(self.allowance, self.exact) ^ t.z_allowance(allowance, exact)
        self.side ^= 1
        self.allowance, self.exact = allowance, exact
        self.made, self.moved, self.done, self.king_moved, self.captured = 0, NO_CELLS, NO_CELLS, False, False
        self.history.append(self.hash)

    def unmake(self) -> None:
        """Take back the last move or turn end."""
        record = self.stack.pop()
        if record[0] is None:
            self.history.pop()
            (_, self.allowance, self.exact, self.made, self.moved, self.done, self.king_moved,
             self.captured, self.halfmove, self.fullmove, self.hash) = record
            self.side ^= 1
            return
        m, undo, self.moved, self.done, self.king_moved, self.captured, self.hash, king = record
        self.made -= 1
        if m & UNIT_MOVE:
            self._restore(undo)
            self.kings[self.side] = king
            return
        (fr, code), (to, cap) = undo
        board = self.board
        board[fr], board[to] = code, cap
        own = self.occ[self.side]
        own.discard(to)
        own.add(fr)
        if cap:
            self.occ[self.side ^ 1].add(to)

    # -- attacks and check --------------------------------------------------------------------
    def is_attacked(self, cell: int, by: int) -> bool:
        """Is `cell` attacked by side `by` (4.2: small pieces' basic captures; aggregates and the King
        unit-wide)?"""
        return self.small_attacked(cell, by) or self._unit_reached(self.geometry.unit_of[cell], by)

    def small_attacked(self, cell: int, by: int) -> bool:
        """Is `cell` a basic capture target of one of `by`'s small pieces (elongations never attack)?"""
        board = self.board
        for a, codes in self.tables.attacks[by][cell]:
            if board[a] in codes:
                return True
        return False

    def _unit_reached(self, unit: int, by: int) -> bool:
        """Is the unit next to `by`'s King, or reached by one of `by`'s aggregates along empty units?"""
        k = self.kings[by]
        if k >= 0 and self.geometry.unit_of[k] in self.tables.king_reach[unit]:
            return True
        board = self.board
        for codes, ray in self.tables.unit_rays[by][unit]:
            for a, b, c, d in ray:
                x = board[a]
                if x or board[b] or board[c] or board[d]:
                    if x in codes and board[b] == x and board[c] == x and board[d] == x:
                        return True
                    break
        return False

    def unit_attacked(self, unit: int, by: int) -> bool:
        """Is some square of the unit attacked by side `by` (4.2)?"""
        board = self.board
        for a, codes in self.tables.unit_attacks[by][unit]:
            if board[a] in codes:
                return True
        return self._unit_reached(unit, by)

    def in_check(self, side: int | None = None) -> bool:
        """Is `side`'s King (default: the player of the turn) attacked on any of its squares (4.2)?"""
        side = self.side if side is None else side
        return self.unit_attacked(self.geometry.unit_of[self.kings[side]], side ^ 1)

    def _safe_after(self, m: int) -> bool:
        """After move m, is the mover's King out of check? (Applies the changes to the cells only.)"""
        board = self.board
        changes = self.changes(m)
        saved = [(cell, board[cell]) for cell, _ in changes]
        side = self.side
        king = self.kings[side]
        if m & UNIT_MOVE and not m & AGGREGATE:
            self.kings[side] = (m >> TO_SHIFT) & CELL_MASK
        for cell, new in changes:
            board[cell] = new
        safe = not self.in_check(side)
        for cell, old in reversed(saved):
            board[cell] = old
        self.kings[side] = king
        return safe

    # -- moves ----------------------------------------------------------------------------------
    def aggregates(self, side: int | None = None) -> list[tuple[int, int]]:
        """(unit, code) of every aggregate (four like small pieces filling a unit, 3.2, R6)."""
        board, t, geo = self.board, self.tables, self.geometry
        out = []
        for s in (0, 1) if side is None else (side,):
            for cell in self.occ[s]:
                x = board[cell]
                if t.lower_left[cell] and t.small[x]:
                    _, b, c, d = geo.unit_cells[geo.unit_of[cell]]
                    if board[b] == x and board[c] == x and board[d] == x:
                        out.append((geo.unit_of[cell], x))
        return sorted(out)

    def iter_legal(self) -> Iterator[int]:
        """The moves the player may make now (4.1 and R10 limits, 4.2 King safety), lazily, as move
        integers. The position may be changed between items if it is restored before the next one
        (a turn search makes and unmakes each move it tries)."""
        if self.made >= self.allowance:
            return
        board, t, geo = self.board, self.tables, self.geometry
        side = self.side
        small, unit_of, cells = t.small, geo.unit_of, geo.unit_cells
        in_check = self.in_check()
        # Not in check, a move can only expose the King by emptying a unit on an enemy aggregate's
        # line (every other attack is a leap or a King step): with no enemy aggregate, none can.
        exposing = not in_check and bool(self.aggregates(side ^ 1))
        blocked = self.moved | self.done
        enemy_king = t.king_code[side ^ 1]
        for sq in sorted(self.occ[side]):
            code = board[sq]
            if not small[code] or sq in blocked:
                continue
            a, b, c, d = cells[unit_of[sq]]
            test = exposing and (board[a] != 0) + (board[b] != 0) + (board[c] != 0) + (board[d] != 0) == 1
            for to, m, p, pm in t.steps[code][sq]:
                x = board[to]
                if not x:
                    if not test or self._safe_after(m):
                        yield m
                    if p >= 0 and not board[p] and (not test or self._safe_after(pm)):
                        yield pm
                elif x >> SIDE_SHIFT != side and x != enemy_king and (not test or self._safe_after(m)):
                    yield m
        done = self.done
        for unit, code in self.aggregates(side):
            if done and not done.isdisjoint(cells[unit]):
                continue  # R10: nothing moves again after an aggregate move
            for ray in t.rides[code][unit]:
                for v, m in ray:
                    a, b, c, d = cells[v]
                    occupants = [x for x in (board[a], board[b], board[c], board[d]) if x]
                    if occupants and not all(x >> SIDE_SHIFT != side and small[x] for x in occupants):
                        break
                    if not exposing or self._safe_after(m):
                        yield m
                    if occupants:
                        break
        if not self.king_moved:
            for v, m in t.king_steps[unit_of[self.kings[side]]]:
                a, b, c, d = cells[v]
                if all(not x or (x >> SIDE_SHIFT != side and small[x])
                       for x in (board[a], board[b], board[c], board[d])) and self._safe_after(m):
                    yield m

    def legal(self) -> list[int]:
        """`iter_legal` as a list."""
        return list(self.iter_legal())

    def key(self) -> tuple:
        """What the rest of the turn depends on: the position and the turn's bookkeeping."""
        return self.hash, self.moved, self.done, self.king_moved, self.made

    def repetitions(self) -> int:
        """How often the current turn's start position has occurred (4.3)."""
        start = self.history[-1]
        return self.history.count(start)

    def code_for(self, side: int, letter: str) -> int:
        return code_of(side, self.tables.letters.index(letter) + 1)
