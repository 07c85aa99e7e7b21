"""The engine against Debian's Stockfish (orthodox chess) with a limited strength, over UCI.

Both engines run through python-chess's UCI client: `superchess engine` at --level (its Hash set
by --hash) and Stockfish 15.1 with `UCI_LimitStrength` and `UCI_Elo` (--elo), one thread each,
one game at a time (the engines think in turn, so a game takes one core). Openings: --opening-plies
seeded random plies from the start position (no captures where a quiet move exists); each opening
is played twice with colours swapped. Clocks are kept by this script (wall time per reply, Fischer
increment) and sent with every `go`; a side whose clock runs out loses (a draw if the other side
cannot mate). Stockfish's Move Overhead is --overhead-ms (its default of 10 ms is too little for
a loaded machine: it then loses won games on time).

Adjudication: the rules end a game (checkmate, stalemate, insufficient material, threefold
repetition or the 50-move rule, claimed as soon as possible); otherwise a game is won when both
engines' last --resign-plies reported scores (each from its own side's view) agree that one side
is ahead by --resign-cp or more, drawn when after move 60 both report within 10 cp for
--draw-plies plies, and drawn at --max-plies.

Prints the score, the Elo difference with its 95% interval and, from it, the Elo estimate of the
engine on Stockfish's UCI_Elo scale.

    .venv/bin/python bench/anchor_match.py --games 40 --tc 10+0.1 --elo 2200
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import chess
import chess.engine
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.match import summary  # noqa: E402

STOCKFISH = "/usr/games/stockfish"


def opening(plies: int, seed: int) -> list[chess.Move]:
    rng = random.Random(seed)
    board = chess.Board()
    moves = []
    for _ in range(plies):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        quiet = [m for m in legal if not board.is_capture(m)] or legal
        m = rng.choice(quiet)
        board.push(m)
        if board.is_game_over():
            board.pop()
            break
        moves.append(m)
    return moves


def white_score(info: chess.engine.InfoDict, turn: chess.Color) -> int | None:
    score = info.get("score")
    if score is None:
        return None
    return score.pov(chess.WHITE).score(mate_score=100_000)


def play_game(args, ours_white: bool, moves0: list[chess.Move]) -> tuple[float, str]:
    """One game; returns (our score, how it ended)."""
    ours = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "superchess.cli", "engine"], cwd=str(ROOT))
    anchor = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        ours.configure({"Level": args.level, "Hash": args.hash})
        anchor.configure({"UCI_LimitStrength": True, "UCI_Elo": args.elo, "Threads": 1, "Hash": args.hash,
                          "Move Overhead": args.overhead_ms})
        engines = {chess.WHITE: ours if ours_white else anchor, chess.BLACK: anchor if ours_white else ours}
        board = chess.Board()
        for m in moves0:
            board.push(m)
        clock = {chess.WHITE: args.base, chess.BLACK: args.base}
        scores: dict[chess.Color, list[int]] = {chess.WHITE: [], chess.BLACK: []}
        winner: chess.Color | None = None
        how = ""
        notes: list[str] = []  # per reply: the time it took, its depth and score (for the PGN)
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                winner, how = outcome.winner, outcome.termination.name.lower()
                break
            if board.ply() >= args.max_plies:
                winner, how = None, "ply cap"
                break
            side = board.turn
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                       white_inc=args.inc, black_inc=args.inc)
            t0 = time.monotonic()
            result = engines[side].play(board, limit, info=chess.engine.INFO_SCORE)
            spent = time.monotonic() - t0
            clock[side] -= spent
            notes.append(f"{spent:.2f}s d{result.info.get('depth', '-')} {result.info.get('score', '')}")
            if clock[side] <= 0:
                other_can_mate = not board.has_insufficient_material(not side)
                winner, how = (not side if other_can_mate else None), "time"
                break
            clock[side] += args.inc
            if result.move is None:
                winner, how = not side, "no move"
                break
            s = white_score(result.info, side)
            if s is not None:
                scores[side].append(s)
            board.push(result.move)
            last = [scores[c][-args.resign_plies:] for c in (chess.WHITE, chess.BLACK)]
            if all(len(x) == args.resign_plies for x in last):
                flat = last[0] + last[1]
                if all(x >= args.resign_cp for x in flat):
                    winner, how = chess.WHITE, "adjudicated"
                    break
                if all(x <= -args.resign_cp for x in flat):
                    winner, how = chess.BLACK, "adjudicated"
                    break
            near = [scores[c][-args.draw_plies:] for c in (chess.WHITE, chess.BLACK)]
            if board.fullmove_number > 60 and all(len(x) == args.draw_plies and all(abs(v) <= 10 for v in x)
                                                  for x in near):
                winner, how = None, "adjudicated draw"
                break
    finally:
        ours.quit()
        anchor.quit()
    if args.pgn:
        game = chess.pgn.Game.from_board(board)
        replies = [n for n in game.mainline() if n.ply() > len(moves0)]
        for node, note in zip(replies, notes):
            node.comment = note
        game.headers["White"], game.headers["Black"] = ("superchess", "stockfish")[::1 if ours_white else -1]
        game.headers["Result"] = "1/2-1/2" if winner is None else ("1-0" if winner == chess.WHITE else "0-1")
        game.headers["Termination"] = how
        with open(args.pgn, "a") as f:
            print(game, file=f, end="\n\n")
    if winner is None:
        return 0.5, how
    return (1.0 if winner == (chess.WHITE if ours_white else chess.BLACK) else 0.0), how


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", type=int, default=8)
    ap.add_argument("--elo", type=int, default=2200, help="Stockfish's UCI_Elo")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--tc", default="10+0.1", help="clock per side, SECONDS+INCREMENT")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--overhead-ms", type=int, default=100,
                    help="Stockfish's Move Overhead: its clock margin for the time a reply takes to reach this "
                         "script (its default, 10 ms, loses games on time on a loaded machine)")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--resign-cp", type=int, default=1000)
    ap.add_argument("--resign-plies", type=int, default=3)
    ap.add_argument("--draw-plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn", help="append the games to this PGN file, each reply noted with its time, depth and score")
    args = ap.parse_args(argv)
    base, _, inc = args.tc.partition("+")
    args.base, args.inc = float(base), float(inc or 0)
    results: list[float] = []
    endings: dict[str, int] = {}
    print(f"anchor match: superchess level {args.level} vs Stockfish UCI_Elo {args.elo}, {args.games} games, "
          f"tc {args.tc}, {args.opening_plies} opening plies, seed {args.seed}", flush=True)
    t0 = time.monotonic()
    for i in range(args.games):
        moves0 = opening(args.opening_plies, args.seed * 100_003 + i // 2)
        score, how = play_game(args, i % 2 == 0, moves0)
        results.append(score)
        endings[how] = endings.get(how, 0) + 1
        w, l_ = results.count(1.0), results.count(0.0)
        print(f"game {i + 1}: {'white' if i % 2 == 0 else 'black'} {score} ({how}); "
              f"+{w} -{l_} ={len(results) - w - l_}  {time.monotonic() - t0:.0f}s", flush=True)
    s, e, lo, hi = summary(results)
    w, l_ = results.count(1.0), results.count(0.0)
    print(f"games {len(results)}: +{w} -{l_} ={len(results) - w - l_}, score {100 * s:.1f}%")
    print(f"Elo difference: {e:+d} (95% interval {lo:+d} .. {hi:+d}); estimate on Stockfish's scale "
          f"{args.elo + e} ({args.elo + lo} .. {args.elo + hi})")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
