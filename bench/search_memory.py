"""The native search's memory (issue 21, target 5): what a searcher holds (its transposition table,
at most the Hash megabytes, plus the move-ordering memory, native_search.MEMORY_CONSTANT_BYTES at
most), and the process's resident memory over 1,000 searches in one process (`choose_move`, the
server's entry point: each replays its game, searches with its level's Hash and answers), sampled
every 100 searches. The games cycle through chess, super16 and Superchess positions of seeded
random plies; the level cycles 5-8 (Hash 16-128 MB) with a 300 ms clock share.

    .venv/bin/python bench/search_memory.py [--searches 1000]
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from superchess.engine import native_search  # noqa: E402
from superchess.engine.evaluate import evaluator_for  # noqa: E402
from superchess.engine.levels import get_level  # noqa: E402
from superchess.engine.families import choose_move  # noqa: E402
from superchess import _native  # noqa: E402
from superchess.rules import Board  # noqa: E402

VARIANTS = ("chess", "super16", "superchess")


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def game(variant: str, plies: int, rng: random.Random) -> list[str]:
    board = Board(variant)
    moves = []
    for _ in range(plies):
        legal = board.legal_moves
        if not legal or board.is_game_over():
            break
        text = rng.choice(legal).text
        board.push_text(text)
        if board.is_game_over():
            board.pop()
            break
        moves.append(text)
    return moves


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--searches", type=int, default=1000)
    args = ap.parse_args(argv)
    pos, _ = Board("super16").native_position()
    ev = native_search.evaluation(evaluator_for(pos.variant, pos.rosters))
    for mb in (1, 16, 128):
        s = _native.Searcher(mb)
        before = s.nbytes()
        s.search(pos, ev, depth=8)
        print(f"Searcher({mb:>3} MB) holds {before / 2**20:8.2f} MB before a search, {s.nbytes() / 2**20:8.2f} MB "
              f"after (Hash + {(s.nbytes() - mb * 2**20) / 2**20:+.2f} MB)")
    rng = random.Random(7)
    print(f"\n{'searches':>8} {'RSS MB':>8}")
    first = None
    for i in range(1, args.searches + 1):
        variant = VARIANTS[i % len(VARIANTS)]
        level = 5 + i % 4
        choose_move(variant, None, game(variant, rng.randrange(0, 40), rng), None, level, 300 * 40, 0, seed=i)
        if i % 100 == 0:
            rss = rss_mb()
            first = first or rss
            print(f"{i:>8} {rss:>8.1f}", flush=True)
    print(f"\ngrowth from 100 to {args.searches} searches: {rss_mb() - first:+.1f} MB "
          f"(hash sizes used: {sorted({get_level(n).hash_mb for n in (5, 6, 7, 8)})} MB, "
          f"searchers kept: at most {native_search.KEEP})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
