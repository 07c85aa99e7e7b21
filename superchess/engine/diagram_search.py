"""The engine for diagram variants (Vanguard): values from movement, iterative-deepening alpha-beta
over the core's `DiagramCorePosition` (legal moves by the variant's own rules, so the two-royal rescue rules of
Vanguard 4.3 hold in the tree), captures first ordered by everything a move takes, and a short
capture search at the leaves.

Values follow `values.py`'s recipe on the variant's own board: a piece's average weighted number of
destinations on an empty board (captures that need a victim, like rifle or igui, are not seen
there), through the same power law as the core variants' values.
The King is not material (losing it is the end of the search line).
"""
from __future__ import annotations

import time

from ..rules.diagram_board import DiagramBoard
from ..rules.diagram_core import DiagramCorePosition
from ..rules.diagram_tables import is_plain
from ..rules.diagram_rules import DiagramRules
from ..rules.xbetza import Req, generate
from .search import MATE, Limits, Result
from .values import JUMP_BONUS, PAWN_MINIMUM, SLIDE_DECAY, value_of_mobility

QUIESCENCE_PLIES = 3  # captures searched beyond the nominal depth
_VALUES: dict[int, tuple[DiagramRules, list[int]]] = {}


def _mobility(pats, files: int, ranks: int) -> float:
    """Average effective mobility on an empty board, weighted as in `values.py`: leaps count
    JUMP_BONUS, the k-th square of a slide SLIDE_DECAY**(k-1), move-only or capture-only half;
    the destinations of multi-leg and lame patterns (which one square can block) SLIDE_DECAY."""
    empty = lambda cell: None  # noqa: E731
    plain = list({p.legs: p for p in pats if is_plain(p) and not p.initial}.values())  # R from R and (caf)0R
    walked = tuple(p for p in pats if not is_plain(p) and not p.initial)
    total = 0.0
    for x in range(files):
        for y in range(ranks):
            for p in plain:
                leg = p.legs[0]
                n = len(leg.cells_from((x, y), files, ranks))
                w = 1.0 if leg.end & Req.EMPTY and leg.end & Req.ENEMY else 0.5
                total += w * (JUMP_BONUS * n if leg.max_steps == 1 else sum(SLIDE_DECAY ** k for k in range(n)))
            total += SLIDE_DECAY * sum(m.dest != (x, y) for m in generate(walked, (x, y), empty, files, ranks))
    return total / (files * ranks)


def piece_values(rules: DiagramRules) -> list[int]:
    """Value per piece type index (index 0 unused), cached per rules object: `values.py`'s
    calibration of mobility to centipawns; the King is not material."""
    entry = _VALUES.get(id(rules))
    if entry is None or entry[0] is not rules:
        values = [0]
        for p in rules.pieces:
            v = value_of_mobility(_mobility(p.pats[0], rules.files, rules.ranks))
            values.append(0 if p.letter == rules.king else int(max(v, PAWN_MINIMUM)))
        entry = _VALUES[id(rules)] = (rules, values)
    return entry[1]


def move_gain(pos: DiagramCorePosition, values: list[int], m: int) -> int:
    """Material a move takes: every captured piece counts (Berserker doubles, Helepolis runs)."""
    board = pos.board
    return sum(values[board[c] & 63] for c in pos.record(m)[2])


class _Stop(Exception):
    pass


class DiagramSearcher:
    def __init__(self, pos: DiagramCorePosition, limits: Limits, t0: float, stop_event=None) -> None:
        self.pos, self.limits, self.t0, self.stop_event = pos, limits, t0, stop_event
        self.values = piece_values(pos.rules)
        self.nodes = 0

    def evaluate(self) -> int:
        """Material from the side to move's view."""
        pos, values = self.pos, self.values
        score = 0
        for side in (0, 1):
            s = sum(values[pos.board[c] & 63] for c in pos.occ[side])
            score += s if side == pos.side else -s
        return score

    def _check_limits(self) -> None:
        self.nodes += 1
        if self.nodes & 15:
            return
        if self.stop_event is not None and self.stop_event.is_set():
            raise _Stop
        if self.limits.nodes is not None and self.nodes >= self.limits.nodes:
            raise _Stop
        if self.limits.hard_ms is not None and (time.monotonic() - self.t0) * 1000 >= self.limits.hard_ms:
            raise _Stop

    def ordered(self, moves: list[int], first: int | None = None) -> list[int]:
        pos = self.pos
        key = lambda m: (m != first, -move_gain(pos, self.values, m))  # noqa: E731
        return sorted(moves, key=key)

    def quiesce(self, alpha: int, beta: int, ply: int, left: int) -> int:
        """Stand pat or captures, `left` plies deep. Captures are pseudo-legal: one that leaves the
        King attacked is refuted by the reply that takes it (then -MATE unless a Prince succeeds)."""
        self._check_limits()
        pos = self.pos
        if pos.rules.king and pos.kings[pos.side] < 0:
            return -MATE + ply
        stand = self.evaluate()
        if stand >= beta or left == 0:
            return stand
        alpha = max(alpha, stand)
        for m in self.ordered(pos.pseudo_captures()):
            pos.make(m)
            try:
                score = -self.quiesce(-beta, -alpha, ply + 1, left - 1)
            finally:
                pos.unmake()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> tuple[int, list[int]]:
        self._check_limits()
        pos = self.pos
        if pos.rules.king and pos.kings[pos.side] < 0:
            return -MATE + ply, []  # the King was taken with no Prince to succeed it (R15)
        if ply and pos.repetitions() > 1:
            return 0, []
        if depth <= 0:  # leaves are not tested for mate: generating legal moves costs most of a node
            return self.quiesce(alpha, beta, ply, QUIESCENCE_PLIES), []
        moves = pos.legal()
        if not moves:
            mated = pos.in_check() and (pos.royal_cell(pos.side, pos.dt.prince) < 0
                                        or pos.double_checkmated(pos.pseudo_legal()))
            return (-MATE + ply if mated else 0), []
        best, pv = -MATE - 1, []
        for m in self.ordered(moves):
            pos.make(m)
            try:
                score, line = self.negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                pos.unmake()
            score = -score
            if score > best:
                best, pv = score, [m] + line
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best, pv

    def search(self, info=None) -> Result:
        result = Result()
        for depth in range(1, max(1, self.limits.depth) + 1):
            try:
                score, pv = self.negamax(depth, -MATE - 1, MATE + 1, 0)
            except _Stop:
                break
            result = Result(pv[0] if pv else 0, score, depth, pv, self.nodes, time.monotonic() - self.t0)
            if info:
                info(result)
            if self.limits.soft_ms is not None and (time.monotonic() - self.t0) * 1000 >= self.limits.soft_ms:
                break
        result.nodes, result.elapsed = self.nodes, time.monotonic() - self.t0
        return result


def search_diagram(board: DiagramBoard, limits: Limits, t0: float | None = None, info=None,
                   stop_event=None) -> tuple[str, Result]:
    """Search a diagram-variant board; returns (move text, result) like `play.search_position`."""
    moves = board.legal_moves
    if not moves:
        raise ValueError("the game is over: no legal move")
    searcher = DiagramSearcher(board.copy()._pos, limits, time.monotonic() if t0 is None else t0, stop_event)
    result = searcher.search(info)
    if not result.move:
        result.move = moves[0].code
    return board._move(result.move).text, result
