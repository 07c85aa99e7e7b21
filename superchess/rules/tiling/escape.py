"""How many moves a Tiling Rider player in check needs at least to end the turn out of check
(../shared/rules/tiling-rider.md 4.2): a lower bound the turn search uses to drop branches that cannot
complete within the moves left, without ever dropping one that can (the rules stay exact).

Why a bound exists: the opponent's pieces stand still during the turn; only the mover's moves
change the board, each move captures on one unit at most (a small piece on its target, an aggregate
or the King on the destination unit), and each small piece moves alone at most once (4.1, R10). So
for the King to end on unit U (its own unit, or a neighbour when the King has not moved yet: a King
move never ends in check, so it comes last) every enemy small piece that attacks U must have been
taken, each enemy aggregate ray onto U blocked or broken, and U emptied of the mover's own pieces.
Counted per unit, as a move clears at most one unit (the bound; None when no U can be made safe):

- a unit holding attackers costs the fewest moves that take them all: one move per attacker when an
  unmoved own small piece attacks each of them now (the capturing piece moves once, from where it
  stands), or one aggregate move whose ride lines (3.2, blockers ignored) reach the unit from a unit
  that four own like pieces can fill, plus one move per square still to fill or to empty;
- an enemy aggregate ray costs one move (a block or a capture), unless its unit already counts;
- the King's move costs one; U's own pieces leave one move each (an own aggregate in one move);
  U is out of reach when the enemy King is next to it or an own piece there can no longer move.

Attacks the mover's own moves could open (a unit emptied on an enemy aggregate's line, the King's own
unit left behind) are not counted: leaving them out only lowers the bound.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from ..core.encoding import SIDE_SHIFT
from .position import TilingPosition
from .tables import TilingTables, tiling_tables

#: A bound past any turn's allowance (even one set on a position directly, past what a position
#: text may hold): the King cannot be made safe this way.
OUT_OF_REACH = 1 << 62


@dataclass(frozen=True)
class EscapeTables:
    """Per small piece code: the cells one move reaches from each cell (basic or elongated, 3.1, R5)
    and, per unit, the units on its aggregate's ride lines (3.2, blockers ignored); per unit its
    cells as a set."""
    reach: dict[int, tuple[frozenset[int], ...]]
    ride_sources: dict[int, tuple[frozenset[int], ...]]
    unit_cells: tuple[frozenset[int], ...]


@lru_cache(maxsize=1)
def escape_tables(t: TilingTables | None = None) -> EscapeTables:
    t = t or tiling_tables()
    reach, sources = {}, {}
    for code in range(len(t.symbol)):
        if t.small[code]:
            reach[code] = tuple(frozenset(c for to, _, p, _ in steps for c in (to, p) if c >= 0)
                                for steps in t.steps[code])
            sources[code] = tuple(frozenset(v for ray in rays for v, _ in ray) for rays in t.rides[code])
    cells = tuple(frozenset(c) for c in t.geometry.unit_cells)
    return EscapeTables(reach, sources, cells)


def can_escape(pos: TilingPosition, moves: int) -> bool:
    """Might the player of the turn have its King out of check within `moves` more moves? False only
    when the bound shows it cannot (then no completion of the turn exists within them, 4.2)."""
    return not pos.in_check() or _Escape(pos).within(moves)


class _Escape:
    """One bound computation: the position and what its targets share."""

    def __init__(self, pos: TilingPosition) -> None:
        self.pos, self.t, self.geo = pos, pos.tables, pos.geometry
        self.e = escape_tables(pos.tables)
        self.blocked = pos.moved | pos.done   # own pieces that may no longer move alone
        self.taking: dict[tuple[int, int], int] = {}  # (unit, cap) -> moves to take it with an aggregate
        self._codes: dict[int, list[int]] | None = None
        self._usable: dict[int, set[int]] = {}

    def within(self, moves: int) -> bool:
        """Is the bound for some unit the King may end on (its own first) at most `moves`?"""
        pos, t, geo = self.pos, self.t, self.geo
        side = pos.side
        home = geo.unit_of[pos.kings[side]]
        enemy_king = geo.unit_of[pos.kings[side ^ 1]]
        targets = [home] + ([] if pos.king_moved or moves < 1 else [v for v, _ in t.king_steps[home]])
        return any(unit != enemy_king and enemy_king not in t.king_reach[unit]
                   and self.moves_for(unit, unit != home, moves) <= moves for unit in targets)

    def moves_for(self, unit: int, king_steps: bool, limit: int) -> int:
        """The bound for the King ending on `unit` (after its own step there when `king_steps`), or
        OUT_OF_REACH as soon as it exceeds `limit`."""
        pos, t, geo = self.pos, self.t, self.geo
        board, side = pos.board, pos.side
        leave = self.leaving(unit) if king_steps else 0
        if king_steps + leave > limit:
            return OUT_OF_REACH
        by_unit: dict[int, list[int]] = {}
        for a, codes in t.unit_attacks[side ^ 1][unit]:
            if board[a] in codes and not (king_steps and geo.unit_of[a] == unit):  # the King's step takes those
                by_unit.setdefault(geo.unit_of[a], []).append(a)
        clear = 0
        for x, attackers in by_unit.items():
            clear += self.clearing(x, attackers, limit - king_steps - clear)
            if king_steps + clear > limit:
                return OUT_OF_REACH
        for codes, ray in t.unit_rays[side ^ 1][unit]:
            for a, b, c, d in ray:
                code = board[a]
                if code or board[b] or board[c] or board[d]:
                    if code in codes and board[b] == code and board[c] == code and board[d] == code \
                            and geo.unit_of[a] not in by_unit:
                        clear += 1
                    break
        return king_steps + max(clear, leave)

    def leaving(self, unit: int) -> int:
        """Moves that empty `unit` of the mover's own pieces before the King steps there: one per
        piece, and one more for each piece whose every target outside the unit is held by an own
        piece (a piece elsewhere must move off one first; no piece of the unit can free it)."""
        pos, t = self.pos, self.t
        board, side = pos.board, pos.side
        cells = self.geo.unit_cells[unit]
        own = [c for c in cells if board[c] and board[c] >> SIDE_SHIFT == side]
        if not own:
            return 0
        if pos.done and not pos.done.isdisjoint(own):
            return OUT_OF_REACH  # R10: a piece of an aggregate move stays where it went
        if len(own) == 4 and t.small[board[own[0]]] and all(board[c] == board[own[0]] for c in own):
            return 1  # an own aggregate rides away in one move
        if pos.moved and not pos.moved.isdisjoint(own):
            return OUT_OF_REACH  # 4.1: a piece that moved alone cannot move alone again
        enemy_king = t.king_code[side ^ 1]
        stuck = sum(not any(to not in cells and (not board[to] or board[to] >> SIDE_SHIFT != side
                                                  and board[to] != enemy_king)
                            for to, _, _, _ in t.steps[board[c]][c]) for c in own)
        return len(own) + stuck

    def clearing(self, unit: int, attackers: list[int], cap: int) -> int:
        """The fewest moves that take every attacker standing on `unit`, or a number past `cap` when
        that is more than `cap`."""
        one_each = len(attackers) if all(self.taken_alone(a) for a in attackers) else OUT_OF_REACH
        if one_each <= 1 or cap < 1:
            return one_each
        key = (unit, min(cap, one_each - 1))  # only a cheaper way than one each, within cap, matters
        if key not in self.taking:
            self.taking[key] = self.aggregate_taking(*key)
        return min(one_each, self.taking[key])

    def taken_alone(self, cell: int) -> bool:
        """Does an own small piece that may still move alone attack `cell` from where it stands?"""
        board, blocked = self.pos.board, self.blocked
        return any(board[s] in codes and s not in blocked for s, codes in self.t.attacks[self.pos.side][cell])

    def pieces(self) -> dict[int, list[int]]:
        """The cells of the mover's small pieces per code, for codes with four or more (enough to
        form an aggregate); and per such code how many stand on each unit (`per_unit`)."""
        if self._codes is None:
            pos, small, unit_of = self.pos, self.t.small, self.geo.unit_of
            by_code: dict[int, list[int]] = {}
            for c in pos.occ[pos.side]:
                if small[pos.board[c]]:
                    by_code.setdefault(pos.board[c], []).append(c)
            self._codes = {code: cells for code, cells in by_code.items() if len(cells) >= 4}
            self.per_unit = {code: Counter(unit_of[c] for c in cells) for code, cells in self._codes.items()}
        return self._codes

    def usable(self, code: int) -> set[int]:
        """The cells a piece of `code` that may still move alone reaches in one move."""
        if code not in self._usable:
            reach, blocked = self.e.reach[code], self.blocked
            self._usable[code] = set().union(*(reach[s] for s in self.pieces()[code] if s not in blocked))
        return self._usable[code]

    def aggregate_taking(self, unit: int, cap: int) -> int:
        """The fewest moves to fill a unit whose ride lines reach `unit` (blockers ignored) with four
        own like pieces and ride there: the ride plus the filling; past `cap` when more than `cap`."""
        best = OUT_OF_REACH
        for code in self.pieces():
            sources = self.e.ride_sources[code][unit]
            fill = min(best, cap + 1) - 2  # the most filling that can still improve `best` within cap
            if fill < 4:  # a unit must hold 4 - fill such pieces already: look at those units only
                sources = [v for v, n in self.per_unit[code].items() if n >= 4 - fill and v in sources]
            for v in sources:
                best = min(best, 1 + self.filling(v, code, min(best, cap + 1) - 2))
                if best == 1:
                    return 1
        return best

    def filling(self, unit: int, code: int, cap: int) -> int:
        """Moves to make `unit` four pieces of `code`: one per square to bring a piece to (one that
        may still move alone must reach it in one move), plus one per own piece of another kind to
        move out first; OUT_OF_REACH when impossible or more than `cap` (counted before the reach
        is looked at, the dearer test)."""
        pos, blocked = self.pos, self.blocked
        board, side = pos.board, pos.side
        cells = self.geo.unit_cells[unit]
        if pos.done and not pos.done.isdisjoint(cells):
            return OUT_OF_REACH
        cost, missing = 0, []
        for cell in cells:
            x = board[cell]
            if x == code:
                continue
            if x and x >> SIDE_SHIFT == side:
                if cell in blocked:
                    return OUT_OF_REACH
                cost += 1
            cost += 1
            if cost > cap:
                return OUT_OF_REACH
            missing.append(cell)
        return cost if not missing or self.usable(code).issuperset(missing) else OUT_OF_REACH
