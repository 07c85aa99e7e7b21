"""Native core benchmark: legal-move lists generated per second in perft, the native core against
the Python core and against Fairy-Stockfish and Stockfish (Debian's packages, driven over UCI;
anchors only, never runtime dependencies), all in one run.

Perft counts leaves in bulk (the last ply from the legal list, as Stockfish's `go perft` does), so
a perft of depth d generates one legal-move list per position at depths 0..d-1: lists/s is that
count (summed perft counts below d) over the wall time, which compares the cost per position
whatever the branching. Fairy-Stockfish's largest board is Grand Chess (10x10); super16 is 16x16.
Each figure is the best of N runs, the runs interleaved (every measurement once per round), so a
slow moment of the machine spreads over all of them.

Run from the project root (about two minutes; `make bench-native` installs the anchors first):

    .venv/bin/python bench/native.py [--rounds 3] [--quick]
"""
from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pyffish

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root, for tests.*
from superchess.rules import Board  # noqa: E402
from superchess.rules.core.program import Program, Roster  # noqa: E402
from tests.oracles.chess_perft import KIWIPETE, START  # noqa: E402

ENGINES = {"fairy-stockfish": "/usr/games/fairy-stockfish", "stockfish": "/usr/games/stockfish"}
SEED = 2024
# super16 with reprogrammed sliding pieces: Queens that also ride as Nightriders, Rooks that also
# slide two squares diagonally at a time
SLIDERS = Roster({"Q": Program("slide", ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1),
                                         (1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))),
                  "R": Program("slide", ((1, 0), (-1, 0), (0, 1), (0, -1), (2, 2), (-2, 2), (2, -2), (-2, -2)))})


class Uci:
    """A UCI engine as a subprocess, for `go perft`."""

    def __init__(self, path: str, variant: str | None = None) -> None:
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        if variant:
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")

    def wait(self, prefix: str) -> str:
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"engine ended before {prefix!r}")

    def perft(self, fen: str | None, depth: int) -> int:
        self.send(f"position fen {fen}" if fen else "position startpos")
        self.send(f"go perft {depth}")
        return int(self.wait("Nodes searched").split(":")[1])

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


class Measure:
    """One perft measurement: a name, a function running perft(depth), the lists it generates."""

    def __init__(self, name: str, run, depth: int, counts) -> None:
        self.name, self.run, self.depth = name, run, depth
        self.lists = sum(counts(d) for d in range(depth))
        self.best = float("inf")

    def once(self) -> None:
        t0 = time.perf_counter()
        self.run(self.depth)
        self.best = min(self.best, time.perf_counter() - t0)

    @property
    def rate(self) -> float:
        return self.lists / self.best


def ours(name: str, variant: str, fen: str | None, depth: int, core: str, rosters=None) -> Measure:
    board = Board(variant, fen, rosters, core=core)
    return Measure(name, board.perft, depth, board.perft)


def theirs(name: str, engine: Uci, fen: str | None, depth: int) -> Measure:
    return Measure(name, lambda d: engine.perft(fen, d), depth, lambda d: engine.perft(fen, d) if d else 1)


def middlegame(variant: str, plies: int, rosters=None) -> str:
    """The FEN after `plies` seeded random plies (moves chosen from the list sorted by text)."""
    rng = random.Random(SEED)
    board = Board(variant, None, rosters, core="python")
    for _ in range(plies):
        moves = board.legal_moves
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    return board.fen()


def grand_middlegame(plies: int) -> str:
    rng = random.Random(SEED)
    fen = pyffish.start_fen("grand")
    for _ in range(plies):
        moves = sorted(pyffish.legal_moves("grand", fen, []))
        if not moves:
            break
        fen = pyffish.get_fen("grand", fen, [rng.choice(moves)])
    return fen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3, help="runs of each measurement (the best counts)")
    ap.add_argument("--quick", action="store_true", help="one depth less everywhere")
    args = ap.parse_args()
    q = 1 if args.quick else 0
    missing = [name for name, path in ENGINES.items() if not shutil.which(path)]
    if missing:
        sys.exit(f"missing {', '.join(missing)}: `make bench-native` installs Debian's packages")
    fsf_grand, fsf_chess, sf = Uci(ENGINES["fairy-stockfish"], "grand"), Uci(ENGINES["fairy-stockfish"]), \
        Uci(ENGINES["stockfish"])
    grand_mid = grand_middlegame(30)
    s16_mid = middlegame("super16", 30)
    sliders = (SLIDERS, SLIDERS)
    measures = {
        "grand start, Fairy-Stockfish": theirs("grand", fsf_grand, None, 4 - q),
        "grand middlegame, Fairy-Stockfish": theirs("grand", fsf_grand, grand_mid, 4 - q),
        "super16 start, native": ours("s16", "super16", None, 4 - q, "native"),
        "super16 middlegame, native": ours("s16", "super16", s16_mid, 4 - q, "native"),
        "super16 start, Python": ours("s16", "super16", None, 3 - q, "python"),
        "super16 middlegame, Python": ours("s16", "super16", s16_mid, 3 - q, "python"),
        "super16 sliders middlegame, native": ours("sl", "super16", middlegame("super16", 30, sliders), 4 - q,
                                                   "native", sliders),
        "vanguard start, native": ours("vg", "vanguard", None, 3 - q, "native"),
        "vanguard start, Python": ours("vg", "vanguard", None, 2, "python"),
        "chess start, Stockfish": theirs("chess", sf, None, 6 - q),
        "chess start, Fairy-Stockfish": theirs("chess", fsf_chess, None, 5 - q),
        "chess start, native": ours("ch", "chess", START, 5 - q, "native"),
        "chess start, Python": ours("ch", "chess", START, 4 - q, "python"),
        "chess kiwipete, Fairy-Stockfish": theirs("chess", fsf_chess, KIWIPETE, 4 - q),
        "chess kiwipete, native": ours("ch", "chess", KIWIPETE, 4 - q, "native"),
        "chess kiwipete, Python": ours("ch", "chess", KIWIPETE, 3 - q, "python"),
    }
    for _ in range(args.rounds):
        for m in measures.values():
            m.once()
    for engine in (fsf_grand, fsf_chess, sf):
        engine.close()
    print(f"best of {args.rounds} interleaved runs; lists = legal-move lists generated (positions at depth < d)\n")
    print(f"{'measure':40} {'d':>2} {'lists':>10} {'seconds':>8} {'lists/s':>11}")
    for name, m in measures.items():
        print(f"{name:40} {m.depth:>2} {m.lists:>10} {m.best:>8.3f} {m.rate:>11,.0f}")
    r = {name: m.rate for name, m in measures.items()}
    print("\nratios")
    for a, b in (("super16 start, native", "grand start, Fairy-Stockfish"),
                 ("super16 middlegame, native", "grand middlegame, Fairy-Stockfish"),
                 ("chess start, native", "chess start, Fairy-Stockfish"),
                 ("chess kiwipete, native", "chess kiwipete, Fairy-Stockfish"),
                 ("chess start, native", "chess start, Stockfish"),
                 ("super16 start, native", "super16 start, Python"),
                 ("super16 middlegame, native", "super16 middlegame, Python"),
                 ("vanguard start, native", "vanguard start, Python"),
                 ("chess start, native", "chess start, Python")):
        print(f"  {a} / {b}: {r[a] / r[b]:.2f}x")
    print(f"\ngrand middlegame: {grand_mid}\nsuper16 middlegame: {s16_mid}")


if __name__ == "__main__":
    main()
