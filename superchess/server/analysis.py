"""The analysis board's server side (docs/protocol.md, "Analysis"): any position of any variant,
given as a start FEN, a move list and rosters, answered with what a board page needs to go on
(legal moves, FEN, check, the game's end, the moves in the readable notation); a pasted record read
into that form; and the engine's evaluation and best line, thought in a worker process of its own,
one analysis at a time per client and a few in all.

The position functions are pure rules work: the routers run them in the offload's threads."""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Hashable

from ..engine import warm_up
from ..engine.analysis import analyse
from ..rules import VARIANTS, Board, Roster
from ..rules.core.contract import BaseBoard
from ..rules.game import notation
from ..rules.game.record import Game
from . import variants
from .worker import start_worker

MAX_MOVES = 1000        # moves of one analysed line
ENGINE_MS = 3000        # one engine analysis's thinking time
MAX_ENGINE_MS = 5000
MAX_ANALYSES = 2        # engine analyses in flight at once, over all clients


def position_state(variant: str, fen: str | None, moves: list[str], rosters: list[dict] | None) -> dict:
    """The position after `moves` (machine or readable texts) from `fen` (None: the start array):
    what the board page draws and plays from (the game state's names: "pieces", "legal",
    "last_move", "check", "can_end_turn", ...), the moves as machine texts, the last one's readable
    text ("written") and "outcome" when the rules end the game there. ValueError naming the first
    bad move."""
    board = _board(variant, fen, rosters)
    written = ""
    for i, text in enumerate(moves):
        try:
            move = notation.read(board, text)
        except ValueError as e:
            raise ValueError(f"move {i + 1}: {e}") from None
        if i == len(moves) - 1:
            written = notation.played_text(board, move)
        else:
            board.push(move)
    last = board.peek()
    geo = board.geometry
    outcome = board.outcome()
    return {
        "variant": board.variant.name, "files": geo.files, "ranks": geo.ranks,
        "start_fen": board.starting_fen, "fen": board.fen(), "turn": board.turn, "ply": _ply(board),
        "pieces": board.piece_symbols(),
        "legal": json.loads(variants.legal_json(board)) if outcome is None else {},
        "last_move": {"from": geo.name(last.from_cell), "to": geo.name(last.to_cell)}
        if last and last.from_cell >= 0 else None,
        "check": board.king(board.turn) if board.is_check() else None,
        "turn_moves": board.moves_in_turn,
        "can_end_turn": outcome is None and any(m.from_cell < 0 for m in board.legal_moves),
        "holdings": [board.holdings(0), board.holdings(1)] if board.variant.holdings else None,
        "promotion_choices": [c.lower() for c in board.variant.promotion_choices],
        "moves": [m.text for m in board.move_stack], "written": written,
        "outcome": {"result": outcome.result(), "termination": outcome.termination.value,
                    "winner": outcome.winner} if outcome else None,
        **variants.turn_facts(board),
    }


def _ply(board: BaseBoard) -> int:
    """The board's turn as a ply number (the moves of a turn share one)."""
    return (board.fullmove_number - 1) * 2 + board.turn


def _board(variant: str, fen: str | None, rosters: list[dict] | None) -> BaseBoard:
    if not variants.known(variant):
        raise ValueError(f"unknown variant {variant!r}")
    rs = (Roster.from_data(rosters[0] or {}), Roster.from_data(rosters[1] or {})) if rosters else None
    return Board(variant, fen or None, rs if rs and any(rs) else None)


def imported(record: str) -> dict:
    """A pasted record (either notation) as the analysis board starts from it: its variant, start
    FEN, rosters, headers, result and moves (machine texts, readable: "notation", and each one's turn
    as a ply number: "plies"). ValueError
    (RecordError) when it cannot be read."""
    game = Game.parse(record)
    board = game.board
    plies: list[int] = []  # each move's turn as a ply number
    replay = Board(board.variant.name, board.starting_fen, board.rosters if any(board.rosters) else None)
    for move in board.move_stack:
        plies.append(_ply(replay))
        replay.push(move)
    return {"variant": board.variant.name, "fen": board.starting_fen,
            "rosters": [r.to_data() for r in board.rosters] if any(board.rosters) else None,
            "headers": game.headers, "result": game.result(), "moves": [m.text for m in board.move_stack],
            "notation": notation.readable_moves(board), "plies": plies}


def record_of(variant: str, fen: str | None, moves: list[str], rosters: list[dict] | None) -> str:
    """A line of the analysis board as a record in the readable notation (unfinished: result `*`)."""
    board = _board(variant, fen, rosters)
    game = Game(board.variant.name, board.starting_fen, board.rosters if any(board.rosters) else None,
                {"Event": "Analysis", "Site": "superchess"})
    for text in moves:
        game.play(notation.read(game.board, text))
    return game.export(readable=True)


def analysis_pool() -> Executor:
    """One worker process for the analyses (spawned: the server has threads and an event loop), beside
    the computer's, so an analysis never delays a computer's move; it exits with the server."""
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=start_worker,
                               initargs=(os.getpid(), False))


class BusyError(Exception):
    """An analysis is refused for now: this client has one running, or the engine is full."""


class Analyses:
    """The engine analyses in flight: at most one per client and `limit` in all; each runs in the
    pool `make_pool` makes (on first use) and is bounded by its thinking time."""

    def __init__(self, make_pool: Callable[[], Executor] = analysis_pool, limit: int = MAX_ANALYSES,
                 think: Callable[..., dict] = analyse) -> None:
        self._make_pool, self._limit, self._think = make_pool, limit, think
        self._pool: Executor | None = None
        self._running: set[Hashable] = set()

    def start(self) -> None:
        """Start the worker now and have it compile the engine's tables of every variant, the
        flagship first (`engine.warm_up`), one variant per task, each submitted when the one before
        is done: an analysis asked meanwhile waits for the start and one variant's compilation at
        most, and none once they are over. It returns at once: the work runs in the worker process
        while the server serves (a failure shows at the first analysis)."""
        if self._pool is None:
            self._pool = self._make_pool()
            self._warm(self._pool, list(VARIANTS))

    def _warm(self, pool: Executor, names: list[str]) -> None:
        if not names or pool is not self._pool:  # done, or the pool was closed or replaced meanwhile
            return
        try:
            task = pool.submit(warm_up, (names[0],))
        except RuntimeError:  # shut down or broken: the next analysis makes a new pool
            return
        task.add_done_callback(lambda _: self._warm(pool, names[1:]))

    async def run(self, client: Hashable, variant: str, fen: str | None, moves: list[str],
                  rosters: list[dict] | None, movetime_ms: int) -> dict:
        if client in self._running:
            raise BusyError("an analysis of yours is still running; wait for it")
        if len(self._running) >= self._limit:
            raise BusyError("the engine is busy with other analyses; try again in a few seconds")
        self._running.add(client)
        try:
            if self._pool is None:
                self._pool = self._make_pool()
            return await asyncio.get_running_loop().run_in_executor(
                self._pool, self._think, variant, fen, moves, tuple(rosters) if rosters else None, movetime_ms)
        except BrokenExecutor:  # the worker died: a new one next time
            self._pool = None
            raise BusyError("the engine stopped; try again") from None
        finally:
            self._running.discard(client)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
