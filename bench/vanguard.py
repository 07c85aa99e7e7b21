"""Vanguard on the core: legal-move-list time and perft 2 of `DiagramCorePosition` on the start
position and a reproducible middlegame (40 seeded random plies), best of a few repetitions; the
perft counts are checked against the tests' reference diagram position (an oracle for counts, not
for speed: it walks with the core's XBetza walker).

    .venv/bin/python bench/vanguard.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root, for tests.*
from superchess.rules.diagram.fen import get_fen, set_fen  # noqa: E402
from superchess.rules.diagram.position import DiagramCorePosition  # noqa: E402
from superchess.rules.diagram.variant import get_diagram_variant  # noqa: E402
from tests.oracles.diagram import DiagramPosition  # noqa: E402


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
    print(f"{'position':<11}{'moves':>6}{'legal ms':>10}{'perft 2':>9}{'perft s':>9}")
    for name, fen in (("start", rules.start_fen), ("middlegame", middlegame)):
        core, old = DiagramCorePosition(rules), DiagramPosition(rules)
        set_fen(core, fen)
        set_fen(old, fen)
        tc = best(core.legal)
        t = time.perf_counter()
        nc = perft(core, 2)
        pc = time.perf_counter() - t
        assert nc == perft(old, 2), "perft differs from the oracle"
        print(f"{name:<11}{len(core.legal()):>6}{tc * 1000:>10.2f}{nc:>9}{pc:>9.2f}")


if __name__ == "__main__":
    main()
