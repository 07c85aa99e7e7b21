"""Tiling Rider: two levels of the computer against each other, in this process, through the server's
entry point (`engine.play.choose_move`, one call per move of a turn, `end` included).

Each game starts from a seeded random opening (`--opening` random turns from the start) and each
opening is played twice with colours swapped. Clocks are kept here (wall time per call, Fischer
increment per turn) and passed to every call, as the server does; a side whose clock runs out
loses. A game still going after --max-turns turns is won by the side the engine's evaluation
(`tiling_search.evaluate` at a turn start) puts ahead by --adjudicate centipawns or more, else drawn.

Prints each game, then the score of level A, and the time per call and per turn of each level.

    .venv/bin/python bench/tiling_match.py --a-level 8 --b-level 1 --games 4 --tc 60+1
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from superchess.engine import choose_move
from superchess.engine.tiling_search import RETRACT, evaluate
from superchess.rules import Board
from superchess.rules.core.turns import END_TURN


def opening(turns: int, seed: int) -> list[str]:
    """The moves of `turns` seeded random turns from the start."""
    rng, b = random.Random(seed), Board("tilingrider")
    while len(b.turn_texts()) < turns or b.moves_in_turn:
        b.push(rng.choice(b.legal_moves))
    return [m.text for m in b.move_stack]


def play_game(args: argparse.Namespace, a_white: bool, start: list[str], times: dict) -> tuple[float, str]:
    """(A's score, how the game ended); each call's time into `times[level]` (calls, turns)."""
    levels = (args.a_level, args.b_level) if a_white else (args.b_level, args.a_level)
    b = Board("tilingrider")
    for text in start:
        b.push_text(text)
    clock = [args.tc_ms, args.tc_ms]
    turn_time = 0.0
    retracts = 0
    while True:
        outcome = b.outcome() if not b.moves_in_turn else None
        if outcome is not None:
            winner, why = outcome.winner, outcome.termination.name.lower()
            break
        if len(b.turn_texts()) >= args.max_turns and not b.moves_in_turn:
            margin = evaluate(b.position, 0)
            winner = 0 if margin >= args.adjudicate else 1 if margin <= -args.adjudicate else None
            why = f"adjudicated at {margin:+d} for White"
            break
        side, level = b.turn, levels[b.turn]
        t0 = time.monotonic()
        try:
            text = choose_move("tilingrider", None, [m.text for m in b.move_stack], None, level, clock[side], args.inc_ms)
        except ValueError:  # no legal turn found at all (only taking moves back could not help)
            winner, why = 1 - side, "no legal turn found"
            break
        spent = time.monotonic() - t0
        times[level][0].append(spent)
        turn_time += spent
        clock[side] -= spent * 1000
        if clock[side] < 0:
            winner, why = 1 - side, "time"
            break
        if text == RETRACT:  # its unfinished turn led nowhere: a move taken back (R12)
            b.pop()
            retracts += 1
            continue
        b.push_text(text)
        if text == END_TURN or not b.moves_in_turn:
            clock[side] += args.inc_ms
            times[level][1].append(turn_time)
            turn_time = 0.0
    a_side = 0 if a_white else 1
    return (0.5 if winner is None else float(winner == a_side)), f"{why}, {len(b.turn_texts())} turns, {retracts} moves taken back"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a-level", type=int, default=8)
    ap.add_argument("--b-level", type=int, default=1)
    ap.add_argument("--games", type=int, default=4, help="games (pairs of openings, colours swapped)")
    ap.add_argument("--tc", default="60+1", help="seconds per game + increment per turn")
    ap.add_argument("--opening", type=int, default=2, help="random turns before the levels play")
    ap.add_argument("--max-turns", type=int, default=40)
    ap.add_argument("--adjudicate", type=int, default=300, help="centipawns that win an unfinished game")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    base, _, inc = args.tc.partition("+")
    args.tc_ms, args.inc_ms = int(float(base) * 1000), int(float(inc or 0) * 1000)
    times: dict[int, tuple[list[float], list[float]]] = {args.a_level: ([], []), args.b_level: ([], [])}
    total = 0.0
    for g in range(args.games):
        start = opening(args.opening, args.seed + g // 2)
        score, how = play_game(args, g % 2 == 0, start, times)
        total += score
        print(f"game {g + 1}: level {args.a_level} {'White' if g % 2 == 0 else 'Black'} scores {score} ({how})",
              flush=True)
    print(f"level {args.a_level} against level {args.b_level}: {total} / {args.games}")
    for level, (calls, turns) in times.items():
        if calls:
            print(f"level {level}: {len(calls)} calls, {1000 * sum(calls) / len(calls):.0f} ms per call "
                  f"(max {1000 * max(calls):.0f}), {1000 * sum(turns) / max(1, len(turns)):.0f} ms per turn")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
