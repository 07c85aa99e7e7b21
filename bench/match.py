"""Engine against engine: two levels, or two builds of the engine, over UCI.

Each side is a `superchess engine` process (python -m superchess.cli engine) started with the given
build on its path (`--a-path`/`--b-path`: a folder holding the `superchess` package, e.g. a git
worktree of another commit; default: this checkout) and the given Level; or B is another UCI
program (`--b-uci`, limited by `--b-elo`) whose move texts are ours (Fairy-Stockfish in chess and
Capablanca Chess). Games start from varied
openings (seeded random plies from the start position); each opening is played twice with colours
swapped. A game still going at --max-plies is won by the side the static evaluation puts ahead by
--adjudicate centipawns or more, else drawn. Clocks are kept by this script (wall time per reply, Fischer increment) and sent with every
`go`, so each engine manages its time as it would on the server; a side whose clock runs out loses
(R12 draws apply). Games run in parallel (one process pair per game slot).
InterGrid: each part of a turn (square move, point move or `end`) is one `go` and one ply here.

Prints a progress bar, the final score of A, the Elo difference with its 95% confidence interval,
and with --elo0/--elo1 the SPRT log-likelihood ratio and its verdict.

    .venv/bin/python bench/match.py --a-level 3 --b-level 2 --games 40 --variant chess --tc 10+0.1
    git worktree add /tmp/old HEAD~1
    .venv/bin/python bench/match.py --b-path /tmp/old --a-level 8 --b-level 8 --tc 20+0.2 \\
        --elo0 0 --elo1 30 --games 400
    .venv/bin/python bench/match.py --variant capablanca --b-uci /usr/games/fairy-stockfish --b-elo 2000 \
        --tc 10+0.1 --concurrency 1
"""
from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from superchess.engine.play import static_evaluation
from superchess.engine.intergrid_search import evaluate as evaluate_layered
from superchess.rules import Board

# the static evaluation (side to move) for adjudication, per variant whose board is not the core's
ADJUDICATION_EVALUATION = {"intergrid": lambda board: evaluate_layered(board.position)}


class UciProcess:
    """A UCI engine in a subprocess, set up with `options` (name -> value)."""

    def __init__(self, command: list[str], options: dict[str, object], cwd: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix: str) -> list[str]:
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engine exited while waiting for {prefix!r}")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001
            self.proc.kill()


def ours(path: Path, variant: str, level: int, hash_mb: int) -> UciProcess:
    """`superchess engine` of the build in `path` at `level`."""
    return UciProcess([sys.executable, "-m", "superchess.cli", "engine"],
                      {"UCI_Variant": variant, "Level": level, "Hash": hash_mb},
                      cwd=path, env=dict(os.environ, PYTHONPATH=str(path)))


def anchor(command: str, variant: str, elo: int | None, hash_mb: int) -> UciProcess:
    """Another program (e.g. Fairy-Stockfish) on one thread, limited to `elo` if given (its
    UCI_LimitStrength and UCI_Elo); its moves must be written as ours are (Fairy-Stockfish's are in
    chess and Capablanca Chess)."""
    # Move Overhead: its clock margin for the way to this script and back (its default, 10 ms, loses
    # won games on time on a loaded machine)
    options = {"UCI_Variant": variant, "Threads": 1, "Hash": hash_mb, "Move Overhead": 100}
    if elo:
        options |= {"UCI_LimitStrength": "true", "UCI_Elo": elo}
    return UciProcess([command], options)


def opening(variant: str, plies: int, seed: int) -> list[str]:
    """Seeded random plies from the start (no game-ending moves), sorted choice for reproducibility."""
    rng = random.Random(seed)
    board = Board(variant)
    moves = []
    for _ in range(plies):
        legal = sorted(m.text for m in board.legal_moves)
        quiet = [t for t in legal if not board.captures(board.parse_move(t))] or legal
        text = rng.choice(quiet)
        board.push_text(text)
        if board.is_game_over():
            board.pop()
            break
        moves.append(text)
    return moves


def play_game(args, a_white: bool, moves0: list[str]) -> tuple[float, str]:
    """One game; returns (A's score, how it ended)."""
    a = ours(args.a_path, args.variant, args.a_level, args.hash)
    b = anchor(args.b_uci, args.variant, args.b_elo, args.hash) if args.b_uci else \
        ours(args.b_path, args.variant, args.b_level, args.hash)
    engines = (a, b) if a_white else (b, a)
    base, inc = args.base_ms, args.inc_ms
    clock = [base, base]
    board = Board(args.variant)
    moves = list(moves0)
    for t in moves:
        board.push_text(t)
    try:
        for e in engines:
            e.send("ucinewgame")
        while True:
            out = board.outcome(claim_draw=True)
            if out is not None:
                winner = out.winner
                how = out.termination.name.lower()
                break
            if len(board.move_stack) >= args.max_plies:
                # adjudicate by the static evaluation (material first) at the ply cap
                ev = ADJUDICATION_EVALUATION.get(args.variant, static_evaluation)(board)
                if abs(ev) >= args.adjudicate > 0:
                    winner = board.turn if ev > 0 else board.turn ^ 1
                    how = "adjudicated at the ply cap"
                else:
                    winner, how = None, "ply cap"
                break
            side = board.turn
            eng = engines[side]
            eng.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            if args.nodes:
                eng.send(f"go nodes {args.nodes}")
            elif base:
                eng.send(f"go wtime {int(clock[0])} btime {int(clock[1])} winc {inc} binc {inc}")
            else:
                eng.send("go")
            t0 = time.monotonic()
            reply = eng.wait_for("bestmove")[-1].split()
            spent = (time.monotonic() - t0) * 1000
            if base:
                clock[side] -= spent
                if clock[side] <= 0:
                    winner = None if board.has_insufficient_material(side ^ 1) else side ^ 1
                    how = "time"
                    break
                clock[side] += inc
            text = reply[1] if len(reply) > 1 else "0000"
            try:
                board.push_text(text)
            except ValueError:
                winner, how = side ^ 1, f"illegal move {text}"
                break
            moves.append(text)
    finally:
        a.close()
        b.close()
    a_side = 0 if a_white else 1
    score = 0.5 if winner is None else (1.0 if winner == a_side else 0.0)
    return score, how


def elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def expected(elo_diff: float) -> float:
    return 1 / (1 + 10 ** (-elo_diff / 400))


def summary(results: list[float]) -> tuple[float, float, float, float]:
    """(score, elo, low, high) with a 95% interval from the per-game score variance."""
    n = len(results)
    s = sum(results) / n
    var = sum((x - s) ** 2 for x in results) / n
    se = math.sqrt(var / n) if n else 0
    return s, round(elo(s)), round(elo(s - 1.96 * se)), round(elo(s + 1.96 * se))


def sprt(results: list[float], elo0: float, elo1: float, alpha: float, beta: float) -> tuple[float, float, float, str]:
    """Normal-approximation GSPRT (as fishtest's): (LLR, lower bound, upper bound, verdict)."""
    n = len(results)
    s = sum(results) / n
    var = sum((x - s) ** 2 for x in results) / n
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    if var <= 0:
        return 0.0, lower, upper, "continue (no variance yet)"
    s0, s1 = expected(elo0), expected(elo1)
    llr = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    verdict = "H1 accepted (A is stronger by elo1)" if llr >= upper else (
        "H0 accepted (A is not stronger by elo1)" if llr <= lower else "continue (no verdict yet)")
    return llr, lower, upper, verdict


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="super16")
    ap.add_argument("--a-level", type=int, default=8)
    ap.add_argument("--b-level", type=int, default=7)
    ap.add_argument("--a-path", type=Path, default=ROOT, help="folder holding build A's superchess package")
    ap.add_argument("--b-path", type=Path, default=ROOT, help="folder holding build B's superchess package")
    ap.add_argument("--b-uci", help="B is this UCI program instead (e.g. /usr/games/fairy-stockfish)")
    ap.add_argument("--b-elo", type=int, help="with --b-uci: its UCI_Elo (UCI_LimitStrength on)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--tc", default="", help="clock per side, SECONDS+INCREMENT, e.g. 30+0.3; "
                                              "empty: untimed, the levels' own caps")
    ap.add_argument("--nodes", type=int, default=0, help="a fixed number of nodes per move instead of clocks or "
                                                         "the levels' caps (a comparison the machine's load "
                                                         "cannot tilt)")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--max-plies", type=int, default=300, help="a game this long is adjudicated")
    ap.add_argument("--adjudicate", type=int, default=400,
                    help="at the ply cap, a side ahead by this many centipawns (static evaluation) wins; "
                         "0: the game is a draw")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--hash", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--elo0", type=float)
    ap.add_argument("--elo1", type=float)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    args = ap.parse_args(argv)
    if args.tc:
        base, _, inc = args.tc.partition("+")
        args.base_ms, args.inc_ms = int(float(base) * 1000), int(float(inc or 0) * 1000)
    else:
        args.base_ms = args.inc_ms = 0
    pairs = (args.games + 1) // 2
    jobs = []
    for i in range(pairs):
        op = opening(args.variant, args.opening_plies, args.seed * 100_003 + i)
        jobs.append((True, op))
        jobs.append((False, op))
    jobs = jobs[:args.games]
    b_name = f"{args.b_uci} (UCI_Elo {args.b_elo or 'unlimited'})" if args.b_uci else \
        f"level {args.b_level} ({args.b_path})"
    print(f"match: {args.variant}, A = level {args.a_level} ({args.a_path}), B = {b_name}, {len(jobs)} games, {f'{args.nodes} nodes a move' if args.nodes else 'tc ' + (args.tc or 'levels')}, "
          f"{args.concurrency} at a time")
    results: list[float] = []
    endings: dict[str, int] = {}
    lock = threading.Lock()
    t0 = time.monotonic()

    def progress() -> None:
        done = len(results)
        w = sum(1 for r in results if r == 1)
        l_ = sum(1 for r in results if r == 0)
        d = done - w - l_
        bar = "#" * (30 * done // len(jobs))
        sys.stderr.write(f"\r[{bar:<30}] {done}/{len(jobs)}  A +{w} -{l_} ={d}  {time.monotonic() - t0:6.0f}s")
        sys.stderr.flush()

    progress()
    with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        futures = [pool.submit(play_game, args, a_white, op) for a_white, op in jobs]
        for f in as_completed(futures):
            if f.cancelled():
                continue
            score, how = f.result()
            with lock:
                results.append(score)
                endings[how] = endings.get(how, 0) + 1
                progress()
                if args.elo0 is not None and args.elo1 is not None and len(results) >= 10:
                    _, _, _, verdict = sprt(results, args.elo0, args.elo1, args.alpha, args.beta)
                    if not verdict.startswith("continue"):
                        for other in futures:
                            other.cancel()
    sys.stderr.write("\n")
    w = sum(1 for r in results if r == 1)
    l_ = sum(1 for r in results if r == 0)
    d = len(results) - w - l_
    s, e, lo, hi = summary(results)
    print(f"games {len(results)}: A +{w} -{l_} ={d}, score {100 * s:.1f}%")
    print(f"Elo difference A-B: {e:+d} (95% interval {lo:+d} .. {hi:+d}; +-2400 stands for a clean sweep)")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    if args.elo0 is not None and args.elo1 is not None:
        llr, lower, upper, verdict = sprt(results, args.elo0, args.elo1, args.alpha, args.beta)
        print(f"SPRT elo0={args.elo0:g} elo1={args.elo1:g} alpha={args.alpha} beta={args.beta}: "
              f"LLR {llr:.2f} (bounds {lower:.2f}, {upper:.2f}): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
