"""Won endings played out: the engine (White) against full-strength Stockfish (Black), both at a
fixed time a move, from positions where White should win (mostly against a bare King). Reports,
for each, how the game ended and after how many plies; a win that takes long, or a draw by the
50-move rule or repetition, is a conversion the evaluation does not steer.

    .venv/bin/python bench/endings.py                     # this build
    .venv/bin/python bench/endings.py --path /tmp/base    # another build's tree, to compare
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import chess
import chess.engine

from anchor_match import STOCKFISH

ROOT = Path(__file__).resolve().parent.parent

ENDINGS = {  # name: a position, White to move unless the FEN says otherwise
    "KQK centre": "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
    "KQK": "8/8/8/8/2k5/8/8/Q3K3 w - - 0 1",
    "KQK corner": "1k6/8/8/8/8/8/8/4K2Q w - - 0 1",
    "KRK": "8/8/4k3/8/8/8/8/R3K3 w - - 0 1",
    "KRK centre": "8/8/8/3k4/8/8/8/4K2R w - - 0 1",
    "KRK far": "8/5k2/8/8/8/8/1R6/6K1 w - - 0 1",
    "KBBK": "8/8/8/8/4k3/8/8/2BBK3 w - - 0 1",
    "KBNK": "8/8/3k4/8/8/8/8/2B1KN2 w - - 0 1",
    "KPK promotion": "8/P6k/8/8/8/8/8/K7 w - - 0 1",
    "KPK opposition": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
}


def play_out(ours: chess.engine.SimpleEngine, stockfish: chess.engine.SimpleEngine, fen: str,
             movetime: float, stockfish_movetime: float) -> chess.Board:
    board = chess.Board(fen)
    while not board.is_game_over(claim_draw=True):
        engine, seconds = (ours, movetime) if board.turn == chess.WHITE else (stockfish, stockfish_movetime)
        board.push(engine.play(board, chess.engine.Limit(time=seconds)).move)
    return board


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--path", default=str(ROOT), help="the project tree whose engine plays (default this one)")
    ap.add_argument("--movetime", type=float, default=0.1, help="the engine's seconds a move")
    ap.add_argument("--stockfish-movetime", type=float, default=0.05, help="Stockfish's seconds a move")
    args = ap.parse_args()
    root = Path(args.path).resolve()
    ours = chess.engine.SimpleEngine.popen_uci([str(root / ".venv" / "bin" / "python"), "-m", "superchess.cli",
                                                "engine"], cwd=root)
    stockfish = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    won = 0
    try:
        for name, fen in ENDINGS.items():
            board = play_out(ours, stockfish, fen, args.movetime, args.stockfish_movetime)
            outcome = board.outcome(claim_draw=True)
            won += outcome.winner == chess.WHITE
            print(f"{name:16s} {outcome.result():7s} {outcome.termination.name.lower():21s} "
                  f"after {board.ply()} plies", flush=True)
    finally:
        ours.quit()
        stockfish.quit()
    print(f"won {won} of {len(ENDINGS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
