"""Alpha-beta search directly on the rules core's `Position` (integer moves, make/unmake, hash).

Iterative deepening; principal-variation search with late-move reductions and null-move pruning;
a bounded transposition table keyed by the Zobrist hash (depth-preferred replacement, aged per
search); quiescence search on captures with stand-pat, delta pruning and a cheap exchange test
(a capture by a more valuable piece onto a defended square is skipped); move ordering: hash move,
captures by victim value then attacker value (MVV-LVA with derived values), two killers per ply,
history. Moves are generated pseudo-legally and rejected after `make` if they leave the mover's
King attacked. Mate scores count the distance in plies; stalemate, repetition (any earlier
occurrence in the reversible window), the move rule and insufficient material score as draws.

Stopping: the node counter is compared with a precomputed `next_check` at every node; at that
point the clock, the node limit and the stop flag (a threading.Event) are consulted, at least every
CHECK_EVERY nodes.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ..rules.core.encoding import (
    CASTLE,
    CELL_MASK,
    DESTROY,
    EP,
    MULTI,
    PROMO_MASK,
    PROMO_SHIFT,
    SPECIAL,
    TO_SHIFT,
)
from ..rules.core.position import Position, attacked
from .evaluate import LAZY_MARGIN, Evaluator

MATE = 100_000
MATE_BOUND = MATE - 1_000
INF = 1_000_000
MAX_PLY = 100
CHECK_EVERY = 256
EXACT, LOWER, UPPER = 0, 1, 2
PROMO_FIELD = PROMO_MASK << PROMO_SHIFT
UNSAFE = DESTROY | EP | CASTLE  # moves that empty more cells than their origin: always tested
NO_LINES: frozenset = frozenset()
DELTA_MARGIN = 200
TT_ENTRY_BYTES = 120  # rough size of one stored tuple, for sizing the table from megabytes


class StopSearch(Exception):
    """Raised inside the search when a limit is reached or a stop is requested."""


@dataclass
class Limits:
    depth: int = MAX_PLY - 1
    nodes: int | None = None
    soft_ms: float | None = None   # do not start another iteration after this
    hard_ms: float | None = None   # abort the search at this point
    infinite: bool = False


@dataclass
class Result:
    move: int = 0
    score: int = 0
    depth: int = 0
    pv: list[int] = field(default_factory=list)
    nodes: int = 0
    elapsed: float = 0.0
    root_scores: dict[int, int] = field(default_factory=dict)


class TranspositionTable:
    """A fixed number of slots indexed by the low bits of the hash; each slot holds
    (hash, depth, flag, score, move, age). A new entry replaces one from an older search, or one
    searched no deeper."""

    def __init__(self, megabytes: float = 16) -> None:
        slots = max(1024, int(megabytes * 1024 * 1024 / TT_ENTRY_BYTES))
        size = 1 << (slots.bit_length() - 1)
        self.mask = size - 1
        self.slots: list[tuple | None] = [None] * size
        self.age = 0

    def clear(self) -> None:
        self.slots = [None] * (self.mask + 1)

    def __len__(self) -> int:
        return self.mask + 1


def score_to_tt(s: int, ply: int) -> int:
    if s > MATE_BOUND:
        return s + ply
    if s < -MATE_BOUND:
        return s - ply
    return s


def score_from_tt(s: int, ply: int) -> int:
    if s > MATE_BOUND:
        return s - ply
    if s < -MATE_BOUND:
        return s + ply
    return s


class Searcher:
    """Searches one position (mutated during the search and restored after it)."""

    def __init__(self, pos: Position, evaluator: Evaluator, tt: TranspositionTable | None = None,
                 noise: int = 0, seed: int = 0) -> None:
        self.pos = pos
        self.ev = evaluator
        self.tt = tt or TranspositionTable()
        self.noise = noise
        self.seed = seed
        self.stop_event = None
        self.info = None  # callback(Result) after each finished iteration
        variant = pos.variant
        self.move_rule = variant.move_rule_claim
        self.insufficient = variant.insufficient_material
        self.history: dict[int, int] = {}
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.pvt: list[tuple] = [()] * (MAX_PLY + 2)
        self.nodes = 0
        self.exposed_cache: dict[int, frozenset] = {}
        # a position with its own legality (diagram variants: two royals, 4.3 rescue moves, walked
        # attacks): nodes take its legal moves and its check test instead of the King test here
        self.full_legality = pos.full_legality

    # -- limits -------------------------------------------------------------------------------
    def _check(self) -> None:
        lim = self.limits
        if self.stop_event is not None and self.stop_event.is_set():
            raise StopSearch
        if lim.nodes is not None and self.nodes >= lim.nodes:
            raise StopSearch
        if lim.hard_ms is not None and (time.monotonic() - self.t0) * 1000 >= lim.hard_ms:
            raise StopSearch
        nxt = self.nodes + CHECK_EVERY
        if lim.nodes is not None and lim.nodes < nxt:
            nxt = lim.nodes
        self.next_check = nxt

    # -- evaluation -----------------------------------------------------------------------------
    def _noise(self) -> int:
        n = self.noise
        x = ((self.pos.hash ^ self.seed) * 0x9E3779B97F4A7C15) >> 40
        return x % (2 * n + 1) - n

    def _eval(self, packed: int) -> int:
        s = self.ev.evaluate(self.pos, packed)
        return s + self._noise() if self.noise else s

    def _is_draw(self, pos: Position) -> bool:
        """Move rule, a repetition of an earlier position, or insufficient material."""
        hm = pos.halfmove
        if hm >= self.move_rule:
            return True
        if hm >= 4:
            stack = pos.stack
            h = pos.hash
            i = len(stack) - 4
            stop = len(stack) - hm
            stop = max(stop, 0)
            while i >= stop:
                if stack[i][7] == h:
                    return True
                i -= 2
        if len(pos.occ[0]) + len(pos.occ[1]) <= 4:
            return self.insufficient(pos, 0) and self.insufficient(pos, 1)
        return False

    # -- main search ----------------------------------------------------------------------------
    def _search(self, depth: int, alpha: int, beta: int, ply: int, packed: int, can_null: bool) -> int:
        pos = self.pos
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        pvt = self.pvt
        pvt[ply] = ()
        if self._is_draw(pos):
            return 0
        # mate distance pruning
        if alpha < -MATE + ply:  # plain comparisons: cheaper than max/min on the hot path
            alpha = -MATE + ply
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
        board = pos.board
        side = pos.side
        kings = pos.kings
        enemy_att = pos.tables.attacks[side ^ 1]
        k = kings[side]
        full = self.full_legality
        if full:
            if pos.king_lost():
                return -MATE + ply
            in_check = pos.in_check()
        else:
            in_check = k >= 0 and attacked(board, enemy_att[k])
        if in_check:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY:
            return self._qsearch(alpha, beta, ply, packed)
        pv_node = beta - alpha > 1

        tt = self.tt
        h = pos.hash
        slot = h & tt.mask
        entry = tt.slots[slot]
        hash_move = 0
        if entry is not None and entry[0] == h:
            hash_move = entry[4]
            if entry[1] >= depth and not pv_node:
                s = score_from_tt(entry[3], ply)
                flag = entry[2]
                if flag == EXACT or (flag == LOWER and s >= beta) or (flag == UPPER and s <= alpha):
                    return s

        if not pv_node and not in_check and abs(beta) < MATE_BOUND:
            static = self._eval(packed)
            if depth <= 2 and static - 150 * depth >= beta:  # reverse futility pruning
                return static
            if can_null and depth >= 3 and static >= beta and self._has_pieces(side):
                r = 3 if depth >= 6 else 2
                pos.make_null()
                try:
                    s = -self._search(depth - 1 - r, -beta, -beta + 1, ply + 1, packed, False)
                finally:
                    pos.unmake_null()
                if s >= beta:
                    return beta if s >= MATE_BOUND else s

        moves = pos.legal() if full else pos.pseudo_legal()
        ev = self.ev
        pst = ev.pst
        ovalue = ev.order_value
        # staged ordering: hash move, captures and promotions (MVV-LVA), killers, quiet by history
        if full:  # captures off the destination too, by everything they take
            first = pos.captures_first(moves, ev.value, ovalue)
        else:
            first = [m for m in moves
                     if board[(m >> TO_SHIFT) & CELL_MASK] or (m & PROMO_FIELD and not m & CASTLE)]
            first.sort(key=lambda m: ovalue[board[(m >> TO_SHIFT) & CELL_MASK]] * 4096
                       + ((m >> PROMO_SHIFT) & PROMO_MASK) * 64 - ovalue[board[m & CELL_MASK]] // 16,
                       reverse=True)
        if hash_move and hash_move in moves:
            if hash_move in first:
                first.remove(hash_move)
            first.insert(0, hash_move)
        else:
            hash_move = 0
        killers = self.killers[ply]
        for km in killers:
            if km and km != hash_move and km in moves and not board[(km >> TO_SHIFT) & CELL_MASK]:
                first.append(km)
        order = first
        quiet_added = False
        exposed = self._exposed(side, k)

        best = -INF
        best_move = 0
        legal = 0
        orig_alpha = alpha
        i = 0
        make = pos.make
        unmake = pos.unmake
        while True:
            if i >= len(order):
                if quiet_added:
                    break
                quiet_added = True
                seen = set(order)
                hget = self.history.get
                rest = [m for m in moves if m not in seen]
                rest.sort(key=lambda m: hget(m, 0), reverse=True)
                order = order + rest
                if i >= len(order):
                    break
            m = order[i]
            i += 1
            fr = m & CELL_MASK
            to = (m >> TO_SHIFT) & CELL_MASK
            cap = board[to]
            if m & SPECIAL or full:
                child = packed + ev.delta(pos, m)
            else:
                code = board[fr]
                child = packed + pst[code][to] - pst[code][fr] - pst[cap][to]
            make(m)
            if not full and (in_check or fr == k or fr in exposed or m & UNSAFE) and kings[side] >= 0 \
                    and attacked(board, enemy_att[kings[side]]):
                unmake()
                continue
            legal += 1
            quiet = not cap and not m & (EP | PROMO_FIELD | MULTI) or m & CASTLE
            try:
                if legal == 1:
                    s = -self._search(depth - 1, -beta, -alpha, ply + 1, child, True)
                else:
                    r = 0
                    if depth >= 3 and quiet and not in_check and legal > 3 and m not in killers:
                        r = 2 if (legal > 12 and depth >= 5) else 1
                    s = -self._search(depth - 1 - r, -alpha - 1, -alpha, ply + 1, child, True)
                    if s > alpha and (r or s < beta):
                        s = -self._search(depth - 1, -beta, -alpha, ply + 1, child, True)
            finally:
                unmake()
            if s > best:
                best = s
                best_move = m
                if s > alpha:
                    alpha = s
                    if pv_node:
                        pvt[ply] = (m,) + pvt[ply + 1]
                    if s >= beta:
                        if quiet:
                            if killers[0] != m:
                                killers[1] = killers[0]
                                killers[0] = m
                            self.history[m] = self.history.get(m, 0) + depth * depth
                        break
        if legal == 0:
            return -MATE + ply if in_check else 0
        flag = LOWER if best >= beta else (EXACT if best > orig_alpha else UPPER)
        old = tt.slots[slot]
        if old is None or old[5] != tt.age or depth >= old[1] or old[0] == h:
            tt.slots[slot] = (h, depth, flag, score_to_tt(best, ply), best_move, tt.age)
        return best

    def _exposed(self, side: int, k: int) -> frozenset:
        """Cells on an enemy line (ray or lame path) to `side`'s King on `k`: only a piece moving
        off one of them, the King itself or a special move can leave the King attacked when it
        was not in check."""
        if k < 0:
            return NO_LINES
        key = k << 1 | side
        cells = self.exposed_cache.get(key)
        if cells is None:
            _, pats, rays = self.pos.tables.attacks[side ^ 1][k]
            found = {a for ray in rays for a, _ in ray}
            for _, _, between in pats:
                found.update(between)
            cells = self.exposed_cache[key] = frozenset(found)
        return cells

    def _has_pieces(self, side: int) -> bool:
        """Does `side` have a piece other than pawns and the King (null move is then safe enough)?"""
        t = self.pos.tables
        board = self.pos.board
        pawn, checkable = t.pawn, t.checkable
        for c in self.pos.occ[side]:
            p = board[c]
            if not pawn[p] and not checkable[p]:
                return True
        return False

    def _qsearch(self, alpha: int, beta: int, ply: int, packed: int) -> int:
        pos = self.pos
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        self.pvt[ply] = ()
        full = self.full_legality
        if full and pos.king_lost():
            return -MATE + ply
        ev = self.ev
        # lazy evaluation: King safety only when the table score is near the window
        fast, ph = ev.blend(packed)
        side = pos.side
        if side:
            fast = -fast
        if self.noise:
            fast += self._noise()
        if fast - LAZY_MARGIN >= beta or fast + LAZY_MARGIN <= alpha:
            stand = fast
        else:
            ks = ev.king_safety(pos) * ph // ev.phase_max
            stand = fast + (ks if side == 0 else -ks) + 10
        if stand >= beta or ply >= MAX_PLY:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        caps = pos.pseudo_captures()
        if not caps:
            return best
        board = pos.board
        value = ev.value
        ovalue = ev.order_value
        caps.sort(key=lambda m: ovalue[board[(m >> TO_SHIFT) & CELL_MASK]] * 4096
                  - ovalue[board[m & CELL_MASK]] // 16, reverse=True)
        other = side ^ 1
        tables = pos.tables
        enemy_att = tables.attacks[other]
        kings = pos.kings
        pst = ev.pst
        k = kings[side]
        exposed = self._exposed(side, k)
        in_check = None
        for m in caps:
            fr = m & CELL_MASK
            to = (m >> TO_SHIFT) & CELL_MASK
            code = board[fr]
            victim = board[to]
            if m & MULTI:  # every piece it takes (diagram variants)
                gain = pos.capture_gain(m, value)
            else:
                gain = value[victim] if victim else 100  # en passant: a pawn
            if m & PROMO_FIELD and not m & CASTLE:
                gain += value[(code & ~63) | ((m >> PROMO_SHIFT) & PROMO_MASK)] - value[code]
            if m & DESTROY:
                gain -= value[code]
                if gain < 0:
                    continue
            if stand + gain + DELTA_MARGIN <= alpha:
                continue
            if victim and ovalue[code] > value[victim] + 50 and not m & DESTROY \
                    and attacked(board, enemy_att[to]):
                continue  # losing exchange, most likely
            if m & SPECIAL or full:
                child = packed + ev.delta(pos, m)
            else:
                child = packed + pst[code][to] - pst[code][fr] - pst[victim][to]
            test = fr == k or fr in exposed or m & UNSAFE
            if not test and k >= 0:
                if in_check is None:  # asked once per node, and only when it saves a test
                    in_check = attacked(board, enemy_att[k])
                test = in_check
            pos.make(m)
            if full:
                unsafe = kings[side] >= 0 and pos.attacked_by(kings[side], other)
            else:
                unsafe = test and kings[side] >= 0 and attacked(board, enemy_att[kings[side]])
            if unsafe:
                pos.unmake()
                continue
            try:
                s = -self._qsearch(-beta, -alpha, ply + 1, child)
            finally:
                pos.unmake()
            if s > best:
                best = s
                if s > alpha:
                    alpha = s
                    if s >= beta:
                        break
        return best

    # -- root -------------------------------------------------------------------------------------
    def _root(self, depth: int, alpha: int, beta: int, order: list[int], margin: int,
              forced: set[int]) -> int:
        """Search every root move; fills self.root_scores and self.iter_best/iter_pv."""
        pos = self.pos
        board = pos.board
        side = pos.side
        kings = pos.kings
        enemy_att = pos.tables.attacks[side ^ 1]
        ev = self.ev
        packed = self.root_packed
        best = -INF
        searched = 0
        self.nodes += 1
        for m in order:
            child = packed + ev.delta(pos, m)
            pos.make(m)
            kk = kings[side]
            if not self.full_legality and kk >= 0 and attacked(board, enemy_att[kk]):
                pos.unmake()
                # a move the believed model calls illegal (private rosters): playable, ranked last
                s = -MATE + 1
                self.root_scores[m] = s
                if s > best:
                    best = s
                    self.iter_best = m
                    self.iter_pv = [m]
                continue
            try:
                searched += 1
                if searched == 1:
                    s = -self._search(depth - 1, -beta, -alpha, 1, child, True)
                elif margin:
                    lo = max(alpha, best - margin - 1)
                    s = -self._search(depth - 1, -beta, -lo, 1, child, True)
                else:
                    s = -self._search(depth - 1, -alpha - 1, -alpha, 1, child, True)
                    if alpha < s < beta:
                        s = -self._search(depth - 1, -beta, -alpha, 1, child, True)
            finally:
                pos.unmake()
            self.root_scores[m] = s
            if s > best:
                best = s
                self.iter_best = m
                self.iter_pv = [m] + list(self.pvt[1])
                if s > alpha and not margin:
                    alpha = s
                if s >= beta:
                    break
        return best

    def search(self, limits: Limits, root_moves: list[int] | None = None, forced: set[int] | None = None,
               margin: int = 0, rng: random.Random | None = None, t0: float | None = None) -> Result:
        """Iterative deepening. `root_moves`: the moves the root may choose from (default: the
        legal moves); `forced`: root moves to play even if the model calls them illegal.
        `margin` > 0: score every root move within `margin` of the best exactly and choose among
        them at random (weaker levels)."""
        pos = self.pos
        self.limits = limits
        self.t0 = t0 if t0 is not None else time.monotonic()
        self.nodes = 0
        self.next_check = 0
        self.tt.age = (self.tt.age + 1) & 0xFFFF
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.history = {k: v // 4 for k, v in self.history.items() if v >= 4} if len(self.history) < 200_000 else {}
        self.root_packed = self.ev.packed(pos)
        moves = list(root_moves) if root_moves is not None else pos.legal()
        forced = forced or set()
        result = Result()
        if not moves:
            return result
        result.move = moves[0]
        # a first ordering: captures by value, then the rest
        board = pos.board
        ov = self.ev.order_value
        order = sorted(moves, key=lambda m: -ov[board[(m >> TO_SHIFT) & CELL_MASK]])
        prev_score = 0
        try:
            self._check()
        except StopSearch:
            return result
        for depth in range(1, max(1, limits.depth) + 1):
            self.root_scores: dict[int, int] = {}
            self.iter_best = 0
            self.iter_pv: list[int] = []
            try:
                if depth >= 4 and not margin and abs(prev_score) < MATE_BOUND:
                    window = 50
                    while True:
                        a, b = prev_score - window, prev_score + window
                        score = self._root(depth, a, b, order, margin, forced)
                        if a < score < b:
                            break
                        window *= 4
                        self.root_scores = {}
                        self.iter_best = 0  # a bound from the failed window is no move to fall back on
                        self.iter_pv = []
                        if window > 1000:
                            score = self._root(depth, -INF, INF, order, margin, forced)
                            break
                else:
                    score = self._root(depth, -INF, INF, order, margin, forced)
            except StopSearch:
                # the first root move searched is the previous best: a move that beat it counts
                if self.iter_best and (not result.depth or self.iter_best != order[0]):
                    result.move = self.iter_best
                    result.pv = self.iter_pv
                break
            prev_score = score
            result.move = self.iter_best
            result.score = score
            result.depth = depth
            result.pv = self.iter_pv
            result.root_scores = dict(self.root_scores)
            result.nodes = self.nodes
            result.elapsed = time.monotonic() - self.t0
            if self.info:
                self.info(result)
            order = sorted(order, key=lambda m: -self.root_scores.get(m, -INF))
            order.remove(result.move)
            order.insert(0, result.move)
            if len(moves) == 1 and not limits.infinite and limits.soft_ms is not None:
                break
            if abs(score) > MATE_BOUND and MATE - abs(score) <= depth and not limits.infinite:
                break
            elapsed_ms = result.elapsed * 1000
            if limits.soft_ms is not None and elapsed_ms >= limits.soft_ms * 0.55:
                break  # the next iteration would most likely not finish in time
        result.nodes = self.nodes
        result.elapsed = time.monotonic() - self.t0
        if margin and result.root_scores and rng is not None:
            top = max(result.root_scores.values())
            if abs(top) < MATE_BOUND:
                near = sorted(m for m, s in result.root_scores.items() if s >= top - margin)
                result.move = rng.choice(near)
                result.score = result.root_scores[result.move]
                if result.pv and result.pv[0] != result.move:
                    result.pv = [result.move]
        return result
