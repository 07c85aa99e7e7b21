"""Time management: how long to think, from the remaining clock and the increment.

`budget` returns a soft limit (do not start another iteration after about half of it; the native
search stretches that share up to 2.2 times while its best move keeps changing or its score falls,
`_native.soft_time_scale`) and a hard limit (abort the search). The number of moves still to play
is estimated from the moves played so far unless the protocol gives it (`movestogo`). A safety
reserve (OVERHEAD_MS per move for process hand-off and replies, and never more than a fraction of
the clock in one move) keeps a normal game from flagging. `level_limits` is a level's search limits
given the clock, for every family's search.
"""
from __future__ import annotations

from .levels import get_level
from .search import Limits

OVERHEAD_MS = 60          # the reply's way to the clock: process hand-off, protocol, network
MIN_MS = 10
HARD_SHARE = 0.25         # never spend more than this share of the remaining time on one move
HARD_FACTOR = 4.0         # the hard limit is at most this many soft limits


def moves_to_go(fullmove: int) -> int:
    """Estimated moves left to play: about 40 early in the game, never fewer than 15."""
    return max(15, 42 - fullmove // 2)


def budget(time_left_ms: float, increment_ms: float = 0, movestogo: int | None = None,
           fullmove: int = 1, overhead_ms: float = OVERHEAD_MS) -> tuple[float, float]:
    """(soft_ms, hard_ms) for one move with `time_left_ms` on the clock."""
    usable = max(0.0, time_left_ms - overhead_ms)
    mtg = max(1, movestogo) if movestogo else moves_to_go(fullmove)
    soft = usable / mtg + increment_ms * 0.75
    hard = min(usable * HARD_SHARE + increment_ms * 0.5, soft * HARD_FACTOR)
    if movestogo == 1:
        hard = usable * 0.8
    hard = min(hard, usable * 0.9)
    soft = min(soft, hard)
    return max(MIN_MS, soft), max(MIN_MS, hard)


def uci_think_ms(opts: dict, side: int, fullmove: int, infinite: bool, default_ms: float) -> float | None:
    """How long to think for a UCI `go` with these options (None: until `stop`, or until the depth
    asked for is searched)."""
    if infinite or ("depth" in opts and "movetime" not in opts):
        return None
    if "movetime" in opts:
        return max(1, opts["movetime"] - 20)
    colour = "wb"[side]
    if f"{colour}time" in opts:
        return budget(opts[f"{colour}time"], opts.get(f"{colour}inc", 0), opts.get("movestogo"), fullmove)[0]
    return default_ms


def level_limits(level: int, time_left_ms: int | None, increment_ms: int, fullmove: int) -> Limits:
    """The search limits of a level given the clock (None: untimed)."""
    lv = get_level(level)
    cap = lv.movetime_ms or None
    if time_left_ms is not None:
        soft, hard = budget(time_left_ms, increment_ms, fullmove=fullmove)
        soft *= lv.time_share
        if (not lv.use_clock or lv.number < 8) and cap is not None:  # the level's own pace
            soft = min(soft, cap)
        if lv.max_ms:
            hard = min(hard, lv.max_ms)
            soft = min(soft, hard)
    else:
        soft = cap
        hard = lv.max_ms or None
    return Limits(depth=lv.depth, nodes=lv.nodes or None, soft_ms=soft, hard_ms=hard)
