"""Tiling Rider legal-move listing: `Board("tilingrider", fen).legal_moves` (every move that starts a
legal completion of the turn, plus `end`) on the start position and seeded middlegames, through the
public API only, so the same script measures any build (`PYTHONPATH=<other checkout> python
bench/tiling.py` for an older one). Each figure is the best of a few repetitions on a fresh board
(no cached list).

    .venv/bin/python bench/tiling.py [--repeats 5]
"""
from __future__ import annotations

import argparse
import random
import time

from superchess.rules import Board


def middlegame(seed: int, turns: int) -> str:
    """The FEN after `turns` seeded random turns from the start (at a turn start)."""
    rng = random.Random(seed)
    b = Board("tilingrider")
    while len(b.turn_texts()) < turns or b.moves_in_turn:
        moves = b.legal_moves
        ends = [m for m in moves if m.text == "end"]
        b.push(ends[0] if ends and rng.random() < 0.4 else rng.choice([m for m in moves if m.text != "end"] or moves))
    return b.fen()


def best_time(fen: str, repeats: int) -> tuple[float, int]:
    best, n = float("inf"), 0
    for _ in range(repeats):
        b = Board("tilingrider", fen)
        t0 = time.perf_counter()
        n = len(b.legal_moves)
        best = min(best, time.perf_counter() - t0)
    return best, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    start = Board("tilingrider").fen()
    cases = [("start (4! turn)", start), ("start, 2 moves made", start + " | a4a5 c4c5")]
    cases += [(f"middlegame {seed}", middlegame(seed, 6 + 2 * seed)) for seed in range(3)]
    for name, fen in cases:
        t, n = best_time(fen, args.repeats)
        print(f"{name:24s} {n:4d} moves  {t * 1000:9.2f} ms   {fen}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
