"""Vanguard on the core: legal-move-list time and perft 2, core (`DiagramCorePosition`) against the
earlier stand-alone implementation (tests/rules/diagram_oracle.py), on the start position and a
reproducible middlegame (40 seeded random plies). Best of a few repetitions.

    .venv/bin/python bench/vanguard.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root, for tests.*
from superchess.rules.diagram_core import DiagramCorePosition  # noqa: E402
from superchess.rules.diagram_fen import get_fen, set_fen  # noqa: E402
from superchess.rules.diagram_rules import get_diagram_variant  # noqa: E402
from tests.rules.diagram_oracle import DiagramPosition  # noqa: E402


def best(f, repeats: int = 5, inner: int = 20) -> float:
    """Best time of one call of `f`, in seconds."""
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(inner):
            f()
        out.append((time.perf_counter() - t) / inner)
    return min(out)


def perft(pos, depth: int) -> int:
    moves = pos.legal()
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        pos.make(m)
        n += perft(pos, depth - 1)
        pos.unmake()
    return n


def main() -> None:
    rules = get_diagram_variant("vanguard")
    oracle = DiagramPosition(rules)
    set_fen(oracle, rules.start_fen)
    rng = random.Random(2024)
    for _ in range(40):
        oracle.make(rng.choice(sorted(oracle.legal())))
    middlegame = get_fen(oracle)
    print(f"middlegame = 40 random plies (seed 2024): {middlegame}")
    print(f"{'position':<11}{'moves':>6}{'core ms':>9}{'old ms':>8}{'old/core':>9}"
          f"{'perft 2':>9}{'core s':>8}{'old s':>7}")
    for name, fen in (("start", rules.start_fen), ("middlegame", middlegame)):
        core, old = DiagramCorePosition(rules), DiagramPosition(rules)
        set_fen(core, fen)
        set_fen(old, fen)
        tc, to = best(core.legal), best(old.legal)
        t = time.perf_counter()
        nc = perft(core, 2)
        pc = time.perf_counter() - t
        t = time.perf_counter()
        no = perft(old, 2)
        po = time.perf_counter() - t
        assert nc == no, (nc, no)
        print(f"{name:<11}{len(core.legal()):>6}{tc * 1000:>9.2f}{to * 1000:>8.2f}{to / tc:>8.2f}x"
              f"{nc:>9}{pc:>8.2f}{po:>7.2f}")


if __name__ == "__main__":
    main()
