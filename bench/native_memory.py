"""Memory across the native boundary: resident memory, sampled every 1,000 games, of two
random-play loops of 10,000 games (chess, super16, Superchess and Vanguard in turn): first through
the native position alone (positions made and dropped, legal lists, make, unmake, cell changes,
the board and perft crossing the boundary), then through the public `Board` (moves listed as
`Move` objects, pushed and taken back, FEN, outcome); then a loop of games with fresh random
super16 rosters (each compiles new tables) to show the compiled tables stay bounded by the Python
table cache they hang on. Also prints the size of the native copy of each variant's default
tables.

    .venv/bin/python bench/native_memory.py [--games 10000] [--rosters 150]
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from superchess.rules import Board  # noqa: E402
from superchess.rules.core.native import native_tables  # noqa: E402
from superchess.rules.core.program import Program, Roster  # noqa: E402

VARIANTS = ("chess", "super16", "superchess", "vanguard")


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def play(board: Board, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        moves = board.legal_moves
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
        if rng.random() < 0.1:
            board.pop()
    board.fen()
    board.perft(1)


def play_position(pos, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        moves = pos.legal()
        if not moves:
            break
        m = rng.choice(moves)
        pos.changes(m)
        pos.make(m)
        if rng.random() < 0.1:
            pos.unmake()
    pos.board, pos.occ, pos.in_check(), pos.repetitions()
    pos.perft(1)


def sample(label: str, games: int, game) -> None:
    print(f"\n{games} games, {label}; RSS every {games // 10} games (MB):")
    samples = []
    for i in range(1, games + 1):
        game(i)
        if i % (games // 10) == 0:
            samples.append(rss_mb())
            print(f"  {i:6} {samples[-1]:8.1f}")
    print(f"  growth from the 2nd sample to the last: {samples[-1] - samples[1]:+.1f} MB")


def random_roster(rng: random.Random) -> Roster:
    vectors = {(rng.randint(-3, 3), rng.randint(-3, 3)) for _ in range(4)} - {(0, 0)}
    return Roster({"N": Program(rng.choice(("jump", "step", "slide")), tuple(sorted(vectors)) or ((1, 2),))})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--rosters", type=int, default=150)
    ap.add_argument("--plies", type=int, default=16)
    ap.add_argument("--core", default="native", help="native, or python for the same loop on the Python core")
    args = ap.parse_args()
    rng = random.Random(1)
    print("native tables (default rosters):")
    for v in VARIANTS:
        print(f"  {v:11} {native_tables(Board(v, core='native')._pos).nbytes() / 1e6:6.2f} MB")
    boards = {v: Board(v, core=args.core) for v in VARIANTS}
    if args.core == "native":
        sample(f"up to {args.plies} plies on native positions", args.games,
               lambda i: play_position(boards[VARIANTS[i % 4]].copy()._pos, rng, args.plies))
    sample(f"up to {args.plies} plies on {args.core} boards", args.games,
           lambda i: play(Board(VARIANTS[i % 4], core=args.core), rng, args.plies))
    if not args.rosters:
        return
    print(f"\n{args.rosters} super16 games with a fresh random roster each; RSS (MB):")
    samples = []
    for i in range(1, args.rosters + 1):
        try:
            board = Board("super16", None, (random_roster(rng), random_roster(rng)), core=args.core)
        except ValueError:  # a roster that attacks the King at the start
            continue
        play(board, rng, 4)
        if i % (args.rosters // 5) == 0:
            samples.append(rss_mb())
            print(f"  {i:6} {samples[-1]:8.1f}")


if __name__ == "__main__":
    main()
