"""Perft throughput benchmark: leaf nodes per second of bulk-counting perft.

Measures, in one run:

1. Orthodox chess ("chess" variant) with our rules core vs python-chess, on the same positions and
   depths: the start position, Kiwipete and positions 3-6 of the Chess Programming Wiki perft
   suite. For each: both node counts (they must agree), both nodes/s and the ratio ours/python-chess.
2. Super Chess 16x16 ("super16") with our rules core: perft from the start position and from a
   reproducible middlegame (30 seeded random plies from the start; its FEN is printed), with the
   ratio of super16 nodes/s to python-chess's aggregate 8x8 nodes/s.

Both sides count leaves the same way: the last ply is counted from the legal move list, not
played. Each measurement is the best of a few repetitions (time.perf_counter). Because of bulk
counting, leaf nodes/s grows with the number of legal moves per position (about 100 in super16,
about 35 in chess), so the tables also give "gen/s": legal move lists generated per second (the
positions at depths 0..d-1), which compares the cost per position independently of branching.

Run from the project root:

    .venv/bin/python bench/perft.py            # full depths, about a minute
    .venv/bin/python bench/perft.py --quick    # smaller depths, a few seconds
"""
from __future__ import annotations

import argparse
import math
import platform
import random
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root, for tests.*
from superchess.rules import Board  # noqa: E402
from superchess.rules import get_variant  # noqa: E402
from superchess.rules.core.fen import get_fen, set_fen  # noqa: E402
from superchess.rules.core.perft import perft  # noqa: E402
from superchess.rules.core.position import Position  # noqa: E402
from tests.oracles.chess_perft import KIWIPETE, POS3, POS4, POS5, POS6, START, ref_perft  # noqa: E402

# (name, FEN, depth, quick depth)
ORTHODOX = [
    ("start", START, 4, 3),
    ("kiwipete", KIWIPETE, 4, 2),
    ("pos3", POS3, 5, 4),
    ("pos4", POS4, 4, 3),
    ("pos5", POS5, 3, 2),
    ("pos6", POS6, 3, 2),
]
SUPER16_DEPTH, SUPER16_QUICK_DEPTH = 3, 2
MIDDLEGAME_PLIES, MIDDLEGAME_SEED = 30, 2024


def best_of(repeats: int, fn, *args) -> tuple[int, float]:
    """(result, best wall time in seconds) over `repeats` runs."""
    best = float("inf")
    result = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - t0)
    return result, best


def our_position(variant: str, fen: str) -> Position:
    pos = Position(get_variant(variant))
    set_fen(pos, fen)
    return pos


def super16_middlegame() -> str:
    """The FEN after MIDDLEGAME_PLIES seeded random plies from the super16 start (reproducible:
    moves are chosen from the legal list sorted by text)."""
    rng = random.Random(MIDDLEGAME_SEED)
    board = Board("super16")
    for _ in range(MIDDLEGAME_PLIES):
        moves = board.legal_moves
        if not moves or board.is_game_over():
            raise RuntimeError(f"the random game ended early at {board.fen()}")
        board.push(rng.choice(moves))
    return board.fen()


def generations(pos: Position, depth: int) -> int:
    """How many legal move lists perft(depth) generates: the positions at depths 0..depth-1."""
    return sum(perft(pos, k) for k in range(depth))


def rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds / 1e3:8.0f}k"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller depths (a few seconds in all)")
    ap.add_argument("--repeats", type=int, default=None,
                    help="repetitions per measurement, best time kept (default 3, or 5 with --quick)")
    args = ap.parse_args(argv)
    repeats = args.repeats or (5 if args.quick else 3)
    started = time.perf_counter()

    print(f"perft benchmark{' (--quick)' if args.quick else ''}: best of {repeats}; "
          f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"python-chess {chess.__version__}, {platform.machine()}")
    print()
    print("Orthodox chess: ours vs python-chess (leaf nodes per second)")
    print(f"{'position':<10} {'depth':>5} {'nodes':>10} {'ours n/s':>10} {'p-c n/s':>10} {'ours/p-c':>8} "
          f"{'ours gen/s':>10} {'p-c gen/s':>10}")
    ok = True
    ratios = []
    our_nodes = our_time = ref_nodes = ref_time = gens_8x8 = 0.0
    for name, fen, depth, quick_depth in ORTHODOX:
        d = quick_depth if args.quick else depth
        pos = our_position("chess", fen)
        ours, t_ours = best_of(repeats, perft, pos, d)
        assert get_fen(pos) == fen
        ref, t_ref = best_of(repeats, ref_perft, chess.Board(fen), d)
        gens = generations(pos, d)
        gens_8x8 += gens
        ratios.append((ours / t_ours) / (ref / t_ref))
        flag = "" if ours == ref else f"  MISMATCH: python-chess counts {ref}"
        ok &= ours == ref
        our_nodes += ours
        our_time += t_ours
        ref_nodes += ref
        ref_time += t_ref
        print(f"{name:<10} {d:>5} {ours:>10} {rate(ours, t_ours):>10} {rate(ref, t_ref):>10} "
              f"{(ours / t_ours) / (ref / t_ref):>7.2f}x {rate(gens, t_ours):>10} {rate(gens, t_ref):>10}{flag}")
    ours_rate, ref_rate = our_nodes / our_time, ref_nodes / ref_time
    orthodox_ratio = ours_rate / ref_rate
    print(f"{'aggregate':<10} {'':>5} {int(our_nodes):>10} {rate(our_nodes, our_time):>10} "
          f"{rate(ref_nodes, ref_time):>10} {orthodox_ratio:>7.2f}x {rate(gens_8x8, our_time):>10} "
          f"{rate(gens_8x8, ref_time):>10}")
    geomean = math.prod(ratios) ** (1 / len(ratios))
    print(f"(aggregate = total nodes / total best time: ours {our_time:.2f}s, python-chess {ref_time:.2f}s; "
          f"geometric mean of the per-position ratios {geomean:.2f}x)")
    ref_gen_rate = gens_8x8 / ref_time

    print()
    print("super16 (16x16): ours, against python-chess's aggregate 8x8 rate "
          f"({ref_rate / 1e3:.0f}k n/s)")
    d16 = SUPER16_QUICK_DEPTH if args.quick else SUPER16_DEPTH
    middlegame = super16_middlegame()
    print(f"middlegame = {MIDDLEGAME_PLIES} random plies from the start (seed {MIDDLEGAME_SEED}):")
    print(f"  {middlegame}")
    print(f"{'position':<10} {'depth':>5} {'nodes':>10} {'n/s':>10} {'time':>8} {'/p-c 8x8':>8} "
          f"{'gen/s':>10} {'/p-c 8x8':>8}")
    s16_nodes = s16_time = s16_gens = 0.0
    for name, fen in (("start", get_variant("super16").start_fen), ("middlegame", middlegame)):
        pos = our_position("super16", fen)
        nodes, t = best_of(repeats, perft, pos, d16)
        assert get_fen(pos) == fen
        gens = generations(pos, d16)
        s16_nodes += nodes
        s16_time += t
        s16_gens += gens
        print(f"{name:<10} {d16:>5} {nodes:>10} {rate(nodes, t):>10} {t:>7.3f}s {(nodes / t) / ref_rate:>7.2f}x "
              f"{rate(gens, t):>10} {(gens / t) / ref_gen_rate:>7.2f}x")
    s16_rate = s16_nodes / s16_time
    super16_ratio = s16_rate / ref_rate
    s16_gen_ratio = (s16_gens / s16_time) / ref_gen_rate
    print(f"{'aggregate':<10} {'':>5} {int(s16_nodes):>10} {rate(s16_nodes, s16_time):>10} "
          f"{s16_time:>7.3f}s {super16_ratio:>7.2f}x {rate(s16_gens, s16_time):>10} {s16_gen_ratio:>7.2f}x")

    print()
    print("Summary")
    print(f"  (a) orthodox chess, ours / python-chess:        {orthodox_ratio:.2f}x "
          f"({ours_rate / 1e3:.0f}k vs {ref_rate / 1e3:.0f}k leaf nodes/s; per-position geometric mean "
          f"{geomean:.2f}x)")
    print(f"  (b) super16 (ours) / python-chess 8x8:          {super16_ratio:.2f}x "
          f"({s16_rate / 1e3:.0f}k vs {ref_rate / 1e3:.0f}k leaf nodes/s)")
    print(f"      per generated move list (gen/s) instead:  {s16_gen_ratio:.2f}x "
          f"({s16_gens / s16_time / 1e3:.0f}k vs {ref_gen_rate / 1e3:.0f}k)")
    print(f"  node counts {'agree' if ok else 'DISAGREE'} with python-chess; "
          f"total run time {time.perf_counter() - started:.1f}s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
