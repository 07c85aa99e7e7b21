"""Piece values derived from movement, as compiled for a side's roster.

A piece's worth is estimated from where it can go on an empty board, averaged over every square:
each destination counts once, weighted down when something could block the way (the k-th square of
a slide counts SLIDE_DECAY**(k-1), a lame path's target SLIDE_DECAY**(squares that must be empty)),
so long rays are credited for range without letting board size dominate; leaps count JUMP_BONUS
each, as nothing can block them.
Move-only and capture-only destinations count half. The value is a power law of that "effective
mobility" calibrated so that the orthodox Knight is 320 (pawns: at least 100). Orthodox chess comes out as
P 100, N 320, B 335, R 485, Q 876.
Checkable pieces (Kings) get no material value: losing one ends the game, which the search sees.
Royal, non-checkable pieces (super16's Queen, Prince, Princess) get a small bonus: the Fortress rule
does not destroy them when they capture a garrisoned piece.

Values are cached per (variant, roster of that side, side).
"""
from __future__ import annotations

from functools import lru_cache

from ..rules.core.program import Roster
from ..rules.core.tables import (
    EP_CAPTURE,
    LEAP_C,
    LEAP_M,
    LEAP_MC,
    PAT_C,
    PAT_M,
    PAT_MC,
    RAY_C,
    RAY_M,
    RAY_MC,
    compiled_piece,
)
from ..rules.core.variant import load_variant

SLIDE_DECAY = 0.75
EXPONENT = 1.1
JUMP_BONUS = 1.15            # a leap cannot be blocked
KNIGHT_MOBILITY = 5.25 * JUMP_BONUS  # the orthodox Knight's effective mobility (8x8 average)
KNIGHT_VALUE = 320
ROYAL_BONUS = 1.05
PAWN_MINIMUM = 100

_MODE_WEIGHT = {LEAP_MC: 1.0, LEAP_M: 0.5, LEAP_C: 0.5, PAT_MC: 1.0, PAT_M: 0.5, PAT_C: 0.5,
                RAY_MC: 1.0, RAY_M: 0.5, RAY_C: 0.5}


def cell_mobility(groups) -> float:
    """Effective mobility of one compiled cell entry (the piece alone on an empty board)."""
    total = 0.0
    for kind, entries in groups:
        if kind == EP_CAPTURE:
            continue
        w = _MODE_WEIGHT[kind]
        if kind in (LEAP_MC, LEAP_M, LEAP_C):
            total += w * JUMP_BONUS * len(entries)
        elif kind in (PAT_MC, PAT_M, PAT_C):
            total += w * sum(SLIDE_DECAY ** len(between) for _, _, between in entries)
        else:
            for ray in entries:
                total += w * sum(SLIDE_DECAY ** k for k in range(len(ray)))
    return total


def value_of_mobility(mobility: float) -> float:
    return KNIGHT_VALUE * (mobility / KNIGHT_MOBILITY) ** EXPONENT if mobility > 0 else 0.0


@lru_cache(maxsize=256)
def _piece_profile(variant_name: str, side: int, type_index: int, program) -> tuple[float, tuple[float, ...]]:
    """(average effective mobility, mobility per cell) of one piece type for one side."""
    table, _ = compiled_piece(variant_name, side, type_index, program)
    per_cell = tuple(cell_mobility(groups) for _, groups in table)
    variant = load_variant(variant_name)
    pt = variant.pieces[type_index - 1]
    if pt.pawn:  # a pawn never stands on its own last rank: average over the cells it can use
        files, ranks = variant.geometry.files, variant.geometry.ranks
        last = ranks - 1 if side == 0 else 0
        usable = [m for c, m in enumerate(per_cell) if c // files != last]
    else:
        usable = list(per_cell)
    return sum(usable) / len(usable), per_cell


def piece_profile(variant_name: str, roster: Roster, side: int, letter: str) -> tuple[float, tuple[float, ...]]:
    variant = load_variant(variant_name)
    ti = variant.type_index(letter)
    return _piece_profile(variant_name, side, ti, roster.get(letter))


@lru_cache(maxsize=128)
def _values(variant_name: str, roster_key: tuple, side: int) -> dict[str, int]:
    variant = load_variant(variant_name)
    roster = Roster(roster_key)
    out = {}
    for pt in variant.pieces:
        if pt.checkable:
            out[pt.letter] = 0
            continue
        v = value_of_mobility(piece_profile(variant_name, roster, side, pt.letter)[0])
        if pt.royal:
            v *= ROYAL_BONUS
        if pt.pawn:
            v = max(v, PAWN_MINIMUM)
        out[pt.letter] = round(v)
    return out


def piece_values(variant_name: str, roster: Roster | None = None, side: int = 0) -> dict[str, int]:
    """Letter -> centipawn value for `side`'s pieces moving as `roster` says (Kings: 0)."""
    return dict(_values(variant_name, (roster or Roster()).key(), side))
