"""InterGrid legal-move listing: microseconds per `Board("intergrid").legal_moves` at the start and
in seeded random middlegames, at a turn's start (square moves) and after the square move (point
moves and `end`). Uses only the public Board API, so it runs on any checkout:

    .venv/bin/python bench/intergrid.py                      # this checkout
    PYTHONPATH=../other-worktree .venv/bin/python bench/intergrid.py   # another one, to compare
    .venv/bin/python bench/intergrid.py --search       # the engine: depth and nodes/s per budget
    .venv/bin/python bench/intergrid.py --make         # the position: make + unmake per move
"""
from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

if "PYTHONPATH" not in os.environ:  # else the checkout it names
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from make_timing import turn_make_ns
from superchess.rules import Board

MIDDLEGAME_TURNS = (10, 20, 30)
REPEATS = 30
SEARCH_BUDGETS_MS = (1000, 5000)
MAKE_REPEATS = 200


def listing_us(b: Board) -> float:
    """Best of REPEATS fresh listings (the board's cache cleared), in microseconds."""
    best = float("inf")
    for _ in range(REPEATS):
        b._legal_cache = None
        t0 = time.perf_counter()
        _ = b.legal_moves
        best = min(best, time.perf_counter() - t0)
    return best * 1e6


def positions() -> list[tuple[str, Board]]:
    out = [("start", Board("intergrid"))]
    for seed, turns in enumerate(MIDDLEGAME_TURNS):
        rng = random.Random(seed)
        b = Board("intergrid")
        while len(b.turn_texts()) < turns and b.legal_moves:
            b.push(rng.choice(b.legal_moves))
            if b.moves_in_turn:  # finish the turn with a point move or `end`
                b.push(rng.choice(b.legal_moves))
        out.append((f"middlegame {turns} turns", b))
    return out


def search() -> None:
    """Whole turns searched (`best_turn`, capture search included) from the start and from the
    middlegames within each budget: depth reached, nodes, nodes per second."""
    from superchess.engine.intergrid_search import MAX_TURNS, best_turn
    for name, b in positions():
        for ms in SEARCH_BUDGETS_MS:
            t0 = time.monotonic()
            r = best_turn(b, MAX_TURNS, ms)
            seconds = time.monotonic() - t0
            print(f"{name:24s} {ms / 1000:4.1f} s: depth {r.depth} (turns), {r.nodes:7d} nodes, "
                  f"{r.nodes / seconds / 1000:5.1f}k nodes/s, best {' '.join(r.moves[:2])}")


def make_unmake() -> None:
    """The position's make + unmake (and end_turn + unmake) per move, best of MAKE_REPEATS rounds
    over every pseudo-legal move at the turn start (square moves) and after the square move (point
    moves), in nanoseconds."""
    total = 0.0
    for name, b in positions():
        pos = b.position
        figures = []
        for part in (0, 1):
            moves = pos.moves()
            ns = turn_make_ns(pos, moves, MAKE_REPEATS)
            figures.append((ns, len(moves)))
            total += ns
            if part == 0:
                pos.make(moves[0])
        pos.unmake()
        print(f"{name:24s} " + "   ".join(f"{ns:6.0f} ns ({n:3d} moves)" for ns, n in figures))
    print(f"sum {total:.0f} ns (make, end_turn and two unmakes per move)")


def main() -> None:
    import superchess
    print(f"code: {Path(superchess.__file__).parent}")
    if "--search" in sys.argv[1:]:
        search()
        return
    if "--make" in sys.argv[1:]:
        make_unmake()
        return
    total = 0.0
    for name, b in positions():
        start = listing_us(b)
        n_start = len(b.legal_moves)
        b.push(b.legal_moves[0])
        mid = listing_us(b)
        n_mid = len(b.legal_moves)
        b.pop()
        total += start + mid
        print(f"{name:24s} turn start {start:8.0f} us ({n_start:3d} moves)   "
              f"after the square move {mid:8.0f} us ({n_mid:3d} moves)")
    print(f"sum {total:.0f} us")


if __name__ == "__main__":
    main()
