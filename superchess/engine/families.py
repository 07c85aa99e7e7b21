"""The engine's entry points for every variant: the table of engine families (the registry's
`engine` key of a variant -> how the engine plays it) and `choose_move` / `warm_up` over it.

Each family gives the computer's move for the server (plain arguments, so it can run in a worker
process pool) and the UCI `go` on a board. A family whose turns are drafted may answer `RETRACT`
(take the unfinished turn's last move back, tiling R12).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from ..rules import VARIANTS, BaseBoard, spec_of
from . import intergrid_search, play, tiling_search
from .timing import level_limits

#: The computer's answer, in a variant with drafted turns, when the unfinished turn it is in has no
#: completion it can find: take back the turn's last move (the server's `retract` action).
RETRACT = tiling_search.RETRACT


@dataclass(frozen=True)
class EngineFamily:
    """How the engine plays the variants of one engine key."""
    # (variant, start FEN or None, moves, believed rosters, level, time left in ms or None,
    #  increment in ms, root moves or None, seed, stop=event or None) -> the next move's text (or RETRACT)
    choose: Callable[..., str]
    # (board, UCI go options with "level" and "hash", infinite, stop event, send a line) -> None
    think_uci: Callable[[BaseBoard, dict[str, int], bool, threading.Event, Callable[[str], None]], None]
    warm_up: Callable[[str], None] | None = None  # compiles what the first move would (variant name)


def _soft_ms(level: int, time_left_ms: int | None, increment_ms: int) -> Callable[[int], float | None]:
    """The level's clock share for a move at a given turn number."""
    return lambda fullmove: level_limits(level, time_left_ms, increment_ms, fullmove).soft_ms


def _choose_intergrid(variant: str, start_fen: str | None, moves: list[str], rosters, level: int,
                      time_left_ms: int | None, increment_ms: int, root_moves=None, seed=None, stop=None) -> str:
    # a turn search of a share of the clock: short enough to run to its end when asked to stop
    return intergrid_search.choose_intergrid_move(start_fen, moves, level,
                                                  _soft_ms(level, time_left_ms, increment_ms))


def _choose_tiling(variant: str, start_fen: str | None, moves: list[str], rosters, level: int,
                   time_left_ms: int | None, increment_ms: int, root_moves=None, seed=None, stop=None) -> str:
    # a beam over the rest of the turn, the level's clock share per move
    return tiling_search.choose_tiling_move(start_fen, moves, level, _soft_ms(level, time_left_ms, increment_ms))


ENGINES = MappingProxyType({
    "core": EngineFamily(play.choose_core_move, play.think_uci, play.warm_up_core),
    "intergrid": EngineFamily(_choose_intergrid, intergrid_search.think_uci),
    "tiling": EngineFamily(_choose_tiling, tiling_search.think_uci),
})


def engine_of(variant: str) -> EngineFamily:
    """The engine family that plays the registered variant `variant` (ValueError if unknown)."""
    return ENGINES[spec_of(variant).engine]


def choose_move(variant: str, start_fen: str | None, moves: list[str], rosters: tuple[dict, dict] | None,
                level: int, time_left_ms: int | None, increment_ms: int,
                root_moves: list[str] | None = None, seed: int | None = None,
                stop: threading.Event | None = None) -> str:
    """The computer's move text for the game `variant` from `start_fen` (None: the start array)
    after `moves` (move texts), with the rosters the engine believes in (JSON `Roster.from_data`
    form; None or {} = default), at `level` 1-8, with `time_left_ms` on its clock (None: untimed)
    and `increment_ms` per move. With `root_moves`, the answer is one of exactly those texts. In a
    variant with drafted turns the answer may be RETRACT. Setting `stop` (a
    `native_search.StopRequest` for the native search) ends the search early with the best move
    so far (the core's searches; the turn searches of InterGrid and Tiling Rider run to their end)."""
    return engine_of(variant).choose(variant, start_fen, moves, rosters, level, time_left_ms, increment_ms,
                                     root_moves, seed, stop=stop)


def warm_up(variants: tuple[str, ...] | None = None) -> None:
    """Compile what the first `choose_move` of `variants` (default: all that need it) would, so a
    worker process does not spend its clock on it. Suitable as a process-pool initializer."""
    for name in variants or tuple(VARIANTS):
        prepare = engine_of(name).warm_up
        if prepare is not None:
            prepare(name)
