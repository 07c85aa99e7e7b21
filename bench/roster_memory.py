"""Memory left behind by roster previews: in a fresh interpreter, what the server's
`POST /api/rosters/preview` computes (both sides' start-position check, the piece's start moves and
its empty-board destinations) for many distinct maximal super16 rosters (all 11 piece types
reprogrammed, each with 64 slide vectors of the shortest lengths: the largest tables), reporting the
process's resident memory growth over the run. The child runs in the checkout given, so the same
script measures another build:

    .venv/bin/python bench/roster_memory.py [--rosters 100]
    .venv/bin/python bench/roster_memory.py --checkout /tmp/base --stop-above-mb 3000   # e.g. `git archive` of a commit

A run stops early when the child's memory passes --stop-above-mb (a build whose caches are not
bounded by bytes grows by gigabytes).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

CHILD = """
import gc, random, resource, sys, time
from superchess.rules import Board, get_variant
from superchess.rules.game.preview import empty_board_destinations, roster_problem, start_moves
from superchess.rules.program import Program, Roster

def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024

count, stop_above = int(sys.argv[1]), float(sys.argv[2])
v = get_variant("super16")
short = [(x, y) for x in range(-4, 5) for y in range(-4, 5) if (x, y) != (0, 0)]  # 80 vectors
Board("super16")  # the default tables every game uses: part of the baseline
base = rss_mb()
t0 = time.perf_counter()
for i in range(count):
    rng = random.Random(i)
    roster = Roster({letter: Program("slide", tuple(rng.sample(short, 64))) for letter in v.by_letter})
    problem = roster_problem(v, roster, 0) or roster_problem(v, roster, 1)
    if not problem:
        start_moves(v, roster, "N")
    empty_board_destinations(v, roster, "N", v.geometry.parse_cell("h8"))
    gc.collect()
    now = rss_mb()
    if (i + 1) % 10 == 0 or now > stop_above:
        print(f"after {i + 1:3d} rosters: RSS +{now - base:7.1f} MB  ({(time.perf_counter() - t0) / (i + 1):.2f} s per preview)",
              flush=True)
    if now > stop_above:
        print(f"stopped: RSS above {stop_above:.0f} MB")
        break
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"baseline RSS {base:.0f} MB; peak {peak:.0f} MB (+{peak - base:.0f}); at the end +{rss_mb() - base:.0f} MB")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--rosters", type=int, default=100)
    parser.add_argument("--stop-above-mb", type=float, default=4000)
    args = parser.parse_args()
    subprocess.run([sys.executable, "-c", CHILD, str(args.rosters), str(args.stop_above_mb)], cwd=args.checkout,
                   check=True)


if __name__ == "__main__":
    main()
