"""A beam search for Tiling Rider Chess turns, over the core's `TilingPosition` (make/unmake).

A turn is searched as a sequence of moves: from the current position (a turn's start or its middle)
the `width` best lines one move longer are kept, expanded again, and so on up to the allowance; every
kept line after which the turn may end (tiling 4.1, 4.2, R13) is a candidate, and the best candidate
gives the line. Lines are kept as move integers and replayed on the one position (each at most the
allowance long). Evaluation: material, a bonus per aggregate, and half the value of each own piece an
enemy small piece attacks, from the mover's side, less a small cost per move made (each move of this
turn is one more move for the opponent's next turn, R11). No look-ahead into the opponent's turn: a
low-level player.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..rules.tiling_board import VARIANT, TilingBoard
from ..rules.tiling_position import TilingPosition
from ..rules.turns import END_TURN
from .timing import uci_think_ms

VALUES = {"W": 100, "F": 90, "G": 220, "N": 250}
AGGREGATE_BONUS = 60
MOVE_COST = 5
DEFAULT_WIDTH = 4
DEFAULT_MOVETIME_MS = 1000


@dataclass
class TurnResult:
    moves: list[str]  # the best line from the current state to the turn's end (`end` when it stops early)
    score: int        # evaluation of the line's end, from the mover's side
    nodes: int        # states evaluated


def evaluate(pos: TilingPosition, side: int) -> int:
    """Material, aggregates and attacked pieces from `side`'s point of view (no King is material)."""
    board, t, total = pos.board, pos.tables, 0
    for s in (0, 1):
        for cell in pos.occ[s]:
            code = board[cell]
            if not t.small[code]:
                continue
            value = VALUES[t.symbol[code].upper()]
            if s == side:
                total += value - value // 2 if pos.small_attacked(cell, 1 - side) else value
            else:
                total -= value
    for _, code in pos.aggregates():
        total += AGGREGATE_BONUS if code >> 6 == side else -AGGREGATE_BONUS
    return total - MOVE_COST * pos.made


def _replay(pos: TilingPosition, line: tuple[int, ...], fn: Callable[..., object], *args: object) -> object:
    """`fn(*args)` with `line` made on the position, which is then restored."""
    for m in line:
        pos.make(m)
    try:
        return fn(*args)
    finally:
        for _ in line:
            pos.unmake()


def _expand(pos: TilingPosition, side: int, line: tuple[int, ...], seen: set,
            children: list[tuple[int, tuple[int, ...]]]) -> None:
    """Each legal move from the position (reached by `line`) not seen yet, scored, into `children`."""
    for m in pos.legal():
        pos.make(m)
        if pos.key() not in seen:
            seen.add(pos.key())
            children.append((evaluate(pos, side), line + (m,)))
        pos.unmake()


def best_turn(board: TilingBoard, width: int = DEFAULT_WIDTH, movetime_ms: float | None = DEFAULT_MOVETIME_MS,
              stop: threading.Event | None = None) -> TurnResult:
    """The best line found for the rest of the board's turn; its first move is always legal."""
    deadline = None if movetime_ms is None else time.monotonic() + movetime_ms / 1000
    pos, side, search = board.position, board.turn, board.turn_search
    nodes = 0
    best: tuple[int, tuple[int, ...]] | None = None
    if search.can_end(pos, pos.made, side):
        best = (evaluate(pos, side), ())
    beam: list[tuple[int, ...]] = [()]
    while beam:
        if (deadline is not None and time.monotonic() > deadline) or (stop is not None and stop.is_set()):
            break
        seen: set = set()
        children: list[tuple[int, tuple[int, ...]]] = []
        for line in beam:
            _replay(pos, line, _expand, pos, side, line, seen, children)
        nodes += len(children)
        children.sort(key=lambda x: x[0], reverse=True)
        beam = [line for _, line in children[:width]]
        for score, line in children[:width]:
            if (best is None or score > best[0]) and _replay(pos, line, lambda: search.can_end(pos, pos.made, side)):
                best = (score, line)
    if best is None:  # no completion in the beam (in check, or out of time): the best legal move now
        moves = {pos.move_text(m): m for m in pos.legal()}  # `end` is not legal here: best is None
        scored = [(_replay(pos, (moves[mv.text],), lambda: evaluate(pos, side)), mv.text) for mv in board.legal_moves]
        return TurnResult([max(scored)[1]] if scored else [], max(scored)[0] if scored else 0, nodes)
    return TurnResult([pos.move_text(m) for m in best[1]] or [END_TURN], best[0], nodes)


def board_after(start_fen: str | None, moves: list[str]) -> TilingBoard:
    """The board after a game's `moves` from `start_fen` (None: the start; it may carry moves of an
    unfinished turn after ` | `), replayed on one `TilingPosition`: each move is found among the
    moves the position allows now (the server judged the whole turn when it was played), without
    the turn search a `TilingBoard` runs before accepting a move. The board starts at the current
    turn's start (earlier turns are not kept: repetitions are not seen)."""
    start_text, _, first = (start_fen or VARIANT.start_fen).partition("|")
    pos = TilingPosition.from_fen(start_text.strip())
    made: list[str] = []
    for text in first.split() + list(moves):
        if text != END_TURN:
            m = next((m for m in pos.iter_legal() if pos.move_text(m) == text), None)
            if m is None:
                raise ValueError(f"no move {text!r} in {pos.fen()} | {' '.join(made)}")
            pos.make(m)
            made.append(text)
        if text == END_TURN or pos.made >= pos.allowance:  # the last allowed move ends the turn
            pos.end_turn()
            made = []
    return TilingBoard(VARIANT.name, f"{pos.fen()} | {' '.join(made)}" if made else pos.fen())


def choose_tiling_move(start_fen: str | None, moves: list[str], soft_ms: Callable[[int], int | None]) -> str:
    """The computer's next move of its turn (`end` included) for the server: the beam's best line
    for the rest of the turn, searched for the level's share of the clock (`soft_ms(turn number)`,
    None: the default) divided among the moves the turn may still hold."""
    board = board_after(start_fen, moves)
    movetime = soft_ms(board.fullmove_number)
    movetime = DEFAULT_MOVETIME_MS if movetime is None else movetime
    return best_turn(board, DEFAULT_WIDTH, movetime / max(1, board.moves_left)).moves[0]


def think_uci(board: TilingBoard, opts: dict[str, int], infinite: bool, stop: threading.Event,
              send: Callable[[str], None]) -> None:
    """The UCI `go` for Tiling Rider: movetime, or a share of the clock; one `info` line with the
    line found, then `bestmove` with its next move (`end` included)."""
    if not board.legal_moves:
        send("info string the game is over: no legal move")
        send("bestmove 0000")
        return
    movetime = uci_think_ms(opts, board.turn, board.fullmove_number, infinite, DEFAULT_MOVETIME_MS)
    t0 = time.monotonic()
    result = best_turn(board, DEFAULT_WIDTH, movetime, stop)
    send(f"info depth {len(result.moves)} score cp {result.score} nodes {result.nodes} "
         f"time {int((time.monotonic() - t0) * 1000)} pv {' '.join(result.moves)}")
    if infinite:  # UCI: in infinite mode bestmove waits for stop
        stop.wait()
    send(f"bestmove {result.moves[0]}")
