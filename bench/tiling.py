"""Tiling Rider legal-move listing: `Board("tilingrider", fen).legal_moves` (every move that starts a
legal completion of the turn, plus `end`) on the start position and seeded middlegames, through the
public API only, so the same script measures any build (`PYTHONPATH=<other checkout> python
bench/tiling.py` for an older one). Each figure is the best of a few repetitions on a fresh board
(no cached list).

    .venv/bin/python bench/tiling.py [--repeats 5]
    .venv/bin/python bench/tiling.py --make    # the position: make + unmake per legal move
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


def make_ns(fen: str, repeats: int) -> tuple[float, int]:
    """make + end_turn + two unmakes per legal move of the position, best of `repeats` rounds, in ns."""
    pos = Board("tilingrider", fen).position
    moves = pos.legal()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for m in moves:
            pos.make(m)
            pos.end_turn()
            pos.unmake()
            pos.unmake()
        best = min(best, time.perf_counter() - t0)
    return best / len(moves) * 1e9, len(moves)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--make", action="store_true", help="time make/unmake instead of legal_moves (200 rounds)")
    args = ap.parse_args(argv)
    start = Board("tilingrider").fen()
    cases = [("start (4! turn)", start), ("start, 2 moves made", start + " | a4a5 c4c5")]
    cases += [(f"middlegame {seed}", middlegame(seed, 6 + 2 * seed)) for seed in range(3)]
    for name, fen in cases:
        if args.make:
            ns, n = make_ns(fen, 200)
            print(f"{name:24s} {n:4d} moves  {ns:7.0f} ns (make, end_turn and two unmakes per move)")
            continue
        t, n = best_time(fen, args.repeats)
        print(f"{name:24s} {n:4d} moves  {t * 1000:9.2f} ms   {fen}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
