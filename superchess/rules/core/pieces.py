"""Piece types as data: a letter, a name, flags and a movement description.

A movement is a list of components. Each component is one of
  jump  - leap to origin + v, whatever stands between;
  step  - to origin + v if the squares origin + k*(v/g), k < g, are empty (g = gcd of |v|);
  slide - origin + v, + 2v, ... (at most `range` times) while the squares before are empty;
  path  - a fixed sequence of single legs; every square but the last must be empty (lame leapers).
Vectors are (file change, rank change) from the owner's side; `sym` expands them by symmetry.
Each component may be limited to non-captures (`capture = false`), captures (`move = false`), or to
origins on given ranks counted from the owner's side (`ranks`, 1-based).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd

MODES = ("jump", "step", "slide", "path")
Vector = tuple[int, int]


def _images(v: Vector, sym: str) -> list[Vector]:
    dx, dy = v
    if sym == "none":
        return [v]
    if sym == "lr":
        return [(dx, dy), (-dx, dy)]
    if sym == "all":
        out = []
        for a, b in ((dx, dy), (dy, dx)):
            for sa in (1, -1):
                for sb in (1, -1):
                    out.append((a * sa, b * sb))
        return out
    raise ValueError(f"unknown symmetry {sym!r} (use all, lr or none)")


def _dedup(items: list) -> list:
    return list(dict.fromkeys(items))


@dataclass(frozen=True)
class Shape:
    """One concrete way to reach a target: the target offset, the offsets that must be empty, and
    for slides the step vector and maximum number of steps."""
    target: Vector
    between: tuple[Vector, ...] = ()
    slide_range: int = 0  # > 0: a slide along `target` taken as the unit step


@dataclass(frozen=True)
class Component:
    mode: str
    shapes: tuple[Shape, ...]
    move: bool = True
    capture: bool = True
    ranks: tuple[int, ...] = ()


def make_component(mode: str, vectors: list[Vector] | None = None, *, legs: list[Vector] | None = None,
                   sym: str = "none", slide_range: int = 0, move: bool = True, capture: bool = True,
                   ranks: tuple[int, ...] = ()) -> Component:
    if mode not in MODES:
        raise ValueError(f"unknown movement mode {mode!r} (use {', '.join(MODES)})")
    shapes: list[Shape] = []
    if mode == "path":
        if not legs:
            raise ValueError("a path component needs legs")
        # the same symmetry transform applied to every leg
        images = list(zip(*[_images(tuple(leg), sym) for leg in legs]))
        for img in images:
            pos, between = (0, 0), []
            for i, (lx, ly) in enumerate(img):
                pos = (pos[0] + lx, pos[1] + ly)
                if i < len(img) - 1:
                    between.append(pos)
            shapes.append(Shape(pos, tuple(between)))
    else:
        for v in _dedup([im for vec in (vectors or []) for im in _images(tuple(vec), sym)]):
            dx, dy = v
            if mode == "jump":
                shapes.append(Shape(v))
            elif mode == "step":
                g = gcd(abs(dx), abs(dy))
                ux, uy = dx // g, dy // g
                shapes.append(Shape(v, tuple((ux * k, uy * k) for k in range(1, g))))
            else:
                shapes.append(Shape(v, (), slide_range or 10**6))
    return Component(mode, tuple(_dedup(shapes)), move, capture, tuple(ranks))


@dataclass(frozen=True)
class PieceType:
    letter: str          # upper case; Player 2's pieces are written in lower case
    name: str
    movement: tuple[Component, ...]
    royal: bool = False      # exempt from capture consequences (Super Chess Fortress rule)
    checkable: bool = False  # can be checked and checkmated
    pawn: bool = False       # promotes, double steps grant en passant, resets the move-rule count
    castles: str = ""        # "king" or "rook": takes part in castling
    holdable: bool = True    # with holdings (Superchess): a captured piece of this type joins them
    # the board page's drawing when not the one its name chooses (presentation: not compared)
    drawing: str = field(default="", compare=False)

    @property
    def label(self) -> str:
        """The text a board shows for the piece where it has no drawing: its letter."""
        return self.letter


def component_from_data(d: dict) -> Component:
    known = {"mode", "vectors", "legs", "sym", "range", "move", "capture", "ranks"}
    unknown = set(d) - known
    if unknown:
        raise ValueError(f"unknown movement keys {sorted(unknown)}")
    return make_component(
        d["mode"], [tuple(v) for v in d.get("vectors", [])],
        legs=[tuple(v) for v in d["legs"]] if "legs" in d else None,
        sym=d.get("sym", "none"), slide_range=d.get("range", 0),
        move=d.get("move", True), capture=d.get("capture", True), ranks=tuple(d.get("ranks", ())),
    )


def piece_from_data(letter: str, d: dict) -> PieceType:
    if len(letter) != 1 or not letter.isupper():
        raise ValueError(f"piece letter {letter!r} must be one upper-case letter")
    return PieceType(
        letter=letter, name=d["name"],
        movement=tuple(component_from_data(c) for c in d["moves"]),
        royal=d.get("royal", False), checkable=d.get("checkable", False),
        pawn=d.get("pawn", False), castles=d.get("castles", ""), holdable=d.get("holdable", True),
        drawing=d.get("drawing", ""),
    )
