"""Position texts written to hurt: what reading each one costs, in time and peak memory, and how it
ends (a Board, or the exception's type and message). Each case runs in a fresh interpreter started
in the checkout given, so the same script measures another build:

    .venv/bin/python bench/hostile_text.py                        # this checkout
    .venv/bin/python bench/hostile_text.py --checkout /tmp/base   # another one (e.g. `git archive` of a commit)

Cases: a chess FEN with a rank `100000000` (an empty-square count larger than the rank) and one
with a 20-digit count; a Tiling Rider FEN with the turn allowance 2,000,000, read and then its first
legal-move listing.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

CHESS = "rnbqkbnr/pppppppp/{}/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CASES = {
    "chess rank 100000000": ("chess", CHESS.format("100000000")),
    "chess rank 10000000000000000000": ("chess", CHESS.format("10000000000000000000")),
    "tilingrider allowance 2000000": ("tilingrider", None),
}

# run in the child: read the text (then list the legal moves), report time, peak RSS and the ending
CHILD = """
import json, resource, sys, time
from superchess.rules import Board
variant, fen = sys.argv[1], sys.argv[2]
if fen == "None":
    fen = Board(variant).fen().replace(" w 4! 0 1", " w 2000000 0 2")
t0 = time.perf_counter()
try:
    n = len(Board(variant, fen).legal_moves)
    end = f"a Board, {n} legal moves"
except Exception as e:
    end = f"{type(e).__name__}: {str(e)[:90]}"
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "end": end}))
"""


def run(checkout: Path, variant: str, fen: str | None) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, variant, str(fen)], cwd=checkout, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    baseline = run(args.checkout, "chess", CHESS.format("8"))
    print(f"{'case':34} {'seconds':>8} {'peak MB':>8}  ending")
    print(f"{'(plain chess start, for scale)':34} {baseline['seconds']:8.3f} {baseline['peak_mb']:8.0f}  {baseline['end']}")
    for name, (variant, fen) in CASES.items():
        r = run(args.checkout, variant, fen)
        print(f"{name:34} {r['seconds']:8.3f} {r['peak_mb']:8.0f}  {r['end']}")


if __name__ == "__main__":
    main()
