"""Tiling Rider legal-move listing: `Board("tilingrider", fen).legal_moves` (every move that starts a
legal completion of the turn, plus `end`) on the start position and seeded middlegames, through the
public API only, so the same script measures any build (`PYTHONPATH=<other checkout> python
bench/tiling.py` for an older one). Each figure is the best of a few repetitions on a fresh board
(no cached list).

    .venv/bin/python bench/tiling.py [--repeats 5]
    .venv/bin/python bench/tiling.py --make    # the position: make + unmake per legal move
    .venv/bin/python bench/tiling.py --in-check [--positions 12 --min-turn 30]   # long turns in check, mid-turn
    .venv/bin/python bench/tiling.py --search  # the engine's turn search: nodes and nodes/s per budget
"""
from __future__ import annotations

import argparse
import random
import time

from make_timing import turn_make_ns
from superchess.rules import Board

SEARCH_BUDGETS_MS = (1000, 5000)


def middlegame(seed: int, turns: int) -> str:
    """The FEN after `turns` seeded random turns from the start (at a turn start)."""
    rng = random.Random(seed)
    b = Board("tilingrider")
    while len(b.turn_texts()) < turns or b.moves_in_turn:
        moves = b.legal_moves
        ends = [m for m in moves if m.text == "end"]
        b.push(ends[0] if ends and rng.random() < 0.4 else rng.choice([m for m in moves if m.text != "end"] or moves))
    return b.fen()


def best_time(fen: str, repeats: int) -> tuple[float, int]:
    best, n = float("inf"), 0
    for _ in range(repeats):
        b = Board("tilingrider", fen)
        t0 = time.perf_counter()
        n = len(b.legal_moves)
        best = min(best, time.perf_counter() - t0)
    return best, n


def make_ns(fen: str, repeats: int) -> tuple[float, int]:
    """make + end_turn + two unmakes per legal move of the position, best of `repeats` rounds, in ns."""
    pos = Board("tilingrider", fen).position
    moves = pos.legal()
    return turn_make_ns(pos, moves, repeats), len(moves)


def in_check_positions(count: int, min_turn: int) -> list[str]:
    """Mid-turn positions in check in turns of 7 or more moves with 3 or more made and 3 or more left from turn `min_turn` on, from seeded
    random games played with the position's raw moves (no turn search, so every build gets the same
    positions); one per game."""
    found: list[str] = []
    for seed in range(10_000):
        rng, pos = random.Random(seed), Board("tilingrider").position
        texts: list[str] = []
        for _ in range(3000):
            moves = pos.legal()
            if pos.in_check() and pos.made >= 3 and pos.allowance - pos.made >= 3 and pos.allowance >= 7 and pos.fullmove >= min_turn:
                found.append(f"{pos.fen()} | {' '.join(texts)}")
                break
            if not pos.in_check() and pos.made and (not moves or rng.random() < 0.12):
                pos.end_turn()
                texts = []
                continue
            if not moves or pos.made == pos.allowance:
                break  # a turn that cannot end out of check: this game stops
            m = rng.choice(moves)
            texts.append(pos.move_text(m))
            pos.make(m)
        if len(found) == count:
            return found
    return found


def offered(fen: str, budget: int) -> tuple[int, float]:
    """(moves offered by `legal_moves` with the turn search's budget set to `budget`, seconds)."""
    from superchess.rules.tiling import board as tiling_board  # here: the rest runs on older checkouts too
    tiling_board.SEARCH_BUDGET = budget
    b = Board("tilingrider", fen)
    t0 = time.perf_counter()
    n = sum(m.text != "end" for m in b.legal_moves)
    return n, time.perf_counter() - t0


def in_check(count: int, min_turn: int) -> None:
    """Per position: the moves offered with the board's budget and with ten times it (fewer offered
    with more budget: the board's offered moves it could not decide), and the times."""
    from superchess.rules.tiling import board as tiling_board
    budget = tiling_board.SEARCH_BUDGET
    total = [0, 0, 0.0, 0.0]
    for fen in in_check_positions(count, min_turn):
        n, t = offered(fen, budget)
        n10, t10 = offered(fen, budget * 10)
        raw = len(Board("tilingrider", fen).position.legal())
        total = [total[0] + n, total[1] + n10, total[2] + t, total[3] + t10]
        print(f"{raw:4d} moves  offered {n:4d} in {t:6.2f} s   with 10x budget {n10:4d} in {t10:6.2f} s   {fen}")
    print(f"total offered {total[0]} ({total[2]:.1f} s), with 10x budget {total[1]} ({total[3]:.1f} s)")
    tiling_board.SEARCH_BUDGET = budget


def search(name: str, fen: str) -> None:
    """The engine's level-8 turn search from the position, for each budget: nodes and nodes/s."""
    from superchess.engine.tiling_search import best_turn
    for ms in SEARCH_BUDGETS_MS:
        t0 = time.monotonic()
        r = best_turn(Board("tilingrider", fen), 8, ms)
        seconds = time.monotonic() - t0
        print(f"{name:24s} {ms / 1000:4.1f} s: {r.nodes:7d} nodes, {r.nodes / seconds / 1000:5.1f}k nodes/s, "
              f"best {' '.join(r.moves[:2])}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--make", action="store_true", help="time make/unmake instead of legal_moves (200 rounds)")
    ap.add_argument("--in-check", action="store_true", help="long turns in check: moves offered per search budget")
    ap.add_argument("--search", action="store_true", help="the turn search (level 8) for 1 s and 5 s per position")
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--min-turn", type=int, default=30, help="positions from this turn number on (fewer pieces)")
    args = ap.parse_args(argv)
    if args.in_check:
        in_check(args.positions, args.min_turn)
        return 0
    start = Board("tilingrider").fen()
    cases = [("start (4! turn)", start), ("start, 2 moves made", start + " | a4a5 c4c5")]
    cases += [(f"middlegame {seed}", middlegame(seed, 6 + 2 * seed)) for seed in range(3)]
    for name, fen in cases:
        if args.search:
            search(name, fen)
            continue
        if args.make:
            ns, n = make_ns(fen, 200)
            print(f"{name:24s} {n:4d} moves  {ns:7.0f} ns (make, end_turn and two unmakes per move)")
            continue
        t, n = best_time(fen, args.repeats)
        print(f"{name:24s} {n:4d} moves  {t * 1000:9.2f} ms   {fen}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
