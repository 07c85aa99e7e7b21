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

Orthodox chess's learned tables (superchess/engine/learned_tables.py) come from three steps:
`positions` (Stockfish playing itself at a fixed node count from seeded random openings, positions
kept as `games` keeps them) and `pgn` (the positions of recorded games, e.g. level 8's against
Stockfish from `anchor_match.py --pgn`, kept the same way), `label`, and `tables`: per piece and cell, a middlegame and an endgame
correction fitted by logistic loss against the labels (the rest of the evaluation, without learned
corrections, a fixed offset per position; K fitted first; L2 toward zero), written as the table
file. It prints the error on the last tenth of the file (later games than the fitted ones) before
and after.

Reproducible: the openings and the engine are deterministic for a seed and node count (and
Stockfish with one thread for a depth).

    .venv/bin/python bench/tune_eval.py games --out /tmp/positions.jsonl --games 200
    .venv/bin/python bench/tune_eval.py label --positions /tmp/positions.jsonl --out /tmp/labelled.jsonl
    .venv/bin/python bench/tune_eval.py tune --positions /tmp/labelled.jsonl
    for s in 1 2 3 4 5 6 7 8 9 10; do   # batches of 150 games, side by side if cores allow
      .venv/bin/python bench/tune_eval.py positions --out /tmp/pos$s.jsonl --seed $s
      .venv/bin/python bench/tune_eval.py label --positions /tmp/pos$s.jsonl --out /tmp/lab$s.jsonl
    done
    cat /tmp/lab{1..10}.jsonl > /tmp/labelled.jsonl
    .venv/bin/python bench/tune_eval.py pgn /tmp/anchor*.pgn --out /tmp/anchor.jsonl
    .venv/bin/python bench/tune_eval.py label --positions /tmp/anchor.jsonl --out /tmp/anchor_lab.jsonl
    .venv/bin/python bench/tune_eval.py tables --positions /tmp/anchor_lab.jsonl /tmp/labelled.jsonl
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
from superchess.engine import learned_tables  # noqa: E402
from superchess.engine.evaluate import Evaluator, default_params, unpack  # noqa: E402
from superchess.engine.play import search_position  # noqa: E402
from superchess.engine.search import Limits  # noqa: E402
from superchess import _native  # noqa: E402
from superchess.rules import Board  # noqa: E402
from superchess.rules.core.encoding import type_of  # noqa: E402

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


def stockfish_positions(args) -> None:
    """Orthodox chess positions from Stockfish playing itself at --nodes per move from seeded random
    openings: realistic play, unlike the fast self-play of `games`. Kept as `games` keeps them (from
    ply 12, not in check, quiet for our evaluation), with the game's result (`label` replaces it)."""
    import chess
    import chess.engine
    rng = random.Random(args.seed)
    searcher = _native.Searcher(1)
    ev = native_search.evaluation(Evaluator(*model(Board("chess"))))
    written = 0
    t0 = time.monotonic()
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as sf, open(args.out, "w") as out:
        sf.configure({"Threads": 1, "Hash": 16})
        for g in range(args.games):
            board = chess.Board(opening("chess", args.opening_plies, rng).fen())
            fens = []
            while (outcome := board.outcome(claim_draw=True)) is None and board.ply() < args.max_plies:
                if board.ply() >= 12 and not board.is_check():
                    static, quiet = static_and_quiet(searcher, Board("chess", board.fen()), ev)
                    if abs(static - quiet) <= args.quiet_cp:
                        fens.append(board.fen())
                board.push(sf.play(board, chess.engine.Limit(nodes=args.nodes), game=g).move)
            result = 0.5 if outcome is None or outcome.winner is None else float(outcome.winner)
            for fen in fens:
                out.write(json.dumps({"variant": "chess", "fen": fen, "result": result}) + "\n")
            written += len(fens)
            print(f"\rgame {g + 1}/{args.games}, {written} positions, {time.monotonic() - t0:.0f}s", end="",
                  file=sys.stderr, flush=True)
    print(file=sys.stderr)


def pgn_positions(args) -> None:
    """Orthodox chess positions from recorded games (e.g. `anchor_match.py --pgn`: the positions
    level 8 meets against Stockfish), kept as `positions` keeps them, with the game's result."""
    import chess.pgn
    searcher = _native.Searcher(1)
    ev = native_search.evaluation(Evaluator(*model(Board("chess"))))
    written = 0
    with open(args.out, "w") as out:
        for name in args.pgn:
            with open(name) as f:
                while (game := chess.pgn.read_game(f)) is not None:
                    result = {"1-0": 1.0, "0-1": 0.0}.get(game.headers.get("Result"), 0.5)
                    board = game.board()
                    for move in game.mainline_moves():
                        if board.ply() >= 12 and not board.is_check():
                            static, quiet = static_and_quiet(searcher, Board("chess", board.fen()), ev)
                            if abs(static - quiet) <= args.quiet_cp:
                                out.write(json.dumps({"variant": "chess", "fen": board.fen(), "result": result}) + "\n")
                                written += 1
                        board.push(move)
    print(f"{written} positions", file=sys.stderr)


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


def minimise(f, lo: float = 0.1, hi: float = 3.0) -> float:
    """Where the unimodal `f` is lowest between lo and hi (golden-section search): the scale K."""
    for _ in range(40):
        a, b = hi - (hi - lo) / 1.618, lo + (hi - lo) / 1.618
        if f(a) < f(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def fit_k(data: list[Data], params: dict) -> float:
    evals = [d.evals(params) for d in data]
    return minimise(lambda k: sum(sum((r - 1 / (1 + 10 ** (-k * e / 400))) ** 2 for r, e in zip(d.results, ev))
                                  / len(ev) for d, ev in zip(data, evals)) / len(data))


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


class CellData:
    """Labelled chess positions as the tables fit sees them: the evaluation without learned
    corrections (Player 1's view: a fixed offset), the middlegame share of the phase, and per piece
    its feature (piece letter, cell from its owner's view) with the owner's sign."""

    def __init__(self, rows: list[dict]) -> None:
        variant, rosters = model(Board("chess"))
        self.geometry = variant.geometry
        self.letters = [pt.letter for pt in variant.pieces]
        self.ev = Evaluator(variant, rosters, learned=False)
        native = native_search.evaluation(self.ev)
        searcher = _native.Searcher(1)
        geo = variant.geometry
        self.size = geo.size * len(self.letters)  # features: piece type, then cell
        self.offsets, self.mg_shares, self.features, self.results = [], [], [], []
        for r in rows:
            board = Board("chess", r["fen"])
            pos = board.engine_position()
            sign = 1 if board.turn == 0 else -1
            self.offsets.append(sign * searcher.evaluate(board.native_position()[0], native)[0])
            self.mg_shares.append(min(unpack(self.ev.packed(pos))[2], self.ev.phase_max) / self.ev.phase_max)
            self.features.append([
                ((type_of(pos.board[c]) - 1) * geo.size + learned_tables.own_cell(geo, c, side), 1 - 2 * side)
                for side in (0, 1) for c in pos.occ[side]])
            self.results.append(r["result"])

    def value(self, i: int, w: list[float]) -> float:
        """Player 1's evaluation of position `i` with the corrections `w` (per feature the
        middlegame ones, then the endgame ones)."""
        a, n = self.mg_shares[i], self.size
        return self.offsets[i] + sum(s * (a * w[f] + (1 - a) * w[n + f]) for f, s in self.features[i])

    def evals(self, w: list[float]) -> list[float]:
        return [self.value(i, w) for i in range(len(self.results))]


def expected(k: float, e: float) -> float:
    return 1 / (1 + 10 ** (-k * e / 400))


def cross_entropy(results: list[float], evals: list[float], k: float) -> float:
    eps = 1e-9
    return -sum(r * math.log(max(p, eps)) + (1 - r) * math.log(max(1 - p, eps))
                for r, p in ((r, expected(k, e)) for r, e in zip(results, evals))) / len(results)


def squared_error(results: list[float], evals: list[float], k: float) -> float:
    return sum((r - expected(k, e)) ** 2 for r, e in zip(results, evals)) / len(results)


def fit_tables(data: CellData, k: float, args) -> list[float]:
    """Per-feature middlegame, then endgame corrections minimising the logistic loss against the
    labels plus --l2 times their squares: Adam over shuffled mini-batches, --epochs passes."""
    n = data.size
    w = [0.0] * (2 * n)  # mg corrections, then eg
    m, v = [0.0] * (2 * n), [0.0] * (2 * n)
    b1, b2, step = 0.9, 0.999, 0
    slope = k * math.log(10) / 400  # d(expected score)/d(eval) is slope * p * (1 - p)
    order = list(range(len(data.results)))
    rng = random.Random(args.seed)
    for epoch in range(args.epochs):
        rng.shuffle(order)
        lr = args.lr * (1 - epoch / args.epochs)  # linear decay: the last passes settle
        for start in range(0, len(order), args.batch):
            batch = order[start:start + args.batch]
            grad: dict[int, float] = {}
            for i in batch:
                a = data.mg_shares[i]
                g = (expected(k, data.value(i, w)) - data.results[i]) * slope / len(batch)  # d(loss)/d(eval)
                for f, s in data.features[i]:
                    grad[f] = grad.get(f, 0.0) + g * s * a
                    grad[n + f] = grad.get(n + f, 0.0) + g * s * (1 - a)
            step += 1
            for j, gj in grad.items():  # lazily: untouched features keep their moments this step
                gj += 2 * args.l2 * w[j] * len(batch) / len(order)
                m[j] = b1 * m[j] + (1 - b1) * gj
                v[j] = b2 * v[j] + (1 - b2) * gj * gj
                w[j] -= lr * (m[j] / (1 - b1 ** step)) / (math.sqrt(v[j] / (1 - b2 ** step)) + 1e-12)
        print(f"epoch {epoch + 1}/{args.epochs}", file=sys.stderr, flush=True)
    return w


def tables(args) -> None:
    """Fits the chess tables' learned corrections (learned_tables.py) to labelled positions (the
    files in order; a file named twice counts twice); the last tenth (the last file's later games,
    unseen by the fit) measures the error before and after."""
    rows = []
    for name in args.positions:
        with open(name) as f:
            rows += [r for r in map(json.loads, f) if r["variant"] == "chess"]
    cut = len(rows) - len(rows) // 10
    t0 = time.monotonic()
    train, held = CellData(rows[:cut]), CellData(rows[cut:])
    print(f"{len(train.results)} positions to fit, {len(held.results)} held out "
          f"({time.monotonic() - t0:.0f}s to read)", flush=True)
    k = minimise(lambda k: cross_entropy(train.results, train.offsets, k))
    before = held.evals([0.0] * 2 * train.size)
    print(f"K = {k:.3f}; held out before: cross entropy {cross_entropy(held.results, before, k):.5f}, "
          f"squared error {squared_error(held.results, before, k):.6f}", flush=True)
    w = [round(x) for x in fit_tables(train, k, args)]
    after = held.evals(w)
    figures = (f"held out after: cross entropy {cross_entropy(held.results, after, k):.5f}, "
               f"squared error {squared_error(held.results, after, k):.6f}")
    print(figures, f"({time.monotonic() - t0:.0f}s)", flush=True)
    n, eg = train.geometry.size, train.size  # a piece's cells; where the endgame corrections start
    corrections = {letter: (w[i * n:(i + 1) * n], w[eg + i * n:eg + (i + 1) * n])
                   for i, letter in enumerate(train.letters)}
    header = (f"Learned corrections of chess's evaluation tables (docs/engine.md), centipawns, Player 1's view.\n"
              f"bench/tune_eval.py tables: {len(train.results)} positions, K {k:.3f}, L2 {args.l2:g}, "
              f"{args.epochs} epochs; {figures}")
    Path(args.out).parent.mkdir(exist_ok=True)
    Path(args.out).write_text(learned_tables.dumps(corrections, train.geometry, header))
    print(f"{args.out} written", flush=True)


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
    sp = sub.add_parser("positions", help="chess positions from Stockfish playing itself")
    sp.add_argument("--out", required=True)
    sp.add_argument("--games", type=int, default=150)
    sp.add_argument("--nodes", type=int, default=2000, help="Stockfish's nodes per move")
    sp.add_argument("--opening-plies", type=int, default=8)
    sp.add_argument("--max-plies", type=int, default=300)
    sp.add_argument("--quiet-cp", type=int, default=30)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--stockfish", default="/usr/games/stockfish")
    lb = sub.add_parser("label", help="chess positions labelled by Stockfish's evaluation")
    lb.add_argument("--positions", required=True)
    lb.add_argument("--out", required=True)
    lb.add_argument("--depth", type=int, default=8)
    lb.add_argument("--stockfish", default="/usr/games/stockfish")
    pg = sub.add_parser("pgn", help="chess positions from recorded games (PGN files)")
    pg.add_argument("pgn", nargs="+")
    pg.add_argument("--out", required=True)
    pg.add_argument("--quiet-cp", type=int, default=30)
    t = sub.add_parser("tune", help="Texel's method over the positions; writes eval.toml")
    t.add_argument("--positions", required=True)
    t.add_argument("--variants", nargs="+", default=["chess", "super16"], help="whose positions count")
    t.add_argument("--limit", type=int, default=40_000, help="positions per variant")
    t.add_argument("--rounds", type=int, default=30)
    t.add_argument("--seed", type=int, default=1)
    tb = sub.add_parser("tables", help="fit chess's learned table corrections; writes the table file")
    tb.add_argument("--positions", required=True, nargs="+", help="labelled (`label`) chess positions")
    tb.add_argument("--out", default=str(learned_tables.path_for("chess")))
    tb.add_argument("--l2", type=float, default=3e-6, help="weight of the corrections' squares (per cp^2)")
    tb.add_argument("--epochs", type=int, default=12)
    tb.add_argument("--batch", type=int, default=256)
    tb.add_argument("--lr", type=float, default=2.0, help="Adam's step, centipawns")
    tb.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    commands = {"games": play_games, "positions": stockfish_positions, "pgn": pgn_positions, "label": label,
                "tune": tune, "tables": tables}
    commands[args.cmd](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
