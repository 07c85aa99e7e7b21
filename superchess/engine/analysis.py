"""The engine's view of a position for the analysis board: its evaluation and best line, from the
strongest level's search for a fixed time.

Every engine family answers the UCI `go` (`EngineFamily.think_uci`) with `info` lines and a
`bestmove`; this runs that search on a board (the family's own search, native where the family
has one) and reads its last `info` line back, so one entry serves every variant. Plain arguments
and a small dict answer, so it can run in a worker process."""
from __future__ import annotations

import re
import time

from ..rules import Board, IllegalMoveError, Roster
from ..rules.game import notation
from .families import engine_of
from .native_search import StopRequest

LEVEL = 8  # the strongest level's limits, but for the time given
HASH_MB = 32
_INFO = re.compile(r"^info .*?\bdepth (\d+) .*?\bscore (cp|mate) (-?\d+)(?: .*?)? pv ?(.*)$")


def analyse(variant: str, start_fen: str | None, moves: list[str], rosters: tuple[dict, dict] | None,
            movetime_ms: int) -> dict:
    """The evaluation and best line of the position after `moves` (machine texts) from `start_fen`
    (None: the start array) with `rosters` (JSON form; None: default), searched for about
    `movetime_ms`: {"score": {"cp": n} or {"mate": n} (the side to move's view), "white_cp": the
    centipawns from Player 1's view (mate: +-100000), "depth", "pv": machine texts, "line": the pv
    as readable turns, "time_ms"}; "pv" is empty when the game is over. IllegalMoveError or
    ValueError on a bad position or move."""
    rs = tuple(Roster.from_data(r or {}) for r in rosters) if rosters else None
    board = Board(variant, start_fen, rs)
    for text in moves:
        board.push_text(text)
    lines: list[str] = []
    t0 = time.monotonic()
    engine_of(variant).think_uci(board.copy(), {"level": LEVEL, "hash": HASH_MB, "movetime": movetime_ms},
                                 False, StopRequest(), lines.append)
    elapsed = int((time.monotonic() - t0) * 1000)
    infos = [m for m in (_INFO.match(line) for line in lines) if m]
    if not infos:
        return {"score": None, "white_cp": None, "depth": 0, "pv": [], "line": [], "time_ms": elapsed}
    depth, kind, value, pv_text = infos[-1].groups()
    pv = _legal_line(board, pv_text.split())
    score = int(value)
    cp = score if kind == "cp" else (100_000 if score > 0 else -100_000)
    return {"score": {kind: score}, "white_cp": cp if board.turn == 0 else -cp, "depth": int(depth),
            "pv": [m.text for m in pv], "line": notation.line_turns(board, pv), "time_ms": elapsed}


def _legal_line(board, texts: list[str]) -> list:
    """The longest legal prefix of a line of move texts, as moves (the board is left as it was)."""
    replay, moves = board.copy(), []
    for text in texts:
        try:
            moves.append(replay.push_text(text))
        except IllegalMoveError:
            break
    return moves
