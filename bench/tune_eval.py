"""Tuning the evaluation's parameters (superchess/engine/eval.toml) by Texel's method.

1. `games`: the native engine plays itself at a fixed number of nodes per move from seeded random
   openings (chess and super16 by default); every position from ply 12 on, not in check and quiet
   (its static evaluation within --quiet-cp of its quiescence score), is written with the game's
   result to a JSON-lines file. A game still going at --max-plies is adjudicated by the static
   evaluation (a win beyond 600 cp, else a draw).
2. `tune`: finds the scale K that best maps the static evaluation to the results
   (`1 / (1 + 10^(-K * eval / 400))`), then improves the parameters one at a time (each tried a
   step up and down, kept when the mean squared error of all positions falls; steps halve when
   nothing improves; each within its bounds: weights not negative) and writes them back into
   eval.toml (comments kept). Both variants share the parameters: the error is the mean of the
   variants' errors.

Optionally, between the two, `label` (orthodox chess only) replaces each position's game result
by a stronger engine's expectation: Stockfish's evaluation at a fixed depth, as the expected score
`1 / (1 + 10^(-cp/400))` (a mate counts as a win). That target is less noisy than the result of
a fast self-play game, whose outcome a single later blunder decides.

Reproducible: the openings and the engine are deterministic for a seed and node count (and
Stockfish with one thread for a depth).

    .venv/bin/python bench/tune_eval.py games --out /tmp/positions.jsonl --games 200
    .venv/bin/python bench/tune_eval.py label --positions /tmp/positions.jsonl --out /tmp/labelled.jsonl
    .venv/bin/python bench/tune_eval.py tune --positions /tmp/labelled.jsonl
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from superchess.engine import native_search  # noqa: E402
from superchess.engine.evaluate import Evaluator, default_params  # noqa: E402
from superchess.engine.play import search_position  # noqa: E402
from superchess.engine.search import Limits  # noqa: E402
from superchess import _native  # noqa: E402
from superchess.rules import Board  # noqa: E402

EVAL_TOML = ROOT / "superchess" / "engine" / "eval.toml"
SKIP = {"lazy_margin"}  # a speed setting, not a weight
FLOAT_STEP = {"pawn_eg_share": 0.03}
# (lowest, highest) a parameter may take: weights stay weights (not negative), shares stay shares
BOUNDS = {"attack_divisor": (10, 1000), "garrison_deterrence_pct": (0, 100), "pawn_eg_share": (0.0, 1.0)}


def model(board: Board) -> tuple:
    """The (variant, rosters) the board's native position plays by: what an evaluator is made of."""
    pos, _ = board.native_position()
    return pos.variant, pos.rosters


def opening(variant: str, plies: int, rng: random.Random) -> Board:
    board = Board(variant)
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=lambda m: m.text)
        quiet = [m for m in moves if not board.captures(m)] or moves
        board.push(rng.choice(quiet))
        if board.is_game_over():
            board.pop()
            break
    return board


def static_and_quiet(searcher, board: Board, ev) -> tuple[int, int]:
    kept, _, quiet = searcher.evaluate(board.native_position()[0], ev)
    return kept, quiet


def play_games(args) -> None:
    rng = random.Random(args.seed)
    searcher = _native.Searcher(1)
    with open(args.out, "w") as out:
        for variant in args.variants:
            written = 0
            t0 = time.monotonic()
            for g in range(args.games):
                native_search.forget()
                board = opening(variant, args.opening_plies, rng)
                ev = native_search.evaluation(Evaluator(*model(board)))
                positions = []
                result = 0.5
                while True:
                    outcome = board.outcome(claim_draw=True)
                    if outcome is not None:
                        result = 0.5 if outcome.winner is None else 1.0 - outcome.winner
                        break
                    if len(board.move_stack) >= args.max_plies:
                        white = static_and_quiet(searcher, board, ev)[0] * (1 if board.turn == 0 else -1)
                        result = 1.0 if white > 600 else 0.0 if white < -600 else 0.5
                        break
                    if len(board.move_stack) >= 12 and not board.is_check():
                        static, quiet = static_and_quiet(searcher, board, ev)
                        if abs(static - quiet) <= args.quiet_cp:
                            positions.append(board.fen())
                    text, _ = search_position(board, Limits(nodes=args.nodes), hash_mb=4, seed=g)
                    board.push_text(text)
                for fen in positions:
                    out.write(json.dumps({"variant": variant, "fen": fen, "result": result}) + "\n")
                written += len(positions)
                print(f"\r{variant}: game {g + 1}/{args.games}, {written} positions, "
                      f"{time.monotonic() - t0:.0f}s", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)


def label(args) -> None:
    """The positions of orthodox chess with Stockfish's expected score instead of the result."""
    import chess
    import chess.engine
    with open(args.positions) as f:
        rows = [r for r in map(json.loads, f) if r["variant"] == "chess"]
    t0 = time.monotonic()
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as sf, open(args.out, "w") as out:
        sf.configure({"Threads": 1, "Hash": 16})
        for i, r in enumerate(rows):
            info = sf.analyse(chess.Board(r["fen"]), chess.engine.Limit(depth=args.depth))
            cp = info["score"].white().score(mate_score=10_000)
            out.write(json.dumps(r | {"result": round(1 / (1 + 10 ** (-cp / 400)), 4)}) + "\n")
            if i % 200 == 0:
                print(f"\r{i}/{len(rows)} positions, {time.monotonic() - t0:.0f}s", end="", file=sys.stderr,
                      flush=True)
    print(file=sys.stderr)


class Data:
    """The positions of one variant as native positions, and their results."""

    def __init__(self, variant: str, rows: list[dict]) -> None:
        self.variant = variant
        self.boards = [Board(variant, r["fen"]) for r in rows]
        self.results = [r["result"] for r in rows]
        self.signs = [1 if b.turn == 0 else -1 for b in self.boards]
        self.searcher = _native.Searcher(1)

    def evals(self, params: dict) -> list[int]:
        """The static evaluations from Player 1's point of view with `params`."""
        b0 = self.boards[0]
        ev = native_search.evaluation(Evaluator(*model(b0), params))
        return [s * self.searcher.evaluate(b.native_position()[0], ev)[0] for b, s in zip(self.boards, self.signs)]


def error(data: list[Data], params: dict, k: float) -> float:
    total = 0.0
    for d in data:
        evals = d.evals(params)
        total += sum((r - 1 / (1 + 10 ** (-k * e / 400))) ** 2 for r, e in zip(d.results, evals)) / len(evals)
    return total / len(data)


def fit_k(data: list[Data], params: dict) -> float:
    evals = [d.evals(params) for d in data]

    def err(k: float) -> float:
        return sum(sum((r - 1 / (1 + 10 ** (-k * e / 400))) ** 2 for r, e in zip(d.results, ev)) / len(ev)
                   for d, ev in zip(data, evals)) / len(data)

    lo, hi = 0.1, 3.0
    for _ in range(40):  # golden-section search
        a, b = hi - (hi - lo) / 1.618, lo + (hi - lo) / 1.618
        if err(a) < err(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def write_params(params: dict) -> None:
    """eval.toml with the new values, comments and order kept."""
    text = EVAL_TOML.read_text()
    for section in params.values():
        for name, value in section.items():
            shown = f"{value:.3g}" if isinstance(value, float) else str(value)
            text = re.sub(rf"^({name} = )\S+", lambda m, s=shown: m.group(1) + s, text, flags=re.M)
    EVAL_TOML.write_text(text)


def tune(args) -> None:
    rows: dict[str, list[dict]] = {}
    with open(args.positions) as f:
        for line in f:
            r = json.loads(line)
            if r["variant"] in args.variants:
                rows.setdefault(r["variant"], []).append(r)
    rng = random.Random(args.seed)
    data = []
    for variant, rs in rows.items():
        rng.shuffle(rs)
        data.append(Data(variant, rs[:args.limit]))
        print(f"{variant}: {len(data[-1].results)} positions", flush=True)
    params = {sec: dict(vals) for sec, vals in default_params().items()}
    k = fit_k(data, params)
    best = error(data, params, k)
    print(f"K = {k:.3f}, error {best:.6f}", flush=True)
    names = [(sec, name) for sec, vals in params.items() for name in vals if name not in SKIP]
    steps = {key: FLOAT_STEP.get(key[1], max(1, round(abs(params[key[0]][key[1]]) * 0.25))) for key in names}
    for rnd in range(args.rounds):
        improved = False
        for sec, name in names:
            step = steps[(sec, name)]
            low, high = BOUNDS.get(name, (0, None))
            for direction in (1, -1):
                old = params[sec][name]
                new = old + direction * step
                if new < low or (high is not None and new > high):
                    continue
                params[sec][name] = new
                e = error(data, params, k)
                if e < best - 1e-7:
                    best, improved = e, True
                    print(f"round {rnd + 1}: {name} {old} -> {params[sec][name]}  error {best:.6f}", flush=True)
                    break
                params[sec][name] = old
        if not improved:
            shrunk = False
            for key, step in steps.items():
                if isinstance(step, float) and step > 0.005 or isinstance(step, int) and step > 1:
                    steps[key] = step / 2 if isinstance(step, float) else step // 2
                    shrunk = True
            if not shrunk:
                break
    write_params(params)
    print(f"final error {best:.6f} (K {k:.3f}); eval.toml written", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("games", help="self-play positions with their results")
    g.add_argument("--out", required=True)
    g.add_argument("--variants", nargs="+", default=["chess", "super16"])
    g.add_argument("--games", type=int, default=200, help="per variant")
    g.add_argument("--nodes", type=int, default=4000, help="per move")
    g.add_argument("--opening-plies", type=int, default=6)
    g.add_argument("--max-plies", type=int, default=300)
    g.add_argument("--quiet-cp", type=int, default=30)
    g.add_argument("--seed", type=int, default=1)
    lb = sub.add_parser("label", help="chess positions labelled by Stockfish's evaluation")
    lb.add_argument("--positions", required=True)
    lb.add_argument("--out", required=True)
    lb.add_argument("--depth", type=int, default=8)
    lb.add_argument("--stockfish", default="/usr/games/stockfish")
    t = sub.add_parser("tune", help="Texel's method over the positions; writes eval.toml")
    t.add_argument("--positions", required=True)
    t.add_argument("--variants", nargs="+", default=["chess", "super16"], help="whose positions count")
    t.add_argument("--limit", type=int, default=40_000, help="positions per variant")
    t.add_argument("--rounds", type=int, default=30)
    t.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    {"games": play_games, "label": label, "tune": tune}[args.cmd](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
