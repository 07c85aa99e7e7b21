"""Named hooks: the parts of a variant's rules that its data cannot say.

A variant's TOML names them under [hooks]; each is a plain function over a position.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Callable

from .encoding import type_of

if TYPE_CHECKING:
    from .position import Position

# capture_consequence(position, side) -> cells of `side`'s pieces whose capture by a non-royal piece
# removes the capturer too (judged before the move).
CaptureConsequence = Callable[["Position", int], frozenset]
# insufficient_material(position, side) -> True when `side` can never mate.
InsufficientMaterial = Callable[["Position", int], bool]


def fortress_garrison(pos: "Position", side: int) -> frozenset:
    """Super Chess 16x16: a piece next to a Fortress of its own side is garrisoned (a Fortress
    garrisons another Fortress, never itself)."""
    board = pos.board
    fortress = pos.code_for(side, "F")
    own = pos.tables.own[side]
    out = set()
    adjacent = pos.variant.geometry.adjacent
    for cell in pos.occ[side]:
        if board[cell] == fortress:
            for nb in adjacent[cell]:
                if own[board[nb]]:
                    out.add(nb)
    return frozenset(out)


def _letters(pos: "Position", side: int) -> Counter:
    return Counter(pos.variant.pieces[type_of(pos.board[c]) - 1].letter for c in pos.occ[side])


def fide_insufficient(pos: "Position", side: int) -> bool:
    """Orthodox chess, as python-chess judges it: King alone, King + one Knight against a bare King
    or King + Queens, or only Bishops all on one square colour (no pawns or Knights anywhere)."""
    mine, theirs = _letters(pos, side), _letters(pos, 1 - side)
    if set(mine) - {"K", "N", "B"}:
        return False
    if mine["N"]:
        return sum(mine.values()) <= 2 and not (set(theirs) - {"K", "Q"})
    if mine["B"]:
        geo = pos.variant.geometry
        bishops = [c for s in (0, 1) for c in pos.occ[s] if pos.letter_at(c) == "B"]
        one_colour = len({geo.is_dark(c) for c in bishops}) == 1
        return one_colour and not (mine["P"] or theirs["P"] or theirs["N"])
    return True


def lone_minor(pos: "Position", side: int) -> bool:
    """Super Chess 16x16 R10/R12: only the King plus at most one Bishop or one Knight."""
    if len(pos.occ[side]) > 2:  # asked after every move: most positions are decided by the count
        return False
    mine = _letters(pos, side)
    rest = sum(mine.values()) - mine["K"]
    return rest == 0 or (rest == 1 and (mine["B"] or mine["N"]) > 0)


def never_insufficient(pos: "Position", side: int) -> bool:
    """Variants without an insufficient-material draw (Vanguard 4.6)."""
    return False


CAPTURE_CONSEQUENCES: dict[str, CaptureConsequence] = {"fortress": fortress_garrison}
INSUFFICIENT_MATERIAL: dict[str, InsufficientMaterial] = {"fide": fide_insufficient, "lone_minor": lone_minor,
                                                         "never": never_insufficient}
