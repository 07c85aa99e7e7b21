"""Engine benchmark: search speed (nodes per second) and depth reached within 1, 5 and 10 seconds.

Five super16 positions (the start, three middlegames reached by seeded play, an endgame) and five
orthodox chess positions. Each position is searched once with a hard time limit of the longest
budget and no soft limit; the depth reached within a budget is the deepest iteration that finished
by then (iterative deepening is the same search whatever the budget). Nodes count every visited
position, quiescence included. The transposition table is fresh for each position.

Run from the project root:

    .venv/bin/python bench/engine.py            # budgets 1, 5, 10 s: a little under 2 minutes
    .venv/bin/python bench/engine.py --quick    # budgets 0.2, 0.5, 1 s: about 10 seconds
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from superchess.engine import play
from superchess.engine.play import make_board, search_position
from superchess.engine.search import Limits

SUPER16 = [
    ("start", None),
    # 30 plies of level-3 self-play (seed 1)
    ("middlegame A", ("r1buabsqk1ba2nr/p1pppfppppp2p1p/2n8f2p1/1p10p3/11u4/16/16/11U4/11i4/5U8I1/16/16/"
                     "4P7P3/5F10/P1PP2PbPPPF1PPP/RNB1ABSQK1BA1BNR w KQkq - 0 16")),
    # bench/perft.py's middlegame: 30 seeded random plies (seed 2024)
    ("middlegame B", ("rnb1absqk2a3r/pppppfp1p1p2p2/7p2f2n2/9p2p1pp/5i7u2/16/7b1u6/8B7/16/16/b15/2U7I5/"
                     "9P2P2A/5F5F4/PPPPP1PPP1P2PPP/RNB1ABSQK3UBNR w KQkq - 2 16")),
    # 70 plies of level-3 self-play (seed 2)
    ("middlegame C", ("rn1uabs1k1b2b1r/ppp1pfpp1p1f1ppp/3p4p4n2/10p5/7Ia7/16/16/16/16/16/9P6/1i11b2/"
                     "7P5N2/1P6P7/PBPPPFPU1BP1PPPP/RN2ABS3KA1B1R w - - 9 36")),
    ("endgame", "8k7/3p7p4/2p13/16/7b8/12u3/16/16/10S5/16/16/3R12/4PP10/6P9/16/8K7 w - - 0 60"),
]
CHESS = [
    ("start", None),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("middlegame", "r1bq1rk1/pp2bppp/2n2n2/3p4/3P4/2NB1N2/PP3PPP/R1BQ1RK1 w - - 0 10"),
    ("cpw pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
]


def measure(variant: str, fen: str | None, budgets: list[float]) -> dict:
    board = make_board(variant, fen, None)
    play.clear_tables()
    iterations: list[tuple[int, float, int]] = []
    board.legal_codes()  # tables compiled before the clock starts
    t0 = time.monotonic()
    move, r = search_position(board, Limits(hard_ms=budgets[-1] * 1000), hash_mb=64, t0=t0,
                              info=lambda res: iterations.append((res.depth, res.elapsed, res.nodes)))
    reached = [max((d for d, e, _ in iterations if e <= b), default=0) for b in budgets]
    return {"nodes": r.nodes, "time": r.elapsed, "nps": r.nodes / r.elapsed if r.elapsed else 0,
            "reached": reached, "move": move}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="budgets 0.2, 0.5 and 1 s instead of 1, 5 and 10 s")
    args = ap.parse_args(argv)
    budgets = [0.2, 0.5, 1.0] if args.quick else [1.0, 5.0, 10.0]
    print(f"engine benchmark{' (--quick)' if args.quick else ''}: Python {platform.python_version()} "
          f"({platform.python_implementation()}), {platform.machine()}")
    heads = " ".join(f"{'d@' + format(b, 'g') + 's':>7}" for b in budgets)
    summary = {}
    for variant, positions in (("super16", SUPER16), ("chess", CHESS)):
        print(f"\n{variant}")
        print(f"{'position':<14} {'nodes':>9} {'nodes/s':>9} {heads}  best move")
        rates = []
        for name, fen in positions:
            m = measure(variant, fen, budgets)
            rates.append(m["nps"])
            cols = " ".join(f"{d:>7}" for d in m["reached"])
            print(f"{name:<14} {m['nodes']:>9} {m['nps']:>9.0f} {cols}  {m['move']}", flush=True)
            summary[(variant, name)] = m
        print(f"{'mean':<14} {'':>9} {sum(rates) / len(rates):>9.0f}")
    mids = [summary[("super16", n)] for n, _ in SUPER16 if n.startswith("middlegame")]
    print(f"\nsuper16 middlegames: {min(m['nps'] for m in mids):.0f}-{max(m['nps'] for m in mids):.0f} nodes/s; "
          f"depth within {budgets[1]:g} s: {', '.join(str(m['reached'][1]) for m in mids)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
