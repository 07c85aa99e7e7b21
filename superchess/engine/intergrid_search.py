"""A small search for InterGrid Chess (not on the core yet, so the core's `Searcher` cannot play it).

Alpha-beta over the reference module's states, a turn searched as its two parts: at a turn start the
square moves, below each of them the point moves and the end of the turn, with the same side to move
and the same window (no sign change inside a turn); the score changes sign when the turn passes.
Depth counts whole turns; iterative deepening until the time or depth limit or the stop flag.
Evaluation: material over both layers, from the side to move.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..rules import intergrid as ig
from ..rules.intergrid_board import IntergridBoard
from ..rules.turns import END_TURN, TurnSearch
from .timing import uci_think_ms

MATE = 100_000
MAX_TURNS = 8
DEFAULT_MOVETIME_MS = 1000
VALUES = {"P": 100, "N": 330, "B": 320, "R": 500, "Q": 900, "K": 0}


class _Stop(Exception):
    pass


@dataclass
class TurnResult:
    moves: list[str]  # the best line from the root, move texts (`end` included)
    score: int        # centipawns from the root's side to move
    depth: int        # whole turns searched
    nodes: int


def evaluate(state: ig.State) -> int:
    """Material of both layers, from the side to move's point of view."""
    total = 0
    for cell in state.squares + state.points:
        if cell is not None:
            total += VALUES[cell.upper()] if cell.isupper() else -VALUES[cell.upper()]
    return total if state.turn == "w" else -total


class _Searcher:
    def __init__(self, turns: TurnSearch, deadline: float | None, stop: threading.Event | None) -> None:
        self.turns = turns
        self.deadline = deadline
        self.stop = stop
        self.nodes = 0

    def _check(self) -> None:
        self.nodes += 1
        if self.nodes % 64 == 0 and ((self.deadline is not None and time.monotonic() > self.deadline)
                                     or (self.stop is not None and self.stop.is_set())):
            raise _Stop

    def children(self, state: ig.State, made: int) -> list[tuple[str, ig.State, bool]]:
        """(text, child state, whether the turn passed) for each legal continuation, best first by
        material."""
        model = self.turns.model
        mover = 0 if state.turn == "w" else 1
        moves, may_end = self.turns.continuations(state, made, mover)
        out = []
        for m in moves:
            child = model.play(state, m)
            if made + 1 >= self.turns.rule.max_moves:
                child = model.end_turn(child)
            out.append((m.text(), child, child.turn != state.turn))
        if may_end:
            out.append((END_TURN, model.end_turn(state), True))
        out.sort(key=lambda c: -evaluate(c[1]) if c[2] else evaluate(c[1]), reverse=True)
        return out

    def search(self, state: ig.State, made: int, turns_left: int, alpha: int, beta: int,
               ply: int) -> tuple[int, list[str]]:
        """(score for the side to move in `state`, best line)."""
        self._check()
        if made == 0:
            if state.king(state.turn) is None:
                return -MATE + ply, []  # the King was taken within the last turn (R7)
            if turns_left == 0:
                return evaluate(state), []
        kids = self.children(state, made)
        if not kids:
            return (-MATE + ply if ig.is_check(state) else 0), []
        best, line = -MATE * 2, []
        for text, child, passed in kids:
            if passed:
                score, sub = self.search(child, 0, turns_left - 1, -beta, -alpha, ply + 1)
                score = -score
            else:
                score, sub = self.search(child, made + 1, turns_left, alpha, beta, ply + 1)
            if score > best:
                best, line = score, [text] + sub
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best, line


def best_turn(board: IntergridBoard, max_turns: int = 2, movetime_ms: float | None = 2000,
              stop: threading.Event | None = None,
              info: Callable[[TurnResult, float], None] | None = None) -> TurnResult:
    """The best continuation of the board's turn (from its start or from its middle), searched by
    iterative deepening over whole turns; `info(result, seconds)` after each finished depth."""
    t0 = time.monotonic()
    deadline = t0 + movetime_ms / 1000 if movetime_ms is not None else None
    searcher = _Searcher(board.turn_search, deadline, stop)
    state, made = board.reference_state, board.moves_in_turn
    legal = [m.text for m in board.legal_moves]
    result = TurnResult(legal[:1], 0, 0, 0)
    for depth in range(1, max_turns + 1):
        try:
            score, line = searcher.search(state, made, depth, -MATE * 2, MATE * 2, 0)
        except _Stop:
            break
        result = TurnResult(line or legal[:1], score, depth, searcher.nodes)
        if info:
            info(result, time.monotonic() - t0)
        if abs(score) > MATE // 2:
            break
    result.nodes = searcher.nodes
    return result


def think_uci(board: IntergridBoard, opts: dict[str, int], infinite: bool, stop: threading.Event,
              send: Callable[[str], None]) -> None:
    """The UCI `go` for a turn variant: movetime, depth (whole turns), or a share of the clock;
    `info` per depth, then `bestmove` with the next move of the best line (`end` included)."""
    if not board.legal_moves:
        send("info string the game is over: no legal move")
        send("bestmove 0000")
        return
    movetime = uci_think_ms(opts, board.turn, board.fullmove_number, infinite, DEFAULT_MOVETIME_MS)

    def info(r: TurnResult, seconds: float) -> None:
        score = f"mate {1 if r.score > 0 else -1}" if abs(r.score) > MATE // 2 else f"cp {r.score}"
        send(f"info depth {r.depth} score {score} nodes {r.nodes} time {int(seconds * 1000)} "
             f"pv {' '.join(r.moves)}")

    result = best_turn(board, opts.get("depth", MAX_TURNS), movetime, stop, info)
    if infinite:  # UCI: in infinite mode bestmove waits for stop
        stop.wait()
    send(f"bestmove {result.moves[0]}")


#: whole turns searched at each computer level (1-8); the level's clock share caps the time
TURNS_BY_LEVEL = {1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 6: 3, 7: 3, 8: MAX_TURNS}


def choose_intergrid_move(start_fen: str | None, moves: list[str], level: int,
                          soft_ms: Callable[[int], int | None]) -> str:
    """The computer's next move (square move, point move or `end`) for the server: the best turn
    from the position after `moves`, searched for at most `soft_ms(fullmove)` ms (None: the default)."""
    board = IntergridBoard("intergrid", start_fen)
    for text in moves:
        board.push_text(text)
    movetime = soft_ms(board.fullmove_number)
    movetime = movetime if movetime is not None else DEFAULT_MOVETIME_MS
    return best_turn(board, TURNS_BY_LEVEL[level], movetime).moves[0]
