"""The InterGrid search, on the core position (`rules/intergrid/position.py`: make/unmake of int moves).

Alpha-beta with a turn searched as its two parts: at a turn start the square moves, below each of
them the point moves and the end of the turn, with the same side to move and the same window (no
sign change inside a turn); the score changes sign when the turn passes. A turn whose end leaves the
mover's King attacked is skipped (R7: check is judged at the end of the turn); a node with no legal
continuation is mate or stalemate at a turn start. Depth counts whole turns; iterative deepening,
the previous iteration's line searched first, captures before quiet moves.
Evaluation: per (piece, cell) tables (`piece_square`): material plus a mobility term (the piece's
destinations from that cell on an empty board, from the move tables, minus its average) and pawn
advancement, summed over both layers from the side to move.
"""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..rules.core.encoding import CASTLE, CELL_MASK, EP, MAX_CODE, TO_SHIFT, code_of
from ..rules.core.tables import RAY_C, RAY_MC
from ..rules.core.turns import END_TURN, TURN_RULES
from ..rules.intergrid.board import IntergridBoard, move_text
from ..rules.intergrid.position import IntergridPosition
from ..rules.intergrid.tables import intergrid_tables
from .levels import get_level
from .timing import level_limits, uci_think_ms

MATE = 100_000
MAX_TURNS = 8
DEFAULT_MOVETIME_MS = 1000
VALUES = {"P": 100, "N": 330, "B": 320, "R": 500, "Q": 900, "K": 0}
MOBILITY_CP = 3      # per destination above the piece's average on an empty board
PAWN_STEP_CP = 6     # per row advanced from the pawn's start row
END = -1             # the end-of-turn move in a line
KILLERS = 2          # quiet refutations remembered per ply
KING_CAPTURE_CP = 10_000  # a King's worth when ordering captures (taken within a turn, R7)
TABLE_LIMIT = 1 << 20
EXACT, LOWER, UPPER = range(3)  # what a stored score is: the value, at least it, at most it
TURN_MOVES = TURN_RULES["one_then_optional"].max_moves  # the square move and the point move (R8)
QS_TURNS = 2          # capture turns searched beyond the horizon at most (4 costs 3x the nodes)
QS_QUIET_SQUARES = 2  # quiet square moves tried before a capturing point move (first capture turn)


class _Stop(Exception):
    pass


@dataclass
class TurnResult:
    moves: list[str]  # the best line from the root, move texts (`end` included)
    score: int        # centipawns from the root's side to move
    depth: int        # whole turns searched
    nodes: int


@lru_cache(maxsize=4)
def piece_square(variant_name: str = "intergrid") -> list[list[int]]:
    """value[code][cell] in centipawns, positive for Player 1: material, mobility, pawn advance."""
    t = intergrid_tables(variant_name)
    geo = t.geometry
    out = [[0] * (t.size + 1) for _ in range(MAX_CODE)]
    for side in (0, 1):
        for ti, (pt, layer) in enumerate(zip(t.variant.pieces, t.variant.layers), 1):
            code = code_of(side, ti)
            cells = [c for c in range(t.size) if geo.layer[c] == layer]
            mobility = {c: sum(sum(len(r) for r in e) if RAY_MC <= kind <= RAY_C else len(e)
                               for kind, e in t.gen[code][c]) for c in cells}
            average = sum(mobility.values()) / len(cells)
            height = geo.dims[layer][1]
            for c in cells:
                v = VALUES[pt.letter] + MOBILITY_CP * (mobility[c] - average) * (not pt.pawn)
                if pt.pawn:
                    row = geo.coords[c][1] if side == 0 else height - 1 - geo.coords[c][1]
                    v += PAWN_STEP_CP * max(0, row - 1)
                out[code][c] = round(v) if side == 0 else -round(v)
    return out


@lru_cache(maxsize=4)
def piece_value(variant_name: str = "intergrid") -> list[int]:
    """Material per piece code, a King taken counted first (for ordering captures)."""
    t = intergrid_tables(variant_name)
    out = [0] * MAX_CODE
    for code in range(MAX_CODE):
        if t.symbol[code]:
            out[code] = KING_CAPTURE_CP if t.checkable[code] else VALUES[t.symbol[code].upper()]
    return out


def evaluate(pos: IntergridPosition) -> int:
    """The piece-square sum over both layers, from the side to move's point of view."""
    table = piece_square(pos.variant.name)
    board = pos.board
    total = sum(table[board[c]][c] for side in (0, 1) for c in pos.occ[side])
    return -total if pos.side else total


def _to_table(score: int, ply: int) -> int:
    """Mate scores stored as distance from the node, not from the root."""
    return score + ply if score > MATE // 2 else (score - ply if score < -MATE // 2 else score)


def _from_table(score: int, ply: int) -> int:
    return score - ply if score > MATE // 2 else (score + ply if score < -MATE // 2 else score)


class _Searcher:
    def __init__(self, pos: IntergridPosition, deadline: float | None, stop: threading.Event | None,
                 max_nodes: int | None = None, noise: int = 0, margin: int = 0, seed: int = 0) -> None:
        self.pos = pos
        self.deadline = deadline
        self.stop = stop
        self.max_nodes: int | None = None  # armed by `best_turn` once the first turn is searched
        self.node_cap = max_nodes
        self.noise = noise
        self.margin = margin
        self.seed = seed
        self.root_scores: dict[int, int] = {}  # first move -> score, with a margin (the last depth)
        self.nodes = 0
        # position hash -> (turns searched, score, bound, best move)
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.killers: dict[int, list[int]] = {}
        self.history: dict[int, int] = {}
        self.values = [abs(v) for v in piece_value(pos.variant.name)]
        self.piece_square = piece_square(pos.variant.name)
        self.material = evaluate(pos) * (-1 if pos.side else 1)  # Player 1's view, kept by make/unmake

    def _delta(self) -> int:
        """How the last move changed the piece-square sum (Player 1's view): its cell changes, the
        enclosures included (each cell changes once per move)."""
        board = self.pos.board
        table = self.piece_square
        return sum(table[board[c]][c] - table[old][c] for c, old in self.pos.stack[-1][-1])

    def _check(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Stop
        if self.nodes % 64 == 0 and ((self.deadline is not None and time.monotonic() > self.deadline)
                                     or (self.stop is not None and self.stop.is_set())):
            raise _Stop

    def _static(self) -> int:
        """The piece-square sum from the side to move, plus the level's noise (fixed per position
        and seed)."""
        score = -self.material if self.pos.side else self.material
        if self.noise:
            x = ((self.pos.hash ^ self.seed) * 0x9E3779B97F4A7C15 & (1 << 64) - 1) >> 40
            score += x % (2 * self.noise + 1) - self.noise
        return score

    def _gains(self, moves: list[int]) -> dict[int, int]:
        """What each move takes, before it is made: the piece on its target, the pawn it takes en
        passant, and what the variant's arrival hook removes next to its target (enclosures, the
        edge rule; asked once per target cell). 0 for a quiet move; castling counted as quiet."""
        pos = self.pos
        board = pos.board
        values = self.values
        hook = pos.variant.arrival_captures
        by_arrival: dict[int, int] = {}
        out = {}
        for m in moves:
            if m & CASTLE:
                out[m] = 0
                continue
            to = (m >> TO_SHIFT) & CELL_MASK
            arrival = by_arrival.get(to)
            if arrival is None:
                arrival = by_arrival[to] = sum(values[board[c]] for c in hook(pos, (to,), pos.side))
            out[m] = values[board[to]] + (VALUES["P"] if m & EP else 0) + arrival
        return out

    def _play(self, m: int) -> int:
        """Make `m` and keep the piece-square sum; returns its change."""
        self.pos.make(m)
        delta = self._delta()
        self.material += delta
        return delta

    def _take_back(self, delta: int) -> None:
        self.pos.unmake()
        self.material -= delta

    def _has_legal_turn(self) -> bool:
        """Whether the side to move has a turn whose end leaves its King unattacked (R7), or that
        takes the enemy King; stops at the first one."""
        pos = self.pos
        mover = pos.side
        king = pos.kings[mover]
        for square in sorted(pos.moves(), key=lambda m: m & CELL_MASK != king):  # King moves first
            pos.make(square)
            for point in [END] + pos.moves():
                if point != END:
                    pos.make(point)
                pos.end_turn()
                legal = pos.kings[mover ^ 1] < 0 or not pos.king_attacked(mover)
                pos.unmake()
                if point != END:
                    pos.unmake()
                if legal:
                    pos.unmake()
                    return True
            pos.unmake()
        return False

    def _quiesce(self, alpha: int, beta: int, ply: int, turns_left: int) -> int:
        """The capture search at a turn start: stand pat, or a turn that captures (see the module
        text); a turn whose end leaves the mover's King attacked is skipped (R7)."""
        self._check()
        pos = self.pos
        if pos.kings[pos.side] < 0:
            return -MATE + ply  # taken within the last turn (R7)
        best = self._static()
        if best >= beta or turns_left == 0:
            return best
        alpha = max(alpha, best)
        mover = pos.side
        gains = self._gains(pos.moves())
        captures = sorted((m for m in gains if gains[m]), key=gains.get, reverse=True)
        # quiet square moves before a capturing point move: on the first turn beyond the horizon only
        quiet = [m for m in gains if not gains[m]] if turns_left == QS_TURNS else []
        if quiet:
            table = self.piece_square
            board = pos.board
            sign = -1 if mover else 1
            quiet.sort(key=lambda m: sign * (table[board[m & CELL_MASK]][(m >> TO_SHIFT) & CELL_MASK]
                                             - table[board[m & CELL_MASK]][m & CELL_MASK]), reverse=True)
        for square in captures + quiet[:QS_QUIET_SQUARES]:
            square_delta = self._play(square)
            point_gains = self._gains(pos.moves()) if min(pos.kings) >= 0 else {}
            points = sorted((m for m in point_gains if point_gains[m]), key=point_gains.get, reverse=True)
            for point in ([END] if gains[square] else []) + points:
                point_delta = self._play(point) if point != END else 0
                pos.end_turn()
                if pos.kings[mover ^ 1] < 0 or not pos.king_attacked(mover):
                    score = -self._quiesce(-beta, -alpha, ply + 1, turns_left - 1)
                    if score > best:
                        best = score
                        alpha = max(alpha, score)
                pos.unmake()  # the end of the turn
                if point != END:
                    self._take_back(point_delta)
                if alpha >= beta:
                    break
            self._take_back(square_delta)
            if alpha >= beta:
                break
        return best

    def _ordered(self, made: int, ply: int, pv: list[int], hash_move: int | None) -> list[int]:
        """The moves that may continue the turn (`END` when it may stop): the previous iteration's
        move, the hash move, captures by what they take (enclosures included), the killers of this
        ply, then by history."""
        pos = self.pos
        moves = pos.moves() if min(pos.kings) >= 0 else []  # a King taken: only the end (R7)
        gains = self._gains(moves)
        if made:
            moves.append(END)
        first = [m for m in (pv[0] if pv else None, hash_move) if m is not None]
        killers = self.killers.get(ply, ())
        history = self.history

        def rank(m: int) -> int:
            if m in first:
                return -10**9 + first.index(m)
            gain = gains.get(m, 0)
            if gain:
                return -10**8 - gain
            if m in killers:
                return -10**7
            return -history.get(m, 0)
        moves.sort(key=rank)
        return moves

    def _cutoff(self, m: int, ply: int, turns_left: int) -> None:
        """A quiet move (or `end`) that refuted: a killer of its ply, and history by depth."""
        if m != END and self.pos.board[(m >> TO_SHIFT) & CELL_MASK]:
            return
        killers = self.killers.setdefault(ply, [])
        if m not in killers:
            killers.insert(0, m)
            del killers[KILLERS:]
        self.history[m] = self.history.get(m, 0) + turns_left * turns_left

    def search(self, made: int, turns_left: int, alpha: int, beta: int, ply: int,
               pv: list[int]) -> tuple[int | None, list[int]]:
        """(score for the side to move, best line); score None when no legal completion of the
        turn exists from here (mid-turn only)."""
        self._check()
        pos = self.pos
        if made == 0:
            if pos.kings[pos.side] < 0:
                return -MATE + ply, []  # the King was taken within the last turn (R7)
            if turns_left == 0:
                if pos.king_attacked(pos.side) and not self._has_legal_turn():
                    return -MATE + ply, []  # mated at the horizon (5)
                return self._quiesce(alpha, beta, ply, QS_TURNS), []
        mover = pos.side
        key = pos.hash
        entry = self.table.get(key)
        if entry is not None and ply and entry[0] >= turns_left:
            score = _from_table(entry[1], ply)
            if (entry[2] == LOWER and score >= beta) or (entry[2] == UPPER and score <= alpha):
                return score, []
        alpha0 = alpha
        best, line = None, []
        if ply == 0:
            self.root_scores = {}
        for m in self._ordered(made, ply, pv, entry[3] if entry else None):
            sub_pv = pv[1:] if pv and pv[0] == m else []
            # with a margin, the first moves within it of the best are scored exactly
            low = max(alpha0, best - self.margin - 1) if ply == 0 and self.margin and best is not None \
                else alpha
            delta = self._play(m) if m != END else 0
            if m == END or made + 1 >= TURN_MOVES:  # the turn ends: judged here (R7)
                pos.end_turn()
                score = None
                if pos.kings[mover ^ 1] < 0 or not pos.king_attacked(mover):
                    score, sub = self.search(0, turns_left - 1, -beta, -low, ply + 1, sub_pv)
                    score = -score
                pos.unmake()
            else:
                score, sub = self.search(made + 1, turns_left, low, beta, ply + 1, sub_pv)
            if m != END:
                self._take_back(delta)
            if score is None:
                continue
            if ply == 0:
                self.root_scores[m] = score
            if best is None or score > best:
                best, line = score, [m] + sub
            if not (ply == 0 and self.margin):
                alpha = max(alpha, score)
            if alpha >= beta:
                self._cutoff(m, ply, turns_left)
                break
        if best is not None:
            if len(self.table) >= TABLE_LIMIT:
                self.table.clear()
            flag = LOWER if best >= beta else (UPPER if best <= alpha0 else EXACT)
            self.table[key] = (turns_left, _to_table(best, ply), flag, line[0])
        elif made == 0:
            return (-MATE + ply if pos.king_attacked(pos.side) else 0), []
        return best, line


def best_turn(board: IntergridBoard, max_turns: int = 2, movetime_ms: float | None = 2000,
              stop: threading.Event | None = None,
              info: Callable[[TurnResult, float], None] | None = None, *, nodes: int | None = None,
              noise: int = 0, margin: int = 0, seed: int | None = None) -> TurnResult:
    """The best continuation of the board's turn (from its start or from its middle), searched by
    iterative deepening over whole turns; `info(result, seconds)` after each finished depth.
    `nodes` caps the search once the first turn is searched; `noise` and `margin` as the levels
    have them (module text), drawn from `seed` (None: fresh)."""
    t0 = time.monotonic()
    deadline = t0 + movetime_ms / 1000 if movetime_ms is not None else None
    legal = [m.text for m in board.legal_moves]
    made = board.moves_in_turn
    rng = random.Random(seed)
    searcher = _Searcher(board.position, deadline, stop, nodes, noise, margin, rng.getrandbits(64))
    # the board's next use undoes what a stopped search leaves made
    result = TurnResult(legal[:1], 0, 0, 0)
    pv: list[int] = []
    root_scores: dict[int, int] = {}
    for depth in range(1, max_turns + 1):
        try:
            score, pv = searcher.search(made, depth, -MATE * 2, MATE * 2, 0, pv)
        except _Stop:
            break
        searcher.max_nodes = searcher.node_cap
        root_scores = searcher.root_scores
        line = [END_TURN if m == END else move_text(m) for m in pv]
        result = TurnResult(line or legal[:1], score or 0, depth, searcher.nodes)
        if info:
            info(result, time.monotonic() - t0)
        if abs(score) > MATE // 2:
            break
    if margin and root_scores and abs(result.score) < MATE // 2:
        top = max(root_scores.values())
        choice = rng.choice(sorted(m for m, s in root_scores.items() if s >= top - margin))
        text = END_TURN if choice == END else move_text(choice)
        if text != result.moves[0]:
            result.moves, result.score = [text], root_scores[choice]
    result.nodes = searcher.nodes
    return result


def level_turn(board: IntergridBoard, level: int, movetime_ms: float | None, *, max_turns: int | None = None,
               nodes: int | None = None, seed: int | None = None, stop: threading.Event | None = None,
               info: Callable[[TurnResult, float], None] | None = None) -> TurnResult:
    """`best_turn` at a computer level (`levels.toml`): its depth in whole turns (at most
    `max_turns` when given), its node cap (or `nodes`), noise and margin, for `movetime_ms`."""
    lv = get_level(level)
    turns = min(lv.depth, MAX_TURNS, max_turns or MAX_TURNS)
    return best_turn(board, turns, movetime_ms, stop, info, nodes=nodes or lv.nodes or None,
                     noise=lv.noise_cp, margin=lv.margin_cp, seed=seed)


def think_uci(board: IntergridBoard, opts: dict[str, int], infinite: bool, stop: threading.Event,
              send: Callable[[str], None]) -> None:
    """The UCI `go` for InterGrid at the Level option (`opts["level"]`, default 8): movetime, depth
    (whole turns), nodes, or a share of the clock (below level 8, or without any limit, the level's
    own time plan); `info` per depth, then `bestmove` with the next move of the best line (`end`
    included)."""
    level = opts.get("level", 8)
    if not board.legal_moves:
        send("info string the game is over: no legal move")
        send("bestmove 0000")
        return
    colour = "wb"[board.turn]
    explicit = {"movetime", "depth", "nodes"} & set(opts)
    if not infinite and not explicit and (level < 8 or f"{colour}time" not in opts):
        movetime = level_limits(level, opts.get(f"{colour}time"), opts.get(f"{colour}inc", 0),
                                board.fullmove_number).soft_ms
    else:
        movetime = uci_think_ms(opts, board.turn, board.fullmove_number, infinite, DEFAULT_MOVETIME_MS)

    def info(r: TurnResult, seconds: float) -> None:
        score = f"mate {1 if r.score > 0 else -1}" if abs(r.score) > MATE // 2 else f"cp {r.score}"
        nps = int(r.nodes / seconds) if seconds > 0 else r.nodes
        send(f"info depth {r.depth} score {score} nodes {r.nodes} nps {nps} time {int(seconds * 1000)} "
             f"pv {' '.join(r.moves)}")

    result = level_turn(board, level, movetime, max_turns=opts.get("depth"), nodes=opts.get("nodes"),
                        stop=stop, info=info)
    if infinite:  # UCI: in infinite mode bestmove waits for stop
        stop.wait()
    send(f"bestmove {result.moves[0]}")


def choose_intergrid_move(start_fen: str | None, moves: list[str], level: int,
                          soft_ms: Callable[[int], int | None], seed: int | None = None) -> str:
    """The computer's next move (square move, point move or `end`) for the server: the best turn
    from the position after `moves` at `level` (`level_turn`), searched for at most
    `soft_ms(fullmove)` ms (None: the default)."""
    board = IntergridBoard("intergrid", start_fen)
    for text in moves:
        board.push_text(text)
    movetime = soft_ms(board.fullmove_number)
    movetime = movetime if movetime is not None else DEFAULT_MOVETIME_MS
    return level_turn(board, level, movetime, seed=seed).moves[0]
