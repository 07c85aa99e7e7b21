"""Labelled orthodox chess positions for training the evaluation network (`net_train.py`).

Stockfish plays itself at a fixed node count from random openings (4-9 random plies, then now and
then a random move before ply 30, so that games spread); every position it searches from ply 8 on
that is not in check and whose best move is not a capture is written with Stockfish's score
(centipawns, White's point of view) and the game's result (1, 0.5 or 0 for White), one JSON object
a line. Talks UCI over pipes directly: python-chess's engine wrapper costs more than the search.

    .venv/bin/python bench/net_data.py --out /tmp/net1.jsonl --positions 500000 --seed 1
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time

import chess


class Stockfish:
    def __init__(self, path: str) -> None:
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        self.p.stdin.write(line + "\n")

    def wait(self, token: str) -> str:
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith(token):
                return line

    def search(self, fen: str, moves: list[str], nodes: int) -> tuple[str, int | None]:
        """The best move and the score (side to move's view; None for a mate score)."""
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go nodes {nodes}")
        score = None
        while True:
            line = self.p.stdout.readline()
            if line.startswith("bestmove"):
                return line.split()[1], score
            if line.startswith("info") and " score " in line:
                parts = line.split()
                i = parts.index("score")
                score = int(parts[i + 2]) if parts[i + 1] == "cp" else None

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")


def play(sf: Stockfish, rng: random.Random, nodes: int, max_plies: int) -> tuple[list[tuple[str, int]], float]:
    """One game: the kept (fen, White's score) pairs and White's result."""
    board = chess.Board()
    for _ in range(rng.randint(4, 9)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    start, played = board.fen(), []
    sf.new_game()
    kept = []
    while board.outcome(claim_draw=True) is None and board.ply() < max_plies:
        best, score = sf.search(start, played, nodes)
        move = chess.Move.from_uci(best)
        if board.ply() >= 8 and score is not None and not board.is_check() and not board.is_capture(move) \
                and abs(score) <= 2500:
            kept.append((board.fen(), score if board.turn == chess.WHITE else -score))
        if board.ply() < 30 and rng.random() < 0.05:
            move = rng.choice(list(board.legal_moves))
        board.push(move)
        played.append(move.uci())
    outcome = board.outcome(claim_draw=True)
    result = 0.5 if outcome is None or outcome.winner is None else float(outcome.winner)
    return kept, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--positions", type=int, default=100_000)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sf = Stockfish(args.stockfish)
    written, games, t0 = 0, 0, time.monotonic()
    with open(args.out, "a") as out:
        while written < args.positions:
            kept, result = play(sf, rng, args.nodes, args.max_plies)
            for fen, cp in kept:
                out.write(json.dumps({"fen": fen, "cp": cp, "result": result}) + "\n")
            written += len(kept)
            games += 1
            if games % 20 == 0:
                out.flush()
                print(f"\r{games} games, {written} positions, {time.monotonic() - t0:.0f}s", end="",
                      file=sys.stderr, flush=True)
    sf.send("quit")
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
