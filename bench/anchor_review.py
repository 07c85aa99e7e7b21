"""Where the anchor games are lost: every move scored by full-strength Stockfish.

Reads PGN files written by `anchor_match.py --pgn` (the replies carry a comment; the opening's
random plies do not and are skipped). Stockfish (full strength, one thread, --depth) scores the
position before each reply; a reply's loss is the score before it minus the score after it, from
the mover's side, scores capped at ±1000 cp. Replies in positions already decided (beyond
±--level-cp) are left out. For each side it prints the replies, the average loss and the share
and sum of large mistakes (a loss of --mistake-cp or more) against the rest.

With --retry, each of our large mistakes is searched again from a fresh engine at those move
times (seconds), and the reply it then chooses is scored the same way: how many it still makes
says how much of the damage more depth would undo.

    .venv/bin/python bench/anchor_review.py /tmp/anchor14.pgn --lost-only --retry 0.25,1,4
"""
from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.anchor_match import STOCKFISH  # noqa: E402

OURS = "superchess"
CAP = 1000


@dataclass
class Reply:
    fen: str
    ours: bool
    played: chess.Move
    before: int  # the mover's score before the reply (cp, capped)
    after: int = 0


def capped(score: chess.engine.PovScore, side: chess.Color) -> int:
    return max(-CAP, min(CAP, score.pov(side).score(mate_score=100_000)))


def review_game(game: chess.pgn.Game, sf: chess.engine.SimpleEngine, depth: int) -> list[Reply]:
    """The game's replies with Stockfish's score before and after each."""
    ours = chess.WHITE if game.headers.get("White") == OURS else chess.BLACK
    board = game.board()
    replies: list[Reply] = []
    for node in game.mainline():
        if node.comment:
            info = sf.analyse(board, chess.engine.Limit(depth=depth))
            replies.append(Reply(board.fen(), board.turn == ours, node.move, capped(info["score"], board.turn)))
        board.push(node.move)
    outcome = board.outcome(claim_draw=True)  # the last mover's score, at the end of the game
    if outcome is None:
        final = capped(sf.analyse(board, chess.engine.Limit(depth=depth))["score"], not board.turn)
    else:
        final = 0 if outcome.winner is None else (CAP if outcome.winner != board.turn else -CAP)
    # the score after a reply is the next reply's score before it, seen from the other side
    for r, nxt in zip(replies, replies[1:]):
        r.after = -nxt.before
    if replies:  # the last reply is the game's last move: `final` is from its mover's side
        replies[-1].after = final
    return replies


def losses(replies: list[Reply]) -> list[int]:
    return [max(0, r.before - r.after) for r in replies]


def report(name: str, loss: list[int], mistake: int) -> None:
    big = [x for x in loss if x >= mistake]
    rest = [x for x in loss if x < mistake]
    print(f"{name:9s} replies {len(loss):5d}  average loss {statistics.mean(loss):5.1f} cp  "
          f"mistakes (≥{mistake} cp) {len(big):4d} = {100 * len(big) / len(loss):4.1f}%  "
          f"their sum {sum(big):6d}  the rest's sum {sum(rest):6d}")


def retry(mistakes: list[Reply], times: list[float], sf: chess.engine.SimpleEngine, depth: int,
          level: int, hash_mb: int, mistake: int) -> None:
    engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "superchess.cli", "engine"], cwd=str(ROOT))
    try:
        engine.configure({"Level": level, "Hash": hash_mb})
        for t in times:
            same = still = 0
            loss: list[int] = []
            depths: list[int] = []
            for r in mistakes:
                board = chess.Board(r.fen)
                played = engine.play(board, chess.engine.Limit(time=t), game=object(), info=chess.engine.INFO_BASIC)
                depths.append(played.info.get("depth", 0))
                same += played.move == r.played
                board.push(played.move)
                after = -capped(sf.analyse(board, chess.engine.Limit(depth=depth))["score"], board.turn)
                loss.append(max(0, r.before - after))
                still += r.before - after >= mistake
            print(f"retry {t:5.2f} s: same reply {same}/{len(mistakes)}, still a mistake {still}, "
                  f"average loss {statistics.mean(loss):.0f} cp, average depth {statistics.mean(depths):.1f}",
                  flush=True)
    finally:
        engine.quit()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--depth", type=int, default=14, help="Stockfish's depth for every score")
    ap.add_argument("--lost-only", action="store_true", help="only the games our engine lost")
    ap.add_argument("--mistake-cp", type=int, default=100)
    ap.add_argument("--level-cp", type=int, default=300, help="replies where the mover's score is beyond ±this "
                                                              "are left out (the game is decided)")
    ap.add_argument("--retry", default="", help="move times in seconds, comma-separated")
    ap.add_argument("--level", type=int, default=8)
    ap.add_argument("--hash", type=int, default=64)
    args = ap.parse_args(argv)
    sf = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    sf.configure({"Threads": 1, "Hash": args.hash})
    ours: list[Reply] = []
    theirs: list[Reply] = []
    games = 0
    try:
        for path in args.pgn:
            with open(path) as f:
                while (game := chess.pgn.read_game(f)) is not None:
                    white_ours = game.headers.get("White") == OURS
                    lost = game.headers.get("Result") == ("0-1" if white_ours else "1-0")
                    if args.lost_only and not lost:
                        continue
                    games += 1
                    for r in review_game(game, sf, args.depth):
                        if abs(r.before) < args.level_cp:
                            (ours if r.ours else theirs).append(r)
        print(f"{games} games, Stockfish depth {args.depth}, replies with the mover's score within "
              f"±{args.level_cp} cp")
        report("ours", losses(ours), args.mistake_cp)
        report("Stockfish", losses(theirs), args.mistake_cp)
        if args.retry:
            mistakes = [r for r in ours if r.before - r.after >= args.mistake_cp]
            retry(mistakes, [float(t) for t in args.retry.split(",")], sf, args.depth, args.level, args.hash,
                  args.mistake_cp)
    finally:
        sf.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
