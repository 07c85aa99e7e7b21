"""Search speed and depth against the anchors, all over UCI in one run (issue 21's tables):
`superchess engine` (level 8, Hash 64) on orthodox chess and super16; Debian's Stockfish 15.1 on
chess and Fairy-Stockfish 11.1 on Grand Chess (10x10, its largest board), each with one thread
and Hash 64, `go movetime` per position (--chess-ms, --large-ms). Reported per search: the depth
of the last finished iteration, nodes, nodes per second (the engine's own `nps`), and for ours the
effective branching factor over the last four finished iterations, (nodes(d) / nodes(d-4))^(1/4).
Positions: the start positions and middlegames (super16: bench/engine.py's; Grand: 30 seeded
random plies as in bench/native.py). The runs are interleaved over --rounds rounds (figures of
the best round per search); the machine's load average is printed before and after.

    .venv/bin/python bench/search_speed.py [--rounds 1] [--chess-ms 1000] [--large-ms 5000]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.engine import CHESS, SUPER16  # noqa: E402
from bench.native import ENGINES, Uci, grand_middlegame  # noqa: E402


class Ours(Uci):
    def __init__(self, variant: str) -> None:
        self.proc = __import__("subprocess").Popen(
            [sys.executable, "-m", "superchess.cli", "engine"], cwd=str(ROOT), stdin=-1, stdout=-1, text=True,
            bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")


def search(engine: Uci, fen: str | None, ms: int) -> dict:
    """Depth, nodes, nps of the last finished iteration, and the effective branching factor."""
    engine.send("setoption name Hash value 64")
    engine.send("ucinewgame")
    engine.send("isready")
    engine.wait("readyok")
    engine.send(f"position fen {fen}" if fen else "position startpos")
    engine.send(f"go movetime {ms}")
    iterations: dict[int, tuple[int, int]] = {}
    for line in engine.proc.stdout:
        words = line.split()
        if line.startswith("bestmove"):
            break
        if words[:1] == ["info"] and "depth" in words and "nodes" in words and "pv" in words \
                and "upperbound" not in words and "lowerbound" not in words:
            depth = int(words[words.index("depth") + 1])
            nodes = int(words[words.index("nodes") + 1])
            nps = int(words[words.index("nps") + 1]) if "nps" in words else 0
            iterations[depth] = (nodes, nps)
    depth = max(iterations)
    nodes, nps = iterations[depth]
    ebf = None
    if depth - 4 in iterations and iterations[depth - 4][0]:
        ebf = (nodes / iterations[depth - 4][0]) ** 0.25
    return {"depth": depth, "nodes": nodes, "nps": nps, "ebf": ebf}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--chess-ms", type=int, default=1000)
    ap.add_argument("--large-ms", type=int, default=5000)
    args = ap.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    engines = {"ours chess": Ours("chess"), "ours super16": Ours("super16"),
               "stockfish": Uci(ENGINES["stockfish"]), "fairy grand": Uci(ENGINES["fairy-stockfish"], "grand")}
    for e in engines.values():
        e.send("setoption name Threads value 1")
    runs = [(f"chess {name}", "ours chess", fen, args.chess_ms) for name, fen in CHESS[:3]]
    runs += [(f"chess {name}", "stockfish", fen, args.chess_ms) for name, fen in CHESS[:3]]
    runs += [(f"super16 {name}", "ours super16", fen, args.large_ms) for name, fen in SUPER16[:4]]
    runs += [("grand start", "fairy grand", None, args.large_ms),
             ("grand middlegame", "fairy grand", grand_middlegame(30), args.large_ms)]
    best: dict[tuple, dict] = {}
    for _ in range(args.rounds):
        for name, engine, fen, ms in runs:
            r = search(engines[engine], fen, ms)
            key = (name, engine)
            if key not in best or r["nps"] > best[key]["nps"]:
                best[key] = r
    for e in engines.values():
        e.close()
    print(f"load average after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}\n")
    print(f"{'position':<24} {'engine':<14} {'ms':>5} {'depth':>5} {'nodes':>10} {'nodes/s':>10} {'EBF':>5}")
    for (name, engine, _, ms) in runs:
        r = best[(name, engine)]
        ebf = f"{r['ebf']:.2f}" if r["ebf"] else "-"
        print(f"{name:<24} {engine:<14} {ms:>5} {r['depth']:>5} {r['nodes']:>10} {r['nps']:>10,} {ebf:>5}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
