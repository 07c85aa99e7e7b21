"""Timing shared by the multi-move-turn benchmarks (bench/intergrid.py, bench/tiling.py)."""
from __future__ import annotations

import time


def turn_make_ns(pos, moves: list[int], repeats: int) -> float:
    """make + end_turn + two unmakes per move of `moves` on `pos`, best of `repeats` rounds, in ns."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for m in moves:
            pos.make(m)
            pos.end_turn()
            pos.unmake()
            pos.unmake()
        best = min(best, time.perf_counter() - t0)
    return best / len(moves) * 1e9
