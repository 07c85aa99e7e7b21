"""A beam search for Tiling Rider Chess turns (the variant is not on the core yet, so the core's
`Searcher` cannot play it).

A turn is searched as a sequence of moves: from the current state (a turn's start or its middle) the
`width` best states after one more move are kept, expanded again, and so on up to the allowance;
every kept state where the turn may end (tiling 4.1, 4.2, R13) is a candidate, and the best candidate
gives the line. Evaluation: material, a bonus per aggregate, and half the value of each own piece an
enemy small piece attacks, from the mover's side, less a small cost per move made (each move of this
turn is one more move for the opponent's next turn, R11). No look-ahead into the opponent's turn: a
low-level player.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..rules import tiling as T
from ..rules.tiling_board import TilingBoard
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


def evaluate(state: T.State, side: int) -> int:
    """Material, aggregates and attacked pieces from `side`'s point of view (no King is material)."""
    board, total = state.board, 0
    for sq, c in enumerate(board):
        if c == T.EMPTY or c.upper() == T.KING:
            continue
        own = T.side_of(c) == side
        value = VALUES[c.upper()]
        attacked = T._small_attacks(board, sq, 1 - side if own else side)
        value -= value // 2 if attacked and own else 0
        total += value if own else -value
    for _, _, letter in T.aggregates(state):
        total += AGGREGATE_BONUS if T.side_of(letter) == side else -AGGREGATE_BONUS
    return total - MOVE_COST * len(state.made)


def _key(state: T.State) -> tuple:
    return state.board, state.moved, state.done, state.king_moved


def best_turn(board: TilingBoard, width: int = DEFAULT_WIDTH, movetime_ms: float | None = DEFAULT_MOVETIME_MS,
              stop: threading.Event | None = None) -> TurnResult:
    """The best line found for the rest of the board's turn; its first move is always legal."""
    deadline = None if movetime_ms is None else time.monotonic() + movetime_ms / 1000
    root, side, made = board.reference_state, board.turn, board.moves_in_turn
    nodes = 0
    best: tuple[int, tuple[T.Move, ...]] | None = None
    if T.can_end_turn(root):
        best = (evaluate(root, side), ())
    beam = [root]
    while beam:
        if (deadline is not None and time.monotonic() > deadline) or (stop is not None and stop.is_set()):
            break
        seen, children = set(), []
        for s in beam:
            for m in T.iter_moves(s):
                c = T._apply(s, m)
                if _key(c) not in seen:
                    seen.add(_key(c))
                    children.append((evaluate(c, side), c))
        nodes += len(children)
        children.sort(key=lambda x: x[0], reverse=True)
        beam = [c for _, c in children[:width]]
        for score, c in children[:width]:
            if T.can_end_turn(c) and (best is None or score > best[0]):
                best = (score, c.made[made:])
    if best is None:  # no completion in the beam (in check, or out of time): the best legal move now
        moves = {m.text: m for m in T.moves_in_turn(root)}  # `end` is not legal here: best is None
        scored = [(evaluate(T._apply(root, moves[mv.text]), side), mv.text) for mv in board.legal_moves]
        return TurnResult([max(scored)[1]] if scored else [], max(scored)[0] if scored else 0, nodes)
    return TurnResult([m.text for m in best[1]] or [END_TURN], best[0], nodes)


def _recorded(state: T.State, text: str) -> T.Move:
    for m in T.pseudo_moves(state):
        if m.text == text:
            return m
    raise T.TilingError(f"no move {text!r} in {T.fen(state.start or state)}")


def board_after(start_fen: str | None, moves: list[str]) -> TilingBoard:
    """The board after a game's `moves` from `start_fen` (None: the start; it may carry moves of an
    unfinished turn after ` | `), replayed on the reference module: each move is found among the
    moves movement and the turn's limits allow (the server judged its legality when it was played),
    a few ms a move instead of the 10-250 ms of a legality search. The board starts at the current
    turn's start (earlier turns are not kept: repetitions are not seen)."""
    start_text, _, first = (start_fen or T.START_FEN).partition("|")
    state = T.parse(start_text.strip())
    for text in first.split() + list(moves):
        state = T.close_turn(state) if text == END_TURN else T._apply(state, _recorded(state, text))
        if len(state.made) >= state.allowance:  # the turn ends by itself after its last allowed move
            state = T.close_turn(state)
    if not state.made:
        return TilingBoard("tilingrider", T.fen(state))
    return TilingBoard("tilingrider", f"{T.fen(state.start)} | {' '.join(m.text for m in state.made)}")


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
