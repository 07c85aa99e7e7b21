"""A board of two lattices: `files` x `ranks` squares and the (files+1) x (ranks+1) points where the
grid lines cross (InterGrid 1, R1). One cell list: the squares first (cell = rank * files + file, named
`a1`..), then the points (`point_base` + line * (files+1) + file, named `A0`..).

Besides names and coordinates per layer, the geometry knows how the layers touch: the corners of a
square, the squares around a point, and for every single step of a piece in one layer the cells of
the other layer that can bar it (the `barrier` of the step, InterGrid 3.1-3.2, R2); and how a client
draws both layers with one component (`layout`: each cell's shape and centre in board units).
"""
from __future__ import annotations

SQUARES, POINTS = 0, 1
SQUARE_SIZE = 1.0
POINT_SIZE = 0.55  # a point-piece is drawn smaller, centred on its grid point
Barrier = tuple[int, int]  # the step is barred when both cells are occupied (one cell: written twice)


class IntergridGeometry:
    def __init__(self, files: int, ranks: int) -> None:
        if not (1 <= files <= 25 and 1 <= ranks <= 9):
            raise ValueError(f"unsupported InterGrid board size {files}x{ranks}")
        self.files, self.ranks = files, ranks
        self.point_base = files * ranks
        self.size = self.point_base + (files + 1) * (ranks + 1)
        # per layer: lattice width and height
        self.dims = ((files, ranks), (files + 1, ranks + 1))
        self.layer: list[int] = [SQUARES] * self.point_base + [POINTS] * (self.size - self.point_base)
        self.coords: list[tuple[int, int]] = [(c % files, c // files) for c in range(self.point_base)] + \
            [(i % (files + 1), i // (files + 1)) for i in range(self.size - self.point_base)]
        self.names: list[str] = [chr(97 + f) + str(r + 1) for f, r in self.coords[:self.point_base]] + \
            [chr(65 + f) + str(r) for f, r in self.coords[self.point_base:]]
        self._index = {name: c for c, name in enumerate(self.names)}
        self.corners: list[tuple[int, ...]] = [self._corners(s) for s in range(self.point_base)]
        self.around: list[tuple[int, ...]] = [()] * self.point_base + \
            [self._around(p) for p in range(self.point_base, self.size)]

    # -- cells ---------------------------------------------------------------------------------
    def cell(self, layer: int, x: int, y: int) -> int | None:
        """The cell of `layer` at lattice coordinates (x, y), or None off the board."""
        w, h = self.dims[layer]
        if 0 <= x < w and 0 <= y < h:
            return (0 if layer == SQUARES else self.point_base) + y * w + x
        return None

    def offset(self, cell: int, dx: int, dy: int) -> int | None:
        """The cell (dx, dy) away within the same layer."""
        x, y = self.coords[cell]
        return self.cell(self.layer[cell], x + dx, y + dy)

    def name(self, cell: int) -> str:
        return self.names[cell]

    def parse_cell(self, text: str) -> int:
        c = self._index.get(text)
        if c is None:
            raise ValueError(f"no square or point named {text!r}")
        return c

    def is_edge(self, cell: int) -> bool:
        """A point on the board's rim (InterGrid 1: file A or I, line 0 or 8)."""
        if self.layer[cell] != POINTS:
            return False
        x, y = self.coords[cell]
        return x in (0, self.files) or y in (0, self.ranks)

    def is_dark(self, cell: int) -> bool:
        x, y = self.coords[cell]
        return (x + y) % 2 == 0

    def layout(self) -> dict:
        """The board description: every cell with its shape, centre and size (a square is 1 unit
        wide; the board spans 0..files by 0..ranks); both coordinate sets."""
        base = self.point_base
        cells = [{"name": n, "shape": "square", "x": x + 0.5, "y": y + 0.5, "size": SQUARE_SIZE}
                 for n, (x, y) in zip(self.names[:base], self.coords[:base])]
        cells += [{"name": n, "shape": "point", "x": float(x), "y": float(y), "size": POINT_SIZE}
                  for n, (x, y) in zip(self.names[base:], self.coords[base:])]
        return {"width": self.files, "height": self.ranks, "cells": cells,
                "labels": {"square": {"files": "".join(chr(97 + f) for f in range(self.files)),
                                      "ranks": [str(r) for r in range(1, self.ranks + 1)]},
                           "point": {"files": "".join(chr(65 + f) for f in range(self.files + 1)),
                                     "ranks": [str(r) for r in range(self.ranks + 1)]}}}

    # -- how the layers touch ------------------------------------------------------------------
    def _corners(self, s: int) -> tuple[int, ...]:
        f, r = self.coords[s]
        return tuple(self.cell(POINTS, f + i, r + j) for j in (0, 1) for i in (0, 1))

    def _around(self, p: int) -> tuple[int, ...]:
        x, y = self.coords[p]
        cells = (self.cell(SQUARES, x + i, y + j) for j in (-1, 0) for i in (-1, 0))
        return tuple(c for c in cells if c is not None)

    def opposite_corner(self, s: int, p: int) -> int:
        """The corner of square `s` diagonally opposite its corner `p`."""
        (f, r), (x, y) = self.coords[s], self.coords[p]
        return self.cell(POINTS, 2 * f + 1 - x, 2 * r + 1 - y)

    def opposite_square(self, s: int, p: int) -> int | None:
        """The square diagonally opposite `s` across its corner `p`; None beyond the edge."""
        (f, r), (x, y) = self.coords[s], self.coords[p]
        return self.cell(SQUARES, 2 * x - f - 1, 2 * y - r - 1)

    def barrier(self, cell: int, dx: int, dy: int) -> Barrier | None:
        """The other-layer cells that bar the unit step (dx, dy) from `cell` when all are occupied:
        a square's orthogonal step crosses a grid segment (its two end points), a diagonal one its
        common corner; a point's orthogonal step runs between the squares bordering the segment (one
        at the edge, R2), a diagonal one crosses a square. None for a step that is not a unit step."""
        if max(abs(dx), abs(dy)) != 1:
            return None
        x, y = self.coords[cell]
        if self.layer[cell] == SQUARES:
            if dx and dy:
                p = self.cell(POINTS, max(x, x + dx), max(y, y + dy))
                return p, p
            if dx:
                return self.cell(POINTS, max(x, x + dx), y), self.cell(POINTS, max(x, x + dx), y + 1)
            return self.cell(POINTS, x, max(y, y + dy)), self.cell(POINTS, x + 1, max(y, y + dy))
        if dx and dy:
            s = self.cell(SQUARES, min(x, x + dx), min(y, y + dy))
            return s, s
        if dx:
            sides = (self.cell(SQUARES, min(x, x + dx), y - 1), self.cell(SQUARES, min(x, x + dx), y))
        else:
            sides = (self.cell(SQUARES, x - 1, min(y, y + dy)), self.cell(SQUARES, x, min(y, y + dy)))
        present = [c for c in sides if c is not None]
        return present[0], present[-1]
